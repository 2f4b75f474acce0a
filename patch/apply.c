/*
 * Applying patches: one engine for the library and the command line (include/rebyte.h).
 *
 * Each operation is applied to the parsed model (patch/model_edit.c; selectors and tests compared
 * by wire type through patch/model_select.c). What no node of the model has the shape of (a new
 * record member, the first element of an empty list, an annotation, a version change, the whole
 * document) is built by the format's description on the smallest draft around it
 * (patch/model_draft.c), once the stack is done. The model is then written, the output read back
 * and the two models compared node by node (core/model/model_equal.c): an edit costs a round trip plus
 * what it touches. Every refusal is final and names the file, the patch, the operation and the
 * path: a selector that matches nothing, a failed test, a conflict, a race recording, a rule, a
 * draft the description refuses, a model the writer or the re-read refuses; a refusal costs no
 * more than a success.
 */
#include "patch/apply.h"
#include "patch/apply_annotations.h"
#include "patch/apply_assets.h"
#include "patch/apply_kept.h"
#include "patch/apply_units.h"
#include "patch/in_step.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "core/error.h"
#include "core/model/model_equal.h"
#include "patch/model_edit.h"
#include "patch/model_select.h"
#include "patch/model_draft.h"
#include "core/json/json.h"
#include "core/doc/doc.h"
#include "core/error.h"
#include "core/registry/registry.h"
#include "patch/portable.h"
#include "patch/stack.h"

static int apply_base_matches(const apply_request *rq, const rb_patch *patch)
{
    const char *crc_text = json_string_value(json_object_get(patch->base, "crc32"));
    json_int_t base_size = json_integer_value(json_object_get(patch->base, "size"));
    uint32_t crc = (uint32_t)crc32(0, rq->data, (uInt)rq->size);
    return crc_text && strtoul(crc_text, NULL, 16) == crc && base_size == (json_int_t)rq->size;
}

/* Reads the written bytes back and compares the model read with the one they were written from.
 * The bytes are read with the deferred model, every value checked as in a full read, and each unit
 * read again alone as the comparison meets it (rb_model_equal_units): the comparison holds the
 * patched model and one unit of the re-read, not two whole models. A format that cannot read a
 * unit alone (no read_unit hook) is read in full, and a unit that cannot be read alone has the
 * re-read expanded first.
 * A model whose units were kept as their bytes (`kept`, patch/apply_kept.c) is compared with the
 * deferred re-read unit by unit, by their bytes, once the written file is proven the original's
 * but in the edited values; 2 when it is not (apply runs again on the expanded model). A unit the
 * re-read meets where the written model has the same bytes is taken from it, not read again. */
static int apply_verify(const apply_request *rq, const rb_doc *written, const apply_kept *kept, apply_outcome *out)
{
    if (kept && !apply_kept_same_bytes(kept, rq->data, rq->size, out->bytes, out->size)) return 2;
    rb_read_options ro = {.size = sizeof ro, .file_name = rq->name,
                          .defer = kept || written->format->read_unit != NULL};
    rb_error err;
    /* kept: the re-read takes the units the write copied from `written` (same bytes, same
     * offsets, the same reader inputs: what apply_kept_same_bytes proved), so only what is
     * outside them is read again */
    rb_doc *again = kept ? rb_doc_parse_beside(written->format, out->bytes, out->size, &ro, written, &err)
                         : rb_doc_parse(out->bytes, out->size, &ro, &err);
    if (!again) {
        apply_fail(out, RB_E_VERIFY, "the patched file does not re-read: %s", err.message);
        return -1;
    }
    if (!kept && !rb_doc_units_read_alone(again) && rb_doc_expand(again, &err) != RB_OK) {
        apply_fail(out, RB_E_VERIFY, "the patched file does not re-read: %s", err.message);
        rb_doc_free(again);
        return -1;
    }
    rb_buf where;
    rb_buf_init(&where);
    rb_error_clear(&err);
    int same = kept ? rb_model_equal_kept_units(written->root, again->root, &where)
                    : rb_model_equal_units(written->root, again, &where, &err);
    if (!same && err.status)
        apply_fail(out, RB_E_VERIFY, "the patched file does not re-read at %s: %s",
                   where.data ? (const char *)where.data : "?", err.message);
    else if (!same)
        apply_fail(out, RB_E_VERIFY, "the re-read file differs from the patched model at %s",
                   where.data ? (const char *)where.data : "?");
    rb_buf_free(&where);
    rb_doc_free(again);
    return same ? 0 : -1;
}

