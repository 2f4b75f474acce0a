/*
 * The height grid a WTD tree stands for: the inverse of the exporter's integer wavelet
 * transform (docs/formats/tres.md "WTD heights"). Levels run from the root down; at each,
 * the update step is undone on the corners of that level's nodes, then the predict step gives
 * the midpoints. A node the tree does not store has zero wavelets. A coarser grid (every
 * `spacing` quad units) is exact too: its points are corners at every finer level, and undoing
 * an update needs only the stored wavelets, so the finer levels are applied to those points
 * alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/tres/wtd_tree.h"

/* A 16384-side grid would be 5 GiB of work memory: the side is capped, and the memory a grid
 * takes is checked against the caller's max_bytes (the document's max_decompressed_size). */
enum { MAX_SIDE = 1u << 14 };

typedef struct node_index {
    const uint8_t *content;
    uint32_t *slots; /* record index + 1; 0 = empty */
    size_t mask;
} node_index;

static size_t slot_of(const node_index *ix, uint32_t x, uint32_t y, uint32_t size)
{
    uint64_t h = ((uint64_t)x * 0x9E3779B1u) ^ ((uint64_t)y * 0x85EBCA77u) ^ ((uint64_t)size * 0xC2B2AE3Du);
    return (size_t)(h ^ h >> 17) & ix->mask;
}

static int index_build(node_index *ix, const uint8_t *content, size_t count)
{
    size_t cap = 16;
    while (cap < count * 2) cap *= 2;
    ix->content = content;
    ix->mask = cap - 1;
    ix->slots = calloc(cap, sizeof *ix->slots);
    if (!ix->slots) return -1;
    for (size_t i = 0; i < count; i++) {
        rb_wtd_node n;
        rb_wtd_node_get(content, i, &n);
        size_t s = slot_of(ix, n.x, n.y, n.size);
        while (ix->slots[s]) s = (s + 1) & ix->mask;
        ix->slots[s] = (uint32_t)i + 1;
    }
    return 0;
}

static void index_wavelets(const node_index *ix, uint32_t x, uint32_t y, uint32_t size, int64_t w[3])
{
    w[0] = w[1] = w[2] = 0;
    for (size_t s = slot_of(ix, x, y, size); ix->slots[s]; s = (s + 1) & ix->mask) {
        rb_wtd_node n;
        rb_wtd_node_get(ix->content, ix->slots[s] - 1, &n);
        if (n.x == x && n.y == y && n.size == size) {
            for (int i = 0; i < 3; i++) w[i] = n.wavelet[i];
            return;
        }
    }
}

/* floor(v / 2^k), whatever the compiler does with >> on negative numbers (the exporter relied on
 * an arithmetic shift) */
static int64_t floor_shift(int64_t v, unsigned k)
{
    return v >= 0 ? v >> k : -(int64_t)(((uint64_t)-v + ((1u << k) - 1)) >> k);
}

/* What a node's wavelets add to its corners' update accumulators: the 0-disc wavelet's
 * footprint, reflected at the quad tree's minimum edges. */
static void corner_sums(const int64_t w[3], int diagonal_1_3, int min_x, int min_y, int64_t c[4])
{
    c[0] = w[0] + w[2], c[1] = w[0], c[2] = 0, c[3] = w[2];
    if (diagonal_1_3) c[1] += w[1], c[3] += w[1];
    else c[0] += w[1], c[2] += w[1];
    if (min_x) {
        c[0] += w[0];
        if (diagonal_1_3) c[3] += w[1];
        else c[0] += w[1];
    }
    if (min_y) {
        c[0] += w[2];
        if (diagonal_1_3) c[1] += w[1];
        else c[0] += w[1];
    }
    if (min_x && min_y) c[0] += w[1];
}

/* A node's diagonal: from corner 1 to 3 for descendants 1 and 3 of their parent, else 0 to 2. */
static int diagonal_1_3(uint32_t x, uint32_t y, uint32_t size) { return ((x / size) ^ (y / size)) & 1; }

typedef struct grid {
    int64_t *h, *acc;
    uint32_t root, spacing, side;
} grid;

static int64_t *at(const grid *g, int64_t *a, uint32_t x, uint32_t y)
{
    return &a[(size_t)(y / g->spacing) * g->side + x / g->spacing];
}

/* Corner k of a node, moved inside the tree where the node touches the maximum edges (the
 * exporter's reflection: the corners there hold no data of their own). */
static void corner(const grid *g, uint32_t x, uint32_t y, uint32_t size, unsigned k, uint32_t *cx, uint32_t *cy)
{
    if (x + size == g->root) k = (k >> 1) | (k & 2);
    if (y + size == g->root) k = (k ^ (k >> 1)) & 1;
    *cx = x + (k == 1 || k == 2 ? size : 0);
    *cy = y + (k >= 2 ? size : 0);
}

