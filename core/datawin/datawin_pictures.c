/*
 * Texture pages and TPAG items as pixels: docs/formats/datawin.md "Texture encodings" (the
 * blob forms) and "TPAG" (what an item's fields mean).
 */
#include "core/datawin/datawin_pictures.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/assets.h"
#include "writers/bzip2.h"
#include "writers/qoi.h"

static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

datawin_page_form datawin_page_form_of(const uint8_t *blob, size_t size)
{
    if (size >= 8 && memcmp(blob, png_signature, 8) == 0) return DATAWIN_PAGE_PNG;
    if (size >= RB_QOI_HEADER && memcmp(blob, "fioq", 4) == 0) return DATAWIN_PAGE_QOI;
    if (size >= 11 && memcmp(blob, "2zoq", 4) == 0)
        /* the size field is there when the bzip2 magic follows it (a size whose low bytes spell
         * "BZh" would otherwise pass for the magic), else when the magic is not right after the
         * width and height */
        return (size >= 15 && memcmp(blob + 12, "BZh", 3) == 0) || memcmp(blob + 8, "BZh", 3) != 0
                   ? DATAWIN_PAGE_BZ2_QOI_SIZED
                   : DATAWIN_PAGE_BZ2_QOI;
    return DATAWIN_PAGE_UNKNOWN;
}

const char *datawin_page_form_name(datawin_page_form form)
{
    switch (form) {
    case DATAWIN_PAGE_PNG: return "PNG";
    case DATAWIN_PAGE_QOI: return "GameMaker QOI";
    case DATAWIN_PAGE_BZ2_QOI:
    case DATAWIN_PAGE_BZ2_QOI_SIZED: return "bzip2 + GameMaker QOI";
    default: return "an unknown encoding";
    }
}

void datawin_picture_free(datawin_picture *p)
{
    free(p->rgba);
    p->rgba = NULL;
    p->width = p->height = 0;
}

int datawin_picture_new(datawin_picture *p, unsigned width, unsigned height)
{
    p->width = width;
    p->height = height;
    size_t pixels = (size_t)width * height;
    p->rgba = calloc(pixels ? pixels : 1, 4);
    return p->rgba ? 0 : -1;
}

int datawin_picture_equal(const datawin_picture *a, const datawin_picture *b)
{
    return a->width == b->width && a->height == b->height &&
           memcmp(a->rgba, b->rgba, (size_t)a->width * a->height * 4) == 0;
}

int datawin_picture_from_png(const uint8_t *png, size_t size, uint64_t max_bytes, datawin_picture *out, char *why,
                        size_t why_size)
{
    uint32_t w = 0, h = 0;
    memset(out, 0, sizeof *out);
    if (rb_png_to_rgba(png, size, max_bytes, &out->rgba, &w, &h, why, why_size)) return -1;
    out->width = w;
    out->height = h;
    return 0;
}

int datawin_picture_to_png(const datawin_picture *p, rb_buf *out, char *why, size_t why_size)
{
    uint8_t *png = NULL;
    size_t size = 0;
    if (rb_png_from_rgba(p->rgba, p->width, p->height, &png, &size, why, why_size)) return -1;
    rb_buf_put(out, png, size);
    free(png);
    if (out->failed) {
        snprintf(why, why_size, "out of memory for a %ux%u PNG", p->width, p->height);
        return -1;
    }
    return 0;
}

int datawin_page_decode(const uint8_t *blob, size_t size, uint64_t max_bytes, datawin_picture *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    datawin_page_form form = datawin_page_form_of(blob, size);
    switch (form) {
    case DATAWIN_PAGE_PNG:
        return datawin_picture_from_png(blob, size, max_bytes, out, why, why_size);
    case DATAWIN_PAGE_QOI:
        return rb_qoi_decode(blob, size, max_bytes, &out->rgba, &out->width, &out->height, why, why_size);
    case DATAWIN_PAGE_BZ2_QOI:
    case DATAWIN_PAGE_BZ2_QOI_SIZED: {
        size_t header = form == DATAWIN_PAGE_BZ2_QOI ? 8 : 12;
        if (size < header) {
            snprintf(why, why_size, "bzip2 + QOI page of %zu bytes is shorter than its header", size);
            return -1;
        }
        uint8_t *qoi = NULL;
        size_t qoi_size = 0;
        if (rb_bzip2_decode(blob + header, size - header, max_bytes, &qoi, &qoi_size, NULL, why, why_size)) return -1;
        int r = rb_qoi_decode(qoi, qoi_size, max_bytes, &out->rgba, &out->width, &out->height, why, why_size);
        free(qoi);
        unsigned w = (unsigned)(blob[4] | blob[5] << 8), h = (unsigned)(blob[6] | blob[7] << 8);
        if (!r && (w != out->width || h != out->height)) {
            snprintf(why, why_size, "bzip2 + QOI header says %ux%u, its QOI stream %ux%u", w, h, out->width, out->height);
            datawin_picture_free(out);
            return -1;
        }
        return r;
    }
    default:
        snprintf(why, why_size, "texture blob is neither PNG, QOI nor bzip2 + QOI (it starts %02x %02x %02x %02x)",
                 size > 0 ? blob[0] : 0, size > 1 ? blob[1] : 0, size > 2 ? blob[2] : 0, size > 3 ? blob[3] : 0);
        return -1;
    }
}

