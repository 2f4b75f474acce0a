/*
 * The assembler: a code listing (docs/formats/datawin.md "Code listings") read back into the
 * model of its root code entry, as the patch operations that make the entry say what the text
 * says: its bytecode (operand words that are derived written as the model keeps them: zero
 * string operands, reference words with only their type bits), its stringOperands,
 * variableReferences and functionReferences at the offsets where the text puts them, the offsets
 * of the child entries that start inside it, and the FUNC functions it calls that FUNC lacks.
 * Everything after an edit therefore moves with it; the writer then derives lengths, the
 * occurrence chains, counts and first addresses as for any model (docs/formats/datawin.md
 * "Occurrence chains"). An unchanged listing gives no operations.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/json/json.h"
#include "core/datawin/datawin.h"
#include "core/datawin/datawin_asm.h"
#include "core/datawin/datawin_internal.h"

enum { VARIABLES, FUNCTIONS, KINDS };
enum { MAX_TOKENS = 8 };

typedef struct token { const char *s; size_t n; } token;
typedef struct operand_reference { uint32_t at, entity; } operand_reference;
typedef struct string_operand { uint32_t at; uint8_t *text; size_t size; int64_t occurrence; } string_operand;
typedef struct label { const char *name; size_t n; uint32_t at; int line; } label;
typedef struct branch { uint32_t at; const char *name; size_t n; int line; } branch;
typedef struct placed_child { size_t entry; uint32_t at; } placed_child;
typedef struct added_function { uint8_t *text; size_t size; } added_function;

typedef struct assembler {
    const rb_doc *doc;
    const rb_node *entries;
    size_t index;
    dw_names names[KINDS];
    dw_pins pins;
    rb_buf code;
    string_operand *strings;
    size_t string_count, string_cap;
    operand_reference *references[KINDS];
    size_t reference_count[KINDS], reference_cap[KINDS];
    label *labels;
    size_t label_count, label_cap;
    branch *branches;
    size_t branch_count, branch_cap;
    placed_child *children;
    size_t child_count, child_cap;
    added_function *added;
    size_t added_count, added_cap;
    int line;
    char *why;
    size_t why_size;
    int failed;
} assembler;

static void fail(assembler *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(assembler *a, const char *fmt, ...)
{
    if (a->failed) return;
    a->failed = 1;
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (a->line) snprintf(a->why, a->why_size, "line %d: %s", a->line, what);
    else snprintf(a->why, a->why_size, "%s", what);
}

/* Room for one more element of `size` bytes in *items (count and cap in elements). */
static int grow(assembler *a, void **items, size_t count, size_t *cap, size_t size)
{
    if (count < *cap) return 1;
    void *grown = datawin_grown(*items, cap, size, 16);
    if (!grown) {
        fail(a, "out of memory");
        return 0;
    }
    *items = grown;
    return 1;
}
#define GROW(a, items, count, cap) grow((a), (void **)&(items), (count), &(cap), sizeof *(items))

static int token_is(token t, const char *word) { return strlen(word) == t.n && memcmp(t.s, word, t.n) == 0; }

static void put_word(assembler *a, uint32_t v) { rb_buf_put_le(&a->code, v, 4); }

/* ---------- lexing ---------- */

/* The end of a double-quoted text starting at s[0] == '"' (the index after the closing quote), or
 * 0 when it does not close on the line. */
static size_t quoted_end(const char *s, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        if (s[i] == '\\') i++;
        else if (s[i] == '"') return i + 1;
    }
    return 0;
}

/* The tokens of a line up to its comment; -1 when a text does not close or there are too many. */
static int tokenize(const char *s, size_t n, token *tokens)
{
    int count = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
        if (i >= n || s[i] == ';') break;
        size_t start = i;
        while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != ';') {
            if (s[i] == '"') {
                size_t end = quoted_end(s + i, n - i);
                if (!end) return -1;
                i += end;
            } else i++;
        }
        if (count == MAX_TOKENS) return -1;
        tokens[count++] = (token){s + start, i - start};
    }
    return count;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The bytes of a quoted text (escapes of docs/formats/datawin.md "Code listings"), malloc'd;
 * `t` starts at its opening quote and `*used` is where it closed. NULL with a failure. */
