/*
 * One operation for every match, relative edits, and names for what was added
 * (docs/usage.md "One patch, every element"), written once over a small interface (each.h) that
 * the model (patch/apply.c) and plain JSON (patch/portable.c) answer.
 *
 * An operation with "each": true may have selectors that match any number of elements, and
 * "[*]" tokens that match every element of a list; it is expanded, on the document as the
 * operations before it left it, into one plain operation per match (the cross product of its
 * selectors, in document order). An "offset" becomes a "replace" with the value computed
 * through the field's type; "count" states how many operations the expansion must make. An
 * add, copy or move with "as": NAME names what it put in place; a later path "@NAME/..." starts
 * there. The stack (patch/stack.c) carries out the plain operations one by one, so conflicts,
 * in-step lists and everything derived follow each of them as they follow one written by hand, and
 * `rebyte resolve` prints them.
 */
#include "patch/each.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/pointer.h"

/* ---------- growing lists of paths ---------- */

typedef struct paths {
    char **items;
    size_t count, cap;
} paths;

static int paths_add(paths *p, char *owned)
{
    if (!owned) return -1;
    if (p->count == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 8;
        char **grown = realloc(p->items, cap * sizeof(char *));
        if (!grown) { free(owned); return -1; }
        p->items = grown;
        p->cap = cap;
    }
    p->items[p->count++] = owned;
    return 0;
}

static void paths_free(paths *p)
{
    for (size_t i = 0; i < p->count; i++) free(p->items[i]);
    free(p->items);
    memset(p, 0, sizeof *p);
}

static char *joined(const char *prefix, const char *token, size_t length)
{
    size_t n = strlen(prefix);
    char *s = malloc(n + length + 2);
    if (!s) return NULL;
    memcpy(s, prefix, n);
    s[n] = '/';
    memcpy(s + n + 1, token, length);
    s[n + 1 + length] = 0;
    return s;
}

static char *with_index(const char *prefix, size_t index)
{
    char number[32];
    int n = snprintf(number, sizeof number, "%zu", index);
    return joined(prefix, number, (size_t)n);
}

/* ---------- names ---------- */

struct rb_each_names {
    json_t *paths; /* name -> [plain path, or null once removed] */
};

rb_each_names *rb_each_names_new(void)
{
    rb_each_names *names = calloc(1, sizeof *names);
    if (names && !(names->paths = json_object())) { free(names); return NULL; }
    return names;
}

void rb_each_names_free(rb_each_names *names)
{
    if (!names) return;
    json_decref(names->paths);
    free(names);
}

int rb_each_names_any(const rb_each_names *names) { return names && json_object_size(names->paths) > 0; }

int rb_each_wanted(const json_t *op)
{
    const char *kind = json_string_value(json_object_get(op, "op"));
    const char *path = json_string_value(json_object_get(op, "path"));
    const char *from = json_string_value(json_object_get(op, "from"));
    return json_object_get(op, "each") || json_object_get(op, "count") || json_object_get(op, "as") ||
           (kind && strcmp(kind, "offset") == 0) || (path && path[0] == '@') || (from && from[0] == '@');
}

/* ---------- how an operation moves the indexes of a list ---------- */

/* An element removed (by = -1) or inserted (+1) at `list`/`index`. */
typedef struct shift {
    const char *list;
    size_t list_length;
    size_t index;
    int by;
} shift;

/* The list and index a plain path's last token names: 1 when it is a list position (an index;
 * "-" appends: no position moves), else 0. */
static int shift_of(const char *path, int by, shift *s)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!slash) return 0;
    size_t index;
    if (rb_pointer_index(slash + 1, strlen(slash + 1), &index) != 0) return 0;
    *s = (shift){path, (size_t)(slash - path), index, by};
    return 1;
}

/* `path` after shift `s`: a new string, the same path (NULL returned, *gone 0) when it does not
 * move, or *gone when the element it is in was removed. */