/* Is `patch` a diff made by position ("addressing": "index", rb_doc_diff without
 * RB_DIFF_BY_IDENTITY)? An index names another element in another file, so such a patch applies
 * to its base only. An envelope without the member (made before it existed) counts as by identity
 * when one of its paths holds a selector. */
static int positional_patch(const rb_patch *patch)
{
    const char *addressing = json_string_value(json_object_get(patch->base, "addressing"));
    if (addressing) return strcmp(addressing, "identity") != 0;
    for (size_t i = 0; i < json_array_size(patch->ops); i++) {
        const char *path = json_string_value(json_object_get(json_array_get(patch->ops, i), "path"));
        if (path && strstr(path, "/[")) return 0;
    }
    return 1;
}

static int forced(const apply_request *rq) { return rq->options && rq->options->force; }

/* After a fingerprinted patch's pins were checked on another base: go on, or why not. A diff by
 * position is refused whatever its pins say; --force applies either kind past the refusal. */
static int apply_pins_verdict(const apply_request *rq, const rb_patch *patch, size_t failing, apply_outcome *out)
{
    int positional = positional_patch(patch);
    if (!failing && !positional) {
        apply_line(out, "%s: every value %s relies on holds: applying", rq->name, patch->name);
        return 0;
    }
    char why[300];
    if (positional)
        snprintf(why, sizeof why, "%s addresses elements by position: it applies to the file it was made from only "
                 "(%zu of its pinned values differ here; `rebyte diff --by-identity` makes a patch to share)",
                 patch->name, failing);
    else
        snprintf(why, sizeof why, "%zu value%s from what %s expects", failing, failing == 1 ? " differs" : "s differ",
                 patch->name);
    if (forced(rq)) {
        apply_warning(out, "%s: %s; applying anyway (forced), past each pin that fails", rq->name, why);
        return 0;
    }
    apply_fail(out, RB_E_MODEL, "%s", why);
    return -1;
}

/* Forced onto a file that is not its base (apply_pins_verdict), a patch's pins that fail are
 * reported and passed. */
static int pins_overridden(const apply_request *rq, const char *patch_name)
{
    for (size_t p = 0; forced(rq) && p < rq->count; p++) {
        const rb_patch *patch = rq->patches[p];
        if (patch->base && patch->name && patch_name && !strcmp(patch->name, patch_name) && !apply_base_matches(rq, patch))
            return 1;
    }
    return 0;
}

/* ---------- the stack on the model (patch/stack.c) ---------- */

/* Does `node` hold what a pin expects: a value as the dump spells it, or the digest of one
 * (portable.h rb_pin_value), compared with its rendering. */
static int node_matches_pin(rb_doc *doc, rb_node *node, const json_t *value)
{
    if (!rb_pin_is_digest(value)) return rb_model_value_matches(doc, node, value);
    json_t *rendered = rb_model_to_json(doc, node, RB_BLOBS_REF);
    int same = rb_values_equal(rendered, value);
    json_decref(rendered);
    return same;
}

/* Does "test" `op` hold on the model (its value compared as the dump shows values,
 * patch/model_select.c)? When not, *got is what the file has, spelled as the dump spells it
 * (malloc'd), NULL when the place does not exist; *want the value asked for. */
static int pin_holds(rb_doc *doc, const json_t *op, char **want, char **got, char *why, size_t why_size)
{
    const char *path = json_string_value(json_object_get(op, "path"));
    const json_t *value = json_object_get(op, "value");
    *want = *got = NULL;
    rb_model_place place = {0};
    rb_buf plain;
    rb_buf_init(&plain);
    why[0] = 0;
    int rc = path ? rb_model_locate(doc, path, &place, &plain, why, why_size) : -1;
    rb_node *node = rc == 0 ? place.node : NULL;
    json_t *in_draft = rc == RB_MODEL_IN_DRAFT ? rb_drafts_value(doc, place.node, place.rest) : NULL;
    if (node && doc->drafts && rb_drafts_holds(doc, node)) in_draft = rb_drafts_value(doc, node, ""), node = NULL;
    int holds = value && (in_draft ? rb_values_equal(in_draft, value) : node && node_matches_pin(doc, node, value));
    if (!holds) {
        json_t *actual = in_draft ? json_incref(in_draft) : node ? rb_model_to_json(doc, node, RB_BLOBS_REF) : NULL;
        *got = actual ? rb_json_compact_text(actual) : NULL;
        *want = value ? rb_json_compact_text(value) : NULL;
        json_decref(actual);
    }
    rb_model_place_free(&place);
    rb_buf_free(&plain);
    return holds;
}

