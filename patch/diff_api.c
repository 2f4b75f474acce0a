/* The public diff (include/rebyte.h rb_doc_diff): two files checked to be comparable, their
 * models walked together (patch/model_diff.c), the operations pinned and put in the envelope. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "core/doc/doc.h"
#include "core/error.h"
#include "core/json/json.h"
#include "core/model/model_equal.h"
#include "patch/model_diff.h"

/* What the file holds as its format names it (rb_format.summary's "class": a map, a replay),
 * malloc'd; NULL when the format names none. */
static char *class_of(const rb_doc *doc)
{
    json_t *summary = doc->format->summary ? doc->format->summary(doc) : NULL;
    const char *name = json_string_value(json_object_get(summary, "class"));
    char *out = name ? strdup(name) : NULL;
    json_decref(summary);
    return out;
}

/* Two files a diff can join: one format, and the same class of object in it (the diff of a map
 * and a replay would be the whole of both). */
static int diffable(const rb_doc *a, const rb_doc *b, rb_error *err)
{
    if (a->format != b->format) {
        rb_error_set(err, RB_E_USAGE, a->file_name, NULL, "%s is %s, %s is %s: diff needs two files of one format",
                     a->file_name, a->format->name, b->file_name, b->format->name);
        return 0;
    }
    char *class_a = class_of(a), *class_b = class_of(b);
    int same = !class_a || !class_b || strcmp(class_a, class_b) == 0;
    if (!same)
        rb_error_set(err, RB_E_USAGE, a->file_name, NULL,
                     "%s holds a %s, %s a %s: diff needs two files of one class", a->file_name, class_a,
                     b->file_name, class_b);
    free(class_a);
    free(class_b);
    return same;
}

/* `full` is A's model (`a` itself, or a full read of a deferred `a`). */
static rb_status diff_models(const rb_doc *a, const rb_doc *full, const uint8_t *a_bytes, size_t a_size,
                             const rb_doc *b, unsigned flags, char **patch_json, size_t *operation_count,
                             rb_error *err)
{
    *patch_json = NULL;
    *operation_count = 0;
    if (!diffable(full, b, err)) return RB_E_USAGE;
    json_t *ops;
    char why[512];
    if (rb_model_equal(full->root, b->root, "", NULL)) {
        ops = json_array();
    } else if (rb_model_diff_docs(full, a_bytes, a_size, b,
                                  flags & RB_DIFF_BY_IDENTITY ? RB_MODEL_DIFF_IDENTITY : RB_MODEL_DIFF_PLAIN, &ops, why,
                                  sizeof why) != 0) {
        rb_error_set(err, RB_E_MODEL, a->file_name, NULL, "%s", why);
        return RB_E_MODEL;
    }
    json_t *out = ops;
    if (!(flags & RB_DIFF_PLAIN) && json_array_size(ops)) { /* a diff to share: every operation pinned */
        json_t *pinned;
        if (rb_model_diff_pin(full, a_bytes, a_size, ops, &pinned, why, sizeof why) != 0) {
            json_decref(ops);
            rb_error_set(err, RB_E_MODEL, a->file_name, NULL, "%s", why);
            return RB_E_MODEL;
        }
        json_decref(ops);
        out = ops = pinned;
    }
    *operation_count = json_array_size(ops);
    if (!(flags & RB_DIFF_PLAIN)) {
        char crc[16];
        snprintf(crc, sizeof crc, "0x%08x", (unsigned)crc32(0, a_bytes, (uInt)a_size));
        out = json_pack("{s:i,s:{s:s,s:I,s:s,s:s},s:o}", "rebytePatch", 1, "base", "format", a->format->name, "size",
                        (json_int_t)a_size, "crc32", crc, "addressing",
                        flags & RB_DIFF_BY_IDENTITY ? "identity" : "index", "operations", ops);
    }
    *patch_json = rb_json_print_text(out);
    json_decref(out);
    if (!*patch_json) { rb_error_set(err, RB_E_NOMEM, a->file_name, NULL, "out of memory"); return RB_E_NOMEM; }
    return RB_OK;
}

rb_status rb_doc_diff(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, unsigned flags,
                      char **patch_json, size_t *operation_count, rb_error *err)
{
    if (patch_json) *patch_json = NULL;
    if (rb_doc_refuse_deferred(b, "diff", err)) return RB_E_DEFERRED;
    /* A deferred A is not expanded (it is const): A is read in full once here */
    rb_doc *spare = NULL;
    if (a->deferred_units) {
        rb_read_options ro = {.file_name = a->file_name, .limits = &a->limits};
        rb_error read_err;
        if (!(spare = rb_doc_parse_as(a->format, a_bytes, a_size, &ro, &read_err))) {
            if (err) rb_error_copy(err, &read_err);
            return read_err.status;
        }
    }
    rb_status st = diff_models(a, spare ? spare : a, a_bytes, a_size, b, flags, patch_json, operation_count, err);
    rb_doc_free(spare);
    return st;
}
