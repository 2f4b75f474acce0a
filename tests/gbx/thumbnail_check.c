/*
 * The independent side of tests/gbx/thumbnails.sh: makes test pictures and reads thumbnails back with
 * libjpeg and libpng directly (none of rebyte's code), so a thumbnail put back by `replace` and
 * extracted again is judged by another decoder than the one that made it.
 *
 *   thumbnail_check jpeg OUT W H [ORIENTATION]  the test picture (below) as a JPEG of quality 95;
 *                     with ORIENTATION 2..8 its pixels are stored so that a viewer applying that
 *                     EXIF orientation shows the picture, and the EXIF segment says so
 *   thumbnail_check png OUT W H                 the test picture as an RGBA PNG
 *   thumbnail_check compare JPEG W H upright|upside-down
 *                     decodes JPEG's pixels as stored (its EXIF ignored) and compares them with
 *                     the test picture, or the picture flipped vertically: exit 0 when the mean
 *                     difference is below 6 per channel and the other orientation's above 25
 *   thumbnail_check info JPEG                   "WxH baseline|progressive H1xV1 orientation N"
 *
 * The test picture: red grows left to right, green top to bottom, blue is a smooth bump, so a
 * flip or a mirror changes most pixels by far more than JPEG's loss does.
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

static void picture_pixel(unsigned x, unsigned y, unsigned w, unsigned h, unsigned char rgb[3])
{
    rgb[0] = (unsigned char)(x * 255 / (w > 1 ? w - 1 : 1));
    rgb[1] = (unsigned char)(y * 255 / (h > 1 ? h - 1 : 1));
    unsigned dx = x > w / 2 ? x - w / 2 : w / 2 - x, dy = y > h / 2 ? y - h / 2 : h / 2 - y;
    rgb[2] = (unsigned char)(200 - (dx + dy) * 200 / (w / 2 + h / 2 + 1));
}

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc(n > 0 ? (size_t)n : 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) { free(data); data = NULL; }
    fclose(f);
    *size = (size_t)n;
    return data;
}

/* The stored pixel (px, py) of a picture of `w` x `h` shown with EXIF `o`: the shown pixel it
 * becomes (the TIFF/EXIF definitions of orientations 1..8). */
static void shown_of_stored(int o, unsigned px, unsigned py, unsigned w, unsigned h, unsigned *sx, unsigned *sy)
{
    switch (o) {
    case 2: *sx = w - 1 - px, *sy = py; break;          /* mirror horizontal */
    case 3: *sx = w - 1 - px, *sy = h - 1 - py; break;  /* turn 180 */
    case 4: *sx = px, *sy = h - 1 - py; break;          /* mirror vertical */
    case 5: *sx = py, *sy = px; break;                  /* transpose */
    case 6: *sx = h - 1 - py, *sy = px; break;          /* turn 90 clockwise */
    case 7: *sx = h - 1 - py, *sy = w - 1 - px; break;  /* transverse */
    case 8: *sx = py, *sy = w - 1 - px; break;          /* turn 90 counter-clockwise */
    default: *sx = px, *sy = py; break;
    }
}

static int write_jpeg(const char *path, unsigned w, unsigned h, int orientation)
{
    int turned = orientation >= 5 && orientation <= 8;
    unsigned sw = turned ? h : w, sh = turned ? w : h; /* stored size */
    unsigned char *rgb = malloc((size_t)sw * sh * 3);
    for (unsigned py = 0; py < sh; py++)
        for (unsigned px = 0; px < sw; px++) {
            unsigned x, y;
            shown_of_stored(orientation, px, py, sw, sh, &x, &y);
            picture_pixel(x, y, w, h, rgb + ((size_t)py * sw + px) * 3);
        }
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e);
    jpeg_create_compress(&c);
    jpeg_stdio_dest(&c, f);
    c.image_width = sw, c.image_height = sh, c.input_components = 3, c.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, 95, TRUE);
    jpeg_start_compress(&c, TRUE);
    if (orientation > 1) { /* a big-endian EXIF this time, as cameras write it */
        unsigned char exif[] = {'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1,
                                0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, (unsigned char)orientation, 0, 0, 0, 0, 0, 0};
        jpeg_write_marker(&c, JPEG_APP0 + 1, exif, sizeof exif);
    }
    for (unsigned y = 0; y < sh; y++) {
        JSAMPROW row = rgb + (size_t)y * sw * 3;
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    fclose(f);
    free(rgb);
    return 0;
}

static int write_png(const char *path, unsigned w, unsigned h)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION, image.width = w, image.height = h, image.format = PNG_FORMAT_RGBA;
    unsigned char *rgba = malloc((size_t)w * h * 4);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            picture_pixel(x, y, w, h, rgba + ((size_t)y * w + x) * 4);
            rgba[((size_t)y * w + x) * 4 + 3] = 255;
        }
    int ok = png_image_write_to_file(&image, path, 0, rgba, 0, NULL);
    free(rgba);
    return ok ? 0 : 1;
}