/* A patch made against another file applies where every value it pins holds. */
static int check_base_on_model(const apply_request *rq, rb_doc *doc, const rb_patch *patch, apply_outcome *out)
{
    if (!patch->base || apply_base_matches(rq, patch)) return 0;
    const char *crc_text = json_string_value(json_object_get(patch->base, "crc32"));
    apply_warning(out, "%s: not the base %s was made from (%s); checking the values it relies on", rq->name, patch->name,
               crc_text ? crc_text : "no digest");
    size_t failing = 0;
    for (size_t i = 0; i < json_array_size(patch->ops); i++) {
        const json_t *op = json_array_get(patch->ops, i);
        const char *kind = json_string_value(json_object_get(op, "op"));
        const char *path = json_string_value(json_object_get(op, "path"));
        char *want, *got, why[512];
        if (!kind || strcmp(kind, "test") != 0 || pin_holds(doc, op, &want, &got, why, sizeof why)) continue;
        apply_warning(out, "  %s: the patch expects %.120s, this file has %.120s", path ? path : "?", want ? want : "?",
                      got ? got : "nothing");
        free(want);
        free(got);
        failing++;
    }
    if (apply_pins_verdict(rq, patch, failing, out) == 0) return 0;
    return -1;
}

static void note_change(json_t *changes, const char *op, const char *path, json_t *was, json_t *value)
{
    json_t *c = json_pack("{s:s,s:s}", "op", op, "path", path);
    if (was) json_object_set_new(c, "was", was);
    if (value) json_object_set_new(c, "value", value);
    json_array_append_new(changes, c);
}

/* The engine's state for the stack's callbacks. */
typedef struct model_stack {
    const apply_request *rq;
    rb_doc *doc;
    apply_outcome *out;
} model_stack;

/* A failed test: what the file has there, spelled as the dump spells it. */
static int test_on_model(void *context, const char *patch, size_t i, const json_t *op, char *message, size_t size)
{
    model_stack *ms = context;
    const char *path = json_string_value(json_object_get(op, "path"));
    char *want, *got, why[1024];
    if (pin_holds(ms->doc, op, &want, &got, why, sizeof why)) return 0;
    if (pins_overridden(ms->rq, patch)) {
        apply_warning(ms->out, "%s: operation %zu: the pin of %s fails (it expects %.120s, this file has %.120s): "
                      "passed (forced)", patch, i, path ? path : "?", want ? want : "?", got ? got : "nothing");
        free(want);
        free(got);
        return 0;
    }
    if (got)
        snprintf(message, size, "%s: operation %zu: test failed: %s is %.200s, not %.200s", patch, i, path, got,
                 want ? want : "?");
    else if (why[0]) /* the reason first: a long path does not push it out of the message */
        snprintf(message, size, "%s: operation %zu: test failed: %s, so %s does not exist", patch, i, why,
                 path ? path : "?");
    else
        snprintf(message, size, "%s: operation %zu: test failed: %s does not exist", patch, i, path ? path : "?");
    free(want);
    free(got);
    return -1;
}

/* Where an operation acts: its plain path (inside a draft the description builds, or a place it
 * will build). */
static int locate_on_model(void *context, const json_t *op, char **plain, char *why, size_t why_size)
{
    model_stack *ms = context;
    const char *path = json_string_value(json_object_get(op, "path"));
    if (!path || !json_string_value(json_object_get(op, "op"))) {
        snprintf(why, why_size, "an operation needs \"op\" and \"path\"");
        return -1;
    }
    rb_model_place place = {0};
    rb_buf where;
    rb_buf_init(&where);
    int rc = rb_model_locate(ms->doc, path, &place, &where, why, why_size);
    if (rc == RB_MODEL_IN_DRAFT || rc == RB_MODEL_BEYOND) rc = 0; /* `where` names the place */
    rb_model_place_free(&place);
    if (rc == 0 && !(*plain = strdup(where.data ? (const char *)where.data : ""))) {
        snprintf(why, why_size, "out of memory");
        rc = -1;
    }
    rb_buf_free(&where);
    return rc;
}

