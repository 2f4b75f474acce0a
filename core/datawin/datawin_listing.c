/*
 * The listing of a root code entry's bytecode (docs/formats/datawin.md "Code listings"): one
 * instruction a line, branches to labels, variables, functions and strings by the names the model
 * links them to (stringOperands, variableReferences, functionReferences), the child entries that
 * start inside it marked where they start. datawin_asm.c reads it back to the same model, so
 * every bit of the model's bytecode is in the text: a field an instruction does not normally use
 * that is not zero gives the whole instruction word (`~0x...`), an operand that is not what its
 * instruction names gives its word (`=0x...`).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/datawin/datawin.h"
#include "core/datawin/datawin_asm.h"
#include "core/datawin/datawin_internal.h"
#include "core/model/doc_state.h"

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

/* Bytes in double quotes: a well-formed UTF-8 sequence as it is, '"' and '\' escaped, \n \r \t,
 * any other control byte or stray byte as \xNN (docs/formats/datawin.md "Code listings"). */
static void put_quoted(rb_buf *out, const uint8_t *b, size_t n)
{
    put_text(out, "\"");
    for (size_t i = 0; i < n;) {
        unsigned char c = b[i];
        size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 1;
        int whole = c >= 0x80 && len > 1 && len <= n - i;
        for (size_t k = 1; whole && k < len; k++) whole = (b[i + k] & 0xC0) == 0x80;
        if (whole) {
            rb_buf_put(out, b + i, len);
            i += len;
            continue;
        }
        if (c == '"' || c == '\\') put_format(out, "\\%c", c);
        else if (c == '\n') put_text(out, "\\n");
        else if (c == '\r') put_text(out, "\\r");
        else if (c == '\t') put_text(out, "\\t");
        else if (c < 0x20 || c >= 0x7F) put_format(out, "\\x%02x", c);
        else rb_buf_put_u8(out, c);
        i++;
    }
    put_text(out, "\"");
}

static void put_name(rb_buf *out, const uint8_t *b, size_t n)
{
    if (datawin_name_is_bare(b, n)) rb_buf_put(out, b, n);
    else put_quoted(out, b, n);
}

/* What a listing needs besides the entry: the names of VARI and FUNC, the labels. */
typedef struct listing {
    const rb_node *strings, *references[2];
    dw_names names[2]; /* variables, functions */
    dw_pins pins;
    uint32_t *labels;  /* branch targets, ascending */
    size_t label_count;
    rb_buf *out;
} listing;

enum { VARIABLES, FUNCTIONS };

static long label_of(const listing *l, uint64_t at)
{
    size_t lo = 0, hi = l->label_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->labels[mid] == at) return (long)mid + 1;
        if (l->labels[mid] < at) lo = mid + 1;
        else hi = mid;
    }
    return 0;
}

/* The reference's high byte as the prefix: none when it is `plain`. */
static void put_reference_type(rb_buf *out, unsigned high, unsigned plain, int named)
{
    if (high == plain) return;
    const char *name = named ? datawin_reference_type_name(high) : NULL;
    if (name) put_format(out, "[%s]", name);
    else put_format(out, "[0x%02X]", high);
}

/* A variable or function an operand links to: [type]instance.name#index (instance only for
 * variables of push and pop). 0 when the operand is not one of `kind`'s references. */
static int put_reference(listing *l, int kind, uint64_t operand_at, uint32_t model_word, int instance, int named_type)
{
    long k = element_at(l->references[kind], operand_at);
    if (k < 0) return 0;
    uint64_t index = rb_element_uint(l->references[kind], (size_t)k, kind == VARIABLES ? "variable" : "function");
    put_reference_type(l->out, model_word >> 24, kind == VARIABLES ? 0xA0 : 0x00, named_type);
    if (instance != INT32_MIN) {
        const char *inst = datawin_instance_name(instance);
        if (inst) put_format(l->out, "%s.", inst);
        else put_format(l->out, "%d.", instance);
    }
    const dw_name *name = datawin_names_get(&l->names[kind], index);
    if (!name) {
        put_format(l->out, "#%" PRIu64, index);
        return 1;
    }
    put_name(l->out, name->text, name->size);
    if (datawin_pins_resolve(&l->pins, &l->names[kind], kind, name->text, name->size, instance) != (long)index) {
        put_format(l->out, "#%" PRIu64, index);
        if (datawin_pins_add(&l->pins, kind, (uint32_t)index, instance)) l->out->failed = 1;
    }
    return 1;
}

