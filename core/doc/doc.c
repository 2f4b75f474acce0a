/* The document layer: parse as a given format, navigation (writing: doc_write.c; coverage:
 * core/model/coverage.c; error text: core/error.c; finding a file's format: core/registry/). */
#include "core/doc/doc.h"
#include "core/archive/archive_unit.h"
#include "core/error.h"
#include "core/options.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const rb_limits default_limits = {sizeof(rb_limits), 512ull << 20, 16ull << 20, 64, 64ull << 20};

/* Only the fields the caller's struct has (its size): a caller built against an older header has
 * a shorter struct. A size of 0, or one above this library's, is taken as this library's (the
 * fields it does not know stay as the caller set them: 0, their default). */
void rb_limits_default(rb_limits *limits)
{
    size_t size = limits->size;
    if (size == 0 || size > sizeof(rb_limits)) size = sizeof(rb_limits);
    memcpy(limits, &default_limits, size);
    limits->size = size;
}

/* A limit left 0 is its default (include/rebyte.h rb_limits). */
static void limits_or_defaults(rb_limits *limits)
{
    if (!limits->max_decompressed_size) limits->max_decompressed_size = default_limits.max_decompressed_size;
    if (!limits->max_count) limits->max_count = default_limits.max_count;
    if (!limits->max_depth) limits->max_depth = default_limits.max_depth;
    if (!limits->max_string) limits->max_string = default_limits.max_string;
}

static void rb_doc_init(rb_doc *doc, const char *file_name, const rb_limits *limits)
{
    memset(doc, 0, sizeof(*doc));
    rb_arena_init(&doc->arena);
    pthread_mutex_init(&doc->report_lock, NULL);
    snprintf(doc->file_name, sizeof doc->file_name, "%s", file_name ? file_name : "");
    if (limits) doc->limits = *limits;
    else doc->limits = default_limits;
    limits_or_defaults(&doc->limits);
}

size_t rb_doc_note_count(const rb_doc *doc) { return doc->note_count + doc->notes_dropped; }

const char *rb_doc_note(const rb_doc *doc, size_t index)
{
    if (index < doc->note_count) return doc->notes[index];
    return index < doc->note_count + doc->notes_dropped ? "(further notes not kept)" : NULL;
}

/* What one read of the file made: the model, its arena, sections, streams, notes. */
static void free_model(rb_doc *doc)
{
    rb_doc_free_read_products(doc);
    rb_arena_free(&doc->arena);
}

void rb_doc_free(rb_doc *doc)
{
    if (!doc) return;
    rb_doc_free(doc->companion);
    if (doc->select_index_free) doc->select_index_free(doc);
    if (doc->format_index && doc->format && doc->format->free_index) doc->format->free_index(doc->format_index);
    free_model(doc);
    pthread_mutex_destroy(&doc->report_lock);
    free(doc);
}

/* The caller's read options and limits in this library's layout (core/options.h). */
static int take_read_options(const rb_read_options *in, rb_read_options *options, rb_limits *limits, rb_error *err)
{
    char why[200];
    if (rb_options_take(options, sizeof *options, in, sizeof(rb_read_options), "rb_read_options", why, sizeof why) ||
        rb_options_take(limits, sizeof *limits, options->limits, sizeof(rb_limits), "rb_limits", why, sizeof why)) {
        rb_error_set(err, RB_E_USAGE, in ? in->file_name : NULL, NULL, "%s", why);
        return -1;
    }
    return 0;
}

/* Reads `data` (section 0) into the document's empty model with its format's description. */
static int read_model(rb_doc *doc, const uint8_t *data, size_t size, const char *name, rb_error *err)
{
    rb_doc_add_section(doc, "file", data, size, NULL);
    doc->root = rb_node_new(&doc->arena, RB_K_RECORD, NULL);
    rb_ar *ar = doc->root ? rb_ar_new_read(doc, data, size, doc->root) : NULL;
    if (!ar) { rb_error_set(err, RB_E_NOMEM, name, NULL, "out of memory"); return 0; }
    doc->format->describe(ar);
    int ok = rb_ar_finish(ar);
    if (ok && doc->format->after_read) doc->format->after_read(doc);
    if (!ok) rb_error_copy(err, rb_ar_error(ar));
    rb_ar_free(ar);
    return ok;
}

/* The model of a document with deferred units, expanded: the file read again without deferring
 * into the same document (its tables point at its arena), the deferred model freed. Reading the
 * whole file again is what expanding every unit at once comes to, and it gives the full read's
 * model by construction (docs/performance.md "The deferred model"). A read that fails (the input
 * changed since, out of memory) leaves the deferred model as it was and says why in `err`. */
