/*
 * The instruction set of bytecode 15 and later (docs/formats/datawin.md "Bytecode instructions")
 * and the words of the code listing (docs/formats/datawin.md "Code listings"), shared by the walk
 * of CODE, the listing and the assembler.
 */
#include <stdlib.h>
#include <string.h>
#include "core/datawin/datawin_asm.h"
#include "core/datawin/datawin_internal.h"

int datawin_is_push(unsigned opcode) { return (opcode >= DW_OP_PUSH && opcode <= DW_OP_PUSHBLTN) || opcode == DW_OP_PUSHI; }

dw_class datawin_op_class(unsigned opcode)
{
    if (opcode >= 0x07 && opcode <= 0x14) return opcode == DW_OP_NEG || opcode == DW_OP_NOT ? DW_CLASS_ONE : DW_CLASS_TWO;
    if (datawin_is_push(opcode)) return DW_CLASS_PUSH;
    switch (opcode) {
    case DW_OP_CMP: return DW_CLASS_CMP;
    case 0x9C: case 0x9D: case 0x9E: return DW_CLASS_ONE;
    case DW_OP_DUP: case DW_OP_CALLV: return DW_CLASS_COUNTED;
    case DW_OP_B: case DW_OP_BT: case DW_OP_BF: case DW_OP_PUSHENV: case DW_OP_POPENV: return DW_CLASS_BRANCH;
    case DW_OP_POP: return DW_CLASS_POP;
    case DW_OP_CALL: return DW_CLASS_CALL;
    case DW_OP_BREAK: return DW_CLASS_BREAK;
    default: return DW_CLASS_NONE;
    }
}

int datawin_operand_words(uint32_t word)
{
    unsigned opcode = word >> 24, type = word >> 16 & 0xF;
    switch (datawin_op_class(opcode)) {
    case DW_CLASS_NONE: return -1;
    case DW_CLASS_PUSH:
        if (type == DW_TYPE_DOUBLE || type == DW_TYPE_INT64) return 2;
        if (type == DW_TYPE_INT16) return 0;
        return type <= DW_TYPE_STRING ? 1 : -1;
    case DW_CLASS_POP: return type == DW_TYPE_INT16 ? 0 : 1; /* pop.e: the swap form */
    case DW_CLASS_CALL: return 1;
    case DW_CLASS_BREAK: return type == DW_TYPE_INT32 ? 1 : 0; /* an int32 word from 2023.8 */
    default: return 0;
    }
}

int datawin_operand_may_be_reference(uint32_t word)
{
    unsigned opcode = word >> 24, type = word >> 16 & 0xF;
    if (datawin_is_push(opcode)) return type == DW_TYPE_VARIABLE || type == DW_TYPE_INT32;
    return opcode == DW_OP_POP || opcode == DW_OP_CALL || opcode == DW_OP_BREAK;
}

/* ---------- words ---------- */

static int word_is(const char *word, const char *text, size_t n) { return strlen(word) == n && memcmp(word, text, n) == 0; }

static const char *const ARITHMETIC[] = {"conv", "mul", "div", "rem", "mod", "add", "sub", "and",
                                         "or",   "xor", "neg", "not", "shl", "shr", "cmp"};
static const struct { unsigned opcode; const char *name; } OTHER_OPS[] = {
    {0xC0, "push"}, {0xC1, "pushloc"}, {0xC2, "pushglb"}, {0xC3, "pushbltn"}, {0x84, "pushi"}, {0x45, "pop"},
    {0xD9, "call"}, {0xFF, "break"},   {0x86, "dup"},     {0x99, "callv"},   {0x9C, "ret"},   {0x9D, "exit"},
    {0x9E, "popz"}, {0xB6, "b"},       {0xB7, "bt"},      {0xB8, "bf"},      {0xBA, "pushenv"}, {0xBB, "popenv"}};

const char *datawin_op_mnemonic(unsigned opcode)
{
    if (opcode >= 0x07 && opcode <= 0x15) return ARITHMETIC[opcode - 0x07];
    for (size_t i = 0; i < sizeof OTHER_OPS / sizeof *OTHER_OPS; i++)
        if (OTHER_OPS[i].opcode == opcode) return OTHER_OPS[i].name;
    return NULL;
}

