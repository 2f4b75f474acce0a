/*
 * The encoders the formats' asset hooks share (assets.h): PNG through libpng's simplified API,
 * RIFF WAVE, CSV fields. Nothing here knows a game format.
 */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/assets.h"
#include "core/bytes.h"
#include "core/json/json.h"

/* Bounds what a PNG may claim before anything is allocated for it (docs/usage.md "Assets"). */
enum { MAX_PICTURE_SIDE = 16384 };

static int png_write(png_image *image, const void *pixels, const void *colormap, uint8_t **png, size_t *size,
                     char *why, size_t why_size)
{
    png_alloc_size_t need = 0;
    *png = NULL;
    if (!png_image_write_to_memory(image, NULL, &need, 0, pixels, 0, colormap)) {
        snprintf(why, why_size, "PNG: %s", image->message);
        return -1;
    }
    uint8_t *out = malloc(need ? need : 1);
    if (!out) { snprintf(why, why_size, "out of memory"); return -1; }
    if (!png_image_write_to_memory(image, out, &need, 0, pixels, 0, colormap)) {
        snprintf(why, why_size, "PNG: %s", image->message);
        free(out);
        return -1;
    }
    *png = out;
    *size = need;
    return 0;
}

/* A simplified-API image of `format`, for writing. */
static png_image image_of(uint32_t width, uint32_t height, png_uint_32 format)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = format;
    return image;
}

int rb_png_from_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t **png, size_t *size, char *why,
                     size_t why_size)
{
    png_image image = image_of(width, height, PNG_FORMAT_RGBA);
    return png_write(&image, rgba, NULL, png, size, why, why_size);
}

int rb_png_from_indexed(const uint8_t *indexes, uint32_t width, uint32_t height, const uint8_t *palette,
                        size_t colours, uint8_t **png, size_t *size, char *why, size_t why_size)
{
    if (colours == 0 || colours > 256) {
        snprintf(why, why_size, "a palette of %zu colours cannot be a PNG's (1 to 256)", colours);
        return -1;
    }
    png_image image = image_of(width, height, PNG_FORMAT_RGBA_COLORMAP);
    image.colormap_entries = (png_uint_32)colours;
    return png_write(&image, indexes, palette, png, size, why, why_size);
}

int rb_png_from_grey16(const uint16_t *grey, uint32_t width, uint32_t height, uint8_t **png, size_t *size, char *why,
                       size_t why_size)
{
    png_image image = image_of(width, height, PNG_FORMAT_LINEAR_Y); /* 16-bit samples, written as they are */
    return png_write(&image, grey, NULL, png, size, why, why_size);
}

/* libpng's output into an rb_buf. */
static void png_to_buf(png_structp png, png_bytep data, size_t size) { rb_buf_put(png_get_io_ptr(png), data, size); }
static void png_flush_nothing(png_structp png) { (void)png; }

int rb_png_from_rgb_quick(const uint8_t *rgb, uint32_t width, uint32_t height, uint8_t **out, size_t *size, char *why,
                          size_t why_size)
{
    rb_buf b;
    rb_buf_init(&b);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        rb_buf_free(&b);
        snprintf(why, why_size, "PNG: the encoder failed");
        return -1;
    }
    png_set_write_fn(png, &b, png_to_buf, png_flush_nothing);
    /* drawn pictures are flat areas: the row above predicts a row, and fast deflate packs the
     * zeros that leaves about as well as a slow one */
    png_set_compression_level(png, 1);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) png_write_row(png, rgb + (size_t)y * width * 3);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (b.failed) {
        rb_buf_free(&b);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    *out = rb_buf_take(&b, size);
    return *out ? 0 : -1;
}

int rb_png_to_rgba(const uint8_t *png, size_t size, uint64_t max_bytes, uint8_t **rgba, uint32_t *width,
                   uint32_t *height, char *why, size_t why_size)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    *rgba = NULL;
    if (!png_image_begin_read_from_memory(&image, png, size)) {
        snprintf(why, why_size, "not a PNG this reader takes: %s", image.message);
        return -1;
    }
    if (image.width == 0 || image.height == 0 || image.width > MAX_PICTURE_SIDE || image.height > MAX_PICTURE_SIDE) {
        snprintf(why, why_size, "a PNG of %ux%u pixels is out of range (1 to %d a side)", (unsigned)image.width,
                 (unsigned)image.height, MAX_PICTURE_SIDE);
        png_image_free(&image);
        return -1;
    }
    if ((uint64_t)image.width * image.height * 4 > max_bytes) {
        snprintf(why, why_size, "a PNG of %ux%u pixels decodes to %llu bytes, beyond the limit max_decompressed_size "
                 "(%llu; REBYTE_LIMITS raises it)", (unsigned)image.width, (unsigned)image.height,
                 (unsigned long long)image.width * image.height * 4, (unsigned long long)max_bytes);
        png_image_free(&image);
        return -1;
    }
    image.format = PNG_FORMAT_RGBA;
    uint8_t *out = malloc(PNG_IMAGE_SIZE(image));
    if (!out) {
        png_image_free(&image);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (!png_image_finish_read(&image, NULL, out, 0, NULL)) {
        snprintf(why, why_size, "PNG: %s", image.message);
        free(out);
        return -1;
    }
    *rgba = out;
    *width = image.width;
    *height = image.height;
    return 0;
}

