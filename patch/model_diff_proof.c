/*
 * A diff proven by apply (docs/usage.md "Diffs"): what apply makes of A's file with a patch, read
 * back, and whether that is B. Both the settling (model_diff_settle.c) and the pictures
 * (model_diff_pictures.c) ask it, so it sits below them.
 */
#include <stdlib.h>
#include <string.h>
#include "patch/model_diff.h"
#include "patch/apply.h"
#include "core/json/json.h"
#include "core/model/model_equal.h"

/* The model apply makes of A's file with `ops` (rb_apply: the format's description builds what
 * the model engine cannot, an element with other members than its neighbours), read back; its
 * bytes in *bytes (they outlive it). NULL when apply refuses the operations (why in *refusal,
 * when given). */
rb_doc *rb_model_diff_applied(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const json_t *ops,
                               uint8_t **bytes, rb_error *refusal)
{
    char *text = json_dumps(ops, JSON_COMPACT);
    rb_error err = {0};
    rb_patch *patch = text ? rb_patch_parse(text, strlen(text), "the diff", &err) : NULL;
    const rb_patch *const patches[1] = {patch};
    rb_apply_result result = RB_APPLY_RESULT_INIT;
    rb_doc *got = NULL;
    *bytes = NULL;
    if (patch && rb_apply(a_bytes, a_size, a->file_name, patches, 1, NULL, &result, &err) == RB_OK) {
        rb_read_options ro = {.file_name = a->file_name, .limits = &a->limits};
        got = rb_doc_parse_as(a->format, result.bytes, result.bytes_size, &ro, &err);
        if (got) {
            *bytes = result.bytes;
            result.bytes = NULL;
        }
    }
    rb_apply_result_free(&result);
    rb_patch_free(patch);
    free(text);
    if (!got && refusal) *refusal = err;
    return got;
}

int rb_model_diff_proven(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, const json_t *ops)
{
    uint8_t *bytes;
    rb_doc *got = rb_model_diff_applied(a, a_bytes, a_size, ops, &bytes, NULL);
    int same = got && rb_model_same(got->root, b->root);
    rb_doc_free(got);
    free(bytes);
    return same;
}