/* An int32 operand: a function or variable it links to, else its value. */
static void put_int32_operand(listing *l, uint64_t operand_at, uint32_t model_word)
{
    if (element_at(l->references[FUNCTIONS], operand_at) >= 0) {
        put_text(l->out, " function ");
        put_reference(l, FUNCTIONS, operand_at, model_word, INT32_MIN, 0);
    } else if (element_at(l->references[VARIABLES], operand_at) >= 0) {
        put_text(l->out, " variable ");
        put_reference(l, VARIABLES, operand_at, model_word, INT32_MIN, 1);
    } else put_format(l->out, " %" PRId32, (int32_t)model_word);
}

static void put_double(rb_buf *out, const uint8_t *p)
{
    uint64_t bits = word_at(p) | (uint64_t)word_at(p + 4) << 32, back;
    double d, again;
    memcpy(&d, &bits, 8);
    char text[64];
    snprintf(text, sizeof text, "%.17g", d);
    again = strtod(text, NULL);
    memcpy(&back, &again, 8);
    if (back == bits && !isnan(d)) put_format(out, " %s", text);
    else put_format(out, " 0x%016" PRIX64, bits); /* NaN payloads: the bits themselves */
}

static void put_float(rb_buf *out, const uint8_t *p)
{
    uint32_t bits = word_at(p), back;
    float f, again;
    memcpy(&f, &bits, 4);
    char text[64];
    snprintf(text, sizeof text, "%.9g", (double)f);
    again = strtof(text, NULL);
    memcpy(&back, &again, 4);
    if (back == bits && !isnan(f)) put_format(out, " %s", text);
    else put_format(out, " 0x%08" PRIX32, bits);
}

/* A push's operand, by its type; the low 16 bits are the instance of a variable and the value
 * of an int16, else 0. Returns those bits as the text gives them. */
static uint32_t put_push(listing *l, uint32_t word, const uint8_t *p, uint64_t at)
{
    unsigned type = word >> 16 & 0xF;
    int16_t low = (int16_t)(word & 0xFFFF);
    switch (type) {
    case DW_TYPE_VARIABLE:
        put_text(l->out, " ");
        if (put_reference(l, VARIABLES, at + 4, word_at(p + 4), low, 1)) return word & 0xFFFF;
        put_format(l->out, "=0x%08" PRIX32, word_at(p + 4)); /* the instance then only in the word */
        return 0;
    case DW_TYPE_STRING: {
        long k = element_at(l->strings, at + 4);
        rb_record_scratch scratch;
        const rb_node *s = k >= 0 ? datawin_element_view(l->strings, (size_t)k, &scratch) : NULL;
        const rb_node *text = s ? rb_record_member(s, "string") : NULL, *occurrence = s ? rb_record_member(s, "occurrence") : NULL;
        put_text(l->out, " ");
        if (!text || text->kind != RB_K_STRING) {
            put_format(l->out, "=0x%08" PRIX32, word_at(p + 4));
            return 0;
        }
        put_quoted(l->out, text->v.bytes.data, text->v.bytes.size);
        if (occurrence) put_format(l->out, "#%" PRIu64, rb_node_uint(occurrence));
        return 0;
    }
    case DW_TYPE_INT32: put_int32_operand(l, at + 4, word_at(p + 4)); return 0;
    case DW_TYPE_BOOL: put_format(l->out, " %" PRId32, (int32_t)word_at(p + 4)); return 0;
    case DW_TYPE_INT64:
        put_format(l->out, " %" PRId64, (int64_t)(word_at(p + 4) | (uint64_t)word_at(p + 8) << 32));
        return 0;
    case DW_TYPE_DOUBLE: put_double(l->out, p + 4); return 0;
    case DW_TYPE_FLOAT: put_float(l->out, p + 4); return 0;
    default: put_format(l->out, " %d", low); return word & 0xFFFF; /* int16 */
    }
}

static void put_types(rb_buf *out, unsigned t1, unsigned t2, int both)
{
    char c1 = datawin_type_letter(t1), c2 = datawin_type_letter(t2);
    if (c1) put_format(out, ".%c", c1);
    else put_format(out, ".%u", t1);
    if (!both && !t2) return;
    if (c2) put_format(out, ".%c", c2);
    else put_format(out, ".%u", t2);
}

/* A branch: to a label, or a distance in words when it lands on no instruction (or outside);
 * `drop` for popenv's exit form. Returns the low 24 bits as the text gives them. */
static uint32_t put_branch(listing *l, uint32_t word, uint64_t at)
{
    uint32_t field = word & 0xFFFFFF;
    if (field == 0xF00000) {
        put_text(l->out, " drop");
        return field;
    }
    int32_t distance = (int32_t)(word << 9) >> 9; /* 23 bits, signed */
    long label = label_of(l, (uint64_t)((int64_t)at + 4ll * distance));
    if (label && (int64_t)at + 4ll * distance >= 0) put_format(l->out, " L%ld", label);
    else put_format(l->out, " %+" PRId32, distance);
    return (uint32_t)distance & 0x7FFFFF;
}

