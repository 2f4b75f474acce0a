/*
 * The archive's values (see archive.h): scalars, strings and bytes in every direction. Split from
 * archive.c, which keeps the engine (lifetime, errors, cursor, text lines, fields, structure);
 * what they share is declared in archive_internal.h.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "core/archive/archive_internal.h"

/* FROM_JSON: an integer field, a symbol handle spelled as its text included. */
static int int_from_json(rb_ar *ar, const json_t *jv, unsigned wire, uint64_t *bits, char *why, size_t why_size)
{
    if (RB_WIRE_IS_SYMBOL(wire) && json_is_string(jv) && strncmp(json_string_value(jv), "0x", 2) != 0 &&
        ar->symbol_resolver) {
        uint32_t handle;
        if (ar->symbol_resolver(ar->symbol_context, json_string_value(jv), json_string_length(jv), &handle) != 0) {
            snprintf(why, why_size, "no handle can be given to the name \"%.80s\"", json_string_value(jv));
            return 0;
        }
        *bits = handle;
        return 1;
    }
    return rb_json_to_int(jv, wire, bits, why, why_size);
}

/* ---------- scalars ---------- */

/* READ of a binary scalar in one pass: what ar_field, take_binary_scalar and ar_note_size do,
 * in the same order and with the same errors, without their calls and direction tests. Every
 * description reads most of its fields through here (a GBX map: 180 000 of its 197 000 nodes). */
static rb_node *read_binary_scalar(rb_ar *ar, const char *key, rb_kind kind, unsigned wire)
{
    if (ar->failed) return NULL;
    ar_frame *f = &ar->frames[ar->frame_count - 1];
    rb_node *parent = f->node;
    f->current = parent->v.kids.count;
    rb_node *n = rb_arena_alloc_uninit(&ar->doc->arena, sizeof(*n));
    if (!n || !ar_append_child(ar, parent, n)) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    f->next = parent->v.kids.count;
    ar_range *r = &ar->ranges[ar->range_count - 1];
    uint64_t at = r->section_base + r->pos;
    *n = (rb_node){.kind = (uint8_t)kind, .wire = (uint8_t)wire, .section = r->section, .src_offset = ar_clamp32(at),
                   .key = key};
    unsigned width = wire & RB_W_WIDTH;
    if (width > r->size - r->pos) {
        ar_bytes_left(ar, key, width); /* fails with the message every read gives */
        return NULL;
    }
    n->v.bits = ar_decode_int(r->base + r->pos, wire);
    r->pos += width;
    n->src_size = ar_clamp32(at + width - n->src_offset);
    return n;
}

/* WRITE of a binary scalar when the model's next node is the field, named by the same literal
 * (what ar_field checks first); NULL otherwise, with nothing changed, and the caller takes the
 * general path, which also says what is wrong. */
static const rb_node *write_binary_scalar(rb_ar *ar, const char *key, rb_kind kind, unsigned wire)
{
    if (ar->failed || ar->derived_key || ar->text) return NULL;
    ar_frame *f = &ar->frames[ar->frame_count - 1];
    if (f->next >= f->node->v.kids.count) return NULL;
    const rb_node *n = f->node->v.kids.items[f->next];
    if (n->key != key || n->kind != kind) return NULL;
    f->current = f->next++;
    ar_emit_int(ar, n->v.bits, wire);
    return n;
}

