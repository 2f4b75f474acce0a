/*
 * Pictures as pictures in a diff (docs/usage.md "Diffs"). A sprite frame put back redraws its
 * texture page, so the walk sees the page's blob replaced: hundreds of kilobytes of base64 for a
 * frame of a few hundred bytes, valid on that page alone. Where the format cuts pictures from
 * that blob (rb_format.assets) and puts them back (rb_format.asset_patch), the diff says instead
 * which pictures changed: one replace of each at its own path with the picture as a PNG
 * ({"$png": base64}, patch/apply_assets.c), addressed like any other element (by identity: a
 * sprite by its name), so it applies to another build of the game where that frame exists and
 * is refused where it does not. The operations the format gives for those pictures (the page,
 * its size fields, a moved item's coordinates) leave the diff. It is used only when apply
 * proves that it gives B's bytes.
 */
#include <stdlib.h>
#include <string.h>
#include "patch/identity.h"
#include "patch/model_diff.h"
#include "patch/model_edit.h"
#include "core/json/json.h"
#include "core/doc/assets.h"
#include "core/hash64.h"

/* More changed pictures than this on the pages a diff replaces: a new page, not an edit. */
enum { PICTURES_MAX = 64 };

/* A picture that can be put back, kept in `context` (a JSON object: path -> its PNG as base64,
 * to compare and to put in a value). */
static int keep_png(json_t *by_path, const char *path, const uint8_t *png, size_t size)
{
    char *text = malloc(4 * ((size + 2) / 3) + 1);
    if (!text) return -1;
    size_t n = rb_base64_encode(png, size, text);
    int r = json_object_set_new(by_path, path, json_stringn(text, n));
    free(text);
    return r;
}

static int keep_picture(void *context, const rb_asset *asset)
{
    if (strcmp(asset->kind, "image") != 0 || !asset->replaceable) return 0;
    return keep_png(context, asset->path, asset->data, asset->data_size);
}

/* The pictures of a format with the picture_pixels hook (core/model/format.h): A's kept as a
 * digest of their pixels; B's as that digest too where it is A's (the same pixels, the same PNG),
 * else as the PNG `assets` would give, made from the pixels here. Equal digests of other pixels
 * would leave a change out of the pictures; the diff is then not proven and not used. */
typedef struct picture_digests {
    json_t *by_path;
    const json_t *before; /* A's digests, when these are B's pictures */
} picture_digests;

static int keep_pixels(void *context, const rb_asset *asset)
{
    picture_digests *d = context;
    if (strcmp(asset->kind, "image") != 0 || !asset->replaceable || asset->data_size < 8) return 0;
    char digest[24];
    snprintf(digest, sizeof digest, "%016llx", (unsigned long long)rb_hash_words(asset->data, asset->data_size));
    const json_t *was = d->before ? json_object_get(d->before, asset->path) : NULL;
    if (!was || !strcmp(json_string_value(was), digest))
        return json_object_set_new(d->by_path, asset->path, json_string(digest));
    const uint8_t *size = asset->data;
    uint32_t width = (uint32_t)size[0] | (uint32_t)size[1] << 8 | (uint32_t)size[2] << 16 | (uint32_t)size[3] << 24;
    uint32_t height = (uint32_t)size[4] | (uint32_t)size[5] << 8 | (uint32_t)size[6] << 16 | (uint32_t)size[7] << 24;
    if ((uint64_t)width * height * 4 != asset->data_size - 8) return -1;
    uint8_t *png = NULL;
    size_t png_size = 0;
    char why[200];
    int r = rb_png_from_rgba(asset->data + 8, width, height, &png, &png_size, why, sizeof why) ||
            keep_png(d->by_path, asset->path, png, png_size);
    free(png);
    return r ? -1 : 0;
}

/* Every picture of `doc` that can be put back (`a_pictures`: the other file's, for B), or NULL. */
static json_t *pictures_of(const rb_doc *doc, const json_t *a_pictures)
{
    json_t *by_path = json_object();
    char why[300];
    picture_digests digests = {by_path, a_pictures};
    int rc = !by_path ? -1
             : doc->format->picture_pixels ? doc->format->picture_pixels(doc, keep_pixels, &digests, why, sizeof why)
                                           : doc->format->assets(doc, "image", keep_picture, by_path, why, sizeof why);
    if (rc != 0) {
        json_decref(by_path);
        return NULL;
    }
    return by_path;
}