int datawin_op_from_mnemonic(const char *text, size_t n)
{
    for (unsigned i = 0; i < sizeof ARITHMETIC / sizeof *ARITHMETIC; i++)
        if (word_is(ARITHMETIC[i], text, n)) return (int)(0x07 + i);
    for (size_t i = 0; i < sizeof OTHER_OPS / sizeof *OTHER_OPS; i++)
        if (word_is(OTHER_OPS[i].name, text, n)) return (int)OTHER_OPS[i].opcode;
    return -1;
}

static const char TYPE_LETTERS[16] = {'d', 'f', 'i', 'l', 'b', 'v', 's', 0, 0, 0, 0, 0, 0, 0, 0, 'e'};

char datawin_type_letter(unsigned type) { return type < 16 ? TYPE_LETTERS[type] : 0; }

int datawin_type_from_letter(char c)
{
    for (int t = 0; t < 16; t++)
        if (c && TYPE_LETTERS[t] == c) return t;
    return -1;
}

static const struct { int instance; const char *name; } INSTANCES[] = {
    {-1, "self"},   {-2, "other"}, {-3, "all"},       {-4, "noone"}, {-5, "global"},
    {-6, "builtin"}, {-7, "local"}, {-9, "stacktop"}, {-15, "arg"},  {-16, "static"}};

const char *datawin_instance_name(int instance)
{
    for (size_t i = 0; i < sizeof INSTANCES / sizeof *INSTANCES; i++)
        if (INSTANCES[i].instance == instance) return INSTANCES[i].name;
    return NULL;
}

int datawin_instance_from_name(const char *text, size_t n, int *instance)
{
    for (size_t i = 0; i < sizeof INSTANCES / sizeof *INSTANCES; i++)
        if (word_is(INSTANCES[i].name, text, n)) {
            *instance = INSTANCES[i].instance;
            return 0;
        }
    return -1;
}

/* The high byte of a variable operand: how the variable is addressed. A plain variable (0xA0)
 * has no word. */
static const struct { unsigned high; const char *name; } REFERENCE_TYPES[] = {
    {0x00, "array"}, {0x80, "stacktop"}, {0xE0, "instance"}, {0x10, "multipush"}, {0x90, "multipushpop"}};

const char *datawin_reference_type_name(unsigned high_byte)
{
    for (size_t i = 0; i < sizeof REFERENCE_TYPES / sizeof *REFERENCE_TYPES; i++)
        if (REFERENCE_TYPES[i].high == high_byte) return REFERENCE_TYPES[i].name;
    return NULL;
}

int datawin_reference_type_from_name(const char *text, size_t n)
{
    for (size_t i = 0; i < sizeof REFERENCE_TYPES / sizeof *REFERENCE_TYPES; i++)
        if (word_is(REFERENCE_TYPES[i].name, text, n)) return (int)REFERENCE_TYPES[i].high;
    return -1;
}

static const char *const COMPARISONS[] = {NULL, "lt", "le", "eq", "ne", "ge", "gt"};

const char *datawin_comparison_name(unsigned kind) { return kind >= 1 && kind <= 6 ? COMPARISONS[kind] : NULL; }

int datawin_comparison_from_name(const char *text, size_t n)
{
    for (int k = 1; k <= 6; k++)
        if (word_is(COMPARISONS[k], text, n)) return k;
    return -1;
}

/* break's 16-bit kinds (GMS 2.3 and later): -1 down to -11. */
static const char *const BREAKS[] = {"chkindex", "pushaf",   "popaf",       "pushac",     "setowner", "isstaticok",
                                     "setstatic", "savearef", "restorearef", "chknullish", "pushref"};

const char *datawin_break_name(int kind) { return kind <= -1 && kind >= -11 ? BREAKS[-1 - kind] : NULL; }

int datawin_break_from_name(const char *text, size_t n)
{
    for (int k = 0; k < 11; k++)
        if (word_is(BREAKS[k], text, n)) return -1 - k;
    return 0;
}

int datawin_name_is_bare(const uint8_t *text, size_t n)
{
    if (!n) return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = text[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '@' || c == '$'))
            return 0;
    }
    return 1;
}

/* ---------- names ---------- */

static int compare_texts(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    int c = na && nb ? memcmp(a, b, na < nb ? na : nb) : 0;
    return c ? c : (na > nb) - (na < nb);
}