static void line_on_model(void *context, const char *text) { apply_line(((model_stack *)context)->out, "%s", text); }

/* What the format keeps beside a list, in step with an operation on one of its elements. */
static json_t *in_step_ops(rb_doc *doc, const json_t *op, const char *plain_path)
{
    if (!doc->format->in_step) return NULL;
    const char *from = json_string_value(json_object_get(op, "from"));
    char *plain_from = NULL;
    if (from) {
        rb_model_place place = {0};
        rb_buf plain;
        rb_buf_init(&plain);
        char why[256];
        if (rb_model_locate(doc, from, &place, &plain, why, sizeof why) == 0) plain_from = strdup((const char *)plain.data);
        rb_model_place_free(&place);
        rb_buf_free(&plain);
        if (!plain_from) return NULL;
    }
    rb_model_view view = in_step_model_view(doc);
    json_t *ops = in_step_ops_for(doc->format, &view, op, plain_path, plain_from);
    free(plain_from);
    return ops;
}

/* What follows the operation elsewhere in the model (rb_format.followers); `why` set: refused. */
static json_t *follower_ops(rb_doc *doc, const json_t *op, const char *plain_path, char *why, size_t why_size)
{
    why[0] = 0;
    if (!doc->format->followers) return NULL;
    return doc->format->followers(doc, json_string_value(json_object_get(op, "op")), plain_path,
                                  json_object_get(op, "value"), why, why_size);
}

/* A move takes its node away from "from": the nodes on that way are edited too. */
static int note_from(rb_doc *doc, const json_t *op, apply_outcome *out)
{
    const char *kind = json_string_value(json_object_get(op, "op"));
    const char *from = json_string_value(json_object_get(op, "from"));
    if (!kind || strcmp(kind, "move") != 0 || !from) return 0;
    rb_model_place place = {0};
    rb_buf plain;
    rb_buf_init(&plain);
    char why[256];
    int rc = 0;
    if (rb_model_locate(doc, from, &place, &plain, why, sizeof why) == 0)
        rc = edited_nodes_note(out->edited, doc, (const char *)plain.data, 1);
    rb_model_place_free(&place);
    rb_buf_free(&plain);
    return rc;
}

/* Applies the in-step operations (each listed with --dry-run, none counted as the user's). */
static int apply_in_step(rb_doc *doc, const json_t *ops, apply_outcome *out, const char *patch, size_t i,
                            char *message, size_t size)
{
    for (size_t k = 0; k < json_array_size(ops); k++) {
        const json_t *op = json_array_get(ops, k);
        const char *kind = json_string_value(json_object_get(op, "op"));
        json_t *was = out->changes ? rb_model_json_at(doc, json_string_value(json_object_get(op, "path"))) : NULL;
        char *resolved = NULL, why[512];
        if (note_from(doc, op, out) != 0 || rb_model_apply_op(doc, op, &resolved, why, sizeof why) != 0 ||
            edited_nodes_note(out->edited, doc, resolved, strcmp(kind, "remove") == 0) != 0) {
            snprintf(message, size, "%s: operation %zu: keeping the data beside it in step: %s", patch, i, why);
            json_decref(was);
            free(resolved);
            return -1;
        }
        if (out->changes)
            note_change(out->changes, kind, resolved, was, strcmp(kind, "remove") ? rb_model_json_at(doc, resolved) : NULL);
        else json_decref(was);
        free(resolved);
    }
    return 0;
}

/* Whether an operation sets the value at `plain` in place (a replace, an add or a copy onto a
 * record's member, an offset), which it may leave as it was; an insertion into a list, a removal
 * and a move always change the model (a move onto itself aside). */
static int sets_in_place(const char *kind, const char *plain)
{
    if (!strcmp(kind, "remove") || !strcmp(kind, "move") || !strcmp(kind, "test")) return 0;
    if (strcmp(kind, "add") != 0 && strcmp(kind, "copy") != 0) return 1;
    const char *last = strrchr(plain, '/');
    last = last ? last + 1 : plain;
    return *last && strcmp(last, "-") != 0 && strspn(last, "0123456789") != strlen(last);
}

/* Before an operation that sets a value in place: 1 when the place holds the value it sets
 * already (compared as a test compares, by wire type: no rendering of the model), 0 when not,
 * -1 for an operation whose value is not given (an offset: compared before and after). */
