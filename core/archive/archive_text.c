/*
 * Spellings of the text encoding (see archive_text.h). Parsers are strict: a line is read back
 * only in the spelling the writer makes (plus leading zeros and either hex case), so a line of
 * one kind is not silently taken for another when a description tries a layout (a "0x" byte
 * line is never a number, a string or a float). The archive then takes a value only in the
 * writer's own spelling (core/archive/archive.c spelled_as_writer), so a file reads back byte for byte.
 */
#include "core/archive/archive_text.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/json/json.h"
#include "core/model/model.h"

static int hex_value(uint8_t c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static uint64_t width_mask(unsigned width) { return width >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * width)) - 1; }

/* ---------- integers ---------- */

static int is_plain_char(uint64_t c) { return c >= 0x21 && c < 0x7f && !(c >= '0' && c <= '9') && c != '-'; }

size_t rb_text_spell_uint(char *out, uint64_t bits, unsigned wire)
{
    unsigned width = wire & RB_W_WIDTH;
    bits &= width_mask(width);
    if (wire & RB_W_HEX) return (size_t)snprintf(out, RB_TEXT_NUMBER_MAX, "%0*" PRIX64, (int)width * 2, bits);
    if ((wire & RB_W_CHAR) && width == 1 && is_plain_char(bits)) {
        out[0] = (char)bits;
        out[1] = 0;
        return 1;
    }
    if ((wire & RB_W_SIGNED) && width < 8 && (bits >> (8 * width - 1)) & 1) bits |= ~width_mask(width);
    if (wire & RB_W_SIGNED) return (size_t)snprintf(out, RB_TEXT_NUMBER_MAX, "%" PRId64, (int64_t)bits);
    return (size_t)snprintf(out, RB_TEXT_NUMBER_MAX, "%" PRIu64, bits);
}

static int parse_digits(const uint8_t *s, size_t len, uint64_t *value)
{
    uint64_t v = 0;
    if (len == 0) return 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return 0;
        v = v * 10 + d;
    }
    *value = v;
    return 1;
}

static int parse_hex_digits(const uint8_t *s, size_t len, uint64_t *value)
{
    uint64_t v = 0;
    if (len == 0 || len > 16) return 0;
    for (size_t i = 0; i < len; i++) {
        int d = hex_value(s[i]);
        if (d < 0) return 0;
        v = v << 4 | (uint64_t)d;
    }
    *value = v;
    return 1;
}

int rb_text_parse_uint(const uint8_t *line, size_t len, unsigned wire, uint64_t *bits)
{
    unsigned width = wire & RB_W_WIDTH;
    uint64_t mask = width_mask(width), v;
    if (wire & RB_W_HEX) return len == 2 * width && parse_hex_digits(line, len, bits);
    if ((wire & RB_W_CHAR) && width == 1 && len == 1 && is_plain_char(line[0])) {
        *bits = line[0];
        return 1;
    }
    if (!(wire & RB_W_SIGNED)) {
        if (!parse_digits(line, len, &v) || v > mask) return 0;
        *bits = v;
        return 1;
    }
    int negative = len > 0 && line[0] == '-';
    if (!parse_digits(line + negative, len - (size_t)negative, &v)) return 0;
    uint64_t limit = (mask >> 1) + (uint64_t)negative; /* |INT_MIN| = INT_MAX + 1 */
    if (v > limit) return 0;
    *bits = (negative ? (uint64_t)0 - v : v) & mask;
    return 1;
}

size_t rb_text_slot_digits(unsigned wire)
{
    unsigned width = wire & RB_W_WIDTH;
    if (wire & RB_W_HEX) return 2 * width;
    return width == 1 ? 3 : width == 2 ? 5 : width == 4 ? 10 : 20;
}

void rb_text_spell_padded(char *out, uint64_t value, unsigned wire)
{
    size_t digits = rb_text_slot_digits(wire);
    char tmp[32];
    if (wire & RB_W_HEX) snprintf(tmp, sizeof tmp, "%0*" PRIX64, (int)digits, value);
    else snprintf(tmp, sizeof tmp, "%0*" PRIu64, (int)digits, value);
    memcpy(out, tmp, digits);
}

