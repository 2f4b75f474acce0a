/* Drawing on an RGBA picture (canvas.h). */
#include "core/render/canvas.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int rb_canvas_init(rb_canvas *c, int width, int height, uint32_t background)
{
    c->width = width, c->height = height;
    c->rgb = malloc((size_t)width * (size_t)height * 3);
    if (!c->rgb) return -1;
    rb_canvas_rect(c, 0, 0, width, height, background);
    return 0;
}

void rb_canvas_free(rb_canvas *c)
{
    free(c->rgb);
    c->rgb = NULL;
}

static void put(rb_canvas *c, int x, int y, uint32_t colour)
{
    if (x < 0 || y < 0 || x >= c->width || y >= c->height) return;
    uint8_t *p = c->rgb + ((size_t)y * (size_t)c->width + (size_t)x) * 3;
    p[0] = (uint8_t)(colour >> 16), p[1] = (uint8_t)(colour >> 8), p[2] = (uint8_t)colour;
}

static int clamp_to(double v, int limit)
{
    if (!(v > 0)) return 0; /* NaN too */
    return v > limit ? limit : (int)v;
}

void rb_canvas_rect(rb_canvas *c, double x0, double y0, double x1, double y1, uint32_t colour)
{
    int xa = clamp_to(floor(x0 + 0.5), c->width), xb = clamp_to(floor(x1 + 0.5), c->width);
    int ya = clamp_to(floor(y0 + 0.5), c->height), yb = clamp_to(floor(y1 + 0.5), c->height);
    if (xb == xa && x1 > x0 && xa < c->width) xb = xa + 1; /* a cell thinner than a pixel still shows */
    if (yb == ya && y1 > y0 && ya < c->height) yb = ya + 1;
    if (xa >= xb || ya >= yb) return;
    /* the first row pixel by pixel, the others copied from it */
    for (int x = xa; x < xb; x++) put(c, x, ya, colour);
    size_t row = (size_t)c->width * 3, span = (size_t)(xb - xa) * 3;
    const uint8_t *first = c->rgb + (size_t)ya * row + (size_t)xa * 3;
    for (int y = ya + 1; y < yb; y++) memcpy(c->rgb + (size_t)y * row + (size_t)xa * 3, first, span);
}

void rb_canvas_frame(rb_canvas *c, double x0, double y0, double x1, double y1, int thickness, uint32_t colour)
{
    rb_canvas_rect(c, x0, y0, x1, y0 + thickness, colour);
    rb_canvas_rect(c, x0, y1 - thickness, x1, y1, colour);
    rb_canvas_rect(c, x0, y0, x0 + thickness, y1, colour);
    rb_canvas_rect(c, x1 - thickness, y0, x1, y1, colour);
}

void rb_canvas_disc(rb_canvas *c, double cx, double cy, double radius, uint32_t colour)
{
    if (!isfinite(cx) || !isfinite(cy) || !(radius >= 0)) return;
    /* a disc wholly off the picture draws nothing; its centre is then also no int (a damaged file's) */
    if (cx + radius < 0 || cy + radius < 0 || cx - radius >= c->width || cy - radius >= c->height) return;
    int r = (int)ceil(radius);
    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++)
            if (dx * dx + dy * dy <= radius * radius + 0.5) put(c, (int)floor(cx) + dx, (int)floor(cy) + dy, colour);
}

void rb_canvas_line(rb_canvas *c, double x0, double y0, double x1, double y1, double width, uint32_t colour)
{
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1)) return;
    double length = hypot(x1 - x0, y1 - y0);
    if (length > 4.0 * (c->width + c->height)) return; /* a jump off the picture: nothing to see */
    int steps = (int)ceil(length) + 1;
    for (int i = 0; i <= steps; i++) {
        double t = (double)i / steps;
        double x = x0 + (x1 - x0) * t, y = y0 + (y1 - y0) * t;
        if (width <= 1.0) put(c, (int)floor(x), (int)floor(y), colour);
        else rb_canvas_disc(c, x, y, width / 2, colour);
    }
}

