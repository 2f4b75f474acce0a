/*
 * The WTD zero-tree coder (docs/formats/tres.md "WTD zero-tree"): the whole .wtd file
 * (little-endian u32 words holding one MSB-first bit stream) <-> the decoded content the model
 * describes. Private to core/tres.
 *
 * Decoded content, in this order:
 *   82 header bytes: the stream's version (2 bytes), root coefficient (4) and SMapping (76), as
 *      they are in the stream; the node and vertex counts between them are derived, not content;
 *   count x 24-byte node records, little-endian: u32 x, y, size (the node's square in quad
 *      space), i32 the three wavelet coefficients; significant nodes in stream (pre-)order;
 *   u32 little-endian: the unused bits after the tree in the last word, right-aligned.
 */
#ifndef RB_TRES_WTD_TREE_H
#define RB_TRES_WTD_TREE_H
#include <stddef.h>
#include <stdint.h>
#include "core/archive/codec.h"

enum {
    RB_WTD_VERSION = 1001,
    RB_WTD_STREAM_HEADER_BYTES = 90, /* 720 bits before the tree */
    RB_WTD_CONTENT_HEADER_BYTES = 82,
    RB_WTD_NODE_BYTES = 24,
    RB_WTD_TAIL_BYTES = 4,
};

/* One significant node: its square and the wavelet coefficients at the base vertices of its
 * descendants 1, 2 and 3 (bottom edge midpoint, centre, left edge midpoint). */
typedef struct rb_wtd_node {
    uint32_t x, y, size;
    int32_t wavelet[3];
} rb_wtd_node;

/* What a file's tree holds, for sizing the decoded content before decoding it. */
typedef struct rb_wtd_summary {
    uint32_t significant;     /* node records */
    uint32_t stored_nodes;    /* the header's node count */
    uint32_t stored_vertices; /* the header's vertex count */
    uint32_t nodes, vertices; /* what the tree derives for them */
    uint32_t root_size;       /* quad-space side of the root node */
} rb_wtd_summary;

/* Walks the whole tree of a .wtd file and checks it is one the encoder writes back bit for bit
 * (branch sizes exact, maxima exact, no negative zero, counts as derived, fewer than 32 unused
 * bits) and has at most max_nodes significant nodes. 0 when it is; else -1 and why, with the
 * stream bit where it went wrong. */
int rb_wtd_scan(const uint8_t *file, size_t size, size_t max_nodes, rb_wtd_summary *summary, char *err,
                size_t err_size);
/* Bytes of the decoded content for `significant` node records. */
size_t rb_wtd_content_size(uint32_t significant);

/* file <-> decoded content (see above); encode derives the counts, branch sizes and maxima. */
extern const rb_codec rb_codec_wtd_tree;

/* The nodes of decoded content (count from its size), or -1 when the size is not one. */
int64_t rb_wtd_content_nodes(size_t content_size);
void rb_wtd_node_get(const uint8_t *content, size_t index, rb_wtd_node *node);
/* The root node's side in quad units (the SMapping's quad size), 0 when not a square of a power
 * of two from 2 to 2^30. */
uint32_t rb_wtd_root_size(const uint8_t *content);

/* The heights the tree stands for (wtd_heights.c), in coefficient units (metres = value x
 * coefToWorld): the points (i, j) x spacing for i, j < side = root size / spacing, row j at
 * heights[j * side + i], y upwards. spacing: a power of two, side at most 16384, and the grid's
 * work memory (20 bytes a point) at most max_bytes. *heights is malloc'd. 0, or -1 and why. */
int rb_wtd_heights(const uint8_t *content, size_t content_size, uint32_t spacing, uint64_t max_bytes,
                   int32_t **heights, uint32_t *side, char *err, size_t err_size);
#endif
