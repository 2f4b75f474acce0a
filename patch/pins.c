/*
 * Pins: the "test" operations a portable patch carries (portable.h). How a pinned value is
 * compared with the file's (blobs by digest, stream annotations aside), and checking every pin
 * of a patch against a base that is not its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "portable.h"
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

/* rb_json_equal of x and y as rb_json_strip_storage would leave them, without copying: `sx`
 * (`sy`) says whether x (y) is stripped. A stripped object loses "$stream", and a member or
 * element {"$id": v, ...} of a stripped container stands for v, which is not stripped further. */
static int equal_as_stripped(const json_t *x, int sx, const json_t *y, int sy);

static const json_t *stripped_child(const json_t *v, int strip, int *strip_child)
{
    const json_t *plain = strip && json_is_object(v) ? json_object_get(v, "$id") : NULL;
    *strip_child = strip && !plain;
    return plain ? plain : v;
}

static int children_equal(const json_t *x, int sx, const json_t *y, int sy)
{
    int cx, cy;
    const json_t *vx = stripped_child(x, sx, &cx), *vy = stripped_child(y, sy, &cy);
    return equal_as_stripped(vx, cx, vy, cy);
}

static int is_stream_key(const char *key, size_t len) { return len == 7 && memcmp(key, "$stream", 7) == 0; }

static int equal_as_stripped(const json_t *x, int sx, const json_t *y, int sy)
{
    if (!x || !y) return 0;
    if ((!sx && !sy) || !(json_is_object(x) || json_is_array(x)) || json_typeof(x) != json_typeof(y))
        return rb_json_equal(x, y);
    if (json_is_array(x)) {
        size_t n = json_array_size(x);
        if (n != json_array_size(y)) return 0;
        for (size_t i = 0; i < n; i++)
            if (!children_equal(json_array_get(x, i), sx, json_array_get(y, i), sy)) return 0;
        return 1;
    }
    size_t nx = json_object_size(x) - (sx && json_object_get(x, "$stream") ? 1 : 0);
    size_t ny = json_object_size(y) - (sy && json_object_get(y, "$stream") ? 1 : 0);
    if (nx != ny) return 0;
    /* equal sizes and every member of x found equal in y: the key sets coincide */
    for (void *it = json_object_iter((json_t *)x); it; it = json_object_iter_next((json_t *)x, it)) {
        const char *key = json_object_iter_key(it);
        size_t len = json_object_iter_key_len(it);
        if (is_stream_key(key, len) && sx) continue;
        const json_t *vy = json_object_getn(y, key, len);
        if (!vy || (is_stream_key(key, len) && sy)) return 0;
        if (!children_equal(json_object_iter_value(it), sx, vy, sy)) return 0;
    }
    return 1;
}

/* Equal as content: how values were stored ($id flags, $stream, blob spelling) does not count. */
int rb_values_equal(const json_t *a, const json_t *b)
{
    uint64_t sa, sb;
    uint32_t ca, cb;
    if (json_is_object(a) && json_is_object(b) && blob_digest(a, &sa, &ca) && blob_digest(b, &sb, &cb))
        return sa == sb && ca == cb;
    /* as if both were stripped inside a list (so a top-level $id collapses too) */
    return children_equal(a, 1, b, 1);
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
