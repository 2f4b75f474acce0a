/* The document layer: parse, write, coverage, error text, the format registry. */
#include "doc.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rb_limits_default(rb_limits *limits)
{
    limits->max_decompressed_size = 512ull << 20;
    limits->max_count = 16ull << 20;
    limits->max_depth = 64;
    limits->max_string = 64ull << 20;
}

const char *rb_error_format(const rb_error *e, char *out, size_t size)
{
    char where[96] = "";
    if (e->has_offset) snprintf(where, sizeof where, "%s @0x%" PRIx64 ": ", e->section, e->offset);
    else if (e->section[0]) snprintf(where, sizeof where, "%s: ", e->section);
    snprintf(out, size, "%s%s%s%s%s%s", e->file[0] ? e->file : "", e->file[0] ? ": " : "", where, e->path,
             e->path[0] ? ": " : "", e->message);
    return out;
}

void rb_doc_init(rb_doc *doc, const char *file_name, const rb_limits *limits)
{
    memset(doc, 0, sizeof(*doc));
    rb_arena_init(&doc->arena);
    pthread_rwlock_init(&doc->lock, NULL);
    pthread_mutex_init(&doc->report_lock, NULL);
    snprintf(doc->file_name, sizeof doc->file_name, "%s", file_name ? file_name : "");
    if (limits) doc->limits = *limits;
    else rb_limits_default(&doc->limits);
}

size_t rb_doc_note_count(const rb_doc *doc) { return doc->note_count + doc->notes_dropped; }

const char *rb_doc_note(const rb_doc *doc, size_t index)
{
    if (index < doc->note_count) return doc->notes[index];
    return index < doc->note_count + doc->notes_dropped ? "(further notes not kept)" : NULL;
}

void rb_doc_keep_alive(rb_doc *doc, rb_doc *original)
{
    while (doc->kept) doc = doc->kept;
    doc->kept = original;
}

void rb_doc_free(rb_doc *doc)
{
    if (!doc) return;
    rb_doc_free(doc->kept);
    rb_doc_free(doc->companion);
    if (doc->select_index_free) doc->select_index_free(doc);
    if (doc->format_index && doc->format && doc->format->free_index) doc->format->free_index(doc->format_index);
    free(doc->notes);
    for (size_t i = 0; i < doc->owned_count; i++) free(doc->owned[i]);
    free(doc->owned);
    free(doc->sections);
    free(doc->streams);
    free(doc->derived_offsets);
    rb_arena_free(&doc->arena);
    pthread_rwlock_destroy(&doc->lock);
    pthread_mutex_destroy(&doc->report_lock);
    free(doc);
}

static void set_error(rb_error *err, rb_status status, const char *file, const char *message)
{
    if (!err) return;
    memset(err, 0, sizeof(*err));
    err->status = status;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    snprintf(err->message, sizeof err->message, "%s", message);
}

const char *rb_detect_format(const uint8_t *data, size_t size)
{
    const rb_format *f = rb_format_detect(data, size);
    return f ? f->name : NULL;
}

rb_doc *rb_doc_parse_as(const rb_format *format, const uint8_t *data, size_t size, const rb_read_options *options,
                        rb_error *err)
{
    const char *name = options ? options->file_name : NULL;
    rb_doc *doc = malloc(sizeof(*doc));
    if (!doc) { set_error(err, RB_E_NOMEM, name, "out of memory"); return NULL; }
    rb_doc_init(doc, name, options ? options->limits : NULL);
    doc->record_derived_offsets = options && options->record_derived_offsets;
    doc->format = format;
    rb_doc_add_section(doc, "file", data, size, NULL);
    doc->root = rb_node_new(&doc->arena, RB_K_RECORD, NULL);
    rb_ar *ar = doc->root ? rb_ar_new_read(doc, data, size, doc->root) : NULL;
    if (!ar) { set_error(err, RB_E_NOMEM, name, "out of memory"); rb_doc_free(doc); return NULL; }
    format->describe(ar);
    int ok = rb_ar_finish(ar);
    if (ok && format->after_read) format->after_read(doc);
    if (!ok && err) *err = *rb_ar_error(ar);
    rb_ar_free(ar);
    if (!ok) { rb_doc_free(doc); return NULL; }
    return doc;
}

rb_doc *rb_doc_parse(const uint8_t *data, size_t size, const rb_read_options *options, rb_error *err)
{
    const rb_format *format = rb_format_detect(data, size);
    if (!format) {
        set_error(err, RB_E_UNSUPPORTED, options ? options->file_name : NULL,
                  "not a format rebyte knows (detected by content; see `rebyte formats`)");
        return NULL;
    }
    return rb_doc_parse_as(format, data, size, options, err);
}

