/*
 * Portable patches: patches that address game objects by identity, carry a fingerprint of their
 * base, and stack.
 *
 * An identity patch (`rebyte diff --by-identity`) names list elements by a selector built from
 * the element's natural keys (a chunk by its id, a block by name and coordinates, an item by
 * model and position, a named thing by its name, a string by its text) instead of its index, and
 * pins every value it replaces with a "test" operation. Applied to a base that changed elsewhere
 * (entries added before the edited one, another game version's save of the same map), it edits
 * the same objects, or refuses and says which pinned value differs.
 */
#include "portable.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "../core/json.h"
#include "jsonpatch.h"
#include "selector.h"

/* ---------- comparing values the way a pin means them ---------- */

/* A blob's size and CRC-32, whichever way it is spelled ({"$blob": ref} or {"$base64": ...}). */
static int blob_digest(const json_t *v, uint64_t *size, uint32_t *crc)
{
    const json_t *ref = json_object_get(v, "$blob"), *b64 = json_object_get(v, "$base64");
    if (ref) {
        *size = (uint64_t)json_integer_value(json_object_get(ref, "size"));
        *crc = (uint32_t)strtoul(json_string_value(json_object_get(ref, "crc32")) ? json_string_value(json_object_get(ref, "crc32")) : "0", NULL, 16);
        return 1;
    }
    if (json_is_string(b64)) {
        size_t len = json_string_length(b64);
        uint8_t *raw = malloc(len / 4 * 3 + 4);
        size_t n = raw ? rb_base64_decode(json_string_value(b64), len, raw) : (size_t)-1;
        if (n == (size_t)-1) { free(raw); return 0; }
        *size = n;
        *crc = (uint32_t)crc32(0, raw, (uInt)n);
        free(raw);
        return 1;
    }
    return 0;
}

/* Equal as content: how values were stored ($id flags, $stream, blob spelling) does not count. */
int rb_values_equal(const json_t *a, const json_t *b)
{
    uint64_t sa, sb;
    uint32_t ca, cb;
    if (json_is_object(a) && json_is_object(b) && blob_digest(a, &sa, &ca) && blob_digest(b, &sb, &cb))
        return sa == sb && ca == cb;
    json_t *x = json_deep_copy(a), *y = json_deep_copy(b);
    json_t *wx = json_pack("[o]", x), *wy = json_pack("[o]", y); /* wrapped: a top-level $id collapses too */
    rb_json_strip_storage(wx);
    rb_json_strip_storage(wy);
    int same = rb_json_equal(wx, wy);
    json_decref(wx);
    json_decref(wy);
    return same;
}

/* ---------- natural keys ---------- */

/* Candidate identities, tried in order; the first whose fields exist and single out the element
 * within its list wins. Relative pointers into the element; "" is the element itself. */
static const char *const KEY_SETS[][5] = {
    {"id", NULL},                                   /* chunks (GBX, data.win, streamer) */
    {"name", "coord/0", "coord/1", "coord/2", NULL}, /* GBX blocks */
    {"chunks/0/itemModel/id", "chunks/0/absolutePositionInMap/0", "chunks/0/absolutePositionInMap/1",
     "chunks/0/absolutePositionInMap/2", NULL},     /* GBX anchored objects */
    {"handle", NULL},                               /* GROFF symbols (the name is what a rename edits) */
    {"name", NULL},                                 /* named things (sprites, instances, ...) */
    {"blockModel/id", NULL},                        /* GBX block stock */
    {"instanceId", NULL},                           /* data.win room instances */
    {"", NULL},                                     /* strings and numbers in lists */
};

static json_t *member_at(json_t *element, const char *key)
{
    if (!*key) return json_is_object(element) || json_is_array(element) ? NULL : element;
    char pointer[256];
    snprintf(pointer, sizeof pointer, "/%s", key);
    return rb_json_pointer_get(element, pointer, NULL, 0);
}

/* A value as a selector spells it: strings raw with ~ / , ] escaped, others in compact JSON. */
static void spell_value(json_t *v, char *out, size_t size)
{
    char *text = json_is_string(v) ? strdup(json_string_value(v)) : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    size_t o = 0;
    for (const char *p = text ? text : ""; *p && o + 3 < size; p++) {
        const char *esc = *p == '~' ? "~0" : *p == '/' ? "~1" : *p == ',' ? "~2" : *p == ']' ? "~3" : NULL;
        if (esc) { memcpy(out + o, esc, 2); o += 2; }
        else out[o++] = *p;
    }
    out[o] = 0;
    free(text);
}