static uint8_t *unquote(assembler *a, token t, size_t *size, size_t *used)
{
    size_t end = quoted_end(t.s, t.n);
    uint8_t *out = malloc(t.n + 1);
    if (!end || !out) {
        free(out);
        fail(a, end ? "out of memory" : "a text without its closing quote");
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 1; i + 1 < end; i++) {
        char c = t.s[i];
        if (c != '\\') { out[n++] = (uint8_t)c; continue; }
        c = t.s[++i];
        if (c == 'n') out[n++] = '\n';
        else if (c == 'r') out[n++] = '\r';
        else if (c == 't') out[n++] = '\t';
        else if (c == '"' || c == '\\') out[n++] = (uint8_t)c;
        else if (c == 'x' && i + 2 < end && hex_digit(t.s[i + 1]) >= 0 && hex_digit(t.s[i + 2]) >= 0) {
            out[n++] = (uint8_t)(hex_digit(t.s[i + 1]) << 4 | hex_digit(t.s[i + 2]));
            i += 2;
        } else {
            free(out);
            fail(a, "unknown escape \\%c in a text (\\n \\r \\t \\\" \\\\ \\xNN)", c);
            return NULL;
        }
    }
    *size = n;
    *used = end;
    return out;
}

/* A whole token as an integer in [min, max] (decimal, or 0x hex). */
static int number(assembler *a, token t, long long min, long long max, long long *value, const char *what)
{
    char text[64];
    if (t.n == 0 || t.n >= sizeof text) {
        fail(a, "%s: not a number: %.*s", what, (int)(t.n > 60 ? 60 : t.n), t.s);
        return 0;
    }
    memcpy(text, t.s, t.n);
    text[t.n] = 0;
    char *end;
    errno = 0;
    long long v;
    if (min < 0) v = strtoll(text, &end, 0);
    else {
        unsigned long long u = text[0] == '-' ? 0 : strtoull(text, &end, 0);
        if (text[0] == '-' || u > (unsigned long long)max) end = text; /* reported below */
        v = (long long)u;
    }
    if (end == text || *end || errno || v < min || v > max) {
        fail(a, "%s: %s is not a number from %lld to %lld", what, text, min, max);
        return 0;
    }
    *value = v;
    return 1;
}

/* A raw word: "=0xHHHHHHHH" (an operand the model does not link to anything). */
static int raw_word(token t) { return t.n > 3 && t.s[0] == '=' && t.s[1] == '0' && (t.s[2] == 'x' || t.s[2] == 'X'); }

/* ---------- names ---------- */

/* `name[#index]` (bare or quoted) at the start of `t`: the name's bytes (malloc'd) and the
 * index (-1 when not given). */
static uint8_t *name_and_index(assembler *a, token t, size_t *size, long long *index)
{
    size_t used = 0;
    uint8_t *name;
    if (t.n && t.s[0] == '"') name = unquote(a, t, size, &used);
    else {
        while (used < t.n && t.s[used] != '#') used++;
        name = malloc(used + 1);
        if (!name) fail(a, "out of memory");
        else memcpy(name, t.s, used);
        *size = used;
    }
    *index = -1;
    if (!name) return NULL;
    if (used < t.n && (t.s[used] != '#' || !number(a, (token){t.s + used + 1, t.n - used - 1}, 0, 0xFFFFFF, index, "an index"))) {
        if (!a->failed) fail(a, "unexpected %.*s after a name", (int)(t.n - used), t.s + used);
        free(name);
        return NULL;
    }
    if (!*size && *index < 0 && t.s[0] != '"') {
        fail(a, "a name is missing");
        free(name);
        return NULL;
    }
    return name;
}

static const char *kind_word(int kind) { return kind == VARIABLES ? "variable" : "function"; }

/* A function FUNC lacks: appended to FUNC (its index is after FUNC's functions). */
static long added_function_index(assembler *a, uint8_t *name, size_t size)
{
    for (size_t k = 0; k < a->added_count; k++)
        if (a->added[k].size == size && !memcmp(a->added[k].text, name, size)) {
            free(name);
            return (long)(a->names[FUNCTIONS].count + k);
        }
    if (!datawin_doc_chunk(a->doc, "FUNC", NULL) || !GROW(a, a->added, a->added_count, a->added_cap)) {
        if (!a->failed) fail(a, "the file has no FUNC chunk to add function %.*s to", (int)size, (const char *)name);
        free(name);
        return -1;
    }
    a->added[a->added_count] = (added_function){name, size};
    return (long)(a->names[FUNCTIONS].count + a->added_count++);
}

/* The VARI/FUNC entry a name stands for (docs/formats/datawin.md "Code listings"): `#index`
 * when given (its name must agree), else by name and instance. */
