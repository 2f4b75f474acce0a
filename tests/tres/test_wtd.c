/*
 * The WTD zero-tree coder and height grid (docs/formats/tres.md "WTD zero-tree", "WTD
 * heights"):
 *  - synthetic trees: encode -> decode gives the records back; the height grid, put through
 *    the exporter's forward transform (written here from the document, independently of
 *    core/tres/wtd_heights.c), gives the coefficients back; a coarse grid is the fine one
 *    subsampled; the encoder's refusals;
 *  - pv.wtd (when $REBYTE_SHARED/corpus/tres is there): decode -> encode is the file bit for bit;
 *    a raised region writes, re-reads and verifies, and only the edited records and the heights
 *    around them change; a node added where the tree had none; damaged files are kept or
 *    refused with a message, never a crash;
 *  - the asset: a 16-bit greyscale PNG of the grid's size whose pixels are the heights.
 * Usage: test_wtd SAMPLES_DIR
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/doc_state.h"
#include "core/tres/tres.h"
#include "core/tres/wtd_tree.h"
#include "rebyte.h"
#include "tests/test_util.h"

static uint32_t rng = 2024;
static uint32_t next_rand(void) { return rng = rng * 1103515245u + 12345u, rng >> 8; }

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* ---------- synthetic trees ---------- */

typedef struct tree {
    rb_wtd_node nodes[4096];
    size_t count;
} tree;

static void grow(tree *t, uint32_t x, uint32_t y, uint32_t size, int depth)
{
    if (size < 2 || t->count >= 4096) return;
    if (depth > 0 && next_rand() % 100 >= 70) return;
    rb_wtd_node *n = &t->nodes[t->count++];
    n->x = x, n->y = y, n->size = size;
    for (int i = 0; i < 3; i++) n->wavelet[i] = (int32_t)(next_rand() % 401) - 200;
    if (n->wavelet[1] == 0) n->wavelet[1] = 7; /* no all-zero branch */
    uint32_t h = size / 2;
    grow(t, x, y, h, depth + 1), grow(t, x + h, y, h, depth + 1);
    grow(t, x + h, y + h, h, depth + 1), grow(t, x, y + h, h, depth + 1);
}

static uint8_t *content_of(const tree *t, uint32_t root_size, int32_t root, size_t *size)
{
    *size = rb_wtd_content_size((uint32_t)t->count);
    uint8_t *c = calloc(1, *size);
    c[0] = RB_WTD_VERSION >> 8, c[1] = RB_WTD_VERSION & 0xFF;
    c[2] = (uint8_t)((uint32_t)root >> 24), c[3] = (uint8_t)((uint32_t)root >> 16);
    c[4] = (uint8_t)((uint32_t)root >> 8), c[5] = (uint8_t)root;
    put32(c + 6 + 8, root_size), put32(c + 6 + 12, root_size);
    for (size_t i = 0; i < t->count; i++) {
        uint8_t *r = c + RB_WTD_CONTENT_HEADER_BYTES + i * RB_WTD_NODE_BYTES;
        put32(r, t->nodes[i].x), put32(r + 4, t->nodes[i].y), put32(r + 8, t->nodes[i].size);
        for (int k = 0; k < 3; k++) put32(r + 12 + 4 * k, (uint32_t)t->nodes[i].wavelet[k]);
    }
    return c;
}

static int64_t fdiv(int64_t v, int64_t d) { return v >= 0 ? v / d : -((-v + d - 1) / d); }

/* The exporter's analysis over a full grid (docs "WTD heights"): per level from side 2 up,
 * predict every node's three midpoints from its corners (reflected at the maximum edges), then
 * lift the base corners by (sum + 4) / 8 of the wavelet footprints. */
