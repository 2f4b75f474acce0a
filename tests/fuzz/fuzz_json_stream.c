/*
 * libFuzzer harness for the piecewise JSON reader of `rebyte build` (core/json/json_stream.c), against
 * jansson reading the whole text: with sizes small enough that every object is read member by
 * member and every array element by element, a text jansson reads must give the same tree, walked
 * through the reader; a text it refuses must be refused somewhere on that walk, with a reason.
 * Either way nothing may crash or leak.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/json/json_stream.h"

/* Every array of `v` filled through the loader; 1 when it equals `whole` (NULL: no tree to
 * compare with, the walk alone). 0 with `why` set when the reader refused. */
static int walk(rb_json_loader *l, json_t *v, const json_t *whole, char *why, size_t why_size)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *m;
        if (whole && json_object_size(v) != json_object_size(whole)) abort();
        json_object_foreach(v, k, m) if (!walk(l, m, whole ? json_object_get(whole, k) : NULL, why, why_size)) return 0;
        return 1;
    }
    if (!json_is_array(v)) {
        if (whole && !json_equal(v, whole)) abort();
        return 1;
    }
    if (whole && json_array_size(v) != json_array_size(whole)) abort();
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *e = rb_json_loader_element(l, v, i, why, why_size);
        if (!e) {
            if (!why[0]) abort(); /* an element that exists must come, or say why not */
            return 0;
        }
        if (!walk(l, e, whole ? json_array_get(whole, i) : NULL, why, why_size)) return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    /* the first byte picks the sizes, so small texts reach every path */
    uint64_t at_once = 1 + (data[0] & 15), window = 1 + (data[0] >> 4) * 4;
    const char *text = (const char *)data + 1;
    size--;
    json_t *whole = json_loadb(text, size, JSON_ALLOW_NUL | JSON_DECODE_ANY, NULL);
    rb_json_loader *l = rb_json_loader_memory(text, size, "fuzz.json");
    if (!l) abort();
    rb_json_loader_set_sizes(l, at_once, window);
    char why[256] = "";
    json_t *root = rb_json_loader_root(l, why, sizeof why);
    int read = root && walk(l, root, whole, why, sizeof why);
    if (whole && !read) abort();  /* jansson reads it: so must the reader */
    if (!whole && read) abort();  /* and what it refuses, the reader refuses */
    if (!read && !why[0]) abort(); /* a refusal says why */
    json_decref(root);
    rb_json_loader_free(l);
    json_decref(whole);
    return 0;
}