void rb_canvas_arrow(rb_canvas *c, double x0, double y0, double x1, double y1, double width, double head,
                     uint32_t colour)
{
    rb_canvas_line(c, x0, y0, x1, y1, width, colour);
    double length = hypot(x1 - x0, y1 - y0);
    if (length < 1) return;
    double ux = (x1 - x0) / length, uy = (y1 - y0) / length;
    for (int side = -1; side <= 1; side += 2) {
        double hx = x1 - head * (ux * 0.87 - side * uy * 0.5), hy = y1 - head * (uy * 0.87 + side * ux * 0.5);
        rb_canvas_line(c, x1, y1, hx, hy, width, colour);
    }
}

/* A 3 x 5 font: each glyph is five rows of three dots, a row as an octal digit (4 = left dot). */
static const struct {
    char ch;
    const char *rows;
} GLYPHS[] = {
    {'0', "75557"}, {'1', "26227"}, {'2', "71747"}, {'3', "71317"}, {'4', "55711"}, {'5', "74717"},
    {'6', "74757"}, {'7', "71122"}, {'8', "75757"}, {'9', "75717"}, {'A', "25755"}, {'B', "65656"},
    {'C', "34443"}, {'D', "65556"}, {'E', "74647"}, {'F', "74644"}, {'G', "34553"}, {'H', "55755"},
    {'I', "72227"}, {'J', "11152"}, {'K', "55655"}, {'L', "44447"}, {'M', "57755"}, {'N', "57775"},
    {'O', "25552"}, {'P', "65644"}, {'Q', "25563"}, {'R', "65655"}, {'S', "34216"}, {'T', "72222"},
    {'U', "55557"}, {'V', "55552"}, {'W', "55775"}, {'X', "55255"}, {'Y', "55222"}, {'Z', "71247"},
    {'.', "00002"}, {',', "00024"}, {':', "02020"}, {'-', "00700"}, {'+', "02720"}, {'/', "11244"},
    {'(', "24442"}, {')', "42224"}, {'%', "51245"}, {'=', "07070"}, {'>', "42124"}, {'<', "12421"},
    {'\'', "22000"}, {'"', "55000"}, {'_', "00007"}, {'#', "57575"}, {'!', "22202"}, {'?', "71202"},
    {'*', "05250"}, {'[', "64446"}, {']', "31113"}, {'|', "22222"}, {'&', "25356"}, {'@', "75743"},
    {'^', "25000"}, {'~', "03600"}, {';', "02024"}, {'$', "36336"}, {'{', "32623"}, {'}', "62326"},
};

static const char *glyph_of(char ch)
{
    char upper = (char)toupper((unsigned char)ch);
    for (size_t i = 0; i < sizeof GLYPHS / sizeof GLYPHS[0]; i++)
        if (GLYPHS[i].ch == upper) return GLYPHS[i].rows;
    return ch == ' ' ? "00000" : "77777"; /* a character the font lacks shows as a block */
}

int rb_canvas_text_width(const char *text, int scale)
{
    size_t n = strlen(text);
    return n ? (int)(n * 4 - 1) * scale : 0;
}

int rb_canvas_text(rb_canvas *c, int x, int y, const char *text, int scale, uint32_t colour)
{
    int at = x;
    for (const char *t = text; *t; t++, at += 4 * scale) {
        const char *rows = glyph_of(*t);
        for (int row = 0; row < 5; row++)
            for (int dot = 0; dot < 3; dot++)
                if ((rows[row] - '0') & (4 >> dot))
                    rb_canvas_rect(c, at + dot * scale, y + row * scale, at + (dot + 1) * scale, y + (row + 1) * scale,
                                   colour);
    }
    return rb_canvas_text_width(text, scale);
}

uint32_t rb_colour_scale(uint32_t colour, double factor)
{
    uint32_t out = 0;
    for (int shift = 0; shift <= 16; shift += 8) {
        double v = ((colour >> shift) & 0xFF) * factor;
        out |= (uint32_t)(v < 0 ? 0 : v > 255 ? 255 : v) << shift;
    }
    return out;
}

uint32_t rb_colour_mix(uint32_t colour, uint32_t other, double t)
{
    uint32_t out = 0;
    for (int shift = 0; shift <= 16; shift += 8) {
        double a = (colour >> shift) & 0xFF, b = (other >> shift) & 0xFF;
        out |= (uint32_t)(a + (b - a) * t + 0.5) << shift;
    }
    return out;
}