static void forward(int64_t *h, uint32_t n, int64_t *wave)
{
    int64_t *acc = calloc((size_t)n * n, sizeof *acc);
    for (uint32_t s = 2; s <= n; s *= 2) {
        uint32_t half = s / 2;
        memset(acc, 0, (size_t)n * n * sizeof *acc);
        for (uint32_t y = 0; y < n; y += s)
            for (uint32_t x = 0; x < n; x += s) {
                int diag = ((x / s) ^ (y / s)) & 1, maxx = x + s == n, maxy = y + s == n;
                int64_t c[4];
                for (unsigned k = 0; k < 4; k++) {
                    unsigned m = k;
                    if (maxx) m = (m >> 1) | (m & 2);
                    if (maxy) m = (m ^ (m >> 1)) & 1;
                    c[k] = h[(size_t)(y + (m >= 2 ? s : 0)) * n + x + (m == 1 || m == 2 ? s : 0)];
                }
                int64_t *b = &h[(size_t)y * n + x + half], *m = &h[(size_t)(y + half) * n + x + half];
                int64_t *l = &h[(size_t)(y + half) * n + x];
                int64_t w0 = *b - fdiv(c[0] + c[1] + 1, 2), w2 = *l - fdiv(c[0] + c[3] + 1, 2);
                int64_t w1 = *m - (diag ? fdiv(c[1] + c[3] + 1, 2) : fdiv(c[0] + c[2] + 1, 2));
                wave[(size_t)y * n + x + half] = w0, wave[(size_t)(y + half) * n + x + half] = w1;
                wave[(size_t)(y + half) * n + x] = w2;
                /* footprint: w0 on the bottom corners, w2 on the left ones, w1 on its diagonal;
                 * doubled onto the corner at a minimum edge (the reflection) */
                int64_t f[4] = {w0 + w2, w0, 0, w2};
                if (diag) f[1] += w1, f[3] += w1;
                else f[0] += w1, f[2] += w1;
                if (x == 0) f[0] += w0, diag ? (f[3] += w1) : (f[0] += w1);
                if (y == 0) f[0] += w2, diag ? (f[1] += w1) : (f[0] += w1);
                if (x == 0 && y == 0) f[0] += w1;
                for (unsigned k = 0; k < 4; k++) {
                    uint32_t cx = x + (k == 1 || k == 2 ? s : 0), cy = y + (k >= 2 ? s : 0);
                    if (cx < n && cy < n) acc[(size_t)cy * n + cx] += f[k];
                }
            }
        for (uint32_t y = 0; y < n; y += s)
            for (uint32_t x = 0; x < n; x += s) h[(size_t)y * n + x] += fdiv(acc[(size_t)y * n + x] + 4, 8);
    }
    wave[0] = h[0];
    free(acc);
}

