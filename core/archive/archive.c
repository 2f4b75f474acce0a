/*
 * The archive's three directions over one description (see archive.h).
 * READ walks a stack of byte ranges; WRITE walks the model and a stack of output buffers;
 * FROM_JSON walks a JSON tree beside the model it builds. This file: the engine; scalars, strings
 * and bytes are in archive_values.c, tables in archive_table.c, ranges, streams and sections in
 * archive_stream.c (archive_internal.h).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "core/archive/archive_internal.h"
#include "core/json/json_stream.h"


/* ---------- lifetime ---------- */

/* The children's buffer and the enclosing reads of the top frame's depth are cleared when the
 * depth is first reached, so that every depth below frame_count has them (archive_internal.h). */
static void reach_kids_depth(rb_ar *ar)
{
    if (ar->frame_count <= ar->kids_depths) return;
    size_t depth = ar->kids_depths++;
    ar->kids[depth] = NULL;
    ar->kids_cap[depth] = 0;
    ar->kids_owner[depth] = NULL;
    ar->enclosing_reads[depth] = 0;
}

/* An archive's error before any failure: no status, empty texts (ar_vfail fills it whole). */
static void blank_error(rb_error *e)
{
    e->size = sizeof *e;
    e->status = RB_OK;
    e->file[0] = e->section[0] = e->path[0] = e->message[0] = 0;
    e->offset = 0;
    e->has_offset = 0;
}

static rb_ar *ar_new(rb_doc *doc, rb_ar_dir dir, rb_node *root)
{
    rb_ar *ar = malloc(sizeof(*ar));
    if (!ar) return NULL;
    memset(ar, 0, offsetof(rb_ar, err)); /* the rest is set as it is used (archive_internal.h) */
    blank_error(&ar->err);
    ar->dir = dir;
    ar->doc = doc;
    ar->frames[0] = (ar_frame){.node = root};
    ar->frame_count = 1;
    reach_kids_depth(ar);
    ar->ranges[0] = (ar_range){0};
    ar_set_encoding(ar, 0);
    return ar;
}

rb_ar *rb_ar_new_read(rb_doc *doc, const uint8_t *data, size_t size, rb_node *root)
{
    rb_ar *ar = ar_new(doc, RB_AR_READ, root);
    if (!ar) return NULL;
    ar->ranges[0] = (ar_range){.base = data, .size = size, .section = 0, .what = "file"};
    ar->range_count = 1;
    return ar;
}

void rb_ar_set_reencode_codec(rb_ar *ar, const char *codec) { ar->reencode_codec = codec; }

rb_ar *ar_new_write_part(rb_doc *doc, rb_node *root)
{
    rb_ar *ar = ar_new(doc, RB_AR_WRITE, root);
    if (!ar) return NULL;
    rb_buf_init(&ar->outputs[0]);
    ar->output_count = 1;
    ar->ranges[0] = (ar_range){.what = "file"};
    ar->range_count = 1;
    return ar;
}

rb_ar *rb_ar_new_write(rb_doc *doc, rb_node *root, int reencode, int decoded)
{
    rb_ar *ar = ar_new_write_part(doc, root);
    if (!ar) return NULL;
    ar->reencode = reencode;
    ar->decoded = decoded;
    /* an unchanged model writes as many bytes as it was read from: reserve them, so the output is
     * not copied again each time it outgrows its buffer */
    if (doc->section_count) rb_buf_reserve_hint(&ar->outputs[0], doc->sections[0].size);
    return ar;
}

rb_ar *rb_ar_new_from_json(rb_doc *doc, json_t *json, rb_node *root)
{
    rb_ar *ar = ar_new(doc, RB_AR_FROM_JSON, root);
    if (!ar) return NULL;
    ar->frames[0].json = json;
    ar->ranges[0] = (ar_range){.what = "json"};
    ar->range_count = 1;
    return ar;
}

rb_ar *rb_ar_new_draft_from_json(rb_doc *doc, json_t *json, rb_node *root, const rb_node *const *around,
                                 size_t around_count)
{
    rb_ar *ar = rb_ar_new_from_json(doc, json, root);
    if (!ar) return NULL;
    ar->around = around;
    ar->around_count = around_count;
    return ar;
}

void rb_ar_free(rb_ar *ar)
{
    if (!ar) return;
    for (size_t i = 0; i < ar->output_count; i++) rb_buf_free(&ar->outputs[i]);
    for (size_t i = 0; i < ar->kids_depths; i++) free(ar->kids[i]);
    if (ar->scratch_used) rb_arena_free(&ar->scratch);
    free(ar);
}

rb_buf *rb_ar_output(rb_ar *ar) { return ar->output_count ? &ar->outputs[0] : NULL; }
rb_ar_dir rb_ar_direction(const rb_ar *ar) { return ar->dir; }
int rb_ar_ok(const rb_ar *ar) { return !ar->failed; }
int rb_ar_checks_edits(const rb_ar *ar)
{
    return ar->dir == RB_AR_FROM_JSON || (ar->dir == RB_AR_WRITE && ar->doc->edited);
}
const rb_error *rb_ar_error(const rb_ar *ar) { return &ar->err; }
const rb_limits *rb_ar_limits(const rb_ar *ar) { return &ar->doc->limits; }
rb_arena *rb_ar_arena(rb_ar *ar) { return &ar->doc->arena; }
rb_arena *rb_ar_scratch_arena(rb_ar *ar)
{
    if (ar->dir != RB_AR_WRITE) return &ar->doc->arena;
    if (!ar->scratch_used) {
        rb_arena_init(&ar->scratch);
        ar->scratch_used = 1;
    }
    return &ar->scratch;
}
rb_doc *rb_ar_doc(rb_ar *ar) { return ar->doc; }
void rb_ar_set_user(rb_ar *ar, void *user) { ar->user = user; }
void *rb_ar_user(rb_ar *ar) { return ar->user; }

ar_frame *ar_top_frame(rb_ar *ar) { return &ar->frames[ar->frame_count - 1]; }
ar_range *ar_top_range(rb_ar *ar) { return &ar->ranges[ar->range_count - 1]; }
rb_buf *ar_out(rb_ar *ar) { return &ar->outputs[ar->output_count - 1]; }

/* ---------- errors ---------- */

static void append_path(char *path, size_t size, const char *segment, int separator)
{
    size_t len = strlen(path);
    if (len + 1 >= size) return;
    snprintf(path + len, size - len, "%s%s", (separator && len) ? " > " : "", segment);
}

