/*
 * A map's thumbnail (header chunk 0x03043007, docs/formats/gbx.md "Assets"): a JPEG the game
 * stores upside down (its rows bottom to top). Extraction adds an EXIF Orientation 4 ("mirror
 * vertical") so viewers show it the right way up without re-encoding; the way back takes any
 * picture a person has: that JPEG (the segment taken out again, lossless), or an ordinary JPEG
 * or PNG the right way up (decoded, turned upside down, encoded as the game's own are).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/asset_jpeg.h"
#include "core/doc/assets.h"
#include "core/gbx/gbx_assets.h"

/* APP1, length 34: "Exif\0\0", a little-endian TIFF header, one IFD of one entry, Orientation
 * (0x0112) = 4. Extraction puts it right after SOI; an unchanged thumbnail goes back byte for byte. */
static const uint8_t ORIENTATION_SEGMENT[] = {
    0xFF, 0xE1, 0x00, 0x22, 'E', 'x', 'i', 'f', 0, 0, 'I', 'I', 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
    0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

int gbx_thumbnail_for_viewers(const uint8_t *stored, size_t size, uint8_t **out, size_t *out_size)
{
    if (size < 2 || stored[0] != 0xFF || stored[1] != 0xD8) return -1;
    uint8_t *p = malloc(size + sizeof ORIENTATION_SEGMENT);
    if (!p) return -1;
    memcpy(p, stored, 2);
    memcpy(p + 2, ORIENTATION_SEGMENT, sizeof ORIENTATION_SEGMENT);
    memcpy(p + 2 + sizeof ORIENTATION_SEGMENT, stored + 2, size - 2);
    *out = p;
    *out_size = size + sizeof ORIENTATION_SEGMENT;
    return 0;
}

/* The quality the games' own thumbnails of that width use, estimated from their quantisation
 * tables on every corpus map: 75 for the 256-pixel ones (TrackMania to United Forever), 70 for
 * the 512 (ManiaPlanet) and 1024 (Trackmania 2020) ones. */
static int quality_for(uint32_t width) { return width <= 256 ? 75 : 70; }

/* A picture must have the size of the thumbnail it replaces: the game makes one size per era
 * and rebyte does not resize. 0, or -1 with why. */
static int same_size(uint32_t width, uint32_t height, uint32_t want_width, uint32_t want_height, char *why,
                     size_t why_size)
{
    if (!want_width || (width == want_width && height == want_height)) return 0;
    snprintf(why, why_size,
             "the picture is %ux%u pixels, the map's thumbnail %ux%u (the size its game makes: 256x256 up to "
             "TrackMania United Forever, 512x512 in ManiaPlanet, 1024x1024 in Trackmania 2020); resize the "
             "picture to %ux%u first",
             (unsigned)width, (unsigned)height, (unsigned)want_width, (unsigned)want_height, (unsigned)want_width,
             (unsigned)want_height);
    return -1;
}

/* Where stored pixel (x, y) of the upside-down picture comes from in the decoded pixels, when
 * the picture shows them with EXIF `orientation` (1 or none: as stored; 2..8: mirrored or
 * turned, the viewer's transform): the shown picture is `shown_w` x `shown_h`, its row y is stored
 * at row shown_h - 1 - y. */
static size_t source_pixel(unsigned orientation, uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t shown_h)
{
    uint32_t sx = x, sy = shown_h - 1 - y; /* the shown picture's pixel */
    uint32_t px, py;                       /* the decoded picture's */
    switch (orientation) {
    case 2: px = w - 1 - sx, py = sy; break;
    case 3: px = w - 1 - sx, py = h - 1 - sy; break;
    case 4: px = sx, py = h - 1 - sy; break;
    case 5: px = sy, py = sx; break;
    case 6: px = sy, py = h - 1 - sx; break;
    case 7: px = w - 1 - sy, py = h - 1 - sx; break;
    case 8: px = w - 1 - sy, py = sx; break;
    default: px = sx, py = sy; break;
    }
    return (size_t)py * w + px;
}

/* RGB pixels `w` x `h` as shown with `orientation`, turned upside down and encoded. */
static int encode_upside_down(const uint8_t *rgb, uint32_t w, uint32_t h, unsigned orientation, uint32_t want_width,
                              uint32_t want_height, uint8_t **out, size_t *out_size, char *why, size_t why_size)
{
    int turned = orientation >= 5 && orientation <= 8;
    uint32_t shown_w = turned ? h : w, shown_h = turned ? w : h;
    if (same_size(shown_w, shown_h, want_width, want_height, why, why_size) != 0) return -1;
    uint8_t *stored = malloc((size_t)shown_w * shown_h * 3);
    if (!stored) { snprintf(why, why_size, "out of memory"); return -1; }
    for (uint32_t y = 0; y < shown_h; y++)
        for (uint32_t x = 0; x < shown_w; x++)
            memcpy(stored + ((size_t)y * shown_w + x) * 3, rgb + source_pixel(orientation, x, y, w, h, shown_h) * 3, 3);
    int rc = rb_jpeg_from_rgb(stored, shown_w, shown_h, quality_for(shown_w), out, out_size, why, why_size);
    free(stored);
    return rc;
}

/* A PNG: its pixels over black (a thumbnail has no transparency), then as a JPEG's. */
static int png_as_stored(const uint8_t *png, size_t size, uint32_t want_width, uint32_t want_height, uint8_t **out,
                         size_t *out_size, char *why, size_t why_size)
{
    uint8_t *rgba;
    uint32_t w, h;
    /* a picture far larger than the thumbnail is refused before its pixels are allocated; one a
     * little off gets the message naming both sizes */
    uint64_t max_bytes = (uint64_t)want_width * want_height * 4 * 16;
    if (rb_png_to_rgba(png, size, max_bytes, &rgba, &w, &h, why, why_size) != 0) return -1;
    if (same_size(w, h, want_width, want_height, why, why_size) != 0) { free(rgba); return -1; }
    for (size_t i = 0; i < (size_t)w * h; i++) /* RGBA to RGB in place: pixel i moves down to 3i */
        for (int c = 0; c < 3; c++) rgba[3 * i + c] = (uint8_t)(rgba[4 * i + c] * rgba[4 * i + 3] / 255);
    int rc = encode_upside_down(rgba, w, h, 1, want_width, want_height, out, out_size, why, why_size);
    free(rgba);
    return rc;
}

/* A JPEG: the lossless way when it is marked Orientation 4 (as `extract` writes it), else
 * decoded, shown as its EXIF orientation says, and re-encoded upside down. */
static int jpeg_as_stored(const uint8_t *jpeg, size_t size, uint32_t want_width, uint32_t want_height, uint8_t **out,
                          size_t *out_size, char *why, size_t why_size)
{
    size_t segment_at = 0, segment_size = 0;
    unsigned orientation = rb_jpeg_exif_orientation(jpeg, size, &segment_at, &segment_size);
    if (orientation == 4) {
        /* checked against a thumbnail libjpeg reads; one it does not (a made-up sample's) comes
         * back as it went out */
        uint32_t w, h;
        if (want_width && rb_jpeg_dimensions(jpeg, size, &w, &h, why, why_size) != 0) return -1;
        if (want_width && same_size(w, h, want_width, want_height, why, why_size) != 0) return -1;
        uint8_t *p = malloc(size - segment_size);
        if (!p) { snprintf(why, why_size, "out of memory"); return -1; }
        memcpy(p, jpeg, segment_at);
        memcpy(p + segment_at, jpeg + segment_at + segment_size, size - segment_at - segment_size);
        *out = p;
        *out_size = size - segment_size;
        return 0;
    }
    uint8_t *rgb;
    uint32_t w, h;
    if (rb_jpeg_to_rgb(jpeg, size, &rgb, &w, &h, why, why_size) != 0) return -1;
    int rc = encode_upside_down(rgb, w, h, orientation, want_width, want_height, out, out_size, why, why_size);
    free(rgb);
    return rc;
}

int gbx_thumbnail_as_stored(const uint8_t *current, size_t current_size, const uint8_t *picture, size_t size,
                            uint8_t **out, size_t *out_size, char *why, size_t why_size)
{
    /* the size to keep: the current thumbnail's, when it is a JPEG libjpeg reads (else any) */
    uint32_t want_width = 0, want_height = 0;
    char ignored[256];
    if (rb_jpeg_dimensions(current, current_size, &want_width, &want_height, ignored, sizeof ignored) != 0)
        want_width = want_height = 0;
    if (size >= 3 && picture[0] == 0xFF && picture[1] == 0xD8 && picture[2] == 0xFF)
        return jpeg_as_stored(picture, size, want_width, want_height, out, out_size, why, why_size);
    if (size >= 8 && memcmp(picture, "\x89PNG\r\n\x1a\n", 8) == 0)
        return png_as_stored(picture, size, want_width, want_height, out, out_size, why, why_size);
    snprintf(why, why_size, "a thumbnail is made from a JPEG or a PNG; this file is neither (it starts with neither "
             "FF D8 FF nor the PNG signature)");
    return -1;
}
