/*
 * A dump whose blobs are files (`rebyte dump --blobs=files`, docs/usage.md "Blobs as files"):
 * the model as JSON with every blob — thumbnails, zips, sounds, opaque bytes, the original bytes
 * of compressed streams — replaced by {"$file": "<prefix>/NNNNN-<key>.<ext>"}, and the list of
 * those files for the caller to write. `rebyte build` reads them back (json.c, "$file"), so dump,
 * edit the files, build is a round trip without the original.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/doc_state.h"
#include "core/error.h"
#include "core/json/json.h"
#include "core/json/json_emit.h"

/* One file of the list: its name and bytes, and the copy it owns when the bytes would not
 * outlive the dump (in_sections). */
typedef struct dump_file {
    char *name;
    const uint8_t *data;
    size_t size;
    uint8_t *owned;
} dump_file;

struct rb_dump_files {
    dump_file *files;
    size_t count, cap;
};

typedef struct file_list {
    const rb_doc *doc;
    const char *prefix;
    rb_dump_files *list;
    int nomem;
} file_list;

/* A file name's extension from the bytes' signature (what a viewer needs to open it). */
static const char *extension_of(const uint8_t *d, size_t n)
{
    static const struct { const char *magic; size_t size; const char *ext; } SIGNATURES[] = {
        {"\xFF\xD8\xFF", 3, "jpg"}, {"\x89PNG", 4, "png"}, {"PK\x03\x04", 4, "zip"}, {"RIFF", 4, "wav"},
        {"OggS", 4, "ogg"},         {"DDS ", 4, "dds"},    {"GBX", 3, "gbx"},       {"BM", 2, "bmp"},
    };
    for (size_t i = 0; i < sizeof SIGNATURES / sizeof SIGNATURES[0]; i++)
        if (n >= SIGNATURES[i].size && memcmp(d, SIGNATURES[i].magic, SIGNATURES[i].size) == 0)
            return SIGNATURES[i].ext;
    return "bin";
}

/* Is `data` inside one of the document's byte spaces (the input, a decoded stream), which outlive
 * the dump? A blob of a deferred unit read again for the dump lives only while it is printed
 * (core/json/json_model.c), so one that is not gets copied. */
static int in_sections(const rb_doc *doc, const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < doc->section_count; i++) {
        const rb_section *s = &doc->sections[i];
        if (s->data && data >= s->data && size <= s->size && (size_t)(data - s->data) <= s->size - size) return 1;
    }
    return 0;
}

/* The blob as the next file of the list: its name (the list keeps it), NULL when out of memory. */
static const char *add_file(void *context, const char *key, const uint8_t *data, size_t size)
{
    file_list *l = context;
    rb_dump_files *list = l->list;
    if (list->count == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 16;
        dump_file *bigger = realloc(list->files, cap * sizeof *bigger);
        if (!bigger) { l->nomem = 1; return NULL; }
        list->files = bigger;
        list->cap = cap;
    }
    char clean[48];
    size_t o = 0;
    for (const char *k = key && *key ? key : "blob"; *k && o + 1 < sizeof clean; k++)
        clean[o++] = isalnum((unsigned char)*k) || *k == '-' || *k == '_' ? *k : '_';
    clean[o] = 0;
    size_t name_size = strlen(l->prefix) + sizeof clean + 32;
    char *name = malloc(name_size);
    if (!name) { l->nomem = 1; return NULL; }
    snprintf(name, name_size, "%s/%05zu-%s.%s", l->prefix, list->count + 1, clean, extension_of(data, size));
    uint8_t *owned = NULL;
    if (size && !in_sections(l->doc, data, size)) {
        if (!(owned = malloc(size))) { free(name); l->nomem = 1; return NULL; }
        memcpy(owned, data, size);
        data = owned;
    }
    list->files[list->count++] = (dump_file){name, data, size, owned};
    return name;
}

size_t rb_dump_files_count(const rb_dump_files *files) { return files ? files->count : 0; }

const char *rb_dump_files_name(const rb_dump_files *files, size_t index)
{
    return index < rb_dump_files_count(files) ? files->files[index].name : NULL;
}

