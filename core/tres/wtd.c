/*
 * Trespasser wavelet terrain data, .wtd (docs/formats/trespasser.md "WTD layout"). The file is one
 * bit stream kept in little-endian u32 words, read most-significant bit first; so the stream's
 * bytes are the file's bytes with each 4-byte word reversed. This module views the file through
 * that word-order transform (an exact, reversible "codec"), then types the 720-bit header: version,
 * node and vertex counts, root coefficient and the 76-byte SMapping (whose fields are stored byte
 * by byte in memory order, hence little-endian inside the big-endian stream).
 * The zero-tree that follows (bit 720 on) is kept as a typed blob, including the unused bits
 * of the last word; decoding the tree itself is not done yet.
 */
#include <stdio.h>
#include <string.h>
#include "tres.h"

enum { WTD_VERSION = 1001 };

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

static void wtd_describe(rb_ar *ar)
{
    uint64_t size = rb_ar_remaining(ar);
    rb_ar_stream_begin(ar, "bitStream", &wtd_word_order, size, size);
    unsigned version = (unsigned)rb_ar_uint(ar, "version", RB_U16 | RB_W_BE);
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_READ && version != WTD_VERSION)
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "WTD version %u (the game accepts only 1001)", version);
    be32(ar, "nodeCount");
    be32(ar, "vertexCount");
    rb_ar_uint(ar, "rootCoefficient", RB_I32 | RB_W_BE);
    wtd_mapping(ar);
    rb_ar_bytes(ar, "zeroTree", RB_K_BLOB, rb_ar_remaining(ar)); /* bits 720.., with the last word's tail */
    rb_slot none = {0};
    rb_ar_stream_end(ar, &none, &none);
}

const rb_format rb_format_tres_wtd = {
    .name = "wtd",
    .description = "Trespasser wavelet terrain data (.wtd)",
    .detect = wtd_detect,
    .describe = wtd_describe,
};