static int read_again_in_full(rb_doc *doc, rb_error *err)
{
    rb_doc *deferred = calloc(1, sizeof *deferred);
    if (!deferred) {
        rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory");
        return 0;
    }
    rb_doc_swap_model(doc, deferred); /* doc's model is empty now */
    int defer_units = doc->defer_units;
    doc->defer_units = 0; /* no unit is deferred again: deferred_units stays until the end */
    /* The format's index points into the deferred nodes: the read below builds one on the new
     * nodes (a GROFF name table's index is built after every read), and a failed read puts the
     * deferred model back with its index. */
    void *deferred_index = doc->format_index;
    doc->format_index = NULL;
    const rb_section *file = &deferred->sections[0];
    if (!read_model(doc, file->data, file->size, doc->file_name, err)) {
        free_model(doc);
        rb_doc_swap_model(doc, deferred);
        free(deferred);
        doc->defer_units = defer_units;
        doc->format_index = deferred_index;
        return 0;
    }
    if (deferred_index && doc->format->free_index) doc->format->free_index(deferred_index);
    /* the same file gives the same streams, in the same order: a write's reports carry over */
    for (size_t i = 0; i < doc->stream_count && i < deferred->stream_count; i++)
        doc->streams[i]->stream->report = deferred->streams[i]->stream->report;
    free_model(deferred);
    free(deferred);
    /* lookups over the model are rebuilt on the new nodes when next asked for */
    if (doc->select_index_free) doc->select_index_free(doc);
    doc->select_index = NULL;
    doc->select_index_free = NULL;
    doc->deferred_units = 0;
    return 1;
}

/* A deferred read's units made nodes: each read alone in its place when the format can (the
 * expansion per unit: the nodes parts stay as they are), else the whole file read again. A unit
 * that does not read leaves the model whole, the units before it expanded. */
static int expand_read(rb_doc *doc, rb_error *err)
{
    if (!rb_doc_units_read_alone(doc)) return read_again_in_full(doc, err);
    int ok = rb_doc_expand_units_alone(doc, err);
    /* lookups over the model are rebuilt on the new nodes when next asked for */
    if (doc->select_index_free) doc->select_index_free(doc);
    doc->select_index = NULL;
    doc->select_index_free = NULL;
    if (ok && doc->deferred_units) return read_again_in_full(doc, err); /* one too deep to read alone */
    return ok;
}

static rb_doc *parse_as(const rb_format *format, const uint8_t *data, size_t size, const rb_read_options *caller,
                        const rb_doc *known, rb_error *err);

rb_doc *rb_doc_parse_as(const rb_format *format, const uint8_t *data, size_t size, const rb_read_options *caller,
                        rb_error *err)
{
    return parse_as(format, data, size, caller, NULL, err);
}

rb_doc *rb_doc_parse_beside(const rb_format *format, const uint8_t *data, size_t size, const rb_read_options *caller,
                            const rb_doc *known, rb_error *err)
{
    return parse_as(format, data, size, caller, known, err);
}

static rb_doc *parse_as(const rb_format *format, const uint8_t *data, size_t size, const rb_read_options *caller,
                        const rb_doc *known, rb_error *err)
{
    rb_read_options options;
    rb_limits limits;
    if (take_read_options(caller, &options, &limits, err)) return NULL;
    const char *name = options.file_name;
    rb_doc *doc = malloc(sizeof(*doc));
    if (!doc) { rb_error_set(err, RB_E_NOMEM, name, NULL, "out of memory"); return NULL; }
    rb_doc_init(doc, name, &limits);
    doc->record_derived_offsets = options.record_derived_offsets;
    doc->defer_units = options.defer;
    doc->check_units = options.check_units;
    doc->expand = expand_read;
    doc->expand_unit = rb_doc_expand_unit;
    doc->format = format;
    doc->units_known = known;
    int ok = read_model(doc, data, size, name, err);
    doc->units_known = NULL; /* the read alone takes units from it */
    if (!ok) { rb_doc_free(doc); return NULL; }
    return doc;
}

/* `n` and what is below it, in `arena`: containers and side data copied, values' bytes shared. */
static rb_node *copy_tree(rb_arena *arena, const rb_node *n)
{
    rb_node *c = rb_arena_dup(arena, n, sizeof *n);
    if (!c) return NULL;
    if (n->kind == RB_K_TABLE || n->kind == RB_K_PACKED) { /* expanded into the copy's arena */
        if (!(c->table = rb_arena_dup(arena, n->table, sizeof *n->table))) return NULL;
        c->table->arena = arena;
        return c;
    }
    if (!rb_node_is_container(n)) return c; /* a stream's and a deferred unit's side data are read only */
    c->v.kids.cap = n->v.kids.count;
    c->v.kids.items = n->v.kids.count ? rb_arena_alloc(arena, n->v.kids.count * sizeof *c->v.kids.items) : NULL;
    if (n->v.kids.count && !c->v.kids.items) return NULL;
    for (size_t i = 0; i < n->v.kids.count; i++)
        if (!(c->v.kids.items[i] = copy_tree(arena, n->v.kids.items[i]))) return NULL;
    return c;
}

