/*
 * The asset of a .wtd (`rebyte extract`, docs/formats/tres.md "WTD heights"): the terrain's
 * height map as a 16-bit greyscale PNG, made from the model as it is now (an edited tree gives
 * the edited terrain).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/assets.h"
#include "core/model/doc_state.h"
#include "core/tres/tres.h"
#include "core/tres/wtd_tree.h"

enum { MAX_PNG_SIDE = 2048 }; /* 8 MiB of pixels; pv.wtd's 8192-unit tree at every 4 units (1 m) */

/* The decoded content the coder would encode, built from the model: the heights need the root
 * coefficient, the quad size and the node records. */
static uint8_t *model_content(const rb_node *terrain, size_t *size, char *why, size_t why_size)
{
    const rb_node *nodes = rb_node_get(terrain, "nodes"), *mapping = rb_node_get(terrain, "mapping");
    const rb_node *root = rb_node_get(terrain, "rootCoefficient");
    if (!nodes || !mapping || !root) return snprintf(why, why_size, "the terrain has no nodes, mapping or root"), NULL;
    size_t count = rb_element_count(nodes);
    if (count > UINT32_MAX / RB_WTD_NODE_BYTES) return snprintf(why, why_size, "%zu nodes is too many", count), NULL;
    *size = rb_wtd_content_size((uint32_t)count);
    uint8_t *c = calloc(1, *size);
    if (!c) return snprintf(why, why_size, "out of memory"), NULL;
    uint32_t r = (uint32_t)rb_node_uint(root);
    c[2] = (uint8_t)(r >> 24), c[3] = (uint8_t)(r >> 16), c[4] = (uint8_t)(r >> 8), c[5] = (uint8_t)r;
    const char *const sizes[2] = {"quadSizeX", "quadSizeY"};
    for (int k = 0; k < 2; k++) {
        const rb_node *q = rb_node_get(mapping, sizes[k]);
        uint32_t v = q ? (uint32_t)rb_node_uint(q) : 0;
        for (int b = 0; b < 4; b++) c[6 + 8 + 4 * k + b] = (uint8_t)(v >> (8 * b));
    }
    static const char *const fields[6] = {"x", "y", "size", "bottomMid", "centre", "leftMid"};
    for (size_t i = 0; i < count; i++)
        for (int f = 0; f < 6; f++) {
            uint32_t v = (uint32_t)rb_element_uint(nodes, i, fields[f]);
            uint8_t *p = c + RB_WTD_CONTENT_HEADER_BYTES + i * RB_WTD_NODE_BYTES + 4 * f;
            for (int b = 0; b < 4; b++) p[b] = (uint8_t)(v >> (8 * b));
        }
    return c;
}

/* Heights to 16-bit grey, the highest y at the top: exact (offset by the lowest height)
 * when the range fits in 16 bits, else scaled. */
static uint16_t *to_grey(const int32_t *h, uint32_t side, char *note, size_t note_size, uint32_t spacing)
{
    size_t points = (size_t)side * side;
    uint16_t *px = malloc(points * sizeof *px);
    if (!px) return NULL;
    int64_t lo = h[0], hi = h[0];
    for (size_t i = 1; i < points; i++) lo = h[i] < lo ? h[i] : lo, hi = h[i] > hi ? h[i] : hi;
    int64_t range = hi - lo;
    for (uint32_t row = 0; row < side; row++)
        for (uint32_t col = 0; col < side; col++) {
            int64_t v = h[(size_t)(side - 1 - row) * side + col] - lo;
            px[(size_t)row * side + col] = (uint16_t)(range <= 65535 ? v : (v * 65535 + range / 2) / range);
        }
    if (range <= 65535)
        snprintf(note, note_size, "heights every %u quad units, highest y at the top; height = (grey + %lld) x coefToWorld metres",
                 spacing, (long long)lo);
    else
        snprintf(note, note_size, "heights every %u quad units, highest y at the top; height = (grey x %lld / 65535 + %lld) x "
                 "coefToWorld metres (rounded: the range is wider than 16 bits)", spacing, (long long)range,
                 (long long)lo);
    return px;
}

int wtd_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
                    size_t why_size)
{
    if (only_kind && strcmp(only_kind, "image") != 0) return 0;
    const rb_node *terrain = rb_node_get(doc->root, "terrain");
    size_t size = 0;
    uint8_t *content = terrain ? model_content(terrain, &size, why, why_size) : NULL;
    if (!terrain) return 0; /* a tree kept as its bits (docs/formats/tres.md "WTD (wtd)") */
    if (!content) return -1;
    uint32_t root = rb_wtd_root_size(content), side = 0;
    uint32_t spacing = root > MAX_PNG_SIDE ? root / MAX_PNG_SIDE : 1;
    int32_t *heights = NULL;
    uint16_t *grey = NULL;
    uint8_t *png = NULL;
    size_t png_size = 0;
    char note[200];
    int r = -1;
    if (rb_wtd_heights(content, size, spacing, doc->limits.max_decompressed_size, &heights, &side, why, why_size) != 0)
        goto done;
    if (!(grey = to_grey(heights, side, note, sizeof note, spacing))) {
        snprintf(why, why_size, "out of memory for the %u x %u height map", side, side);
        goto done;
    }
    if (rb_png_from_grey16(grey, side, side, &png, &png_size, why, why_size) != 0) goto done;
    rb_asset asset = {.name = "terrain/heights.png", .kind = "image", .path = "/terrain", .data = png,
                      .size = sizeof(rb_asset), .data_size = png_size, .replaceable = 0, .note = note};
    r = rb_asset_emit(sink, context, &asset, why, why_size);
done:
    free(content), free(heights), free(grey), free(png);
    return r;
}
