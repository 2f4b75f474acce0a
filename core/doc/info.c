/* `rebyte info`: what a document is, in one JSON object (include/rebyte.h rb_doc_info). */
#include <stdlib.h>
#include <string.h>
#include "core/doc/doc.h"
#include "core/error.h"
#include "core/json/json.h"
#include "core/doc/rules.h"

/* The root's scalar fields (version, class id, compression, ...) as the model spells them. */
static json_t *header_fields(const rb_doc *doc)
{
    json_t *header = json_object();
    for (size_t i = 0; i < doc->root->v.kids.count; i++) {
        const rb_node *c = doc->root->v.kids.items[i];
        if (c->kind == RB_K_INT || c->kind == RB_K_BOOL || c->kind == RB_K_FLOAT)
            json_object_set_new(header, c->key, rb_model_to_json(doc, c, RB_BLOBS_OMIT));
    }
    return header;
}

static int is_root_member(const rb_doc *doc, const rb_node *n)
{
    for (size_t i = 0; i < doc->root->v.kids.count; i++)
        if (doc->root->v.kids.items[i] == n) return 1;
    return 0;
}

/* The file's own compressed streams by name (a map's "body"); the streams of files embedded in
 * it (an item's body inside a map, a zip entry) are counted apart, so they never stand for the
 * file's own (an embedded item's 2 KB body once showed as the map's). */
static void streams(json_t *o, const rb_doc *doc)
{
    json_int_t nested = 0, nested_compressed = 0, nested_decompressed = 0;
    for (size_t i = 0; i < doc->stream_count; i++) {
        const rb_node *n = doc->streams[i];
        const rb_stream_info *s = n->stream;
        if (!is_root_member(doc, n) || !n->key || json_object_get(o, n->key)) {
            nested++;
            nested_compressed += (json_int_t)s->original_size;
            nested_decompressed += (json_int_t)s->content_size;
            continue;
        }
        json_object_set_new(o, n->key, json_pack("{s:s,s:I,s:I}", "codec", s->codec, "compressed_size",
                                                 (json_int_t)s->original_size, "decompressed_size",
                                                 (json_int_t)s->content_size));
    }
    if (nested)
        json_object_set_new(o, "embedded_streams",
                            json_pack("{s:I,s:I,s:I}", "count", nested, "compressed_size", nested_compressed,
                                      "decompressed_size", nested_decompressed));
}

/* ---------- a deferred document: the summary's units read alone ---------- */

/* Building the summary's view of a deferred document: the containers from the root down to the
 * units the summary reads copied, those units read alone; every other node is the document's
 * own (docs/performance.md "Info on a deferred read"). */
typedef struct summary_view {
    const rb_doc *doc;
    rb_arena *arena;
    const rb_node *chain[RB_UNIT_CHAIN]; /* the containers above the node walked, the root first */
    size_t depth;
    rb_error *err;
} summary_view;

static int is_walked(const rb_node *n)
{
    return n->kind == RB_K_RECORD || n->kind == RB_K_LIST || n->kind == RB_K_STREAM;
}

/* The deferred child `index` of `parent` as the summary sees it: read alone when it reads it. */
static const rb_node *view_unit(summary_view *v, const rb_node *parent, size_t index)
{
    const rb_node *unit = parent->v.kids.items[index];
    const rb_format *format = v->doc->format;
    if (format->summary_reads && !format->summary_reads(v->doc, unit)) return unit;
    const rb_node *above[RB_UNIT_CHAIN]; /* nearest first, as rb_unit_place wants them */
    for (size_t i = 0; i < v->depth; i++) above[i] = v->chain[v->depth - 1 - i];
    rb_unit_place place = {unit, parent, index, above, v->depth};
    return v->doc->expand_unit(v->doc, &place, v->arena, v->err);
}

static const rb_node *out_of_memory(summary_view *v)
{
    rb_error_set(v->err, RB_E_NOMEM, v->doc->file_name, NULL, "out of memory");
    return NULL;
}

