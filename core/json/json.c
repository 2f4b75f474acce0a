/*
 * JSON is a view at the boundary: every spelling here reads back to the same wire value.
 *   integers      JSON integers; u64 above 2^63 as a decimal string; hex-shown ids as "0x0304301F"
 *   floats        the shortest decimal that reads back to the same bits; "NaN", "NaN:0x7fc00001",
 *                 "Infinity", "-Infinity", "-0.0" for the values JSON numbers cannot carry exactly
 *   booleans      true/false for 0/1, the raw integer otherwise
 *   strings       JSON strings when valid UTF-8, else {"$hex": "..."}
 *   blobs         {"$blob": {section, offset, size, crc32}} (a reference into the original file),
 *                 {"$base64": ...}, or {"$omitted": size}
 */
#include "core/json/json.h"
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "core/model/doc_state.h"

/* ---------- base64 ---------- */

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t rb_base64_encode(const uint8_t *in, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < n) v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < n) v |= in[i + 2];
        out[o++] = B64[(v >> 18) & 63];
        out[o++] = B64[(v >> 12) & 63];
        out[o++] = i + 1 < n ? B64[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? B64[v & 63] : '=';
    }
    out[o] = 0;
    return o;
}

static int b64_value(char c)
{
    const char *p = c ? strchr(B64, c) : NULL;
    return p ? (int)(p - B64) : -1;
}

size_t rb_base64_decode(const char *in, size_t len, uint8_t *out)
{
    if (len % 4) return (size_t)-1;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 4) {
        int pad = (in[i + 2] == '=') + (in[i + 3] == '=');
        if (pad && i + 4 != len) return (size_t)-1;
        if (in[i + 2] == '=' && in[i + 3] != '=') return (size_t)-1;
        int a = b64_value(in[i]), b = b64_value(in[i + 1]);
        int c = pad >= 2 ? 0 : b64_value(in[i + 2]), d = pad >= 1 ? 0 : b64_value(in[i + 3]);
        if (a < 0 || b < 0 || c < 0 || d < 0) return (size_t)-1;
        uint32_t v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
        out[o++] = (uint8_t)(v >> 16);
        if (pad < 2) out[o++] = (uint8_t)(v >> 8);
        if (pad < 1) out[o++] = (uint8_t)v;
    }
    return o;
}

/* ---------- floats ---------- */

/* "9e+01" reads back exactly but is awkward in a hand-edited map: spell moderate exponents out
 * ("90.0"), keeping the same digits, when that still reads back to the same value. */
static void expand_exponent(char *s, size_t size, double value, int is_f32)
{
    char *e = strchr(s, 'e');
    if (!e) return;
    int exponent = atoi(e + 1);
    if (exponent < -5 || exponent > 15) return;
    int digits = 0;
    for (char *p = s; p < e; p++) digits += (*p >= '0' && *p <= '9');
    int decimals = digits - 1 - exponent;
    if (decimals < 0) decimals = 0;
    char fixed[64];
    snprintf(fixed, sizeof fixed, "%.*f", decimals, value);
    int same = is_f32 ? strtof(fixed, NULL) == (float)value : strtod(fixed, NULL) == value;
    if (same && strlen(fixed) < size) strcpy(s, fixed);
}

static void add_point(char *s, size_t size)
{
    if (strpbrk(s, ".eEni")) return; /* already looks like a real */
    size_t len = strlen(s);
    if (len + 3 <= size) memcpy(s + len, ".0", 3);
}

void rb_format_f32(uint32_t bits, char *out, size_t size)
{
    float f;
    memcpy(&f, &bits, 4);
    if (isnan(f)) {
        if (bits == 0x7fc00000u) snprintf(out, size, "NaN");
        else snprintf(out, size, "NaN:0x%08" PRIx32, bits);
        return;
    }
    if (isinf(f)) { snprintf(out, size, f < 0 ? "-Infinity" : "Infinity"); return; }
    if (f == 0 && signbit(f)) { snprintf(out, size, "-0.0"); return; }
    for (int p = 1; p <= 9; p++) {
        snprintf(out, size, "%.*g", p, (double)f);
        if (strtof(out, NULL) == f) break;
    }
    expand_exponent(out, size, (double)f, 1);
    add_point(out, size);
}