static void undo_update(grid *g, const uint8_t *content, size_t count, uint32_t size)
{
    uint32_t step = size >= g->spacing ? size : g->spacing;
    for (uint32_t y = 0; y < g->root; y += step)
        for (uint32_t x = 0; x < g->root; x += step) *at(g, g->acc, x, y) = 0;
    for (size_t i = 0; i < count; i++) {
        rb_wtd_node n;
        rb_wtd_node_get(content, i, &n);
        if (n.size != size) continue;
        int64_t w[3] = {n.wavelet[0], n.wavelet[1], n.wavelet[2]}, c[4];
        corner_sums(w, diagonal_1_3(n.x, n.y, size), n.x == 0, n.y == 0, c);
        for (unsigned k = 0; k < 4; k++) {
            uint32_t cx = n.x + (k == 1 || k == 2 ? size : 0), cy = n.y + (k >= 2 ? size : 0);
            /* corners on the maximum edges are never base vertices: they are not updated */
            if (cx < g->root && cy < g->root && cx % g->spacing == 0 && cy % g->spacing == 0)
                *at(g, g->acc, cx, cy) += c[k];
        }
    }
    for (uint32_t y = 0; y < g->root; y += step)
        for (uint32_t x = 0; x < g->root; x += step) *at(g, g->h, x, y) -= floor_shift(*at(g, g->acc, x, y) + 4, 3);
}

static int64_t predict(const grid *g, uint32_t x, uint32_t y, uint32_t size, unsigned a, unsigned b)
{
    uint32_t ax, ay, bx, by;
    corner(g, x, y, size, a, &ax, &ay);
    corner(g, x, y, size, b, &bx, &by);
    return floor_shift(*at(g, g->h, ax, ay) + *at(g, g->h, bx, by) + 1, 1);
}

static void undo_predict(grid *g, const node_index *ix, uint32_t size)
{
    uint32_t half = size / 2;
    for (uint32_t y = 0; y < g->root; y += size)
        for (uint32_t x = 0; x < g->root; x += size) {
            int64_t w[3];
            index_wavelets(ix, x, y, size, w);
            int d = diagonal_1_3(x, y, size);
            *at(g, g->h, x + half, y) = w[0] + predict(g, x, y, size, 0, 1);
            *at(g, g->h, x + half, y + half) = w[1] + (d ? predict(g, x, y, size, 1, 3) : predict(g, x, y, size, 0, 2));
            *at(g, g->h, x, y + half) = w[2] + predict(g, x, y, size, 0, 3);
        }
}

int rb_wtd_heights(const uint8_t *content, size_t content_size, uint32_t spacing, uint64_t max_bytes, int32_t **out,
                   uint32_t *side, char *err, size_t err_size)
{
    *out = NULL;
    *side = 0;
    int64_t count = rb_wtd_content_nodes(content_size);
    if (count < 0) return snprintf(err, err_size, "%zu bytes is not decoded WTD content", content_size), -1;
    uint32_t root = rb_wtd_root_size(content);
    if (!root) return snprintf(err, err_size, "the quad size is not a square of a power of two"), -1;
    if (spacing == 0 || (spacing & (spacing - 1)) || spacing > root || root / spacing > MAX_SIDE)
        return snprintf(err, err_size, "spacing %u: a power of two from %u to %u", spacing,
                        root / MAX_SIDE ? root / MAX_SIDE : 1, root), -1;
    grid g = {.root = root, .spacing = spacing, .side = root / spacing};
    size_t points = (size_t)g.side * g.side;
    uint64_t needed = (uint64_t)points * (sizeof *g.h + sizeof *g.acc + sizeof **out);
    if (needed > max_bytes)
        return snprintf(err, err_size, "a %u x %u height grid takes %llu bytes, beyond the limit max_decompressed_size "
                        "(%llu; REBYTE_LIMITS raises it)", g.side, g.side, (unsigned long long)needed,
                        (unsigned long long)max_bytes), -1;
    node_index ix = {0};
    g.h = calloc(points, sizeof *g.h);
    g.acc = calloc(points, sizeof *g.acc);
    int32_t *heights = malloc(points * sizeof *heights);
    if (!g.h || !g.acc || !heights || index_build(&ix, content, (size_t)count) != 0) {
        free(g.h), free(g.acc), free(heights), free(ix.slots);
        return snprintf(err, err_size, "out of memory for a %u x %u height grid", g.side, g.side), -1;
    }
    g.h[0] = (int32_t)((uint32_t)content[2] << 24 | content[3] << 16 | content[4] << 8 | content[5]);
    for (uint32_t size = root; size >= 2; size /= 2) {
        undo_update(&g, content, (size_t)count, size);
        if (size / 2 >= spacing) undo_predict(&g, &ix, size);
    }
    for (size_t i = 0; i < points; i++)
        heights[i] = g.h[i] > INT32_MAX ? INT32_MAX : g.h[i] < INT32_MIN ? INT32_MIN : (int32_t)g.h[i];
    free(g.h), free(g.acc), free(ix.slots);
    *out = heights;
    *side = g.side;
    return 0;
}