static char *shifted(const char *path, const shift *s, int *gone)
{
    *gone = 0;
    size_t n = s->list_length;
    if (strncmp(path, s->list, n) != 0 || path[n] != '/') return NULL;
    const char *token = path + n + 1, *end = strchr(token, '/');
    size_t length = end ? (size_t)(end - token) : strlen(token), index;
    if (rb_pointer_index(token, length, &index) != 0) return NULL;
    if (s->by < 0 && index == s->index) { *gone = 1; return NULL; }
    if (index < s->index) return NULL;
    size_t moved = s->by < 0 ? index - 1 : index + 1;
    char number[32];
    int m = snprintf(number, sizeof number, "%zu", moved);
    size_t rest = strlen(token + length);
    char *out = malloc(n + 1 + (size_t)m + rest + 1);
    if (!out) return NULL;
    memcpy(out, path, n + 1);
    memcpy(out + n + 1, number, (size_t)m);
    memcpy(out + n + 1 + m, token + length, rest + 1);
    return out;
}

/* A JSON string path moved by `s` in place (set to null when what it names was removed). */
static void shift_member(json_t *holder, const char *key, size_t index, const shift *s)
{
    json_t *v = key ? json_object_get(holder, key) : json_array_get(holder, index);
    const char *path = json_string_value(v);
    if (!path) return;
    int gone;
    char *moved = shifted(path, s, &gone);
    json_t *now = gone ? json_null() : moved ? json_string(moved) : NULL;
    free(moved);
    if (!now) return;
    if (key) json_object_set_new(holder, key, now);
    else json_array_set_new(holder, index, now);
}

/* The removal and insertion a plain operation makes, in the order it makes them. */
static size_t shifts_of(const json_t *op, shift out[2])
{
    const char *kind = json_string_value(json_object_get(op, "op"));
    const char *path = json_string_value(json_object_get(op, "path"));
    const char *from = json_string_value(json_object_get(op, "from"));
    size_t n = 0;
    if (!kind) return 0;
    if (strcmp(kind, "remove") == 0) n += (size_t)shift_of(path, -1, &out[n]);
    if (strcmp(kind, "move") == 0) n += (size_t)shift_of(from, -1, &out[n]);
    if (strcmp(kind, "add") == 0 || strcmp(kind, "copy") == 0 || strcmp(kind, "move") == 0)
        n += (size_t)shift_of(path, +1, &out[n]);
    return n;
}

/* Where plain operation `plain_op` put its element: its path, "-" turned into the index. */
static char *placed_path(const rb_each_source *source, const json_t *plain_op)
{
    const char *path = json_string_value(json_object_get(plain_op, "path"));
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!slash || strcmp(slash, "/-") != 0) return path ? strdup(path) : NULL;
    char *list = strndup(path, (size_t)(slash - path));
    size_t length = 0;
    char *out = list && source->list(source->context, list, &length) == 1 && length ? with_index(list, length - 1) : NULL;
    free(list);
    return out;
}

void rb_each_names_follow(rb_each_names *names, const rb_each_source *source, const json_t *op)
{
    shift s[2];
    size_t n = names ? shifts_of(op, s) : 0;
    const char *kind = json_string_value(json_object_get(op, "op"));
    const char *from = json_string_value(json_object_get(op, "from"));
    int moves = kind && strcmp(kind, "move") == 0 && from;
    char *placed = moves && rb_each_names_any(names) ? placed_path(source, op) : NULL;
    size_t f = from ? strlen(from) : 0;
    const char *name;
    json_t *list;
    json_object_foreach(names ? names->paths : NULL, name, list) {
        for (size_t i = 0; i < json_array_size(list); i++) {
            const char *was = json_string_value(json_array_get(list, i));
            if (placed && was && strncmp(was, from, f) == 0 && (was[f] == '/' || !was[f])) {
                /* the moved element takes its name along */
                size_t m = strlen(placed);
                char *now = malloc(m + strlen(was + f) + 1);
                if (now) {
                    memcpy(now, placed, m);
                    strcpy(now + m, was + f);
                    json_array_set_new(list, i, json_string(now));
                }
                free(now);
                continue;
            }
            for (size_t k = 0; k < n; k++) shift_member(list, NULL, i, &s[k]);
        }
    }
    free(placed);
}