static void synthetic(uint32_t root_size)
{
    tree *t = calloc(1, sizeof *t);
    grow(t, 0, 0, root_size, 0);
    size_t size;
    int32_t root = -1234;
    uint8_t *c = content_of(t, root_size, root, &size);
    rb_buf file;
    rb_buf_init(&file);
    char why[300] = "";
    CHECK(rb_codec_wtd_tree.encode(c, size, &file, why, sizeof why) == 0, "encode: %s", why);
    rb_wtd_summary s;
    CHECK(rb_wtd_scan(file.data, file.size, 1u << 24, &s, why, sizeof why) == 0, "scan: %s", why);
    CHECK(s.significant == t->count && s.stored_nodes == 4 * t->count + 1, "%u nodes, %zu made", s.significant,
          t->count);
    uint8_t *back = malloc(size);
    CHECK(rb_codec_wtd_tree.decode(file.data, file.size, back, size, why, sizeof why) == 0, "decode: %s", why);
    CHECK(memcmp(back, c, size) == 0, "side %u: decode(encode(records)) differs", root_size);

    int32_t *fine, *coarse;
    uint32_t side, coarse_side;
    CHECK(rb_wtd_heights(c, size, 1, UINT64_MAX, &fine, &side, why, sizeof why) == 0, "heights: %s", why);
    CHECK(rb_wtd_heights(c, size, 4, UINT64_MAX, &coarse, &coarse_side, why, sizeof why) == 0, "heights: %s", why);
    CHECK(side == root_size && coarse_side == root_size / 4, "sides %u, %u", side, coarse_side);
    int32_t *refused = NULL;
    uint32_t refused_side = 0;
    CHECK(rb_wtd_heights(c, size, 1, (uint64_t)root_size * root_size * 20 - 1, &refused, &refused_side, why,
                         sizeof why) != 0 && !refused && strstr(why, "max_decompressed_size"),
          "a grid beyond max_bytes was made (%s)", why);
    size_t bad = 0;
    for (uint32_t j = 0; j < coarse_side; j++)
        for (uint32_t i = 0; i < coarse_side; i++) bad += coarse[j * coarse_side + i] != fine[j * 4 * side + i * 4];
    CHECK(bad == 0, "%zu points of the coarse grid are not the fine grid's", bad);

    int64_t *h = malloc((size_t)side * side * sizeof *h), *wave = calloc((size_t)side * side, sizeof *wave);
    for (size_t i = 0; i < (size_t)side * side; i++) h[i] = fine[i];
    forward(h, side, wave);
    CHECK(wave[0] == root, "root coefficient %lld after the forward transform, %d stored", (long long)wave[0], root);
    for (size_t i = 0; i < t->count; i++) { /* every stored wavelet comes back; then it is cleared */
        const rb_wtd_node *n = &t->nodes[i];
        uint32_t hf = n->size / 2;
        size_t at[3] = {(size_t)n->y * side + n->x + hf, (size_t)(n->y + hf) * side + n->x + hf,
                        (size_t)(n->y + hf) * side + n->x};
        for (int k = 0; k < 3; k++) {
            CHECK(wave[at[k]] == n->wavelet[k], "node %zu wavelet %d: %lld, stored %d", i, k, (long long)wave[at[k]],
                  n->wavelet[k]);
            wave[at[k]] = 0;
        }
    }
    size_t nonzero = 0;
    for (size_t i = 1; i < (size_t)side * side; i++) nonzero += wave[i] != 0;
    CHECK(nonzero == 0, "%zu wavelets where the tree stores none", nonzero);
    printf("synthetic side %u: %zu nodes, %zu-byte file, perfect reconstruction checked\n", root_size, t->count,
           file.size);

    /* refusals: a record out of tree order, an all-zero leaf */
    if (t->count >= 3) {
        tree *u = malloc(sizeof *u);
        memcpy(u, t, sizeof *u);
        rb_wtd_node swap = u->nodes[1];
        u->nodes[1] = u->nodes[2], u->nodes[2] = swap;
        size_t us;
        uint8_t *uc = content_of(u, root_size, root, &us);
        rb_buf out;
        rb_buf_init(&out);
        why[0] = 0;
        int r = rb_codec_wtd_tree.encode(uc, us, &out, why, sizeof why);
        CHECK(r != 0 && strstr(why, "is not where the tree puts it"), "out of order: %d %s", r, why);
        free(uc);
        memcpy(u, t, sizeof *u);
        rb_wtd_node *leaf = &u->nodes[u->count - 1]; /* pre-order: the last record has no descendants */
        leaf->wavelet[0] = leaf->wavelet[1] = leaf->wavelet[2] = 0;
        uc = content_of(u, root_size, root, &us);
        r = rb_codec_wtd_tree.encode(uc, us, &out, why, sizeof why);
        CHECK(r != 0 && strstr(why, "all 0"), "all-zero leaf: %d %s", r, why);
        free(uc);
        uc = content_of(t, root_size, root, &us);
        uc[1] ^= 1; /* version 1000 */
        r = rb_codec_wtd_tree.encode(uc, us, &out, why, sizeof why);
        CHECK(r != 0 && strstr(why, "only 1001"), "version 1000: %d %s", r, why);
        free(uc);
        uc = content_of(t, root_size, root, &us);
        put32(uc + us - 4, 0xFFFFFFFFu); /* junk wider than any last word's room */
        r = rb_codec_wtd_tree.encode(uc, us, &out, why, sizeof why);
        CHECK(r != 0 && strstr(why, "unusedBits"), "a tail that does not fit: %d %s", r, why);
        free(uc), free(u), rb_buf_free(&out);
    }
    /* the root coefficient is the terrain's level: d more raises every height by exactly d */
    int32_t *raised;
    uint32_t raised_side;
    c[5] = (uint8_t)(c[5] + 100); /* root -1234 -> -1134: the low byte does not carry */
    CHECK(rb_wtd_heights(c, size, 1, UINT64_MAX, &raised, &raised_side, why, sizeof why) == 0, "heights: %s", why);
    size_t off = 0;
    for (size_t i = 0; i < (size_t)side * side; i++) off += raised[i] != fine[i] + 100;
    CHECK(off == 0, "%zu heights did not rise by the root's 100", off);
    free(raised);
    free(h), free(wave), free(fine), free(coarse), free(back), free(c), free(t);
    rb_buf_free(&file);
}

