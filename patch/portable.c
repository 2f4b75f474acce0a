/*
 * Patch files (a JSON Patch array, or a fingerprinted rebyte patch) and patches on plain JSON
 * (`rebyte json-patch`): one RFC 6902 patch as the RFC has it (patch/jsonpatch.c), or, with
 * selectors, "each", "offset", "count", names or several patches, apply's stack (patch/stack.c)
 * over the JSON, so the two find the same conflicts and say the same things. Files are patched
 * on their model (patch/apply.c); this is the edge for JSON that is not one.
 */
#include "patch/portable.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "patch/jsonpatch.h"
#include "patch/selector.h"
#include "patch/offset.h"
#include "patch/stack.h"

/* ---------- patch files: plain arrays or fingerprinted objects ---------- */

int rb_patch_parts(const json_t *file, const json_t **ops, const json_t **base)
{
    *base = NULL;
    if (json_is_array(file)) { *ops = file; return 0; }
    if (json_is_object(file) && json_is_array(json_object_get(file, "operations"))) {
        *ops = json_object_get(file, "operations");
        *base = json_object_get(file, "base");
        return 0;
    }
    return -1;
}

/* ---------- pins: the "test" operations ---------- */

/* Does the "test" `op` hold on `doc` (compared as content, pins.h)? */
static int pin_holds(json_t *doc, const json_t *op)
{
    const char *path = json_string_value(json_object_get(op, "path"));
    char *plain = NULL, why[600];
    json_t *actual = NULL;
    if (path && rb_pointer_resolve(doc, path, &plain, why, sizeof why) == 0)
        actual = rb_json_pointer_get(doc, plain, NULL, 0);
    free(plain);
    return actual && rb_values_equal(actual, json_object_get(op, "value"));
}

