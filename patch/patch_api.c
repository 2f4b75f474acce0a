/* The public patch API (include/rebyte.h): patch files, apply, diff and resolve. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "patch/apply.h"
#include "core/error.h"
#include "core/json/json.h"
#include "core/options.h"
#include "core/model/model_equal.h"
#include "patch/model_edit.h"
#include "patch/portable.h"
#include "patch/selector.h"
#include "patch/jsonpatch.h"

/* ---------- patch files ---------- */

rb_patch *rb_patch_parse(const char *text, size_t size, const char *name, rb_error *err)
{
    json_error_t jerr;
    json_t *file = json_loadb(text, size, JSON_ALLOW_NUL, &jerr);
    if (!file) {
        rb_error_set(err, RB_E_USAGE, name, NULL, "not JSON: %d:%d: %s", jerr.line, jerr.column, jerr.text);
        return NULL;
    }
    rb_patch *patch = calloc(1, sizeof(*patch));
    if (!patch || !(patch->name = strdup(name ? name : "the patch"))) {
        free(patch);
        json_decref(file);
        rb_error_set(err, RB_E_NOMEM, name, NULL, "out of memory");
        return NULL;
    }
    patch->file = file;
    /* a relative {"$file": F} names a file beside the patch (docs/usage.md "Assets") */
    rb_json_resolve_files(file, name);
    if (rb_patch_parts(file, &patch->ops, &patch->base) != 0) {
        rb_error_set(err, RB_E_USAGE, name, NULL, "neither a JSON Patch array nor a rebyte patch object");
        rb_patch_free(patch);
        return NULL;
    }
    return patch;
}

void rb_patch_free(rb_patch *patch)
{
    if (!patch) return;
    json_decref(patch->file);
    free(patch->name);
    free(patch);
}

const char *rb_patch_name(const rb_patch *patch) { return patch->name; }

/* ---------- apply ---------- */

static void outcome_reset(apply_outcome *out, int want_changes)
{
    free(out->bytes);
    rb_buf_free(&out->lines);
    json_decref(out->changes);
    json_decref(out->rules_before);
    memset(out, 0, sizeof(*out));
    rb_buf_init(&out->lines);
    if (want_changes) out->changes = json_array();
}

static void pass_lines(const apply_outcome *out, const rb_apply_options *o)
{
    if (!o || !o->report || !out->lines.size) return;
    const char *p = (const char *)out->lines.data, *end = p + out->lines.size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char *line = len ? strndup(p + 1, len - 1) : NULL; /* after the kind (apply_outcome.c put_line) */
        if (line) o->report(o->report_context, *p == 'W', line);
        free(line);
        p += len + 1;
    }
}

rb_status rb_apply(const uint8_t *data, size_t size, const char *file_name, const rb_patch *const *patches,
                   size_t count, const rb_apply_options *options, rb_apply_result *result, rb_error *err)
{
    rb_apply_options taken;
    char why[200];
    if (!result || !rb_result_take(result, sizeof *result, sizeof *result, "rb_apply_result", why, sizeof why) ||
        rb_options_take(&taken, sizeof taken, options, sizeof taken, "rb_apply_options", why, sizeof why)) {
        if (!result) snprintf(why, sizeof why, "rb_apply: no result");
        rb_error_set(err, RB_E_USAGE, file_name, NULL, "%s", why);
        return RB_E_USAGE;
    }
    options = &taken;
    apply_request rq = {data, size, file_name ? file_name : "", patches, count, options, 0};
    apply_outcome out = {0};
    outcome_reset(&out, options->want_changes);
    int rc = apply_on_model(&rq, &out);
    pass_lines(&out, options);
    rb_buf_free(&out.lines);
    if (rc != 0) {
        if (err) {
            rb_error_copy(err, &out.error);
            if (!err->status) err->status = RB_E_MODEL;
            if (!err->file[0]) snprintf(err->file, sizeof err->file, "%s", rq.name);
        }
        free(out.bytes);
        json_decref(out.changes);
        json_decref(out.rules_before);
        return out.error.status ? out.error.status : RB_E_MODEL;
    }
    result->bytes = out.bytes;
    result->bytes_size = out.size;
    result->operations = out.operations;
    result->drafts = out.drafts;
    snprintf(result->first_draft, sizeof result->first_draft, "%s", out.first_draft);
    if (out.changes) result->changes = json_dumps(out.changes, JSON_ENCODE_ANY | JSON_COMPACT);
    json_decref(out.changes);
    json_decref(out.rules_before);
    return RB_OK;
}

void rb_apply_result_free(rb_apply_result *result)
{
    if (!result) return;
    free(result->bytes);
    free(result->changes);
    size_t size = result->size;
    memset(result, 0, sizeof(*result));
    result->size = size; /* ready for another rb_apply */
}

/* ---------- resolve ---------- */

/* The patch run by apply's engine on a fresh read of the document's file, stopped after the
 * stack: what it carried out, each operation plain (selectors and names as indexes, "each" one
 * operation per match, "offset" a "replace" with the value computed in the field's type). */
static rb_status resolve_on_file(const rb_doc *doc, const rb_patch *patch, char **plain_json, rb_error *err)
{
    *plain_json = NULL;
    if (!doc->section_count || !doc->sections[0].data) {
        rb_error_set(err, RB_E_USAGE, doc->file_name, NULL, "resolve needs a document read from a file");
        return RB_E_USAGE;
    }
    const rb_patch *const patches[1] = {patch};
    rb_apply_options options = RB_APPLY_OPTIONS_INIT;
    json_t *resolved = json_array();
    apply_request rq = {doc->sections[0].data, doc->sections[0].size, doc->file_name, patches, 1, &options, 0,
                        resolved};
    apply_outcome out = {0};
    rb_buf_init(&out.lines);
    rb_status st = RB_OK;
    if (!resolved) {
        rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory");
        st = RB_E_NOMEM;
    } else if (apply_on_model(&rq, &out) != 0) {
        if (err) rb_error_copy(err, &out.error);
        if (err && !err->file[0]) snprintf(err->file, sizeof err->file, "%s", doc->file_name);
        st = out.error.status ? out.error.status : RB_E_MODEL;
    } else if (!(*plain_json = rb_json_print_text(resolved))) {
        rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory");
        st = RB_E_NOMEM;
    }
    rb_buf_free(&out.lines);
    json_decref(resolved);
    return st;
}

rb_status rb_patch_resolve(const rb_doc *doc, const rb_patch *patch, char **plain_json, rb_error *err)
{
    /* run on a fresh read of the file: the document's model is not walked */
    return resolve_on_file(doc, patch, plain_json, err);
}