static long entity(assembler *a, int kind, token t, int instance)
{
    size_t size;
    long long index;
    uint8_t *name = name_and_index(a, t, &size, &index);
    if (!name) return -1;
    const dw_names *names = &a->names[kind];
    if (index >= 0) {
        const dw_name *n = datawin_names_get(names, (uint64_t)index);
        int agrees = (uint64_t)index < names->count && (!size || (n && n->size == size && !memcmp(n->text, name, size)));
        if (!agrees)
            fail(a, "%s #%lld is not %.*s", kind_word(kind), index, (int)(size > 80 ? 80 : size), (const char *)name);
        else if (datawin_pins_add(&a->pins, kind, (uint32_t)index, instance)) fail(a, "out of memory");
        free(name);
        return agrees && !a->failed ? (long)index : -1;
    }
    long found = datawin_pins_resolve(&a->pins, names, kind, name, size, instance);
    if (found == -1 && kind == FUNCTIONS) return added_function_index(a, name, size);
    if (found == -1) fail(a, "VARI has no variable %.*s (add it to VARI first)", (int)(size > 80 ? 80 : size), (const char *)name);
    if (found == -2)
        fail(a, "%.*s names several %s%s: say which with #index", (int)(size > 80 ? 80 : size), (const char *)name,
             kind == VARIABLES ? "VARI variables" : "FUNC functions", instance == INT32_MIN ? "" : " of that instance");
    free(name);
    return found;
}

static void add_reference(assembler *a, int kind, long entity_index)
{
    if (entity_index < 0 || !GROW(a, a->references[kind], a->reference_count[kind], a->reference_cap[kind])) return;
    a->references[kind][a->reference_count[kind]++] = (operand_reference){(uint32_t)a->code.size, (uint32_t)entity_index};
}

/* "[type]" in front of a reference: its high byte (`plain` when absent); `t` moves past it. */
static unsigned reference_type(assembler *a, token *t, unsigned plain)
{
    if (!t->n || t->s[0] != '[') return plain;
    const char *close = memchr(t->s, ']', t->n);
    if (!close) {
        fail(a, "a reference type without its ]");
        return plain;
    }
    size_t n = (size_t)(close - t->s - 1);
    int high = datawin_reference_type_from_name(t->s + 1, n);
    long long v = high;
    if (high < 0 && !number(a, (token){t->s + 1, n}, 0, 0xFF, &v, "a reference type")) return plain;
    t->n -= n + 2;
    t->s = close + 1;
    return (unsigned)v;
}

/* A variable operand: [type]instance.name[#index], or =0xWORD. Returns the instance for the
 * instruction's low 16 bits (0 for a raw word). */
static uint32_t variable_operand(assembler *a, token t)
{
    if (raw_word(t)) {
        long long v = 0;
        if (number(a, (token){t.s + 1, t.n - 1}, 0, 0xFFFFFFFFll, &v, "an operand word")) put_word(a, (uint32_t)v);
        return 0;
    }
    unsigned high = reference_type(a, &t, 0xA0);
    size_t dot = 0;
    while (dot < t.n && t.s[dot] != '.' && t.s[dot] != '"') dot++;
    if (dot >= t.n || t.s[dot] != '.') {
        fail(a, "a variable is instance.name: %.*s", (int)(t.n > 80 ? 80 : t.n), t.s);
        return 0;
    }
    int instance;
    long long number_instance;
    if (datawin_instance_from_name(t.s, dot, &instance) != 0) {
        if (!number(a, (token){t.s, dot}, -32768, 32767, &number_instance, "an instance")) return 0;
        instance = (int)number_instance;
    }
    add_reference(a, VARIABLES, entity(a, VARIABLES, (token){t.s + dot + 1, t.n - dot - 1}, instance));
    put_word(a, (uint32_t)high << 24);
    return (uint16_t)instance;
}

/* An int32 operand: a number, "function NAME", "variable NAME" or =0xWORD. `t` has 1 or 2 tokens. */
static void int32_operand(assembler *a, const token *t, int count)
{
    if (count == 2 && (token_is(t[0], "function") || token_is(t[0], "variable"))) {
        int kind = token_is(t[0], "function") ? FUNCTIONS : VARIABLES;
        token name = t[1];
        unsigned high = reference_type(a, &name, kind == VARIABLES ? 0xA0 : 0x00);
        add_reference(a, kind, entity(a, kind, name, INT32_MIN));
        put_word(a, (uint32_t)high << 24);
        return;
    }
    long long v = 0;
    if (count != 1) fail(a, "an int32 operand is a number, function NAME or variable NAME");
    else if (raw_word(t[0])) number(a, (token){t[0].s + 1, t[0].n - 1}, 0, 0xFFFFFFFFll, &v, "an operand word");
    else number(a, t[0], INT32_MIN, 0xFFFFFFFFll, &v, "an int32");
    put_word(a, (uint32_t)v);
}