/* Is the operation a replace of a blob with its bytes (what a redrawn page is in a diff)? */
static int replaces_blob(const json_t *op)
{
    const json_t *value = json_object_get(op, "value");
    return !strcmp(json_string_value(json_object_get(op, "op")), "replace") && json_is_object(value) &&
           (json_object_get(value, "$base64") || json_object_get(value, "$splice"));
}

int rb_model_diff_replaces_blob(const json_t *ops)
{
    for (size_t i = 0; i < json_array_size(ops); i++)
        if (replaces_blob(json_array_get(ops, i))) return 1;
    return 0;
}

/* `path` resolved to plain indexes on `work` (malloc'd), or NULL. */
static char *plain_of(rb_doc *work, const char *path)
{
    rb_model_place place = {0};
    rb_buf plain;
    rb_buf_init(&plain);
    char why[300], *out = NULL;
    if (rb_model_locate(work, path, &place, &plain, why, sizeof why) == 0 && place.node) {
        rb_buf_put_u8(&plain, 0);
        if (!plain.failed) out = strdup((const char *)plain.data);
    }
    rb_model_place_free(&place);
    rb_buf_free(&plain);
    return out;
}

/* The plain `path` spelled as a diff by identity spells it: a list element by its natural keys
 * where it has unique ones (a chunk by its id, a sprite by its name), else by index. */
static char *identity_spelling(const rb_doc *doc, const char *path)
{
    rb_buf out;
    rb_buf_init(&out);
    rb_record_scratch scratch[RB_IDENTITY_DEPTH];
    const rb_node *n = doc->root;
    int depth = 0;
    for (const char *p = path; *p == '/' && n; depth++) {
        size_t len = strcspn(p + 1, "/");
        char token[160];
        if (len >= sizeof token || depth >= RB_IDENTITY_DEPTH) break;
        memcpy(token, p + 1, len);
        token[len] = 0;
        rb_buf_put_u8(&out, '/');
        const char *selector = NULL;
        rb_list_keys *keys = NULL;
        unsigned long index = strtoul(token, NULL, 10);
        /* an element that is a record by its keys; a value (a frame's TPAG link, which another
         * build numbers its own way) by its place */
        if (n->kind == RB_K_LIST && index < n->v.kids.count && n->v.kids.items[index]->kind == RB_K_RECORD) {
            keys = rb_list_keys_new(doc, n);
            selector = keys ? rb_list_keys_selector(keys, index) : NULL;
        }
        rb_buf_put(&out, selector ? selector : token, strlen(selector ? selector : token));
        rb_list_keys_free(keys);
        char step[170];
        snprintf(step, sizeof step, "/%s", token);
        n = rb_identity_walk(n, step, &scratch[depth]);
        p += len + 1;
    }
    rb_buf_put_u8(&out, 0);
    char *text = n && !out.failed ? strdup((const char *)out.data) : NULL;
    rb_buf_free(&out);
    return text;
}

/* The paths the format's operations for the changed pictures set (plain), appended to
 * `covered`; a picture whose operations an earlier one gives already leaves `changed` (frames
 * GameMaker stored once, in one region of the page: one picture in the game). -1 when the
 * format cannot put one back. */
static int cover(const rb_doc *a, json_t *changed, const json_t *b_pictures, json_t *covered)
{
    json_t *given = json_array(), *same = json_array();
    const char *path;
    json_t *unused;
    int rc = given && same ? 0 : -1;
    json_object_foreach(changed, path, unused) {
        const char *text = json_string_value(json_object_get(b_pictures, path));
        size_t length = strlen(text);
        uint8_t *png = malloc(length / 4 * 3 + 3);
        char why[600];
        json_t *ops = png ? a->format->asset_patch(a, path, png, rb_base64_decode(text, length, png), why, sizeof why)
                          : NULL;
        free(png);
        if (!ops || rc) { json_decref(ops); rc = -1; break; }
        int repeated = 0;
        for (size_t k = 0; k < json_array_size(given) && !repeated; k++) repeated = json_equal(json_array_get(given, k), ops);
        if (repeated) json_array_append_new(same, json_string(path));
        for (size_t i = 0; i < json_array_size(ops); i++)
            json_object_set_new(covered, json_string_value(json_object_get(json_array_get(ops, i), "path")), json_true());
        json_array_append_new(given, ops);
    }
    for (size_t k = 0; rc == 0 && k < json_array_size(same); k++) json_object_del(changed, json_string_value(json_array_get(same, k)));
    json_decref(given);
    json_decref(same);
    return rc;
}