/* ---------- the real file ---------- */

static uint8_t *decode_file(const uint8_t *file, size_t size, size_t *content_size)
{
    rb_wtd_summary s;
    char why[300] = "";
    if (rb_wtd_scan(file, size, 1u << 24, &s, why, sizeof why) != 0) {
        fprintf(stderr, "scan: %s\n", why);
        return NULL;
    }
    *content_size = rb_wtd_content_size(s.significant);
    uint8_t *c = malloc(*content_size);
    if (rb_codec_wtd_tree.decode(file, size, c, *content_size, why, sizeof why) != 0) {
        fprintf(stderr, "decode: %s\n", why);
        free(c);
        return NULL;
    }
    return c;
}

static rb_doc *parse(const uint8_t *data, size_t size)
{
    rb_error err;
    rb_doc *doc = rb_doc_parse(data, size, NULL, &err);
    char msg[400];
    if (!doc) fprintf(stderr, "parse: %s\n", rb_error_format(&err, msg, sizeof msg));
    return doc;
}

static uint8_t *write_doc(rb_doc *doc, int reencode, size_t *size)
{
    rb_write_options o = {.reencode = reencode};
    uint8_t *out = NULL;
    rb_error err;
    char msg[400];
    if (rb_doc_write(doc, &o, &out, size, &err) != RB_OK) {
        fprintf(stderr, "write: %s\n", rb_error_format(&err, msg, sizeof msg));
        return NULL;
    }
    return out;
}

/* The files rb_apply made: the documents read from them borrow their bytes, so they are freed
 * at the end of the run. */
static uint8_t **applied_files;
static size_t applied_count;

/* *doc replaced by the document rb_apply makes of its bytes with `patch`; why not in msg. */
static int apply(rb_doc **doc, const char *patch, char *msg, size_t msg_size)
{
    rb_error err;
    msg[0] = 0;
    size_t size = 0;
    uint8_t *bytes = write_doc(*doc, 0, &size);
    rb_patch *parsed = bytes ? rb_patch_parse(patch, strlen(patch), "the patch", &err) : NULL;
    const rb_patch *const patches[1] = {parsed};
    rb_apply_result r = RB_APPLY_RESULT_INIT;
    rb_status st = parsed ? rb_apply(bytes, size, "pv.wtd", patches, 1, NULL, &r, &err) : RB_E_USAGE;
    rb_patch_free(parsed);
    rb_free(bytes);
    uint8_t **grown = st == RB_OK ? realloc(applied_files, (applied_count + 1) * sizeof *grown) : NULL;
    rb_doc *patched = grown ? rb_doc_parse(r.bytes, r.bytes_size, NULL, &err) : NULL;
    if (grown) applied_files = grown;
    if (!patched) {
        rb_error_format(&err, msg, msg_size);
        rb_apply_result_free(&r);
        return -1;
    }
    applied_files[applied_count++] = r.bytes; /* the document borrows them */
    rb_doc_free(*doc);
    *doc = patched;
    return 0;
}

/* Bytes through the document layer: read, written as read (and re-encoded) gives them back. */
static void round_trips(const char *what, const uint8_t *data, size_t size)
{
    rb_doc *doc = parse(data, size);
    CHECK(doc != NULL, "%s does not parse", what);
    if (!doc) return;
    for (int reencode = 0; reencode < 2; reencode++) {
        size_t n = 0;
        uint8_t *out = write_doc(doc, reencode, &n);
        CHECK(out && n == size && memcmp(out, data, size) == 0, "%s: written%s, not the same bytes", what,
              reencode ? " re-encoded" : "");
        free(out);
    }
    rb_doc_free(doc);
}

static int in_region(const rb_wtd_node *n) /* the region the edit raises */
{
    return n->size <= 128 && n->x >= 3072 && n->y >= 3072 && n->x + n->size <= 4096 && n->y + n->size <= 4096;
}

/* The re-read document's model, through the public API: the raised centres, every other node
 * and the header as they were. */