static void string_operand_at(assembler *a, token t)
{
    if (raw_word(t)) {
        long long v = 0;
        if (number(a, (token){t.s + 1, t.n - 1}, 0, 0xFFFFFFFFll, &v, "an operand word")) put_word(a, (uint32_t)v);
        return;
    }
    if (!t.n || t.s[0] != '"') {
        fail(a, "a string operand is a quoted text");
        return;
    }
    size_t size, used;
    uint8_t *text = unquote(a, t, &size, &used);
    long long occurrence = -1;
    if (text && used < t.n && (t.s[used] != '#' || !number(a, (token){t.s + used + 1, t.n - used - 1}, 0, 0xFFFFFFFFll, &occurrence, "an occurrence"))) {
        if (!a->failed) fail(a, "unexpected %.*s after a text", (int)(t.n - used), t.s + used);
    }
    if (a->failed || !GROW(a, a->strings, a->string_count, a->string_cap)) {
        free(text);
        return;
    }
    a->strings[a->string_count++] = (string_operand){(uint32_t)a->code.size, text, size, occurrence};
    put_word(a, 0);
}

/* A double or float: its value, or 0x and its bits. */
static void real_operand(assembler *a, token t, int is_double)
{
    char text[80];
    if (!t.n || t.n >= sizeof text) {
        fail(a, "not a number");
        return;
    }
    memcpy(text, t.s, t.n);
    text[t.n] = 0;
    char *end;
    errno = 0;
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        unsigned long long bits = strtoull(text, &end, 16);
        if (*end || errno || (!is_double && bits > 0xFFFFFFFFull)) fail(a, "%s: not the bits of a %s", text, is_double ? "double" : "float");
        put_word(a, (uint32_t)bits);
        if (is_double) put_word(a, (uint32_t)(bits >> 32));
        return;
    }
    if (is_double) {
        double d = strtod(text, &end);
        uint64_t bits;
        memcpy(&bits, &d, 8);
        put_word(a, (uint32_t)bits);
        put_word(a, (uint32_t)(bits >> 32));
    } else {
        float f = strtof(text, &end);
        uint32_t bits;
        memcpy(&bits, &f, 4);
        put_word(a, bits);
    }
    if (*end) fail(a, "%s is not a number", text);
}

/* A push's operand; returns its instruction word's low 16 bits. */
static uint32_t push_operand(assembler *a, unsigned type, const token *t, int count)
{
    long long v = 0;
    if (type == DW_TYPE_INT32) {
        int32_operand(a, t, count);
        return 0;
    }
    if (count != 1) {
        fail(a, "push takes one operand");
        return 0;
    }
    switch (type) {
    case DW_TYPE_VARIABLE: return variable_operand(a, t[0]);
    case DW_TYPE_STRING: string_operand_at(a, t[0]); return 0;
    case DW_TYPE_BOOL:
        number(a, t[0], INT32_MIN, 0xFFFFFFFFll, &v, "a bool");
        put_word(a, (uint32_t)v);
        return 0;
    case DW_TYPE_INT64:
        number(a, t[0], INT64_MIN, INT64_MAX, &v, "an int64");
        put_word(a, (uint32_t)(uint64_t)v);
        put_word(a, (uint32_t)((uint64_t)v >> 32));
        return 0;
    case DW_TYPE_DOUBLE: real_operand(a, t[0], 1); return 0;
    case DW_TYPE_FLOAT: real_operand(a, t[0], 0); return 0;
    case DW_TYPE_INT16: number(a, t[0], -32768, 65535, &v, "an int16"); return (uint32_t)v & 0xFFFF;
    default: fail(a, "push of type %u has no operand form", type); return 0;
    }
}

/* ---------- instructions ---------- */