int rb_each_names_bind(rb_each_names *names, const rb_each_source *source, const json_t *op, const json_t *plain_op,
                       size_t k)
{
    const char *name = json_string_value(json_object_get(op, "as"));
    if (!name) return 0;
    json_t *list = k == 0 ? json_array() : json_object_get(names->paths, name);
    if (k == 0 && (!list || json_object_set_new(names->paths, name, list) != 0)) return -1;
    if (!plain_op) return 0; /* nothing matched: the name holds nothing */
    char *placed = placed_path(source, plain_op);
    int rc = placed && list ? json_array_append_new(list, json_string(placed)) : -1;
    free(placed);
    return rc;
}

/* ---------- expanding a pointer ---------- */

/* The paths a name holds, for a path "@NAME/rest": into *out. */
static int from_name(const rb_each_names *names, const char *path, paths *out, const char **rest, char *why,
                     size_t why_size)
{
    const char *slash = strchr(path, '/');
    size_t length = slash ? (size_t)(slash - path - 1) : strlen(path + 1);
    json_t *list = names ? json_object_getn(names->paths, path + 1, length) : NULL;
    *rest = path + 1 + length;
    if (!list) {
        snprintf(why, why_size, "%s: no earlier operation put an element in place \"as\": \"%.*s\"", path, (int)length,
                 path + 1);
        return -1;
    }
    for (size_t i = 0; i < json_array_size(list); i++) {
        const char *at = json_string_value(json_array_get(list, i));
        if (!at) {
            snprintf(why, why_size, "%s: an operation removed what \"%.*s\" named", path, (int)length, path + 1);
            return -1;
        }
        if (paths_add(out, strdup(at)) != 0) { snprintf(why, why_size, "out of memory"); return -1; }
    }
    return 0;
}

/* One token of the pointer on every path so far: a selector or "[*]" on a list is expanded
 * (*selected set), any other token appended as spelled. */
static int expand_token(const rb_each_source *source, const char *whole, const char *raw, size_t n, int each,
                        paths *now, int *selected, char *why, size_t why_size)
{
    paths next = {0};
    int bracket = n >= 2 && raw[0] == '[' && raw[n - 1] == ']';
    int star = bracket && n == 3 && raw[1] == '*';
    *selected = 0;
    for (size_t p = 0; p < now->count; p++) {
        size_t length = 0;
        int list = bracket ? source->list(source->context, now->items[p], &length) : 0;
        if (list < 0 && each) continue; /* no list there: the selector matches nothing */
        if (list != 1) {
            if (paths_add(&next, joined(now->items[p], raw, n)) != 0) goto oom;
            continue;
        }
        *selected = 1;
        if (star && !each) {
            snprintf(why, why_size, "[*] in %s matches every element: the operation needs \"each\": true", whole);
            paths_free(&next);
            return -1;
        }
        size_t *indexes = NULL, count = length;
        if (!star) {
            char *selector = strndup(raw + 1, n - 2);
            int rc = selector ? source->select(source->context, now->items[p], selector, each, &indexes, &count, why,
                                               why_size)
                              : -1;
            if (!selector) snprintf(why, why_size, "out of memory");
            free(selector);
            if (rc != 0) { paths_free(&next); return -1; }
        }
        for (size_t i = 0; i < count; i++)
            if (paths_add(&next, with_index(now->items[p], indexes ? indexes[i] : i)) != 0) { free(indexes); goto oom; }
        free(indexes);
    }
    paths_free(now);
    *now = next;
    return 0;
oom:
    paths_free(&next);
    snprintf(why, why_size, "out of memory");
    return -1;
}

/* Every plain path `path` names, in document order; *last_selected: its last token was a
 * selector on a list. */