/* ---------- booleans and floats ---------- */

size_t rb_text_spell_bool(char *out, uint64_t raw)
{
    if (raw <= 1) return (size_t)snprintf(out, RB_TEXT_NUMBER_MAX, "%s", raw ? "True" : "False");
    return (size_t)snprintf(out, RB_TEXT_NUMBER_MAX, "%" PRIu64, raw);
}

static int line_is(const uint8_t *line, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(line, word, len) == 0;
}

int rb_text_parse_bool(const uint8_t *line, size_t len, unsigned width, uint64_t *raw)
{
    if (line_is(line, len, "True")) { *raw = 1; return 1; }
    if (line_is(line, len, "False")) { *raw = 0; return 1; }
    return rb_text_parse_uint(line, len, width, raw);
}

size_t rb_text_spell_float(char *out, uint64_t bits, unsigned width)
{
    if (width == 4) rb_format_f32((uint32_t)bits, out, RB_TEXT_NUMBER_MAX);
    else rb_format_f64(bits, out, RB_TEXT_NUMBER_MAX);
    return strlen(out);
}

/* A decimal real: digits, sign, point and exponent only (no hex floats, no "inf" words). */
static int is_decimal_real(const char *s)
{
    if (!*s) return 0;
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789+-.eE", *p)) return 0;
    return 1;
}

int rb_text_parse_float(const uint8_t *line, size_t len, unsigned width, uint64_t *bits)
{
    char s[RB_TEXT_NUMBER_MAX];
    if (len == 0 || len >= sizeof s) return 0;
    memcpy(s, line, len);
    s[len] = 0;
    uint64_t raw;
    if (strncmp(s, "NaN:0x", 6) == 0 && parse_hex_digits(line + 6, len - 6, &raw)) {
        if (raw > width_mask(width)) return 0;
        *bits = raw;
        return 1;
    }
    int infinite = strcmp(s, "Infinity") == 0 ? 1 : strcmp(s, "-Infinity") == 0 ? -1 : 0;
    if (strcmp(s, "NaN") == 0) { *bits = width == 4 ? 0x7fc00000u : 0x7ff8000000000000ull; return 1; }
    if (!infinite && !is_decimal_real(s)) return 0;
    char *end = s;
    if (width == 4) {
        float f = infinite ? (float)(infinite * INFINITY) : strtof(s, &end);
        if (*end || (!infinite && isinf(f))) return 0; /* out of range is an error, not infinity */
        uint32_t b;
        memcpy(&b, &f, 4);
        *bits = b;
    } else {
        double d = infinite ? infinite * INFINITY : strtod(s, &end);
        if (*end || (!infinite && isinf(d))) return 0;
        memcpy(bits, &d, 8);
    }
    return 1;
}

/* ---------- strings ---------- */

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is not one. */
static size_t utf8_sequence(const uint8_t *s, size_t left)
{
    uint8_t c = s[0];
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || n > left) return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if (n == 2 && c < 0xC2) return 0;                        /* overlong */
    if (n == 3 && c == 0xE0 && s[1] < 0xA0) return 0;        /* overlong */
    if (n == 3 && c == 0xED && s[1] >= 0xA0) return 0;       /* surrogate */
    if (n == 4 && (c > 0xF4 || (c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))) return 0;
    return n;
}

static int is_control(uint8_t c) { return c < 0x20 || c == 0x7f; }

int rb_text_line_is_bytes(const uint8_t *line, size_t len) { return len >= 2 && line[0] == '0' && line[1] == 'x'; }

int rb_text_string_is_plain(const uint8_t *data, size_t size)
{
    if (size && data[0] == '"') return 0;
    if (rb_text_line_is_bytes(data, size)) return 0;
    for (size_t i = 0; i < size;) {
        if (is_control(data[i]) && data[i] != '\t') return 0;
        size_t n = utf8_sequence(data + i, size - i);
        if (!n) return 0;
        i += n;
    }
    return 1;
}

