/*
 * The race-recording guard of every write (core/doc/recording_guard.h). A ghost or a replay is evidence of
 * a run: a changed nickname, time or sample passes a run off as someone else's. So a write of a
 * document holding one succeeds only when its recordings are those of the file it came from:
 *  - a document parsed from the game's encoding (the format's record_encoding) is compared with
 *    a fresh read of its own bytes (C API setters leave no trace, so content decides);
 *  - a document read from another encoding (GBX text, a view a person edits) or built from JSON
 *    proves nothing by itself: it needs the original (rb_doc_set_original, a build's source),
 *    and is compared with it; only a model built from JSON with no original, marked as authoring
 *    a new recording (a test fixture), is written without one (rb_doc_author_recordings).
 * Only files that hold a recording pay: one more parse of the original (deferred: records_match).
 */
#include "core/doc/recording_guard.h"
#include "core/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/doc.h"
#include "core/model/model_equal.h"

typedef struct recording_list {
    const rb_node **nodes;
    size_t count, cap;
} recording_list;

static int add_recording(recording_list *l, const rb_node *n)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        const rb_node **nodes = realloc(l->nodes, cap * sizeof *nodes);
        if (!nodes) return 0;
        l->nodes = nodes;
        l->cap = cap;
    }
    l->nodes[l->count++] = n;
    return 1;
}

static void free_recordings(recording_list *l)
{
    free(l->nodes);
    memset(l, 0, sizeof *l);
}

static int has_kids(const rb_node *n)
{
    return n->kind == RB_K_RECORD || n->kind == RB_K_LIST || n->kind == RB_K_STREAM;
}

/* The outermost recording nodes below `n` (a recording's own parts are part of it). No path is
 * spelled here: the walk visits every node of the model, and only a refusal names one
 * (path_of). */
static int collect(const rb_format *format, const rb_node *n, recording_list *out)
{
    if (format->is_recording(n)) return add_recording(out, n);
    if (!has_kids(n)) return 1;
    for (size_t i = 0; i < n->v.kids.count; i++)
        if (!collect(format, n->v.kids.items[i], out)) return 0;
    return 1;
}

/* The JSON pointer of `target` below `n` into `path` (which holds `n`'s, `used` characters):
 * 1 when found. Run once, for the recording a refusal names. */
static int path_of(const rb_node *n, const rb_node *target, char *path, size_t size, size_t used)
{
    if (n == target) return 1;
    if (!has_kids(n)) return 0;
    for (size_t i = 0; i < n->v.kids.count; i++) {
        const rb_node *kid = n->v.kids.items[i];
        int w = kid->key ? snprintf(path + used, size - used, "/%s", kid->key)
                         : snprintf(path + used, size - used, "/%zu", i);
        size_t next = w < 0 ? used : used + (size_t)w;
        if (next >= size) next = size - 1;
        if (path_of(kid, target, path, size, next)) return 1;
        path[used] = '\0';
    }
    return 0;
}

/* The first recording of `now` that is not, unchanged, one of `before`'s; -1 when none, -2 out of
 * memory. */
static long forged_recording(const recording_list *now, const recording_list *before)
{
    char *used = calloc(before->count + 1, 1);
    if (!used) return -2;
    long forged = -1;
    for (size_t i = 0; i < now->count && forged < 0; i++) {
        size_t j = 0;
        while (j < before->count && (used[j] || !rb_model_equal(before->nodes[j], now->nodes[i], "", NULL))) j++;
        if (j < before->count) used[j] = 1;
        else forged = (long)i;
    }
    free(used);
    return forged;
}

int rb_records_unchanged(const rb_doc *doc, const rb_doc *original, char *path_out, size_t path_size)
{
    if (!doc->format->is_recording) return 0;
    recording_list now = {0}, before = {0};
    int ok = collect(doc->format, doc->root, &now);
    long forged = -1;
    if (ok && now.count) ok = collect(doc->format, original->root, &before);
    if (ok && now.count) forged = forged_recording(&now, &before);
    if (forged >= 0 && path_out && path_size) {
        path_out[0] = '\0';
        path_of(doc->root, now.nodes[forged], path_out, path_size, 0);
    }
    free_recordings(&now);
    free_recordings(&before);
    return !ok || forged == -2 ? -2 : forged >= 0 ? -1 : 0;
}

int rb_doc_holds_recording(const rb_doc *doc)
{
    return doc->format->is_recording && rb_node_holds(doc->root, doc->format->is_recording);
}

static int refuse(rb_error *err, const rb_doc *doc, rb_status status, const char *what)
{
    if (err) {
        rb_error_clear(err);
        err->status = status;
        snprintf(err->file, sizeof err->file, "%s", doc->file_name);
        snprintf(err->message, sizeof err->message, "%s", what);
    }
    return -1;
}