const uint8_t *rb_dump_files_data(const rb_dump_files *files, size_t index, size_t *size)
{
    if (index >= rb_dump_files_count(files)) return NULL;
    if (size) *size = files->files[index].size;
    return files->files[index].data;
}

void rb_dump_files_free(rb_dump_files *files)
{
    for (size_t i = 0; i < rb_dump_files_count(files); i++) {
        free(files->files[i].name);
        free(files->files[i].owned);
    }
    if (files) free(files->files);
    free(files);
}

/* The text streamed to `sink` while the model is walked, each blob a file of the list. */
rb_status rb_doc_dump_files_to(const rb_doc *doc, const char *prefix, rb_text_sink sink, void *context,
                               rb_dump_files **files, rb_error *err)
{
    *files = NULL;
    rb_error_clear(err);
    file_list l = {.doc = doc, .prefix = prefix && *prefix ? prefix : "files", .list = calloc(1, sizeof(rb_dump_files))};
    if (!l.list) {
        rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory");
        return RB_E_NOMEM;
    }
    rb_json_emitter e;
    rb_json_text_emitter(&e, NULL, 0, sink, context);
    rb_error unit_err;
    int unit_failed = rb_doc_emit(&e, doc, RB_BLOBS_REF, NULL, add_file, &l, &unit_err) != 0;
    int nomem = e.own.failed || l.nomem;
    int failed = e.failed;
    if (unit_failed) {
        rb_json_emitter_finish(&e);
        rb_dump_files_free(l.list);
        if (err) rb_error_copy(err, &unit_err);
        return unit_err.status;
    }
    if (rb_json_emitter_finish(&e) != 0 || failed || sink(context, "\n", 1) != 0) {
        rb_dump_files_free(l.list);
        rb_status st = nomem ? RB_E_NOMEM : RB_E_IO;
        rb_error_set(err, st, doc->file_name, NULL, nomem ? "out of memory" : "the dump's text could not be written");
        return st;
    }
    *files = l.list;
    return RB_OK;
}


rb_status rb_doc_dump_files(const rb_doc *doc, const char *prefix, char **json_text, rb_dump_files **files,
                            rb_error *err)
{
    *json_text = NULL;
    rb_buf b;
    rb_buf_init(&b);
    rb_status st = rb_doc_dump_files_to(doc, prefix, rb_buf_sink, &b, files, err);
    rb_buf_put_u8(&b, 0);
    if (b.failed) {
        if (st == RB_OK) rb_dump_files_free(*files);
        *files = NULL;
        st = RB_E_NOMEM;
        rb_error_set(err, st, doc->file_name, NULL, "out of memory");
    }
    size_t size;
    if (st == RB_OK) *json_text = (char *)rb_buf_take(&b, &size);
    else rb_buf_free(&b);
    return st;
}

/* A relative {"$file": path} of a JSON read from `json_path` names a file beside that JSON (the
 * way rb_doc_dump_files writes them); one that does not exist there is left as it is (relative
 * to the working folder, as patches give them). */
void rb_json_resolve_files(json_t *v, const char *json_path)
{
    const char *slash = json_path ? strrchr(json_path, '/') : NULL;
    if (!slash) return;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) rb_json_resolve_files(json_array_get(v, i), json_path);
        return;
    }
    if (!json_is_object(v)) return;
    const char *file = json_object_size(v) == 1 ? json_string_value(json_object_get(v, "$file")) : NULL;
    if (file && file[0] != '/') {
        size_t size = (size_t)(slash - json_path) + strlen(file) + 2;
        char *joined = malloc(size);
        if (!joined) return;
        snprintf(joined, size, "%.*s/%s", (int)(slash - json_path), json_path, file);
        FILE *f = fopen(joined, "rb");
        if (f) {
            fclose(f);
            json_object_set_new(v, "$file", json_string(joined));
        }
        free(joined);
        return;
    }
    const char *member;
    json_t *item;
    json_object_foreach(v, member, item) rb_json_resolve_files(item, json_path);
}
