/*
 * A 64-bit hash of bytes (FNV-1a, then a finaliser that spreads the bits): what the selector
 * indexes (patch/portable.c, patch/model_select.c) and the diff's list matching
 * (patch/model_diff.c) bucket by, and the digest a diff compares two files' pictures by
 * (patch/model_diff_pictures.c: a collision only costs the pictures' spelling, as the diff is
 * proven before use). Not a checksum of any format.
 */
#ifndef RB_HASH64_H
#define RB_HASH64_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t rb_mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static inline uint64_t rb_hash_bytes(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return rb_mix64(h ^ n);
}
/* The same use, eight bytes at a time (for short strings looked up once per value read or
 * written: the GBX lookback strings, core/gbx/engine/gbx_id.c); other values than rb_hash_bytes. */
static inline uint64_t rb_hash_words(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ULL ^ n, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 29;
    }
    w = 0;
    if (i < n) memcpy(&w, p + i, n - i);
    return rb_mix64(h ^ w);
}
#endif
