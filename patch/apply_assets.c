/*
 * A patch value {"$file": F} at an asset's path (docs/usage.md "Assets"), or the picture itself
 * {"$png": base64} (what a diff writes for a changed sprite frame, docs/usage.md "Diffs"): before
 * a patch is applied, such an operation becomes the operations the format gives for putting the
 * file back there (rb_doc_asset_patch: a PNG quantised to a texture's palette, a frame drawn
 * into its texture page). At a path that is no asset's, the value stays what it always was: the
 * file's bytes as the blob. The format's hook reads the document apply parsed, before any
 * operation (each file is put back into the original), at the operation's path alone, its
 * selectors resolved there (a sprite by its name: the same frame of another build).
 */
#include <stdlib.h>
#include <string.h>
#include "patch/apply_assets.h"
#include "core/error.h"
#include "patch/model_edit.h"
#include "core/json/json.h"

/* What a {"$png"} value is called where a file's name goes. */
static const char *const INLINE_PICTURE = "the $png value";

/* The value's file name ("$file"), or its inline bytes as base64 ("$png") in *inline_bytes. */
static const char *file_value(const json_t *op, const char **inline_bytes)
{
    const json_t *value = json_object_get(op, "value");
    *inline_bytes = NULL;
    if (!json_is_object(value) || json_object_size(value) != 1) return NULL;
    const char *kind = json_string_value(json_object_get(op, "op"));
    if (!kind || (strcmp(kind, "replace") != 0 && strcmp(kind, "add") != 0)) return NULL;
    *inline_bytes = json_string_value(json_object_get(value, "$png"));
    return *inline_bytes ? INLINE_PICTURE : json_string_value(json_object_get(value, "$file"));
}

static int has_file_values(const rb_patch *const *patches, size_t count)
{
    const char *inline_bytes;
    for (size_t p = 0; p < count; p++)
        for (size_t i = 0; i < json_array_size(patches[p]->ops); i++)
            if (file_value(json_array_get(patches[p]->ops, i), &inline_bytes)) return 1;
    return 0;
}

/* The bytes of a {"$png": base64} value (malloc'd): 0, or -1 when it is no base64. */
static int inline_data(const char *text, uint8_t **data, size_t *size)
{
    size_t length = strlen(text);
    *data = malloc(length / 4 * 3 + 3);
    *size = *data ? rb_base64_decode(text, length, *data) : 0;
    if (*data && (*size || !length)) return 0;
    free(*data);
    *data = NULL;
    return -1;
}

/* `path` with its selectors resolved on `doc` (malloc'd), or NULL with err. */
static char *plain_path(rb_doc *doc, const char *path, const rb_patch *patch, size_t index, rb_error *err)
{
    rb_model_place place = {0};
    rb_buf plain;
    rb_buf_init(&plain);
    char why[400];
    char *out = NULL;
    if (rb_model_locate(doc, path, &place, &plain, why, sizeof why) == 0 && place.node) {
        rb_buf_put_u8(&plain, 0);
        out = plain.failed ? NULL : strdup((const char *)plain.data);
    } else {
        rb_error_clear(err);
        err->status = RB_E_MODEL;
        snprintf(err->message, sizeof err->message, "%.80s, operation %zu: %.300s", patch->name, index,
                 place.node || why[0] ? why : "the path names nothing in this file");
    }
    rb_model_place_free(&place);
    rb_buf_free(&plain);
    return out;
}

/* The file, up to `limit` bytes (a FIFO or a device may never end): 0, -1, or 1 beyond it. */
static int read_whole(const char *path, uint64_t limit, uint8_t **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    rb_buf b;
    rb_buf_init(&b);
    uint8_t chunk[65536];
    size_t n;
    while (b.size <= limit && (n = fread(chunk, 1, sizeof chunk, f)) > 0) rb_buf_put(&b, chunk, n);
    if (b.size > limit) { fclose(f); rb_buf_free(&b); return 1; }
    int failed = ferror(f) || b.failed;
    fclose(f);
    if (failed) { rb_buf_free(&b); return -1; }
    *data = rb_buf_take(&b, size);
    return *data || !*size ? 0 : -1;
}

/* Does one pointer lie inside the other (or equal it)? */
static int paths_overlap(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), n = na < nb ? na : nb;
    if (strncmp(a, b, n) != 0) return 0;
    return na == nb || (na < nb ? b[n] == '/' : a[n] == '/');
}

/* Each file is put back against the original file, not against what an earlier file of the same
 * patch made of it: two files that change the same part (two sprite frames drawn into one texture
 * page) would have the second undo the first without a word. Such a patch is refused instead.
 * `touched` holds the paths earlier files changed, each as [path, "patch, operation N"]. */
static int refuse_overlap(json_t *touched, const json_t *more, const rb_patch *patch, size_t index, rb_error *err)
{
    char here[128];
    snprintf(here, sizeof here, "%.80s, operation %zu", patch->name, index);
    for (size_t i = 0; i < json_array_size(more); i++) {
        const char *path = json_string_value(json_object_get(json_array_get(more, i), "path"));
        if (!path) continue;
        for (size_t t = 0; t < json_array_size(touched); t++) {
            const json_t *seen = json_array_get(touched, t);
            const char *other = json_string_value(json_array_get(seen, 0));
            if (!paths_overlap(path, other) || strcmp(json_string_value(json_array_get(seen, 1)), here) == 0)
                continue;
            rb_error_clear(err);
            err->status = RB_E_MODEL;
            snprintf(err->message, sizeof err->message,
                     "%s: its $file changes %.160s, which the $file of %s changes too; each file is put back "
                     "into the original, so the second would undo the first: apply them in two runs",
                     here, path, json_string_value(json_array_get(seen, 1)));
            return -1;
        }
    }
    for (size_t i = 0; i < json_array_size(more); i++) {
        const char *path = json_string_value(json_object_get(json_array_get(more, i), "path"));
        if (path && json_array_append_new(touched, json_pack("[ss]", path, here)) != 0) return -1;
    }
    return 0;
}

