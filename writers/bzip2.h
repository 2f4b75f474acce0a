/* bzip2 (libbz2), for GameMaker's bzip2-packed textures:
 * docs/formats/datawin.md "Texture encodings". */
#ifndef RB_BZIP2_H
#define RB_BZIP2_H
#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"

/* Decode one bzip2 stream into *out (malloc'd); more than `max_bytes` of content is refused. The
 * bytes after the stream's end are not read; *used says how many were (may be NULL). 0, or -1
 * with `err`. */
int rb_bzip2_decode(const uint8_t *in, size_t in_size, uint64_t max_bytes, uint8_t **out, size_t *out_size,
                    size_t *used, char *err, size_t err_size);
/* Append the bzip2 stream of `in` (blocks of 900 kB, "BZh9", as GameMaker writes). */
int rb_bzip2_encode(const uint8_t *in, size_t in_size, rb_buf *out, char *err, size_t err_size);
#endif