void rb_format_f64(uint64_t bits, char *out, size_t size)
{
    double d;
    memcpy(&d, &bits, 8);
    if (isnan(d)) {
        if (bits == 0x7ff8000000000000ull) snprintf(out, size, "NaN");
        else snprintf(out, size, "NaN:0x%016" PRIx64, bits);
        return;
    }
    if (isinf(d)) { snprintf(out, size, d < 0 ? "-Infinity" : "Infinity"); return; }
    if (d == 0 && signbit(d)) { snprintf(out, size, "-0.0"); return; }
    for (int p = 1; p <= 17; p++) {
        snprintf(out, size, "%.*g", p, d);
        if (strtod(out, NULL) == d) break;
    }
    expand_exponent(out, size, d, 0);
    add_point(out, size);
}

/* ---------- JSON -> wire values ---------- */

static int parse_u64_text(const char *s, uint64_t *v)
{
    if (!*s || *s == '-' || *s == '+' || *s == ' ') return 0;
    errno = 0;
    char *end;
    int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
    unsigned long long x = strtoull(s, &end, base);
    if (errno || *end) return 0;
    *v = x;
    return 1;
}

int rb_json_to_int(const json_t *v, unsigned wire, uint64_t *bits, char *why, size_t why_size)
{
    unsigned width = wire & RB_W_WIDTH;
    int is_signed = (wire & RB_W_SIGNED) != 0;
    uint64_t mask = width >= 8 ? UINT64_MAX : (((uint64_t)1 << (8 * width)) - 1);
    if (json_is_integer(v)) {
        int64_t x = json_integer_value(v);
        if (is_signed) {
            int64_t lo = width >= 8 ? INT64_MIN : -((int64_t)1 << (8 * width - 1));
            int64_t hi = width >= 8 ? INT64_MAX : ((int64_t)1 << (8 * width - 1)) - 1;
            if (x < lo || x > hi) {
                snprintf(why, why_size, "value %" PRId64 " is out of range for i%u (%" PRId64 "..%" PRId64 ")", x,
                         8 * width, lo, hi);
                return 0;
            }
            *bits = (uint64_t)x & mask;
            return 1;
        }
        if (x < 0 || (uint64_t)x > mask) {
            snprintf(why, why_size, "value %" PRId64 " is out of range for u%u (0..%" PRIu64 ")", x, 8 * width, mask);
            return 0;
        }
        *bits = (uint64_t)x;
        return 1;
    }
    if (json_is_string(v) && RB_WIRE_IS_SYMBOL(wire) && strncmp(json_string_value(v), "0x", 2) != 0) {
        snprintf(why, why_size, "\"%.80s\" is not a name this file knows", json_string_value(v));
        return 0;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        uint64_t x;
        if ((wire & RB_W_CHAR) && strlen(s) == 1) { *bits = (uint8_t)s[0]; return 1; }
        if (parse_u64_text(s, &x) && (x & ~mask) == 0) { *bits = x; return 1; }
        snprintf(why, why_size, "\"%s\" is not a %s%u value", s, is_signed ? "i" : "u", 8 * width);
        return 0;
    }
    snprintf(why, why_size, "expected an integer (%s%u)", is_signed ? "i" : "u", 8 * width);
    return 0;
}

