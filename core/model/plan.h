/*
 * A plan: what a document holds seen from above, in the terms of no format (docs/render.md).
 * A format's `plan` hook (core/model/format.h) fills one from its model (GBX: a map's blocks by kind,
 * its free blocks and items at their positions, a ghost's samples; data.win: a room's
 * instances); core/render draws it. Positions are in cells of the frame; a format that knows
 * positions in metres divides by its cell size (`cell_metres`), which the scale bar uses back.
 */
#ifndef RB_PLAN_H
#define RB_PLAN_H
#include <stddef.h>
#include <stdint.h>

/* What an element is, for its colour and the counts; a format picks the nearest. */
typedef enum rb_plan_kind {
    RB_PLAN_ROAD,       /* road, platform, any block that is driven on or built with */
    RB_PLAN_START,
    RB_PLAN_FINISH,
    RB_PLAN_MULTILAP,   /* a start that is also the finish (a lap race's line) */
    RB_PLAN_CHECKPOINT,
    RB_PLAN_DECORATION, /* scenery, terrain, walls */
    RB_PLAN_ITEM,       /* an item, an instance of a room */
    RB_PLAN_KINDS
} rb_plan_kind;

/* The kind's name as the counts and the legend spell it ("road", "start", ...). */
const char *rb_plan_kind_name(rb_plan_kind kind);

typedef struct rb_plan_element {
    float x, y, z;    /* a cell's corner on the grid, or (placed) a position in cells */
    uint8_t kind;     /* rb_plan_kind */
    uint8_t placed;   /* at a free position (a free block, an item): drawn as a mark, not a cell */
    uint8_t block;    /* a block (free or not), else an item */
    uint32_t list;    /* the model list it is an element of (rb_plan.lists) */
    uint32_t index;   /* its index in that list */
} rb_plan_element;

/* One sample of a recorded path: position in the world's unit (not cells: the frame it is drawn
 * over may be another document's), speed, time. */
typedef struct rb_plan_point {
    float x, y, z;
    float speed_kmh; /* NaN when the sample has none */
    int32_t time_ms;
} rb_plan_point;

typedef struct rb_plan_path {
    rb_plan_point *points;
    size_t count, cap;
    int32_t *checkpoint_ms; /* the record's checkpoint times, in order */
    size_t checkpoints, checkpoint_cap;
} rb_plan_path;

typedef struct rb_plan {
    char title[256];       /* the map's name, the room's */
    float size[3];         /* the frame: cells along x, y (height), z; 0: none (a path alone) */
    float cell_metres[3];  /* one cell in the world's unit, along x, y, z */
    const char *unit;      /* the world's unit for the scale bar: "m", "px" */
    rb_plan_element *elements;
    size_t element_count, element_cap;
    char **lists;          /* JSON pointer of each list the elements come from */
    size_t *list_lengths;  /* and its element count */
    size_t list_count, list_cap;
    size_t skipped_blocks; /* blocks that are no element of the plan (a marker block, a free
                              block without its position) */
    size_t skipped_items;  /* items without a position */
    rb_plan_path *paths;
    size_t path_count, path_cap;
    int failed;            /* out of memory while filling */
} rb_plan;

void rb_plan_init(rb_plan *plan);
void rb_plan_free(rb_plan *plan);
/* The index of list `pointer` of `length` elements (added when new). */
uint32_t rb_plan_list(rb_plan *plan, const char *pointer, size_t length);
/* The element from element `index` of list `list`, NULL when it is none (elements are added
 * list by list in index order). */
const rb_plan_element *rb_plan_find(const rb_plan *plan, uint32_t list, uint32_t index);
void rb_plan_add(rb_plan *plan, const rb_plan_element *element);
/* A new path (NULL when out of memory), then its points and checkpoint times. */
rb_plan_path *rb_plan_add_path(rb_plan *plan);
void rb_plan_path_point(rb_plan *plan, rb_plan_path *path, const rb_plan_point *point);
void rb_plan_path_checkpoint(rb_plan *plan, rb_plan_path *path, int32_t time_ms);
/* Elements of each kind, blocks and placed ones (for the counts a report gives). */
void rb_plan_counts(const rb_plan *plan, size_t counts[RB_PLAN_KINDS], size_t *blocks, size_t *placed_blocks,
                    size_t *items);
#endif