rb_doc *rb_doc_from_json(const rb_format *format, json_t *json, const rb_doc *blob_source, const char *name,
                         rb_error *err)
{
    rb_doc *doc = malloc(sizeof(*doc));
    if (!doc) { set_error(err, RB_E_NOMEM, name, "out of memory"); return NULL; }
    rb_doc_init(doc, name, blob_source ? &blob_source->limits : NULL);
    doc->format = format;
    doc->blob_source = blob_source;
    rb_doc_add_section(doc, "json", NULL, 0, NULL);
    doc->root = rb_node_new(&doc->arena, RB_K_RECORD, NULL);
    rb_ar *ar = doc->root ? rb_ar_new_from_json(doc, json, doc->root) : NULL;
    if (!ar) { set_error(err, RB_E_NOMEM, name, "out of memory"); rb_doc_free(doc); return NULL; }
    format->describe(ar);
    int ok = rb_ar_finish(ar);
    if (ok && format->after_read) format->after_read(doc);
    if (!ok && err) *err = *rb_ar_error(ar);
    rb_ar_free(ar);
    if (!ok) { rb_doc_free(doc); return NULL; }
    return doc;
}

const char *rb_doc_format(const rb_doc *doc) { return doc->format->name; }
/* Every table and packed record below `n` becomes the nodes it stands for (0: out of memory). */
static int expand_all(rb_node *n)
{
    if ((n->kind == RB_K_TABLE || n->kind == RB_K_PACKED) && !rb_table_expand(n)) return 0;
    if (!rb_node_is_container(n)) return 1;
    for (size_t i = 0; i < n->v.kids.count; i++)
        if (!expand_all(n->v.kids.items[i])) return 0;
    return 1;
}

/* The C API navigates nodes: the first call turns every packed table into nodes, holding the
 * document's lock exclusive, so navigation after it never changes the model and any number of
 * threads may read at once (docs/performance.md "Reads never write"). */
rb_node *rb_doc_root(rb_doc *doc)
{
    if (!__atomic_load_n(&doc->navigable, __ATOMIC_ACQUIRE)) {
        pthread_rwlock_wrlock(&doc->lock);
        if (!doc->navigable && expand_all(doc->root)) __atomic_store_n(&doc->navigable, 1, __ATOMIC_RELEASE);
        pthread_rwlock_unlock(&doc->lock);
    }
    return doc->root;
}

/* The write both rb_doc_write and rb_doc_write_against do; `expected` may be NULL. */
static rb_status write_doc_unlocked(rb_doc *doc, const rb_write_options *options, const uint8_t *expected,
                                    size_t expected_size, int *identical, uint8_t **out, size_t *out_size,
                                    rb_error *err);

/* A write reads the model (several may run at once); its stream reports are kept under a lock of
 * their own (rb_doc_stream_reports). */
static rb_status write_doc(rb_doc *doc, const rb_write_options *options, const uint8_t *expected,
                           size_t expected_size, int *identical, uint8_t **out, size_t *out_size, rb_error *err)
{
    rb_doc_read_begin(doc);
    rb_status st = write_doc_unlocked(doc, options, expected, expected_size, identical, out, out_size, err);
    rb_doc_read_end(doc);
    return st;
}

static rb_status write_doc_unlocked(rb_doc *doc, const rb_write_options *options, const uint8_t *expected,
                                    size_t expected_size, int *identical, uint8_t **out, size_t *out_size,
                                    rb_error *err)
{
    *out = NULL;
    *out_size = 0;
    rb_ar *ar = rb_ar_new_write(doc, doc->root, options ? options->reencode : 0, options ? options->decoded : 0);
    if (ar && options) rb_ar_set_reencode_codec(ar, options->reencode_codec);
    if (!ar) { set_error(err, RB_E_NOMEM, doc->file_name, "out of memory"); return RB_E_NOMEM; }
    if (expected) rb_buf_expect(rb_ar_output(ar), expected, expected_size);
    doc->format->describe(ar);
    int ok = rb_ar_finish(ar);
    if (!ok) {
        if (err) *err = *rb_ar_error(ar);
        rb_status st = rb_ar_error(ar)->status;
        rb_ar_free(ar);
        return st ? st : RB_E_MODEL;
    }
    if (identical) *identical = rb_buf_holds_expected(rb_ar_output(ar));
    if (identical && *identical) {
        *out_size = expected_size;
        rb_ar_free(ar);
        return RB_OK;
    }
    *out = rb_buf_take(rb_ar_output(ar), out_size);
    rb_ar_free(ar);
    if (!*out) return RB_E_NOMEM;
    /* the buffer's verdict is conservative: it leaves its compare mode at a byte put unlike the
     * expected one (or a patch of part of a placeholder) even when later patches make the bytes
     * equal; then the bytes decide */
    if (identical && *out_size == expected_size && memcmp(*out, expected, expected_size) == 0) {
        *identical = 1;
        free(*out);
        *out = NULL;
    }
    return RB_OK;
}

