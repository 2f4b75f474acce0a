/*
 * Little-endian integers in a byte buffer, for the few places that look at bytes beside the
 * archive (packed tables, detectors, index buffers, RIFF headers). Descriptions read through the
 * archive (archive.h), never with these.
 */
#ifndef RB_BYTES_H
#define RB_BYTES_H
#include <stdint.h>

/* The unsigned value of `width` (0 to 8) bytes at `p`, least significant first. */
static inline uint64_t rb_load_le(const uint8_t *p, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* `v` as `width` (0 to 8) bytes at `p`, least significant first. */
static inline void rb_store_le(uint8_t *p, uint64_t v, unsigned width)
{
    for (unsigned i = 0; i < width; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t rb_le16(const uint8_t *p) { return (uint16_t)rb_load_le(p, 2); }
static inline uint32_t rb_le32(const uint8_t *p) { return (uint32_t)rb_load_le(p, 4); }
static inline void rb_put_le32(uint8_t *p, uint32_t v) { rb_store_le(p, v, 4); }
#endif