int rb_json_to_float_bits(const json_t *v, unsigned width, uint64_t *bits, char *why, size_t why_size)
{
    double d;
    if (json_is_number(v)) {
        d = json_number_value(v);
    } else if (json_is_string(v)) {
        const char *s = json_string_value(v);
        uint64_t raw;
        if (strncmp(s, "NaN:", 4) == 0 && parse_u64_text(s + 4, &raw)) {
            if (width == 4 && raw > UINT32_MAX) { snprintf(why, why_size, "NaN bits do not fit f32"); return 0; }
            *bits = raw;
            return 1;
        }
        if (strcmp(s, "NaN") == 0) { *bits = width == 4 ? 0x7fc00000u : 0x7ff8000000000000ull; return 1; }
        if (strcmp(s, "Infinity") == 0) d = INFINITY;
        else if (strcmp(s, "-Infinity") == 0) d = -INFINITY;
        else if (strcmp(s, "-0.0") == 0) d = -0.0;
        else { snprintf(why, why_size, "\"%s\" is not a number", s); return 0; }
    } else {
        snprintf(why, why_size, "expected a number (f%u)", 8 * width);
        return 0;
    }
    if (width == 4) {
        float f = (float)d;
        if (isinf(f) && !isinf(d)) { snprintf(why, why_size, "%g is out of range for f32", d); return 0; }
        uint32_t b;
        memcpy(&b, &f, 4);
        *bits = b;
    } else {
        memcpy(bits, &d, 8);
    }
    return 1;
}

int rb_json_to_bool(const json_t *v, unsigned width, uint64_t *bits, char *why, size_t why_size)
{
    if (json_is_boolean(v)) { *bits = json_is_true(v); return 1; }
    return rb_json_to_int(v, width, bits, why, why_size) || (snprintf(why, why_size, "expected true or false"), 0);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int bytes_from_hex(rb_doc *doc, const char *hex, uint8_t **data, size_t *size, char *why, size_t why_size)
{
    size_t len = strlen(hex);
    if (len % 2) { snprintf(why, why_size, "$hex has an odd number of digits"); return 0; }
    uint8_t *p = rb_arena_alloc(&doc->arena, len / 2 + 1);
    if (!p) { snprintf(why, why_size, "out of memory"); return 0; }
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) { snprintf(why, why_size, "$hex has a non-hex digit at %zu", 2 * i); return 0; }
        p[i] = (uint8_t)(hi << 4 | lo);
    }
    *data = p;
    *size = len / 2;
    return 1;
}

static int bytes_from_base64(rb_doc *doc, const char *b64, uint8_t **data, size_t *size, char *why, size_t why_size)
{
    size_t len = strlen(b64);
    uint8_t *p = rb_arena_alloc(&doc->arena, len / 4 * 3 + 4);
    if (!p) { snprintf(why, why_size, "out of memory"); return 0; }
    size_t n = rb_base64_decode(b64, len, p);
    if (n == (size_t)-1) { snprintf(why, why_size, "$base64 is not valid base64"); return 0; }
    *data = p;
    *size = n;
    return 1;
}

static int bytes_from_file(rb_doc *doc, const char *path, uint8_t **data, size_t *size, char *why, size_t why_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(why, why_size, "$file %s: %s", path, strerror(errno)); return 0; }
    rb_buf b;
    rb_buf_init(&b);
    uint8_t chunk[65536];
    size_t n;
    uint64_t limit = doc->limits.max_decompressed_size; /* a FIFO or a device may never end */
    while (b.size <= limit && (n = fread(chunk, 1, sizeof chunk, f)) > 0) rb_buf_put(&b, chunk, n);
    int err = ferror(f);
    fclose(f);
    if (b.size > limit) {
        rb_buf_free(&b);
        snprintf(why, why_size, "$file %s: more than %" PRIu64 " bytes, the limit max_decompressed_size", path, limit);
        return 0;
    }
    if (err || b.failed) { rb_buf_free(&b); snprintf(why, why_size, "$file %s: read error", path); return 0; }
    *data = rb_arena_dup(&doc->arena, b.data ? b.data : (const uint8_t *)"", b.size);
    *size = b.size;
    rb_buf_free(&b);
    return *data != NULL;
}