/* One step of a path: the index inside a list, else the key. */
static void append_segment(rb_ar *ar, const ar_frame *parent, const char *key, char *path, size_t size)
{
    int pointer = ar->dir == RB_AR_FROM_JSON;
    char seg[200];
    if (parent->node && parent->node->kind == RB_K_LIST) {
        snprintf(seg, sizeof seg, pointer ? "/%zu" : "[%zu]", parent->current + parent->dropped);
        append_path(path, size, seg, 0);
    } else if (key) {
        snprintf(seg, sizeof seg, pointer ? "/%s" : "%s", key);
        append_path(path, size, seg, !pointer);
    }
}

/* The structure path: keys of the open containers, with the index inside lists.
 * From JSON it is spelled as an RFC 6901 pointer ("/scalars/u8"), the way patches address it. */
static void build_path(rb_ar *ar, const char *leaf, char *path, size_t size)
{
    path[0] = 0;
    for (size_t i = 1; i < ar->frame_count; i++) append_segment(ar, &ar->frames[i - 1], ar->frames[i].node->key, path, size);
    const ar_frame *top = &ar->frames[ar->frame_count - 1];
    if (leaf || (top->node && top->node->kind == RB_K_LIST && top->node->v.kids.count)) append_segment(ar, top, leaf, path, size);
}

void ar_vfail(rb_ar *ar, rb_status status, const char *leaf, const char *fmt, va_list ap)
{
    if (ar->failed) return;
    ar->failed = 1;
    rb_error *e = &ar->err;
    memset(e, 0, sizeof(*e));
    e->status = status;
    snprintf(e->file, sizeof e->file, "%s", ar->doc->file_name);
    const ar_range *r = ar_top_range(ar);
    if (ar->dir == RB_AR_READ) {
        e->has_offset = 1;
        e->offset = r->section_base + r->pos;
        snprintf(e->section, sizeof e->section, "%s", ar->doc->sections[r->section].name);
    } else if (ar->dir == RB_AR_WRITE) {
        e->has_offset = 1;
        e->offset = ar_out(ar)->size;
        snprintf(e->section, sizeof e->section, "output");
    } else {
        snprintf(e->section, sizeof e->section, "json");
    }
    build_path(ar, leaf, e->path, sizeof e->path);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
}

void rb_ar_fail(rb_ar *ar, rb_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ar_vfail(ar, status, NULL, fmt, ap);
    va_end(ap);
}