static int expand_pointer(const rb_each_source *source, const rb_each_names *names, const char *path, int each,
                          paths *out, int *last_selected, char *why, size_t why_size)
{
    const char *rest = path;
    *last_selected = 0;
    if (path[0] == '@') {
        if (from_name(names, path, out, &rest, why, why_size) != 0) return -1;
        if (out->count != 1 && !each) {
            snprintf(why, why_size, "%s: the name holds %zu elements: the operation needs \"each\": true", path,
                     out->count);
            return -1;
        }
    } else if (paths_add(out, strdup("")) != 0) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    rb_pointer_walk w;
    const char *raw;
    size_t n;
    int next;
    if (rb_pointer_walk_begin(&w, rest, strlen(rest), 1) != 0) {
        snprintf(why, why_size, "path %s must start with '/'", path);
        return -1;
    }
    while ((next = rb_pointer_next(&w, &raw, &n)) == 1)
        if (expand_token(source, path, raw, n, each, out, last_selected, why, why_size) != 0) return -1;
    if (next < 0) { snprintf(why, why_size, "path %s must start with '/'", path); return -1; }
    return 0;
}

/* ---------- the operations ---------- */

/* `op` as a plain operation at `path` (and `from`), its value computed for an offset. */
static json_t *plain_op(const rb_each_source *source, const json_t *op, const char *path, const char *from, char *why,
                        size_t why_size)
{
    json_t *out = json_copy((json_t *)op);
    if (!out) { snprintf(why, why_size, "out of memory"); return NULL; }
    json_object_del(out, "each");
    json_object_del(out, "count");
    json_object_del(out, "as");
    json_object_set_new(out, "path", json_string(path));
    if (from) json_object_set_new(out, "from", json_string(from));
    const char *kind = json_string_value(json_object_get(op, "op"));
    if (kind && strcmp(kind, "offset") == 0) {
        const json_t *by = json_object_get(op, "value");
        json_t *value = by ? source->offset(source->context, path, by, why, why_size) : NULL;
        if (!by) snprintf(why, why_size, "%s: the operation has no value", path);
        if (!value) { json_decref(out); return NULL; }
        json_object_set_new(out, "op", json_string("replace"));
        json_object_set_new(out, "value", value);
    }
    return out;
}

/* Plain paths in reverse document order: token by token, indexes as numbers, a deeper path
 * before the element it is in (qsort of operations by their "path"). */
static int later_place_first(const void *x, const void *y)
{
    const char *a = json_string_value(json_object_get(*(json_t *const *)x, "path"));
    const char *b = json_string_value(json_object_get(*(json_t *const *)y, "path"));
    while (a && b && *a == '/' && *b == '/') {
        size_t la = strcspn(a + 1, "/"), lb = strcspn(b + 1, "/"), ia, ib;
        int numbers = rb_pointer_index(a + 1, la, &ia) == 0 && rb_pointer_index(b + 1, lb, &ib) == 0;
        int c = numbers ? (ia > ib) - (ia < ib) : strncmp(a + 1, b + 1, la < lb ? la : lb);
        if (!c && !numbers) c = (la > lb) - (la < lb);
        if (c) return -c;
        a += 1 + la;
        b += 1 + lb;
    }
    return (b && *b) - (a && *a); /* the one that goes on (deeper) first */
}

/* The operations in the order they are carried out: a removal, or an insertion before each match,
 * from the last place back (no index moves under another; names may hold places in any order); a move or a copy in document order,
 * each one's "from" (an element a match or a name found) moved by what the ones before it removed
 * and inserted, and its "path" too when it names a match (an index written in the patch is a
 * place in the list as it is then, and stays). */
static int order_ops(json_t *ops, const char *kind, int last_selected, int path_is_match, char *why, size_t why_size)
{
    size_t n = json_array_size(ops);
    if (strcmp(kind, "remove") == 0 || (strcmp(kind, "add") == 0 && last_selected)) {
        json_t **sorted = malloc((n ? n : 1) * sizeof(json_t *));
        if (!sorted) { snprintf(why, why_size, "out of memory"); return -1; }
        for (size_t i = 0; i < n; i++) sorted[i] = json_incref(json_array_get(ops, i));
        qsort(sorted, n, sizeof(json_t *), later_place_first);
        for (size_t i = 0; i < n; i++) json_array_set_new(ops, i, sorted[i]);
        free(sorted);
        return 0;
    }
    if (strcmp(kind, "move") != 0 && strcmp(kind, "copy") != 0) return 0;
    for (size_t i = 0; i < n; i++) {
        shift s[2];
        size_t m = shifts_of(json_array_get(ops, i), s);
        for (size_t j = i + 1; j < n; j++) {
            json_t *later = json_array_get(ops, j);
            for (size_t k = 0; k < m; k++) {
                if (path_is_match) shift_member(later, "path", 0, &s[k]);
                shift_member(later, "from", 0, &s[k]);
            }
            if (json_is_null(json_object_get(later, "path")) || json_is_null(json_object_get(later, "from"))) {
                snprintf(why, why_size, "match %zu is inside what match %zu moved", j, i);
                return -1;
            }
        }
    }
    return 0;
}