/* ---------- WAV ---------- */

int rb_wav_wrap(const rb_wav_format *f, const uint8_t *samples, size_t size, uint8_t **wav, size_t *wav_size)
{
    int adpcm = f->tag == 0x11;
    size_t fmt_size = adpcm ? 20 : 16, total = 12 + 8 + fmt_size + 8 + size + (size & 1);
    if (size > 0xFFFFFFFFu - 64) return -1;
    uint8_t *p = calloc(1, total);
    if (!p) return -1;
    uint16_t align = f->block_align ? f->block_align : (uint16_t)(f->channels * ((f->bits + 7) / 8));
    uint32_t per_second = adpcm ? 0 : f->sample_rate * align;
    uint16_t samples_per_block = 0;
    if (adpcm && f->channels && align > 4u * f->channels) { /* else the block holds no samples */
        /* IMA ADPCM: a 4-byte header per channel holds the first sample, then two a byte */
        samples_per_block = (uint16_t)((align - 4u * f->channels) * 8u / (4u * f->channels) + 1u);
        if (samples_per_block) per_second = (uint32_t)((uint64_t)f->sample_rate * align / samples_per_block);
    }
    memcpy(p, "RIFF", 4);
    rb_store_le(p + 4, (uint32_t)(total - 8), 4);
    memcpy(p + 8, "WAVEfmt ", 8);
    rb_store_le(p + 16, (uint32_t)fmt_size, 4);
    rb_store_le(p + 20, f->tag, 2);
    rb_store_le(p + 22, f->channels, 2);
    rb_store_le(p + 24, f->sample_rate, 4);
    rb_store_le(p + 28, per_second, 4);
    rb_store_le(p + 32, align, 2);
    rb_store_le(p + 34, f->bits, 2);
    size_t at = 36;
    if (adpcm) {
        rb_store_le(p + 36, 2, 2);
        rb_store_le(p + 38, samples_per_block, 2);
        at = 40;
    }
    memcpy(p + at, "data", 4);
    rb_store_le(p + at + 4, (uint32_t)size, 4);
    if (size) memcpy(p + at + 8, samples, size);
    *wav = p;
    *wav_size = total;
    return 0;
}

int rb_wav_unwrap(const uint8_t *wav, size_t size, rb_wav_format *f, const uint8_t **samples, size_t *samples_size,
                  char *why, size_t why_size)
{
    if (size < 12 || memcmp(wav, "RIFF", 4) != 0 || memcmp(wav + 8, "WAVE", 4) != 0) {
        snprintf(why, why_size, "not a WAV file (no RIFF WAVE header)");
        return -1;
    }
    int have_format = 0;
    memset(f, 0, sizeof *f);
    for (size_t at = 12; at + 8 <= size;) {
        uint32_t length = (uint32_t)rb_load_le(wav + at + 4, 4);
        if (length > size - at - 8) {
            snprintf(why, why_size, "WAV chunk \"%.4s\" at %zu claims %u bytes, %zu are left", (const char *)wav + at, at,
                     (unsigned)length, size - at - 8);
            return -1;
        }
        const uint8_t *body = wav + at + 8;
        if (memcmp(wav + at, "fmt ", 4) == 0 && length >= 16) {
            f->tag = (uint16_t)(uint32_t)rb_load_le(body, 2);
            f->channels = (uint16_t)(uint32_t)rb_load_le(body + 2, 2);
            f->sample_rate = (uint32_t)rb_load_le(body + 4, 4);
            f->block_align = (uint16_t)(uint32_t)rb_load_le(body + 12, 2);
            f->bits = (uint16_t)(uint32_t)rb_load_le(body + 14, 2);
            have_format = 1;
        } else if (memcmp(wav + at, "data", 4) == 0) {
            if (!have_format) break;
            *samples = body;
            *samples_size = length;
            return 0;
        }
        at += 8 + (size_t)length + (length & 1);
    }
    snprintf(why, why_size, have_format ? "WAV file without a data chunk" : "WAV file without a fmt chunk before its data");
    return -1;
}

/* ---------- CSV ---------- */

void rb_csv_field(rb_buf *b, const char *text, size_t length)
{
    int quote = 0;
    for (size_t i = 0; i < length; i++)
        if (text[i] == ',' || text[i] == '"' || text[i] == '\n' || text[i] == '\r') quote = 1;
    if (!quote) { rb_buf_put(b, text, length); return; }
    rb_buf_put_u8(b, '"');
    for (size_t i = 0; i < length; i++) {
        if (text[i] == '"') rb_buf_put_u8(b, '"');
        rb_buf_put_u8(b, (uint8_t)text[i]);
    }
    rb_buf_put_u8(b, '"');
}

json_t *rb_asset_replace_ops(const char *path, const uint8_t *data, size_t size)
{
    char *text = malloc(4 * ((size + 2) / 3) + 1);
    if (!text) return NULL;
    rb_base64_encode(data, size, text);
    json_t *ops = json_pack("[{s:s,s:s,s:{s:s}}]", "op", "replace", "path", path, "value", "$base64", text);
    free(text);
    return ops;
}
