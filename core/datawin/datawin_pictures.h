/*
 * data.win pictures (docs/formats/datawin.md "Texture encodings"): a texture page blob decoded
 * to RGBA and encoded back in the form it was stored in, and TPAG items cut from a page or drawn
 * into it. Used by the assets hooks (datawin_assets.c).
 */
#ifndef RB_GM_PICTURES_H
#define RB_GM_PICTURES_H
#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"

typedef enum datawin_page_form {
    DATAWIN_PAGE_UNKNOWN = 0,
    DATAWIN_PAGE_PNG,
    DATAWIN_PAGE_QOI,       /* "fioq" */
    DATAWIN_PAGE_BZ2_QOI,   /* "2zoq", u16 width, u16 height, bzip2 of a QOI stream */
    DATAWIN_PAGE_BZ2_QOI_SIZED /* the same with the QOI stream's size (u32) before the bzip2 stream (2022.5+) */
} datawin_page_form;

typedef struct datawin_picture {
    uint8_t *rgba; /* malloc'd, width x height x 4 */
    unsigned width, height;
} datawin_picture;

/* The form of a page blob from its first bytes. */
datawin_page_form datawin_page_form_of(const uint8_t *blob, size_t size);
const char *datawin_page_form_name(datawin_page_form form);
/* Decode a page blob of any known form; 0, or -1 with `why`. */
int datawin_page_decode(const uint8_t *blob, size_t size, uint64_t max_bytes, datawin_picture *out, char *why, size_t why_size);
/* Encode pixels in `form`; 0, or -1 with `why`. */
int datawin_page_encode(const datawin_picture *picture, datawin_page_form form, rb_buf *out, char *why, size_t why_size);
void datawin_picture_free(datawin_picture *picture);
/* PNG in and out (core/doc/assets.h's shared encoder): 0, or -1 with `why`. */
int datawin_picture_from_png(const uint8_t *png, size_t size, uint64_t max_bytes, datawin_picture *out, char *why,
                        size_t why_size);
int datawin_picture_to_png(const datawin_picture *picture, rb_buf *out, char *why, size_t why_size);
int datawin_picture_new(datawin_picture *picture, unsigned width, unsigned height);
int datawin_picture_equal(const datawin_picture *a, const datawin_picture *b);

/* A TPAG item's ten u16 fields (docs/formats/datawin.md "TPAG"). */
typedef struct datawin_item {
    unsigned source_x, source_y, source_width, source_height;
    unsigned target_x, target_y, target_width, target_height;
    unsigned bounding_width, bounding_height;
    long page;
} datawin_item;
/* The picture an item stands for: its bounding box, transparent, with the source region of the
 * page put at the target place (scaled to the target size when the two differ). 0, or -1 with
 * `why` (a box of more than `max_bytes` of pixels, no memory). */
int datawin_item_cut(const datawin_picture *page, const datawin_item *item, uint64_t max_bytes, datawin_picture *out, char *why,
                size_t why_size);
/* Whether `frame` (the item's bounding size) can go back into the item's region as it is: same
 * size, unscaled item, nothing but transparent pixels outside the target rectangle. */
int datawin_item_fits(const datawin_item *item, const datawin_picture *frame);
/* Draw the target rectangle of `frame` into the item's source region of `page` (datawin_item_fits). */
void datawin_item_draw(datawin_picture *page, const datawin_item *item, const datawin_picture *frame);
/* Copy `src` into `dst` at (x, y) (clipped). */
void datawin_picture_blit(datawin_picture *dst, unsigned x, unsigned y, const datawin_picture *src);
#endif
