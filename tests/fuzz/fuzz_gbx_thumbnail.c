/*
 * libFuzzer harness for a map thumbnail's way back (docs/formats/gbx.md "Assets"): the input is the
 * picture a user gives `replace` (a JPEG, with or without EXIF, or a PNG: decoded by libjpeg-turbo
 * or libpng, turned upside down, encoded again), put in place of a small real thumbnail. It must
 * give a JPEG that libjpeg reads at the thumbnail's size, or refuse with a reason.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/asset_jpeg.h"
#include "core/gbx/gbx_assets.h"

enum { SIDE = 16 };

/* The thumbnail the input replaces: a grey 16x16 JPEG, made once. */
static const uint8_t *current(size_t *size)
{
    static uint8_t *jpeg;
    static size_t jpeg_size;
    if (!jpeg) {
        uint8_t grey[SIDE * SIDE * 3];
        char why[256];
        memset(grey, 128, sizeof grey);
        if (rb_jpeg_from_rgb(grey, SIDE, SIDE, 75, &jpeg, &jpeg_size, why, sizeof why) != 0) abort();
    }
    *size = jpeg_size;
    return jpeg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t current_size;
    const uint8_t *thumbnail = current(&current_size);
    uint8_t *stored = NULL;
    size_t stored_size = 0;
    char why[512] = "";
    if (gbx_thumbnail_as_stored(thumbnail, current_size, data, size, &stored, &stored_size, why, sizeof why) != 0) {
        if (!why[0]) abort(); /* a refusal says why */
        return 0;
    }
    uint32_t w, h;
    if (rb_jpeg_dimensions(stored, stored_size, &w, &h, why, sizeof why) != 0 || w != SIDE || h != SIDE) abort();
    free(stored);
    return 0;
}
