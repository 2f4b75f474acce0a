/*
 * JPEG through libjpeg(-turbo) (asset_jpeg.h). libjpeg reports errors by calling a function that
 * must not return (its default one exits the process): ours jumps back to the call with the
 * message, so a damaged picture is a refusal, never a crash. A warning that the data ended early
 * is an error too: libjpeg would fill the rest with grey and the thumbnail would be half a picture.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h> /* the message codes (JWRN_JPEG_EOF) */
#include "core/doc/asset_jpeg.h"

/* The side no picture exceeds (as for PNG, docs/usage.md "Assets"): bounds the pixels decoded. */
enum { MAX_JPEG_SIDE = 16384 };

typedef struct jpeg_failure {
    struct jpeg_error_mgr manager; /* first: libjpeg hands back a pointer to it */
    jmp_buf back;
    char message[JMSG_LENGTH_MAX];
} jpeg_failure;

static void fail_back(j_common_ptr cinfo)
{
    jpeg_failure *f = (jpeg_failure *)cinfo->err;
    f->manager.format_message(cinfo, f->message);
    longjmp(f->back, 1);
}

/* Warnings (level -1): the data ended before the picture did (JWRN_JPEG_EOF) is a failure; the
 * others (extra bytes before a marker...) are what many encoders leave and libjpeg repairs. */
static void warning_or_failure(j_common_ptr cinfo, int level)
{
    if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) fail_back(cinfo);
}

static void quiet(j_common_ptr cinfo) { (void)cinfo; }

static void failure_init(jpeg_failure *f, struct jpeg_common_struct *cinfo)
{
    cinfo->err = jpeg_std_error(&f->manager);
    f->manager.error_exit = fail_back;
    f->manager.emit_message = warning_or_failure;
    f->manager.output_message = quiet;
    f->message[0] = 0;
}

/* Starts a decompression of `jpeg` up to its header (cinfo set up by the caller's failure). */
static void read_header(struct jpeg_decompress_struct *cinfo, const uint8_t *jpeg, size_t size)
{
    jpeg_create_decompress(cinfo);
    jpeg_mem_src(cinfo, jpeg, (unsigned long)size);
    jpeg_read_header(cinfo, TRUE);
}