/* The diff with the changed pictures in place of what the format derives from them, or NULL. */
static json_t *spelled_as_pictures(const rb_doc *a, rb_doc *work, const json_t *ops, const json_t *changed,
                                   const json_t *b_pictures, const json_t *covered, int mode)
{
    json_t *out = json_array();
    int placed = 0;
    for (size_t i = 0; out && i < json_array_size(ops); i++) {
        const json_t *op = json_array_get(ops, i);
        char *plain = plain_of(work, json_string_value(json_object_get(op, "path")));
        int derived = plain && json_object_get(covered, plain);
        free(plain);
        if (!derived) { /* a pin goes with its operation: it pins the same place */
            json_array_append(out, (json_t *)op);
            continue;
        }
        if (json_array_size(out) && !strcmp(json_string_value(json_object_get(json_array_get(out, json_array_size(out) - 1), "op")), "test"))
            json_array_remove(out, json_array_size(out) - 1);
        if (placed++) continue;
        const char *path;
        json_t *unused;
        json_object_foreach((json_t *)changed, path, unused) {
            char *spelled = mode == RB_MODEL_DIFF_IDENTITY ? identity_spelling(a, path) : strdup(path);
            json_t *value = json_pack("{s:O}", "$png", json_object_get(b_pictures, path));
            if (!spelled || !value ||
                json_array_append_new(out, json_pack("{s:s,s:s,s:o}", "op", "replace", "path", spelled, "value", value))) {
                free(spelled);
                json_decref(out);
                return NULL;
            }
            free(spelled);
        }
    }
    return out;
}

/* The pictures A and B hold at the same path with other pixels, NULL when none (or too many). */
static json_t *changed_pictures(const json_t *a_pictures, const json_t *b_pictures, const json_t *blob_paths)
{
    json_t *changed = json_object();
    const char *path;
    json_t *text;
    json_object_foreach((json_t *)a_pictures, path, text) {
        const json_t *now = json_object_get(b_pictures, path);
        if (!now || json_equal(text, (json_t *)now) || json_object_get(blob_paths, path)) continue;
        json_object_set_new(changed, path, json_true());
    }
    if (!json_object_size(changed) || json_object_size(changed) > PICTURES_MAX) {
        json_decref(changed);
        return NULL;
    }
    return changed;
}

json_t *rb_model_diff_pictures(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, int mode,
                               json_t *ops)
{
    if (!a->format->assets || !a->format->asset_patch) return ops;
    json_t *blob_paths = json_object(), *a_pictures = NULL, *b_pictures = NULL, *changed = NULL, *covered = NULL,
           *spelled = NULL;
    rb_doc *work = NULL; /* A's model copied, to edit */
    for (size_t i = 0; i < json_array_size(ops); i++) {
        const json_t *op = json_array_get(ops, i);
        const char *kind = json_string_value(json_object_get(op, "op"));
        /* the places are read on A: an edit of a list before them would move them */
        if (strcmp(kind, "replace") != 0 && strcmp(kind, "test") != 0) goto done;
        if (!replaces_blob(op)) continue;
        if (!work && !(work = rb_doc_copy_model(a))) goto done;
        char *plain = plain_of(work, json_string_value(json_object_get(op, "path")));
        if (plain) json_object_set_new(blob_paths, plain, json_true());
        free(plain);
    }
    if (!json_object_size(blob_paths) || !(a_pictures = pictures_of(a, NULL)) ||
        !(b_pictures = pictures_of(b, a_pictures)) ||
        !(changed = changed_pictures(a_pictures, b_pictures, blob_paths)))
        goto done;
    covered = json_object();
    if (cover(a, changed, b_pictures, covered) != 0) goto done;
    spelled = spelled_as_pictures(a, work, ops, changed, b_pictures, covered, mode);
    if (spelled && rb_model_diff_proven(a, a_bytes, a_size, b, spelled)) {
        json_decref(ops);
        ops = spelled;
        spelled = NULL;
    }
done:
    rb_doc_free(work);
    json_decref(spelled);
    json_decref(covered);
    json_decref(changed);
    json_decref(b_pictures);
    json_decref(a_pictures);
    json_decref(blob_paths);
    return ops;
}
