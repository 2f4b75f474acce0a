/* bzip2 through libbz2's streaming interface, bounded by the caller's limit. */
#include "writers/bzip2.h"
#include <bzlib.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int rb_bzip2_decode(const uint8_t *in, size_t in_size, uint64_t max_bytes, uint8_t **out, size_t *out_size,
                    size_t *used, char *err, size_t err_size)
{
    *out = NULL;
    *out_size = 0;
    if (in_size > UINT_MAX) {
        snprintf(err, err_size, "bzip2 stream of %zu bytes is too large", in_size);
        return -1;
    }
    bz_stream z = {0};
    if (BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK) {
        snprintf(err, err_size, "bzip2: cannot start decompressing");
        return -1;
    }
    size_t cap = in_size < (1u << 20) ? in_size * 4 + 1024 : in_size * 2;
    if (cap > max_bytes) cap = max_bytes ? (size_t)max_bytes : 1;
    uint8_t *buf = malloc(cap);
    z.next_in = (char *)in;
    z.avail_in = (unsigned)in_size;
    int r = BZ_OK;
    size_t have = 0;
    while (buf) {
        if (have == cap) {
            if (cap >= max_bytes) {
                snprintf(err, err_size, "bzip2 content exceeds the %llu-byte limit", (unsigned long long)max_bytes);
                break;
            }
            size_t grown = cap * 2 > max_bytes ? (size_t)max_bytes : cap * 2;
            uint8_t *b = realloc(buf, grown);
            if (!b) break;
            buf = b;
            cap = grown;
        }
        size_t room = cap - have > UINT_MAX ? UINT_MAX : cap - have;
        z.next_out = (char *)buf + have;
        z.avail_out = (unsigned)room;
        r = BZ2_bzDecompress(&z);
        have += room - z.avail_out;
        if (r == BZ_STREAM_END) break;
        if (r != BZ_OK) {
            snprintf(err, err_size, "bzip2 stream is corrupt (libbz2 error %d at input byte %u)", r,
                     (unsigned)(in_size - z.avail_in));
            break;
        }
        if (z.avail_in == 0 && z.avail_out != 0) {
            snprintf(err, err_size, "bzip2 stream is cut short after %zu input bytes", in_size);
            break;
        }
    }
    BZ2_bzDecompressEnd(&z);
    if (!buf) snprintf(err, err_size, "out of memory decompressing bzip2");
    if (!buf || r != BZ_STREAM_END) {
        free(buf);
        return -1;
    }
    *out = buf;
    *out_size = have;
    if (used) *used = in_size - z.avail_in;
    return 0;
}

int rb_bzip2_encode(const uint8_t *in, size_t in_size, rb_buf *out, char *err, size_t err_size)
{
    if (in_size > UINT_MAX / 2) {
        snprintf(err, err_size, "bzip2: %zu bytes is too large to compress at once", in_size);
        return -1;
    }
    /* libbz2's documented bound: 1 % more than the input plus 600 bytes */
    unsigned bound = (unsigned)(in_size + in_size / 100 + 601);
    if (!rb_buf_reserve(out, bound)) {
        snprintf(err, err_size, "out of memory compressing %zu bytes", in_size);
        return -1;
    }
    int r = BZ2_bzBuffToBuffCompress((char *)out->data + out->size, &bound, (char *)in, (unsigned)in_size, 9, 0, 0);
    if (r != BZ_OK) {
        snprintf(err, err_size, "bzip2 compression failed (libbz2 error %d)", r);
        return -1;
    }
    out->size += bound;
    return 0;
}