/* `n` as the summary sees it: a copy when a unit below it was read, else `n` itself; NULL with
 * the error when a unit does not read. */
static const rb_node *view_of(summary_view *v, const rb_node *n)
{
    if (!is_walked(n) || v->depth + 1 >= RB_UNIT_CHAIN) return n;
    rb_node **kids = NULL;
    for (size_t i = 0; i < n->v.kids.count; i++) {
        const rb_node *kid = n->v.kids.items[i], *seen;
        if (kid->kind == RB_K_DEFERRED) {
            seen = view_unit(v, n, i);
        } else {
            v->chain[v->depth++] = n;
            seen = view_of(v, kid);
            v->depth--;
        }
        if (!seen) return NULL;
        if (seen == kid) continue;
        if (!kids && !(kids = rb_arena_dup(v->arena, n->v.kids.items, n->v.kids.count * sizeof *kids))) return out_of_memory(v);
        kids[i] = (rb_node *)seen; /* the view's copy holds them; only the summary reads it, read only */
    }
    if (!kids) return n;
    rb_node *copy = rb_arena_dup(v->arena, n, sizeof *n);
    if (!copy) return out_of_memory(v);
    copy->v.kids.items = kids;
    return copy;
}

/* A deferred document whose units cannot be read alone (or a deferring build's): a copy of its
 * model expanded as rb_doc_expand expands the document (its file read or built again in full),
 * the document itself untouched. */
static rb_status summarize_expanded_copy(const rb_doc *doc, json_t **summary, rb_error *err)
{
    rb_doc *copy = rb_doc_copy_model(doc);
    if (!copy) {
        rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory");
        return RB_E_NOMEM;
    }
    rb_status status = rb_doc_expand(copy, err);
    if (status == RB_OK) *summary = doc->format->summary(copy);
    rb_doc_free(copy);
    return status;
}

/* The format's summary of `doc`; on a deferred document, of a view with the units it reads
 * read alone (the same JSON as on the full read: the law info_deferred_agrees). */
static rb_status summarize(const rb_doc *doc, json_t **summary, rb_error *err)
{
    *summary = NULL;
    if (!doc->format->summary) return RB_OK;
    if (!doc->deferred_units) {
        *summary = doc->format->summary(doc);
        return RB_OK;
    }
    if (!doc->expand_unit || !rb_doc_units_read_alone(doc)) return summarize_expanded_copy(doc, summary, err);
    rb_arena arena;
    rb_arena_init(&arena);
    rb_error why;
    rb_error_clear(&why);
    summary_view v = {.doc = doc, .arena = &arena, .err = &why};
    const rb_node *root = view_of(&v, doc->root);
    rb_status status = root ? RB_OK : why.status ? why.status : RB_E_NOMEM;
    if (!root && err) rb_error_copy(err, &why);
    if (root) {
        rb_doc seen = *doc;
        seen.root = (rb_node *)root; /* the document's fields, the view's nodes: the summary only reads */
        *summary = doc->format->summary(&seen);
    }
    rb_arena_free(&arena);
    return status;
}

static char *describe(const rb_doc *doc, const char *file_name, size_t file_size, json_t *summary)
{
    json_t *o = json_object();
    json_object_set_new(o, "file", json_string(file_name ? file_name : doc->file_name));
    json_object_set_new(o, "format", json_string(doc->format->name));
    json_object_set_new(o, "description", json_string(doc->format->description));
    json_object_set_new(o, "size", json_integer((json_int_t)file_size));
    json_object_set_new(o, "header", header_fields(doc));
    streams(o, doc);
    /* what the format says beyond its header (its registry entry's summary hook) */
    if (summary) json_object_update(o, summary);
    rb_coverage cov = RB_COVERAGE_INIT;
    rb_doc_coverage(doc, &cov);
    json_object_set_new(o, "coverage", json_pack("{s:I,s:I,s:b}", "typed_bytes", (json_int_t)cov.typed_bytes,
                                                 "opaque_bytes", (json_int_t)cov.opaque_bytes, "opaque_tail",
                                                 cov.opaque_tail));
    char *text = rb_json_compact_text(o); /* floats as the dump spells them (docs/usage.md "Paths and selectors") */
    json_decref(o);
    return text;
}

