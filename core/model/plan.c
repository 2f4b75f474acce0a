/* Filling a plan (plan.h): the format hooks call these, render.c reads the result. */
#include "core/model/plan.h"
#include <stdlib.h>
#include <string.h>

static const char *const KIND_NAMES[RB_PLAN_KINDS] = {
    [RB_PLAN_ROAD] = "road",          [RB_PLAN_START] = "start",
    [RB_PLAN_FINISH] = "finish",      [RB_PLAN_MULTILAP] = "multilap",
    [RB_PLAN_CHECKPOINT] = "checkpoint", [RB_PLAN_DECORATION] = "decoration",
    [RB_PLAN_ITEM] = "item"};

const char *rb_plan_kind_name(rb_plan_kind kind)
{
    return kind < RB_PLAN_KINDS ? KIND_NAMES[kind] : "?";
}

void rb_plan_init(rb_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->cell_metres[0] = plan->cell_metres[1] = plan->cell_metres[2] = 1;
    plan->unit = "m";
}

void rb_plan_free(rb_plan *plan)
{
    for (size_t i = 0; i < plan->list_count; i++) free(plan->lists[i]);
    for (size_t i = 0; i < plan->path_count; i++) {
        free(plan->paths[i].points);
        free(plan->paths[i].checkpoint_ms);
    }
    free(plan->lists);
    free(plan->list_lengths);
    free(plan->paths);
    free(plan->elements);
    memset(plan, 0, sizeof *plan);
}

/* Room for one more element of `size` bytes in *items (count, cap); 0 when out of memory (the
 * plan is then marked failed). */
static int room_for_one(rb_plan *plan, void **items, size_t count, size_t *cap, size_t size)
{
    if (plan->failed) return 0;
    if (count < *cap) return 1;
    size_t grown = *cap ? *cap * 2 : 64;
    void *more = realloc(*items, grown * size);
    if (!more) {
        plan->failed = 1;
        return 0;
    }
    *items = more;
    *cap = grown;
    return 1;
}

uint32_t rb_plan_list(rb_plan *plan, const char *pointer, size_t length)
{
    for (size_t i = 0; i < plan->list_count; i++)
        if (strcmp(plan->lists[i], pointer) == 0) return (uint32_t)i;
    size_t cap = plan->list_cap;
    if (!room_for_one(plan, (void **)&plan->lists, plan->list_count, &cap, sizeof *plan->lists)) return 0;
    if (!room_for_one(plan, (void **)&plan->list_lengths, plan->list_count, &plan->list_cap,
                      sizeof *plan->list_lengths))
        return 0;
    char *copy = strdup(pointer);
    if (!copy) {
        plan->failed = 1;
        return 0;
    }
    plan->lists[plan->list_count] = copy;
    plan->list_lengths[plan->list_count] = length;
    return (uint32_t)plan->list_count++;
}

static int element_order(uint32_t list, uint32_t index, const rb_plan_element *e)
{
    if (list != e->list) return list < e->list ? -1 : 1;
    return index < e->index ? -1 : index > e->index;
}

const rb_plan_element *rb_plan_find(const rb_plan *plan, uint32_t list, uint32_t index)
{
    size_t low = 0, high = plan->element_count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        int order = element_order(list, index, &plan->elements[middle]);
        if (!order) return &plan->elements[middle];
        if (order < 0) high = middle;
        else low = middle + 1;
    }
    return NULL;
}

void rb_plan_add(rb_plan *plan, const rb_plan_element *element)
{
    if (room_for_one(plan, (void **)&plan->elements, plan->element_count, &plan->element_cap, sizeof *element))
        plan->elements[plan->element_count++] = *element;
}

rb_plan_path *rb_plan_add_path(rb_plan *plan)
{
    if (!room_for_one(plan, (void **)&plan->paths, plan->path_count, &plan->path_cap, sizeof *plan->paths)) return NULL;
    rb_plan_path *path = &plan->paths[plan->path_count++];
    memset(path, 0, sizeof *path);
    return path;
}

void rb_plan_path_point(rb_plan *plan, rb_plan_path *path, const rb_plan_point *point)
{
    if (room_for_one(plan, (void **)&path->points, path->count, &path->cap, sizeof *point))
        path->points[path->count++] = *point;
}

void rb_plan_path_checkpoint(rb_plan *plan, rb_plan_path *path, int32_t time_ms)
{
    if (room_for_one(plan, (void **)&path->checkpoint_ms, path->checkpoints, &path->checkpoint_cap,
                     sizeof *path->checkpoint_ms))
        path->checkpoint_ms[path->checkpoints++] = time_ms;
}

void rb_plan_counts(const rb_plan *plan, size_t counts[RB_PLAN_KINDS], size_t *blocks, size_t *placed_blocks,
                    size_t *items)
{
    memset(counts, 0, sizeof(size_t) * RB_PLAN_KINDS);
    *blocks = *placed_blocks = *items = 0;
    for (size_t i = 0; i < plan->element_count; i++) {
        const rb_plan_element *e = &plan->elements[i];
        counts[e->kind < RB_PLAN_KINDS ? e->kind : RB_PLAN_ROAD]++;
        if (e->block) {
            (*blocks)++;
            *placed_blocks += e->placed;
        } else {
            (*items)++;
        }
    }
}
