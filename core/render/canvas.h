/*
 * An RGB picture to draw a plan on (canvas.c): rectangles, lines, discs and text in a small
 * built-in font, clipped to the picture. Colours are 0xRRGGBB.
 */
#ifndef RB_CANVAS_H
#define RB_CANVAS_H
#include <stddef.h>
#include <stdint.h>

typedef struct rb_canvas {
    uint8_t *rgb; /* 3 bytes a pixel, rows top to bottom */
    int width, height;
} rb_canvas;

/* A picture of `width` x `height` filled with `background`; 0, or -1 when out of memory. */
int rb_canvas_init(rb_canvas *c, int width, int height, uint32_t background);
void rb_canvas_free(rb_canvas *c);
void rb_canvas_rect(rb_canvas *c, double x0, double y0, double x1, double y1, uint32_t colour);
/* The outline of a rectangle, `thickness` pixels inward. */
void rb_canvas_frame(rb_canvas *c, double x0, double y0, double x1, double y1, int thickness, uint32_t colour);
void rb_canvas_line(rb_canvas *c, double x0, double y0, double x1, double y1, double width, uint32_t colour);
void rb_canvas_disc(rb_canvas *c, double cx, double cy, double radius, uint32_t colour);
/* An arrow from (x0, y0) to (x1, y1), its head `head` pixels long. */
void rb_canvas_arrow(rb_canvas *c, double x0, double y0, double x1, double y1, double width, double head,
                     uint32_t colour);
/* Text (ASCII; lower case is drawn as upper case) at `scale` pixels per font dot, its top-left
 * corner at (x, y); the width it takes. */
int rb_canvas_text(rb_canvas *c, int x, int y, const char *text, int scale, uint32_t colour);
int rb_canvas_text_width(const char *text, int scale);
/* `colour` with each channel multiplied by `factor` (0..1), or mixed toward `other` by `t`. */
uint32_t rb_colour_scale(uint32_t colour, double factor);
uint32_t rb_colour_mix(uint32_t colour, uint32_t other, double t);
#endif
