/* Placing a diff's operations on two plans (render_diff.h). */
#include "core/render/render_diff.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rb_change_kind_name(rb_change_kind kind)
{
    static const char *const NAMES[] = {"added", "removed", "moved", "changed"};
    return kind <= RB_CHANGE_CHANGED ? NAMES[kind] : "?";
}

/* One list of the first plan while the operations run: where each element now came from. */
typedef struct tracked {
    const char *pointer;
    long *origin;  /* per current element: its index in the first file, -1 for one added since */
    char *changed; /* per current element: a member of it was changed */
    size_t count;
} tracked;

typedef struct tracker {
    tracked *lists;
    size_t count;
    int failed;
} tracker;

static int track_lists(tracker *t, const rb_plan *before)
{
    t->count = before->list_count;
    t->lists = calloc(t->count ? t->count : 1, sizeof *t->lists);
    if (!t->lists) return -1;
    for (size_t i = 0; i < t->count; i++) {
        tracked *l = &t->lists[i];
        size_t n = before->list_lengths[i];
        l->pointer = before->lists[i];
        l->count = n;
        l->origin = malloc((n + 1) * sizeof *l->origin);
        l->changed = calloc(n + 1, 1);
        if (!l->origin || !l->changed) return -1;
        for (size_t k = 0; k < n; k++) l->origin[k] = (long)k;
    }
    return 0;
}

static void untrack(tracker *t)
{
    for (size_t i = 0; i < t->count; i++) {
        free(t->lists[i].origin);
        free(t->lists[i].changed);
    }
    free(t->lists);
}

/* The tracked list `path` is in, the element index it names (*index; the list's length for
 * "-") and whether it goes below the element (*member). NULL when it is in no list. */
static tracked *list_of(tracker *t, const char *path, size_t *index, int *member)
{
    for (size_t i = 0; path && i < t->count; i++) {
        size_t n = strlen(t->lists[i].pointer);
        if (strncmp(path, t->lists[i].pointer, n) != 0 || path[n] != '/') continue;
        const char *token = path + n + 1;
        char *end;
        if (token[0] == '-' && (token[1] == 0 || token[1] == '/')) {
            *index = t->lists[i].count;
            end = (char *)token + 1;
        } else {
            if (token[0] < '0' || token[0] > '9') return NULL;
            *index = strtoul(token, &end, 10);
        }
        if (*end != 0 && *end != '/') return NULL;
        *member = *end == '/';
        return &t->lists[i];
    }
    return NULL;
}

/* Room for one more element in a tracked list: its arrays are grown by one. */
static int insert_at(tracked *l, size_t at, long origin, char changed)
{
    long *o = realloc(l->origin, (l->count + 2) * sizeof *o);
    if (o) l->origin = o;
    char *c = o ? realloc(l->changed, l->count + 2) : NULL;
    if (!c) return -1;
    l->changed = c;
    if (at > l->count) at = l->count;
    memmove(l->origin + at + 1, l->origin + at, (l->count - at) * sizeof *o);
    memmove(l->changed + at + 1, l->changed + at, l->count - at);
    l->origin[at] = origin, l->changed[at] = changed;
    l->count++;
    return 0;
}

static void erase_at(tracked *l, size_t at)
{
    if (at >= l->count) return;
    memmove(l->origin + at, l->origin + at + 1, (l->count - at - 1) * sizeof *l->origin);
    memmove(l->changed + at, l->changed + at + 1, l->count - at - 1);
    l->count--;
}

static int room_for_change(rb_changes *c)
{
    if (c->count < c->cap) return 1;
    size_t cap = c->cap ? c->cap * 2 : 16;
    rb_change *more = realloc(c->items, cap * sizeof *more);
    if (!more) return 0;
    c->items = more, c->cap = cap;
    return 1;
}

static void add_change(rb_changes *c, rb_change_kind kind, const rb_plan_element *before,
                       const rb_plan_element *after, const char *pointer, size_t index, long was)
{
    if (!room_for_change(c)) { c->failed = 1; return; }
    size_t size = strlen(pointer) + 24;
    char *path = malloc(size);
    if (!path) { c->failed = 1; return; }
    snprintf(path, size, "%s/%zu", pointer, index);
    if (kind == RB_CHANGE_CHANGED && before && after &&
        (before->x != after->x || before->y != after->y || before->z != after->z))
        kind = RB_CHANGE_MOVED;
    c->items[c->count++] = (rb_change){kind, before, after, path, was};
}