void rb_ar_note(rb_ar *ar, const char *fmt, ...)
{
    if (ar->failed || ar->dir != RB_AR_READ) return;
    const ar_range *r = ar_top_range(ar);
    char path[512], message[512], text[1200];
    build_path(ar, NULL, path, sizeof path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    snprintf(text, sizeof text, "%s @0x%" PRIx64 ": %s%s%s", ar->doc->sections[r->section].name,
             r->section_base + r->pos, path, path[0] ? ": " : "", message);
    if (rb_doc_add_note(ar->doc, text) != 0) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
}

void ar_fail_at(rb_ar *ar, rb_status status, const char *leaf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ar_vfail(ar, status, leaf, fmt, ap);
    va_end(ap);
}

/* ---------- READ cursor ---------- */

uint64_t rb_ar_remaining(const rb_ar *ar)
{
    if (ar->dir != RB_AR_READ) return 0;
    const ar_range *r = &ar->ranges[ar->range_count - 1];
    return r->size - r->pos + ar->raw_left;
}

int rb_ar_at_end(const rb_ar *ar) { return ar->dir == RB_AR_READ && rb_ar_remaining(ar) == 0; }

const uint8_t *rb_ar_peek_bytes(rb_ar *ar, uint64_t size)
{
    if (ar->failed || ar->dir != RB_AR_READ || ar->text || size > rb_ar_remaining(ar)) return NULL;
    const ar_range *r = &ar->ranges[ar->range_count - 1];
    return r->base + r->pos;
}

const uint8_t *rb_ar_written_since(rb_ar *ar, uint64_t from, uint64_t *size)
{
    if (ar->failed || ar->dir != RB_AR_WRITE) return NULL;
    rb_buf *b = &ar->outputs[ar->output_count - 1];
    const uint8_t *bytes = rb_buf_view(b, (size_t)from);
    if (bytes) *size = b->size - from;
    return bytes;
}

int rb_ar_read_written(rb_ar *ar, uint64_t at, void *out, size_t n)
{
    if (ar->failed || ar->dir != RB_AR_WRITE) return 0;
    return rb_buf_read(&ar->outputs[ar->output_count - 1], (size_t)at, out, n);
}

int rb_ar_drop(rb_ar *ar, const char *key)
{
    if (ar->failed || ar->dir != RB_AR_WRITE) return 0;
    ar_frame *f = ar_top_frame(ar);
    rb_node *n = f->node;
    if (f->next >= n->v.kids.count || !n->v.kids.items[f->next]->key ||
        strcmp(n->v.kids.items[f->next]->key, key) != 0)
        return 0;
    memmove(&n->v.kids.items[f->next], &n->v.kids.items[f->next + 1],
            (n->v.kids.count - f->next - 1) * sizeof(n->v.kids.items[0]));
    n->v.kids.count--;
    return 1;
}

uint64_t rb_ar_tell(const rb_ar *ar)
{
    if (ar->dir == RB_AR_READ) return ar->ranges[ar->range_count - 1].pos;
    if (ar->dir == RB_AR_WRITE) {
        ar_close_raw_line((rb_ar *)ar); /* a size measured here ends after a whole line */
        return ar->outputs[ar->output_count - 1].size;
    }
    return 0;
}

/* READ: are `n` more bytes in the current range? Else an error at the cursor. */
int ar_bytes_left(rb_ar *ar, const char *leaf, uint64_t n)
{
    ar_range *r = ar_top_range(ar);
    if (n <= r->size - r->pos) return 1;
    ar_fail_at(ar, RB_E_FORMAT, leaf, "needs %" PRIu64 " bytes, only %zu left in %s", n, r->size - r->pos, r->what);
    return 0;
}

const uint8_t *ar_take(rb_ar *ar, const char *leaf, uint64_t n)
{
    if (!ar_bytes_left(ar, leaf, n)) return NULL;
    ar_range *r = ar_top_range(ar);
    const uint8_t *p = r->base + r->pos;
    r->pos += (size_t)n;
    return p;
}


/* Are the bytes of `wire` at `p` the integer `v` spelled? */
static inline int int_is(const uint8_t *p, uint64_t v, unsigned wire)
{
    unsigned width = wire & RB_W_WIDTH;
    uint64_t low = width < 8 ? v & ((UINT64_C(1) << (8 * width)) - 1) : v;
    return ar_decode_int(p, wire) == low;
}

/* ar_emit_int for every spelling: big-endian, any width, a buffer that must grow, a value other
 * than the expected one. */
static __attribute__((noinline)) void emit_int_any(rb_buf *b, uint64_t v, unsigned wire)
{
    unsigned width = wire & RB_W_WIDTH;
    if (!(wire & RB_W_BE) && !b->failed && b->data && b->cap - b->size >= width) {
        for (unsigned i = 0; i < width; i++) b->data[b->size + i] = (uint8_t)(v >> (8 * i));
        b->size += width;
        return;
    }
    /* expect mode (a checked unit, an unchanged stream): compared instead of stored */
    if (b->expected && !b->failed && width <= b->expected_size - b->size && int_is(b->expected + b->size, v, wire)) {
        b->size += width;
        return;
    }
    if (wire & RB_W_BE) rb_buf_put_be(b, v, width);
    else rb_buf_put_le(b, v, width);
}

/* The common spelling, a little-endian u32, without a loop or a call: it runs once per scalar
 * written, and in a checked read once per scalar written back and compared. */
void ar_emit_int(rb_ar *ar, uint64_t v, unsigned wire)
{
    rb_buf *b = ar_out(ar);
    if ((wire & (RB_W_BE | RB_W_WIDTH)) == 4 && !b->failed) {
        uint32_t x = (uint32_t)v;
        if (b->expected) { /* expect mode keeps no bytes of its own (core/buf.c) */
            if (4 <= b->expected_size - b->size && (uint32_t)ar_decode_int(b->expected + b->size, 4) == x) {
                b->size += 4;
                return;
            }
        } else if (b->data && b->cap - b->size >= 4) {
            uint8_t *p = b->data + b->size;
            p[0] = (uint8_t)x, p[1] = (uint8_t)(x >> 8), p[2] = (uint8_t)(x >> 16), p[3] = (uint8_t)(x >> 24);
            b->size += 4;
            return;
        }
    }
    emit_int_any(b, v, wire);
}

int rb_ar_peek_u32(rb_ar *ar, uint32_t *value) { return rb_ar_peek_u32_at(ar, 0, value); }

int rb_ar_peek_u32_at(rb_ar *ar, uint64_t offset, uint32_t *value)
{
    if (ar->failed || ar->dir != RB_AR_READ) return 0;
    return ar->enc->peek_u32(ar, offset, value);
}

/* Binary: formats scan with this (a u32 at a time), so it does its checks in place. */
static int peek_binary_u32(rb_ar *ar, uint64_t offset, uint32_t *value)
{
    const ar_range *r = ar_top_range(ar);
    size_t left = r->size - r->pos;
    if (left < 4 || offset > left - 4) return 0;
    *value = (uint32_t)ar_decode_int(r->base + r->pos + offset, RB_U32);
    return 1;
}

/* ---------- text lines (text GBX: every primitive is one CR LF line, see archive_text.h) ---------- */

void rb_ar_set_text(rb_ar *ar, int text)
{
    if (ar->dir != RB_AR_FROM_JSON) ar_set_encoding(ar, text);
}

int rb_ar_is_text(const rb_ar *ar) { return ar->text; }

/* WRITE: ends the byte line rb_ar_emit was filling, so what follows starts a line of its own. */
void ar_close_raw_line(rb_ar *ar)
{
    if (!ar->raw_open) return;
    ar->raw_open = 0;
    rb_buf_put(ar_out(ar), "\r\n", 2);
}

void ar_put_line(rb_ar *ar, const void *text, size_t n)
{
    ar_close_raw_line(ar);
    rb_buf_put(ar_out(ar), text, n);
    rb_buf_put(ar_out(ar), "\r\n", 2);
}

static const uint8_t *find_crlf(const uint8_t *p, const uint8_t *end)
{
    while (p < end) {
        const uint8_t *cr = memchr(p, '\r', (size_t)(end - p));
        if (!cr || cr + 1 >= end) return NULL;
        if (cr[1] == '\n') return cr;
        p = cr + 1;
    }
    return NULL;
}

/* READ: the next line of the current range, without its CR LF. */
const uint8_t *ar_next_line(rb_ar *ar, const char *leaf, size_t *len)
{
    if (ar->raw_left) {
        ar_fail_at(ar, RB_E_FORMAT, leaf, "%zu bytes of the byte line before were not used", ar->raw_left);
        return NULL;
    }
    ar_range *r = ar_top_range(ar);
    const uint8_t *start = r->base + r->pos, *crlf = find_crlf(start, r->base + r->size);
    if (!crlf) {
        ar_fail_at(ar, RB_E_FORMAT, leaf, "expected a line ended by CR LF, %zu bytes left in %s", r->size - r->pos,
                r->what);
        return NULL;
    }
    *len = (size_t)(crlf - start);
    r->pos += *len + 2;
    return start;
}

/* READ: a line that does not spell what was expected: back to its start, so the error points at it. */
static void line_fail(rb_ar *ar, const char *leaf, const uint8_t *line, size_t len, const char *expected)
{
    ar_top_range(ar)->pos -= len + 2;
    int shown = len > 40 ? 40 : (int)len;
    ar_fail_at(ar, RB_E_FORMAT, leaf, "line \"%.*s%s\" is not %s", shown, (const char *)line, len > 40 ? "..." : "",
            expected);
}

static const char *uint_spelling(unsigned wire)
{
    if (wire & RB_W_HEX) return "hex digits of this field's width";
    return (wire & RB_W_SIGNED) ? "a signed decimal of this field's width" : "an unsigned decimal of this field's width";
}

/* The text reader takes a value only in the spelling the writer gives it: another spelling of the
 * same value (leading zeros, lower-case hex, "1.0" for 1, 1 for True) would not be written back
 * byte for byte (found by fuzz_reader on text files; docs/formats/gbx_text.md). */
static int spelled_as_writer(rb_ar *ar, const char *leaf, const uint8_t *line, size_t len, const char *spelled,
                             size_t n)
{
    if (n == len && memcmp(line, spelled, n) == 0) return 1;
    char expected[RB_TEXT_NUMBER_MAX + 32];
    snprintf(expected, sizeof expected, "spelled as written (\"%.*s\")", (int)n, spelled);
    line_fail(ar, leaf, line, len, expected);
    return 0;
}

/* `padded`: a size slot's line, zero-padded to its fixed width (rb_ar_slot). */
static int read_uint_line(rb_ar *ar, const char *leaf, unsigned wire, uint64_t *value, int padded)
{
    size_t len;
    const uint8_t *line = ar_next_line(ar, leaf, &len);
    if (!line) return 0;
    if (!rb_text_parse_uint(line, len, wire, value)) {
        line_fail(ar, leaf, line, len, uint_spelling(wire));
        return 0;
    }
    char s[RB_TEXT_NUMBER_MAX];
    size_t n = rb_text_slot_digits(wire);
    if (padded && n < sizeof s) rb_text_spell_padded(s, *value, wire);
    else n = rb_text_spell_uint(s, *value, wire);
    return spelled_as_writer(ar, leaf, line, len, s, n);
}

int ar_read_uint_line(rb_ar *ar, const char *leaf, unsigned wire, uint64_t *value)
{
    return read_uint_line(ar, leaf, wire, value, 0);
}

void ar_write_uint_line(rb_ar *ar, uint64_t value, unsigned wire)
{
    char s[RB_TEXT_NUMBER_MAX];
    ar_put_line(ar, s, rb_text_spell_uint(s, value, wire));
}

/* READ: a "0x" line's bytes, decoded into the arena. */
const uint8_t *ar_read_hex_line(rb_ar *ar, const char *leaf, size_t *size)
{
    size_t len;
    const uint8_t *line = ar_next_line(ar, leaf, &len);
    if (!line) return NULL;
    uint8_t *data = rb_arena_alloc(&ar->doc->arena, len / 2 + 1);
    if (!data) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    if (!rb_text_parse_hex(line, len, data, size)) {
        /* typed parts that do not fit their range fall back to a byte line: say what that suggests */
        line_fail(ar, leaf, line, len, "a byte line (0x and two hex digits per byte; if a typed part ended here, "
                                       "a size before it may not count the text it covers)");
        return NULL;
    }
    for (size_t i = 2; i < len; i++)
        if (line[i] >= 'A' && line[i] <= 'F') { /* the writer's digits are lower-case (spelled_as_writer) */
            line_fail(ar, leaf, line, len, "a byte line as written (lower-case hex digits)");
            return NULL;
        }
    return data;
}

void ar_write_hex_line(rb_ar *ar, const uint8_t *data, size_t size)
{
    ar_close_raw_line(ar);
    rb_buf_put(ar_out(ar), "0x", 2);
    rb_text_hex_digits(ar_out(ar), data, size);
    rb_buf_put(ar_out(ar), "\r\n", 2);
}

/* Whether a quoted line is the writer's spelling of the bytes it gives: quotes the bytes did not
 * need, an escape of a byte that needs none or \xFF for \xff would not be written back as read,
 * so such a line is refused like any line that is not the writer's (found by fuzz_reader). */
static int spelled_as_written(const uint8_t *line, size_t len, const uint8_t *data, size_t size)
{
    rb_buf spelled;
    rb_buf_init(&spelled);
    rb_text_spell_string(&spelled, data, size);
    int same = spelled.size == len && (len == 0 || memcmp(spelled.data, line, len) == 0);
    rb_buf_free(&spelled);
    return same;
}

/* READ: a string line's bytes: the line itself, or a quoted line unescaped into the arena; either
 * spelled exactly as the writer spells those bytes (docs/formats/gbx_text.md "Layout"). */
const uint8_t *ar_read_string_line(rb_ar *ar, const char *leaf, size_t *size)
{
    size_t len;
    const uint8_t *line = ar_next_line(ar, leaf, &len);
    if (!line) return NULL;
    if (rb_text_line_is_bytes(line, len)) {
        line_fail(ar, leaf, line, len, "a string (a string starting with 0x is written quoted)");
        return NULL;
    }
    if (!len || line[0] != '"') {
        if (!rb_text_string_is_plain(line, len)) {
            line_fail(ar, leaf, line, len, "a string as written (one that is not valid UTF-8 or holds a control character is quoted)");
            return NULL;
        }
        *size = len;
        return line;
    }
    uint8_t *data = rb_arena_alloc(&ar->doc->arena, len);
    if (!data) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    if (!rb_text_unquote(line, len, data, size)) {
        line_fail(ar, leaf, line, len, "a quoted string with valid escapes");
        return NULL;
    }
    if (!spelled_as_written(line, len, data, *size)) {
        line_fail(ar, leaf, line, len, "a string as written (quotes only where needed, escapes as docs/formats/gbx_text.md spells them)");
        return NULL;
    }
    return data;
}

void ar_write_string_line(rb_ar *ar, const uint8_t *data, size_t size)
{
    ar_close_raw_line(ar);
    rb_text_spell_string(ar_out(ar), data, size);
    rb_buf_put(ar_out(ar), "\r\n", 2);
}

/* READ: rb_ar_take in text. Bytes come from "0x" lines and are handed out piecewise: a
 * description may take a length byte and then the rest of what its writer emitted at once. */
const uint8_t *ar_take_raw_text(rb_ar *ar, const char *leaf, uint64_t n)
{
    if (n == 0) return (const uint8_t *)"";
    if (!ar->raw_left) {
        size_t size = 0;
        const uint8_t *data = ar_read_hex_line(ar, leaf, &size);
        if (!data) return NULL;
        ar->raw_next = data;
        ar->raw_left = size;
    }
    if (n > ar->raw_left) {
        ar_fail_at(ar, RB_E_FORMAT, leaf, "needs %" PRIu64 " bytes, the byte line has %zu left", n, ar->raw_left);
        return NULL;
    }
    const uint8_t *p = ar->raw_next;
    ar->raw_next += n;
    ar->raw_left -= (size_t)n;
    return p;
}

/* WRITE: rb_ar_emit in text appends to the open byte line (one line until another value). */
void ar_emit_raw_text(rb_ar *ar, const void *bytes, size_t n)
{
    if (!n) return;
    if (!ar->raw_open) rb_buf_put(ar_out(ar), "0x", 2);
    ar->raw_open = 1;
    rb_text_hex_digits(ar_out(ar), bytes, n);
}

/* READ: the line `skip` lines ahead in the current range (NULL when there is none). */
static const uint8_t *line_ahead(const rb_ar *ar, uint64_t skip, size_t *len)
{
    const ar_range *r = &ar->ranges[ar->range_count - 1];
    const uint8_t *p = r->base + r->pos, *end = r->base + r->size;
    for (;;) {
        const uint8_t *crlf = find_crlf(p, end);
        if (!crlf) return NULL;
        if (skip-- == 0) {
            *len = (size_t)(crlf - p);
            return p;
        }
        p = crlf + 2;
    }
}

/* Peeks in text: descriptions peek the u32 a binary file has at a byte offset; a text file has
 * one line per value, so offset 4k is the line k ahead (exact where the values are 4 bytes wide,
 * as chunk ids, counts and markers are). */
static int peek_text_u32(const rb_ar *ar, uint64_t offset, uint32_t *value)
{
    if (ar->raw_left) {
        if (offset != 0 || ar->raw_left < 4) return 0;
        const uint8_t *p = ar->raw_next;
        *value = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        return 1;
    }
    size_t len;
    const uint8_t *line = offset % 4 ? NULL : line_ahead(ar, offset / 4, &len);
    return line && rb_text_peek_u32(line, len, value);
}

/* ---------- the encodings: how a scalar is spelled (ar_encoding) ---------- */

/* Text: how the writer spells one scalar, by kind (archive_text.h). */
static size_t spell_scalar(char *s, rb_kind kind, uint64_t bits, unsigned wire)
{
    unsigned width = wire & RB_W_WIDTH;
    return kind == RB_K_FLOAT  ? rb_text_spell_float(s, bits, width)
           : kind == RB_K_BOOL ? rb_text_spell_bool(s, bits)
                               : rb_text_spell_uint(s, bits, wire);
}

/* Text: one scalar's line, spelled by kind (archive_text.h), and only as the writer spells it. */
static int read_scalar_line(rb_ar *ar, const char *leaf, rb_kind kind, unsigned wire, uint64_t *bits)
{
    size_t len;
    const uint8_t *line = ar_next_line(ar, leaf, &len);
    if (!line) return 0;
    unsigned width = wire & RB_W_WIDTH;
    int ok = kind == RB_K_FLOAT  ? rb_text_parse_float(line, len, width, bits)
             : kind == RB_K_BOOL ? rb_text_parse_bool(line, len, width, bits)
                                 : rb_text_parse_uint(line, len, wire, bits);
    if (!ok) {
        line_fail(ar, leaf, line, len,
                  kind == RB_K_FLOAT ? "a float" : kind == RB_K_BOOL ? "True, False or a decimal" : uint_spelling(wire));
        return 0;
    }
    char s[RB_TEXT_NUMBER_MAX];
    return spelled_as_writer(ar, leaf, line, len, s, spell_scalar(s, kind, *bits, wire));
}

static void write_scalar_line(rb_ar *ar, rb_kind kind, uint64_t bits, unsigned wire)
{
    char s[RB_TEXT_NUMBER_MAX];
    ar_put_line(ar, s, spell_scalar(s, kind, bits, wire));
}

/* Binary: the scalar's wire bytes. */
static int take_binary_scalar(rb_ar *ar, const char *key, rb_kind kind, unsigned wire, uint64_t *bits)
{
    (void)kind;
    const uint8_t *p = ar_take(ar, key, wire & RB_W_WIDTH);
    if (!p) return 0;
    *bits = ar_decode_int(p, wire);
    return 1;
}

static void emit_binary_scalar(rb_ar *ar, rb_kind kind, uint64_t bits, unsigned wire)
{
    (void)kind;
    ar_emit_int(ar, bits, wire);
}

static int peek_text_line_u32(rb_ar *ar, uint64_t offset, uint32_t *value) { return peek_text_u32(ar, offset, value); }

static const ar_encoding BINARY_ENCODING = {take_binary_scalar, emit_binary_scalar, peek_binary_u32};
static const ar_encoding TEXT_ENCODING = {read_scalar_line, write_scalar_line, peek_text_line_u32};

void ar_set_encoding(rb_ar *ar, int text)
{
    ar->text = text != 0;
    ar->enc = ar->text ? &TEXT_ENCODING : &BINARY_ENCODING;
}

/* ---------- fields: find or create the node for the next value ---------- */

int ar_depth_ok(rb_ar *ar)
{
    if (ar->frame_count >= AR_MAX_FRAMES || ar->frame_count > ar->doc->limits.max_depth) {
        rb_ar_fail(ar, RB_E_LIMIT, "nesting deeper than %u levels (limit max_depth)", ar->doc->limits.max_depth);
        return 0;
    }
    return 1;
}

static const char *kind_name(int kind)
{
    static const char *names[] = {"?", "record", "list", "integer", "float", "boolean",
                                  "string", "blob", "opaque bytes", "stream", "id", "table", "record",
                                  "deferred unit"};
    return kind >= 0 && kind <= RB_K_DEFERRED ? names[kind] : "?";
}

/* FROM_JSON: the JSON value for `key` in the current container (or the next array element). */
static json_t *json_member(rb_ar *ar, const char *key)
{
    ar_frame *f = ar_top_frame(ar);
    if (!f->json) return NULL;
    if (json_is_array(f->json)) {
        json_t *v = ar_json_element(ar, f->json, ar_json_index(f), key);
        if (!v && !ar->failed) ar_fail_at(ar, RB_E_MODEL, key, "array has no element %zu", ar_json_index(f));
        return v;
    }
    json_t *v = key ? json_object_get(f->json, key) : NULL;
    if (!v) {
        ar_fail_at(ar, RB_E_MODEL, key, "member \"%s\" is missing", key ? key : "?");
        return NULL;
    }
    f->json_used++;
    return v;
}

/* ar_append_child when the buffer of the depth is not the parent's yet, or is full: takes over
 * the children the parent already has, grows the buffer. */
int ar_append_child_slow(rb_ar *ar, rb_node *parent, rb_node *child)
{
    size_t depth = ar->frame_count - 1;
    if (ar->kids_owner[depth] != parent || parent->v.kids.items != ar->kids[depth]) {
        rb_node **old = parent->v.kids.items;
        parent->v.kids.items = NULL; /* grows the buffer below without copying from itself */
        parent->v.kids.cap = 0;
        if (parent->v.kids.count > ar->kids_cap[depth]) {
            free(ar->kids[depth]);
            ar->kids[depth] = malloc(parent->v.kids.count * sizeof(*old));
            ar->kids_cap[depth] = ar->kids[depth] ? parent->v.kids.count : 0;
            if (!ar->kids[depth]) return 0;
        }
        if (parent->v.kids.count) memmove(ar->kids[depth], old, parent->v.kids.count * sizeof(*old));
        ar->kids_owner[depth] = parent;
        parent->v.kids.items = ar->kids[depth];
        parent->v.kids.cap = ar->kids_cap[depth];
    }
    if (parent->v.kids.count == ar->kids_cap[depth]) {
        size_t cap = ar->kids_cap[depth] ? ar->kids_cap[depth] * 2 : 64;
        rb_node **items = realloc(ar->kids[depth], cap * sizeof(*items));
        if (!items) return 0;
        ar->kids[depth] = parent->v.kids.items = items;
        ar->kids_cap[depth] = parent->v.kids.cap = cap;
    }
    parent->v.kids.items[parent->v.kids.count++] = child;
    return 1;
}

/* A closing container's children move from the depth's buffer to the arena. */
static void settle_children(rb_ar *ar, rb_node *n)
{
    size_t depth = ar->frame_count - 1;
    if (ar->kids_owner[depth] != n || n->v.kids.items != ar->kids[depth]) return;
    ar->kids_owner[depth] = NULL;
    rb_node **items = NULL;
    if (n->v.kids.count) {
        items = rb_arena_dup(&ar->doc->arena, n->v.kids.items, n->v.kids.count * sizeof(*items));
        if (!items) {
            n->v.kids.count = 0; /* the document is dropped on this error: leave nothing dangling */
            rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        }
    }
    n->v.kids.items = items;
    n->v.kids.cap = n->v.kids.count;
}

/* The node for the next field. READ/FROM_JSON create and append it; WRITE takes the next child
 * and checks it is the field the description expects. */

/* WRITE: the derived value of field `key` when the model does not hold the field itself. */
static rb_node *derived_field(rb_ar *ar, ar_frame *f, const char *key, rb_kind kind)
{
    const char *derived_key = ar->derived_key;
    if (!derived_key) return NULL;
    ar->derived_key = NULL;
    const rb_node *next = f->next < f->node->v.kids.count ? f->node->v.kids.items[f->next] : NULL;
    if (!key || strcmp(key, derived_key) != 0 || (next && next->key && strcmp(next->key, key) == 0)) return NULL;
    if (ar->derived_value.kind != kind) return NULL;
    return &ar->derived_value;
}

void rb_ar_derived(rb_ar *ar, const char *key, const rb_node *value)
{
    if (ar->dir != RB_AR_WRITE || !value) return;
    ar->derived_key = key;
    ar->derived_value = *value;
}

/* WRITE: the model's next child, which must be the field the description names. */
static __attribute__((noinline)) rb_node *field_written(rb_ar *ar, const char *key, rb_kind kind)
{
    ar_frame *f = ar_top_frame(ar);
    f->current = f->next;
    rb_node *derived = derived_field(ar, f, key, kind);
    if (derived) return derived;
    if (f->next >= f->node->v.kids.count) {
        ar_fail_at(ar, RB_E_MODEL, key, "model has no value for this field");
        return NULL;
    }
    rb_node *n = f->node->v.kids.items[f->next++];
    /* a description that spells out a record or a list the model keeps packed (a text
     * encoding): it gets the nodes, made in the write's own memory, the model only read */
    int spelled = (n->kind == RB_K_PACKED && kind == RB_K_RECORD) || (n->kind == RB_K_TABLE && kind == RB_K_LIST);
    if (spelled && !(n = rb_table_nodes(n, rb_ar_scratch_arena(ar)))) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    /* the description passes the same literal that named the node: compare pointers first */
    int key_ok = key == n->key || (key && n->key && strcmp(key, n->key) == 0);
    if (!key_ok || n->kind != kind) {
        ar_fail_at(ar, RB_E_MODEL, key, "model has %s \"%s\" where %s was expected", kind_name(n->kind),
                n->key ? n->key : "", kind_name(kind));
        return NULL;
    }
    return n;
}

/* READ, FROM_JSON: a new node for the field, appended to the open container. */
static __attribute__((noinline)) rb_node *field_made(rb_ar *ar, const char *key, rb_kind kind, unsigned wire,
                                                     json_t **json)
{
    ar_frame *f = ar_top_frame(ar);
    f->current = f->node->v.kids.count;
    if (ar->dir == RB_AR_FROM_JSON) {
        *json = json_member(ar, key);
        if (!*json) return NULL;
    }
    rb_node *n = rb_node_new(&ar->doc->arena, kind, key);
    if (!n || !ar_append_child(ar, f->node, n)) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    f->next = f->node->v.kids.count;
    n->wire = (uint8_t)wire;
    if (ar->dir == RB_AR_READ) {
        const ar_range *r = ar_top_range(ar);
        n->section = r->section;
        n->src_offset = ar_clamp32(r->section_base + r->pos);
    }
    return n;
}

/* Each direction in a function of its own, so that neither pays for the other's registers and
 * branches (every field of a checked read passes here twice: read, then written back). */
rb_node *ar_field(rb_ar *ar, const char *key, rb_kind kind, unsigned wire, json_t **json)
{
    if (ar->failed) return NULL;
    return ar->dir == RB_AR_WRITE ? field_written(ar, key, kind) : field_made(ar, key, kind, wire, json);
}

void rb_ar_set_symbol_resolver(rb_ar *ar, rb_ar_symbol_resolver resolver, void *context)
{
    ar->symbol_resolver = resolver;
    ar->symbol_context = context;
}

const json_t *rb_ar_json_member(rb_ar *ar, const char *key)
{
    if (ar->dir != RB_AR_FROM_JSON) return NULL;
    const json_t *j = ar_top_frame(ar)->json;
    json_t *member = json_is_object(j) ? json_object_get(j, key) : NULL;
    char why[256];
    /* the description indexes what it is given: a list read piecewise is decoded whole first */
    if (member && ar->json_loader && !rb_json_loader_fill(ar->json_loader, member, why, sizeof why)) {
        ar_fail_at(ar, RB_E_USAGE, key, "%s", why);
        return NULL;
    }
    return member;
}

void rb_ar_set_json_loader(rb_ar *ar, struct rb_json_loader *loader) { ar->json_loader = loader; }

json_t *ar_json_element(rb_ar *ar, json_t *array, size_t index, const char *key)
{
    if (!ar->json_loader) return json_array_get(array, index);
    char why[256];
    json_t *v = rb_json_loader_element(ar->json_loader, array, index, why, sizeof why);
    if (!v && why[0]) ar_fail_at(ar, RB_E_USAGE, key, "%s", why);
    return v;
}

void ar_note_size(rb_ar *ar, rb_node *n)
{
    if (ar->dir == RB_AR_READ) n->src_size = ar_clamp32(ar_top_range(ar)->section_base + ar_top_range(ar)->pos - n->src_offset);
}

/* ---------- derived values ---------- */

/* READ: where the input file stores a derived value (a size, a count): the places a mutation
 * test flips, since they are not model fields. */
static void note_derived_field(rb_ar *ar)
{
    const ar_range *r = ar_top_range(ar);
    if (r->section == 0) rb_doc_add_derived_offset(ar->doc, r->section_base + r->pos);
}

rb_slot rb_ar_slot(rb_ar *ar, const char *what, unsigned wire)
{
    rb_slot s = {.wire = (uint8_t)wire};
    if (ar->failed) return s;
    if (ar->dir == RB_AR_READ && ar->text) {
        s.valid = read_uint_line(ar, what, wire, &s.value, 1);
    } else if (ar->dir == RB_AR_READ) {
        note_derived_field(ar);
        const uint8_t *p = ar_take(ar, what, wire & RB_W_WIDTH);
        if (!p) return s;
        s.value = ar_decode_int(p, wire);
        s.valid = 1;
    } else if (ar->dir == RB_AR_WRITE && ar->text) {
        /* a fixed-width line (zero-padded), so the value patched in later fits in place */
        char zeros[32];
        ar_close_raw_line(ar);
        s.position = ar_out(ar)->size;
        rb_text_spell_padded(zeros, 0, wire);
        ar_put_line(ar, zeros, rb_text_slot_digits(wire));
        s.valid = 1;
    } else if (ar->dir == RB_AR_WRITE) {
        s.position = ar_out(ar)->size;
        rb_buf_put_placeholder(ar_out(ar), wire & RB_W_WIDTH);
        s.valid = 1;
    }
    return s;
}

void rb_ar_slot_set(rb_ar *ar, rb_slot *slot, uint64_t value)
{
    if (ar->failed || ar->dir != RB_AR_WRITE || !slot->valid) return;
    unsigned width = slot->wire & RB_W_WIDTH;
    if (width < 8 && value >> (8 * width)) {
        rb_ar_fail(ar, RB_E_MODEL, "derived value %" PRIu64 " does not fit %u bytes", value, width);
        return;
    }
    rb_buf *b = ar_out(ar);
    if (ar->text) {
        if (!b->failed && b->data) rb_text_spell_padded((char *)b->data + slot->position, value, slot->wire);
    } else if (slot->wire & RB_W_BE) {
        rb_buf_patch_be(b, slot->position, value, width);
    } else {
        rb_buf_patch_le(b, slot->position, value, width);
    }
    slot->value = value;
}

/* ---------- structure ---------- */

void ar_push_frame(rb_ar *ar, rb_node *node, json_t *json)
{
    ar_frame *f = &ar->frames[ar->frame_count++];
    memset(f, 0, sizeof(*f));
    f->node = node;
    f->json = json;
    reach_kids_depth(ar);
}

static void begin_container(rb_ar *ar, const char *key, rb_kind kind)
{
    if (ar->failed || !ar_depth_ok(ar)) return;
    json_t *jv = NULL;
    rb_node *n = ar_field(ar, key, kind, 0, &jv);
    if (!n) return;
    if (ar->dir == RB_AR_FROM_JSON) {
        int want_object = kind != RB_K_LIST;
        if (want_object ? !json_is_object(jv) : !json_is_array(jv)) {
            ar_fail_at(ar, RB_E_MODEL, key, "must be a JSON %s", want_object ? "object" : "array");
            return;
        }
    }
    ar_push_frame(ar, n, jv);
}

static void check_json_members_used(rb_ar *ar, ar_frame *f)
{
    if (ar->dir != RB_AR_FROM_JSON || !json_is_object(f->json)) return;
    const char *k;
    json_t *v;
    json_object_foreach(f->json, k, v) {
        (void)v;
        if (k[0] == '$') continue; /* annotations ($stream, comments) are not fields */
        if (!rb_node_get(f->node, k)) {
            rb_ar_fail(ar, RB_E_MODEL, "member \"%s\" is not part of this structure (for the version given)", k);
            return;
        }
    }
}

void ar_end_container(rb_ar *ar)
{
    if (ar->failed) return;
    ar_frame *f = ar_top_frame(ar);
    if (ar->dir == RB_AR_WRITE && f->next != f->node->v.kids.count) {
        rb_node *extra = f->node->v.kids.items[f->next];
        ar_fail_at(ar, RB_E_MODEL, extra->key, "model has a value the structure does not describe here");
        return;
    }
    if (ar->dir == RB_AR_FROM_JSON && json_is_array(f->json) && json_array_size(f->json) != ar_json_index(f)) {
        rb_ar_fail(ar, RB_E_MODEL, "array has %zu elements, the structure used %zu", json_array_size(f->json),
                   ar_json_index(f));
        return;
    }
    check_json_members_used(ar, f);
    if (ar->failed) return;
    if (ar->dir == RB_AR_READ && f->node->kind != RB_K_STREAM) {
        /* containers cover the bytes of their children */
        rb_node *n = f->node;
        if (n->v.kids.count) {
            rb_node *first = n->v.kids.items[0];
            n->section = first->section;
            n->src_offset = first->src_offset;
            n->src_size = ar_clamp32(ar_top_range(ar)->section_base + ar_top_range(ar)->pos - first->src_offset);
            if (ar_top_range(ar)->section != first->section) n->src_size = 0;
        }
    }
    if (ar->dir != RB_AR_WRITE) settle_children(ar, f->node);
    if (ar->failed) return;
    ar->frame_count--;
}

void rb_ar_record_begin(rb_ar *ar, const char *key) { begin_container(ar, key, RB_K_RECORD); }
void rb_ar_record_end(rb_ar *ar) { ar_end_container(ar); }

/* READ: can `count` elements of at least `min_item_bytes` each be real, with `reserved` bytes
 * (the count field itself) still ahead of them? Fails at the current offset if not. */
int ar_count_is_plausible(rb_ar *ar, const char *key, uint64_t count, uint64_t min_item_bytes, uint64_t reserved)
{
    /* "cannot fit" first: a count misread from damaged or misparsed bytes is a format error
     * (which a typed-or-opaque fallback may absorb), not a limit the user should raise */
    uint64_t left = rb_ar_remaining(ar) - reserved;
    /* text: an element of at least one byte takes at least one line, two characters or more;
     * its binary size says nothing (a u32 "0" is 3 characters) */
    if (ar->text && min_item_bytes) min_item_bytes = 2;
    if (min_item_bytes && count > left / min_item_bytes) {
        ar_fail_at(ar, RB_E_FORMAT, key, "count %" PRIu64 " cannot fit in the %" PRIu64 " bytes left", count, left);
        return 0;
    }
    if (count > ar->doc->limits.max_count) {
        ar_fail_at(ar, RB_E_LIMIT, key, "count %" PRIu64 " exceeds the limit max_count (%" PRIu64 "); raise it (REBYTE_LIMITS=max_count=N, or rb_limits) to read this file",
                count, ar->doc->limits.max_count);
        return 0;
    }
    return 1;
}

uint64_t ar_list_begin(rb_ar *ar, const char *key, uint64_t read_count, uint64_t min_item_bytes)
{
    if (ar->failed) return 0;
    if (ar->dir == RB_AR_READ && !ar_count_is_plausible(ar, key, read_count, min_item_bytes, 0)) return 0;
    begin_container(ar, key, RB_K_LIST);
    if (ar->failed) return 0;
    ar_frame *f = ar_top_frame(ar);
    if (ar->dir == RB_AR_READ) return read_count;
    if (ar->dir == RB_AR_WRITE) return f->node->v.kids.count;
    return json_array_size(f->json);
}

/* READ, binary: a list's stored count, checked against the bytes left before it is consumed (so
 * the error points at the count). */
uint64_t ar_read_binary_count(rb_ar *ar, const char *key, unsigned count_wire, uint64_t min_item_bytes)
{
    unsigned width = count_wire & RB_W_WIDTH;
    if (rb_ar_remaining(ar) < width) {
        ar_take(ar, key, width); /* reports the truncation */
        return 0;
    }
    const ar_range *r = ar_top_range(ar);
    rb_node probe = {.wire = (uint8_t)count_wire};
    probe.v.bits = ar_decode_int(r->base + r->pos, count_wire);
    if (rb_node_int(&probe) < 0 && (count_wire & RB_W_SIGNED)) {
        ar_fail_at(ar, RB_E_FORMAT, key, "negative count %" PRId64, rb_node_int(&probe));
        return 0;
    }
    note_derived_field(ar);
    if (!ar_count_is_plausible(ar, key, probe.v.bits, min_item_bytes, width)) return 0;
    ar_take(ar, key, width);
    return probe.v.bits;
}

uint64_t rb_ar_list_begin(rb_ar *ar, const char *key, unsigned count_wire, uint64_t min_item_bytes)
{
    if (ar->failed) return 0;
    if (ar->dir == RB_AR_READ && ar->text) {
        uint64_t count = 0;
        if (!ar_read_uint_line(ar, key, count_wire, &count)) return 0;
        rb_node probe = {.wire = (uint8_t)count_wire};
        probe.v.bits = count;
        if (rb_node_int(&probe) < 0 && (count_wire & RB_W_SIGNED)) {
            ar_fail_at(ar, RB_E_FORMAT, key, "negative count %" PRId64, rb_node_int(&probe));
            return 0;
        }
        return ar_list_begin(ar, key, count, min_item_bytes);
    }
    if (ar->dir == RB_AR_READ) {
        uint64_t count = ar_read_binary_count(ar, key, count_wire, min_item_bytes);
        return ar->failed ? 0 : ar_list_begin(ar, key, count, min_item_bytes);
    }
    if (ar->dir == RB_AR_WRITE) {
        /* the count is derived: emit it from the model before the elements */
        ar_frame *f = ar_top_frame(ar);
        if (f->next < f->node->v.kids.count) {
            rb_node *n = f->node->v.kids.items[f->next];
            int list = n->kind == RB_K_LIST || n->kind == RB_K_TABLE; /* a table: spelled out (ar_field) */
            if (list && ar->text) ar_write_uint_line(ar, rb_element_count(n), count_wire);
            else if (list) ar_emit_int(ar, rb_element_count(n), count_wire);
        }
    }
    return ar_list_begin(ar, key, 0, min_item_bytes);
}

uint64_t rb_ar_list_begin_n(rb_ar *ar, const char *key, uint64_t count, uint64_t min_item_bytes)
{
    return ar_list_begin(ar, key, count, min_item_bytes);
}

void rb_ar_list_begin_open(rb_ar *ar, const char *key)
{
    ar_list_begin(ar, key, 0, 0);
    if (!ar->failed) ar_top_frame(ar)->open_list = 1;
}

int rb_ar_list_has_more(rb_ar *ar)
{
    if (ar->failed) return 0;
    ar_frame *f = ar_top_frame(ar);
    if (ar->dir == RB_AR_READ) return 1;
    if (ar->dir == RB_AR_WRITE) return f->next < f->node->v.kids.count;
    return ar_json_index(f) < json_array_size(f->json);
}

uint64_t rb_ar_list_length(const rb_ar *ar)
{
    const ar_frame *f = &ar->frames[ar->frame_count - 1];
    if (ar->dir == RB_AR_FROM_JSON) return json_array_size(f->json);
    return f->node->v.kids.count;
}

void rb_ar_list_end(rb_ar *ar) { ar_end_container(ar); }

int rb_ar_list_next(rb_ar *ar, uint64_t *index, uint64_t count, int records)
{
    if (*index == UINT64_MAX) {
        *index = 0;
    } else {
        if (records) rb_ar_record_end(ar);
        ++*index;
    }
    if (*index < count && !ar->failed) {
        if (records) rb_ar_record_begin(ar, NULL);
        return 1;
    }
    rb_ar_list_end(ar);
    return 0;
}

int rb_ar_empty_list(rb_ar *ar, const char *key, unsigned count_wire, const char *what)
{
    if (ar->failed) return 0;
    uint32_t stored = 0;
    /* before the count is taken as one: a stored count is not checked against the bytes left */
    if (ar->dir == RB_AR_READ && (count_wire & RB_W_WIDTH) == 4 && rb_ar_peek_u32(ar, &stored) && stored != 0) {
        ar_fail_at(ar, RB_E_UNSUPPORTED, key, "%s (%" PRId32 ") have no known layout", what, (int32_t)stored);
        return 0;
    }
    uint64_t n = rb_ar_list_begin(ar, key, count_wire, 1);
    if (n != 0 && !ar->failed) {
        ar_fail_at(ar, RB_E_UNSUPPORTED, key, "%s have no known layout: only an empty list is written", what);
        return 0;
    }
    rb_ar_list_end(ar);
    return !ar->failed;
}

