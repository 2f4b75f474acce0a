/*
 * `rebyte render` (include/rebyte.h rb_doc_render, docs/render.md): a document seen from above.
 * The format's plan hook says what is where; this file lays the plan out on a picture (the map's
 * frame, cells shaded by height, marks, paths coloured by speed, a diff's changes), adds a scale
 * bar, a north mark and a legend, and encodes the picture as PNG.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/assets.h"
#include "core/doc/doc.h"
#include "core/error.h"
#include "core/json/json.h"
#include "core/options.h"
#include "core/render/canvas.h"
#include "core/render/render_diff.h"

enum { MARGIN = 24, TEXT = 2, LINE = 16, MAX_SIDE = 2048, DEFAULT_SIDE = 1024, MAX_CELL_PIXELS = 40 };
/* The legend lists this many paths and changed facts at most (then how many more): a picture
 * stays a picture whatever a replay or a patch holds; --json lists them all. */
enum { LEGEND_LINES = 24 };

static const uint32_t BACKGROUND = 0x1B1F24, FRAME_FILL = 0x262C33, GRID = 0x2E353D, INK = 0xE8ECEF;
static const uint32_t ADDED = 0x2BE65A, REMOVED = 0xFF3B3B, MOVED = 0xFFC21A, CHANGED = 0x3FD7FF;
static const uint32_t KIND_COLOURS[RB_PLAN_KINDS] = {
    [RB_PLAN_ROAD] = 0xA7B1BC,       [RB_PLAN_START] = 0x35D07F,      [RB_PLAN_FINISH] = 0xEF4B4B,
    [RB_PLAN_MULTILAP] = 0xF59A23,   [RB_PLAN_CHECKPOINT] = 0x3C9BFF, [RB_PLAN_DECORATION] = 0x5E7752,
    [RB_PLAN_ITEM] = 0xE3C84A};

/* Where the plan's cells land on the picture: x to the right, z up (north). */
typedef struct view {
    double x0, z0, x1, z1; /* the extent drawn, in cells */
    double scale;          /* pixels per cell */
    int map_width, map_height;
    double y_low, y_high;  /* the heights the shading spans */
    int dim;               /* a diff: the map in muted colours under the changes */
} view;

static double px(const view *v, double x) { return MARGIN + (x - v->x0) * v->scale; }
static double py(const view *v, double z) { return MARGIN + (v->z1 - z) * v->scale; }

/* ---------- the extent ---------- */

/* Positions farther out than this many cells are no place in a world (a value a tool left, a
 * damaged file): they are not let stretch the picture to nothing. */
static const double FARTHEST = 1e6;

static void grow(double box[4], double x, double z)
{
    if (!isfinite(x) || !isfinite(z) || fabs(x) > FARTHEST || fabs(z) > FARTHEST) return;
    if (x < box[0]) box[0] = x;
    if (z < box[1]) box[1] = z;
    if (x > box[2]) box[2] = x;
    if (z > box[3]) box[3] = z;
}

/* The map's frame, widened to what lies outside it (an item past the edge, a car off the map)
 * by at most a quarter of the frame; without a frame, what the plan holds. */
static void extent(const rb_plan *plan, view *v)
{
    double box[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < plan->element_count; i++) {
        const rb_plan_element *e = &plan->elements[i];
        grow(box, e->x, e->z);
        grow(box, e->x + !e->placed, e->z + !e->placed);
    }
    for (size_t p = 0; p < plan->path_count; p++)
        for (size_t i = 0; i < plan->paths[p].count; i++)
            grow(box, plan->paths[p].points[i].x / plan->cell_metres[0],
                 plan->paths[p].points[i].z / plan->cell_metres[2]);
    if (plan->size[0] > 0 && plan->size[2] > 0) {
        double slack_x = plan->size[0] / 4.0, slack_z = plan->size[2] / 4.0;
        v->x0 = fmax(fmin(0, box[0]), -slack_x), v->z0 = fmax(fmin(0, box[1]), -slack_z);
        v->x1 = fmin(fmax(plan->size[0], box[2]), plan->size[0] + slack_x);
        v->z1 = fmin(fmax(plan->size[2], box[3]), plan->size[2] + slack_z);
    } else if (box[0] <= box[2]) {
        v->x0 = floor(box[0]) - 1, v->z0 = floor(box[1]) - 1, v->x1 = ceil(box[2]) + 1, v->z1 = ceil(box[3]) + 1;
    } else {
        v->x0 = v->z0 = 0, v->x1 = v->z1 = 1;
    }
    v->y_low = INFINITY, v->y_high = -INFINITY;
    for (size_t i = 0; i < plan->element_count; i++) {
        if (plan->elements[i].y < v->y_low) v->y_low = plan->elements[i].y;
        if (plan->elements[i].y > v->y_high) v->y_high = plan->elements[i].y;
    }
}