int rb_jpeg_dimensions(const uint8_t *jpeg, size_t size, uint32_t *width, uint32_t *height, char *why,
                       size_t why_size)
{
    struct jpeg_decompress_struct cinfo;
    jpeg_failure f;
    failure_init(&f, (struct jpeg_common_struct *)&cinfo);
    if (setjmp(f.back)) {
        snprintf(why, why_size, "not a JPEG libjpeg reads: %s", f.message);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    read_header(&cinfo, jpeg, size);
    *width = cinfo.image_width;
    *height = cinfo.image_height;
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

int rb_jpeg_to_rgb(const uint8_t *jpeg, size_t size, uint8_t **rgb, uint32_t *width, uint32_t *height, char *why,
                   size_t why_size)
{
    struct jpeg_decompress_struct cinfo;
    jpeg_failure f;
    uint8_t *volatile out = NULL; /* volatile: still right after the jump back */
    *rgb = NULL;
    failure_init(&f, (struct jpeg_common_struct *)&cinfo);
    if (setjmp(f.back)) {
        snprintf(why, why_size, "not a JPEG libjpeg reads: %s", f.message);
        jpeg_destroy_decompress(&cinfo);
        free(out);
        return -1;
    }
    read_header(&cinfo, jpeg, size);
    if (cinfo.image_width == 0 || cinfo.image_height == 0 || cinfo.image_width > MAX_JPEG_SIDE ||
        cinfo.image_height > MAX_JPEG_SIDE) {
        snprintf(why, why_size, "a JPEG of %ux%u pixels is out of range (1 to %d a side)", (unsigned)cinfo.image_width,
                 (unsigned)cinfo.image_height, MAX_JPEG_SIDE);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    cinfo.out_color_space = JCS_RGB; /* libjpeg converts grey and YCbCr; CMYK fails with a message */
    jpeg_start_decompress(&cinfo);
    size_t row = (size_t)cinfo.output_width * 3;
    out = malloc(row * cinfo.output_height);
    if (!out) {
        snprintf(why, why_size, "out of memory for a %ux%u JPEG", (unsigned)cinfo.output_width,
                 (unsigned)cinfo.output_height);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW line = out + row * cinfo.output_scanline;
        jpeg_read_scanlines(&cinfo, &line, 1);
    }
    jpeg_finish_decompress(&cinfo);
    *rgb = out;
    *width = cinfo.output_width;
    *height = cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

int rb_jpeg_from_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int quality, uint8_t **jpeg, size_t *size,
                     char *why, size_t why_size)
{
    struct jpeg_compress_struct cinfo;
    jpeg_failure f;
    unsigned char *volatile out = NULL;
    unsigned long out_size = 0;
    *jpeg = NULL;
    failure_init(&f, (struct jpeg_common_struct *)&cinfo);
    if (setjmp(f.back)) {
        snprintf(why, why_size, "JPEG encoding: %s", f.message);
        jpeg_destroy_compress(&cinfo);
        free(out);
        return -1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&out, &out_size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo); /* JFIF, baseline, Huffman tables of the standard, 4:2:0 */
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW line = (JSAMPROW)(rgb + (size_t)cinfo.next_scanline * width * 3);
        jpeg_write_scanlines(&cinfo, &line, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *jpeg = out;
    *size = out_size;
    return 0;
}

/* The Orientation tag (0x0112) of an EXIF body (after the APP1 length), or 0. */
static unsigned exif_body_orientation(const uint8_t *s, size_t n)
{
    if (n < 14 || memcmp(s, "Exif\0\0", 6) != 0) return 0;
    const uint8_t *t = s + 6; /* the TIFF header: byte order, 42, first directory */
    size_t tn = n - 6;
    int le = t[0] == 'I';
    if (!(le || t[0] == 'M')) return 0;
#define RD16(p) (le ? (unsigned)((p)[0] | (p)[1] << 8) : (unsigned)((p)[0] << 8 | (p)[1]))
#define RD32(p) (le ? ((uint32_t)(p)[0] | (uint32_t)(p)[1] << 8 | (uint32_t)(p)[2] << 16 | (uint32_t)(p)[3] << 24) \
                    : ((uint32_t)(p)[0] << 24 | (uint32_t)(p)[1] << 16 | (uint32_t)(p)[2] << 8 | (uint32_t)(p)[3]))
    uint32_t ifd = RD32(t + 4);
    if (ifd > tn || tn - ifd < 2) return 0;
    unsigned count = RD16(t + ifd);
    for (unsigned i = 0; i < count; i++) {
        size_t e = ifd + 2 + (size_t)i * 12;
        if (e + 12 > tn) return 0;
        if (RD16(t + e) == 0x0112) return RD16(t + e + 8);
    }
    return 0;
#undef RD16
#undef RD32
}

unsigned rb_jpeg_exif_orientation(const uint8_t *jpeg, size_t size, size_t *segment_at, size_t *segment_size)
{
    if (size < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8) return 0;
    size_t at = 2;
    while (at + 4 <= size && jpeg[at] == 0xFF && jpeg[at + 1] >= 0xE0 && jpeg[at + 1] <= 0xEF) {
        size_t length = (size_t)jpeg[at + 2] << 8 | jpeg[at + 3];
        if (length < 2 || at + 2 + length > size) return 0;
        unsigned orientation = jpeg[at + 1] == 0xE1 ? exif_body_orientation(jpeg + at + 4, length - 2) : 0;
        if (orientation) {
            if (segment_at) *segment_at = at;
            if (segment_size) *segment_size = 2 + length;
            return orientation;
        }
        at += 2 + length;
    }
    return 0;
}