/* mnemonic[.type[.type]]: the opcode (break kinds are mnemonics of their own), types, break kind. */
static int mnemonic(assembler *a, token t, unsigned *opcode, unsigned types[2], int *break_kind)
{
    size_t n = 0;
    while (n < t.n && t.s[n] != '.') n++;
    int op = datawin_op_from_mnemonic(t.s, n);
    *break_kind = op < 0 ? datawin_break_from_name(t.s, n) : 0;
    if (op < 0 && *break_kind) op = DW_OP_BREAK;
    if (op < 0) {
        fail(a, "unknown instruction %.*s", (int)(n > 40 ? 40 : n), t.s);
        return 0;
    }
    *opcode = (unsigned)op;
    types[0] = types[1] = 0;
    for (int k = 0; k < 2 && n < t.n; k++) {
        size_t start = ++n;
        while (n < t.n && t.s[n] != '.') n++;
        int type = n - start == 1 ? datawin_type_from_letter(t.s[start]) : -1;
        long long number_type = type;
        if (type < 0 && !number(a, (token){t.s + start, n - start}, 0, 15, &number_type, "a type")) return 0;
        types[k] = (unsigned)number_type;
    }
    if (n < t.n) fail(a, "more than two types: %.*s", (int)(t.n > 40 ? 40 : t.n), t.s);
    return !a->failed;
}

/* A branch's operand: a label (resolved at the end), a distance in words (+N, -N) or drop. */
static uint32_t branch_operand(assembler *a, const token *t, int count, uint32_t at)
{
    long long v;
    if (count != 1) {
        fail(a, "a branch takes a label, +N/-N words or drop");
        return 0;
    }
    if (token_is(t[0], "drop")) return 0xF00000;
    if (t[0].n > 1 && (t[0].s[0] == '+' || t[0].s[0] == '-'))
        return number(a, t[0], -0x400000, 0x3FFFFF, &v, "a distance in words") ? (uint32_t)v & 0x7FFFFF : 0;
    if (GROW(a, a->branches, a->branch_count, a->branch_cap))
        a->branches[a->branch_count++] = (branch){at, t[0].s, t[0].n, a->line};
    return 0;
}

/* The operands of one instruction, put after its word; returns the word's low bits they give. */
static uint32_t operands(assembler *a, unsigned opcode, unsigned type, int break_kind, const token *t, int count, uint32_t at)
{
    long long v = 0;
    switch (datawin_op_class(opcode)) {
    case DW_CLASS_TWO:
    case DW_CLASS_ONE:
        if (count) fail(a, "%s takes no operand", datawin_op_mnemonic(opcode));
        return 0;
    case DW_CLASS_COUNTED:
        if (count != 1) fail(a, "%s takes one number", datawin_op_mnemonic(opcode));
        else number(a, t[0], -32768, 65535, &v, "a count");
        return (uint32_t)v & 0xFFFF;
    case DW_CLASS_CMP: {
        int kind = count == 1 ? datawin_comparison_from_name(t[0].s, t[0].n) : -1;
        v = kind;
        if (count != 1) fail(a, "cmp takes lt, le, eq, ne, ge or gt");
        else if (kind < 0) number(a, t[0], 0, 255, &v, "a comparison");
        return ((uint32_t)v & 0xFF) << 8;
    }
    case DW_CLASS_BRANCH: return branch_operand(a, t, count, at);
    case DW_CLASS_PUSH: return push_operand(a, type, t, count);
    case DW_CLASS_POP:
        if (count != 1) {
            fail(a, "pop takes one operand");
            return 0;
        }
        if (type != DW_TYPE_INT16) return variable_operand(a, t[0]);
        number(a, t[0], -32768, 65535, &v, "a swap count");
        return (uint32_t)v & 0xFFFF;
    case DW_CLASS_CALL:
        if (count != 2 || t[1].n < 6 || memcmp(t[1].s, "argc=", 5) != 0) {
            fail(a, "call takes a function and argc=N");
            return 0;
        }
        if (raw_word(t[0])) int32_operand(a, t, 1);
        else {
            token name = t[0];
            unsigned high = reference_type(a, &name, 0);
            add_reference(a, FUNCTIONS, entity(a, FUNCTIONS, name, INT32_MIN));
            put_word(a, high << 24);
        }
        number(a, (token){t[1].s + 5, t[1].n - 5}, 0, 65535, &v, "an argument count");
        return (uint32_t)v & 0xFFFF;
    case DW_CLASS_BREAK:
        if (!break_kind) {
            if (!count || !number(a, t[0], -32768, 65535, &v, "a break kind")) return 0;
            t++, count--;
        } else v = break_kind;
        if (type == DW_TYPE_INT32) int32_operand(a, t, count);
        else if (count) fail(a, "this break takes no operand");
        return (uint32_t)v & 0xFFFF;
    case DW_CLASS_NONE: break;
    }
    return 0;
}