static int holds_already(rb_doc *doc, const json_t *op, const char *kind, const char *plain)
{
    json_t *value = NULL;
    if (!strcmp(kind, "copy")) value = rb_model_json_at(doc, json_string_value(json_object_get(op, "from")));
    else if (!strcmp(kind, "replace") || !strcmp(kind, "add")) value = json_incref(json_object_get(op, "value"));
    else return -1;
    json_t *test = value ? json_pack("{s:s,s:s,s:o}", "op", "test", "path", plain, "value", value) : NULL;
    char *want = NULL, *got = NULL, why[256];
    int holds = test && pin_holds(doc, test, &want, &got, why, sizeof why);
    free(want);
    free(got);
    json_decref(test);
    return holds;
}

static int moves_onto_itself(const json_t *op, const char *kind)
{
    const char *from = json_string_value(json_object_get(op, "from"));
    const char *path = json_string_value(json_object_get(op, "path"));
    return !strcmp(kind, "move") && from && path && strcmp(from, path) == 0;
}

/* One operation: what the format keeps in step with it read first, then the operation, then
 * those; each change noted for the dry run and the race-recording check. RB_STACK_UNCHANGED when
 * the model holds what it held (a replace by the same value, an offset of 0, a move onto
 * itself: applied, but no change, docs/usage.md "Where outputs go"). */
static int change_on_model(void *context, const char *patch, size_t i, const json_t *op, const char *plain,
                           char *message, size_t size)
{
    model_stack *ms = context;
    rb_doc *doc = ms->doc;
    apply_outcome *out = ms->out;
    const char *kind = json_string_value(json_object_get(op, "op"));
    char why[1200];
    rb_drafts_set_operation(doc, patch, i);
    int same = sets_in_place(kind, plain) ? holds_already(doc, op, kind, plain) : 0;
    json_t *was = out->changes || same < 0 ? rb_model_json_at(doc, plain) : NULL;
    json_t *in_step = in_step_ops(doc, op, plain);
    json_t *followers = follower_ops(doc, op, plain, why, sizeof why);
    int rc = why[0] ? -1 : 0; /* the followers refuse */
    char *resolved = NULL;
    if (rc == 0) rc = note_from(doc, op, out);
    if (rc == 0) rc = rb_model_apply_op(doc, op, &resolved, why, sizeof why);
    if (rc == 0) rc = edited_nodes_note(out->edited, doc, resolved, strcmp(kind, "remove") == 0);
    json_t *now = rc == 0 && (out->changes || same < 0) && strcmp(kind, "remove") ? rb_model_json_at(doc, resolved) : NULL;
    /* jansson's exact json_equal, not rb_values_equal: a value stored another way ($id flags, a
     * stream) writes other bytes, so it is a change */
    int unchanged = rc == 0 && (same > 0 || (same < 0 && was && now && json_equal(was, now)) || moves_onto_itself(op, kind));
    if (rc == 0 && out->changes && !unchanged) note_change(out->changes, kind, resolved, was, now);
    else json_decref(was), json_decref(now);
    free(resolved);
    if (rc != 0) snprintf(message, size, "%s: operation %zu: %s", patch, i, why);
    if (rc == 0) rc = apply_in_step(doc, in_step, out, patch, i, message, size);
    if (rc == 0) rc = apply_in_step(doc, followers, out, patch, i, message, size);
    json_decref(in_step);
    json_decref(followers);
    return rc == 0 && unchanged ? RB_STACK_UNCHANGED : rc;
}

static int stack_on_model(const apply_request *rq, rb_doc *doc, apply_outcome *out)
{
    const json_t **ops = calloc(rq->count ? rq->count : 1, sizeof(json_t *));
    const char **names = calloc(rq->count ? rq->count : 1, sizeof(char *));
    char why[sizeof out->error.message];
    int rc = ops && names ? 0 : -1;
    if (rc != 0) snprintf(why, sizeof why, "out of memory");
    for (size_t p = 0; rc == 0 && p < rq->count; p++) {
        ops[p] = rq->patches[p]->ops;
        names[p] = rq->patches[p]->name;
    }
    model_stack ms = {rq, doc, out};
    rb_each_source each = rb_each_model_source(doc);
    rb_stack_target target = {&ms, test_on_model, locate_on_model, change_on_model, line_on_model, &each,
                              rq->resolved};
    rb_conflicts policy = rq->options ? rq->options->conflicts : RB_CONFLICTS_STOP;
    if (rc == 0) rc = rb_stack_apply(&target, ops, names, rq->count, policy, &out->operations, why, sizeof why);
    if (rc != 0) apply_fail(out, RB_E_MODEL, "%s", why);
    free(ops);
    free(names);
    return rc;
}