uint64_t rb_ar_uint(rb_ar *ar, const char *key, unsigned wire)
{
    if (ar->dir == RB_AR_READ && !ar->text) {
        rb_node *n = read_binary_scalar(ar, key, RB_K_INT, wire);
        return n ? n->v.bits : 0;
    }
    if (ar->dir == RB_AR_WRITE) {
        const rb_node *n = write_binary_scalar(ar, key, RB_K_INT, wire);
        if (n) return n->v.bits;
    }
    json_t *jv = NULL;
    rb_node *n = ar_field(ar, key, RB_K_INT, wire, &jv);
    if (!n) return 0;
    switch (ar->dir) {
    case RB_AR_READ:
        if (!ar->enc->take_scalar(ar, key, RB_K_INT, wire, &n->v.bits)) return 0;
        ar_note_size(ar, n);
        break;
    case RB_AR_WRITE:
        ar->enc->emit_scalar(ar, RB_K_INT, n->v.bits, wire);
        break;
    case RB_AR_FROM_JSON: {
        char why[160];
        if (!int_from_json(ar, jv, wire, &n->v.bits, why, sizeof why)) {
            ar_fail_at(ar, RB_E_MODEL, key, "%s", why);
            return 0;
        }
        break;
    }
    }
    return n->v.bits;
}

int64_t rb_ar_sint(rb_ar *ar, const char *key, unsigned wire)
{
    uint64_t bits = rb_ar_uint(ar, key, wire | RB_W_SIGNED);
    rb_node tmp = {.wire = (uint8_t)(wire | RB_W_SIGNED)};
    tmp.v.bits = bits;
    return rb_node_int(&tmp);
}

uint64_t ar_float_field(rb_ar *ar, const char *key, unsigned width)
{
    if (ar->dir == RB_AR_READ && !ar->text) {
        rb_node *n = read_binary_scalar(ar, key, RB_K_FLOAT, width);
        return n ? n->v.bits : 0;
    }
    if (ar->dir == RB_AR_WRITE) {
        const rb_node *n = write_binary_scalar(ar, key, RB_K_FLOAT, width);
        if (n) return n->v.bits;
    }
    json_t *jv = NULL;
    rb_node *n = ar_field(ar, key, RB_K_FLOAT, width, &jv);
    if (!n) return 0;
    switch (ar->dir) {
    case RB_AR_READ:
        if (!ar->enc->take_scalar(ar, key, RB_K_FLOAT, width, &n->v.bits)) return 0;
        ar_note_size(ar, n);
        break;
    case RB_AR_WRITE:
        ar->enc->emit_scalar(ar, RB_K_FLOAT, n->v.bits, width);
        break;
    case RB_AR_FROM_JSON: {
        char why[160];
        if (!rb_json_to_float_bits(jv, width, &n->v.bits, why, sizeof why)) {
            ar_fail_at(ar, RB_E_MODEL, key, "%s", why);
            return 0;
        }
        break;
    }
    }
    return n->v.bits;
}

uint32_t rb_ar_f32(rb_ar *ar, const char *key) { return (uint32_t)ar_float_field(ar, key, 4); }
uint64_t rb_ar_f64(rb_ar *ar, const char *key) { return ar_float_field(ar, key, 8); }

uint32_t rb_ar_bool(rb_ar *ar, const char *key, unsigned width)
{
    if (ar->dir == RB_AR_READ && !ar->text) {
        rb_node *n = read_binary_scalar(ar, key, RB_K_BOOL, width);
        return n ? (uint32_t)n->v.bits : 0;
    }
    if (ar->dir == RB_AR_WRITE) {
        const rb_node *n = write_binary_scalar(ar, key, RB_K_BOOL, width);
        if (n) return (uint32_t)n->v.bits;
    }
    json_t *jv = NULL;
    rb_node *n = ar_field(ar, key, RB_K_BOOL, width, &jv);
    if (!n) return 0;
    switch (ar->dir) {
    case RB_AR_READ:
        if (!ar->enc->take_scalar(ar, key, RB_K_BOOL, width, &n->v.bits)) return 0;
        ar_note_size(ar, n);
        break;
    case RB_AR_WRITE:
        ar->enc->emit_scalar(ar, RB_K_BOOL, n->v.bits, width);
        break;
    case RB_AR_FROM_JSON: {
        char why[160];
        if (!rb_json_to_bool(jv, width, &n->v.bits, why, sizeof why)) {
            ar_fail_at(ar, RB_E_MODEL, key, "%s", why);
            return 0;
        }
        break;
    }
    }
    return (uint32_t)n->v.bits;
}

