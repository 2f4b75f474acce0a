/*
 * Trespasser wavelet terrain data, .wtd (docs/formats/tres.md "WTD layout"). The file is one
 * bit stream kept in little-endian u32 words, read most-significant bit first. The model is what
 * the stream encodes: the header fields and the significant nodes of the wavelet zero-tree with
 * their coefficients (`terrain`, a stream whose codec is the zero-tree coder of wtd_tree.c). The
 * node and vertex counts, branch sizes, maxima and field widths are derived when writing; the
 * original bits are written back while the content is unchanged.
 * A file whose tree the encoder would not write back bit for bit (a stale branch size, say) is
 * kept the way it was before the tree was decoded: the stream viewed through its word order
 * (`bitStream`), header typed, the tree a blob.
 */
#include <stdio.h>
#include <string.h>
#include "core/model/doc_state.h"
#include "core/tres/tres.h"
#include "core/tres/wtd_tree.h"

enum { WTD_VERSION = RB_WTD_VERSION };

static int swap_words(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, char *err, size_t err_size)
{
    if (in_size != out_size || in_size % 4) {
        snprintf(err, err_size, "a WTD bit stream is whole 32-bit words (%zu bytes is not)", in_size);
        return -1;
    }
    for (size_t i = 0; i < in_size; i += 4)
        for (int k = 0; k < 4; k++) out[i + k] = in[i + 3 - k];
    return 0;
}

static int wtd_words_encode(const uint8_t *in, size_t in_size, rb_buf *out, char *err, size_t err_size)
{
    if (in_size % 4 || !rb_buf_reserve(out, in_size)) {
        snprintf(err, err_size, in_size % 4 ? "the WTD stream must be whole 32-bit words (%zu bytes is not)"
                                            : "out of memory for %zu bytes", in_size);
        return -1;
    }
    swap_words(in, in_size, out->data + out->size, in_size, err, err_size);
    out->size += in_size;
    return 0;
}

static const rb_codec wtd_word_order = {"wtd-word-order", swap_words, wtd_words_encode};

static int wtd_detect(const uint8_t *data, size_t size)
{
    /* the first 16 stream bits are the version: the high half of the first little-endian word */
    if (size < 92 || size % 4 || (data[2] | data[3] << 8) != WTD_VERSION) return 0;
    return 50;
}

static void be32(rb_ar *ar, const char *key) { rb_ar_uint(ar, key, RB_U32 | RB_W_BE); }

static void wtd_mapping(rb_ar *ar)
{
    static const char *const ints[] = {"quadStartX", "quadStartY", "quadSizeX", "quadSizeY"};
    static const char *const floats[] = {"worldStartX", "worldStartY", "worldSizeX", "worldSizeY",
                                         "quadToWorldScaleX", "quadToWorldOffsetX", "quadToWorldScaleY",
                                         "quadToWorldOffsetY", "worldToQuadScaleX", "worldToQuadOffsetX",
                                         "worldToQuadScaleY", "worldToQuadOffsetY", "worldToCoef", "coefToWorld",
                                         "coefToQuad"};
    rb_ar_record_begin(ar, "mapping");
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) rb_ar_i32(ar, ints[i]);
    for (size_t i = 0; i < sizeof floats / sizeof *floats; i++) rb_ar_f32(ar, floats[i]);
    rb_ar_record_end(ar);
}

static void wtd_version(rb_ar *ar)
{
    unsigned version = (unsigned)rb_ar_uint(ar, "version", RB_U16 | RB_W_BE);
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_READ && version != WTD_VERSION)
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "WTD version %u (the game accepts only 1001)", version);
}

/* A significant node of the zero-tree: its square in quad space and the three wavelet
 * coefficients it holds, at the middle of its bottom edge, its centre and the middle of its left
 * edge (docs/formats/tres.md "WTD zero-tree"). */
static const rb_layout_field WTD_NODE_FIELDS[] = {
    {"x", RB_K_INT, RB_U32},         {"y", RB_K_INT, RB_U32},      {"size", RB_K_INT, RB_U32},
    {"bottomMid", RB_K_INT, RB_I32}, {"centre", RB_K_INT, RB_I32}, {"leftMid", RB_K_INT, RB_I32},
};
static const rb_layout WTD_NODE = {"wavelet tree node", WTD_NODE_FIELDS, 6};