/* ---------- elements ---------- */

static uint32_t element_colour(const view *v, const rb_plan_element *e)
{
    uint32_t colour = KIND_COLOURS[e->kind < RB_PLAN_KINDS ? e->kind : RB_PLAN_ROAD];
    double span = v->y_high - v->y_low;
    double shade = span > 0 ? 0.45 + 0.55 * (e->y - v->y_low) / span : 1.0; /* higher is brighter */
    colour = rb_colour_scale(colour, shade);
    return v->dim ? rb_colour_mix(colour, FRAME_FILL, 0.65) : colour;
}

static void draw_element(rb_canvas *c, const view *v, const rb_plan_element *e, uint32_t colour)
{
    double s = v->scale;
    if (!e->placed) {
        double inset = s >= 5 ? 1 : 0;
        rb_canvas_rect(c, px(v, e->x) + inset, py(v, e->z + 1) + inset, px(v, e->x + 1), py(v, e->z), colour);
    } else if (e->block) {
        double half = fmax(1.5, s * 0.3);
        rb_canvas_rect(c, px(v, e->x) - half, py(v, e->z) - half, px(v, e->x) + half, py(v, e->z) + half, colour);
    } else {
        rb_canvas_disc(c, px(v, e->x), py(v, e->z), fmax(2.5, s * 0.16), colour);
    }
}

/* Drawing order, in layers so that the track stays in sight: scenery under roads, grid cells
 * under free blocks under items, and the lines (start, finish, checkpoints) over everything; in
 * a layer the lower first, so that what is higher covers it. */
static int draw_layer(const rb_plan_element *e)
{
    int placement = !e->placed ? 0 : e->block ? 1 : 2;
    switch (e->kind) {
    case RB_PLAN_DECORATION: return placement * 2;
    case RB_PLAN_ROAD:
    case RB_PLAN_ITEM: return placement * 2 + 1;
    default: return 6 + placement;
    }
}

/* What the drawing order compares, and which element it is. */
typedef struct draw_item {
    float y;
    int layer;
    size_t index;
} draw_item;

static int by_draw_order(const void *a, const void *b)
{
    const draw_item *x = a, *y = b;
    if (x->layer != y->layer) return x->layer - y->layer;
    if (x->y != y->y) return x->y < y->y ? -1 : 1;
    return x->index < y->index ? -1 : 1;
}

static int draw_elements(rb_canvas *c, const view *v, const rb_plan *plan)
{
    draw_item *order = malloc((plan->element_count + 1) * sizeof *order);
    if (!order) return -1;
    for (size_t i = 0; i < plan->element_count; i++) {
        const rb_plan_element *e = &plan->elements[i];
        order[i] = (draw_item){e->y, draw_layer(e), i};
    }
    qsort(order, plan->element_count, sizeof *order, by_draw_order);
    for (size_t i = 0; i < plan->element_count; i++) {
        const rb_plan_element *e = &plan->elements[order[i].index];
        draw_element(c, v, e, element_colour(v, e));
    }
    free(order);
    return 0;
}

/* ---------- paths ---------- */

/* Slow to fast: blue, cyan, green, yellow, red. */
static uint32_t speed_colour(double t)
{
    static const uint32_t STOPS[] = {0x2F5BFF, 0x22C7E0, 0x39D353, 0xF5D21F, 0xF0382B};
    if (!(t > 0)) return STOPS[0];
    if (t >= 1) return STOPS[4];
    double at = t * 4;
    int k = (int)at;
    return rb_colour_mix(STOPS[k], STOPS[k + 1], at - k);
}

static double path_top_speed(const rb_plan_path *path)
{
    double top = 0;
    for (size_t i = 0; i < path->count; i++)
        if (path->points[i].speed_kmh > top) top = path->points[i].speed_kmh;
    return top;
}

/* The sample at or after `time_ms` (the last one when none is). */
static const rb_plan_point *point_at(const rb_plan_path *path, int32_t time_ms)
{
    for (size_t i = 0; i < path->count; i++)
        if (path->points[i].time_ms >= time_ms) return &path->points[i];
    return path->count ? &path->points[path->count - 1] : NULL;
}

