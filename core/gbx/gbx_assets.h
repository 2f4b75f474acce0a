/* GBX assets: the `assets` and `asset_patch` hooks (gbx_assets.c, docs/formats/gbx.md "Assets"). */
#ifndef RB_GBX_ASSETS_H
#define RB_GBX_ASSETS_H
#include <jansson.h>
#include "../doc_state.h"

int gbx_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
               size_t why_size);
json_t *gbx_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                        size_t why_size);
#endif
