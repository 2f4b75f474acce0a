/* `rebyte info`: what a document is, in one JSON object (include/rebyte.h rb_doc_info). */
#include <stdlib.h>
#include <string.h>
#include "core/doc/doc.h"
#include "core/doc/doc_view.h"
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

/* The summary on the view of the units it reads (the same JSON as on the full read: the law
 * info_deferred, docs/performance.md "Info and check on a deferred read"). */
static int summary_reads(const rb_doc *doc, const rb_node *unit, void *context)
{
    (void)context;
    return !doc->format->summary_reads || doc->format->summary_reads(doc, unit);
}

static void take_summary(const rb_doc *view, void *context)
{
    *(json_t **)context = view->format->summary(view);
}

static rb_status summarize(const rb_doc *doc, json_t **summary, rb_error *err)
{
    *summary = NULL;
    if (!doc->format->summary) return RB_OK;
    return rb_doc_view_walk(doc, summary_reads, summary, take_summary, err);
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

/* `rebyte check` on a deferred document: the rules that read only nodes on the document, the
 * others on a view with the units they read (rb_rule_reads.unit) read alone; the same violations,
 * in the same order, as on the full read (the law check_deferred). */
typedef struct rules_walk {
    const rb_doc *doc;
    rb_check_report report;
    void *context;
    size_t found;
} rules_walk;

static int rules_read(const rb_doc *doc, const rb_node *unit, void *context)
{
    (void)context;
    return rb_rules_read_unit(doc, unit);
}

static void run_rules(const rb_doc *view, void *context)
{
    rules_walk *w = context;
    w->found = rb_rules_run_split(w->doc, view, w->report, w->context);
}

rb_status rb_doc_check(const rb_doc *doc, rb_check_report report, void *context, size_t *problems, rb_error *err)
{
    if (problems) *problems = 0;
    rb_error_clear(err);
    rules_walk w = {doc, report, context, 0};
    rb_status status = rb_doc_view_walk(doc, rules_read, &w, run_rules, err);
    if (problems) *problems = w.found;
    return status;
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
