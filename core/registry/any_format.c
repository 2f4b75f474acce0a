/*
 * The entry points that take a file of any format: the format found by content (rb_doc_parse,
 * rb_format_detect, rb_doc_set_companion) or named by the JSON ("$format": rb_doc_build and the
 * builds from a file). They sit above the formats with the table they look in (registry.c); the
 * document layer below reads and builds as a format it is given.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/doc/doc.h"
#include "core/error.h"
#include "core/json/json_stream.h"
#include "core/registry/registry.h"

const char *rb_format_detect(const uint8_t *data, size_t size)
{
    const rb_format *f = rb_registry_detect(data, size);
    return f ? f->name : NULL;
}

const char *rb_detect_format(const uint8_t *data, size_t size) { return rb_format_detect(data, size); }

rb_doc *rb_doc_parse(const uint8_t *data, size_t size, const rb_read_options *options, rb_error *err)
{
    const rb_format *format = rb_registry_detect(data, size);
    if (!format) {
        rb_error_set(err, RB_E_UNSUPPORTED, options ? options->file_name : NULL, NULL,
                     "not a format rebyte knows (detected by content; see `rebyte formats`)");
        return NULL;
    }
    return rb_doc_parse_as(format, data, size, options, err);
}

rb_status rb_doc_set_companion(rb_doc *doc, const uint8_t *data, size_t size, const char *name, rb_error *err)
{
    rb_error_clear(err);
    rb_doc *companion = NULL;
    if (rb_format_detect(data, size)) {
        rb_read_options options = {.file_name = name};
        if (!(companion = rb_doc_parse(data, size, &options, err))) return err ? err->status : RB_E_FORMAT;
        if (!rb_doc_root(companion)) { /* the hooks walk it by pointers too */
            rb_status st = rb_doc_expand(companion, err);
            rb_doc_free(companion);
            if (st == RB_OK) rb_error_set(err, st = RB_E_NOMEM, name, NULL, "out of memory");
            return st;
        }
    }
    rb_doc_free(doc->companion);
    doc->companion = companion;
    doc->companion_data = data;
    doc->companion_size = size;
    return RB_OK;
}

static void build_error(rb_error *err, const char *name, const char *message)
{
    if (!err) return;
    rb_error_clear(err);
    err->status = RB_E_USAGE;
    snprintf(err->file, sizeof err->file, "%s", name ? name : "");
    snprintf(err->message, sizeof err->message, "%s", message);
}

/* The text is read piecewise (json_stream.h): a large list's elements are decoded when the
 * description reaches them, so the JSON is never a tree of the whole file. */
static rb_doc *build_from_loader(rb_json_loader *loader, const char *name, const rb_doc *blob_source, int defer,
                                 rb_error *err)
{
    char why[sizeof err->message];
    rb_error_clear(err);
    json_t *j = loader ? rb_json_loader_root(loader, why, sizeof why) : NULL;
    if (!j) {
        build_error(err, name, loader ? why : "out of memory");
        return NULL;
    }
    const char *format_name = json_string_value(json_object_get(j, "$format"));
    const rb_format *format = format_name ? rb_format_by_name(format_name) : blob_source ? blob_source->format : NULL;
    rb_doc *doc = NULL;
    if (!format) build_error(err, name, "\"$format\" is missing or names no known format");
    else doc = rb_doc_from_json_loader(format, j, loader, blob_source, name, defer, err);
    json_decref(j);
    return doc;
}

rb_doc *rb_doc_build(const char *json_text, size_t size, const char *name, const rb_doc *blob_source, rb_error *err)
{
    rb_json_loader *loader = rb_json_loader_memory(json_text, size, name);
    rb_doc *doc = build_from_loader(loader, name, blob_source, 0, err);
    rb_json_loader_free(loader);
    return doc;
}

/* The JSON file opened, for a loader that reads it where it is. */
static rb_json_loader *file_loader(const char *json_path, int *fd, rb_error *err)
{
    struct stat st;
    *fd = open(json_path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0 || fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rb_error_set(err, RB_E_IO, json_path, NULL, "%s", *fd < 0 ? strerror(errno) : "not a regular file");
        if (*fd >= 0) close(*fd);
        *fd = -1;
        return NULL;
    }
    rb_json_loader *loader = rb_json_loader_fd(*fd, (uint64_t)st.st_size, json_path);
    if (!loader) {
        rb_error_set(err, RB_E_NOMEM, json_path, NULL, "out of memory");
        close(*fd);
        *fd = -1;
    }
    return loader;
}

static rb_doc *build_file(const char *json_path, const rb_doc *blob_source, int defer, rb_error *err)
{
    int fd;
    if (!json_path) return NULL;
    rb_json_loader *loader = file_loader(json_path, &fd, err);
    if (!loader) return NULL;
    rb_doc *doc = build_from_loader(loader, json_path, blob_source, defer, err);
    rb_json_loader_free(loader);
    close(fd);
    return doc;
}

rb_doc *rb_doc_build_file(const char *json_path, const rb_doc *blob_source, rb_error *err)
{
    return build_file(json_path, blob_source, 0, err);
}

/* A deferring build's units expanded: the JSON built again in full into the same document
 * (what core/doc/doc.c's read_again_in_full is to a deferred read); 0 and `err` when the file no
 * longer builds (changed or gone since) or out of memory, the deferred model kept. */
static int build_again_in_full(rb_doc *doc, rb_error *err)
{
    rb_doc *full = build_file(doc->file_name, doc->blob_source, 0, err);
    if (!full) return 0;
    rb_doc_swap_model(doc, full); /* `full` holds the deferred model now */
    rb_doc_free(full);
    if (doc->select_index_free) doc->select_index_free(doc);
    doc->select_index = NULL;
    doc->select_index_free = NULL;
    if (doc->format_index && doc->format->free_index) doc->format->free_index(doc->format_index);
    doc->format_index = NULL;
    doc->defer_units = 0;
    doc->deferred_units = 0;
    return 1;
}

rb_doc *rb_doc_build_file_deferred(const char *json_path, const rb_doc *blob_source, rb_error *err)
{
    /* expansion builds the file again from the name the document keeps: one it cannot keep
     * whole is built in full at once */
    int defer = json_path && strlen(json_path) < RB_DOC_NAME_SIZE;
    rb_doc *doc = build_file(json_path, blob_source, defer, err);
    if (doc) doc->expand = build_again_in_full;
    return doc;
}

char *rb_dump_source_file(const char *json_path, rb_error *err)
{
    int fd;
    rb_error_clear(err);
    rb_json_loader *loader = json_path ? file_loader(json_path, &fd, err) : NULL;
    if (!loader) return NULL;
    json_t *source = rb_json_loader_member(loader, "$source");
    const char *file = json_string_value(json_object_get(source, "file"));
    char *copy = file ? strdup(file) : NULL;
    json_decref(source);
    rb_json_loader_free(loader);
    close(fd);
    return copy;
}