uint64_t rb_ar_uint_detached(rb_ar *ar, const char *key, unsigned wire, uint64_t read_value)
{
    json_t *jv = NULL;
    rb_node *n = ar_field(ar, key, RB_K_INT, wire, &jv);
    if (!n) return 0;
    if (ar->dir == RB_AR_READ) {
        n->v.bits = read_value;
    } else if (ar->dir == RB_AR_FROM_JSON) {
        char why[160];
        if (!int_from_json(ar, jv, wire, &n->v.bits, why, sizeof why)) { ar_fail_at(ar, RB_E_MODEL, key, "%s", why); return 0; }
    }
    return n->v.bits;
}

uint32_t rb_ar_bool_detached(rb_ar *ar, const char *key, unsigned width, uint64_t read_value)
{
    json_t *jv = NULL;
    rb_node *n = ar_field(ar, key, RB_K_BOOL, width, &jv);
    if (!n) return 0;
    if (ar->dir == RB_AR_READ) {
        n->v.bits = read_value;
    } else if (ar->dir == RB_AR_FROM_JSON) {
        char why[160];
        if (!rb_json_to_bool(jv, width, &n->v.bits, why, sizeof why)) { ar_fail_at(ar, RB_E_MODEL, key, "%s", why); return 0; }
    }
    return (uint32_t)n->v.bits;
}

static int bytes_from_json(rb_ar *ar, const char *key, rb_node *n, json_t *jv);

const rb_node *rb_ar_string_detached(rb_ar *ar, const char *key, const uint8_t *read_data, size_t read_size)
{
    json_t *jv = NULL;
    rb_node *n = ar_field(ar, key, RB_K_STRING, 0, &jv);
    if (!n) return NULL;
    if (ar->dir == RB_AR_READ) {
        n->v.bytes.data = read_data;
        n->v.bytes.size = read_size;
    } else if (ar->dir == RB_AR_FROM_JSON && !bytes_from_json(ar, key, n, jv)) {
        return NULL;
    }
    return n;
}

int rb_ar_next_is_string(rb_ar *ar)
{
    if (ar->failed) return 0;
    ar_frame *f = ar_top_frame(ar);
    if (ar->dir == RB_AR_WRITE)
        return f->next < f->node->v.kids.count && f->node->v.kids.items[f->next]->kind == RB_K_STRING;
    if (ar->dir == RB_AR_FROM_JSON)
        return f->json && json_is_array(f->json) && json_is_string(ar_json_element(ar, f->json, ar_json_index(f), NULL));
    return 0;
}

int rb_ar_has(rb_ar *ar, const char *key, int read_answer)
{
    if (ar->failed) return 0;
    ar_frame *f = ar_top_frame(ar);
    if (ar->dir == RB_AR_READ) return read_answer;
    if (ar->dir == RB_AR_WRITE) {
        /* only what is still ahead counts: an earlier field of the same name is not this one */
        for (size_t i = f->next; i < f->node->v.kids.count; i++) {
            const rb_node *c = f->node->v.kids.items[i];
            if (c->key && (c->key == key || (c->key[0] == key[0] && strcmp(c->key, key) == 0))) return 1;
        }
        return 0;
    }
    return json_is_object(f->json) && json_object_get(f->json, key) != NULL;
}

uint64_t rb_ar_count_of(rb_ar *ar, const char *key, uint64_t read_value)
{
    if (ar->failed) return 0;
    ar_frame *f = ar_top_frame(ar);
    if (ar->dir == RB_AR_READ) return read_value;
    if (ar->dir == RB_AR_WRITE) {
        for (size_t i = f->next; i < f->node->v.kids.count; i++) {
            const rb_node *c = f->node->v.kids.items[i];
            if (c->key && strcmp(c->key, key) == 0 && c->kind == RB_K_LIST) return c->v.kids.count;
            if (c->key && strcmp(c->key, key) == 0 && c->kind == RB_K_TABLE) return c->table->count;
        }
        return 0;
    }
    const json_t *a = json_is_object(f->json) ? json_object_get(f->json, key) : NULL;
    return json_is_array(a) ? json_array_size(a) : 0;
}