rb_status rb_doc_info(const rb_doc *doc, const char *file_name, size_t file_size, char **info_json, rb_error *err)
{
    if (!info_json) return RB_E_USAGE;
    *info_json = NULL;
    if (!doc) {
        rb_error_set(err, RB_E_USAGE, file_name, NULL, "rb_doc_info: no document");
        return RB_E_USAGE;
    }
    /* header, streams and coverage are what a deferred read keeps; the summary reads units */
    json_t *summary;
    rb_status status = summarize(doc, &summary, err);
    if (status != RB_OK) return status;
    *info_json = describe(doc, file_name, file_size, summary);
    json_decref(summary);
    if (*info_json) return RB_OK;
    rb_error_set(err, RB_E_NOMEM, file_name, NULL, "out of memory while describing the document");
    return RB_E_NOMEM;
}

rb_status rb_doc_check(const rb_doc *doc, rb_check_report report, void *context, size_t *problems, rb_error *err)
{
    if (problems) *problems = 0;
    rb_error_clear(err);
    if (rb_doc_refuse_deferred(doc, "check", err)) return RB_E_DEFERRED;
    size_t found = rb_rules_run(doc, report, context);
    if (problems) *problems = found;
    return RB_OK;
}

static rb_status transform_model(const rb_doc *doc, const char *name, const char *options_json, char **patch_json,
                                 char **report_json, rb_error *err)
{
    *patch_json = NULL;
    if (report_json) *report_json = NULL;
    rb_error_clear(err);
    json_t *options = json_loads(options_json ? options_json : "{}", 0, NULL), *patch = NULL, *report = NULL;
    char why[512] = "";
    int rc = -1;
    if (!options) snprintf(why, sizeof why, "the options are not JSON");
    else if (!doc->format->transform) snprintf(why, sizeof why, "%s has no transform \"%s\"", doc->format->name, name);
    else rc = doc->format->transform(doc, name, options, &patch, &report, why, sizeof why);
    json_decref(options);
    if (rc == 0) {
        *patch_json = json_dumps(patch, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        if (report_json && report) *report_json = json_dumps(report, JSON_COMPACT | JSON_PRESERVE_ORDER);
    }
    json_decref(patch);
    json_decref(report);
    if (rc == 0 && *patch_json) return RB_OK;
    if (err) {
        err->status = rc == 0 ? RB_E_NOMEM : RB_E_UNSUPPORTED;
        snprintf(err->file, sizeof err->file, "%s", doc->file_name);
        snprintf(err->message, sizeof err->message, "%s", rc == 0 ? "out of memory" : why);
    }
    return rc == 0 ? RB_E_NOMEM : RB_E_UNSUPPORTED;
}

rb_status rb_doc_transform(const rb_doc *doc, const char *name, const char *options_json, char **patch_json,
                           char **report_json, rb_error *err)
{
    *patch_json = NULL;
    if (report_json) *report_json = NULL;
    if (rb_doc_refuse_deferred(doc, "a transform", err)) return RB_E_DEFERRED;
    return transform_model(doc, name, options_json, patch_json, report_json, err);
}

/* The encoding is a header field, which a deferred document keeps as a node. */
const char *rb_doc_encoding(const rb_doc *doc)
{
    return doc->format->encoding ? doc->format->encoding(doc) : NULL;
}

/* The format's hook sets the encoding in every node that carries it: the units too. */
rb_status rb_doc_set_encoding(rb_doc *doc, const char *encoding)
{
    rb_status expanded = rb_doc_expand(doc, NULL);
    if (expanded != RB_OK) return expanded;
    if (!doc->format->set_encoding || doc->format->set_encoding(doc, encoding) != 0) return RB_E_UNSUPPORTED;
    return RB_OK;
}