rb_status rb_doc_write(rb_doc *doc, const rb_write_options *options, uint8_t **out, size_t *out_size, rb_error *err)
{
    return write_doc(doc, options, NULL, 0, NULL, out, out_size, err);
}

rb_status rb_doc_write_against(rb_doc *doc, const rb_write_options *options, const uint8_t *expected,
                               size_t expected_size, int *identical, uint8_t **out, size_t *out_size,
                               rb_error *err)
{
    *identical = 0;
    if (!expected) expected_size = 0;
    static const uint8_t nothing[1];
    return write_doc(doc, options, expected ? expected : nothing, expected_size, identical, out, out_size, err);
}

static void count_coverage(const rb_node *n, rb_coverage *c)
{
    switch (n->kind) {
    case RB_K_RECORD:
    case RB_K_LIST:
    case RB_K_STREAM:
        for (size_t i = 0; i < n->v.kids.count; i++) count_coverage(n->v.kids.items[i], c);
        return;
    case RB_K_OPAQUE:
        c->opaque_bytes += n->v.bytes.size;
        if (n->key && strcmp(n->key, "opaqueTail") == 0) c->opaque_tail = 1;
        return;
    default:
        c->typed_bytes += n->src_size;
    }
}

static void coverage_unlocked(const rb_doc *doc, rb_coverage *coverage)
{
    memset(coverage, 0, sizeof(*coverage));
    count_coverage(doc->root, coverage);
}

void rb_doc_coverage(const rb_doc *doc, rb_coverage *coverage)
{
    rb_doc_read_begin(doc);
    coverage_unlocked(doc, coverage);
    rb_doc_read_end(doc);
}

size_t rb_doc_stream_reports(const rb_doc *doc, rb_stream_report *reports, size_t max)
{
    size_t n = 0;
    pthread_mutex_lock((pthread_mutex_t *)&doc->report_lock);
    for (size_t i = 0; i < doc->stream_count && n < max; i++) reports[n++] = doc->streams[i]->stream->report;
    pthread_mutex_unlock((pthread_mutex_t *)&doc->report_lock);
    return n;
}

static int find_path(const rb_node *n, uint16_t section, uint64_t offset, char *out, size_t size, int top);

/* Inside a table: the element and, within it, the deepest field that covers `offset` (a packed
 * record: the field). */
static void table_path(const rb_node *table, uint64_t offset, char *out, size_t size)
{
    size_t index = (size_t)((offset - table->src_offset) / table->table->stride), len = strlen(out);
    if (table->kind == RB_K_TABLE) snprintf(out + len, size - len, "[%zu]", index);
    rb_node nodes[RB_LAYOUT_MAX_FIELDS + 1];
    rb_node *kids[RB_LAYOUT_MAX_FIELDS];
    rb_node *element = rb_table_element(table, index, nodes, kids);
    find_path(element, table->section, offset, out, size, 0);
}

/* Deepest node read from section `section` that covers `offset`. */
static int find_path(const rb_node *n, uint16_t section, uint64_t offset, char *out, size_t size, int top)
{
    if (!rb_node_is_container(n)) return 0;
    for (size_t i = 0; i < n->v.kids.count; i++) {
        const rb_node *c = n->v.kids.items[i];
        int covers = c->section == section && offset >= c->src_offset && offset < (uint64_t)c->src_offset + c->src_size;
        int descend = rb_node_is_container(c) && (covers || c->kind == RB_K_STREAM || c->src_size == 0);
        if (!covers && !descend) continue;
        size_t len = strlen(out);
        if (c->key) snprintf(out + len, size - len, "%s%s", top ? "" : " > ", c->key);
        else snprintf(out + len, size - len, "[%zu]", i);
        if ((c->kind == RB_K_TABLE || c->kind == RB_K_PACKED) && covers) table_path(c, offset, out, size);
        if (find_path(c, section, offset, out, size, 0) || covers) return 1;
        out[len] = 0;
    }
    return 0;
}

void rb_doc_path_at_section(const rb_doc *doc, uint16_t section, uint64_t offset, char *out, size_t size)
{
    out[0] = 0;
    find_path(doc->root, section, offset, out, size, 1);
}

static void path_at_unlocked(const rb_doc *doc, uint64_t offset, char *out, size_t size)
{
    rb_doc_path_at_section(doc, 0, offset, out, size);
}

void rb_doc_path_at(const rb_doc *doc, uint64_t offset, char *out, size_t size)
{
    rb_doc_read_begin(doc);
    path_at_unlocked(doc, offset, out, size);
    rb_doc_read_end(doc);
}