/* Text: the line a known value is spelled as. Markers of 1, 2, 4 or 8 bytes as the hex of their
 * little-endian value ("FACADE01", "534B4950" for "PIKS"), printable text as itself
 * ("<Thumbnail.jpg>"), other bytes as a "0x" line. */
static void spell_expected(rb_buf *b, const uint8_t *bytes, size_t size)
{
    int printable = size > 0 && rb_text_string_is_plain(bytes, size);
    for (size_t i = 0; i < size && printable; i++) printable = bytes[i] >= 0x20 && bytes[i] < 0x7f;
    if (size == 1 || size == 2 || size == 4 || size == 8) {
        char s[RB_TEXT_NUMBER_MAX];
        rb_buf_put(b, s, rb_text_spell_uint(s, ar_decode_int(bytes, (unsigned)size), (unsigned)size | RB_W_HEX));
    } else if (printable) {
        rb_buf_put(b, bytes, size);
    } else {
        rb_buf_put(b, "0x", 2);
        rb_text_hex_digits(b, bytes, size);
    }
}

static int expect_text(rb_ar *ar, const char *what, const void *bytes, size_t size)
{
    rb_buf spelled;
    rb_buf_init(&spelled);
    spell_expected(&spelled, bytes, size);
    int ok = !spelled.failed;
    if (!ok) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
    else if (ar->dir == RB_AR_WRITE) ar_put_line(ar, spelled.data, spelled.size);
    else {
        size_t len;
        const uint8_t *line = ar_next_line(ar, what, &len);
        ok = line && len == spelled.size && memcmp(line, spelled.data, len) == 0;
        if (line && !ok) {
            ar_top_range(ar)->pos -= len + 2;
            ar_fail_at(ar, RB_E_FORMAT, what, "unexpected line (not a %s: %.*s)", what, (int)spelled.size,
                    (const char *)spelled.data);
        }
    }
    rb_buf_free(&spelled);
    return ok;
}

int rb_ar_expect(rb_ar *ar, const char *what, const void *bytes, size_t size)
{
    if (ar->failed) return 0;
    if (ar->text && ar->dir != RB_AR_FROM_JSON) return expect_text(ar, what, bytes, size);
    if (ar->dir == RB_AR_WRITE) {
        rb_buf_put(ar_out(ar), bytes, size);
    } else if (ar->dir == RB_AR_READ) {
        const uint8_t *p = ar_take(ar, what, size);
        if (!p) return 0;
        if (memcmp(p, bytes, size) != 0) {
            ar_top_range(ar)->pos -= size;
            ar_fail_at(ar, RB_E_FORMAT, what, "unexpected bytes (not a %s)", what);
            return 0;
        }
    }
    return 1;
}

/* ---------- strings and bytes ---------- */

static int bytes_from_json(rb_ar *ar, const char *key, rb_node *n, json_t *jv)
{
    char why[200];
    uint8_t *data = NULL;
    size_t size = 0;
    if (!rb_json_to_bytes(ar->doc, jv, n->kind == RB_K_STRING, &data, &size, why, sizeof why)) {
        ar_fail_at(ar, RB_E_MODEL, key, "%s", why);
        return 0;
    }
    n->v.bytes.data = data;
    n->v.bytes.size = size;
    return 1;
}

/* Text READ of a string or bytes field: one line, whose length is its own. A field of a size the
 * description knows must have that size, except one that takes all that is left of its range
 * (rb_ar_rest): in text that is the line, whatever its byte count. */
