/*
 * Applying patches: one pipeline for the library and the command line (include/rebyte.h).
 *
 * The model path applies each operation to the parsed model (patch/model_edit.c; selectors and
 * tests compared by wire type through patch/model_select.c), writes it, reads the output back
 * and compares the two models node by node (patch/model_compare.c): an edit costs a round trip
 * plus what it touches. A refusal on the model is final (out->final): a selector that matches
 * nothing, a failed test, a conflict, a race record or a rule costs no more than a success. Only
 * an operation that builds structure the model cannot take the shape of (RB_MODEL_BEYOND: a new
 * record member, the first element of an empty list, an annotation), or a result the writer or
 * the re-read refuses, goes to the whole-model path (apply_json.c), which rebuilds the model
 * through the format's description; only the lines of the path that decided are reported.
 */
#include "apply.h"
#include "companions.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "../core/model_equal.h"
#include "model_edit.h"
#include "model_select.h"
#include "../core/json.h"
#include "portable.h"

/* A line is kept with its kind first ('W' warning, 'I' information) and a newline last. */
static void put_line(apply_outcome *out, char kind, const char *fmt, va_list ap)
{
    char line[1600];
    vsnprintf(line, sizeof line, fmt, ap);
    rb_buf_put_u8(&out->lines, (uint8_t)kind);
    rb_buf_put(&out->lines, line, strlen(line));
    rb_buf_put_u8(&out->lines, '\n');
}

void apply_line(apply_outcome *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_line(out, 'I', fmt, ap);
    va_end(ap);
}

void apply_warning(apply_outcome *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_line(out, 'W', fmt, ap);
    va_end(ap);
}

void apply_fail(apply_outcome *out, rb_status status, const char *fmt, ...)
{
    char message[sizeof out->error.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    if (out->error.status) return; /* the first reason stands */
    out->error.status = status;
    snprintf(out->error.message, sizeof out->error.message, "%s", message);
}

int apply_base_matches(const apply_request *rq, const rb_patch *patch)
{
    const char *crc_text = json_string_value(json_object_get(patch->base, "crc32"));
    json_int_t base_size = json_integer_value(json_object_get(patch->base, "size"));
    uint32_t crc = (uint32_t)crc32(0, rq->data, (uInt)rq->size);
    return crc_text && strtoul(crc_text, NULL, 16) == crc && base_size == (json_int_t)rq->size;
}

/* Reads the written bytes back and compares the model read with the one they were written from. */
int apply_verify(const apply_request *rq, const rb_doc *written, apply_outcome *out)
{
    rb_read_options ro = {.file_name = rq->name};
    rb_error err;
    rb_doc *again = rb_doc_parse(out->bytes, out->size, &ro, &err);
    if (!again) {
        apply_fail(out, RB_E_VERIFY, "the patched file does not re-read: %s", err.message);
        return -1;
    }
    rb_buf where;
    rb_buf_init(&where);
    int same = rb_model_equal(written->root, again->root, "", &where);
    if (!same)
        apply_fail(out, RB_E_VERIFY, "the re-read file differs from the patched model at %s",
                   where.data ? (const char *)where.data : "?");
    rb_buf_free(&where);
    rb_doc_free(again);
    return same ? 0 : -1;
}

int apply_pins_verdict(const apply_request *rq, const rb_patch *patch, size_t failing, apply_outcome *out)
{
    if (!failing) {
        apply_line(out, "%s: every value %s relies on holds: applying", rq->name, patch->name);
        return 0;
    }
    apply_fail(out, RB_E_MODEL, "%zu value%s from what %s expects", failing, failing == 1 ? " differs" : "s differ",
               patch->name);
    return -1;
}

/* ---------- the model path ---------- */

/* Places changed by earlier patches of a stack, by plain path. */
typedef struct touched {
    char **paths;
    size_t *owner;
    size_t count, cap;
} touched;

static int touch(touched *t, const char *path, size_t owner)
{
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        char **paths = realloc(t->paths, cap * sizeof(char *));
        if (paths) t->paths = paths;
        size_t *owners = paths ? realloc(t->owner, cap * sizeof(size_t)) : NULL;
        if (!owners) return -1;
        t->owner = owners;
        t->cap = cap;
    }
    if (!(t->paths[t->count] = strdup(path))) return -1;
    t->owner[t->count++] = owner;
    return 0;
}

static void touched_free(touched *t)
{
    for (size_t i = 0; i < t->count; i++) free(t->paths[i]);
    free(t->paths);
    free(t->owner);
}

/* Does one place hold the other (or are they one)? */
static int paths_overlap(const char *x, const char *y)
{
    size_t nx = strlen(x), ny = strlen(y), n = nx < ny ? nx : ny;
    return strncmp(x, y, n) == 0 && (nx == ny || (nx < ny ? y[nx] : x[ny]) == '/');
}