static void model_shows_edit(rb_doc *re, const uint8_t *file, size_t size, const uint8_t *content, size_t count)
{
    rb_doc *orig = parse(file, size);
    if (!orig) return;
    rb_node *nodes = rb_node_at_edit(rb_doc_root(re), "/terrain/nodes");
    CHECK(nodes && rb_node_child_count(nodes) == count, "the re-read model has %zu nodes, not %zu",
          nodes ? rb_node_child_count(nodes) : 0, count);
    static const char *const fields[6] = {"x", "y", "size", "bottomMid", "centre", "leftMid"};
    size_t wrong = 0;
    for (size_t i = 0; nodes && i < count && i < rb_node_child_count(nodes); i++) {
        rb_wtd_node n;
        rb_wtd_node_get(content, i, &n);
        int64_t want[6] = {n.x, n.y, n.size, n.wavelet[0], n.wavelet[1] + (in_region(&n) ? 300 : 0), n.wavelet[2]};
        for (int f = 0; f < 6; f++) wrong += test_int(rb_node_member(rb_node_child(nodes, i), fields[f])) != want[f];
    }
    CHECK(wrong == 0, "%zu node fields of the re-read model are not the edit's", wrong);
    static const char *const header[] = {"/terrain/version", "/terrain/rootCoefficient", "/terrain/mapping/quadSizeX",
                                         "/terrain/mapping/worldToCoef", "/terrain/unusedBits"};
    for (size_t i = 0; i < sizeof header / sizeof *header; i++) {
        rb_node *a = rb_node_at_edit(rb_doc_root(orig), header[i]), *b = rb_node_at_edit(rb_doc_root(re), header[i]);
        CHECK(a && b && test_uint(a) == test_uint(b), "%s changed", header[i]);
    }
    rb_doc_free(orig);
}

static void raise_region(const uint8_t *file, size_t size, const uint8_t *content, size_t content_size)
{
    rb_doc *doc = parse(file, size);
    if (!doc) return;
    size_t count = (size_t)rb_wtd_content_nodes(content_size), edited = 0, cap = 1 << 20, len = 1;
    char *patch = malloc(cap);
    strcpy(patch, "[");
    for (size_t i = 0; i < count && len + 200 < cap; i++) {
        rb_wtd_node n;
        rb_wtd_node_get(content, i, &n);
        if (!in_region(&n)) continue;
        len += (size_t)snprintf(patch + len, cap - len, "%s{\"op\":\"replace\",\"path\":\"/terrain/nodes/%zu/centre\","
                                "\"value\":%d}", edited ? "," : "", i, n.wavelet[1] + 300);
        edited++;
    }
    strcpy(patch + len, "]");
    char msg[400];
    CHECK(edited > 10 && apply(&doc, patch, msg, sizeof msg) == 0, "%zu nodes; patch: %s", edited, msg);
    size_t out_size = 0, again_size = 0;
    uint8_t *out = write_doc(doc, 0, &out_size), *edited_content = NULL, *again = NULL;
    CHECK(out != NULL, "the raised terrain does not write");
    size_t ec_size = 0;
    if (out) edited_content = decode_file(out, out_size, &ec_size);
    CHECK(edited_content && ec_size == content_size, "the written file does not decode to as many nodes");
    if (edited_content && ec_size == content_size) {
        CHECK(memcmp(edited_content, content, RB_WTD_CONTENT_HEADER_BYTES) == 0, "the header changed");
        size_t differ = 0;
        for (size_t i = 0; i < count; i++) {
            rb_wtd_node a, b;
            rb_wtd_node_get(content, i, &a), rb_wtd_node_get(edited_content, i, &b);
            int same = !memcmp(&a, &b, sizeof a);
            int expected = in_region(&a) ? a.x == b.x && a.y == b.y && a.size == b.size && b.wavelet[0] == a.wavelet[0] &&
                                               b.wavelet[1] == a.wavelet[1] + 300 && b.wavelet[2] == a.wavelet[2]
                                         : same;
            differ += !expected;
        }
        CHECK(differ == 0, "%zu records are not what the edit made them", differ);
        int32_t *before, *after;
        uint32_t side, side2;
        char why[300];
        CHECK(rb_wtd_heights(content, content_size, 16, UINT64_MAX, &before, &side, why, sizeof why) == 0, "%s", why);
        CHECK(rb_wtd_heights(edited_content, ec_size, 16, UINT64_MAX, &after, &side2, why, sizeof why) == 0, "%s", why);
        size_t inside = 0, outside = 0;
        for (uint32_t j = 0; j < side; j++)
            for (uint32_t i = 0; i < side; i++) {
                uint32_t x = i * 16, y = j * 16;
                int near = x >= 3072 - 512 && x < 4096 + 512 && y >= 3072 - 512 && y < 4096 + 512;
                int changed = before[j * side + i] != after[j * side + i];
                inside += near && changed, outside += !near && changed;
            }
        CHECK(inside > 0 && outside == 0, "heights changed: %zu points near the region, %zu elsewhere", inside, outside);
        printf("raised %zu nodes: %zu of the 512 x 512 heights changed, all near the region\n", edited, inside);
        free(before), free(after);
        rb_doc *re = parse(out, out_size);
        CHECK(re != NULL, "the raised terrain does not read back");
        if (re) again = write_doc(re, 1, &again_size);
        CHECK(again && again_size == out_size && !memcmp(again, out, out_size), "the raised terrain does not verify");
        if (re) model_shows_edit(re, file, size, content, count);
        rb_doc_free(re);
    }
    free(again), free(out), free(edited_content), free(patch);
    rb_doc_free(doc);
}

