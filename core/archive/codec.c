#include "core/archive/codec.h"
#include <lzo/lzo1x.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int lzo_ready(char *err, size_t err_size)
{
    /* lzo_init only checks the ABI; calling it more than once is harmless. */
    if (lzo_init() != LZO_E_OK) {
        snprintf(err, err_size, "lzo_init failed");
        return 0;
    }
    return 1;
}

static int lzo_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, char *err, size_t err_size)
{
    if (!lzo_ready(err, err_size)) return -1;
    lzo_uint produced = out_size;
    int r = lzo1x_decompress_safe(in, in_size, out, &produced, NULL);
    if (r != LZO_E_OK) {
        snprintf(err, err_size, "LZO1X stream is corrupt (lzo error %d after %lu output bytes)", r,
                 (unsigned long)produced);
        return -1;
    }
    if (produced != out_size) {
        snprintf(err, err_size, "LZO1X stream decodes to %lu bytes, header declares %zu",
                 (unsigned long)produced, out_size);
        return -1;
    }
    return 0;
}

static int lzo_encode(const uint8_t *in, size_t in_size, rb_buf *out, char *err, size_t err_size)
{
    if (!lzo_ready(err, err_size)) return -1;
    size_t bound = in_size + in_size / 16 + 64 + 3;
    void *work = malloc(LZO1X_1_MEM_COMPRESS);
    if (!work || !rb_buf_reserve(out, bound)) {
        free(work);
        snprintf(err, err_size, "out of memory compressing %zu bytes", in_size);
        return -1;
    }
    lzo_uint produced = 0;
    int r = lzo1x_1_compress(in, in_size, out->data + out->size, &produced, work);
    free(work);
    if (r != LZO_E_OK) {
        snprintf(err, err_size, "LZO1X-1 compression failed (%d)", r);
        return -1;
    }
    out->size += produced;
    return 0;
}

/* LZO1X: each zero byte of a length extension adds 255 to a match, so < 256 out per byte in */
const rb_codec rb_codec_lzo1x = {"lzo1x", lzo_decode, lzo_encode, 256};

static int zlib_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, char *err, size_t err_size)
{
    uLongf produced = out_size;
    uLong consumed = in_size;
    int r = uncompress2(out, &produced, in, &consumed);
    if (r != Z_OK || produced != out_size) {
        snprintf(err, err_size, "zlib stream is corrupt or decodes to %lu bytes instead of %zu (zlib %d)",
                 (unsigned long)produced, out_size, r);
        return -1;
    }
    return 0;
}

static int zlib_encode(const uint8_t *in, size_t in_size, rb_buf *out, char *err, size_t err_size)
{
    uLongf bound = compressBound(in_size);
    if (!rb_buf_reserve(out, bound)) {
        snprintf(err, err_size, "out of memory compressing %zu bytes", in_size);
        return -1;
    }
    int r = compress2(out->data + out->size, &bound, in, in_size, Z_DEFAULT_COMPRESSION);
    if (r != Z_OK) {
        snprintf(err, err_size, "zlib compression failed (%d)", r);
        return -1;
    }
    out->size += bound;
    return 0;
}

/* deflate peaks at 1032:1 (258-byte matches coded in two bits) */
const rb_codec rb_codec_zlib = {"zlib", zlib_decode, zlib_encode, 1032};

/* ---------- raw deflate (zip entries: no zlib header, no checksum) ---------- */

static int deflate_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, char *err, size_t err_size)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, -MAX_WBITS) != Z_OK) {
        snprintf(err, err_size, "out of memory starting inflate");
        return -1;
    }
    s.next_in = (Bytef *)in;
    s.avail_in = (uInt)in_size;
    s.next_out = out;
    s.avail_out = (uInt)out_size;
    int r = inflate(&s, Z_FINISH);
    size_t produced = out_size - s.avail_out, left = s.avail_in;
    inflateEnd(&s);
    if (r != Z_STREAM_END || produced != out_size || left != 0) {
        snprintf(err, err_size, "deflate stream is corrupt or decodes to %zu bytes instead of %zu (%zu bytes left, zlib %d)",
                 produced, out_size, left, r);
        return -1;
    }
    return 0;
}

static int deflate_encode(const uint8_t *in, size_t in_size, rb_buf *out, char *err, size_t err_size)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    if (deflateInit2(&s, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        snprintf(err, err_size, "out of memory starting deflate");
        return -1;
    }
    uLong bound = deflateBound(&s, (uLong)in_size);
    if (!rb_buf_reserve(out, bound)) {
        deflateEnd(&s);
        snprintf(err, err_size, "out of memory compressing %zu bytes", in_size);
        return -1;
    }
    s.next_in = (Bytef *)in;
    s.avail_in = (uInt)in_size;
    s.next_out = out->data + out->size;
    s.avail_out = (uInt)bound;
    int r = deflate(&s, Z_FINISH);
    size_t produced = bound - s.avail_out;
    deflateEnd(&s);
    if (r != Z_STREAM_END) {
        snprintf(err, err_size, "deflate failed (%d)", r);
        return -1;
    }
    out->size += produced;
    return 0;
}

const rb_codec rb_codec_deflate = {"deflate", deflate_decode, deflate_encode, 1032};