/* The list of `plan` named `pointer`, or UINT32_MAX. */
static uint32_t list_named(const rb_plan *plan, const char *pointer)
{
    for (size_t i = 0; i < plan->list_count; i++)
        if (strcmp(plan->lists[i], pointer) == 0) return (uint32_t)i;
    return UINT32_MAX;
}

static const rb_plan_element *element_of(const rb_plan *plan, uint32_t list, long index)
{
    return list == UINT32_MAX || index < 0 ? NULL : rb_plan_find(plan, list, (uint32_t)index);
}

/* One operation on a tracked list: what became of which element. */
static int track_operation(tracker *t, rb_changes *c, const rb_plan *before, const char *op, const char *path,
                           const char *from)
{
    size_t index = 0, from_index = 0;
    int member = 0, from_member = 0;
    tracked *l = list_of(t, path, &index, &member);
    tracked *source = from ? list_of(t, from, &from_index, &from_member) : NULL;
    if (!l) return 0;
    if (member || !strcmp(op, "replace")) { /* a member of the element, or all of it */
        if (index < l->count) l->changed[index] = 1;
        return 1;
    }
    if (!strcmp(op, "remove")) {
        if (index < l->count && l->origin[index] >= 0) {
            uint32_t list = (uint32_t)(l - t->lists);
            add_change(c, RB_CHANGE_REMOVED, element_of(before, list, l->origin[index]), NULL, l->pointer,
                       (size_t)l->origin[index], -1);
        }
        erase_at(l, index);
        return 1;
    }
    if (!strcmp(op, "move") && source == l && !from_member && from_index < l->count) {
        long origin = l->origin[from_index];
        char changed = l->changed[from_index];
        erase_at(l, from_index);
        return insert_at(l, index, origin, changed) == 0 ? 1 : -1;
    }
    if (!strcmp(op, "add") || !strcmp(op, "copy") || !strcmp(op, "move")) {
        if (!strcmp(op, "move") && source && !from_member) { /* from another list: gone from there */
            erase_at(source, from_index);
        }
        return insert_at(l, index, -1, 0) == 0 ? 1 : -1;
    }
    return 0; /* test: changes nothing */
}

/* After the operations each tracked list is the second file's: the elements added since and
 * those with a changed member. */
static void settle(tracker *t, rb_changes *c, const rb_plan *before, const rb_plan *after)
{
    for (size_t i = 0; i < t->count; i++) {
        tracked *l = &t->lists[i];
        uint32_t later = list_named(after, l->pointer);
        for (size_t k = 0; k < l->count; k++) {
            if (l->origin[k] < 0)
                add_change(c, RB_CHANGE_ADDED, NULL, element_of(after, later, (long)k), l->pointer, k, -1);
            else if (l->changed[k])
                add_change(c, RB_CHANGE_CHANGED, element_of(before, (uint32_t)i, l->origin[k]),
                           element_of(after, later, (long)k), l->pointer, k, l->origin[k]);
        }
    }
}

int rb_changes_find(rb_changes *changes, const json_t *ops, const rb_plan *before, const rb_plan *after)
{
    memset(changes, 0, sizeof *changes);
    changes->facts = json_array();
    tracker t = {0};
    if (!changes->facts || track_lists(&t, before) != 0) {
        untrack(&t);
        return -1;
    }
    size_t i;
    const json_t *op;
    json_array_foreach(ops, i, op) {
        const char *kind = json_string_value(json_object_get(op, "op"));
        const char *path = json_string_value(json_object_get(op, "path"));
        const char *from = json_string_value(json_object_get(op, "from"));
        if (!kind || !path) continue;
        int placed = track_operation(&t, changes, before, kind, path, from);
        if (placed < 0) changes->failed = 1;
        if (placed == 0 && strcmp(kind, "test") != 0) {
            json_t *fact = json_pack("{s:s,s:s}", "op", kind, "path", path);
            if (json_object_get(op, "value")) json_object_set(fact, "value", json_object_get(op, "value"));
            json_array_append_new(changes->facts, fact);
        }
    }
    settle(&t, changes, before, after);
    untrack(&t);
    return changes->failed ? -1 : 0;
}

void rb_changes_free(rb_changes *changes)
{
    for (size_t i = 0; i < changes->count; i++) free(changes->items[i].path);
    free(changes->items);
    json_decref(changes->facts);
    memset(changes, 0, sizeof *changes);
}