/* A node where the tree had none: descendant 3 of a node that has no record for it, listed
 * after that node's whole branch. */
static void add_node(const uint8_t *file, size_t size, const uint8_t *content, size_t content_size)
{
    size_t count = (size_t)rb_wtd_content_nodes(content_size), p, q = 0;
    rb_wtd_node parent, child = {0};
    for (p = 0; p < count; p++) {
        rb_wtd_node_get(content, p, &parent);
        if (parent.size < 4) continue;
        uint32_t h = parent.size / 2;
        for (q = p + 1; q < count; q++) { /* the end of the parent's branch */
            rb_wtd_node n;
            rb_wtd_node_get(content, q, &n);
            if (n.size >= parent.size || n.x < parent.x || n.y < parent.y || n.x >= parent.x + parent.size ||
                n.y >= parent.y + parent.size)
                break;
            if (n.x == parent.x && n.y == parent.y + h && n.size == h) break; /* descendant 3 is there */
        }
        rb_wtd_node n;
        if (q < count) rb_wtd_node_get(content, q, &n);
        if (q == count || !(n.x == parent.x && n.y == parent.y + h && n.size == h)) {
            child = (rb_wtd_node){parent.x, parent.y + h, h, {0, 40, 0}};
            break;
        }
    }
    CHECK(p < count, "no node without descendant 3");
    if (p == count) return;
    rb_doc *doc = parse(file, size);
    if (!doc) return;
    char patch[300], msg[400];
    snprintf(patch, sizeof patch, "[{\"op\":\"add\",\"path\":\"/terrain/nodes/%zu\",\"value\":{\"x\":%u,\"y\":%u,"
             "\"size\":%u,\"bottomMid\":0,\"centre\":40,\"leftMid\":0}}]", q, child.x, child.y, child.size);
    CHECK(apply(&doc, patch, msg, sizeof msg) == 0, "add: %s", msg);
    size_t out_size = 0, c2_size = 0;
    uint8_t *out = write_doc(doc, 0, &out_size), *c2 = out ? decode_file(out, out_size, &c2_size) : NULL;
    CHECK(c2 && c2_size == content_size + RB_WTD_NODE_BYTES, "the added node is not in the written file");
    if (c2 && c2_size == content_size + RB_WTD_NODE_BYTES) {
        size_t off = RB_WTD_CONTENT_HEADER_BYTES + q * RB_WTD_NODE_BYTES;
        rb_wtd_node got;
        rb_wtd_node_get(c2, q, &got);
        CHECK(!memcmp(c2, content, off) && !memcmp(&got, &child, sizeof got) &&
                  !memcmp(c2 + off + RB_WTD_NODE_BYTES, content + off, content_size - off),
              "records around the added one changed");
        rb_wtd_summary s;
        char why[300];
        CHECK(rb_wtd_scan(out, out_size, 1u << 24, &s, why, sizeof why) == 0 && s.stored_nodes == 4 * (count + 1) + 1,
              "node count not derived: %u", s.stored_nodes);
        printf("added node %zu (x %u, y %u, size %u): %zu -> %zu bytes, header counts %u nodes / %u vertices\n", q,
               child.x, child.y, child.size, size, out_size, s.stored_nodes, s.stored_vertices);
        round_trips("pv.wtd with a node added", out, out_size);
    }
    /* the same record a place too early is refused, with its place */
    rb_doc_free(doc);
    doc = parse(file, size);
    snprintf(patch, sizeof patch, "[{\"op\":\"add\",\"path\":\"/terrain/nodes/%zu\",\"value\":{\"x\":%u,\"y\":%u,"
             "\"size\":%u,\"bottomMid\":0,\"centre\":40,\"leftMid\":0}}]", p, child.x, child.y, child.size);
    int refused = apply(&doc, patch, msg, sizeof msg) != 0;
    uint8_t *bad = NULL;
    size_t bad_size;
    rb_error err;
    if (!refused) refused = rb_doc_write(doc, NULL, &bad, &bad_size, &err) != RB_OK && rb_error_format(&err, msg, sizeof msg);
    CHECK(refused && strstr(msg, "is not where the tree puts it"), "a misplaced node: %s", msg);
    printf("misplaced node refused: %s\n", msg);
    free(bad), free(out), free(c2);
    rb_doc_free(doc);
}

