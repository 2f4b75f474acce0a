/*
 * Where the diff's list paths were in A. The walk's operations are sequential (RFC 6902): an
 * index after a removal in the same list names the element that was one further in A. The
 * format's in-step lists (rb_format.in_step) are asked about each list edit on A's model as it
 * was, so the settling asks at A's positions: a block removed after others is looked up where A
 * has it (its flags decide whether the free-block positions follow it), and so is a list inside
 * a chunk after chunks removed (docs/usage.md "Diffs").
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "patch/model_diff_origins.h"

/* One list the operations edited: its A pointer, and for each of its elements now, its index
 * in A (-1: added by the operations). */
struct origin_list {
    char *path;
    long *at;
    size_t count, cap;
};

static origin_list *find_list(const diff_origins *o, const char *path, size_t length)
{
    for (size_t i = 0; i < o->count; i++)
        if (strlen(o->lists[i].path) == length && !strncmp(o->lists[i].path, path, length)) return &o->lists[i];
    return NULL;
}

/* The index token at `p` ("/12"), or -1 (a member name, "-"). */
static long index_at(const char *p, const char **end)
{
    const char *q = p + 1;
    *end = strchr(q, '/');
    if (!*end) *end = q + strlen(q);
    if (q == *end || (*end - q > 1 && *q == '0')) return -1;
    long v = 0;
    for (const char *c = q; c < *end; c++) {
        if (*c < '0' || *c > '9' || v > 100000000) return -1;
        v = v * 10 + (*c - '0');
    }
    return v;
}

int diff_origins_in_a(const diff_origins *o, const char *path, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = path; *p;) {
        const char *end;
        long k = index_at(p, &end);
        const origin_list *l = k >= 0 ? find_list(o, out, n) : NULL;
        int w;
        if (l && (size_t)k < l->count && l->at[k] < 0) return 0; /* an element the operations added */
        if (l && (size_t)k < l->count) w = snprintf(out + n, size - n, "/%ld", l->at[k]);
        else w = snprintf(out + n, size - n, "%.*s", (int)(end - p), p);
        if (w < 0 || (size_t)w >= size - n) return 0;
        n += (size_t)w;
        out[n] = 0;
        p = end;
    }
    if (!*path && size) out[0] = 0;
    return 1;
}

/* The list holding element `path` (its last token split off into *index, -2 for "-"), made
 * when first edited with A's length. NULL when the path is no list element of A. */
static origin_list *list_of(diff_origins *o, const rb_model_view *view, const char *path, long *index)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!slash) return NULL;
    char list[512], in_a[512];
    if ((size_t)(slash - path) >= sizeof list) return NULL;
    snprintf(list, sizeof list, "%.*s", (int)(slash - path), path);
    const char *end;
    *index = !strcmp(slash + 1, "-") ? -2 : index_at(slash, &end);
    if (*index == -1 || !diff_origins_in_a(o, list, in_a, sizeof in_a)) return NULL;
    origin_list *l = find_list(o, in_a, strlen(in_a));
    if (l) return l;
    int present = 0;
    size_t count = view->count(view->context, in_a, &present);
    if (!present) return NULL;
    if (o->count == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 8;
        origin_list *more = realloc(o->lists, cap * sizeof *more);
        if (!more) return NULL;
        o->lists = more;
        o->cap = cap;
    }
    l = &o->lists[o->count];
    *l = (origin_list){strdup(in_a), malloc((count + 16) * sizeof(long)), count, count + 16};
    if (!l->path || !l->at) {
        free(l->path);
        free(l->at);
        return NULL;
    }
    for (size_t i = 0; i < count; i++) l->at[i] = (long)i;
    o->count++;
    return l;
}

static void insert_at(origin_list *l, long index, long origin)
{
    size_t i = index < 0 || (size_t)index > l->count ? l->count : (size_t)index;
    if (l->count == l->cap) {
        long *more = realloc(l->at, (l->cap * 2 + 16) * sizeof *more);
        if (!more) return;
        l->at = more;
        l->cap = l->cap * 2 + 16;
    }
    memmove(l->at + i + 1, l->at + i, (l->count - i) * sizeof *l->at);
    l->at[i] = origin;
    l->count++;
}

static long remove_at(origin_list *l, long index)
{
    if (index < 0 || (size_t)index >= l->count) return -1;
    long origin = l->at[index];
    memmove(l->at + index, l->at + index + 1, (l->count - (size_t)index - 1) * sizeof *l->at);
    l->count--;
    return origin;
}

void diff_origins_edit(diff_origins *o, const rb_model_view *view, const char *kind, const char *path,
                       const char *from)
{
    long to = -1, at = -1;
    int moves = !strcmp(kind, "move"), copies = !strcmp(kind, "copy");
    origin_list *source = moves || copies ? list_of(o, view, from, &at) : NULL;
    long origin = source && at >= 0 && (size_t)at < source->count ? source->at[at] : -1;
    if (moves && source) remove_at(source, at);
    origin_list *l = list_of(o, view, path, &to); /* after the move's removal: its list may be the source's */
    if (!l) return;
    if (!strcmp(kind, "remove")) remove_at(l, to);
    else if (!strcmp(kind, "add") || moves || copies) insert_at(l, to, moves || copies ? origin : -1);
}

void diff_origins_free(diff_origins *o)
{
    for (size_t i = 0; i < o->count; i++) {
        free(o->lists[i].path);
        free(o->lists[i].at);
    }
    free(o->lists);
    *o = (diff_origins){0};
}
