/*
 * GameMaker's variant of QOI, the texture encoding of GameMaker 2022 and later (alone, or inside
 * bzip2). It is not the published QOI format: another magic, a byte-length header and other
 * operations (docs/formats/datawin.md "Texture encodings"). Pixels are 8-bit RGBA, rows top
 * to bottom, 4 bytes a pixel.
 */
#ifndef RB_QOI_H
#define RB_QOI_H
#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"

enum { RB_QOI_HEADER = 12 };

/* Decode a whole stream (header included) into *rgba (malloc'd, width x height x 4 bytes);
 * pictures of more than `max_bytes` of pixels are refused before anything is allocated. 0, or
 * -1 with `err` saying at which byte of the stream it went wrong. */
int rb_qoi_decode(const uint8_t *in, size_t in_size, uint64_t max_bytes, uint8_t **rgba, unsigned *width,
                  unsigned *height, char *err, size_t err_size);
/* Append the stream of a picture (header and GameMaker's 4 trailing zero bytes included). 0, or
 * -1 when a side is above 65535 or memory runs out. */
int rb_qoi_encode(const uint8_t *rgba, unsigned width, unsigned height, rb_buf *out, char *err, size_t err_size);
#endif