static int same_keys(json_t *a, json_t *b, const char *const *keys)
{
    for (int k = 0; keys[k]; k++) {
        json_t *x = member_at(a, keys[k]), *y = member_at(b, keys[k]);
        if (!x || !y || !rb_json_equal(x, y)) return 0;
    }
    return 1;
}

int rb_identity_selector(json_t *array, size_t index, char *out, size_t size)
{
    json_t *element = json_array_get(array, index);
    for (size_t s = 0; s < sizeof KEY_SETS / sizeof KEY_SETS[0]; s++) {
        const char *const *keys = KEY_SETS[s];
        int present = 1;
        for (int k = 0; keys[k] && present; k++) present = member_at(element, keys[k]) != NULL;
        if (!present) continue;
        size_t matches = 0;
        for (size_t i = 0; i < json_array_size(array) && matches < 2; i++)
            matches += same_keys(element, json_array_get(array, i), keys);
        if (matches != 1) continue;
        size_t o = (size_t)snprintf(out, size, "[");
        for (int k = 0; keys[k] && o < size; k++) {
            char value[256];
            spell_value(member_at(element, keys[k]), value, sizeof value);
            o += (size_t)snprintf(out + o, size - o, "%s%s=%s", k ? "," : "", keys[k], value);
        }
        if (o + 2 < size) { out[o++] = ']'; out[o] = 0; return 1; }
        return 0;
    }
    return 0;
}