static int read_bytes_text(rb_ar *ar, const char *key, rb_node *n, unsigned length_wire, uint64_t fixed_size)
{
    uint64_t left = rb_ar_remaining(ar);
    size_t size = 0;
    const uint8_t *data = n->kind == RB_K_STRING ? ar_read_string_line(ar, key, &size) : ar_read_hex_line(ar, key, &size);
    if (!data) return 0;
    int rest = !length_wire && fixed_size == left && rb_ar_at_end(ar);
    /* UINT64_MAX, as in WRITE: no size to check, the line decides (a payload whose size the binary
     * form implies from what follows it, e.g. GBX map chunk 0x03043061) */
    if (!length_wire && !rest && fixed_size != UINT64_MAX && size != fixed_size) {
        ar_fail_at(ar, RB_E_FORMAT, key, "has %zu bytes, %" PRIu64 " expected", size, fixed_size);
        return 0;
    }
    if (length_wire && size > ar->doc->limits.max_string) {
        ar_fail_at(ar, RB_E_LIMIT, key,
                "length %zu exceeds the limit max_string (%" PRIu64 "); raise it (REBYTE_LIMITS=max_string=N, or rb_limits) to read this file",
                size, ar->doc->limits.max_string);
        return 0;
    }
    n->v.bytes.data = data;
    n->v.bytes.size = size;
    ar_note_size(ar, n);
    return 1;
}

static const rb_node *bytes_field(rb_ar *ar, const char *key, rb_kind kind, unsigned length_wire,
                                  uint64_t fixed_size)
{
    json_t *jv = NULL;
    rb_node *n = ar_field(ar, key, kind, length_wire, &jv);
    if (!n) return NULL;
    if (ar->dir == RB_AR_READ && ar->text) {
        if (!read_bytes_text(ar, key, n, length_wire, fixed_size)) return NULL;
    } else if (ar->dir == RB_AR_READ) {
        uint64_t size = fixed_size;
        if (length_wire) {
            const uint8_t *p = ar_take(ar, key, length_wire & RB_W_WIDTH);
            if (!p) return NULL;
            size = ar_decode_int(p, length_wire);
            if ((length_wire & RB_W_SIGNED) && (length_wire & RB_W_WIDTH) == 4 && size > INT32_MAX) {
                ar_top_range(ar)->pos -= 4;
                ar_fail_at(ar, RB_E_FORMAT, key, "negative length %" PRId32, (int32_t)size);
                return NULL;
            }
            if (size > ar->doc->limits.max_string) {
                ar_top_range(ar)->pos -= length_wire & RB_W_WIDTH;
                ar_fail_at(ar, RB_E_LIMIT, key,
                        "length %" PRIu64 " exceeds the limit max_string (%" PRIu64 "); raise it (REBYTE_LIMITS=max_string=N, or rb_limits) to read this file",
                        size, ar->doc->limits.max_string);
                return NULL;
            }
            if (size > rb_ar_remaining(ar)) {
                ar_top_range(ar)->pos -= length_wire & RB_W_WIDTH;
                ar_fail_at(ar, RB_E_FORMAT, key, "length %" PRIu64 " exceeds the %" PRIu64 " bytes left", size,
                        rb_ar_remaining(ar));
                return NULL;
            }
        }
        const uint8_t *p = ar_take(ar, key, size);
        if (!p) return NULL;
        n->v.bytes.data = p;
        n->v.bytes.size = (size_t)size;
        ar_note_size(ar, n);
    } else if (ar->dir == RB_AR_WRITE) {
        if (length_wire) {
            uint64_t max = (length_wire & RB_W_WIDTH) >= 8 ? UINT64_MAX
                                                           : ((uint64_t)1 << (8 * (length_wire & RB_W_WIDTH))) - 1;
            if (length_wire & RB_W_SIGNED) max >>= 1;
            if (n->v.bytes.size > max) {
                ar_fail_at(ar, RB_E_MODEL, key, "%zu bytes do not fit the length field", n->v.bytes.size);
                return NULL;
            }
            if (!ar->text) ar_emit_int(ar, n->v.bytes.size, length_wire); /* text: the line is its length */
        } else if (fixed_size != UINT64_MAX && n->kind == RB_K_STRING && n->v.bytes.size != fixed_size) {
            ar_fail_at(ar, RB_E_MODEL, key, "must be exactly %" PRIu64 " bytes, model has %zu", fixed_size,
                    n->v.bytes.size);
            return NULL;
        }
        if (!ar->text) rb_buf_put(ar_out(ar), n->v.bytes.data, n->v.bytes.size);
        else if (n->kind == RB_K_STRING) ar_write_string_line(ar, n->v.bytes.data, n->v.bytes.size);
        else ar_write_hex_line(ar, n->v.bytes.data, n->v.bytes.size);
    } else {
        if (!bytes_from_json(ar, key, n, jv)) return NULL;
        if (!length_wire && fixed_size != UINT64_MAX && n->kind == RB_K_STRING && n->v.bytes.size != fixed_size) {
            ar_fail_at(ar, RB_E_MODEL, key, "must be exactly %" PRIu64 " bytes, JSON has %zu", fixed_size,
                    n->v.bytes.size);
            return NULL;
        }
    }
    return n;
}

