/*
 * data.win pictures (docs/formats/gamemaker.md "Texture encodings"): a texture page blob decoded
 * to RGBA and encoded back in the form it was stored in, and TPAG items cut from a page or drawn
 * into it. Used by the assets hooks (gm_assets.c).
 */
#ifndef RB_GM_PICTURES_H
#define RB_GM_PICTURES_H
#include <stddef.h>
#include <stdint.h>
#include "../buf.h"

typedef enum gm_page_form {
    GM_PAGE_UNKNOWN = 0,
    GM_PAGE_PNG,
    GM_PAGE_QOI,       /* "fioq" */
    GM_PAGE_BZ2_QOI,   /* "2zoq", u16 width, u16 height, bzip2 of a QOI stream */
    GM_PAGE_BZ2_QOI_SIZED /* the same with the QOI stream's size (u32) before the bzip2 stream (2022.5+) */
} gm_page_form;

typedef struct gm_picture {
    uint8_t *rgba; /* malloc'd, width x height x 4 */
    unsigned width, height;
} gm_picture;

/* The form of a page blob from its first bytes. */
gm_page_form gm_page_form_of(const uint8_t *blob, size_t size);
const char *gm_page_form_name(gm_page_form form);
/* Decode a page blob of any known form; 0, or -1 with `why`. */
int gm_page_decode(const uint8_t *blob, size_t size, uint64_t max_bytes, gm_picture *out, char *why, size_t why_size);
/* Encode pixels in `form`; 0, or -1 with `why`. */
int gm_page_encode(const gm_picture *picture, gm_page_form form, rb_buf *out, char *why, size_t why_size);
void gm_picture_free(gm_picture *picture);
/* PNG in and out (core/assets.h's shared encoder): 0, or -1 with `why`. */
int gm_picture_from_png(const uint8_t *png, size_t size, uint64_t max_bytes, gm_picture *out, char *why,
                        size_t why_size);
int gm_picture_to_png(const gm_picture *picture, rb_buf *out, char *why, size_t why_size);
int gm_picture_new(gm_picture *picture, unsigned width, unsigned height);
int gm_picture_equal(const gm_picture *a, const gm_picture *b);

/* A TPAG item's ten u16 fields (docs/formats/gamemaker.md "TPAG"). */
typedef struct gm_item {
    unsigned source_x, source_y, source_width, source_height;
    unsigned target_x, target_y, target_width, target_height;
    unsigned bounding_width, bounding_height;
    long page;
} gm_item;
/* The picture an item stands for: its bounding box, transparent, with the source region of the
 * page put at the target place (scaled to the target size when the two differ). 0, or -1 with
 * `why` (a box of more than `max_bytes` of pixels, no memory). */
int gm_item_cut(const gm_picture *page, const gm_item *item, uint64_t max_bytes, gm_picture *out, char *why,
                size_t why_size);
/* Whether `frame` (the item's bounding size) can go back into the item's region as it is: same
 * size, unscaled item, nothing but transparent pixels outside the target rectangle. */
int gm_item_fits(const gm_item *item, const gm_picture *frame);
/* Draw the target rectangle of `frame` into the item's source region of `page` (gm_item_fits). */
void gm_item_draw(gm_picture *page, const gm_item *item, const gm_picture *frame);
/* Copy `src` into `dst` at (x, y) (clipped). */
void gm_picture_blit(gm_picture *dst, unsigned x, unsigned y, const gm_picture *src);
#endif
