/* Structural difference of two JSON documents as an RFC 6902 patch, element by element: for
 * plain JSON (the whole-model apply's list of changes). Files are diffed on their models, where
 * list elements are matched (patch/model_diff.c). */
#include "jsondiff.h"
#include <stdlib.h>
#include <string.h>
#include "jsonpatch.h"

/* RFC 6901: '~' -> "~0", '/' -> "~1". */
static char *child_pointer(const char *parent, const char *token)
{
    size_t n = strlen(parent) + 2 * strlen(token) + 2;
    char *p = malloc(n);
    if (!p) return NULL;
    char *o = p + strlen(parent);
    memcpy(p, parent, strlen(parent));
    *o++ = '/';
    for (const char *t = token; *t; t++) {
        if (*t == '~') { *o++ = '~'; *o++ = '0'; }
        else if (*t == '/') { *o++ = '~'; *o++ = '1'; }
        else *o++ = *t;
    }
    *o = 0;
    return p;
}

static void add_op(json_t *ops, const char *op, const char *path, const json_t *value)
{
    json_t *o = json_pack("{s:s,s:s}", "op", op, "path", path);
    if (value) json_object_set(o, "value", (json_t *)value);
    json_array_append_new(ops, o);
}

static void diff_objects(const json_t *a, const json_t *b, json_t *ops, const char *path)
{
    const char *k;
    json_t *va;
    json_object_foreach((json_t *)a, k, va) {
        char *p = child_pointer(path, k);
        json_t *vb = json_object_get(b, k);
        if (!vb) add_op(ops, "remove", p, NULL);
        else rb_json_diff(va, vb, ops, p);
        free(p);
    }
    json_t *vb;
    json_object_foreach((json_t *)b, k, vb) {
        if (json_object_get(a, k)) continue;
        char *p = child_pointer(path, k);
        add_op(ops, "add", p, vb);
        free(p);
    }
}

static void diff_arrays(const json_t *a, const json_t *b, json_t *ops, const char *path)
{
    size_t na = json_array_size(a), nb = json_array_size(b);
    size_t common = na < nb ? na : nb;
    char index[32];
    for (size_t i = 0; i < common; i++) {
        snprintf(index, sizeof index, "%zu", i);
        char *p = child_pointer(path, index);
        rb_json_diff(json_array_get(a, i), json_array_get(b, i), ops, p);
        free(p);
    }
    for (size_t i = na; i > common; i--) { /* remove from the end so indices stay valid */
        snprintf(index, sizeof index, "%zu", i - 1);
        char *p = child_pointer(path, index);
        add_op(ops, "remove", p, NULL);
        free(p);
    }
    for (size_t i = common; i < nb; i++) {
        char *p = child_pointer(path, "-");
        add_op(ops, "add", p, json_array_get(b, i));
        free(p);
    }
}

void rb_json_diff(const json_t *a, const json_t *b, json_t *ops, const char *path)
{
    if (json_is_object(a) && json_is_object(b)) diff_objects(a, b, ops, path);
    else if (json_is_array(a) && json_is_array(b)) diff_arrays(a, b, ops, path);
    else if (!rb_json_equal(a, b)) add_op(ops, "replace", path, b);
}