/* Damaged files: read (a tree that does not decode is kept as its bits, with a note) and
 * written back exactly, or refused with a message; never a crash. */
static void damage(const uint8_t *file, size_t size)
{
    uint8_t *copy = malloc(size);
    memcpy(copy, file, size);
    copy[(720 / 32) * 4 + 1] ^= 0x40; /* stream bit 721: the top bit of the root's branch size */
    rb_doc *doc = parse(copy, size);
    CHECK(doc && rb_doc_note_count(doc) == 1, "a stale branch size is not kept as bits with a note");
    if (doc) printf("damaged branch size: %s\n", rb_doc_note(doc, 0));
    rb_doc_free(doc);
    round_trips("pv.wtd, stale branch size", copy, size);
    round_trips("pv.wtd less its last word", file, size - 4);
    size_t kept = 0, refused = 0;
    for (int trial = 0; trial < 60; trial++) {
        memcpy(copy, file, size);
        size_t at = 90 + next_rand() % (size - 90);
        copy[at] ^= (uint8_t)(1u << (next_rand() % 8));
        rb_doc *d = parse(copy, size);
        if (!d) {
            refused++;
            continue;
        }
        kept++;
        rb_doc_free(d);
        round_trips("pv.wtd with a flipped bit", copy, size);
    }
    printf("60 flipped bits: %zu read and written back exactly, %zu refused\n", kept, refused);
    free(copy);
}

/* ---------- the asset ---------- */

typedef struct captured {
    uint8_t *png;
    size_t size;
    int count;
    char name[80], kind[16], path[40];
} captured;

static int capture(void *context, const rb_asset *asset)
{
    captured *c = context;
    c->count++;
    free(c->png);
    c->png = malloc(asset->data_size);
    memcpy(c->png, asset->data, asset->data_size);
    c->size = asset->data_size;
    snprintf(c->name, sizeof c->name, "%s", asset->name);
    snprintf(c->kind, sizeof c->kind, "%s", asset->kind);
    snprintf(c->path, sizeof c->path, "%s", asset->path);
    return 0;
}