/* One instruction at `at`; returns its size. */
static size_t put_instruction(listing *l, const uint8_t *p, uint64_t at)
{
    uint32_t word = word_at(p), given; /* `given`: the word the text stands for */
    unsigned opcode = word >> 24, t1 = word >> 16 & 0xF, t2 = word >> 20 & 0xF;
    int16_t low = (int16_t)(word & 0xFFFF);
    int extra = datawin_operand_words(word);
    dw_class class = datawin_op_class(opcode);
    const char *break_name = class == DW_CLASS_BREAK ? datawin_break_name(low) : NULL;
    put_text(l->out, "    ");
    put_text(l->out, break_name ? break_name : datawin_op_mnemonic(opcode));
    given = word & 0xFFFF0000u;
    switch (class) {
    case DW_CLASS_TWO: put_types(l->out, t1, t2, 1); break;
    case DW_CLASS_ONE: put_types(l->out, t1, t2, 0); break;
    case DW_CLASS_COUNTED:
        put_types(l->out, t1, t2, 0);
        put_format(l->out, " %u", (unsigned)(word & 0xFFFF));
        given = word;
        break;
    case DW_CLASS_CMP: {
        put_types(l->out, t1, t2, 1);
        const char *kind = datawin_comparison_name(word >> 8 & 0xFF);
        if (kind) put_format(l->out, " %s", kind);
        else put_format(l->out, " %u", (unsigned)(word >> 8 & 0xFF));
        given |= word & 0xFF00;
        break;
    }
    case DW_CLASS_BRANCH: given = (word & 0xFF000000u) | put_branch(l, word, at); break;
    case DW_CLASS_PUSH: put_types(l->out, t1, t2, 0); given |= put_push(l, word, p, at); break;
    case DW_CLASS_POP:
        put_types(l->out, t1, t2, 1);
        given |= word & 0xFFFF;
        if (!extra) put_format(l->out, " %d", low);
        else {
            put_text(l->out, " ");
            if (!put_reference(l, VARIABLES, at + 4, word_at(p + 4), low, 1)) {
                put_format(l->out, "=0x%08" PRIX32, word_at(p + 4));
                given &= 0xFFFF0000u; /* the instance then only in the word */
            }
        }
        break;
    case DW_CLASS_CALL:
        put_types(l->out, t1, t2, 0);
        put_text(l->out, " ");
        if (!put_reference(l, FUNCTIONS, at + 4, word_at(p + 4), INT32_MIN, 0)) put_format(l->out, "=0x%08" PRIX32, word_at(p + 4));
        put_format(l->out, " argc=%u", (unsigned)(word & 0xFFFF));
        given |= word & 0xFFFF;
        break;
    case DW_CLASS_BREAK:
        put_types(l->out, t1, t2, 0);
        if (!break_name) put_format(l->out, " %d", low);
        given |= word & 0xFFFF;
        if (extra) put_int32_operand(l, at + 4, word_at(p + 4));
        break;
    case DW_CLASS_NONE: break;
    }
    if (given != word) put_format(l->out, " ~0x%08" PRIX32, word);
    put_text(l->out, "\n");
    return 4 + 4 * (size_t)extra;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The branch targets that are instructions of the blob (or its end), ascending, without repeats.
 * `starts`: a byte per word, 1 where an instruction starts. */
static int find_labels(listing *l, const uint8_t *p, size_t size, const uint8_t *starts)
{
    size_t count = 0;
    l->labels = malloc((size / 4 + 1) * sizeof *l->labels);
    if (!l->labels) return -1;
    for (size_t at = 0; at < size; at += 4) {
        uint32_t word = word_at(p + at);
        if (!starts[at / 4] || datawin_op_class(word >> 24) != DW_CLASS_BRANCH || (word & 0xFFFFFF) == 0xF00000) continue;
        int64_t target = (int64_t)at + 4ll * ((int32_t)(word << 9) >> 9);
        if (target >= 0 && (uint64_t)target <= size && starts[target / 4]) l->labels[count++] = (uint32_t)target;
    }
    qsort(l->labels, count, sizeof *l->labels, compare_u32);
    size_t kept = 0;
    for (size_t k = 0; k < count; k++)
        if (!kept || l->labels[kept - 1] != l->labels[k]) l->labels[kept++] = l->labels[k];
    l->label_count = kept;
    return 0;
}

/* A child entry of the root: where it starts and which entry it is. */
typedef struct child { uint64_t at; size_t entry; } child;

static int compare_children(const void *a, const void *b)
{
    const child *x = a, *y = b;
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    return (x->entry > y->entry) - (x->entry < y->entry);
}

/* The child entries of root `index`, by where they start (then by entry order); NULL when none. */
static child *children_of(const rb_node *entries, size_t index, size_t *count, int *failed)
{
    child *found = NULL;
    size_t cap = 0;
    *count = 0;
    for (size_t k = index + 1; k < rb_element_count(entries); k++) {
        rb_record_scratch scratch;
        const rb_node *parent = rb_record_member(datawin_element_view(entries, k, &scratch), "parent");
        if (!parent || rb_node_uint(parent) != index) continue;
        if (*count == cap) {
            child *grown = datawin_grown(found, &cap, sizeof *grown, 8);
            if (!grown) {
                *failed = 1;
                break;
            }
            found = grown;
        }
        found[(*count)++] = (child){rb_element_uint(entries, k, "offset"), k};
    }
    if (*count) qsort(found, *count, sizeof *found, compare_children);
    return found;
}

static void put_child(listing *l, const rb_node *entries, size_t k)
{
    rb_record_scratch scratch;
    const rb_node *name = rb_record_member(datawin_element_view(entries, k, &scratch), "name");
    put_text(l->out, ".entry ");
    if (name && name->kind == RB_K_STRING) put_name(l->out, name->v.bytes.data, name->v.bytes.size);
    else put_format(l->out, "#%zu", k);
    put_text(l->out, "\n");
}

/* The instructions in order, each place's child entries (".entry NAME") and label first. A child
 * that starts inside an instruction is not listed: reading the listing back then refuses it. */
static void put_body(listing *l, const rb_node *entries, const child *children, size_t child_count, const uint8_t *p,
                     size_t size, const uint8_t *starts)
{
    size_t next_child = 0;
    for (size_t at = 0; at <= size && !l->out->failed;) {
        while (next_child < child_count && children[next_child].at < at) next_child++;
        for (; next_child < child_count && children[next_child].at == at; next_child++) put_child(l, entries, children[next_child].entry);
        long label = label_of(l, at);
        if (label) put_format(l->out, "L%ld:\n", label);
        if (at == size) break;
        if (!starts[at / 4]) { /* the walk stopped: the rest as words */
            put_format(l->out, "    .word 0x%08" PRIX32 "\n", word_at(p + at));
            at += 4;
            continue;
        }
        at += put_instruction(l, p + at, at);
    }
}

int datawin_code_listing(const rb_doc *doc, const rb_node *entries, size_t index, rb_buf *out)
{
    const rb_node *entry = rb_list_element(entries, index);
    const rb_node *blob = rb_record_member(entry, "bytecode");
    if (!blob || blob->kind != RB_K_BLOB) return -1;
    listing l;
    memset(&l, 0, sizeof l);
    l.out = out;
    l.strings = rb_record_member(entry, "stringOperands");
    l.references[VARIABLES] = rb_record_member(entry, "variableReferences");
    l.references[FUNCTIONS] = rb_record_member(entry, "functionReferences");
    const uint8_t *p = blob->v.bytes.data;
    size_t size = blob->v.bytes.size & ~(size_t)3;
    uint8_t *starts = calloc(size / 4 + 1, 1);
    int failed = !starts || datawin_names_open(&l.names[VARIABLES], rb_record_member(datawin_doc_chunk(doc, "VARI", NULL), "variables")) ||
                 datawin_names_open(&l.names[FUNCTIONS], rb_record_member(datawin_doc_chunk(doc, "FUNC", NULL), "functions"));
    for (size_t at = 0; !failed && at < size;) {
        int extra = datawin_operand_words(word_at(p + at));
        if (extra < 0 || size - at < 4 + 4 * (size_t)extra) break;
        starts[at / 4] = 1;
        at += 4 + 4 * (size_t)extra;
    }
    starts[size / 4] = 1;
    if (!failed) failed = find_labels(&l, p, size, starts);
    size_t child_count = 0;
    child *children = failed ? NULL : children_of(entries, index, &child_count, &failed);
    if (!failed) {
        put_text(out, "; ");
        const rb_node *name = rb_record_member(entry, "name");
        if (name && name->kind == RB_K_STRING) put_name(out, name->v.bytes.data, name->v.bytes.size);
        put_text(out, ": GameMaker bytecode, docs/formats/datawin.md \"Code listings\"\n");
        put_body(&l, entries, children, child_count, p, size, starts);
    }
    free(children);
    free(starts);
    free(l.labels);
    datawin_names_close(&l.names[VARIABLES]);
    datawin_names_close(&l.names[FUNCTIONS]);
    datawin_pins_free(&l.pins);
    return failed || out->failed ? -1 : 0;
}
