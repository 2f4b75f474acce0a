/*
 * The whole-model path of apply (see apply.c): the model rendered as JSON, the patches applied
 * to that with the RFC 6902 engine (patch/jsonpatch.c, stacked by patch/portable.c), the model
 * rebuilt from it through the format's description — which validates every type, range and
 * version — then written and verified like the model path. It takes what the model path does not
 * do and says why a patch is refused.
 */
#define _GNU_SOURCE /* open_memstream: the engine's report lines are kept, not printed */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "apply.h"
#include "companions.h"
#include "../core/json.h"
#include "jsondiff.h"
#include "jsonpatch.h"
#include "portable.h"

/* Runs `report_into` with a FILE whose text goes to the outcome's lines. */
typedef struct captured {
    FILE *file;
    char *text;
    size_t size;
} captured;

static FILE *capture_begin(captured *c)
{
    memset(c, 0, sizeof(*c));
    c->file = open_memstream(&c->text, &c->size);
    return c->file;
}

/* The captured lines join the outcome's, each of the kind given. */
static void capture_end(captured *c, apply_outcome *out, int warning)
{
    if (c->file) fclose(c->file);
    for (char *line = c->text, *save = NULL; (line = strtok_r(line, "\n", &save)); line = NULL) {
        if (warning) apply_warning(out, "%s", line);
        else apply_line(out, "%s", line);
    }
    free(c->text);
}

static int check_base_on_json(const apply_request *rq, json_t *model, const rb_patch *patch, apply_outcome *out)
{
    if (!patch->base || apply_base_matches(rq, patch)) return 0;
    const char *crc_text = json_string_value(json_object_get(patch->base, "crc32"));
    apply_warning(out, "%s: not the base %s was made from (%s); checking the values it relies on", rq->name, patch->name,
               crc_text ? crc_text : "no digest");
    captured c;
    size_t failing = rb_check_pins(model, patch->ops, capture_begin(&c));
    capture_end(&c, out, 1);
    return apply_pins_verdict(rq, patch, failing, out);
}

/* The format's companions of `op`, then its followers (rb_format.followers), read from the JSON
 * rendering. A refusal by the followers comes back as a `test` that fails (the place must hold
 * the reason), so the stack stops with the reason in its message. */
static json_t *companions_on_json(void *format, const json_t *doc, const json_t *op, const char *path, const char *from)
{
    const rb_format *f = format;
    rb_model_view view = companions_json_view(doc);
    json_t *ops = companions_for(f, &view, op, path, from);
    if (!f->followers) return ops;
    char why[600];
    json_t *more = f->followers(NULL, doc, json_string_value(json_object_get(op, "op")), path,
                                json_object_get(op, "value"), why, sizeof why);
    if (!more && why[0]) more = json_pack("[{s:s,s:s,s:s}]", "op", "test", "path", path, "value", why);
    if (!more) return ops;
    if (!ops) return more;
    json_array_extend(ops, more);
    json_decref(more);
    return ops;
}

static int stack_on_json(const apply_request *rq, const rb_format *format, json_t **model, apply_outcome *out)
{
    const json_t **files = calloc(rq->count ? rq->count : 1, sizeof(json_t *));
    const char **names = calloc(rq->count ? rq->count : 1, sizeof(char *));
    if (!files || !names) {
        free(files);
        free(names);
        apply_fail(out, RB_E_NOMEM, "out of memory");
        return -1;
    }
    for (size_t p = 0; p < rq->count; p++) {
        files[p] = rq->patches[p]->file;
        names[p] = rq->patches[p]->name;
        for (size_t i = 0; i < json_array_size(rq->patches[p]->ops); i++) {
            const char *kind = json_string_value(json_object_get(json_array_get(rq->patches[p]->ops, i), "op"));
            out->operations += kind && strcmp(kind, "test") != 0;
        }
    }
    rb_conflict_policy policy = rq->options ? (rb_conflict_policy)rq->options->conflicts : RB_CONFLICT_STOP;
    char why[1400];
    captured c;
    FILE *report = rq->count > 1 ? capture_begin(&c) : NULL;
    rb_stack_companions companions = {companions_on_json, (void *)format};
    int rc = rb_apply_stack(model, (const json_t *const *)files, names, (int)rq->count, policy, report, &companions,
                            why, sizeof why);
    if (report) capture_end(&c, out, 0);
    if (rc != 0) apply_fail(out, RB_E_MODEL, "%s", why);
    free(files);
    free(names);
    return rc;
}

/* The dry run's list: each change with the value it replaces. */
static json_t *changes_between(json_t *before, const json_t *after)
{
    json_t *ops = json_array();
    rb_json_diff(before, after, ops, "");
    for (size_t i = 0; i < json_array_size(ops); i++) {
        json_t *op = json_array_get(ops, i);
        json_t *old = rb_json_pointer_get(before, json_string_value(json_object_get(op, "path")), NULL, 0);
        if (old) json_object_set(op, "was", old);
    }
    return ops;
}

static int rebuild_write_verify(const apply_request *rq, rb_doc *original, json_t *model, rb_doc **patched,
                                apply_outcome *out)
{
    *patched = rb_doc_from_json(original->format, model, original, rq->name, &out->error);
    if (!*patched) return -1;
    if (apply_records_unchanged(rq, *patched, out) || apply_rules_after(rq, *patched, out)) return -1;
    rb_error err;
    if (rb_doc_write(*patched, NULL, &out->bytes, &out->size, &err) != RB_OK) {
        out->error = err;
        return -1;
    }
    return apply_verify(rq, *patched, out);
}

int apply_on_json(const apply_request *rq, apply_outcome *out)
{
    rb_read_options ro = {.file_name = rq->name};
    rb_doc *doc = rb_doc_parse(rq->data, rq->size, &ro, &out->error);
    if (!doc) return APPLY_FAILED;
    json_t *model = rb_model_to_json(doc, doc->root, RB_BLOBS_REF);
    json_object_set_new(model, "$format", json_string(doc->format->name));
    json_t *before = rq->options && rq->options->want_changes ? json_deep_copy(model) : NULL;
    rb_doc *patched = NULL;
    int rc = 0;
    for (size_t p = 0; p < rq->count && rc == 0; p++) rc = check_base_on_json(rq, model, rq->patches[p], out);
    if (rc == 0) apply_rules_before(doc, out);
    if (rc == 0) rc = stack_on_json(rq, doc->format, &model, out);
    if (rc == 0) rc = rebuild_write_verify(rq, doc, model, &patched, out);
    if (rc == 0 && before) out->changes = changes_between(before, model);
    json_decref(before);
    json_decref(model);
    if (rc == 0 && rq->want_doc) {
        rb_doc_keep_alive(patched, doc); /* the patched model refers to the original's bytes */
        patched->blob_source = NULL;
        out->doc = patched;
    } else {
        rb_doc_free(patched);
        rb_doc_free(doc);
    }
    return rc == 0 ? APPLY_DONE : APPLY_FAILED;
}
