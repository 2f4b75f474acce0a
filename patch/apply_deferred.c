/*
 * What both ways of an apply on a deferred read share (patch/apply_deferred.h): the operations
 * they take, and the parts of a selector they pass deferred elements by.
 */
#include "patch/apply_deferred.h"
#include <string.h>

/* Does `value` hold an asset file ({"$file": ...}), which apply_assets.c reads against the
 * model before the stack? */
static int names_a_file(const json_t *value)
{
    const char *key;
    json_t *member;
    size_t i;
    if (json_is_object(value)) {
        json_object_foreach((json_t *)value, key, member)
            if (!strcmp(key, "$file") || names_a_file(member)) return 1;
    } else if (json_is_array(value)) {
        json_array_foreach(value, i, member)
            if (names_a_file(member)) return 1;
    }
    return 0;
}

/* A "replace" or a "test" on a path, and nothing else: no structural edit, whose in-step lists and
 * followers reach elsewhere; no "each"; no asset file. */
static int plain_operation(const json_t *op)
{
    const char *kind = json_string_value(json_object_get(op, "op"));
    if (!kind || (strcmp(kind, "replace") != 0 && strcmp(kind, "test") != 0)) return 0;
    if (!json_string_value(json_object_get(op, "path"))) return 0;
    const char *key;
    json_t *member;
    json_object_foreach((json_t *)op, key, member)
        if (strcmp(key, "op") != 0 && strcmp(key, "path") != 0 && strcmp(key, "value") != 0) return 0;
    return !names_a_file(json_object_get(op, "value"));
}

size_t apply_deferred_candidate(const apply_request *rq, int (*also)(const json_t *op, const void *context),
                                const void *context)
{
    if (rq->resolved || rq->want_doc) return 0;
    size_t count = 0;
    for (size_t p = 0; p < rq->count; p++) {
        const json_t *ops = rq->patches[p]->ops;
        if (!json_is_array(ops)) return 0;
        for (size_t i = 0; i < json_array_size(ops); i++, count++) {
            const json_t *op = json_array_get(ops, i);
            if (!plain_operation(op) || (also && !also(op, context))) return 0;
        }
    }
    return count;
}

int apply_deferred_selector(const char *raw, size_t length, apply_selector *out)
{
    if (length < 5 || raw[0] != '[' || raw[length - 1] != ']') return 0;
    const char *equals = memchr(raw, '=', length);
    if (!equals || equals == raw + 1 || equals == raw + length - 2 || memchr(raw + 1, '[', length - 1) ||
        memchr(raw, ']', length - 1))
        return 0;
    *out = (apply_selector){raw + 1, equals + 1, (size_t)(equals - raw - 1), (size_t)(raw + length - 2 - equals)};
    for (size_t i = 0; i < out->key_length; i++) /* a member's name: letters, digits, '_' */
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", out->key[i])) return 0;
    return 1;
}
