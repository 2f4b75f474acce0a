/*
 * Assets out and in (docs/usage.md "Assets"): rb_doc_extract hands a format's assets to the
 * caller's sink with names made safe and unique and builds the manifest, so `rebyte extract` is
 * a thin client; rb_doc_asset_patch asks the format for the operations that put a file back.
 * What an asset is, and how it is converted, is the format's (its `assets` and `asset_patch`
 * hooks, core/model/doc_state.h); the encoders they share are in writers/asset_media.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "core/archive/archive_unit.h"
#include "core/doc/assets.h"
#include "core/doc/doc.h"
#include "core/error.h"
#include "core/json/json.h"

int rb_asset_emit(rb_asset_sink sink, void *context, const rb_asset *asset, char *why, size_t why_size)
{
    if (sink(context, asset) == 0) return 0;
    snprintf(why, why_size, "stopped at %s", asset->name);
    return -1;
}

/* ---------- names: relative, inside the output folder, unique ---------- */

typedef struct extraction {
    const rb_doc *doc;
    rb_asset_sink sink;
    void *context;
    json_t *files, *references; /* the manifest's lists (NULL: no manifest wanted) */
    char **names;               /* names given so far, to keep them unique */
    size_t name_count, name_cap;
    int sink_stopped, failed;
} extraction;