void rb_text_spell_string(rb_buf *out, const uint8_t *data, size_t size)
{
    if (rb_text_string_is_plain(data, size)) {
        rb_buf_put(out, data, size);
        return;
    }
    rb_buf_put_u8(out, '"');
    for (size_t i = 0; i < size;) {
        uint8_t c = data[i];
        size_t n = utf8_sequence(data + i, size - i);
        const char *esc = c == '\\' ? "\\\\" : c == '"' ? "\\\"" : c == '\r' ? "\\r" : c == '\n' ? "\\n" : c == '\t' ? "\\t" : NULL;
        if (esc) {
            rb_buf_put(out, esc, 2);
            i++;
        } else if (n == 0 || is_control(c)) {
            char hex[5];
            snprintf(hex, sizeof hex, "\\x%02x", c);
            rb_buf_put(out, hex, 4);
            i++;
        } else {
            rb_buf_put(out, data + i, n);
            i += n;
        }
    }
    rb_buf_put_u8(out, '"');
}

int rb_text_unquote(const uint8_t *line, size_t len, uint8_t *out, size_t *size)
{
    if (len < 2 || line[0] != '"' || line[len - 1] != '"') return 0;
    size_t o = 0;
    for (size_t i = 1; i + 1 < len; i++) {
        uint8_t c = line[i];
        if (c == '"') return 0;
        if (c != '\\') { out[o++] = c; continue; }
        if (++i + 1 >= len) return 0;
        switch (line[i]) {
        case '\\': out[o++] = '\\'; break;
        case '"': out[o++] = '"'; break;
        case 'r': out[o++] = '\r'; break;
        case 'n': out[o++] = '\n'; break;
        case 't': out[o++] = '\t'; break;
        case 'x': {
            if (i + 3 >= len) return 0;
            int hi = hex_value(line[i + 1]), lo = hex_value(line[i + 2]);
            if (hi < 0 || lo < 0) return 0;
            out[o++] = (uint8_t)(hi << 4 | lo);
            i += 2;
            break;
        }
        default: return 0;
        }
    }
    *size = o;
    return 1;
}

/* ---------- bytes ---------- */

void rb_text_hex_digits(rb_buf *out, const uint8_t *data, size_t size)
{
    static const char digits[] = "0123456789abcdef";
    if (size > SIZE_MAX / 2 || !rb_buf_reserve(out, 2 * size)) return;
    uint8_t *p = out->data + out->size;
    for (size_t i = 0; i < size; i++) {
        *p++ = (uint8_t)digits[data[i] >> 4];
        *p++ = (uint8_t)digits[data[i] & 15];
    }
    out->size += 2 * size;
}

int rb_text_parse_hex(const uint8_t *line, size_t len, uint8_t *out, size_t *size)
{
    if (!rb_text_line_is_bytes(line, len) || (len - 2) % 2) return 0;
    size_t n = (len - 2) / 2;
    for (size_t i = 0; i < n; i++) {
        int hi = hex_value(line[2 + 2 * i]), lo = hex_value(line[3 + 2 * i]);
        if (hi < 0 || lo < 0) return 0;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    *size = n;
    return 1;
}

int rb_text_peek_u32(const uint8_t *line, size_t len, uint32_t *value)
{
    uint64_t v;
    if (rb_text_line_is_bytes(line, len)) {
        uint8_t b[4];
        size_t n;
        if (len < 10 || !rb_text_parse_hex(line, 10, b, &n)) return 0;
        *value = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        return 1;
    }
    if (len == 8 && parse_hex_digits(line, len, &v)) { *value = (uint32_t)v; return 1; }
    if (rb_text_parse_uint(line, len, RB_U32, &v) || rb_text_parse_uint(line, len, RB_I32, &v)) {
        *value = (uint32_t)v;
        return 1;
    }
    return 0;
}