/* An instruction line: mnemonic, operands, and "~0xWORD" when the word is given whole. */
static void instruction(assembler *a, token *t, int count)
{
    unsigned opcode, types[2];
    int break_kind;
    long long given = -1;
    for (int k = 1; k < count; k++)
        if (t[k].n > 1 && t[k].s[0] == '~') {
            if (!number(a, (token){t[k].s + 1, t[k].n - 1}, 0, 0xFFFFFFFFll, &given, "an instruction word")) return;
            memmove(t + k, t + k + 1, (size_t)(count - k - 1) * sizeof *t);
            count--;
        }
    if (!mnemonic(a, t[0], &opcode, types, &break_kind)) return;
    uint32_t word = opcode << 24 | types[1] << 20 | types[0] << 16;
    if (given >= 0) { /* the word decides the operands' form */
        word = (uint32_t)given;
        if (word >> 24 != opcode) {
            fail(a, "~0x%08X is not a %.*s instruction", word, (int)t[0].n, t[0].s);
            return;
        }
        types[0] = word >> 16 & 0xF;
        if (opcode == DW_OP_BREAK) break_kind = (int16_t)(word & 0xFFFF);
    }
    uint32_t at = (uint32_t)a->code.size;
    put_word(a, word);
    uint32_t low = operands(a, opcode, types[0], break_kind, t + 1, count - 1, at);
    if (given < 0) rb_buf_patch_le(&a->code, at, word | low, 4);
    int expected = datawin_operand_words(given >= 0 ? (uint32_t)given : word | low);
    if (!a->failed && (expected < 0 || a->code.size - at != 4 + 4 * (size_t)expected))
        fail(a, "the instruction does not take the operands given");
    if (given >= 0 && datawin_op_class(opcode) == DW_CLASS_BRANCH) a->branch_count -= a->branch_count && a->branches[a->branch_count - 1].at == at;
}

/* ".entry NAME": a child entry of this root starts here. */
static void child_entry(assembler *a, const token *t, int count)
{
    size_t size;
    long long index;
    uint8_t *name = count == 2 ? name_and_index(a, t[1], &size, &index) : NULL;
    if (count != 2) fail(a, ".entry takes the name of a child entry");
    if (!name) return;
    size_t found = 0;
    for (size_t k = a->index + 1; k < rb_element_count(a->entries) && !found; k++) {
        rb_record_scratch scratch;
        const rb_node *e = datawin_element_view(a->entries, k, &scratch);
        const rb_node *parent = rb_record_member(e, "parent");
        if (!parent || rb_node_uint(parent) != a->index || !rb_node_text_equals(rb_record_member(e, "name"), name, size)) continue;
        if (index >= 0 && (uint64_t)index != k) continue;
        int placed = 0;
        for (size_t c = 0; c < a->child_count; c++) placed |= a->children[c].entry == k;
        if (!placed) found = k;
    }
    if (!found) fail(a, ".entry %.*s: no child entry of this one by that name is left to place", (int)(size > 80 ? 80 : size), (const char *)name);
    else if (GROW(a, a->children, a->child_count, a->child_cap))
        a->children[a->child_count++] = (placed_child){found, (uint32_t)a->code.size};
    free(name);
}

static void label_line(assembler *a, token t)
{
    for (size_t k = 0; k < a->label_count; k++)
        if (a->labels[k].n == t.n - 1 && !memcmp(a->labels[k].name, t.s, t.n - 1)) {
            fail(a, "label %.*s is defined twice (line %d)", (int)(t.n - 1), t.s, a->labels[k].line);
            return;
        }
    if (GROW(a, a->labels, a->label_count, a->label_cap))
        a->labels[a->label_count++] = (label){t.s, t.n - 1, (uint32_t)a->code.size, a->line};
}

static void line(assembler *a, const char *s, size_t n)
{
    token t[MAX_TOKENS];
    int count = tokenize(s, n, t);
    if (count < 0) fail(a, "a text without its closing quote, or more than %d words", MAX_TOKENS);
    else if (count == 1 && t[0].n > 1 && t[0].s[t[0].n - 1] == ':') label_line(a, t[0]);
    else if (count && token_is(t[0], ".entry")) child_entry(a, t, count);
    else if (count && token_is(t[0], ".word")) {
        long long v;
        if (count == 2 && number(a, t[1], 0, 0xFFFFFFFFll, &v, "a word")) put_word(a, (uint32_t)v);
        else fail(a, ".word takes one number");
    } else if (count) instruction(a, t, count);
}

