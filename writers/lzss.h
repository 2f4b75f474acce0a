/*
 * LZSS in the shape of H. Okumura's LZSS.C (1989): a 4096-byte ring window, a flag byte per
 * 8 tokens (bit 0 first, 1 = literal), 2-byte matches `pos = b0 | (b1 & 0xF0) << 4`,
 * `len = (b1 & 0x0F) + 3`, where pos is an absolute ring position. Two members of the family:
 *   SPZ  (Trespasser swap files): window zero-filled, writing starts at 0xFEE, matches 3..18;
 *        the codec here is the bare stream (the .spz format adds the 4-byte size itself).
 *   SZDD (MS COMPRESS, writers/szdd.h): window space-filled, writing starts at 0xFF0, matches 3..16.
 * The encoder is Okumura's binary-tree encoder, the one both original tools use: greedy, the
 * first strictly longer match on the tree path, newer positions replacing equal 18-byte ones.
 */
#ifndef RB_LZSS_H
#define RB_LZSS_H
#include "core/archive/codec.h"

typedef struct rb_lzss_params {
    unsigned max_match;          /* F: 18 (SPZ) or 16 (SZDD); writing starts at 4096 - F */
    uint8_t fill;                /* initial window content */
    int tail_uninitialised;      /* SPZ: the game leaves slots 4096-F.. uninitialised; reading
                                    one before it is written makes the stream invalid */
} rb_lzss_params;

extern const rb_lzss_params rb_lzss_spz_params;
extern const rb_codec rb_codec_lzss_spz;

/* Decodes the whole of `in` into exactly out_size bytes. 0 on success. */
int rb_lzss_decode(const rb_lzss_params *params, const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size,
                   char *err, size_t err_size);
/* Appends the encoding of `in` to `out`. 0 on success. */
int rb_lzss_encode(const rb_lzss_params *params, const uint8_t *in, size_t in_size, rb_buf *out, char *err,
                   size_t err_size);
#endif