static void wtd_terrain(rb_ar *ar, uint64_t size, uint32_t significant)
{
    rb_ar_stream_begin(ar, "terrain", &rb_codec_wtd_tree, rb_wtd_content_size(significant), size);
    wtd_version(ar);
    rb_ar_uint(ar, "rootCoefficient", RB_I32 | RB_W_BE);
    wtd_mapping(ar);
    rb_ar_table_n(ar, "nodes", significant, &WTD_NODE);
    rb_ar_u32(ar, "unusedBits"); /* what the last word held after the tree, right-aligned: junk */
    rb_slot none = {0};
    rb_ar_stream_end(ar, &none, &none);
}

static void wtd_bits(rb_ar *ar, uint64_t size)
{
    rb_ar_stream_begin(ar, "bitStream", &wtd_word_order, size, size);
    wtd_version(ar);
    be32(ar, "nodeCount");
    be32(ar, "vertexCount");
    rb_ar_uint(ar, "rootCoefficient", RB_I32 | RB_W_BE);
    wtd_mapping(ar);
    rb_ar_bytes(ar, "zeroTree", RB_K_BLOB, rb_ar_remaining(ar)); /* bits 720.., with the last word's tail */
    rb_slot none = {0};
    rb_ar_stream_end(ar, &none, &none);
}

static void wtd_describe(rb_ar *ar)
{
    uint64_t size = rb_ar_remaining(ar);
    rb_wtd_summary tree = {0};
    int decodable = 0;
    if (rb_ar_direction(ar) == RB_AR_READ) {
        const uint8_t *all = rb_ar_peek_bytes(ar, size);
        char why[240] = "";
        /* the decoded content (24 bytes a node) must fit the reader's limits */
        const rb_limits *limits = rb_ar_limits(ar);
        uint64_t max_nodes = limits->max_decompressed_size / RB_WTD_NODE_BYTES;
        if (max_nodes > limits->max_count) max_nodes = limits->max_count;
        decodable = all && rb_wtd_scan(all, (size_t)size, (size_t)max_nodes, &tree, why, sizeof why) == 0;
        if (!decodable && all) rb_ar_note(ar, "zero-tree kept as its bits: %s", why);
    }
    if (rb_ar_has(ar, "terrain", decodable)) wtd_terrain(ar, size, tree.significant);
    else wtd_bits(ar, size);
}

/* `rebyte info`: how much tree there is and how fine it goes. */
static json_t *wtd_summary(const rb_doc *doc)
{
    const rb_node *terrain = rb_node_get(doc->root, "terrain");
    const rb_node *nodes = terrain ? rb_node_get(terrain, "nodes") : NULL;
    json_t *out = json_object();
    if (nodes) {
        size_t count = rb_element_count(nodes);
        uint64_t smallest = 0;
        for (size_t i = 0; i < count; i++) {
            uint64_t size = rb_element_uint(nodes, i, "size");
            if (!smallest || size < smallest) smallest = size;
        }
        json_object_set_new(out, "significantNodes", json_integer((json_int_t)count));
        if (count) json_object_set_new(out, "smallestNode", json_integer((json_int_t)smallest));
    } else {
        json_object_set_new(out, "zeroTree", json_string("kept as its bits"));
    }
    if (rb_doc_note_count(doc)) json_object_set_new(out, "notes", json_integer((json_int_t)rb_doc_note_count(doc)));
    json_object_set_new(out, "origin", tres_origin("terrain (.wtd)", "the wavelet tree"));
    return out;
}

/* Natural key of a node: its square (`diff --by-identity` shows an added node as one add). */
static const rb_key_set WTD_IDENTITY_KEYS[] = {{20, {"x", "y", "size", NULL}}};

const rb_format rb_format_wtd = {
    .name = "wtd",
    .description = "Trespasser wavelet terrain data (.wtd)",
    .detect = wtd_detect,
    .describe = wtd_describe,
    .summary = wtd_summary,
    .assets = wtd_assets,
    .identity_keys = WTD_IDENTITY_KEYS,
    .identity_key_count = 1,
};