/* The format's operations for a file put back (rb_doc_asset_patch's result `st` and `text`),
 * appended to `ops`; the operation itself where the path is no asset's. 0, or -1 with err. */
static int asset_operations(rb_status st, char *text, const rb_patch *patch, size_t index, const char *file,
                            const json_t *op, json_t *ops, json_t *touched, rb_error *err)
{
    if ((st == RB_E_USAGE || st == RB_E_UNSUPPORTED) && !strcmp(file, INLINE_PICTURE)) {
        char message[sizeof err->message];
        snprintf(message, sizeof message, "%.80s, operation %zu: a $png value goes where a picture is (%.300s)",
                 patch->name, index, err->message);
        memcpy(err->message, message, sizeof message);
        return -1;
    }
    if (st == RB_E_USAGE || st == RB_E_UNSUPPORTED) { /* no asset there: the bytes are the blob */
        rb_error_clear(err);
        return json_array_append(ops, (json_t *)op);
    }
    if (st != RB_OK) {
        char message[sizeof err->message];
        snprintf(message, sizeof message, "%.60s, operation %zu (%s%.80s): %.300s", patch->name, index,
                 strcmp(file, INLINE_PICTURE) ? "$file " : "", file,
                 err->message);
        memcpy(err->message, message, sizeof message);
        return -1;
    }
    json_t *more = json_loads(text, 0, NULL);
    free(text);
    if (!more || refuse_overlap(touched, more, patch, index, err) != 0) {
        json_decref(more);
        return -1;
    }
    int rc = json_array_extend(ops, more);
    json_decref(more);
    return rc;
}

/* The operation turned into the format's, appended to `ops`; or kept. 0, or -1 with err. */
static int expand_operation(rb_doc *doc, const rb_patch *patch, size_t index, json_t *ops, json_t *touched,
                            rb_error *err)
{
    const json_t *op = json_array_get(patch->ops, index);
    const char *inline_bytes, *file = file_value(op, &inline_bytes), *path = json_string_value(json_object_get(op, "path"));
    if (!file || !path || (!inline_bytes && strchr(path, '['))) return json_array_append(ops, (json_t *)op);
    uint8_t *data = NULL;
    size_t size = 0;
    if (inline_bytes) {
        if (inline_data(inline_bytes, &data, &size) != 0) {
            rb_error_clear(err);
            err->status = RB_E_USAGE;
            snprintf(err->message, sizeof err->message, "%.80s, operation %zu: the $png value is no base64", patch->name,
                     index);
            return -1;
        }
        char *plain = strchr(path, '[') ? plain_path(doc, path, patch, index, err) : strdup(path);
        if (!plain) {
            free(data);
            return -1;
        }
        char *text = NULL;
        rb_status st = rb_doc_asset_patch(doc, plain, data, size, &text, err);
        free(data);
        free(plain);
        return asset_operations(st, text, patch, index, file, op, ops, touched, err);
    }
    int read = read_whole(file, doc->limits.max_decompressed_size, &data, &size);
    if (read != 0) {
        rb_error_clear(err);
        err->status = read > 0 ? RB_E_LIMIT : RB_E_IO;
        snprintf(err->message, sizeof err->message, "%.80s, operation %zu: $file %.300s %s", patch->name, index, file,
                 read > 0 ? "holds more than the limit max_decompressed_size" : "cannot be read");
        return -1;
    }
    char *text = NULL;
    rb_status st = rb_doc_asset_patch(doc, path, data, size, &text, err);
    free(data);
    return asset_operations(st, text, patch, index, file, op, ops, touched, err);
}

static void free_expanded(rb_patch **patches, size_t count)
{
    for (size_t p = 0; patches && p < count; p++) {
        if (!patches[p]) continue;
        json_decref(patches[p]->file);
        free(patches[p]);
    }
    free(patches);
}

int apply_expand_assets(const apply_request *rq, rb_doc *doc, rb_patch ***expanded, rb_error *err)
{
    *expanded = NULL;
    if (!has_file_values(rq->patches, rq->count)) return 0;
    rb_patch **out = calloc(rq->count, sizeof *out);
    json_t *touched = json_array();
    int rc = out && touched ? 0 : -1;
    for (size_t p = 0; rc == 0 && p < rq->count; p++) {
        const rb_patch *original = rq->patches[p];
        json_t *ops = json_array();
        if (!ops || !(out[p] = malloc(sizeof *out[p]))) { json_decref(ops); rc = -1; break; }
        /* the expanded operations live in `file`; base and name stay the original's */
        *out[p] = (rb_patch){.file = ops, .ops = ops, .base = original->base, .name = original->name};
        for (size_t i = 0; rc == 0 && i < json_array_size(original->ops); i++)
            rc = expand_operation(doc, original, i, ops, touched, err);
    }
    json_decref(touched);
    if (rc != 0) {
        if (!err->status) err->status = RB_E_NOMEM;
        if (!err->message[0]) snprintf(err->message, sizeof err->message, "out of memory");
        free_expanded(out, rq->count);
        return -1;
    }
    *expanded = out;
    return 0;
}

void apply_free_expanded(rb_patch **patches, size_t count) { free_expanded(patches, count); }