/* Every (from, path) pair in document order, from outermost. */
static int make_ops(const rb_each_source *source, const json_t *op, int has_from, const paths *froms,
                    const paths *targets, json_t *ops, char *why, size_t why_size)
{
    size_t outer = has_from ? froms->count : 1;
    for (size_t f = 0; f < outer; f++)
        for (size_t t = 0; t < targets->count; t++) {
            json_t *one = plain_op(source, op, targets->items[t], has_from ? froms->items[f] : NULL, why, why_size);
            if (!one || json_array_append_new(ops, one) != 0) return -1;
        }
    return 0;
}

/* "count": how many operations the expansion must make. */
static int count_holds(const json_t *op, size_t made, char *why, size_t why_size)
{
    const json_t *count = json_object_get(op, "count");
    if (!count) return 0;
    if (!json_is_integer(count) || json_integer_value(count) < 0) {
        snprintf(why, why_size, "\"count\" must be a number of matches (0 or more)");
        return -1;
    }
    if ((size_t)json_integer_value(count) == made) return 0;
    snprintf(why, why_size, "\"count\": %lld expected, %zu found", (long long)json_integer_value(count), made);
    return -1;
}

int rb_each_expand(const rb_each_source *source, const rb_each_names *names, const json_t *op, json_t **plain,
                   size_t *matches, char *why, size_t why_size)
{
    *plain = NULL;
    *matches = 0;
    const char *kind = json_string_value(json_object_get(op, "op"));
    const char *path = json_string_value(json_object_get(op, "path"));
    const char *from = json_string_value(json_object_get(op, "from"));
    const json_t *each_member = json_object_get(op, "each");
    int each = json_is_true(each_member), moves = kind && (strcmp(kind, "move") == 0 || strcmp(kind, "copy") == 0);
    if (!kind || !path) { snprintf(why, why_size, "an operation needs \"op\" and \"path\""); return -1; }
    if (each_member && !json_is_boolean(each_member)) {
        snprintf(why, why_size, "\"each\" is true or false");
        return -1;
    }
    const json_t *as = json_object_get(op, "as");
    if (as && (!json_is_string(as) || !json_string_length(as) || strchr(json_string_value(as), '/') ||
               !(moves || strcmp(kind, "add") == 0))) {
        snprintf(why, why_size, "\"as\" names (a text without '/') what an add, a copy or a move puts in place");
        return -1;
    }
    paths targets = {0}, froms = {0};
    int last_selected = 0, from_selected = 0, rc = 0;
    json_t *ops = json_array();
    if (!ops) { snprintf(why, why_size, "out of memory"); return -1; }
    rc = expand_pointer(source, names, path, each, &targets, &last_selected, why, why_size);
    if (rc == 0 && moves && from) rc = expand_pointer(source, names, from, each, &froms, &from_selected, why, why_size);
    if (rc == 0) rc = make_ops(source, op, moves && from, &froms, &targets, ops, why, why_size);
    if (rc == 0) rc = order_ops(ops, kind, last_selected, last_selected || path[0] == '@', why, why_size);
    if (rc == 0) rc = count_holds(op, json_array_size(ops), why, why_size);
    paths_free(&targets);
    paths_free(&froms);
    if (rc != 0) { json_decref(ops); return -1; }
    *plain = ops;
    *matches = json_array_size(ops);
    return 0;
}
