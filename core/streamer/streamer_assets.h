/* Streamer map assets: the `assets` and `asset_patch` hooks (streamer_assets.c,
 * docs/formats/streamer.md "Assets"). */
#ifndef RB_STREAMER_ASSETS_H
#define RB_STREAMER_ASSETS_H
#include <jansson.h>
#include "core/model/doc_state.h"

int streamer_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
                    size_t why_size);
json_t *streamer_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                             size_t why_size);
#endif