/* {"$blob": {section, offset, size, crc32}} resolves against the parsed original (doc->blob_source). */
static int bytes_from_ref(rb_doc *doc, const json_t *ref, uint8_t **data, size_t *size, char *why, size_t why_size)
{
    const char *section = json_string_value(json_object_get(ref, "section"));
    json_int_t offset = json_integer_value(json_object_get(ref, "offset"));
    json_int_t length = json_integer_value(json_object_get(ref, "size"));
    const char *crc_text = json_string_value(json_object_get(ref, "crc32"));
    const rb_doc *src = doc->blob_source;
    if (!section || offset < 0 || length < 0) { snprintf(why, why_size, "$blob needs section, offset and size"); return 0; }
    if (!src) { snprintf(why, why_size, "$blob refers to the original file, which was not given (--source)"); return 0; }
    for (size_t i = 0; i < src->section_count; i++) {
        const rb_section *s = &src->sections[i];
        if (strcmp(s->name, section) != 0) continue;
        if ((uint64_t)offset > s->size || (uint64_t)length > s->size - (uint64_t)offset) break;
        const uint8_t *p = s->data + offset;
        uint64_t crc_expected;
        if (crc_text && parse_u64_text(crc_text, &crc_expected) && crc32(0, p, (uInt)length) != crc_expected) {
            snprintf(why, why_size, "$blob %s@%lld+%lld does not match the source file (crc32 differs)", section,
                     (long long)offset, (long long)length);
            return 0;
        }
        *data = (uint8_t *)p; /* zero-copy: the source outlives the build */
        *size = (size_t)length;
        return 1;
    }
    snprintf(why, why_size, "$blob %s@%lld+%lld is not in the source file", section, (long long)offset,
             (long long)length);
    return 0;
}

int rb_json_to_bytes(rb_doc *doc, const json_t *v, int is_string, uint8_t **data, size_t *size, char *why,
                     size_t why_size)
{
    if (json_is_string(v)) {
        if (!is_string) { snprintf(why, why_size, "expected a blob object ({\"$base64\": ...} or {\"$file\": ...})"); return 0; }
        *size = json_string_length(v);
        *data = rb_arena_dup(&doc->arena, json_string_value(v), *size + 1);
        return *data != NULL;
    }
    if (json_is_object(v)) {
        const json_t *x;
        if ((x = json_object_get(v, "$hex")) && json_is_string(x))
            return bytes_from_hex(doc, json_string_value(x), data, size, why, why_size);
        if ((x = json_object_get(v, "$base64")) && json_is_string(x))
            return bytes_from_base64(doc, json_string_value(x), data, size, why, why_size);
        if ((x = json_object_get(v, "$file")) && json_is_string(x))
            return bytes_from_file(doc, json_string_value(x), data, size, why, why_size);
        if ((x = json_object_get(v, "$blob")) && json_is_object(x))
            return bytes_from_ref(doc, x, data, size, why, why_size);
        if (json_object_get(v, "$omitted")) {
            snprintf(why, why_size, "blob was omitted from the dump (--blobs=omit); it cannot be rebuilt");
            return 0;
        }
    }
    snprintf(why, why_size, is_string ? "expected a string" : "expected a blob object ({\"$base64\": ...})");
    return 0;
}

/* GBX lookback ids: the bit pattern a stored id number may not have (docs/formats/gbx.md, "ids"). */
enum { ID_FLAG_MASK = 0xC0000000u };

static int id_from_plain_json(rb_arena *arena, rb_node *n, const json_t *v, char *why, size_t why_size)
{
    if (json_is_null(v)) { n->wire = RB_ID_EMPTY; return 1; }
    if (json_is_integer(v)) {
        json_int_t x = json_integer_value(v);
        if (x < 0 || x > 0xFFFFFFFE || ((x & ID_FLAG_MASK) != 0 && (x & ID_FLAG_MASK) != ID_FLAG_MASK)) {
            snprintf(why, why_size, "numeric id %lld is not a valid id number", (long long)x);
            return 0;
        }
        n->wire = RB_ID_NUMBER;
        n->v.bits = (uint64_t)x;
        return 1;
    }
    if (json_is_string(v)) {
        n->wire = RB_ID_STRING;
        n->v.bytes.size = json_string_length(v);
        n->v.bytes.data = rb_arena_dup(arena, json_string_value(v), n->v.bytes.size + 1);
        if (!n->v.bytes.data) snprintf(why, why_size, "out of memory");
        return n->v.bytes.data != NULL;
    }
    snprintf(why, why_size, "an id is a string, a number or null");
    return 0;
}