static void asset(const char *what, const uint8_t *file, size_t size, const uint8_t *content, size_t content_size)
{
    rb_doc *doc = parse(file, size);
    if (!doc) return;
    captured cap = {0};
    char why[300] = "";
    int r = doc->format->assets(doc, NULL, capture, &cap, why, sizeof why);
    CHECK(r == 0 && cap.count == 1, "%s: %d assets, %s", what, cap.count, why);
    CHECK(!strcmp(cap.kind, "image") && !strcmp(cap.path, "/terrain") && strstr(cap.name, ".png"), "%s: %s %s %s",
          what, cap.kind, cap.path, cap.name);
    int none = 0;
    CHECK(doc->format->assets(doc, "sound", capture, &none, why, sizeof why) == 0 && none == 0, "only sounds");
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    int ok = cap.png && png_image_begin_read_from_memory(&image, cap.png, cap.size);
    CHECK(ok, "%s: the PNG does not decode", what);
    int32_t *h = NULL;
    uint32_t side = 0;
    CHECK(rb_wtd_heights(content, content_size, rb_wtd_root_size(content) / 2048, UINT64_MAX, &h, &side, why, sizeof why) == 0,
          "%s", why);
    if (ok && h) {
        CHECK(image.width == side && image.height == side, "%s: %u x %u PNG, %u x %u grid", what, image.width,
              image.height, side, side);
        image.format = PNG_FORMAT_LINEAR_Y;
        uint16_t *px = malloc((size_t)image.width * image.height * 2);
        CHECK(png_image_finish_read(&image, NULL, px, 0, NULL), "%s: PNG pixels", what);
        int64_t lo = h[0], hi = h[0];
        for (size_t i = 0; i < (size_t)side * side; i++) lo = h[i] < lo ? h[i] : lo, hi = h[i] > hi ? h[i] : hi;
        int64_t range = hi - lo;
        size_t bad = 0;
        for (uint32_t row = 0; row < side && image.width == side; row++)
            for (uint32_t col = 0; col < side; col++) {
                int64_t v = h[(size_t)(side - 1 - row) * side + col] - lo;
                int64_t want = range <= 65535 ? v : (v * 65535 + range / 2) / range;
                bad += px[(size_t)row * side + col] != want;
            }
        CHECK(bad == 0, "%s: %zu pixels are not the heights", what, bad);
        printf("%s: %s, %u x %u 16-bit grey, %zu bytes, heights %lld..%lld\n", what, cap.name, image.width,
               image.height, cap.size, (long long)lo, (long long)hi);
        free(px);
    }
    png_image_free(&image);
    free(h), free(cap.png);
    rb_doc_free(doc);
}

int main(int argc, char **argv)
{
    synthetic(64);
    synthetic(256);
    if (argc > 1) {
        char path[1024];
        snprintf(path, sizeof path, "%s/flat.wtd", argv[1]);
        size_t size, content_size;
        uint8_t *flat = test_read_file(path, &size), *content = flat ? decode_file(flat, size, &content_size) : NULL;
        CHECK(content != NULL, "%s does not decode", path);
        if (content) asset("flat.wtd", flat, size, content, content_size);
        free(flat), free(content);
    }
    const char *shared = getenv("REBYTE_SHARED") ? getenv("REBYTE_SHARED") : "../shared";
    char path[1024];
    snprintf(path, sizeof path, "%s/corpus/tres/pv.wtd", shared);
    size_t size, content_size;
    uint8_t *pv = test_read_file(path, &size);
    if (!pv) {
        printf("%s is absent: the pv.wtd checks did not run\n", path);
    } else {
        uint8_t *content = decode_file(pv, size, &content_size);
        CHECK(content != NULL, "pv.wtd does not decode");
        if (content) {
            rb_buf again;
            rb_buf_init(&again);
            char why[300] = "";
            CHECK(rb_codec_wtd_tree.encode(content, content_size, &again, why, sizeof why) == 0, "encode: %s", why);
            CHECK(again.size == size && memcmp(again.data, pv, size) == 0, "pv.wtd re-encoded is not the file");
            printf("pv.wtd: %lld nodes decoded, re-encoded to the same %zu bytes\n",
                   (long long)rb_wtd_content_nodes(content_size), again.size);
            rb_buf_free(&again);
            round_trips("pv.wtd", pv, size);
            rb_wtd_summary s;
            CHECK(rb_wtd_scan(pv, size, 9306, &s, why, sizeof why) != 0 && strstr(why, "(the limit)"),
                  "a tree above the node limit: %s", why);
            CHECK(rb_wtd_scan(pv, size, 9307, &s, why, sizeof why) == 0 && s.vertices == 31921 && s.nodes == 37229,
                  "pv.wtd: %u vertices, %u nodes (%s)", s.vertices, s.nodes, why);
            raise_region(pv, size, content, content_size);
            add_node(pv, size, content, content_size);
            damage(pv, size);
            asset("pv.wtd", pv, size, content, content_size);
        }
        free(content);
        free(pv);
    }
    if (test_failures) fprintf(stderr, "%d failures\n", test_failures);
    for (size_t i = 0; i < applied_count; i++) rb_free(applied_files[i]);
    free(applied_files);
    return test_failures != 0;
}