/* A model the writer or the re-read refuses: the error names the file and the structure path,
 * and the patches that made the model. */
static int write_and_verify(const apply_request *rq, rb_doc *doc, const apply_kept *kept, apply_outcome *out)
{
    rb_error err;
    doc->edited = 1; /* descriptions check what an edit may break (rb_ar_checks_edits) */
    if (rb_doc_write(doc, NULL, &out->bytes, &out->size, &err) != RB_OK) {
        char where[1400];
        apply_fail(out, err.status, "%s: the patched model does not write: %s", rq->count ? rq->patches[rq->count - 1]->name : "the patch",
                   rb_error_format(&err, where, sizeof where));
        return -1;
    }
    return apply_verify(rq, doc, kept, out);
}

/* The drafts the stack opened, built by the description; each node put in place counts as
 * edited (the race-recording check looks below it). */
static int note_placed(void *context, rb_node *node, const char *path, const char *opened_by)
{
    apply_outcome *out = context;
    if (!out->drafts++) snprintf(out->first_draft, sizeof out->first_draft, "%.120s (%.120s)", path, opened_by);
    return edited_nodes_place(out->edited, node);
}

static int build_units(rb_doc *doc, apply_outcome *out)
{
    char why[1600];
    if (rb_drafts_end(doc, note_placed, out, why, sizeof why) == 0) return 0;
    apply_fail(out, RB_E_MODEL, "%s", why);
    return -1;
}

static int apply_stack_to(const apply_request *rq, rb_doc *doc, const apply_kept *kept, apply_outcome *out);

/* The original read: deferred, its units kept as their bytes, when the patch reaches no unit
 * (patch/apply_kept.c, `kept` set), else in full. NULL with out->error. */
static rb_doc *read_original(const apply_request *rq, int defer, apply_kept *kept, int *keeps, apply_outcome *out)
{
    rb_read_options ro = {.size = sizeof ro, .file_name = rq->name, .defer = defer};
    rb_doc *doc = rb_doc_parse(rq->data, rq->size, &ro, &out->error);
    *keeps = doc && defer && apply_kept_check(rq, doc, kept);
    if (doc && doc->deferred_units && !*keeps && rb_doc_expand(doc, &out->error) != RB_OK) {
        rb_doc_free(doc);
        return NULL;
    }
    return doc;
}

/* What a run that is taken again left in the outcome, put back. */
typedef struct outcome_mark {
    size_t lines, changes, operations;
} outcome_mark;

static void outcome_back_to(apply_outcome *out, const outcome_mark *mark)
{
    free(out->bytes);
    out->bytes = NULL;
    out->size = 0;
    out->lines.size = mark->lines;
    while (out->changes && json_array_size(out->changes) > mark->changes)
        json_array_remove(out->changes, json_array_size(out->changes) - 1);
    out->operations = mark->operations;
    out->drafts = 0;
    out->first_draft[0] = 0;
    rb_error_clear(&out->error);
    json_decref(out->rules_before);
    out->rules_before = NULL;
}

/* The stack applied to `doc`, after {"$file": F} values became the format's operations
 * (apply_assets.c) read from it. */
static int apply_with_assets(const apply_request *rq, rb_doc *doc, const apply_kept *kept, apply_outcome *out)
{
    rb_patch **expanded = NULL;
    if (apply_expand_assets(rq, doc, &expanded, &out->error) != 0) {
        rb_doc_free(doc);
        return -1;
    }
    apply_request with_assets = *rq;
    if (expanded) with_assets.patches = (const rb_patch *const *)expanded;
    int rc = apply_stack_to(&with_assets, doc, kept, out);
    apply_free_expanded(expanded, rq->count);
    return rc;
}

/* The original read deferred and the units the operations reach expanded in place
 * (apply_units.c), then the stack applied. */
static int apply_on_units(const apply_request *rq, apply_outcome *out)
{
    rb_read_options ro = {.size = sizeof ro, .file_name = rq->name, .defer = 1};
    rb_doc *doc = rb_doc_parse(rq->data, rq->size, &ro, &out->error);
    if (!doc) return -1;
    if (apply_units_expand_reached(doc, rq, &out->error) != 0) {
        rb_doc_free(doc);
        return -1;
    }
    return apply_with_assets(rq, doc, NULL, out);
}