/* The pixels as stored, EXIF ignored (libjpeg reads no EXIF). */
static unsigned char *decode(const char *path, unsigned *w, unsigned *h, struct jpeg_decompress_struct *c,
                             struct jpeg_error_mgr *e)
{
    size_t size;
    unsigned char *data = read_file(path, &size);
    if (!data) return NULL;
    c->err = jpeg_std_error(e);
    jpeg_create_decompress(c);
    jpeg_mem_src(c, data, (unsigned long)size);
    jpeg_read_header(c, TRUE);
    c->out_color_space = JCS_RGB;
    jpeg_start_decompress(c);
    *w = c->output_width, *h = c->output_height;
    unsigned char *rgb = malloc((size_t)*w * *h * 3);
    while (c->output_scanline < c->output_height) {
        JSAMPROW row = rgb + (size_t)c->output_scanline * *w * 3;
        jpeg_read_scanlines(c, &row, 1);
    }
    jpeg_finish_decompress(c);
    jpeg_destroy_decompress(c);
    free(data);
    return rgb;
}

static int compare(const char *path, unsigned w, unsigned h, int upside_down)
{
    struct jpeg_decompress_struct c;
    struct jpeg_error_mgr e;
    unsigned gw = 0, gh = 0;
    unsigned char *rgb = decode(path, &gw, &gh, &c, &e);
    if (!rgb || gw != w || gh != h) {
        fprintf(stderr, "%s: %ux%u pixels, expected %ux%u\n", path, gw, gh, w, h);
        return 1;
    }
    double as_expected = 0, other = 0;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            unsigned char want[3], flipped[3];
            picture_pixel(x, upside_down ? h - 1 - y : y, w, h, want);
            picture_pixel(x, upside_down ? y : h - 1 - y, w, h, flipped);
            const unsigned char *got = rgb + ((size_t)y * w + x) * 3;
            for (int k = 0; k < 3; k++) {
                as_expected += abs(got[k] - want[k]);
                other += abs(got[k] - flipped[k]);
            }
        }
    free(rgb);
    as_expected /= 3.0 * w * h, other /= 3.0 * w * h;
    printf("%s: mean difference %.2f from the picture %s, %.2f from it the other way up\n", path, as_expected,
           upside_down ? "upside down" : "upright", other);
    return as_expected < 6 && other > 25 ? 0 : 1;
}

static int info(const char *path)
{
    size_t size;
    unsigned char *data = read_file(path, &size);
    if (!data) return 1;
    struct jpeg_decompress_struct c;
    struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e);
    jpeg_create_decompress(&c);
    jpeg_mem_src(&c, data, (unsigned long)size);
    jpeg_save_markers(&c, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&c, TRUE);
    int orientation = 0;
    for (jpeg_saved_marker_ptr m = c.marker_list; m; m = m->next)
        if (m->data_length >= 14 + 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            const unsigned char *t = m->data + 6;
            int le = t[0] == 'I';
            unsigned ifd = le ? (unsigned)(t[4] | t[5] << 8) : (unsigned)(t[6] << 8 | t[7]);
            unsigned n = le ? (unsigned)(t[ifd] | t[ifd + 1] << 8) : (unsigned)(t[ifd] << 8 | t[ifd + 1]);
            for (unsigned i = 0; i < n; i++) {
                const unsigned char *entry = t + ifd + 2 + 12 * i;
                unsigned tag = le ? (unsigned)(entry[0] | entry[1] << 8) : (unsigned)(entry[0] << 8 | entry[1]);
                if (tag == 0x0112) orientation = le ? entry[8] | entry[9] << 8 : entry[8] << 8 | entry[9];
            }
        }
    printf("%ux%u %s %dx%d orientation %d\n", c.image_width, c.image_height,
           c.progressive_mode ? "progressive" : "baseline", c.comp_info[0].h_samp_factor, c.comp_info[0].v_samp_factor,
           orientation);
    jpeg_destroy_decompress(&c);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[1], "jpeg") == 0)
        return write_jpeg(argv[2], (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]), argc > 5 ? atoi(argv[5]) : 1);
    if (argc == 5 && strcmp(argv[1], "png") == 0) return write_png(argv[2], (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]));
    if (argc == 6 && strcmp(argv[1], "compare") == 0)
        return compare(argv[2], (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]), strcmp(argv[5], "upside-down") == 0);
    if (argc == 3 && strcmp(argv[1], "info") == 0) return info(argv[2]);
    fprintf(stderr, "usage: see the comment at the top of tests/gbx/thumbnail_check.c\n");
    return 64;
}