static void resolve_branches(assembler *a)
{
    for (size_t b = 0; b < a->branch_count && !a->failed; b++) {
        const branch *br = &a->branches[b];
        const label *target = NULL;
        for (size_t k = 0; k < a->label_count && !target; k++)
            if (a->labels[k].n == br->n && !memcmp(a->labels[k].name, br->name, br->n)) target = &a->labels[k];
        a->line = br->line;
        if (!target) {
            fail(a, "no label %.*s", (int)(br->n > 60 ? 60 : br->n), br->name);
            return;
        }
        int64_t distance = ((int64_t)target->at - (int64_t)br->at) / 4;
        if (distance < -0x400000 || distance > 0x3FFFFF) fail(a, "label %.*s is too far for a branch", (int)br->n, br->name);
        uint32_t word = (uint32_t)a->code.data[br->at] | (uint32_t)a->code.data[br->at + 1] << 8 |
                        (uint32_t)a->code.data[br->at + 2] << 16 | (uint32_t)a->code.data[br->at + 3] << 24;
        rb_buf_patch_le(&a->code, br->at, (word & 0xFF800000u) | ((uint32_t)distance & 0x7FFFFF), 4);
    }
    a->line = 0;
}

static void assemble_text(assembler *a, const char *text, size_t size)
{
    size_t bom = size >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0; /* an editor's UTF-8 mark */
    for (size_t start = bom; start < size && !a->failed;) {
        const char *nl = memchr(text + start, '\n', size - start);
        size_t end = nl ? (size_t)(nl - text) : size;
        a->line++;
        line(a, text + start, end - start);
        start = end + 1;
    }
    a->line = 0;
    if (!a->failed && a->code.failed) fail(a, "out of memory");
    if (!a->failed) resolve_branches(a);
}

/* ---------- the operations ---------- */

/* A string or blob value as the dump spells it. */
static json_t *bytes_json(const rb_doc *doc, rb_kind kind, const uint8_t *data, size_t size)
{
    rb_node n;
    memset(&n, 0, sizeof n);
    n.kind = kind;
    n.v.bytes.data = data;
    n.v.bytes.size = size;
    return rb_model_to_json(doc, &n, RB_BLOBS_BASE64);
}

static json_t *strings_json(const assembler *a)
{
    json_t *list = json_array();
    for (size_t k = 0; list && k < a->string_count; k++) {
        const string_operand *s = &a->strings[k];
        json_t *e = json_pack("{s:I,s:o}", "at", (json_int_t)s->at, "string", bytes_json(a->doc, RB_K_STRING, s->text, s->size));
        if (e && s->occurrence >= 0) json_object_set_new(e, "occurrence", json_integer(s->occurrence));
        if (!e || json_array_append_new(list, e)) {
            json_decref(list);
            return NULL;
        }
    }
    return list;
}

static json_t *references_json(const assembler *a, int kind)
{
    json_t *list = json_array();
    for (size_t k = 0; list && k < a->reference_count[kind]; k++) {
        const operand_reference *r = &a->references[kind][k];
        json_t *e = json_pack("{s:I,s:I}", "at", (json_int_t)r->at, kind_word(kind), (json_int_t)r->entity);
        if (!e || json_array_append_new(list, e)) {
            json_decref(list);
            return NULL;
        }
    }
    return list;
}

/* The operation that makes list `key` of the entry `now` (absent when empty); none when it is. */
static int set_list(const assembler *a, json_t *ops, const rb_node *entry, const char *base, const char *key, json_t *now)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", base, key);
    const rb_node *old = rb_record_member(entry, key);
    json_t *was = old ? rb_model_to_json(a->doc, old, RB_BLOBS_REF) : NULL;
    int rc = 0;
    if (!now) rc = -1;
    else if (was ? json_equal(was, now) : !json_array_size(now)) json_decref(now);
    else if (!json_array_size(now)) {
        json_decref(now);
        rc = rb_json_patch_op(ops, "remove", path, NULL, NULL);
    } else rc = rb_json_patch_op(ops, was ? "replace" : "add", path, NULL, now);
    json_decref(was);
    return rc;
}