rb_doc *rb_doc_copy_model(const rb_doc *doc)
{
    rb_doc *copy = malloc(sizeof *copy);
    if (!copy) return NULL;
    rb_doc_init(copy, doc->file_name, &doc->limits);
    copy->format = doc->format;
    copy->defer_units = doc->defer_units;
    copy->deferred_units = doc->deferred_units;
    copy->expand = doc->expand;
    copy->expand_unit = doc->expand_unit;
    copy->navigable = doc->navigable;
    int ok = 1;
    for (size_t i = 0; ok && i < doc->section_count; i++)
        ok = rb_doc_add_section(copy, doc->sections[i].name, doc->sections[i].data, doc->sections[i].size, NULL) >= 0;
    if (ok && !(copy->root = copy_tree(&copy->arena, doc->root))) ok = 0;
    /* the format's index over the nodes (a GROFF name table's) is made for the copy's */
    if (ok && doc->format_index && doc->format->after_read) doc->format->after_read(copy);
    if (!ok) { rb_doc_free(copy); return NULL; }
    return copy;
}

rb_doc *rb_doc_from_json_loader(const rb_format *format, json_t *json, struct rb_json_loader *loader,
                                const rb_doc *blob_source, const char *name, int defer, rb_error *err)
{
    rb_doc *doc = malloc(sizeof(*doc));
    if (!doc) { rb_error_set(err, RB_E_NOMEM, name, NULL, "out of memory"); return NULL; }
    rb_doc_init(doc, name, blob_source ? &blob_source->limits : NULL);
    doc->defer_units = defer;
    doc->format = format;
    doc->blob_source = blob_source;
    rb_doc_add_section(doc, "json", NULL, 0, NULL);
    doc->root = rb_node_new(&doc->arena, RB_K_RECORD, NULL);
    rb_ar *ar = doc->root ? rb_ar_new_from_json(doc, json, doc->root) : NULL;
    if (!ar) { rb_error_set(err, RB_E_NOMEM, name, NULL, "out of memory"); rb_doc_free(doc); return NULL; }
    rb_ar_set_json_loader(ar, loader);
    format->describe(ar);
    int ok = rb_ar_finish(ar);
    if (ok && format->after_read) format->after_read(doc);
    if (!ok) rb_error_copy(err, rb_ar_error(ar));
    rb_ar_free(ar);
    if (!ok) { rb_doc_free(doc); return NULL; }
    return doc;
}

const char *rb_doc_format(const rb_doc *doc) { return doc->format->name; }
int rb_doc_tables_to_nodes(rb_node *n)
{
    if ((n->kind == RB_K_TABLE || n->kind == RB_K_PACKED) && !rb_table_expand(n)) return 0;
    if (!rb_node_is_container(n)) return 1;
    for (size_t i = 0; i < n->v.kids.count; i++)
        if (!rb_doc_tables_to_nodes(n->v.kids.items[i])) return 0;
    return 1;
}

rb_status rb_doc_expand(rb_doc *doc, rb_error *err)
{
    rb_error_clear(err);
    if (!doc->deferred_units) return RB_OK;
    if (!doc->expand) {
        rb_error_set(err, RB_E_UNSUPPORTED, doc->file_name, NULL, "this document's deferred units cannot be expanded");
        return RB_E_UNSUPPORTED;
    }
    if (doc->expand(doc, err)) return RB_OK;
    if (err && !err->status) rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory");
    return err ? err->status : RB_E_NOMEM;
}

/* The C API hands out node pointers a caller may keep and edit: the first call makes every
 * packed table nodes, so navigation after it never changes the model and any number of threads
 * may read at once (docs/performance.md "Reads never write"). */
rb_node *rb_doc_root(rb_doc *doc)
{
    if (doc->navigable) return doc->root;
    rb_error err;
    if (rb_doc_expand(doc, &err) != RB_OK || !rb_doc_tables_to_nodes(doc->root)) return NULL;
    doc->navigable = 1;
    return doc->root;
}
/* The reports are what the last write of this document said, published under the report lock
 * (core/model/doc_state.h); the lock is the document's synchronisation, not part of its value, so a
 * reader of a const document takes it. */
size_t rb_doc_stream_report_count(const rb_doc *doc) { return doc ? doc->stream_count : 0; }

rb_status rb_doc_stream_report(const rb_doc *doc, size_t index, rb_stream_report *report)
{
    if (!doc || !report || index >= doc->stream_count) return RB_E_USAGE;
    pthread_mutex_lock((pthread_mutex_t *)&doc->report_lock);
    rb_stream_report written = doc->streams[index]->stream->report;
    pthread_mutex_unlock((pthread_mutex_t *)&doc->report_lock);
    char why[160];
    return rb_result_fill(report, &written, sizeof written, sizeof written, "rb_stream_report", why, sizeof why)
               ? RB_E_USAGE
               : RB_OK;
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

/* The structure path at `offset` of the input file (section 0); a deferred unit is a leaf. */
void rb_doc_path_at(const rb_doc *doc, uint64_t offset, char *out, size_t size)
{
    out[0] = 0;
    find_path(doc->root, 0, offset, out, size, 1);
}
