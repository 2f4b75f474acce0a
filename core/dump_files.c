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
#include "doc.h"
#include "json.h"

typedef struct file_list {
    const rb_doc *doc;
    const char *prefix;
    rb_dump_file *files;
    size_t count, cap;
    int failed;
    char why[256];
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

/* The bytes a blob reference names: a slice of one of the document's byte spaces. */
static const uint8_t *referenced_bytes(const rb_doc *doc, const json_t *ref, size_t *size)
{
    const char *section = json_string_value(json_object_get(ref, "section"));
    json_int_t offset = json_integer_value(json_object_get(ref, "offset"));
    json_int_t length = json_integer_value(json_object_get(ref, "size"));
    for (size_t i = 0; section && i < doc->section_count; i++) {
        const rb_section *s = &doc->sections[i];
        if (strcmp(s->name, section) != 0 || offset < 0 || length < 0 || (size_t)offset > s->size ||
            (size_t)length > s->size - (size_t)offset)
            continue;
        *size = (size_t)length;
        return s->data + offset;
    }
    return NULL;
}

static int add_file(file_list *l, const char *key, const uint8_t *data, size_t size, uint8_t *owned, json_t **spelled)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        rb_dump_file *bigger = realloc(l->files, cap * sizeof *bigger);
        if (!bigger) return 0;
        l->files = bigger;
        l->cap = cap;
    }
    char clean[48];
    size_t o = 0;
    for (const char *k = key && *key ? key : "blob"; *k && o + 1 < sizeof clean; k++)
        clean[o++] = isalnum((unsigned char)*k) || *k == '-' || *k == '_' ? *k : '_';
    clean[o] = 0;
    size_t name_size = strlen(l->prefix) + sizeof clean + 32;
    char *name = malloc(name_size);
    if (!name) return 0;
    snprintf(name, name_size, "%s/%05zu-%s.%s", l->prefix, l->count + 1, clean, extension_of(data, size));
    l->files[l->count++] = (rb_dump_file){name, data, size, owned};
    *spelled = json_pack("{s:s}", "$file", name);
    return *spelled != NULL;
}

/* {"$blob": ref} or {"$base64": text}: the bytes it stands for (owned: malloc'd here), or NULL. */
static const uint8_t *blob_bytes(file_list *l, const json_t *v, size_t *size, uint8_t **owned)
{
    *owned = NULL;
    if (!json_is_object(v) || json_object_size(v) != 1) return NULL;
    const json_t *ref = json_object_get(v, "$blob"), *b64 = json_object_get(v, "$base64");
    if (ref) return referenced_bytes(l->doc, ref, size);
    if (!json_is_string(b64)) return NULL;
    size_t len = json_string_length(b64);
    *owned = malloc(len / 4 * 3 + 3);
    if (!*owned) return NULL;
    *size = rb_base64_decode(json_string_value(b64), len, *owned);
    if (*size == (size_t)-1) {
        free(*owned);
        *owned = NULL;
        return NULL;
    }
    return *owned;
}

/* Every blob below `v` (named after the member holding it) becomes a file. */
static void replace_blobs(file_list *l, json_t *v, const char *key)
{
    if (l->failed) return;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            json_t *item = json_array_get(v, i), *spelled = NULL;
            size_t size = 0;
            uint8_t *owned;
            const uint8_t *bytes = blob_bytes(l, item, &size, &owned);
            if (bytes && !add_file(l, key, bytes, size, owned, &spelled)) l->failed = 1;
            if (spelled) json_array_set_new(v, i, spelled);
            else if (!bytes) replace_blobs(l, item, key);
        }
        return;
    }
    if (!json_is_object(v)) return;
    const char *member;
    json_t *item;
    void *tmp;
    json_object_foreach_safe(v, tmp, member, item) {
        json_t *spelled = NULL;
        size_t size = 0;
        uint8_t *owned;
        const uint8_t *bytes = blob_bytes(l, item, &size, &owned);
        if (bytes && !add_file(l, member, bytes, size, owned, &spelled)) l->failed = 1;
        if (spelled) json_object_set_new(v, member, spelled);
        else if (!bytes) replace_blobs(l, item, member);
        if (l->failed) return;
    }
}

void rb_dump_files_free(rb_dump_file *files, size_t count)
{
    for (size_t i = 0; files && i < count; i++) {
        free((char *)files[i].name);
        free(files[i].owned);
    }
    free(files);
}

rb_status rb_doc_dump_files(const rb_doc *doc, const char *prefix, char **json_text, rb_dump_file **files,
                            size_t *count, rb_error *err)
{
    *json_text = NULL;
    *files = NULL;
    *count = 0;
    if (err) memset(err, 0, sizeof *err);
    rb_doc_read_begin(doc);
    json_t *body = rb_model_to_json(doc, doc->root, RB_BLOBS_REF);
    json_t *out = json_pack("{s:s}", "$format", doc->format->name);
    file_list l = {.doc = doc, .prefix = prefix && *prefix ? prefix : "files"};
    if (body && out) {
        json_object_update(out, body);
        replace_blobs(&l, out, NULL);
        if (!l.failed) *json_text = rb_json_print_text(out);
    }
    rb_doc_read_end(doc);
    json_decref(body);
    json_decref(out);
    if (!*json_text) {
        rb_dump_files_free(l.files, l.count);
        if (err) {
            err->status = RB_E_NOMEM;
            snprintf(err->file, sizeof err->file, "%s", doc->file_name);
            snprintf(err->message, sizeof err->message, "out of memory");
        }
        return RB_E_NOMEM;
    }
    *files = l.files;
    *count = l.count;
    return RB_OK;
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