/* Every child entry of this root must be placed by an .entry line; an offset that moved is replaced. */
static int child_offsets(assembler *a, json_t *ops, long chunk)
{
    for (size_t k = a->index + 1; k < rb_element_count(a->entries); k++) {
        rb_record_scratch scratch;
        const rb_node *e = datawin_element_view(a->entries, k, &scratch), *parent = rb_record_member(e, "parent");
        if (!parent || rb_node_uint(parent) != a->index) continue;
        const placed_child *placed = NULL;
        for (size_t c = 0; c < a->child_count && !placed; c++)
            if (a->children[c].entry == k) placed = &a->children[c];
        if (!placed) {
            const rb_node *name = rb_record_member(e, "name");
            fail(a, "child entry %.*s (entries/%zu) runs inside this one: mark where it starts with .entry",
                 name && name->kind == RB_K_STRING ? (int)(name->v.bytes.size > 80 ? 80 : name->v.bytes.size) : 0,
                 name && name->kind == RB_K_STRING ? (const char *)name->v.bytes.data : "", k);
            return -1;
        }
        if (rb_element_uint(a->entries, k, "offset") == placed->at) continue;
        char path[96];
        snprintf(path, sizeof path, "/chunks/%ld/entries/%zu/offset", chunk, k);
        if (rb_json_patch_op(ops, "replace", path, NULL, json_integer(placed->at))) return -1;
    }
    return 0;
}

static int operations(assembler *a, json_t *ops, long chunk)
{
    char base[96], path[160];
    long func;
    datawin_doc_chunk(a->doc, "FUNC", &func);
    for (size_t k = 0; k < a->added_count; k++) {
        snprintf(path, sizeof path, "/chunks/%ld/functions/-", func);
        if (rb_json_patch_op(ops, "add", path, NULL, json_pack("{s:o}", "name", bytes_json(a->doc, RB_K_STRING, a->added[k].text, a->added[k].size))))
            return -1;
    }
    snprintf(base, sizeof base, "/chunks/%ld/entries/%zu", chunk, a->index);
    const rb_node *entry = rb_list_element(a->entries, a->index), *blob = rb_record_member(entry, "bytecode");
    if (blob->v.bytes.size != a->code.size || (a->code.size && memcmp(blob->v.bytes.data, a->code.data, a->code.size))) {
        snprintf(path, sizeof path, "%s/bytecode", base);
        if (rb_json_patch_op(ops, "replace", path, NULL, bytes_json(a->doc, RB_K_BLOB, a->code.data, a->code.size))) return -1;
    }
    if (set_list(a, ops, entry, base, "stringOperands", strings_json(a)) ||
        set_list(a, ops, entry, base, "variableReferences", references_json(a, VARIABLES)) ||
        set_list(a, ops, entry, base, "functionReferences", references_json(a, FUNCTIONS)))
        return -1;
    return child_offsets(a, ops, chunk);
}

static void assembler_free(assembler *a)
{
    for (int kind = 0; kind < KINDS; kind++) {
        datawin_names_close(&a->names[kind]);
        free(a->references[kind]);
    }
    datawin_pins_free(&a->pins);
    for (size_t k = 0; k < a->string_count; k++) free(a->strings[k].text);
    for (size_t k = 0; k < a->added_count; k++) free(a->added[k].text);
    free(a->strings);
    free(a->labels);
    free(a->branches);
    free(a->children);
    free(a->added);
    rb_buf_free(&a->code);
}

int datawin_code_assemble(const rb_doc *doc, long chunk, size_t index, const uint8_t *text, size_t size, json_t *ops,
                          char *why, size_t why_size)
{
    assembler a = {.doc = doc, .index = index, .why = why, .why_size = why_size};
    rb_buf_init(&a.code);
    a.entries = rb_record_member(rb_list_element(rb_record_member(doc->root, "chunks"), (size_t)chunk), "entries");
    const rb_node *blob = rb_record_member(rb_list_element(a.entries, index), "bytecode");
    if (!blob || blob->kind != RB_K_BLOB) fail(&a, "entries/%zu has no bytecode of its own (a child's runs inside its parent's)", index);
    else if (datawin_names_open(&a.names[VARIABLES], rb_record_member(datawin_doc_chunk(doc, "VARI", NULL), "variables")) ||
             datawin_names_open(&a.names[FUNCTIONS], rb_record_member(datawin_doc_chunk(doc, "FUNC", NULL), "functions")))
        fail(&a, "out of memory");
    if (!a.failed) assemble_text(&a, (const char *)text, size);
    if (!a.failed && operations(&a, ops, chunk)) fail(&a, "out of memory");
    assembler_free(&a);
    return a.failed ? -1 : 0;
}