/* The patch (other than `owner`) that changed `path`, a place inside it or around it; -1: none. */
static long conflict_with(const touched *t, const char *path, size_t owner)
{
    for (size_t i = 0; i < t->count; i++)
        if (t->owner[i] != owner && paths_overlap(t->paths[i], path)) return (long)t->owner[i];
    return -1;
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
    rb_node *node = path && rb_model_locate(doc, path, &place, &plain, why, why_size) == 0 ? place.node : NULL;
    int holds = node && value && rb_model_value_matches(doc, node, value);
    if (!holds) {
        json_t *actual = node ? rb_model_to_json(doc, node, RB_BLOBS_REF) : NULL;
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
    out->final = 1;
    return -1;
}

static void note_change(json_t *changes, const char *op, const char *path, json_t *was, json_t *value)
{
    json_t *c = json_pack("{s:s,s:s}", "op", op, "path", path);
    if (was) json_object_set_new(c, "was", was);
    if (value) json_object_set_new(c, "value", value);
    json_array_append_new(changes, c);
}

typedef struct stack_state {
    touched places;
    size_t changed, skipped;
} stack_state;

/* A failed test is final: no other way of applying the patch would make it hold. */
static int test_on_model(rb_doc *doc, const rb_patch *patch, size_t i, const json_t *op, apply_outcome *out)
{
    const char *path = json_string_value(json_object_get(op, "path"));
    char *want, *got, why[600];
    if (pin_holds(doc, op, &want, &got, why, sizeof why)) return 0;
    if (got)
        apply_fail(out, RB_E_MODEL, "%s: operation %zu: test failed: %s is %.200s, not %.200s", patch->name, i, path,
                   got, want ? want : "?");
    else
        apply_fail(out, RB_E_MODEL, "%s: operation %zu: test failed: %s does not exist%s%s%s", patch->name, i,
                   path ? path : "?", why[0] ? " (" : "", why, why[0] ? ")" : "");
    out->final = 1;
    free(want);
    free(got);
    return -1;
}

/* What the format keeps beside a list, in step with an operation on one of its elements. */
static json_t *companion_ops(rb_doc *doc, const json_t *op, const char *plain_path)
{
    if (!doc->format->companions) return NULL;
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
    rb_model_view view = companions_model_view(doc);
    json_t *ops = companions_for(doc->format, &view, op, plain_path, plain_from);
    free(plain_from);
    return ops;
}

/* What follows the operation elsewhere in the model (rb_format.followers); `why` set: refused. */
static json_t *follower_ops(rb_doc *doc, const json_t *op, const char *plain_path, char *why, size_t why_size)
{
    why[0] = 0;
    if (!doc->format->followers) return NULL;
    return doc->format->followers(doc, NULL, json_string_value(json_object_get(op, "op")), plain_path,
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

/* Applies the companion operations (each listed with --dry-run, none counted as the user's). */
static int apply_companions(rb_doc *doc, const json_t *ops, apply_outcome *out, const char *patch, size_t i)
{
    for (size_t k = 0; k < json_array_size(ops); k++) {
        const json_t *op = json_array_get(ops, k);
        const char *kind = json_string_value(json_object_get(op, "op"));
        json_t *was = out->changes ? rb_model_json_at(doc, json_string_value(json_object_get(op, "path"))) : NULL;
        char *resolved = NULL, why[512];
        if (note_from(doc, op, out) != 0 || rb_model_apply_op(doc, op, &resolved, why, sizeof why) != 0 ||
            edited_nodes_note(out->edited, doc, resolved, strcmp(kind, "remove") == 0) != 0) {
            apply_fail(out, RB_E_MODEL, "%s: operation %zu: keeping the data beside it in step: %s", patch, i, why);
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

/* One operation of patch `p` of the stack. */
static int operation_on_model(const apply_request *rq, rb_doc *doc, size_t p, size_t i, stack_state *st,
                              apply_outcome *out)
{
    const rb_patch *patch = rq->patches[p];
    const json_t *op = json_array_get(patch->ops, i);
    const char *kind = json_string_value(json_object_get(op, "op"));
    const char *path = json_string_value(json_object_get(op, "path"));
    if (kind && strcmp(kind, "test") == 0) return test_on_model(doc, patch, i, op, out);
    char why[1200];
    rb_model_place place = {0};
    rb_buf plain;
    rb_buf_init(&plain);
    int rc = path ? rb_model_locate(doc, path, &place, &plain, why, sizeof why) : -1;
    if (!path) snprintf(why, sizeof why, "an operation needs \"op\" and \"path\"");
    rb_model_place_free(&place);
    long other = rc == 0 ? conflict_with(&st->places, (const char *)plain.data, p) : -1;
    rb_conflicts policy = rq->options ? rq->options->conflicts : RB_CONFLICTS_STOP;
    if (rc == 0 && other >= 0 && policy == RB_CONFLICTS_STOP) {
        snprintf(why, sizeof why, "%s and %s both change %s (use --conflicts=first-wins or last-wins)",
                 rq->patches[other]->name, patch->name, (const char *)plain.data);
        apply_fail(out, RB_E_MODEL, "%s", why);
        out->final = 1;
        rb_buf_free(&plain);
        return -1;
    }
    if (rc == 0 && other >= 0 && policy == RB_CONFLICTS_FIRST_WINS) {
        st->skipped++;
        apply_line(out, "  %s: %s %s skipped (%s changed it first)", patch->name, kind, (const char *)plain.data,
                   rq->patches[other]->name);
        rb_buf_free(&plain);
        return 0;
    }
    json_t *was = rc == 0 && out->changes ? rb_model_json_at(doc, (const char *)plain.data) : NULL;
    json_t *companions = rc == 0 ? companion_ops(doc, op, (const char *)plain.data) : NULL;
    json_t *followers = rc == 0 ? follower_ops(doc, op, (const char *)plain.data, why, sizeof why) : NULL;
    if (rc == 0 && why[0]) { /* a refusal the whole-model path must not undo by editing without them */
        rc = -1;
        out->final = 1;
    }
    rb_buf_free(&plain);
    char *resolved = NULL;
    if (rc == 0) rc = note_from(doc, op, out);
    if (rc == 0) rc = rb_model_apply_op(doc, op, &resolved, why, sizeof why);
    if (rc == 0) rc = touch(&st->places, resolved, p);
    if (rc == 0) rc = edited_nodes_note(out->edited, doc, resolved, strcmp(kind, "remove") == 0);
    if (rc != 0) {
        json_decref(was);
        json_decref(companions);
        json_decref(followers);
        free(resolved);
        apply_fail(out, RB_E_MODEL, "%s: operation %zu: %s", patch->name, i, why);
        out->final = rc != RB_MODEL_BEYOND; /* a refusal stands; structure goes to the description */
        return -1;
    }
    st->changed++;
    if (out->changes) {
        json_t *now = strcmp(kind, "remove") == 0 ? NULL : rb_model_json_at(doc, resolved);
        note_change(out->changes, kind, resolved, was, now);
    }
    free(resolved);
    rc = apply_companions(doc, companions, out, patch->name, i);
    if (rc == 0) rc = apply_companions(doc, followers, out, patch->name, i);
    json_decref(companions);
    json_decref(followers);
    return rc;
}

static int stack_on_model(const apply_request *rq, rb_doc *doc, apply_outcome *out)
{
    stack_state st = {0};
    int rc = 0;
    for (size_t p = 0; p < rq->count && rc == 0; p++) {
        const rb_patch *patch = rq->patches[p];
        st.changed = st.skipped = 0;
        for (size_t i = 0; i < json_array_size(patch->ops) && rc == 0; i++)
            rc = operation_on_model(rq, doc, p, i, &st, out);
        out->operations += st.changed;
        if (rc == 0 && rq->count > 1)
            apply_line(out, "  %s: %zu change%s%s", patch->name, st.changed, st.changed == 1 ? "" : "s",
                       st.skipped ? " (some skipped as conflicts)" : "");
    }
    touched_free(&st.places);
    return rc;
}

static int write_and_verify(const apply_request *rq, rb_doc *doc, apply_outcome *out)
{
    rb_error err;
    doc->edited = 1; /* descriptions check what an edit may break (rb_ar_checks_edits) */
    if (rb_doc_write(doc, NULL, &out->bytes, &out->size, &err) != RB_OK) {
        apply_fail(out, err.status, "%s", err.message);
        return -1;
    }
    return apply_verify(rq, doc, out);
}

int apply_on_model(const apply_request *rq, apply_outcome *out)
{
    rb_read_options ro = {.file_name = rq->name};
    rb_doc *doc = rb_doc_parse(rq->data, rq->size, &ro, &out->error);
    if (!doc) return APPLY_FAILED;
    if (!(out->edited = edited_nodes_new())) {
        rb_doc_free(doc);
        apply_fail(out, RB_E_NOMEM, "out of memory");
        return APPLY_FAILED;
    }
    doc->blob_source = doc; /* {"$blob": ...} in a patch names bytes of this file */
    int rc = 0;
    for (size_t p = 0; p < rq->count && rc == 0; p++) rc = check_base_on_model(rq, doc, rq->patches[p], out);
    if (rc == 0) apply_rules_before(doc, out);
    if (rc == 0) rc = stack_on_model(rq, doc, out);
    /* the description would build the same model: a record changed or a rule broken stays so */
    if (rc == 0 && (rc = apply_records_unchanged(rq, doc, out)) != 0) out->final = 1;
    if (rc == 0 && (rc = apply_rules_after(rq, doc, out)) != 0) out->final = 1;
    rb_model_select_free(doc); /* the indexes serve this run's selectors only */
    edited_nodes_free(out->edited);
    out->edited = NULL;
    if (rc == 0) rc = write_and_verify(rq, doc, out);
    doc->blob_source = NULL;
    doc->edited = 0;
    if (rc == 0 && rq->want_doc) out->doc = doc;
    else rb_doc_free(doc);
    return rc == 0 ? APPLY_DONE : out->final ? APPLY_FAILED : APPLY_ELSEWHERE;
}