const rb_node *rb_ar_string(rb_ar *ar, const char *key, unsigned length_wire)
{
    return bytes_field(ar, key, RB_K_STRING, length_wire, 0);
}

const rb_node *rb_ar_fixed_string(rb_ar *ar, const char *key, size_t size)
{
    return bytes_field(ar, key, RB_K_STRING, 0, size);
}

const rb_node *rb_ar_bytes(rb_ar *ar, const char *key, rb_kind kind, uint64_t size)
{
    /* In WRITE/FROM_JSON the model decides the size (UINT64_MAX = no check). */
    return bytes_field(ar, key, kind, 0, ar->dir == RB_AR_READ ? size : UINT64_MAX);
}

const rb_node *rb_ar_bytes_deferring(rb_ar *ar, const char *key, rb_kind kind, uint64_t size, const uint32_t *deferred,
                                     size_t count, unsigned width)
{
    if (ar->dir != RB_AR_WRITE || ar->text || !count) return rb_ar_bytes(ar, key, kind, size);
    rb_node *n = ar_field(ar, key, kind, 0, NULL);
    if (!n) return NULL;
    rb_buf *b = ar_out(ar);
    const uint8_t *data = n->v.bytes.data;
    size_t put = 0;
    for (size_t i = 0; i < count; i++) {
        size_t at = deferred[i];
        if (at < put || at > n->v.bytes.size || width > n->v.bytes.size - at) continue; /* put as they are */
        rb_buf_put(b, data + put, at - put);
        rb_buf_put_deferred(b, data + at, width);
        put = at + width;
    }
    rb_buf_put(b, data + put, n->v.bytes.size - put);
    return n;
}

const rb_node *rb_ar_rest(rb_ar *ar, const char *key)
{
    return rb_ar_bytes(ar, key, RB_K_OPAQUE, rb_ar_remaining(ar));
}

const rb_node *rb_ar_cstring(rb_ar *ar, const char *key)
{
    uint64_t length = 0;
    if (rb_ar_direction(ar) == RB_AR_READ) {
        uint64_t left = rb_ar_remaining(ar);
        const uint8_t *at = rb_ar_peek_bytes(ar, left);
        const uint8_t *nul = at ? memchr(at, 0, left) : NULL;
        if (!nul) {
            rb_ar_fail(ar, RB_E_FORMAT, "%s: no NUL terminator in the %llu bytes left", key ? key : "string",
                       (unsigned long long)left);
            return NULL;
        }
        length = (uint64_t)(nul - at);
    }
    const rb_node *text = rb_ar_bytes(ar, key, RB_K_STRING, length);
    if (text && rb_ar_direction(ar) != RB_AR_READ && memchr(text->v.bytes.data, 0, text->v.bytes.size))
        rb_ar_fail(ar, RB_E_MODEL, "%s: a NUL inside the text (the game reads up to the first NUL)", key ? key : "string");
    rb_ar_expect(ar, "string terminator", "", 1);
    return text;
}