static void draw_path(rb_canvas *c, const view *v, const rb_plan *plan, const rb_plan_path *path)
{
    double top = path_top_speed(path), width = fmax(2, fmin(4, v->scale / 8));
    const float *cell = plan->cell_metres;
    for (size_t i = 1; i < path->count; i++) {
        const rb_plan_point *a = &path->points[i - 1], *b = &path->points[i];
        double t = top > 0 && !isnan(b->speed_kmh) ? b->speed_kmh / top : 0;
        rb_canvas_line(c, px(v, a->x / cell[0]), py(v, a->z / cell[2]), px(v, b->x / cell[0]), py(v, b->z / cell[2]),
                       width, speed_colour(t));
    }
    for (size_t k = 0; k < path->checkpoints; k++) {
        const rb_plan_point *p = point_at(path, path->checkpoint_ms[k]);
        if (!p) break;
        double x = px(v, p->x / cell[0]), y = py(v, p->z / cell[2]);
        rb_canvas_disc(c, x, y, 6, INK);
        rb_canvas_disc(c, x, y, 4, 0x111111);
        char label[64];
        int32_t ms = path->checkpoint_ms[k];
        snprintf(label, sizeof label, "%zu %d:%02d.%02d", k + 1, ms / 60000, ms / 1000 % 60, ms % 1000 / 10);
        rb_canvas_text(c, (int)x + 8, (int)y - 5, label, TEXT, INK);
    }
    if (path->count) {
        const rb_plan_point *start = &path->points[0];
        rb_canvas_disc(c, px(v, start->x / cell[0]), py(v, start->z / cell[2]), 5, KIND_COLOURS[RB_PLAN_START]);
    }
}

/* ---------- a diff's changes ---------- */

static void mark_box(rb_canvas *c, const view *v, const rb_plan_element *e, uint32_t colour, int filled)
{
    double half = e->placed ? fmax(4, v->scale * 0.45) : v->scale / 2 + 2;
    double x = px(v, e->x + (e->placed ? 0 : 0.5)), y = py(v, e->z + (e->placed ? 0 : 0.5));
    if (half < 4) half = 4;
    if (filled) rb_canvas_rect(c, x - half + 2, y - half + 2, x + half - 2, y + half - 2, colour);
    rb_canvas_frame(c, x - half, y - half, x + half, y + half, 2, colour);
}

static void centre_of(const view *v, const rb_plan_element *e, double *x, double *y)
{
    *x = px(v, e->x + (e->placed ? 0 : 0.5));
    *y = py(v, e->z + (e->placed ? 0 : 0.5));
}

static void draw_changes(rb_canvas *c, const view *v, const rb_changes *changes)
{
    for (size_t i = 0; i < changes->count; i++) {
        const rb_change *ch = &changes->items[i];
        switch (ch->kind) {
        case RB_CHANGE_REMOVED:
            if (ch->before) {
                double x, y, half = fmax(5, v->scale / 2);
                centre_of(v, ch->before, &x, &y);
                mark_box(c, v, ch->before, REMOVED, 0);
                rb_canvas_line(c, x - half, y - half, x + half, y + half, 2, REMOVED);
                rb_canvas_line(c, x - half, y + half, x + half, y - half, 2, REMOVED);
            }
            break;
        case RB_CHANGE_ADDED:
            if (ch->after) mark_box(c, v, ch->after, ADDED, 1);
            break;
        case RB_CHANGE_MOVED:
            if (ch->before && ch->after) {
                double x0, y0, x1, y1;
                centre_of(v, ch->before, &x0, &y0);
                centre_of(v, ch->after, &x1, &y1);
                mark_box(c, v, ch->after, MOVED, 0);
                rb_canvas_arrow(c, x0, y0, x1, y1, 2, fmax(8, v->scale / 2), MOVED);
            }
            break;
        case RB_CHANGE_CHANGED:
            if (ch->after || ch->before) mark_box(c, v, ch->after ? ch->after : ch->before, CHANGED, 0);
            break;
        }
    }
}

/* ---------- frame, scale, north ---------- */

