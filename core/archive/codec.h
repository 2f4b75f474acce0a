/*
 * Codecs behind one small interface, so the core does not depend on one codec library
 * (lzo2 is GPL; an embedder can swap it for another LZO1X implementation here).
 */
#ifndef RB_CODEC_H
#define RB_CODEC_H
#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"

typedef struct rb_codec {
    const char *name;
    /* Decode into out[0..out_size); the content must fill it exactly. 0 on success. */
    int (*decode)(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, char *err, size_t err_size);
    /* Append the encoded form of in to out. 0 on success. */
    int (*encode)(const uint8_t *in, size_t in_size, rb_buf *out, char *err, size_t err_size);
    /* The most content one encoded byte can produce (0: no bound known). A declared content
     * size above encoded size x this cannot be true, so it is refused before anything is
     * allocated: a tiny file cannot make the reader reserve max_decompressed_size. */
    unsigned max_expansion;
} rb_codec;

extern const rb_codec rb_codec_lzo1x; /* LZO1X; encodes with LZO1X-1 (closest to the games) */
extern const rb_codec rb_codec_zlib;
extern const rb_codec rb_codec_deflate; /* raw deflate (zip entries) */
#endif
