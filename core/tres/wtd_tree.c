/*
 * The WTD zero-tree coder: the bit stream of a .wtd file <-> node records
 * (docs/formats/tres.md "WTD zero-tree"). The encoder derives everything the stream
 * stores besides the coefficients: which nodes are significant, each branch's maximum
 * coefficient and bit size, the field widths, and the header's node and vertex counts. Branch
 * sizes are found the way the exporter found them (the widths of a node's fields depend on its
 * parent's branch size, which depends on them), so the stream comes out bit for bit.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/tres/wtd_tree.h"

enum {
    ROOT_FIELD_BITS = 30, /* the root's branch size and maximum */
    MAX_ROOT_SIZE = 1u << 30,
    MAX_PASSES = 1000,    /* branch sizes only shrink from pass to pass; a few passes converge */
    MAPPING_AT = 14,      /* stream byte of the SMapping */
    QUAD_SIZE_X_AT = 8,   /* within the SMapping */
};

static unsigned log2u(uint64_t v) /* floor(log2 v); 0 for 0, as the exporter's uLog2 */
{
    unsigned r = 0;
    while (v >>= 1) r++;
    return r;
}

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Stream byte j of a file of little-endian words. */
static uint8_t stream_byte(const uint8_t *file, size_t j) { return file[(j & ~(size_t)3) + 3 - (j & 3)]; }

static int root_size_of(const uint8_t *mapping, uint32_t *root, char *err, size_t err_size)
{
    uint32_t sx = le32(mapping + QUAD_SIZE_X_AT), sy = le32(mapping + QUAD_SIZE_X_AT + 4);
    if (sx != sy || sx < 2 || sx > MAX_ROOT_SIZE || (sx & (sx - 1))) {
        snprintf(err, err_size, "quad size %u x %u is not a square of a power of two from 2 to 2^30", sx, sy);
        return -1;
    }
    *root = sx;
    return 0;
}

/* ---------- vertices: the distinct corners of the nodes present ---------- */

/* Every vertex but the root's four corners first appears as a corner of the descendants of one
 * significant node: its centre, or the middle of one of its edges (docs/formats/tres.md
 * "WTD layout"). A centre belongs to its node alone; an edge middle is shared with the node of the
 * same side across that edge. So the count is 4 + 5 x significant, less one per pair of
 * significant same-side nodes that share an edge: 8 bytes a node, where listing every corner
 * would take 72. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct node_keys {
    uint64_t *keys;
    size_t count, capacity;
} node_keys;

/* (log2 side, x / side, y / side): 5 + 29 + 29 bits, as sides are 2 to 2^30 */
static uint64_t node_key(uint32_t x, uint32_t y, uint32_t size)
{
    return (uint64_t)log2u(size) << 58 | (uint64_t)(x / size) << 29 | (y / size);
}

static int keys_add(node_keys *k, uint32_t x, uint32_t y, uint32_t size)
{
    if (k->count == k->capacity) {
        size_t cap = k->capacity ? k->capacity * 2 : 1024;
        uint64_t *n = realloc(k->keys, cap * sizeof *n);
        if (!n) return -1;
        k->keys = n;
        k->capacity = cap;
    }
    k->keys[k->count++] = node_key(x, y, size);
    return 0;
}

static int has_key(const node_keys *k, uint64_t key)
{
    return bsearch(&key, k->keys, k->count, sizeof key, cmp_u64) != NULL;
}

static uint32_t vertex_count(node_keys *k)
{
    if (k->count == 0) return 4; /* the root's corners alone (and qsort must not see a NULL array) */
    qsort(k->keys, k->count, sizeof *k->keys, cmp_u64);
    uint64_t shared = 0, mask = ((uint64_t)1 << 29) - 1;
    for (size_t i = 0; i < k->count; i++) {
        uint64_t key = k->keys[i], x = key >> 29 & mask, y = key & mask;
        /* the neighbours to the right and above (a coordinate past the tree matches no node) */
        if (x < mask && has_key(k, (key & ~(mask << 29)) | (x + 1) << 29)) shared++;
        if (y < mask && has_key(k, (key & ~mask) | (y + 1))) shared++;
    }
    return (uint32_t)(4 + 5 * (uint64_t)k->count - shared);
}