int rb_json_to_id(rb_arena *arena, const json_t *v, rb_node *n, char *why, size_t why_size)
{
    const json_t *inner = json_is_object(v) ? json_object_get(v, "$id") : v;
    if (!inner) { snprintf(why, why_size, "an id object needs \"$id\""); return 0; }
    n->aux = 0;
    n->aux2 = 0;
    if (!id_from_plain_json(arena, n, inner, why, why_size)) return 0;
    if (!json_is_object(v)) return 1;
    if (json_is_true(json_object_get(v, "def31"))) n->aux |= RB_IDF_DEF31;
    if (json_is_true(json_object_get(v, "redefined"))) n->aux |= RB_IDF_REDEFINED;
    if (json_is_true(json_object_get(v, "ref31"))) n->aux |= RB_IDF_REF31;
    const json_t *ref = json_object_get(v, "refIndex"), *version = json_object_get(v, "idVersion");
    if (json_is_integer(ref) && json_integer_value(ref) > 0 && json_integer_value(ref) < 0x3FFFFFFF) {
        n->aux |= RB_IDF_REF_INDEX;
        n->aux2 = (uint32_t)json_integer_value(ref);
    }
    if (json_is_integer(version) && json_integer_value(version) >= 0 && json_integer_value(version) <= 0xFFFF)
        n->aux |= RB_IDF_VERSION | (uint32_t)json_integer_value(version) << 16;
    return 1;
}

int rb_json_to_stream_info(rb_doc *doc, const json_t *v, rb_stream_info *info, char *why, size_t why_size)
{
    if (!v) return 1; /* no original: the stream will be encoded */
    uint64_t x;
    const json_t *orig = json_object_get(v, "original");
    if (orig) {
        uint8_t *data;
        size_t size;
        if (!rb_json_to_bytes(doc, orig, 0, &data, &size, why, why_size)) return 0;
        info->original = data;
        info->original_size = size;
    }
    if (!rb_json_to_int(json_object_get(v, "content_size"), RB_U64, &info->content_size, why, why_size)) return 0;
    if (!rb_json_to_int(json_object_get(v, "content_crc32"), RB_U32, &x, why, why_size)) return 0;
    info->content_crc32 = (uint32_t)x;
    if (!rb_json_to_int(json_object_get(v, "content_adler32"), RB_U32, &x, why, why_size)) return 0;
    info->content_adler32 = (uint32_t)x;
    info->digests_known = 1;
    return 1;
}

/* `keep_ids`: an id's storage flags stay (what the dump shows of them is not what a writer derives). */
static void strip_annotations(json_t *j, int keep_ids)
{
    if (json_is_object(j)) {
        json_object_del(j, "$stream");
        const char *k;
        json_t *v;
        void *tmp;
        json_object_foreach_safe(j, tmp, k, v) {
            json_t *plain = !keep_ids && json_is_object(v) ? json_object_get(v, "$id") : NULL;
            if (plain) json_object_set(j, k, plain);
            else strip_annotations(v, keep_ids);
        }
    } else if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j); i++) {
            json_t *v = json_array_get(j, i);
            json_t *plain = !keep_ids && json_is_object(v) ? json_object_get(v, "$id") : NULL;
            if (plain) json_array_set(j, i, plain);
            else strip_annotations(v, keep_ids);
        }
    }
}

void rb_json_strip_storage(json_t *j) { strip_annotations(j, 0); }

void rb_json_strip_streams(json_t *j) { strip_annotations(j, 1); }

int rb_json_patch_op(json_t *ops, const char *op, const char *path, const char *from, json_t *value)
{
    json_t *o = json_pack("{s:s,s:s}", "op", op, "path", path);
    int ok = o && (!from || json_object_set_new(o, "from", json_string(from)) == 0) &&
             (!value || json_object_set(o, "value", value) == 0);
    json_decref(value);
    if (!ok) {
        json_decref(o);
        return -1;
    }
    return json_array_append_new(ops, o) == 0 ? 0 : -1;
}