/* Three ways, each answer proven or taken again by the next. Both deferred ways take the same
 * candidates (apply_deferred.c), rules (rb_rule.reads) and deferred members (rb_format.unit_member).
 * 1. The units a patch's paths reach expanded (apply_units.c): first, since it serves the formats
 *    that read a unit alone (GBX) whatever the values the patch writes, and a patch it cannot
 *    answer costs only the units it reached.
 * 2. The units all kept as their bytes when the patch reaches none (apply_kept.c): for the formats
 *    that state what their units' reads take (GROFF, data.win); a write that is not what it
 *    proves (2) runs again on the full read.
 * 3. The file read in full, whose answer stands. */
int apply_on_model(const apply_request *rq, apply_outcome *out)
{
    if (apply_refuse_annotation_ops(rq, &out->error) != 0) return -1;
    outcome_mark mark = {out->lines.size, json_array_size(out->changes), out->operations};
    const rb_format *format = rb_registry_detect(rq->data, rq->size);
    if (!rq->whole && apply_units_possible(rq, format)) {
        if ((out->on_units = apply_on_units(rq, out) == 0)) return 0;
        outcome_back_to(out, &mark);
    }
    int defer = apply_kept_wanted(rq, format), rc = 2;
    for (int attempt = 0; rc == 2 && attempt < 2; attempt++) {
        apply_kept kept;
        int keeps = 0;
        if (attempt) outcome_back_to(out, &mark);
        rb_doc *doc = read_original(rq, defer && !attempt, &kept, &keeps, out);
        if (!doc) return -1;
        rc = apply_with_assets(rq, doc, keeps ? &kept : NULL, out);
    }
    return rc;
}

/* The encoding the model is written in (GBX: binary or text; a literal), or "" for a format
 * with one. */
static const char *encoding_now(const rb_doc *doc)
{
    const char *encoding = doc->format->encoding ? doc->format->encoding(doc) : NULL;
    return encoding ? encoding : "";
}

/* `kept`: the model's units are kept as their bytes and the patch reaches none of them, nor
 * anything a rule reads (patch/apply_kept.c): the rules cannot change their verdict and are not run. */
static int apply_stack_to(const apply_request *rq, rb_doc *doc, const apply_kept *kept, apply_outcome *out)
{
    const char *read_as = encoding_now(doc);
    if (!(out->edited = edited_nodes_new()) || rb_drafts_begin(doc) != 0) {
        rb_doc_free(doc);
        apply_fail(out, RB_E_NOMEM, "out of memory");
        return -1;
    }
    /* {"$blob": ...} in a patch names bytes of this file (a kept model's patch has no blob) */
    if (!kept) doc->blob_source = doc;
    int rc = 0;
    for (size_t p = 0; p < rq->count && rc == 0 && !rq->resolved; p++) rc = check_base_on_model(rq, doc, rq->patches[p], out);
    if (rc == 0 && !rq->resolved && !kept) rc = apply_rules_before(doc, out);
    if (rc == 0) rc = stack_on_model(rq, doc, out);
    if (rq->resolved) rc = rc ? rc : 1; /* resolved: nothing more to do */
    if (rc == 0) rc = build_units(doc, out);
    rb_drafts_discard(doc);
    if (rc == 0) rc = apply_recordings_unchanged(rq, doc, out);
    if (rc == 0 && !kept) rc = apply_rules_after(rq, doc, out);
    rb_buf_free(&out->rule_facts);
    rb_model_select_free(doc); /* the indexes serve this run's selectors only */
    edited_nodes_free(out->edited);
    out->edited = NULL;
    /* nothing edits the model between the records' check above and the write: the write's guard
     * need not read the original again to compare them (core/doc/recording_guard.c). The check is of
     * the records' content: a patch that changes the encoding (a text form written as binary,
     * which needs the original beside it) leaves the guard its own decision. */
    doc->recordings_proven = rc == 0 && strcmp(read_as, encoding_now(doc)) == 0;
    if (rc == 0) rc = write_and_verify(rq, doc, kept, out);
    doc->recordings_proven = 0;
    doc->blob_source = NULL;
    doc->edited = 0;
    if (rc == 0 && rq->want_doc) out->doc = doc;
    else rb_doc_free(doc);
    return rq->resolved && rc == 1 ? 0 : rc;
}