/* ---------- decoding ---------- */

typedef struct decoder {
    const uint8_t *file;
    uint64_t bits, pos;
    uint8_t *out; /* node records, or NULL to count only */
    size_t capacity;
    uint32_t significant, present;
    size_t max_nodes; /* a hostile file stops here, before its keys take the memory */
    node_keys keys;
    char *err;
    size_t err_size;
    int failed;
} decoder;

static uint32_t get_bits(decoder *d, unsigned n)
{
    if (d->failed || n > 32 || d->bits - d->pos < n) {
        d->failed = 1;
        return 0;
    }
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++, d->pos++) {
        uint32_t word = le32(d->file + (d->pos / 32) * 4);
        v = v << 1 | (word >> (31 - d->pos % 32) & 1);
    }
    return v;
}

static int64_t node_fail(decoder *d, uint64_t at, uint32_t x, uint32_t y, uint32_t size, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static int64_t node_fail(decoder *d, uint64_t at, uint32_t x, uint32_t y, uint32_t size, const char *fmt, ...)
{
    if (d->err[0] == 0) {
        int n = snprintf(d->err, d->err_size, "stream bit %llu, node at (%u, %u) side %u: ", (unsigned long long)at, x,
                         y, size);
        va_list ap;
        va_start(ap, fmt);
        if (n >= 0 && (size_t)n < d->err_size) vsnprintf(d->err + n, d->err_size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    d->failed = 1;
    return -1;
}

/* One node and its branch; returns its maximum coefficient (0: insignificant), -1 on error.
 * Depth is bounded: a side halves per level and a node of side 1 cannot be significant. */
static int64_t decode_node(decoder *d, uint32_t x, uint32_t y, uint32_t size, unsigned bs_bits, unsigned mx_bits)
{
    uint64_t start = d->pos;
    d->present++;
    uint32_t significant = get_bits(d, 1);
    if (d->failed) return node_fail(d, start, x, y, size, "the stream ends inside the tree");
    if (!significant) return 0;
    uint32_t branch = get_bits(d, bs_bits), max = get_bits(d, mx_bits);
    if (d->failed) return node_fail(d, start, x, y, size, "the stream ends inside the node");
    if (size < 2) return node_fail(d, start, x, y, size, "a node of side 1 has no descendants to hold coefficients");
    if (max == 0) return node_fail(d, start, x, y, size, "a significant node with maximum coefficient 0");
    unsigned width = log2u(max) + 2;
    int32_t wavelet[3];
    uint32_t largest = 0;
    for (int i = 0; i < 3; i++) {
        uint32_t raw = get_bits(d, width), magnitude = raw >> 1;
        if (d->failed) return node_fail(d, start, x, y, size, "the stream ends inside the coefficients");
        if (raw == 1) return node_fail(d, start, x, y, size, "coefficient %d is a negative zero", i);
        if (magnitude > max)
            return node_fail(d, start, x, y, size, "coefficient %d (magnitude %u) above the stored maximum %u", i,
                             magnitude, max);
        wavelet[i] = raw & 1 ? -(int32_t)magnitude : (int32_t)magnitude;
        if (magnitude > largest) largest = magnitude;
    }
    if (d->out) {
        if (d->significant >= d->capacity) return node_fail(d, start, x, y, size, "more nodes than the content holds");
        uint8_t *r = d->out + (size_t)d->significant * RB_WTD_NODE_BYTES;
        put_le32(r, x), put_le32(r + 4, y), put_le32(r + 8, size);
        for (int i = 0; i < 3; i++) put_le32(r + 12 + 4 * i, (uint32_t)wavelet[i]);
    }
    d->significant++;
    if (d->significant > d->max_nodes)
        return node_fail(d, start, x, y, size, "more than %zu significant nodes (the limit)", d->max_nodes);
    if (keys_add(&d->keys, x, y, size) != 0) return node_fail(d, start, x, y, size, "out of memory");
    uint32_t h = size / 2;
    const uint32_t cx[4] = {x, x + h, x + h, x}, cy[4] = {y, y, y + h, y + h}; /* counter-clockwise */
    for (int c = 0; c < 4; c++) {
        int64_t m = decode_node(d, cx[c], cy[c], h, log2u(branch) + 1, log2u(max) + 1);
        if (m < 0) return -1;
        if ((uint32_t)m > largest) largest = (uint32_t)m;
    }
    if (largest != max)
        return node_fail(d, start, x, y, size, "stored maximum %u, but the branch's largest coefficient is %u", max,
                         largest);
    if (d->pos - start != branch)
        return node_fail(d, start, x, y, size, "stored branch size %u bits, but the branch takes %llu", branch,
                         (unsigned long long)(d->pos - start));
    return max;
}

/* The whole file: header, tree, unused bits. With d->out, fills the decoded content too. */
static int decode_file(decoder *d, const uint8_t *file, size_t size, rb_wtd_summary *s)
{
    memset(s, 0, sizeof *s);
    if (size % 4 || size < RB_WTD_STREAM_HEADER_BYTES + 2) {
        snprintf(d->err, d->err_size, "a WTD stream is whole 32-bit words holding at least the 720-bit header and "
                 "one tree bit (%zu bytes)", size);
        return -1;
    }
    d->file = file;
    d->bits = (uint64_t)size * 8;
    uint32_t version = get_bits(d, 16);
    s->stored_nodes = get_bits(d, 32);
    s->stored_vertices = get_bits(d, 32);
    if (version != RB_WTD_VERSION) {
        snprintf(d->err, d->err_size, "version %u (the game reads only %u)", version, RB_WTD_VERSION);
        return -1;
    }
    uint8_t mapping[76];
    for (size_t i = 0; i < sizeof mapping; i++) mapping[i] = stream_byte(file, MAPPING_AT + i);
    if (root_size_of(mapping, &s->root_size, d->err, d->err_size) != 0) return -1;
    d->pos = RB_WTD_STREAM_HEADER_BYTES * 8;
    int64_t m = decode_node(d, 0, 0, s->root_size, ROOT_FIELD_BITS, ROOT_FIELD_BITS);
    uint32_t vertices = m < 0 ? 0 : vertex_count(&d->keys);
    free(d->keys.keys);
    d->keys.keys = NULL;
    if (m < 0) return -1;
    s->significant = d->significant;
    s->nodes = d->present;
    s->vertices = vertices;
    uint64_t unused = d->bits - d->pos;
    if (unused >= 32) {
        snprintf(d->err, d->err_size, "%llu bits follow the tree (stream bit %llu): whole words after it",
                 (unsigned long long)unused, (unsigned long long)d->pos);
        return -1;
    }
    if (s->stored_nodes != s->nodes || s->stored_vertices != s->vertices) {
        snprintf(d->err, d->err_size, "the header says %u nodes and %u vertices; the tree has %u and %u",
                 s->stored_nodes, s->stored_vertices, s->nodes, s->vertices);
        return -1;
    }
    if (d->out) {
        uint8_t *tail = d->out + (size_t)d->significant * RB_WTD_NODE_BYTES;
        put_le32(tail, get_bits(d, (unsigned)unused));
    }
    return 0;
}

int rb_wtd_scan(const uint8_t *file, size_t size, size_t max_nodes, rb_wtd_summary *summary, char *err,
                size_t err_size)
{
    decoder d = {.err = err, .err_size = err_size, .max_nodes = max_nodes};
    err[0] = 0;
    return decode_file(&d, file, size, summary);
}

size_t rb_wtd_content_size(uint32_t significant)
{
    return RB_WTD_CONTENT_HEADER_BYTES + (size_t)significant * RB_WTD_NODE_BYTES + RB_WTD_TAIL_BYTES;
}

int64_t rb_wtd_content_nodes(size_t content_size)
{
    size_t fixed = RB_WTD_CONTENT_HEADER_BYTES + RB_WTD_TAIL_BYTES;
    if (content_size < fixed || (content_size - fixed) % RB_WTD_NODE_BYTES) return -1;
    return (int64_t)((content_size - fixed) / RB_WTD_NODE_BYTES);
}

void rb_wtd_node_get(const uint8_t *content, size_t index, rb_wtd_node *node)
{
    const uint8_t *r = content + RB_WTD_CONTENT_HEADER_BYTES + index * RB_WTD_NODE_BYTES;
    node->x = le32(r), node->y = le32(r + 4), node->size = le32(r + 8);
    for (int i = 0; i < 3; i++) node->wavelet[i] = (int32_t)le32(r + 12 + 4 * i);
}

uint32_t rb_wtd_root_size(const uint8_t *content)
{
    uint32_t root;
    char why[120];
    return root_size_of(content + 6, &root, why, sizeof why) == 0 ? root : 0;
}

static int wtd_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, char *err, size_t err_size)
{
    int64_t capacity = rb_wtd_content_nodes(out_size);
    if (capacity < 0) {
        snprintf(err, err_size, "%zu bytes is not the size of decoded WTD content", out_size);
        return -1;
    }
    decoder d = {.out = out + RB_WTD_CONTENT_HEADER_BYTES, .capacity = (size_t)capacity,
                 .max_nodes = (size_t)capacity, .err = err, .err_size = err_size};
    err[0] = 0;
    rb_wtd_summary s;
    if (decode_file(&d, in, in_size, &s) != 0) return -1;
    if (s.significant != capacity) {
        snprintf(err, err_size, "the tree has %u significant nodes, the content was sized for %lld", s.significant,
                 (long long)capacity);
        return -1;
    }
    out[0] = stream_byte(in, 0), out[1] = stream_byte(in, 1); /* version */
    for (size_t i = 0; i < 80; i++) out[2 + i] = stream_byte(in, 10 + i); /* root coefficient, SMapping */
    return 0;
}

/* ---------- encoding ---------- */

typedef struct encoder {
    rb_wtd_node *nodes;
    size_t count, next;
    int32_t (*child)[4]; /* record index of each descendant, -1: insignificant */
    uint64_t *branch;
    uint32_t *max;
    uint8_t *bits; /* the stream, MSB first */
    uint64_t bit_count, bit_capacity;
    int failed;
} encoder;

static void place(encoder *e, uint32_t x, uint32_t y, uint32_t size, int32_t *slot)
{
    const rb_wtd_node *n = e->next < e->count ? &e->nodes[e->next] : NULL;
    if (!n || size < 2 || n->x != x || n->y != y || n->size != size) {
        *slot = -1;
        return;
    }
    int32_t i = (int32_t)e->next++;
    *slot = i;
    uint32_t h = size / 2;
    const uint32_t cx[4] = {x, x + h, x + h, x}, cy[4] = {y, y, y + h, y + h};
    for (int c = 0; c < 4; c++) place(e, cx[c], cy[c], h, &e->child[i][c]);
}

static void put_bits(encoder *e, uint64_t value, unsigned n)
{
    for (unsigned i = n; i-- > 0;) {
        if (e->bit_count == e->bit_capacity * 8) {
            uint64_t cap = e->bit_capacity ? e->bit_capacity * 2 : 4096;
            uint8_t *b = realloc(e->bits, (size_t)cap);
            if (!b) {
                e->failed = 1;
                return;
            }
            memset(b + e->bit_capacity, 0, (size_t)(cap - e->bit_capacity));
            e->bits = b;
            e->bit_capacity = cap;
        }
        if (value >> i & 1) e->bits[e->bit_count / 8] |= (uint8_t)(0x80 >> (e->bit_count % 8));
        e->bit_count++;
    }
}

static void write_node(encoder *e, int32_t i, int32_t parent)
{
    put_bits(e, i >= 0, 1);
    if (i < 0) return;
    if (parent < 0) {
        put_bits(e, e->branch[i], ROOT_FIELD_BITS);
        put_bits(e, e->max[i], ROOT_FIELD_BITS);
    } else {
        put_bits(e, e->branch[i], log2u(e->branch[parent]) + 1);
        put_bits(e, e->max[i], log2u(e->max[parent]) + 1);
    }
    unsigned width = log2u(e->max[i]) + 2;
    for (int k = 0; k < 3; k++) {
        int32_t c = e->nodes[i].wavelet[k];
        uint32_t magnitude = c < 0 ? (uint32_t)-(int64_t)c : (uint32_t)c;
        put_bits(e, (uint64_t)magnitude << 1 | (c < 0), width);
    }
    for (int c = 0; c < 4; c++) write_node(e, e->child[i][c], i);
}

/* The exporter's fixed point: every pass recomputes each node's size from its parent's size
 * of the pass before (children first), until the root's size stops changing. Sizes only
 * shrink, so the root standing still means every node does. */
static int branch_sizes(encoder *e, int32_t *parent, char *err, size_t err_size)
{
    for (size_t i = 0; i < e->count; i++) e->branch[i] = 0x7FFFFFFF; /* the exporter's TypeMax(int) */
    for (int pass = 0; pass < MAX_PASSES; pass++) {
        uint64_t before = e->branch[0];
        for (size_t k = e->count; k-- > 0;) { /* pre-order: children after parents */
            int32_t p = parent[k];
            uint64_t bits = 1 + 3 * (uint64_t)(log2u(e->max[k]) + 2);
            bits += p < 0 ? 2 * ROOT_FIELD_BITS : log2u(e->branch[p]) + 1 + log2u(e->max[p]) + 1;
            for (int c = 0; c < 4; c++) bits += e->child[k][c] >= 0 ? e->branch[e->child[k][c]] : 1;
            e->branch[k] = bits;
        }
        if (e->branch[0] >= (1u << ROOT_FIELD_BITS)) {
            snprintf(err, err_size, "the tree takes %llu bits: more than its 30-bit size field holds",
                     (unsigned long long)e->branch[0]);
            return -1;
        }
        if (e->branch[0] == before) return 0;
    }
    snprintf(err, err_size, "branch sizes did not settle");
    return -1;
}

static int encode_tree(encoder *e, const uint8_t *in, size_t in_size, rb_buf *out, char *err, size_t err_size)
{
    uint32_t root_size, version = (uint32_t)in[0] << 8 | in[1];
    if (version != RB_WTD_VERSION) {
        snprintf(err, err_size, "version %u: the game reads only %u", version, RB_WTD_VERSION);
        return -1;
    }
    if (root_size_of(in + 6, &root_size, err, err_size) != 0) return -1;
    for (size_t i = 0; i < e->count; i++) {
        rb_wtd_node_get(in, i, &e->nodes[i]);
        for (int k = 0; k < 3; k++) {
            int32_t c = e->nodes[i].wavelet[k];
            if (c <= -(1 << ROOT_FIELD_BITS) || c >= (1 << ROOT_FIELD_BITS)) {
                snprintf(err, err_size, "node %zu: wavelet %d = %d is outside +-(2^30 - 1)", i, k, c);
                return -1;
            }
        }
    }
    int32_t root = -1;
    place(e, 0, 0, root_size, &root);
    if (e->next != e->count) {
        const rb_wtd_node *n = &e->nodes[e->next];
        snprintf(err, err_size, "node %zu (x %u, y %u, size %u) is not where the tree puts it: nodes are listed "
                 "parent first, descendants counter-clockwise from bottom left, each inside its parent's record",
                 e->next, n->x, n->y, n->size);
        return -1;
    }
    int32_t *parent = malloc((e->count ? e->count : 1) * sizeof *parent);
    if (!parent) return snprintf(err, err_size, "out of memory"), -1;
    for (size_t i = 0; i < e->count; i++) parent[i] = -1;
    for (size_t i = 0; i < e->count; i++)
        for (int c = 0; c < 4; c++)
            if (e->child[i][c] >= 0) parent[e->child[i][c]] = (int32_t)i;
    for (size_t k = e->count; k-- > 0;) {
        uint32_t m = 0;
        for (int w = 0; w < 3; w++) {
            int32_t c = e->nodes[k].wavelet[w];
            uint32_t magnitude = c < 0 ? (uint32_t)-c : (uint32_t)c;
            if (magnitude > m) m = magnitude;
        }
        for (int c = 0; c < 4; c++)
            if (e->child[k][c] >= 0 && e->max[e->child[k][c]] > m) m = e->max[e->child[k][c]];
        if (m == 0) {
            free(parent);
            snprintf(err, err_size, "node %zu (x %u, y %u, size %u): its wavelets and those of its branch are all 0; "
                     "such a branch is not stored (remove the node)", k, e->nodes[k].x, e->nodes[k].y, e->nodes[k].size);
            return -1;
        }
        e->max[k] = m;
    }
    int r = e->count ? branch_sizes(e, parent, err, err_size) : 0;
    free(parent);
    if (r != 0) return -1;

    /* the header: version, the derived counts, root coefficient and SMapping */
    node_keys keys = {0};
    for (size_t i = 0; i < e->count; i++)
        if (keys_add(&keys, e->nodes[i].x, e->nodes[i].y, e->nodes[i].size) != 0) e->failed = 1;
    uint32_t vertices = e->failed ? 0 : vertex_count(&keys);
    free(keys.keys);
    put_bits(e, (uint64_t)in[0] << 8 | in[1], 16);
    put_bits(e, 4 * (uint64_t)e->count + 1, 32);
    put_bits(e, vertices, 32);
    for (size_t i = 2; i < RB_WTD_CONTENT_HEADER_BYTES; i++) put_bits(e, in[i], 8);
    write_node(e, root, -1);
    unsigned unused = (unsigned)((32 - e->bit_count % 32) % 32);
    uint32_t tail = le32(in + in_size - RB_WTD_TAIL_BYTES);
    if ((uint64_t)tail >> unused) { /* junk of the original's last word that an edit left no room for */
        snprintf(err, err_size, "unusedBits %u does not fit the %u bits the last word has left after the tree: "
                 "set it below 2^%u (0 will do)", tail, unused, unused);
        return -1;
    }
    put_bits(e, tail, unused);
    if (e->failed || !rb_buf_reserve(out, (size_t)(e->bit_count / 8))) return snprintf(err, err_size, "out of memory"), -1;
    for (uint64_t i = 0; i < e->bit_count / 8; i += 4)
        for (int k = 0; k < 4; k++) out->data[out->size + i + k] = e->bits[i + 3 - k];
    out->size += (size_t)(e->bit_count / 8);
    return 0;
}

static int wtd_encode(const uint8_t *in, size_t in_size, rb_buf *out, char *err, size_t err_size)
{
    int64_t count = rb_wtd_content_nodes(in_size);
    if (count < 0) {
        snprintf(err, err_size, "%zu bytes is not the size of decoded WTD content", in_size);
        return -1;
    }
    size_t n = (size_t)count ? (size_t)count : 1;
    encoder e = {.count = (size_t)count};
    e.nodes = malloc(n * sizeof *e.nodes);
    e.child = malloc(n * sizeof *e.child);
    e.branch = malloc(n * sizeof *e.branch);
    e.max = malloc(n * sizeof *e.max);
    int r = -1;
    if (!e.nodes || !e.child || !e.branch || !e.max) snprintf(err, err_size, "out of memory");
    else r = encode_tree(&e, in, in_size, out, err, err_size);
    free(e.nodes), free(e.child), free(e.branch), free(e.max), free(e.bits);
    return r;
}

/* A significant node takes at least 12 bits (flag, two 1-bit fields, three 2-bit coefficients,
 * three more flags at least) for its 24-byte record. */
const rb_codec rb_codec_wtd_tree = {"wtd-zerotree", wtd_decode, wtd_encode, 16};