static void draw_frame(rb_canvas *c, const view *v, const rb_plan *plan)
{
    double fx0 = plan->size[0] > 0 ? 0 : v->x0, fz0 = plan->size[2] > 0 ? 0 : v->z0;
    double fx1 = plan->size[0] > 0 ? plan->size[0] : v->x1, fz1 = plan->size[2] > 0 ? plan->size[2] : v->z1;
    rb_canvas_rect(c, px(v, fx0), py(v, fz1), px(v, fx1), py(v, fz0), FRAME_FILL);
    if (v->scale >= 6 && plan->size[0] > 0)
        for (double x = 1; x < fx1; x++) rb_canvas_rect(c, px(v, x), py(v, fz1), px(v, x) + 1, py(v, fz0), GRID);
    if (v->scale >= 6 && plan->size[2] > 0)
        for (double z = 1; z < fz1; z++) rb_canvas_rect(c, px(v, fx0), py(v, z), px(v, fx1), py(v, z) + 1, GRID);
}

static void draw_frame_edge(rb_canvas *c, const view *v, const rb_plan *plan)
{
    if (plan->size[0] <= 0 || plan->size[2] <= 0) return;
    rb_canvas_frame(c, px(v, 0) - 2, py(v, plan->size[2]) - 2, px(v, plan->size[0]) + 2, py(v, 0) + 2, 2, INK);
}

/* A round length (1, 2 or 5 times a power of ten) about a fifth of the picture. */
static double scale_length(double units_per_pixel, double pixels)
{
    double want = units_per_pixel * pixels, step = pow(10, floor(log10(want)));
    if (want >= 5 * step) return 5 * step;
    return want >= 2 * step ? 2 * step : step;
}

static void draw_scale_and_north(rb_canvas *c, const view *v, const rb_plan *plan)
{
    double per_pixel = plan->cell_metres[0] / v->scale;
    double length = scale_length(per_pixel, v->map_width / 5.0), bar = length / per_pixel;
    int x = MARGIN + 8, y = MARGIN + v->map_height - 18;
    rb_canvas_rect(c, x - 4, y - 16, x + bar + 4, y + 10, 0x000000);
    rb_canvas_rect(c, x, y, x + bar, y + 4, INK);
    rb_canvas_rect(c, x, y - 4, x + 2, y + 4, INK);
    rb_canvas_rect(c, x + bar - 2, y - 4, x + bar, y + 4, INK);
    char label[48];
    snprintf(label, sizeof label, "%g %s", length, plan->unit ? plan->unit : "");
    rb_canvas_text(c, x + 4, y - 13, label, TEXT, INK);
    int nx = MARGIN + v->map_width - 22, ny = MARGIN + 8;
    rb_canvas_rect(c, nx - 10, ny - 4, nx + 12, ny + 40, 0x000000);
    rb_canvas_arrow(c, nx + 1, ny + 24, nx + 1, ny + 2, 2, 8, INK);
    rb_canvas_text(c, nx - 2, ny + 28, "N", TEXT, INK);
}

/* ---------- legend ---------- */

/* Lays out (canvas NULL: measures) the lines below the map. */
typedef struct legend {
    rb_canvas *c;
    int left, right, x, y;
} legend;

static void legend_break(legend *l)
{
    if (l->x == l->left) return;
    l->x = l->left;
    l->y += LINE;
}

static void legend_text(legend *l, const char *text, uint32_t colour)
{
    int width = rb_canvas_text_width(text, TEXT);
    if (l->x > l->left && l->x + width > l->right) legend_break(l);
    if (l->c) rb_canvas_text(l->c, l->x, l->y, text, TEXT, colour);
    l->x += width + 3 * TEXT * 4;
}

static void legend_swatch(legend *l, uint32_t colour, const char *text)
{
    int width = 14 + rb_canvas_text_width(text, TEXT);
    if (l->x > l->left && l->x + width > l->right) legend_break(l);
    if (l->c) {
        rb_canvas_rect(l->c, l->x, l->y, l->x + 10, l->y + 10, colour);
        rb_canvas_text(l->c, l->x + 14, l->y, text, TEXT, INK);
    }
    l->x += width + 3 * TEXT * 4;
}

/* One line of its own, cut to the width. */
static void legend_line(legend *l, const char *text, uint32_t colour)
{
    legend_break(l);
    char cut[512];
    size_t fits = (size_t)((l->right - l->left) / (4 * TEXT));
    snprintf(cut, sizeof cut, "%.*s", (int)(fits < sizeof cut - 1 ? fits : sizeof cut - 1), text);
    legend_text(l, cut, colour);
    legend_break(l);
}

