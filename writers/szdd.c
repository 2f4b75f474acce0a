/* SZDD (MS COMPRESS) streams: the LZSS of lzss.c with COMPRESS.EXE 2.50's parameters
 * (docs/formats/tres.md "SZDD"): window filled with spaces, writing starts at 4096 - 16,
 * matches 3..16. */
#include "writers/szdd.h"

const rb_lzss_params rb_lzss_szdd_params = {16, 0x20, 0};

static int szdd_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, char *err, size_t err_size)
{
    return rb_lzss_decode(&rb_lzss_szdd_params, in, in_size, out, out_size, err, err_size);
}

static int szdd_encode(const uint8_t *in, size_t in_size, rb_buf *out, char *err, size_t err_size)
{
    return rb_lzss_encode(&rb_lzss_szdd_params, in, in_size, out, err, err_size);
}

const rb_codec rb_codec_szdd = {"szdd", szdd_decode, szdd_encode, 9};
