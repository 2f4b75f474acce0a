/* PNG to and from 8-bit RGBA pixels (libpng's simplified API): how pictures leave and come back
 * (docs/usage.md "Assets"). Rows top to bottom, 4 bytes a pixel. */
#ifndef RB_PNG_RGBA_H
#define RB_PNG_RGBA_H
#include <stddef.h>
#include <stdint.h>
#include "../core/buf.h"

/* Any PNG (palette, grey, 16-bit, with or without alpha) as RGBA in *rgba (malloc'd); pictures
 * of more than `max_bytes` of pixels are refused before they are decoded. 0, or -1 with `err`. */
int rb_png_read_rgba(const uint8_t *png, size_t size, uint64_t max_bytes, uint8_t **rgba, unsigned *width,
                     unsigned *height, char *err, size_t err_size);
/* Append an RGBA PNG of the pixels. 0, or -1 with `err`. */
int rb_png_write_rgba(const uint8_t *rgba, unsigned width, unsigned height, rb_buf *out, char *err, size_t err_size);
#endif
