/* PNG through libpng's simplified API (png_image_*), which converts every PNG colour type. */
#include "png_rgba.h"
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rb_png_read_rgba(const uint8_t *png, size_t size, uint64_t max_bytes, uint8_t **rgba, unsigned *width,
                     unsigned *height, char *err, size_t err_size)
{
    *rgba = NULL;
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, png, size)) {
        snprintf(err, err_size, "not a PNG that can be read: %s", image.message);
        return -1;
    }
    image.format = PNG_FORMAT_RGBA;
    uint64_t bytes = (uint64_t)image.width * image.height * 4;
    if (bytes > max_bytes) {
        snprintf(err, err_size, "PNG of %ux%u is above the %llu-byte limit", (unsigned)image.width,
                 (unsigned)image.height, (unsigned long long)max_bytes);
        png_image_free(&image);
        return -1;
    }
    uint8_t *pixels = malloc(bytes ? (size_t)bytes : 1);
    if (!pixels) {
        snprintf(err, err_size, "out of memory for a %ux%u PNG", (unsigned)image.width, (unsigned)image.height);
        png_image_free(&image);
        return -1;
    }
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
        snprintf(err, err_size, "PNG is damaged: %s", image.message);
        free(pixels);
        png_image_free(&image);
        return -1;
    }
    *width = image.width;
    *height = image.height;
    *rgba = pixels;
    return 0;
}

int rb_png_write_rgba(const uint8_t *rgba, unsigned width, unsigned height, rb_buf *out, char *err, size_t err_size)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGBA;
    png_alloc_size_t size = 0;
    /* the first call measures, the second writes */
    if (!png_image_write_to_memory(&image, NULL, &size, 0, rgba, 0, NULL)) {
        snprintf(err, err_size, "cannot write a %ux%u PNG: %s", width, height, image.message);
        return -1;
    }
    if (!rb_buf_reserve(out, size)) {
        snprintf(err, err_size, "out of memory for a %ux%u PNG", width, height);
        return -1;
    }
    if (!png_image_write_to_memory(&image, out->data + out->size, &size, 0, rgba, 0, NULL)) {
        snprintf(err, err_size, "cannot write a %ux%u PNG: %s", width, height, image.message);
        return -1;
    }
    out->size += size;
    return 0;
}