int datawin_page_encode(const datawin_picture *p, datawin_page_form form, rb_buf *out, char *why, size_t why_size)
{
    switch (form) {
    case DATAWIN_PAGE_PNG: return datawin_picture_to_png(p, out, why, why_size);
    case DATAWIN_PAGE_QOI: return rb_qoi_encode(p->rgba, p->width, p->height, out, why, why_size);
    case DATAWIN_PAGE_BZ2_QOI:
    case DATAWIN_PAGE_BZ2_QOI_SIZED: {
        rb_buf qoi;
        rb_buf_init(&qoi);
        if (rb_qoi_encode(p->rgba, p->width, p->height, &qoi, why, why_size)) {
            rb_buf_free(&qoi);
            return -1;
        }
        rb_buf_put(out, "2zoq", 4);
        rb_buf_put_le(out, p->width, 2);
        rb_buf_put_le(out, p->height, 2);
        if (form == DATAWIN_PAGE_BZ2_QOI_SIZED) rb_buf_put_le(out, qoi.size, 4);
        int r = rb_bzip2_encode(qoi.data, qoi.size, out, why, why_size);
        rb_buf_free(&qoi);
        if (!r && out->failed) {
            snprintf(why, why_size, "out of memory encoding a %ux%u page", p->width, p->height);
            r = -1;
        }
        return r;
    }
    default: snprintf(why, why_size, "cannot encode a page in an unknown form"); return -1;
    }
}

static const uint8_t *pixel_at(const datawin_picture *p, unsigned x, unsigned y)
{
    return p->rgba + ((size_t)y * p->width + x) * 4;
}

int datawin_item_cut(const datawin_picture *page, const datawin_item *item, uint64_t max_bytes, datawin_picture *out, char *why,
                size_t why_size)
{
    unsigned w = item->bounding_width, h = item->bounding_height;
    memset(out, 0, sizeof *out);
    if ((uint64_t)w * h * 4 > max_bytes) {
        snprintf(why, why_size, "a %ux%u item is above the %llu-byte limit", w, h, (unsigned long long)max_bytes);
        return -1;
    }
    if (datawin_picture_new(out, w, h)) {
        snprintf(why, why_size, "out of memory for a %ux%u item", w, h);
        return -1;
    }
    if (!item->target_width || !item->target_height || item->target_x >= w || item->target_y >= h) return 0;
    /* only the part of the target box inside the picture: the box's sizes come from the file and
     * may be far larger than the bounded picture */
    unsigned rows = item->target_height < h - item->target_y ? item->target_height : h - item->target_y;
    unsigned columns = item->target_width < w - item->target_x ? item->target_width : w - item->target_x;
    for (unsigned ty = 0; ty < rows; ty++) {
        unsigned oy = item->target_y + ty;
        /* nearest source pixel when the item is scaled (source and target sizes differ) */
        unsigned sy = item->source_y + (unsigned)((uint64_t)ty * item->source_height / item->target_height);
        if (oy >= h || sy >= page->height) continue;
        for (unsigned tx = 0; tx < columns; tx++) {
            unsigned ox = item->target_x + tx;
            unsigned sx = item->source_x + (unsigned)((uint64_t)tx * item->source_width / item->target_width);
            if (ox >= w || sx >= page->width) continue;
            memcpy(out->rgba + ((size_t)oy * w + ox) * 4, pixel_at(page, sx, sy), 4);
        }
    }
    return 0;
}

int datawin_item_fits(const datawin_item *item, const datawin_picture *frame)
{
    if (frame->width != item->bounding_width || frame->height != item->bounding_height) return 0;
    if (item->source_width != item->target_width || item->source_height != item->target_height) return 0;
    if (item->target_x + item->target_width > frame->width || item->target_y + item->target_height > frame->height)
        return 0;
    for (unsigned y = 0; y < frame->height; y++)
        for (unsigned x = 0; x < frame->width; x++) {
            int inside = x >= item->target_x && x < item->target_x + item->target_width && y >= item->target_y &&
                         y < item->target_y + item->target_height;
            if (!inside && pixel_at(frame, x, y)[3]) return 0;
        }
    return 1;
}

void datawin_item_draw(datawin_picture *page, const datawin_item *item, const datawin_picture *frame)
{
    for (unsigned y = 0; y < item->target_height; y++) {
        unsigned py = item->source_y + y, fy = item->target_y + y;
        if (py >= page->height || fy >= frame->height) continue;
        for (unsigned x = 0; x < item->target_width; x++) {
            unsigned px = item->source_x + x, fx = item->target_x + x;
            if (px >= page->width || fx >= frame->width) continue;
            memcpy(page->rgba + ((size_t)py * page->width + px) * 4, pixel_at(frame, fx, fy), 4);
        }
    }
}

void datawin_picture_blit(datawin_picture *dst, unsigned x, unsigned y, const datawin_picture *src)
{
    for (unsigned sy = 0; sy < src->height && y + sy < dst->height; sy++) {
        unsigned n = src->width;
        if (x >= dst->width) return;
        if (n > dst->width - x) n = dst->width - x;
        memcpy(dst->rgba + ((size_t)(y + sy) * dst->width + x) * 4, pixel_at(src, 0, sy), (size_t)n * 4);
    }
}