/* A component that is empty, "." or ".." and characters a file system refuses become "_". */
static char *safe_name(const char *name)
{
    size_t n = strlen(name ? name : "");
    char *out = malloc(n + 8);
    if (!out) return NULL;
    size_t o = 0;
    const char *p = name ? name : "";
    while (*p == '/' || *p == '\\') p++;
    while (*p) {
        const char *end = p;
        while (*end && *end != '/' && *end != '\\') end++;
        size_t len = (size_t)(end - p);
        if (len == 0 || (len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.')) {
            out[o++] = '_';
        } else {
            for (size_t i = 0; i < len; i++) {
                unsigned char c = (unsigned char)p[i];
                out[o++] = c < 0x20 || c == ':' || c == '*' || c == '?' || c == '"' || c == '<' || c == '>' || c == '|'
                               ? '_'
                               : (char)c;
            }
        }
        p = end;
        while (*p == '/' || *p == '\\') p++;
        if (*p) out[o++] = '/';
    }
    if (!o) out[o++] = '_';
    out[o] = 0;
    return out;
}

static int name_taken(const extraction *x, const char *name)
{
    for (size_t i = 0; i < x->name_count; i++)
        if (strcmp(x->names[i], name) == 0) return 1;
    return 0;
}

/* "a/b.png", then "a/b-2.png", "a/b-3.png", ... */
static char *unique_name(extraction *x, const char *wanted)
{
    char *base = safe_name(wanted);
    if (!base) return NULL;
    if (x->name_count == x->name_cap) {
        size_t cap = x->name_cap ? x->name_cap * 2 : 64;
        char **bigger = realloc(x->names, cap * sizeof *bigger);
        if (!bigger) { free(base); return NULL; }
        x->names = bigger;
        x->name_cap = cap;
    }
    char *name = base;
    const char *slash = strrchr(base, '/'), *dot = strrchr(base, '.');
    size_t stem = dot && dot > (slash ? slash : base) ? (size_t)(dot - base) : strlen(base);
    for (unsigned k = 2; name_taken(x, name); k++) {
        if (name != base) free(name);
        size_t size = strlen(base) + 16;
        if (!(name = malloc(size))) { free(base); return NULL; }
        snprintf(name, size, "%.*s-%u%s", (int)stem, base, k, base + stem);
    }
    if (name != base) free(base);
    x->names[x->name_count++] = name;
    return name;
}

static int add_to_manifest(extraction *x, const rb_asset *a)
{
    if (!x->files) return 0;
    json_t *entry = a->data ? json_pack("{s:s,s:s,s:s,s:I,s:b}", "file", a->name, "kind", a->kind, "path", a->path,
                                        "size", (json_int_t)a->data_size, "replaceable", a->replaceable)
                            : json_pack("{s:s,s:s,s:s}", "name", a->name, "kind", a->kind, "path", a->path);
    if (!entry) return -1;
    if (a->note) json_object_set_new(entry, "note", json_string(a->note));
    return json_array_append_new(a->data ? x->files : x->references, entry);
}

/* Between the format and the caller: names made safe and unique, the manifest kept. */
static int extraction_sink(void *context, const rb_asset *asset)
{
    extraction *x = context;
    if (!asset->name || !asset->kind || !asset->path) { x->failed = 1; return 1; }
    rb_asset a = *asset;
    if (a.data) {
        char *name = unique_name(x, asset->name);
        if (!name) { x->failed = 1; return 1; }
        a.name = name;
    }
    if (add_to_manifest(x, &a) != 0) { x->failed = 1; return 1; }
    if (x->sink && x->sink(x->context, &a) != 0) { x->sink_stopped = 1; return 1; }
    return 0;
}

static json_t *manifest_source(const rb_doc *doc)
{
    const rb_section *file = doc->section_count ? &doc->sections[0] : NULL;
    char crc[16];
    snprintf(crc, sizeof crc, "0x%08lx", file ? (unsigned long)crc32(0, file->data, (uInt)file->size) : 0ul);
    return json_pack("{s:s,s:s,s:I,s:s}", "file", doc->file_name, "format", doc->format->name, "size",
                     (json_int_t)(file ? file->size : 0), "crc32", crc);
}

static rb_status extract_model(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context,
                                  char **manifest_json, rb_error *err)
{
    if (!doc->format->assets) {
        rb_error_set(err, RB_E_UNSUPPORTED, doc->file_name, NULL, "the %s format has no assets rebyte extracts", doc->format->name);
        return RB_E_UNSUPPORTED;
    }
    extraction x = {.doc = doc, .sink = sink, .context = context};
    if (manifest_json) {
        x.files = json_array();
        x.references = json_array();
    }
    char why[512] = "";
    int rc = doc->format->assets(doc, only_kind && *only_kind ? only_kind : NULL, extraction_sink, &x, why, sizeof why);
    rb_status st = RB_OK;
    if (x.failed) {
        rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory (or an asset without a name, kind or path)");
        st = RB_E_NOMEM;
    } else if (x.sink_stopped) {
        rb_error_set(err, RB_E_IO, doc->file_name, NULL, "the extraction was stopped (%s)", why);
        st = RB_E_IO;
    } else if (rc != 0) {
        rb_error_set(err, RB_E_FORMAT, doc->file_name, NULL, "%s", why[0] ? why : "an asset could not be made");
        st = RB_E_FORMAT;
    } else if (manifest_json) {
        json_t *m = json_pack("{s:i,s:o,s:O,s:O}", "rebyteAssets", 1, "source", manifest_source(doc), "assets",
                              x.files, "references", x.references);
        *manifest_json = m ? rb_json_print_text(m) : NULL;
        json_decref(m);
        if (!*manifest_json) {
            rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory");
            st = RB_E_NOMEM;
        }
    }
    json_decref(x.files);
    json_decref(x.references);
    for (size_t i = 0; i < x.name_count; i++) free(x.names[i]);
    free(x.names);
    return st;
}

/* The format's hooks walk the model by pointers: the document expanded and its packed tables
 * made nodes first (rb_doc_root), whose failure is the caller's. */
static rb_status make_navigable(rb_doc *doc, rb_error *err)
{
    if (rb_doc_root(doc)) return RB_OK;
    rb_status st = rb_doc_expand(doc, err);
    if (st != RB_OK) return st;
    rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory");
    return RB_E_NOMEM;
}

/* A deferred document whose units read alone and whose format says which units hold assets
 * (rb_format.asset_unit) has those units made nodes and no others: the hook walks the rest as
 * bytes it skips (docs/performance.md "Extract reads what it extracts"). Else as make_navigable. */
static rb_status expand_asset_units(rb_doc *doc, rb_error *err)
{
    if (!doc->deferred_units || !doc->format->asset_unit || !rb_doc_units_read_alone(doc))
        return make_navigable(doc, err);
    /* the hooks read the units they need as rb_doc_root gives them: packed tables made nodes */
    if (rb_doc_expand_units_where(doc, doc->root, NULL, 0, doc->format->asset_unit, err) &&
        rb_doc_tables_to_nodes(doc->root))
        return RB_OK;
    if (err && !err->status) rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory");
    return err ? err->status : RB_E_NOMEM;
}

rb_status rb_doc_extract(rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context,
                         char **manifest_json, rb_error *err)
{
    if (manifest_json) *manifest_json = NULL;
    rb_error_clear(err);
    rb_status st = expand_asset_units(doc, err);
    return st != RB_OK ? st : extract_model(doc, only_kind, sink, context, manifest_json, err);
}

static rb_status asset_patch_model(const rb_doc *doc, const char *path, const uint8_t *data, size_t size,
                                      char **patch_json, rb_error *err)
{
    if (!doc->format->asset_patch) {
        rb_error_set(err, RB_E_UNSUPPORTED, doc->file_name, path, "the %s format puts no assets back", doc->format->name);
        return RB_E_UNSUPPORTED;
    }
    char why[512] = "";
    json_t *ops = doc->format->asset_patch(doc, path, data, size, why, sizeof why);
    if (!ops) {
        if (why[0]) rb_error_set(err, RB_E_MODEL, doc->file_name, path, "%s", why);
        else rb_error_set(err, RB_E_USAGE, doc->file_name, path, "%s is not the path of an asset (see the manifest of `rebyte extract`)", path);
        return why[0] ? RB_E_MODEL : RB_E_USAGE;
    }
    *patch_json = rb_json_print_text(ops);
    json_decref(ops);
    if (!*patch_json) {
        rb_error_set(err, RB_E_NOMEM, doc->file_name, path, "out of memory");
        return RB_E_NOMEM;
    }
    return RB_OK;
}

rb_status rb_doc_asset_patch(rb_doc *doc, const char *path, const uint8_t *data, size_t size,
                             char **patch_json, rb_error *err)
{
    *patch_json = NULL;
    rb_error_clear(err);
    rb_status st = make_navigable(doc, err);
    return st != RB_OK ? st : asset_patch_model(doc, path, data, size, patch_json, err);
}