static int compare_by_name(const void *a, const void *b)
{
    const dw_name *x = a, *y = b;
    int c = compare_texts(x->text, x->size, y->text, y->size);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

int datawin_names_open(dw_names *names, const rb_node *list)
{
    memset(names, 0, sizeof *names);
    names->count = list ? rb_element_count(list) : 0;
    if (!names->count) return 0;
    names->by_index = calloc(names->count, sizeof *names->by_index);
    names->by_name = malloc(names->count * sizeof *names->by_name);
    if (!names->by_index || !names->by_name) {
        datawin_names_close(names);
        return -1;
    }
    for (size_t i = 0; i < names->count; i++) {
        rb_record_scratch scratch;
        const rb_node *e = datawin_element_view(list, i, &scratch);
        const rb_node *name = e ? rb_record_member(e, "name") : NULL, *type = e ? rb_record_member(e, "instanceType") : NULL;
        dw_name *n = &names->by_index[i];
        n->index = (uint32_t)i;
        n->named = name && name->kind == RB_K_STRING;
        if (n->named) n->text = name->v.bytes.data, n->size = name->v.bytes.size;
        n->instance = type ? rb_node_int(type) : INT64_MIN;
    }
    memcpy(names->by_name, names->by_index, names->count * sizeof *names->by_name);
    qsort(names->by_name, names->count, sizeof *names->by_name, compare_by_name);
    return 0;
}

void datawin_names_close(dw_names *names)
{
    free(names->by_index);
    free(names->by_name);
    memset(names, 0, sizeof *names);
}

const dw_name *datawin_names_get(const dw_names *names, uint64_t index)
{
    return index < names->count && names->by_index[index].named ? &names->by_index[index] : NULL;
}

/* The only entry of that name, else the only one of that name and instance (-1: none, -2: several). */
static long names_resolve(const dw_names *names, const uint8_t *name, size_t n, int instance)
{
    size_t lo = 0, hi = names->count;
    while (lo < hi) { /* the first entry not below `name` */
        size_t mid = lo + (hi - lo) / 2;
        const dw_name *m = &names->by_name[mid];
        if (!m->named || compare_texts(m->text, m->size, name, n) < 0) lo = mid + 1;
        else hi = mid;
    }
    size_t end = lo;
    while (end < names->count && names->by_name[end].named && !compare_texts(names->by_name[end].text, names->by_name[end].size, name, n))
        end++;
    if (end == lo) return -1;
    if (end - lo == 1) return names->by_name[lo].index;
    long found = -1;
    for (size_t k = lo; k < end && instance != INT32_MIN; k++) {
        if (names->by_name[k].instance != instance) continue;
        if (found >= 0) return -2;
        found = names->by_name[k].index;
    }
    return found >= 0 ? found : -2;
}

long datawin_pins_resolve(const dw_pins *pins, const dw_names *names, int kind, const uint8_t *name, size_t n, int instance)
{
    for (size_t k = pins->count; k > 0; k--) {
        const dw_pin *p = &pins->items[k - 1];
        const dw_name *named = datawin_names_get(names, p->index);
        if (p->kind == kind && p->instance == instance && named && !compare_texts(named->text, named->size, name, n))
            return p->index;
    }
    return names_resolve(names, name, n, instance);
}

int datawin_pins_add(dw_pins *pins, int kind, uint32_t index, int instance)
{
    if (pins->count == pins->cap) {
        dw_pin *grown = datawin_grown(pins->items, &pins->cap, sizeof *grown, 32);
        if (!grown) return -1;
        pins->items = grown;
    }
    pins->items[pins->count++] = (dw_pin){kind, instance, index};
    return 0;
}

void datawin_pins_free(dw_pins *pins)
{
    free(pins->items);
    memset(pins, 0, sizeof *pins);
}

const rb_node *datawin_element_view(const rb_node *list, size_t index, rb_record_scratch *scratch)
{
    if (!list || index >= rb_element_count(list)) return NULL;
    if (list->kind == RB_K_TABLE) return rb_table_element(list, index, scratch->nodes, scratch->kids);
    return rb_record_view(rb_list_element(list, index), scratch);
}

const rb_node *datawin_doc_chunk(const rb_doc *doc, const char *id, long *index)
{
    const rb_node *chunks = rb_record_member(doc->root, "chunks");
    for (size_t i = 0; chunks && i < rb_element_count(chunks); i++) {
        const rb_node *c = rb_list_element(chunks, i);
        if (rb_node_text_is(rb_record_member(c, "id"), id)) {
            if (index) *index = (long)i;
            return c;
        }
    }
    if (index) *index = -1;
    return NULL;
}