static const rb_section *bytes_of(const rb_doc *doc)
{
    return doc && doc->section_count && doc->sections[0].data ? &doc->sections[0] : NULL;
}

static const char *encoding_of(const rb_doc *doc)
{
    return doc->format->encoding ? doc->format->encoding(doc) : NULL;
}

/* The file the recordings must equal: the original named for this document, else its own bytes. */
static const rb_section *origin_of(const rb_doc *doc)
{
    const rb_doc *named = doc->original ? doc->original : doc->blob_source;
    return named ? bytes_of(named) : bytes_of(doc);
}

/* The recordings of `doc` against those of `original` read in the encoding `doc` is written in:
 * 0 the same, -1 one forged, -2 out of memory. `original` is read deferred: its recordings are
 * compared where they are nodes (a recording in a unit that holds copied facts, as a map's
 * validation ghost, always is); only a recording not found so is looked for in the expanded model,
 * so a deferred original can refuse nothing a full read would not. */
static int records_match(const rb_doc *doc, rb_doc *original, char *path, size_t path_size)
{
    for (;;) {
        /* the encoding is how the file is stored, not what it records */
        if (doc->format->set_encoding && encoding_of(doc)) doc->format->set_encoding(original, encoding_of(doc));
        int same = rb_records_unchanged(doc, original, path, path_size);
        if (same != -1 || !original->deferred_units) return same;
        if (rb_doc_expand(original, NULL) != RB_OK) return -2;
    }
}

static int compare_with_origin(const rb_doc *doc, const rb_section *origin, rb_error *err)
{
    rb_read_options ro = {.file_name = doc->file_name, .limits = &doc->limits, .defer = 1};
    rb_error parse_err;
    /* the original is of the document's format, or not its original */
    rb_doc *original = doc->format->detect(origin->data, origin->size) > 0
                           ? rb_doc_parse_as(doc->format, origin->data, origin->size, &ro, &parse_err)
                           : NULL;
    if (!original) return refuse(err, doc, RB_E_UNSUPPORTED, "the original of this race recording does not read back");
    const char *evidence = doc->format->record_encoding, *read_as = encoding_of(original);
    int proves = !evidence || !read_as || strcmp(evidence, read_as) == 0;
    int rc = 0;
    if (!proves && strcmp(encoding_of(doc), evidence) == 0) {
        rc = refuse(err, doc, RB_E_UNSUPPORTED,
                    "a race recording (a ghost or a replay) read from its text form is written in its game form only "
                    "beside its original: give the file it came from (--source ORIGINAL), and the recordings must be "
                    "unchanged (docs/usage.md \"Race recordings\")");
    } else {
        char path[1024] = "";
        int same = records_match(doc, original, path, sizeof path);
        if (same == -2) rc = refuse(err, doc, RB_E_NOMEM, "out of memory checking the race recordings");
        else if (same < 0) {
            char what[sizeof err->message];
            snprintf(what, sizeof what,
                     "%.200s is a race recording (a ghost or a replay) and differs from the file it came from: rebyte never "
                     "writes one changed, since a changed nickname, time or sample passes a run off as someone "
                     "else's; nothing written (docs/usage.md \"Race recordings\")",
                     path[0] ? path : "the file");
            rc = refuse(err, doc, RB_E_UNSUPPORTED, what);
        }
    }
    rb_doc_free(original);
    return rc;
}

int rb_records_guard(const rb_doc *doc, const uint8_t *out, size_t out_size, rb_error *err)
{
    if (!doc->format->is_recording) return 0;
    const rb_section *origin = origin_of(doc);
    if (origin && out_size == origin->size && (out == origin->data || memcmp(out, origin->data, out_size) == 0))
        return 0; /* (`out` is the original itself when a write against it was identical) */
    if (doc->recordings_proven) return 0; /* compared before this write by its editor (doc_state.h) */
    /* units still deferred: the model is its own file as read (an edit expands what it changes,
     * and a write against another original refuses a document with units deferred,
     * core/doc/doc_write.c), so its recordings are the file's */
    if (doc->deferred_units && origin && origin == bytes_of(doc)) return 0;
    if (!rb_doc_holds_recording(doc)) return 0;
    int built = !bytes_of(doc);
    if (!origin && built && doc->authored_recordings) return 0; /* a new fixture, claiming no run */
    if (!origin)
        return refuse(err, doc, RB_E_UNSUPPORTED,
                      "a race recording (a ghost or a replay) built from JSON is written only beside its original: give "
                      "the file it came from (--source ORIGINAL, or the dump's \"$source\"), and the recordings must be "
                      "unchanged; a new test fixture is built with --new-recording (docs/usage.md \"Race recordings\")");
    return compare_with_origin(doc, origin, err);
}