/* Why a "test" failed: the value the document has there, or why there is none. */
static void test_failure(json_t *doc, const json_t *op, const char *patch, size_t index, char *err, size_t err_size)
{
    const char *path = json_string_value(json_object_get(op, "path"));
    char *want = json_dumps(json_object_get(op, "value"), JSON_ENCODE_ANY | JSON_COMPACT);
    char *plain = NULL, why[600] = "";
    json_t *actual = NULL;
    if (path && rb_pointer_resolve(doc, path, &plain, why, sizeof why) == 0)
        actual = rb_json_pointer_get(doc, plain, why, sizeof why);
    char *got = actual ? json_dumps(actual, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    if (got)
        snprintf(err, err_size, "%s: operation %zu: test failed: %s is %.200s, not %.200s", patch, index,
                 path ? path : "?", got, want ? want : "?");
    else
        snprintf(err, err_size, "%s: operation %zu: test failed: %s does not exist (%s)", patch, index,
                 path ? path : "?", why[0] ? why : "no such place");
    free(want);
    free(got);
    free(plain);
}

/* ---------- the stack on plain JSON (patch/stack.c) ---------- */

/* A thin edge: selectors are found by testing the list's elements (rb_pointer_resolve), and each
 * operation is carried out on the document itself, which the stack copied once (a failure drops
 * the copy). Patches that address large lists by identity are applied to files, on the model,
 * whose selector indexes (patch/model_select.c) make them n log n. */
typedef struct json_stack {
    json_t *work;
    json_t *resolved; /* the operation being carried out, with plain paths */
    FILE *report;
} json_stack;

static int test_on_json(void *context, const char *patch, size_t i, const json_t *op, char *why, size_t why_size)
{
    json_stack *js = context;
    if (pin_holds(js->work, op)) return 0;
    test_failure(js->work, op, patch, i, why, why_size);
    return -1;
}

static int locate_on_json(void *context, const json_t *op, char **plain, char *why, size_t why_size)
{
    json_stack *js = context;
    json_decref(js->resolved);
    js->resolved = rb_json_op_resolve(js->work, op, why, why_size);
    if (!js->resolved) return -1;
    const char *path = json_string_value(json_object_get(js->resolved, "path"));
    if (!path) {
        snprintf(why, why_size, "an operation needs a \"path\" string");
        return -1;
    }
    *plain = strdup(path);
    if (!*plain) snprintf(why, why_size, "out of memory");
    return *plain ? 0 : -1;
}

static int change_on_json(void *context, const char *patch, size_t i, const json_t *op, const char *plain, char *why,
                          size_t why_size)
{
    (void)op;
    (void)plain;
    json_stack *js = context;
    json_t *one = json_pack("[O]", js->resolved);
    char message[900] = "out of memory";
    int rc = one ? rb_json_patch_apply_in_place(&js->work, one, message, sizeof message) : -1;
    json_decref(one);
    if (rc != 0) {
        const char *tail = strncmp(message, "patch[0]", 8) == 0 ? message + 8 : message;
        snprintf(why, why_size, "%s: operation %zu%s%s", patch, i, tail == message ? ": " : "", tail);
    }
    return rc;
}

/* ---------- plain JSON as the expansion of "each" and "offset" sees it (patch/each.c) ---------- */

static int list_on_json(void *context, const char *path, size_t *length)
{
    json_t *v = rb_json_pointer_get(((json_stack *)context)->work, path, NULL, 0);
    if (json_is_array(v)) *length = json_array_size(v);
    return json_is_array(v) ? 1 : v ? 0 : -1;
}

static int select_on_json(void *context, const char *path, const char *selector, int each, size_t **indexes,
                          size_t *count, char *why, size_t why_size)
{
    json_t *list = rb_json_pointer_get(((json_stack *)context)->work, path, NULL, 0);
    if (rb_json_select_all(list, selector, indexes, count) != 0) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (each || *count == 1) return 0;
    rb_selector_refuse(why, why_size, selector, path, *count, "");
    free(*indexes);
    *indexes = NULL;
    return -1;
}

static json_t *offset_on_json(void *context, const char *path, const json_t *by, char *why, size_t why_size)
{
    json_t *v = rb_json_pointer_get(((json_stack *)context)->work, path, why, why_size);
    return v ? rb_offset_json(v, by, path, why, why_size) : NULL;
}

static void line_on_json(void *context, const char *text) { fprintf(((json_stack *)context)->report, "%s\n", text); }

static int apply_stack(json_t **doc, const json_t *const *patches, const char *const *names, int count,
                       rb_conflicts policy, FILE *report, char *err, size_t err_size)
{
    const json_t **ops = calloc(count > 0 ? (size_t)count : 1, sizeof(json_t *));
    if (!ops) { snprintf(err, err_size, "out of memory"); return -1; }
    for (int p = 0; p < count; p++) {
        const json_t *base;
        if (rb_patch_parts(patches[p], &ops[p], &base) != 0) {
            snprintf(err, err_size, "%s is neither a JSON Patch array nor a rebyte patch object", names[p]);
            free(ops);
            return -1;
        }
    }
    json_stack js = {.work = json_deep_copy(*doc), .report = report};
    rb_each_source each = {&js, list_on_json, select_on_json, offset_on_json};
    rb_stack_target target = {&js, test_on_json, locate_on_json, change_on_json, report ? line_on_json : NULL, &each,
                              NULL};
    int rc = js.work ? 0 : -1;
    if (rc != 0) snprintf(err, err_size, "out of memory");
    if (rc == 0) rc = rb_stack_apply(&target, ops, names, (size_t)count, policy, NULL, err, err_size);
    json_decref(js.resolved);
    free(ops);
    if (rc != 0) { json_decref(js.work); return -1; }
    json_decref(*doc);
    *doc = js.work;
    return 0;
}

/* Does `op` name an element by a selector ("/[key=value]"), which the RFC engine would read as an
 * index or a member name? */
static int uses_selector(const json_t *op)
{
    const char *path = json_string_value(json_object_get(op, "path"));
    const char *from = json_string_value(json_object_get(op, "from"));
    return (path && strstr(path, "/[")) || (from && strstr(from, "/["));
}

int rb_json_patch_apply_extended(json_t **doc, const json_t *const *patches, const char *const *names, int count,
                                 rb_conflicts policy, FILE *report, char *err, size_t err_size)
{
    int extended = count != 1 || !json_is_array(patches[0]);
    for (size_t i = 0; !extended && i < json_array_size(patches[0]); i++)
        extended = rb_each_wanted(json_array_get(patches[0], i)) || uses_selector(json_array_get(patches[0], i));
    if (!extended) return rb_json_patch_apply(doc, patches[0], err, err_size);
    return apply_stack(doc, patches, names, count, policy, report, err, err_size);
}