static void legend_kinds(legend *l, const rb_plan *plan)
{
    size_t counts[RB_PLAN_KINDS], blocks, placed, items;
    rb_plan_counts(plan, counts, &blocks, &placed, &items);
    char text[96];
    for (int k = 0; k < RB_PLAN_KINDS; k++) {
        if (!counts[k]) continue;
        snprintf(text, sizeof text, "%s %zu", rb_plan_kind_name((rb_plan_kind)k), counts[k]);
        legend_swatch(l, KIND_COLOURS[k], text);
    }
    if (placed) {
        snprintf(text, sizeof text, "(%zu free blocks: squares; items: dots)", placed);
        legend_text(l, text, INK);
    }
}

static void legend_paths(legend *l, const rb_plan *plan)
{
    for (size_t p = 0; p < plan->path_count; p++) {
        const rb_plan_path *path = &plan->paths[p];
        char text[160];
        if (p == LEGEND_LINES) {
            snprintf(text, sizeof text, "... and %zu more ghosts", plan->path_count - p);
            legend_line(l, text, INK);
            break;
        }
        int32_t end = path->count ? path->points[path->count - 1].time_ms : 0;
        snprintf(text, sizeof text, "ghost %zu: %zu samples, %zu checkpoints, %d.%02d s, top %.0f km/h", p + 1,
                 path->count, path->checkpoints, end / 1000, end % 1000 / 10, path_top_speed(path));
        legend_line(l, text, INK);
    }
    if (!plan->path_count) return;
    legend_break(l);
    legend_text(l, "slow", INK);
    if (l->c)
        for (int i = 0; i < 120; i++) rb_canvas_rect(l->c, l->x + i, l->y, l->x + i + 1, l->y + 10, speed_colour(i / 119.0));
    l->x += 128;
    legend_text(l, "fast", INK);
    legend_break(l);
}

static void legend_changes(legend *l, const rb_changes *changes)
{
    size_t counts[4] = {0};
    for (size_t i = 0; i < changes->count; i++) counts[changes->items[i].kind]++;
    static const uint32_t COLOURS[] = {ADDED, REMOVED, MOVED, CHANGED};
    char text[96];
    for (int k = 0; k < 4; k++) {
        snprintf(text, sizeof text, "%s %zu", rb_change_kind_name((rb_change_kind)k), counts[k]);
        legend_swatch(l, COLOURS[k], text);
    }
    size_t i;
    const json_t *fact;
    json_array_foreach(changes->facts, i, fact) {
        if (i == LEGEND_LINES) {
            snprintf(text, sizeof text, "... and %zu more changed facts (--json lists them)", json_array_size(changes->facts) - i);
            legend_line(l, text, CHANGED);
            break;
        }
        char *value = json_object_get(fact, "value") ? json_dumps(json_object_get(fact, "value"), JSON_ENCODE_ANY) : NULL;
        char line[600];
        snprintf(line, sizeof line, "%s %s%s%s", json_string_value(json_object_get(fact, "op")),
                 json_string_value(json_object_get(fact, "path")), value ? " = " : "", value ? value : "");
        free(value);
        legend_line(l, line, CHANGED);
    }
}

/* The legend's lines; returns the height they take. */
static int draw_legend(rb_canvas *c, int top, int width, const rb_plan *plan, const rb_changes *changes)
{
    legend l = {c, MARGIN, width - MARGIN, MARGIN, top};
    char text[400];
    legend_line(&l, plan->title[0] ? plan->title : "(no name)", INK);
    if (plan->size[0] > 0)
        snprintf(text, sizeof text, "%g x %g x %g cells, a cell %g x %g %s", plan->size[0], plan->size[1], plan->size[2],
                 plan->cell_metres[0], plan->cell_metres[2], plan->unit ? plan->unit : "");
    else
        snprintf(text, sizeof text, "no map: the frame is the path's");
    legend_line(&l, text, INK);
    legend_kinds(&l, plan);
    legend_break(&l);
    legend_paths(&l, plan);
    if (changes) legend_changes(&l, changes);
    legend_break(&l);
    return l.y - top;
}

/* ---------- what was drawn ---------- */

