/*
 * Pins: the "test" operations a patch made by `diff` carries (pins.h,
 * docs/usage.md "Portable patches: identity, fingerprints, stacking"). How a pinned value is
 * compared with the file's (blobs by digest, stream annotations aside; a large value by the
 * digest of its content, {"$digest": "..."}). Below the selectors and both engines, whose
 * "test" compares values this way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "patch/pins.h"
#include "core/json/json.h"
#include "core/hash64.h"

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

_Static_assert(sizeof(json_int_t) == 8, "int_equals_real assumes a 64-bit json_int_t");

/* Exact integer/real comparison. Converting the integer to double would be lossy (2^53 + 1
 * would equal 2^53), so convert the double instead, after making sure it is integral and in
 * range (the cast is UB otherwise). */
static int int_equals_real(json_int_t i, double d)
{
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return 0;
    json_int_t t = (json_int_t)d;
    return (double)t == d && t == i;
}

/* Numbers are equal when their values are (RFC 6902 4.6), so integer 1 and real 1.0 match even
 * though jansson's json_equal keeps them apart. */
static int numbers_equal(const json_t *a, const json_t *b)
{
    if (json_is_integer(a) && json_is_integer(b)) return json_integer_value(a) == json_integer_value(b);
    if (json_is_real(a) && json_is_real(b)) return json_real_value(a) == json_real_value(b);
    if (json_is_integer(a)) return int_equals_real(json_integer_value(a), json_real_value(b));
    return int_equals_real(json_integer_value(b), json_real_value(a));
}

static int strings_equal(const json_t *a, const json_t *b)
{
    size_t n = json_string_length(a);
    return n == json_string_length(b) && memcmp(json_string_value(a), json_string_value(b), n) == 0;
}

/* x and y compared as RFC 6902 4.6 compares them (numbers by value, members in any order), as
 * rb_json_strip_storage would leave them, without copying: `sx` (`sy`) says whether x (y) is
 * stripped. A stripped object loses "$stream", and a member or element {"$id": v, ...} of a
 * stripped container stands for v, which is not stripped further. */
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

static int arrays_equal(const json_t *x, int sx, const json_t *y, int sy)
{
    size_t n = json_array_size(x);
    if (n != json_array_size(y)) return 0;
    for (size_t i = 0; i < n; i++)
        if (!children_equal(json_array_get(x, i), sx, json_array_get(y, i), sy)) return 0;
    return 1;
}

static int objects_equal(const json_t *x, int sx, const json_t *y, int sy)
{
    size_t nx = json_object_size(x) - (sx && json_object_get(x, "$stream") ? 1 : 0);
    size_t ny = json_object_size(y) - (sy && json_object_get(y, "$stream") ? 1 : 0);
    if (nx != ny) return 0;
    /* equal sizes and every member of x found equal in y: the key sets coincide (jansson's
     * iterator is not const-qualified, but it only reads) */
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

static int equal_as_stripped(const json_t *x, int sx, const json_t *y, int sy)
{
    if (!x || !y) return 0;
    if (json_is_number(x) && json_is_number(y)) return numbers_equal(x, y);
    if (json_typeof(x) != json_typeof(y)) return 0;
    switch (json_typeof(x)) {
    case JSON_OBJECT: return objects_equal(x, sx, y, sy);
    case JSON_ARRAY: return arrays_equal(x, sx, y, sy);
    case JSON_STRING: return strings_equal(x, y);
    default: return 1; /* true, false, null: the type is the whole value */
    }
}

/* ---------- digests: a pin of a large value ---------- */

/* A hash of the value as rb_values_equal compares it: "$stream" members left out, {"$id": v}
 * standing for v, a blob by its size and CRC-32 whichever way it is spelled, numbers by value,
 * members in any order. */
static uint64_t content_digest(const json_t *v, int depth)
{
    uint64_t size;
    uint32_t crc;
    if (depth > 256) return 0;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        if (blob_digest(v, &size, &crc)) return rb_mix64(0x626c6f62ULL ^ size * 0x9e3779b97f4a7c15ULL ^ crc);
        const json_t *id = json_object_get(v, "$id");
        if (id) return content_digest(id, depth + 1);
        uint64_t h = 0x6f626a65ULL;
        for (void *it = json_object_iter((json_t *)v); it; it = json_object_iter_next((json_t *)v, it)) {
            const char *key = json_object_iter_key(it);
            size_t len = json_object_iter_key_len(it);
            if (is_stream_key(key, len)) continue;
            h += rb_mix64(rb_hash_bytes(key, len) * 31 + content_digest(json_object_iter_value(it), depth + 1));
        }
        return rb_mix64(h);
    }
    case JSON_ARRAY: {
        uint64_t h = 0x61727261ULL;
        for (size_t i = 0; i < json_array_size(v); i++) h = rb_mix64(h * 31 + content_digest(json_array_get(v, i), depth + 1));
        return h;
    }
    case JSON_STRING: return rb_hash_bytes(json_string_value(v), json_string_length(v));
    case JSON_INTEGER: return rb_mix64((uint64_t)json_integer_value(v) ^ 0x696e74ULL);
    case JSON_REAL: {
        double x = json_real_value(v);
        if (x == (double)(json_int_t)x) return rb_mix64((uint64_t)(json_int_t)x ^ 0x696e74ULL); /* 2.0 is 2 */
        uint64_t bits;
        memcpy(&bits, &x, sizeof bits);
        return rb_mix64(bits);
    }
    case JSON_TRUE: return 1;
    case JSON_FALSE: return 2;
    default: return 3;
    }
}

json_t *rb_pin_value(json_t *value)
{
    char *text = value ? json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    size_t length = text ? strlen(text) : 0;
    free(text);
    if (!value || length <= RB_PIN_SPELLED_MAX) return value;
    char hex[24];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)content_digest(value, 0));
    json_decref(value);
    return json_pack("{s:s}", "$digest", hex);
}

/* The digest a pin {"$digest": "hex"} holds, or NULL when `v` is not one. */
static const char *pinned_digest(const json_t *v)
{
    return json_is_object(v) && json_object_size(v) == 1 ? json_string_value(json_object_get(v, "$digest")) : NULL;
}

static int matches_digest(const json_t *value, const char *digest)
{
    char hex[24];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)content_digest(value, 0));
    return strcmp(hex, digest) == 0;
}

int rb_pin_is_digest(const json_t *pin) { return pinned_digest(pin) != NULL; }

/* Equal as content: how values were stored ($id flags, $stream, blob spelling) does not count. */
int rb_values_equal(const json_t *a, const json_t *b)
{
    uint64_t sa, sb;
    uint32_t ca, cb;
    if (pinned_digest(b) && !pinned_digest(a)) return matches_digest(a, pinned_digest(b));
    if (pinned_digest(a) && !pinned_digest(b)) return matches_digest(b, pinned_digest(a));
    if (json_is_object(a) && json_is_object(b) && blob_digest(a, &sa, &ca) && blob_digest(b, &sb, &cb))
        return sa == sb && ca == cb;
    /* as if both were stripped inside a list (so a top-level $id collapses too) */
    return children_equal(a, 1, b, 1);
}
