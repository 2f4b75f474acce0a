/*
 * Annotations in patches (docs/usage.md "Annotations in patches"): members whose names start
 * with `$` ($stream, $blob, $id, ...) are how the JSON view spells what the writer derives or how
 * a value is stored, not fields. A patch that edits one would be built by the description, which
 * reads a few of them and ignores the rest: such an operation would report success and change
 * nothing, and the draft it opened would change how later operations are checked. So they are
 * refused, naming the path, before anything is read; the one documented input is kept: removing
 * a stream's "$stream" (or its "original") has the stream encoded again.
 */
#include <string.h>
#include "patch/apply_annotations.h"
#include "core/error.h"
#include "core/model/pointer.h"
#include "patch/portable.h"

static int token_is(const char *raw, size_t length, const char *name)
{
    return length == strlen(name) && memcmp(raw, name, length) == 0;
}

/* The first `$` token of `pointer` and whether it is the stream's part a removal may take
 * ("$stream" last, or "$stream/original" last): 0 no `$` token, 1 a removable one, -1 another. */
static int annotation_in(const char *pointer)
{
    rb_pointer_walk w;
    const char *raw;
    size_t length;
    if (!pointer || rb_pointer_walk_begin(&w, pointer, strlen(pointer), 1) != 0) return 0; /* the engine says why */
    while (rb_pointer_next(&w, &raw, &length) == 1) {
        if (length == 0 || raw[0] != '$') continue;
        if (!token_is(raw, length, "$stream")) return -1;
        if (rb_pointer_at_end(&w)) return 1;
        if (rb_pointer_next(&w, &raw, &length) == 1 && token_is(raw, length, "original") && rb_pointer_at_end(&w))
            return 1;
        return -1;
    }
    return 0;
}

/* The spellings a value may hold, which the description reads; their insides are theirs
 * (docs/usage.md "The model and its JSON view"). */
static int read_spelling(const char *key)
{
    static const char *const spellings[] = {"$blob", "$base64", "$file", "$png", "$splice", "$hex", "$id", "$stream", "$format", "$source"};
    for (size_t i = 0; i < sizeof spellings / sizeof *spellings; i++)
        if (strcmp(key, spellings[i]) == 0) return 1;
    return 0;
}

/* The first `$` member of `value` (at any depth) that no description reads, or NULL. */
static const char *unread_annotation(const json_t *value, int depth)
{
    const char *key, *found = NULL;
    json_t *member;
    size_t i;
    if (depth > 256) return NULL; /* deeper than any model: the build refuses it */
    if (json_is_array(value))
        json_array_foreach(value, i, member) if (!found) found = unread_annotation(member, depth + 1);
    json_object_foreach((json_t *)value, key, member) {
        if (found) break;
        if (key[0] != '$') found = unread_annotation(member, depth + 1);
        else if (!read_spelling(key)) found = key;
    }
    return found;
}

static int refusal(const json_t *op, char *why, size_t why_size)
{
    const char *path = json_string_value(json_object_get(op, "path"));
    const char *kind = json_string_value(json_object_get(op, "op"));
    const json_t *value = json_object_get(op, "value");
    /* a diff pins a long value by its digest: a test reads that pin, no description builds it */
    int digest_pin = kind && strcmp(kind, "test") == 0 && rb_pin_is_digest(value);
    const char *unread = digest_pin ? NULL : unread_annotation(value, 0);
    if (unread) {
        snprintf(why, why_size, "%s: the value's member \"%.100s\" is an annotation no description reads (a $ member "
                 "is not a field): remove it", path ? path : "?", unread);
        return 1;
    }
    const char *from = json_string_value(json_object_get(op, "from"));
    int in_path = annotation_in(path), in_from = annotation_in(from);
    if (in_path == 1 && kind && strcmp(kind, "remove") == 0) in_path = 0;
    const char *named = in_path ? path : in_from ? from : NULL;
    if (!named) return 0;
    snprintf(why, why_size,
             "%s: annotations ($ members) are read-only in patches (the one change allowed: remove a stream's "
             "$stream, or its $stream/original, to have the stream encoded again)",
             named);
    return 1;
}

int apply_refuse_annotation_ops(const apply_request *rq, rb_error *err)
{
    for (size_t p = 0; p < rq->count; p++) {
        const rb_patch *patch = rq->patches[p];
        for (size_t i = 0; i < json_array_size(patch->ops); i++) {
            char why[600];
            if (!refusal(json_array_get(patch->ops, i), why, sizeof why)) continue;
            rb_error_set(err, RB_E_MODEL, rq->name, NULL, "%s: operation %zu: %s", patch->name, i, why);
            return -1;
        }
    }
    return 0;
}