static json_t *counts_json(const rb_plan *plan, int blocks, size_t not_drawn)
{
    size_t by_kind[RB_PLAN_KINDS] = {0}, count = 0, placed = 0;
    for (size_t i = 0; i < plan->element_count; i++) {
        const rb_plan_element *e = &plan->elements[i];
        if (e->block != blocks) continue;
        count++;
        placed += e->placed;
        by_kind[e->kind < RB_PLAN_KINDS ? e->kind : RB_PLAN_ROAD]++;
    }
    json_t *kinds = json_object();
    for (int k = 0; k < RB_PLAN_KINDS; k++)
        if (by_kind[k]) json_object_set_new(kinds, rb_plan_kind_name((rb_plan_kind)k), json_integer((json_int_t)by_kind[k]));
    json_t *out = json_pack("{s:I}", "count", (json_int_t)count);
    if (blocks) json_object_set_new(out, "free", json_integer((json_int_t)placed));
    json_object_set_new(out, "not_drawn", json_integer((json_int_t)not_drawn));
    json_object_set_new(out, "by_kind", kinds);
    return out;
}

static json_t *paths_json(const rb_plan *plan)
{
    json_t *paths = json_array();
    for (size_t p = 0; p < plan->path_count; p++) {
        const rb_plan_path *path = &plan->paths[p];
        json_t *times = json_array();
        for (size_t k = 0; k < path->checkpoints; k++) json_array_append_new(times, json_integer(path->checkpoint_ms[k]));
        json_array_append_new(paths, json_pack("{s:I,s:f,s:o}", "samples", (json_int_t)path->count, "top_speed_kmh",
                                               path_top_speed(path), "checkpoints_ms", times));
    }
    return paths;
}

static json_t *position_json(const rb_plan_element *e)
{
    return e ? json_pack("[f,f,f]", (double)e->x, (double)e->y, (double)e->z) : json_null();
}

static json_t *changes_json(const rb_changes *changes)
{
    json_t *out = json_pack("{s:I}", "changes", (json_int_t)(changes->count + json_array_size(changes->facts)));
    for (int k = 0; k < 4; k++) json_object_set_new(out, rb_change_kind_name((rb_change_kind)k), json_array());
    for (size_t i = 0; i < changes->count; i++) {
        const rb_change *ch = &changes->items[i];
        const rb_plan_element *e = ch->after ? ch->after : ch->before;
        json_t *item = json_pack("{s:s,s:s,s:o,s:o}", "path", ch->path, "kind",
                                 e ? rb_plan_kind_name((rb_plan_kind)e->kind) : "not drawn", "from",
                                 position_json(ch->before), "to", position_json(ch->after));
        /* an element whose index moved (an earlier one was removed): its index in the first file */
        if (ch->was >= 0 && (size_t)ch->was != strtoul(strrchr(ch->path, '/') + 1, NULL, 10))
            json_object_set_new(item, "was_index", json_integer(ch->was));
        json_array_append_new(json_object_get(out, rb_change_kind_name(ch->kind)), item);
    }
    json_object_set(out, "facts", changes->facts);
    return out;
}

static char *report_text(const rb_doc *doc, const rb_plan *plan, const view *v, int width, int height,
                         const rb_changes *changes)
{
    json_t *o = json_pack("{s:s,s:i,s:i,s:f,s:[f,f,f],s:[f,f,f],s:s}", "file", doc->file_name, "width", width,
                          "height", height, "cell_pixels", v->scale, "frame", (double)plan->size[0],
                          (double)plan->size[1], (double)plan->size[2], "cell_size", (double)plan->cell_metres[0],
                          (double)plan->cell_metres[1], (double)plan->cell_metres[2], "unit", plan->unit ? plan->unit : "");
    if (plan->title[0]) json_object_set_new(o, "title", json_string(plan->title));
    json_object_set_new(o, "blocks", counts_json(plan, 1, plan->skipped_blocks));
    json_object_set_new(o, "items", counts_json(plan, 0, plan->skipped_items));
    json_object_set_new(o, "paths", paths_json(plan));
    if (changes) json_object_set_new(o, "diff", changes_json(changes));
    char *text = rb_json_compact_text(o);
    json_decref(o);
    return text;
}

/* ---------- the picture ---------- */

