/*
 * A readable listing of a code entry's bytecode (docs/formats/datawin.md "Assets"): one line
 * per instruction, walked by the table of docs/formats/datawin.md "Bytecode instructions",
 * with the names the model links its operands to (stringOperands, variableReferences,
 * functionReferences) written where the bytes hold zeros.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "core/model/doc_state.h"
#include "core/datawin/datawin.h"

static uint32_t word_at(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static void put_text(rb_buf *out, const char *text) { rb_buf_put(out, text, strlen(text)); }

static void put_format(rb_buf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put_format(rb_buf *out, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0) rb_buf_put(out, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* Element of `list` (in address order) whose "at" is `at`, or -1. */
static long element_at(const rb_node *list, uint64_t at)
{
    size_t lo = 0, hi = list ? rb_element_count(list) : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t here = rb_element_uint(list, mid, "at");
        if (here == at) return (long)mid;
        if (here < at) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

/* The bytes of a string field, quoted and escaped, or a placeholder. */
static void put_string(rb_buf *out, const rb_node *s, int quoted)
{
    if (!s || s->kind != RB_K_STRING) {
        put_text(out, "?");
        return;
    }
    if (quoted) put_text(out, "\"");
    const uint8_t *b = s->v.bytes.data;
    size_t n = s->v.bytes.size, i = 0;
    while (i < n && i < 200) {
        unsigned char c = b[i];
        /* a well-formed UTF-8 sequence is copied whole, so the listing stays text */
        size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 1;
        int whole = c >= 0x80 && len > 1 && len <= n - i;
        for (size_t k = 1; whole && k < len; k++) whole = (b[i + k] & 0xC0) == 0x80;
        if (whole) {
            rb_buf_put(out, b + i, len);
            i += len;
            continue;
        }
        if (c == '"' || c == '\\') put_format(out, "\\%c", c);
        else if (c < 0x20 || c >= 0x7F) put_format(out, "\\x%02x", c);
        else rb_buf_put_u8(out, c);
        i++;
    }
    if (i < n) put_text(out, "...");
    if (quoted) put_text(out, "\"");
}

/* The name of variable or function `index` of `list` (VARI's variables, FUNC's functions). */
static void put_entity(rb_buf *out, const rb_node *list, uint64_t index)
{
    const rb_node *e = rb_list_element(list, (size_t)index);
    if (e && e->kind == RB_K_RECORD) put_string(out, rb_node_get(e, "name"), 0);
    else put_format(out, "#%" PRIu64, index);
}

static void put_instance(rb_buf *out, int instance)
{
    switch (instance) {
    case -1: put_text(out, "self."); break;
    case -5: put_text(out, "global."); break;
    case -6: put_text(out, "builtin."); break;
    case -7: put_text(out, "local."); break;
    case -16: put_text(out, "static."); break;
    default: put_format(out, "[%d].", instance);
    }
}

static const char type_letter[16] = {'d', 'f', 'i', 'l', 'b', 'v', 's', '?', '?', '?', '?', '?', '?', '?', '?', 'e'};

static const char *mnemonic(unsigned opcode)
{
    static const char *const arithmetic[] = {"conv", "mul", "div", "rem", "mod", "add", "sub", "and",
                                             "or",   "xor", "neg", "not", "shl", "shr", "cmp"};
    if (opcode >= 0x07 && opcode <= 0x15) return arithmetic[opcode - 0x07];
    switch (opcode) {
    case 0xC0: return "push";
    case 0xC1: return "pushloc";
    case 0xC2: return "pushglb";
    case 0xC3: return "pushbltn";
    case 0x84: return "pushi";
    case 0x45: return "pop";
    case 0xD9: return "call";
    case 0xFF: return "break";
    case 0x86: return "dup";
    case 0x99: return "callv";
    case 0x9C: return "ret";
    case 0x9D: return "exit";
    case 0x9E: return "popz";
    case 0xB6: return "b";
    case 0xB7: return "bt";
    case 0xB8: return "bf";
    case 0xBA: return "pushenv";
    case 0xBB: return "popenv";
    default: return NULL;
    }
}

static int is_push(unsigned opcode) { return (opcode >= 0xC0 && opcode <= 0xC3) || opcode == 0x84; }

/* Operand words after instruction `word`, or -1 (docs/formats/datawin.md "Bytecode instructions"). */
static int operand_words(uint32_t word)
{
    unsigned opcode = word >> 24, type = word >> 16 & 0xF;
    if (is_push(opcode)) return type == 0 || type == 3 ? 2 : type == 15 ? 0 : type <= 6 ? 1 : -1;
    if (opcode == 0x45) return type == 15 ? 0 : 1;
    if (opcode == 0xD9) return 1;
    if (opcode == 0xFF) return type == 2 ? 1 : 0;
    return mnemonic(opcode) ? 0 : -1;
}

int datawin_code_listing(const rb_doc *doc, const rb_node *entry, rb_buf *out)
{
    const rb_node *blob = rb_node_get(entry, "bytecode");
    if (!blob || blob->kind != RB_K_BLOB) return -1;
    const rb_node *strings = rb_node_get(entry, "stringOperands");
    const rb_node *variables = rb_node_get(entry, "variableReferences");
    const rb_node *functions = rb_node_get(entry, "functionReferences");
    const rb_node *vari = NULL, *func = NULL, *chunks = rb_node_get(doc->root, "chunks");
    for (size_t c = 0; chunks && c < rb_element_count(chunks); c++) {
        const rb_node *ch = rb_list_element(chunks, c), *id = ch ? rb_node_get(ch, "id") : NULL;
        if (!id || id->kind != RB_K_STRING || id->v.bytes.size != 4) continue;
        if (!memcmp(id->v.bytes.data, "VARI", 4)) vari = rb_node_get(ch, "variables");
        if (!memcmp(id->v.bytes.data, "FUNC", 4)) func = rb_node_get(ch, "functions");
    }
    put_text(out, "; ");
    put_string(out, rb_node_get(entry, "name"), 0);
    put_format(out, ": %zu bytes of bytecode; offsets in bytes\n", blob->v.bytes.size);
    const uint8_t *p = blob->v.bytes.data;
    size_t size = blob->v.bytes.size & ~(size_t)3;
    for (size_t at = 0; at < size && !out->failed;) {
        uint32_t word = word_at(p + at);
        unsigned opcode = word >> 24, t1 = word >> 16 & 0xF, t2 = word >> 20 & 0xF;
        int extra = operand_words(word);
        if (extra < 0 || size - at < 4 + 4 * (size_t)extra) {
            put_format(out, "%6zu  .word 0x%08x  ; not an instruction: the rest is not listed\n", at, word);
            break;
        }
        const char *name = mnemonic(opcode);
        put_format(out, "%6zu  %s", at, name);
        if (is_push(opcode) || opcode == 0x45 || (opcode >= 0x07 && opcode <= 0x15) || opcode == 0x86 ||
            opcode == 0x9C || opcode == 0x9E || opcode == 0xD9 || opcode == 0x99)
            put_format(out, ".%c", type_letter[t1]);
        if (opcode == 0x45 || (opcode >= 0x07 && opcode <= 0x15 && opcode != 0x11 && opcode != 0x12))
            put_format(out, ".%c", type_letter[t2]);
        put_text(out, " ");
        const uint8_t *operand = p + at + 4;
        int16_t low = (int16_t)(word & 0xFFFF);
        long k;
        if ((is_push(opcode) && t1 == 5) || (opcode == 0x45 && extra)) {
            put_instance(out, low);
            k = element_at(variables, at + 4);
            if (k >= 0) put_entity(out, vari, rb_element_uint(variables, (size_t)k, "variable"));
            else put_text(out, "?");
        } else if (is_push(opcode) && t1 == 6) {
            k = element_at(strings, at + 4);
            const rb_node *s = k >= 0 ? rb_list_element(strings, (size_t)k) : NULL;
            put_string(out, s && s->kind == RB_K_RECORD ? rb_node_get(s, "string") : NULL, 1);
        } else if (opcode == 0xD9 || (extra == 1 && (k = element_at(functions, at + 4)) >= 0)) {
            k = element_at(functions, at + 4);
            if (k >= 0) put_entity(out, func, rb_element_uint(functions, (size_t)k, "function"));
            else put_text(out, "?");
            if (opcode == 0xD9) put_format(out, " (%d arguments)", low);
        } else if (extra == 1 && (k = element_at(variables, at + 4)) >= 0) {
            /* an int32 operand that is a variable's occurrence (a reference to it, 2.3+) */
            put_text(out, "variable ");
            put_entity(out, vari, rb_element_uint(variables, (size_t)k, "variable"));
        } else if (is_push(opcode) && t1 == 0) {
            uint64_t bits = word_at(operand) | (uint64_t)word_at(operand + 4) << 32;
            double d;
            memcpy(&d, &bits, 8);
            put_format(out, "%.17g", d);
        } else if (is_push(opcode) && t1 == 3) {
            put_format(out, "%" PRId64, (int64_t)(word_at(operand) | (uint64_t)word_at(operand + 4) << 32));
        } else if (is_push(opcode) && t1 == 1) {
            uint32_t bits = word_at(operand);
            float f;
            memcpy(&f, &bits, 4);
            put_format(out, "%.9g", f);
        } else if (extra == 1) {
            put_format(out, "%" PRId32, (int32_t)word_at(operand));
        } else if (opcode >= 0xB6 && opcode <= 0xB8) {
            /* the low 23 bits: a signed distance in 4-byte words from the branch
             * (docs/formats/datawin.md "Bytecode instructions") */
            int32_t offset = (int32_t)(word << 9) >> 9;
            put_format(out, "%+" PRId32 " (to %lld)", offset, (long long)at + 4ll * offset);
        } else if (is_push(opcode) || opcode == 0x45 || opcode == 0x86 || opcode == 0x99 || opcode == 0xFF ||
                   opcode == 0x15 || opcode == 0xBA || opcode == 0xBB) {
            put_format(out, "%d", low);
        }
        if (!out->failed && out->size && out->data[out->size - 1] == ' ') out->size--; /* no operand */
        put_text(out, "\n");
        at += 4 + 4 * (size_t)extra;
    }
    return out->failed ? -1 : 0;
}
