/* GBX assets: the `assets` and `asset_patch` hooks (gbx_assets.c, docs/formats/gbx.md "Assets"). */
#ifndef RB_GBX_ASSETS_H
#define RB_GBX_ASSETS_H
#include <jansson.h>
#include "core/model/doc_state.h"

int gbx_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
               size_t why_size);
json_t *gbx_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                        size_t why_size);
/* The `asset_unit` hook: 0 for a deferred body chunk, or a list deferred in one, that holds none
 * of what gbx_assets hands out. */
int gbx_asset_unit(const rb_node *unit, const rb_node *parent);

/* A map thumbnail (gbx_thumbnail.c): the stored JPEG with an EXIF Orientation 4 segment after SOI,
 * so viewers show it the right way up (malloc'd; -1 when it is no JPEG); and the way back, the
 * stored form of `picture` (a JPEG or PNG) that replaces thumbnail `current` (malloc'd; 0, or -1
 * with why). */
int gbx_thumbnail_for_viewers(const uint8_t *stored, size_t size, uint8_t **out, size_t *out_size);
int gbx_thumbnail_as_stored(const uint8_t *current, size_t current_size, const uint8_t *picture, size_t size,
                            uint8_t **out, size_t *out_size, char *why, size_t why_size);
/* The samples of the first ghost at or below `node` (docs/formats/gbx_ghost.md "Samples"), in
 * order: each one's time (ms; NaN when unknown), position (m) and speed (km/h; NaN when the
 * sample has none) to `fn`. How many there were (0: no decoded samples there). */
typedef void (*gbx_sample_fn)(void *context, double time_ms, const double position[3], double speed_kmh);
size_t gbx_ghost_samples(const rb_doc *doc, const rb_node *node, gbx_sample_fn fn, void *context);
#endif