static rb_status plan_of(const rb_doc *doc, rb_plan *plan, rb_error *err)
{
    rb_plan_init(plan);
    if (!doc->format->plan) {
        rb_error_set(err, RB_E_UNSUPPORTED, doc->file_name, NULL,
                     "%s files have no picture (render draws maps, ghosts, replays and data.win rooms)", doc->format->name);
        return RB_E_UNSUPPORTED;
    }
    char why[512] = "";
    if (rb_doc_refuse_deferred(doc, "render", err)) return RB_E_DEFERRED;
    int rc = doc->format->plan(doc, plan, why, sizeof why);
    if (rc == 0 && !plan->failed) return RB_OK;
    rb_status status = plan->failed ? RB_E_NOMEM : RB_E_UNSUPPORTED;
    rb_error_set(err, status, doc->file_name, NULL, "%s", plan->failed ? "out of memory while drawing" : why);
    rb_plan_free(plan);
    return status;
}

/* Moves `from`'s paths to `to` (a ghost drawn over a map). */
static void take_paths(rb_plan *to, rb_plan *from)
{
    for (size_t i = 0; i < from->path_count; i++) {
        rb_plan_path *path = rb_plan_add_path(to);
        if (!path) return;
        *path = from->paths[i];
        memset(&from->paths[i], 0, sizeof from->paths[i]);
    }
}

/* The picture's size and the cell's: the longest side `side`, the legend below the map. */
static void lay_out(view *v, const rb_plan *plan, const rb_changes *changes, int side, int *width, int *height)
{
    double ew = v->x1 - v->x0, eh = v->z1 - v->z0;
    int narrow = side < 640 ? side : 640; /* the legend measured at the narrowest the picture gets */
    int legend_height = draw_legend(NULL, 0, narrow, plan, changes);
    double room_w = side - 2 * MARGIN, room_h = side - 2 * MARGIN - legend_height;
    if (room_h < 64) room_h = 64;
    v->scale = fmin(room_w / fmax(ew, 1e-9), room_h / fmax(eh, 1e-9));
    if (v->scale > MAX_CELL_PIXELS) v->scale = MAX_CELL_PIXELS;
    v->map_width = (int)ceil(ew * v->scale), v->map_height = (int)ceil(eh * v->scale);
    *width = v->map_width + 2 * MARGIN;
    if (*width < narrow) *width = narrow;
    *height = v->map_height + 2 * MARGIN + draw_legend(NULL, 0, *width, plan, changes);
}

static rb_status draw(const rb_doc *doc, rb_plan *plan, const rb_changes *changes, int side, uint8_t **png,
                      size_t *png_size, char **report_json, rb_error *err)
{
    view v = {0};
    extent(plan, &v);
    v.dim = changes != NULL;
    int width, height;
    lay_out(&v, plan, changes, side, &width, &height);
    rb_canvas c;
    if (rb_canvas_init(&c, width, height, BACKGROUND) != 0) {
        rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory for a %dx%d picture", width, height);
        return RB_E_NOMEM;
    }
    draw_frame(&c, &v, plan);
    int failed = draw_elements(&c, &v, plan);
    for (size_t p = 0; p < plan->path_count; p++) draw_path(&c, &v, plan, &plan->paths[p]);
    if (changes) draw_changes(&c, &v, changes);
    draw_frame_edge(&c, &v, plan);
    draw_scale_and_north(&c, &v, plan);
    draw_legend(&c, v.map_height + 2 * MARGIN, width, plan, changes);
    char why[256] = "";
    if (!failed) failed = rb_png_from_rgb_quick(c.rgb, (uint32_t)width, (uint32_t)height, png, png_size, why, sizeof why);
    rb_canvas_free(&c);
    if (failed) {
        rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "%s", why[0] ? why : "out of memory while drawing");
        return RB_E_NOMEM;
    }
    if (report_json) *report_json = report_text(doc, plan, &v, width, height, changes);
    return RB_OK;
}

