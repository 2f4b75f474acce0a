/*
 * Assets (docs/usage.md "Assets"): what the formats' `assets` and `asset_patch` hooks share —
 * pictures as PNG (libpng's simplified API), sounds as WAV, tables as CSV — so a format's folder
 * holds its knowledge (which node is a picture, how it is stored) and none of the encoders.
 */
#ifndef RB_ASSETS_H
#define RB_ASSETS_H
#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"
#include "rebyte.h"

/* Hands one asset to the sink: 0 to go on, -1 when the sink stopped (the hook then returns -1
 * with `why` set by this call). */
int rb_asset_emit(rb_asset_sink sink, void *context, const rb_asset *asset, char *why, size_t why_size);

/* A PNG (malloc'd in *png) of `width` x `height` pixels, rows top to bottom: RGBA 8-bit
 * (4 bytes a pixel), or palettised (one index a pixel into `palette`, `colours` RGBA entries of
 * 4 bytes; the PNG keeps the palette, so an editor shows and keeps it). 0, or -1 with why. */
int rb_png_from_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t **png, size_t *size, char *why,
                     size_t why_size);
int rb_png_from_indexed(const uint8_t *indexes, uint32_t width, uint32_t height, const uint8_t *palette,
                        size_t colours, uint8_t **png, size_t *size, char *why, size_t why_size);
/* A PNG of RGB 8-bit pixels (3 bytes a pixel, rows top to bottom) made for speed over size
 * (fast deflate, one filter): for pictures the library draws (rb_doc_render). 0, or -1 with why. */
int rb_png_from_rgb_quick(const uint8_t *rgb, uint32_t width, uint32_t height, uint8_t **png, size_t *size, char *why,
                          size_t why_size);
/* A 16-bit greyscale PNG of `width` x `height` samples (host order, rows top to bottom), each
 * written as it is (a height map). 0, or -1 with why. */
int rb_png_from_grey16(const uint16_t *grey, uint32_t width, uint32_t height, uint8_t **png, size_t *size, char *why,
                       size_t why_size);
/* Any PNG decoded to RGBA 8-bit (malloc'd in *rgba, rows top to bottom); a picture of more than
 * `max_bytes` of pixels (the document's max_decompressed_size: a 16384x16384 page is 1 GiB) is
 * refused before anything is allocated. 0, or -1 with why. */
int rb_png_to_rgba(const uint8_t *png, size_t size, uint64_t max_bytes, uint8_t **rgba, uint32_t *width,
                   uint32_t *height, char *why, size_t why_size);

/* A RIFF WAVE file around sample data: format tag 1 (PCM) or 0x11 (IMA ADPCM, with
 * `block_align` bytes a block and its samples-per-block field), malloc'd. 0, or -1 (no memory). */
typedef struct rb_wav_format {
    uint16_t tag; /* 1 PCM, 0x11 IMA ADPCM */
    uint16_t channels;
    uint32_t sample_rate;
    uint16_t bits;
    uint16_t block_align; /* ADPCM: bytes a block; PCM: derived when 0 */
} rb_wav_format;
int rb_wav_wrap(const rb_wav_format *format, const uint8_t *samples, size_t size, uint8_t **wav, size_t *wav_size);
/* The sample data of a WAV (a pointer into `wav`) and its format. 0, or -1 with why. */
int rb_wav_unwrap(const uint8_t *wav, size_t size, rb_wav_format *format, const uint8_t **samples,
                  size_t *samples_size, char *why, size_t why_size);

/* [{"op": "replace", "path": path, "value": {"$base64": data}}]: the patch that sets a blob. */
#include <jansson.h>
json_t *rb_asset_replace_ops(const char *path, const uint8_t *data, size_t size);

/* CSV: a field, quoted when it holds a separator, a quote or a line break (RFC 4180). */
void rb_csv_field(rb_buf *b, const char *text, size_t length);
#endif
