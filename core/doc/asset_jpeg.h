/*
 * JPEG for the assets (docs/usage.md "Assets"): decoding and encoding through libjpeg(-turbo),
 * for a picture that must be re-encoded (a map thumbnail made from an ordinary JPEG or PNG:
 * docs/formats/gbx.md "Assets"). Nothing here knows a game format.
 */
#ifndef RB_ASSET_JPEG_H
#define RB_ASSET_JPEG_H
#include <stddef.h>
#include <stdint.h>

/* The size a JPEG's frame header gives, without decoding its pixels. 0, or -1 with why. */
int rb_jpeg_dimensions(const uint8_t *jpeg, size_t size, uint32_t *width, uint32_t *height, char *why,
                       size_t why_size);
/* Any JPEG libjpeg reads (grey, colour, CMYK...) decoded to RGB 8-bit (3 bytes a pixel, rows in
 * the order the file stores them, malloc'd in *rgb); a truncated or damaged picture is refused.
 * 0, or -1 with why. */
int rb_jpeg_to_rgb(const uint8_t *jpeg, size_t size, uint8_t **rgb, uint32_t *width, uint32_t *height, char *why,
                   size_t why_size);
/* A baseline JFIF JPEG (4:2:0, the layout of the games' own thumbnails) of `width` x `height` RGB
 * pixels at `quality` (1..100), malloc'd in *jpeg. 0, or -1 with why. */
int rb_jpeg_from_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int quality, uint8_t **jpeg, size_t *size,
                     char *why, size_t why_size);
/* The EXIF Orientation (1..8) of the first APP1 "Exif" segment among the segments after SOI,
 * 0 when there is none; *segment_at and *segment_size (marker included) say where that segment
 * is when it has one (NULL to ignore). */
unsigned rb_jpeg_exif_orientation(const uint8_t *jpeg, size_t size, size_t *segment_at, size_t *segment_size);
#endif