/* The plain operations from `doc` to the other file, and that file's plan. */
static rb_status diff_plan(const rb_doc *doc, const rb_render_options *o, rb_plan *after, json_t **ops, rb_error *err)
{
    const uint8_t *bytes = doc->section_count ? doc->sections[0].data : NULL;
    size_t size = doc->section_count ? doc->sections[0].size : 0;
    rb_apply_result applied = RB_APPLY_RESULT_INIT;
    rb_doc *made = NULL;
    const rb_doc *other = o->diff_to;
    rb_status st = RB_OK;
    if (!bytes) {
        rb_error_set(err, RB_E_USAGE, doc->file_name, NULL, "render --diff: the document was not read from a file");
        return RB_E_USAGE;
    }
    if (o->diff_patch) {
        const rb_patch *patches[] = {o->diff_patch};
        st = rb_apply(bytes, size, doc->file_name, patches, 1, NULL, &applied, err);
        if (st == RB_OK) {
            rb_read_options read = RB_READ_OPTIONS_INIT;
            read.file_name = doc->file_name;
            made = rb_doc_parse(applied.bytes, applied.bytes_size, &read, err);
            if (!made) st = err ? err->status : RB_E_FORMAT;
            other = made;
        }
    }
    char *text = NULL;
    size_t count = 0;
    if (st == RB_OK) st = rb_doc_diff(doc, bytes, size, other, RB_DIFF_PLAIN, &text, &count, err);
    if (st == RB_OK) st = plan_of(other, after, err);
    if (st == RB_OK) {
        *ops = json_loads(text, 0, NULL);
        if (!*ops) {
            rb_plan_free(after);
            st = RB_E_NOMEM;
            rb_error_set(err, st, doc->file_name, NULL, "out of memory while reading the diff");
        }
    }
    rb_free(text);
    rb_doc_free(made);
    rb_apply_result_free(&applied);
    return st;
}

static rb_status render(const rb_doc *doc, const rb_render_options *o, uint8_t **png, size_t *png_size,
                        char **report_json, rb_error *err)
{
    rb_plan plan, other, after;
    rb_plan_init(&after); /* freed whatever the diff got to */
    rb_status st = plan_of(doc, &plan, err);
    if (st != RB_OK) return st;
    if (o->over) {
        st = plan_of(o->over, &other, err);
        if (st != RB_OK) {
            rb_plan_free(&plan);
            return st;
        }
        take_paths(&other, &plan);
        rb_plan_free(&plan);
        plan = other;
    }
    rb_changes changes = {0};
    int diff = o->diff_to || o->diff_patch;
    if (diff) {
        json_t *ops = NULL;
        st = diff_plan(doc, o, &after, &ops, err);
        if (st == RB_OK && rb_changes_find(&changes, ops, &plan, &after) != 0) {
            st = RB_E_NOMEM;
            rb_error_set(err, st, doc->file_name, NULL, "out of memory while placing the diff");
        }
        json_decref(ops);
    }
    int side = o->max_side ? (int)o->max_side : DEFAULT_SIDE;
    if (side > MAX_SIDE) side = MAX_SIDE;
    if (side < 256) side = 256;
    if (st == RB_OK) st = draw(doc, &plan, diff ? &changes : NULL, side, png, png_size, report_json, err);
    if (diff) {
        rb_changes_free(&changes);
        rb_plan_free(&after);
    }
    rb_plan_free(&plan);
    return st;
}

rb_status rb_doc_render(rb_doc *doc, const rb_render_options *options, uint8_t **png, size_t *png_size,
                        char **report_json, rb_error *err)
{
    rb_error_clear(err);
    if (!png || !png_size || !doc) return RB_E_USAGE;
    *png = NULL;
    *png_size = 0;
    if (report_json) *report_json = NULL;
    rb_render_options o;
    char why[256];
    if (rb_options_take(&o, sizeof o, options, sizeof o, "rb_render_options", why, sizeof why)) {
        rb_error_set(err, RB_E_USAGE, doc->file_name, NULL, "%s", why);
        return RB_E_USAGE;
    }
    if ((o.diff_to || o.diff_patch) && (o.over || (o.diff_to && o.diff_patch))) {
        rb_error_set(err, RB_E_USAGE, doc->file_name, NULL,
                     "render: a diff is to another file or by a patch, of the document itself (not with a map to draw over)");
        return RB_E_USAGE;
    }
    if (o.max_side > MAX_SIDE) {
        rb_error_set(err, RB_E_USAGE, doc->file_name, NULL, "render: a picture is at most %d pixels a side", MAX_SIDE);
        return RB_E_USAGE;
    }
    /* the plans walk nodes: the document is expanded here (as extract does), a map to draw over
     * must be so already (it is const) */
    if (!rb_doc_root(doc)) {
        rb_status st = rb_doc_expand(doc, err);
        if (st == RB_OK) rb_error_set(err, st = RB_E_NOMEM, doc->file_name, NULL, "out of memory");
        return st;
    }
    if (o.over && !o.over->navigable) {
        rb_error_set(err, RB_E_DEFERRED, o.over->file_name, NULL,
                     "render: the map to draw over is not navigable yet (rb_doc_root it first)");
        return RB_E_DEFERRED;
    }
    return render(doc, &o, png, png_size, report_json, err);
}
