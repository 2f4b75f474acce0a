/* Trespasser asset hooks (tres_assets.c, docs/formats/tres.md "Assets"). */
#ifndef RB_TRES_ASSETS_H
#define RB_TRES_ASSETS_H
#include <jansson.h>
#include "core/model/doc_state.h"

int pid_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
                    size_t why_size);
int spz_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
                    size_t why_size);
json_t *spz_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                             size_t why_size);
int tpa_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
                    size_t why_size);
json_t *tpa_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                             size_t why_size);
#endif