static int compare_strings(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* The selector tokens of every element under one key set, or NULL when an element lacks a key
 * or two elements share one. Sorting checks uniqueness in n log n (lists have thousands of blocks). */
static char **keys_for_set(json_t *array, const char *const *keys)
{
    size_t n = json_array_size(array);
    char **tokens = calloc(n + 1, sizeof(char *)), **sorted = calloc(n + 1, sizeof(char *));
    int ok = tokens && sorted;
    for (size_t i = 0; ok && i < n; i++) {
        json_t *element = json_array_get(array, i);
        char token[1024];
        size_t o = (size_t)snprintf(token, sizeof token, "[");
        for (int k = 0; keys[k] && ok; k++) {
            json_t *v = member_at(element, keys[k]);
            char value[256];
            if (!v) { ok = 0; break; }
            spell_value(v, value, sizeof value);
            o += (size_t)snprintf(token + o, sizeof token - o, "%s%s=%s", k ? "," : "", keys[k], value);
        }
        if (ok && o + 2 < sizeof token) { token[o++] = ']'; token[o] = 0; }
        else ok = 0;
        if (ok && !(tokens[i] = strdup(token))) ok = 0;
        sorted[i] = tokens[i];
    }
    if (ok) {
        qsort(sorted, n, sizeof(char *), compare_strings);
        for (size_t i = 1; ok && i < n; i++) ok = strcmp(sorted[i - 1], sorted[i]) != 0;
    }
    free(sorted);
    if (!ok && tokens) {
        for (size_t i = 0; i < n; i++) free(tokens[i]);
        free(tokens);
        tokens = NULL;
    }
    return tokens;
}

char **rb_identity_keys(json_t *array)
{
    for (size_t s = 0; s < sizeof KEY_SETS / sizeof KEY_SETS[0]; s++) {
        char **tokens = keys_for_set(array, KEY_SETS[s]);
        if (tokens) return tokens;
    }
    return NULL;
}

/* ---------- identity diff ---------- */

typedef struct diff_ctx {
    json_t *ops;
} diff_ctx;

static char *join(const char *base, const char *token, int escape)
{
    size_t n = strlen(base) + 2 * strlen(token) + 2;
    char *p = malloc(n), *o = p;
    if (!p) return NULL;
    memcpy(o, base, strlen(base));
    o += strlen(base);
    *o++ = '/';
    for (const char *t = token; *t; t++) {
        if (escape && *t == '~') { *o++ = '~'; *o++ = '0'; }
        else if (escape && *t == '/') { *o++ = '~'; *o++ = '1'; }
        else *o++ = *t;
    }
    *o = 0;
    return p;
}

static void emit(diff_ctx *d, const char *op, const char *path, json_t *value)
{
    json_t *o = json_pack("{s:s,s:s}", "op", op, "path", path);
    if (value) json_object_set(o, "value", value);
    json_array_append_new(d->ops, o);
}

static void diff_value(diff_ctx *d, json_t *a, json_t *b, const char *path);

/* The path of element i of `array` (at `path`): a selector when its identity is unique. */
static char *element_path(json_t *array, size_t i, const char *path)
{
    char token[1024];
    if (!rb_identity_selector(array, i, token, sizeof token)) snprintf(token, sizeof token, "%zu", i);
    return join(path, token, 0);
}

static void diff_array(diff_ctx *d, json_t *a, json_t *b, const char *path)
{
    size_t na = json_array_size(a), nb = json_array_size(b), prefix = 0, suffix = 0;
    while (prefix < na && prefix < nb && rb_json_equal(json_array_get(a, prefix), json_array_get(b, prefix))) prefix++;
    while (suffix < na - prefix && suffix < nb - prefix &&
           rb_json_equal(json_array_get(a, na - 1 - suffix), json_array_get(b, nb - 1 - suffix)))
        suffix++;
    size_t ma = na - prefix - suffix, mb = nb - prefix - suffix;
    if (ma == mb) { /* same length: element by element, each addressed by identity */
        for (size_t i = prefix; i < prefix + ma; i++) {
            char *p = element_path(a, i, path);
            diff_value(d, json_array_get(a, i), json_array_get(b, i), p);
            free(p);
        }
        return;
    }
    for (size_t i = prefix + ma; i > prefix; i--) { /* removed (by identity, from the end) */
        char *p = element_path(a, i - 1, path);
        emit(d, "remove", p, NULL);
        free(p);
    }
    /* added where they are in B: appended ("-") when nothing follows them, else before the element
     * that follows them, named by its identity when it has one (an index would shift) */
    char token[1024];
    int named = suffix && rb_identity_selector(a, prefix + ma, token, sizeof token);
    for (size_t i = prefix; i < prefix + mb; i++) {
        char index[32];
        snprintf(index, sizeof index, "%zu", i); /* by index, each lands after the previous one */
        char *p = join(path, !suffix ? "-" : named ? token : index, 0);
        emit(d, "add", p, json_array_get(b, i));
        free(p);
    }
}

static void diff_object(diff_ctx *d, json_t *a, json_t *b, const char *path)
{
    const char *k;
    json_t *va, *vb;
    json_object_foreach(a, k, va) {
        char *p = join(path, k, 1);
        if ((vb = json_object_get(b, k))) diff_value(d, va, vb, p);
        else emit(d, "remove", p, NULL);
        free(p);
    }
    json_object_foreach(b, k, vb) {
        if (json_object_get(a, k)) continue;
        char *p = join(path, k, 1);
        emit(d, "add", p, vb);
        free(p);
    }
}

static void diff_value(diff_ctx *d, json_t *a, json_t *b, const char *path)
{
    if (json_is_object(a) && json_is_object(b)) {
        /* a blob reference or an id object is one value, not a structure to descend into */
        if (!json_object_get(a, "$base64") && !json_object_get(a, "$id")) { diff_object(d, a, b, path); return; }
    } else if (json_is_array(a) && json_is_array(b)) {
        diff_array(d, a, b, path);
        return;
    }
    if (rb_values_equal(a, b)) return;
    /* pin what the replacement relies on (a blob is pinned by its place, not its bytes) */
    if (!(json_is_object(a) && (json_object_get(a, "$base64") || json_object_get(a, "$blob")))) emit(d, "test", path, a);
    emit(d, "replace", path, b);
}

json_t *rb_identity_diff(json_t *a, json_t *b)
{
    diff_ctx d = {json_array()};
    diff_value(&d, a, b, "");
    return d.ops;
}

/* ---------- patch files: plain arrays or fingerprinted objects ---------- */

int rb_patch_parts(const json_t *file, const json_t **ops, const json_t **base)
{
    *base = NULL;
    if (json_is_array(file)) { *ops = file; return 0; }
    if (json_is_object(file) && json_is_array(json_object_get(file, "operations"))) {
        *ops = json_object_get(file, "operations");
        *base = json_object_get(file, "base");
        return 0;
    }
    return -1;
}

/* ---------- stacking ---------- */

static int paths_overlap(const char *x, const char *y)
{
    size_t nx = strlen(x), ny = strlen(y), n = nx < ny ? nx : ny;
    return strncmp(x, y, n) == 0 && (nx == ny || (nx < ny ? y[nx] : x[ny]) == '/');
}

/* Paths (resolved) changed by earlier patches of the stack. */
typedef struct touched {
    char **paths;
    int *owner;
    size_t count, cap;
} touched;

static void touch(touched *t, const char *path, int owner)
{
    if (t->count == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 32;
        t->paths = realloc(t->paths, t->cap * sizeof(char *));
        t->owner = realloc(t->owner, t->cap * sizeof(int));
    }
    t->paths[t->count] = strdup(path);
    t->owner[t->count++] = owner;
}

static int conflict_with(const touched *t, const char *path, int owner)
{
    for (size_t i = 0; i < t->count; i++)
        if (t->owner[i] != owner && paths_overlap(t->paths[i], path)) return t->owner[i];
    return -1;
}

int rb_apply_stack(json_t **doc, const json_t *const *patches, const char *const *names, int count,
                   rb_conflict_policy policy, FILE *report, char *err, size_t err_size)
{
    json_t *work = json_deep_copy(*doc);
    touched t = {0};
    int rc = 0;
    for (int p = 0; p < count && rc == 0; p++) {
        const json_t *ops, *base;
        if (rb_patch_parts(patches[p], &ops, &base) != 0) {
            snprintf(err, err_size, "%s is neither a JSON Patch array nor a rebyte patch object", names[p]);
            rc = -1;
            break;
        }
        size_t changed = 0, skipped = 0;
        for (size_t i = 0; i < json_array_size(ops) && rc == 0; i++) {
            json_t *op = json_array_get(ops, i);
            const char *op_name = json_string_value(json_object_get(op, "op"));
            if (op_name && strcmp(op_name, "test") == 0) {
                json_t *pin = json_pack("[O]", op);
                size_t failed = rb_check_pins(work, pin, NULL);
                json_decref(pin);
                if (failed != 0) {
                    char *want = json_dumps(json_object_get(op, "value"), JSON_ENCODE_ANY | JSON_COMPACT);
                    snprintf(err, err_size, "%s: operation %zu: test failed: %s is not %.200s", names[p], i,
                             json_string_value(json_object_get(op, "path")), want ? want : "?");
                    free(want);
                    rc = -1;
                }
                continue;
            }
            json_t *one = json_pack("[O]", op), *resolved = NULL;
            char why[1200];
            /* resolve first, to know what this operation touches */
            json_t *probe = json_deep_copy(work);
            if (rb_json_patch_apply_selectors(&probe, one, &resolved, why, sizeof why) != 0) {
                snprintf(err, err_size, "%s: operation %zu: %s", names[p], i, why);
                rc = -1;
            } else {
                const char *kind = json_string_value(json_object_get(op, "op"));
                const char *path = json_string_value(json_object_get(json_array_get(resolved, 0), "path"));
                int other = kind && strcmp(kind, "test") != 0 ? conflict_with(&t, path, p) : -1;
                if (other >= 0 && policy == RB_CONFLICT_STOP) {
                    snprintf(err, err_size, "%s and %s both change %s (use --conflicts=first-wins or last-wins)",
                             names[other], names[p], path);
                    rc = -1;
                } else if (other >= 0 && policy == RB_CONFLICT_FIRST_WINS) {
                    skipped++;
                    if (report) fprintf(report, "  %s: %s %s skipped (%s changed it first)\n", names[p], kind, path, names[other]);
                } else {
                    json_decref(work);
                    work = probe;
                    probe = NULL;
                    if (kind && strcmp(kind, "test") != 0) { touch(&t, path, p); changed++; }
                }
            }
            json_decref(probe);
            json_decref(one);
            json_decref(resolved);
        }
        if (rc == 0 && report)
            fprintf(report, "  %s: %zu change%s%s\n", names[p], changed, changed == 1 ? "" : "s",
                    skipped ? " (some skipped as conflicts)" : "");
    }
    for (size_t i = 0; i < t.count; i++) free(t.paths[i]);
    free(t.paths);
    free(t.owner);
    if (rc != 0) { json_decref(work); return -1; }
    json_decref(*doc);
    *doc = work;
    return 0;
}

/* ---------- checking a patch against a base that is not its own ---------- */

size_t rb_check_pins(json_t *doc, const json_t *ops, FILE *report)
{
    size_t failing = 0;
    for (size_t i = 0; i < json_array_size(ops); i++) {
        json_t *op = json_array_get(ops, i);
        if (!json_is_string(json_object_get(op, "op")) || strcmp(json_string_value(json_object_get(op, "op")), "test") != 0)
            continue;
        const char *path = json_string_value(json_object_get(op, "path"));
        char *plain = NULL, why[600];
        json_t *actual = NULL;
        if (path && rb_pointer_resolve(doc, path, &plain, why, sizeof why) == 0)
            actual = rb_json_pointer_get(doc, plain, NULL, 0);
        if (!actual || !rb_values_equal(actual, json_object_get(op, "value"))) {
            failing++;
            if (report) {
                char *want = json_dumps(json_object_get(op, "value"), JSON_ENCODE_ANY | JSON_COMPACT);
                char *got = actual ? json_dumps(actual, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
                fprintf(report, "  %s: the patch expects %.120s, this file has %.120s\n", path, want ? want : "?",
                        got ? got : (plain ? "nothing" : why));
                free(want);
                free(got);
            }
        }
        free(plain);
    }
    return failing;
}
