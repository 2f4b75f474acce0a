/*
 * The GRF value table (docs/formats/tres.md "Value table"): the exporter's serialised table
 * of per-object properties (class, physics, AI, sound, trigger parameters), the last section of
 * a level. A symbol table of names, then typed value records; group records list the values of
 * one object, and a `.region` instance points at its group by the group's value id.
 *
 * Model: `tableName`, `symbolsHandle`, `symbolTableName`, `symbols[]` {`text`, `count`},
 * `valuesHandle`, `values[]` {`id`, `idCount`, `scope`, `refStatus`, `name` (the symbol's text)
 * or `nameId`, `nameCount`, `target`, one of `bool`/`char`/`int`/`float`/`string`/`group`,
 * [`storedKey`]}. Derived: the type byte (from the payload key), symbol ids (their index),
 * both list counts, the record's key (its own handle) and a name's symbol id (from the text).
 */
#include <stdlib.h>
#include <string.h>
#include "core/tres/groff_parts.h"

enum { VT_BOOL = 1, VT_CHAR = 2, VT_INT = 3, VT_FLOAT = 4, VT_STRING = 5, VT_GROUP = 6 };

static const char *const VALUE_KEYS[] = {NULL, "bool", "char", "int", "float", "string", "group"};

static const rb_layout_field HANDLE_FIELDS[] = {{"id", RB_K_INT, RB_U32}, {"count", RB_K_INT, RB_U32}};
static const rb_layout HANDLE = {"value handle", HANDLE_FIELDS, 2};

/* The exporter's object-handle header of a list: class name, base, the list's length (derived;
 * a differing stored one is kept), count and the in-use byte. */
static void object_handle(rb_ar *ar, const char *key, rb_slot *length_slot)
{
    rb_ar_record_begin(ar, key);
    rb_ar_cstring(ar, "className");
    rb_ar_u32(ar, "base");
    *length_slot = rb_ar_slot(ar, "list length", RB_U32);
    rb_ar_u32(ar, "count");
    rb_ar_u8(ar, "inUse");
    rb_ar_record_end(ar);
}

/* A derived u32 whose stored value differs from the computed one: kept as `key`. */
static void derived_u32(rb_ar *ar, const char *key, rb_slot *slot, uint64_t computed)
{
    uint64_t value = computed;
    if (rb_ar_has(ar, key, slot->value != computed)) value = rb_ar_uint_detached(ar, key, RB_U32, slot->value);
    rb_ar_slot_set(ar, slot, value);
}

typedef struct vt_name {
    const uint8_t *text; /* READ: into the input; WRITE: the model's */
    size_t size;
    size_t index;
} vt_name;

typedef struct vt_symbols {
    vt_name *by_index;
    vt_name *by_text; /* sorted by text, for the names of records */
    int *unique;      /* by index: is the text this symbol's alone? */
    size_t count;
} vt_symbols;

static int name_compare(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

static int by_text(const void *a, const void *b)
{
    const vt_name *x = a, *y = b;
    return name_compare(x->text, x->size, y->text, y->size);
}

static void symbol_table(rb_ar *ar, vt_symbols *syms)
{
    rb_slot next = {0};
    object_handle(ar, "symbolsHandle", &next);
    rb_ar_cstring(ar, "symbolTableName");
    rb_slot count = rb_ar_slot(ar, "symbol count", RB_U32);
    uint64_t n = rb_ar_list_begin_n(ar, "symbols", rb_ar_count_of(ar, "symbols", count.value), 9);
    syms->by_index = calloc(n + 1, sizeof *syms->by_index);
    syms->by_text = calloc(n + 1, sizeof *syms->by_text);
    syms->unique = calloc(n + 1, sizeof *syms->unique);
    if (!syms->by_index || !syms->by_text || !syms->unique) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu value-table symbols", (unsigned long long)n);
        return;
    }
    RB_AR_RECORDS(ar, i, n) {
        const rb_node *text = rb_ar_cstring(ar, "text");
        /* the symbol's handle: its index, with a reference count */
        rb_slot id = rb_ar_slot(ar, "symbol id", RB_U32);
        if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_ok(ar) && id.value != i)
            rb_ar_fail(ar, RB_E_UNSUPPORTED, "symbol %llu has id %llu (ids other than the index are not typed)",
                       (unsigned long long)i, (unsigned long long)id.value);
        rb_ar_slot_set(ar, &id, i);
        rb_ar_u32(ar, "count");
        if (text) {
            syms->by_index[i] = (vt_name){text->v.bytes.data, text->v.bytes.size, i};
            syms->count = i + 1;
        }
    }
    rb_ar_slot_set(ar, &count, syms->count);
    derived_u32(ar, "storedSymbolsLength", &next, syms->count);
    /* a text shared by two symbols cannot stand for one of them: those names stay ids */
    memcpy(syms->by_text, syms->by_index, syms->count * sizeof *syms->by_text);
    qsort(syms->by_text, syms->count, sizeof *syms->by_text, by_text);
    for (size_t k = 0; k < syms->count; k++) {
        int same_prev = k > 0 && by_text(&syms->by_text[k - 1], &syms->by_text[k]) == 0;
        int same_next = k + 1 < syms->count && by_text(&syms->by_text[k + 1], &syms->by_text[k]) == 0;
        syms->unique[syms->by_text[k].index] = !same_prev && !same_next;
    }
}

/* The symbol id of a text that names one symbol alone, or -1. */
static int64_t symbol_by_text(const vt_symbols *syms, const uint8_t *text, size_t size)
{
    vt_name key = {text, size, 0};
    const vt_name *hit = bsearch(&key, syms->by_text, syms->count, sizeof key, by_text);
    return hit && syms->unique[hit->index] ? (int64_t)hit->index : -1;
}

/* A record's name: the text of its symbol where that text names one symbol alone, else the id. */
static void record_name(rb_ar *ar, const vt_symbols *syms)
{
    rb_ar_dir dir = rb_ar_direction(ar);
    rb_slot id = rb_ar_slot(ar, "name symbol id", RB_U32);
    int as_text = dir == RB_AR_READ ? id.value < syms->count && syms->unique[id.value] : !rb_ar_has(ar, "nameId", 0);
    if (!as_text) {
        rb_ar_slot_set(ar, &id, rb_ar_uint_detached(ar, "nameId", RB_U32, id.value));
    } else {
        const rb_node *text = rb_ar_string_detached(ar, "name", dir == RB_AR_READ ? syms->by_index[id.value].text : NULL,
                                                    dir == RB_AR_READ ? syms->by_index[id.value].size : 0);
        if (dir == RB_AR_WRITE && text) {
            int64_t found = symbol_by_text(syms, text->v.bytes.data, text->v.bytes.size);
            if (found < 0)
                rb_ar_fail(ar, RB_E_MODEL, "name \"%.*s\" is not one symbol of the value table (add it to "
                           "symbols, or give nameId)", (int)(text->v.bytes.size > 80 ? 80 : text->v.bytes.size),
                           (const char *)text->v.bytes.data);
            else rb_ar_slot_set(ar, &id, (uint64_t)found);
        }
    }
    rb_ar_u32(ar, "nameCount");
}

static int payload_type(rb_ar *ar, unsigned read_type)
{
    if (rb_ar_direction(ar) == RB_AR_READ) return (int)read_type;
    for (int t = VT_BOOL; t <= VT_GROUP; t++)
        if (rb_ar_has(ar, VALUE_KEYS[t], 0)) return t;
    return 0;
}

static void value_record(rb_ar *ar, const vt_symbols *syms)
{
    rb_ar_record_begin(ar, NULL);
    rb_slot type_slot = rb_ar_slot(ar, "value type", RB_U8);
    int type = payload_type(ar, (unsigned)type_slot.value);
    if (type < VT_BOOL || type > VT_GROUP) {
        rb_ar_fail(ar, RB_E_FORMAT, "value type %d (known: 1 bool .. 6 group)", type);
        rb_ar_record_end(ar);
        return;
    }
    rb_ar_slot_set(ar, &type_slot, (uint64_t)type);
    rb_ar_u8(ar, "scope");
    rb_ar_u8(ar, "refStatus");
    uint32_t id = rb_ar_u32(ar, "id");
    uint32_t id_count = rb_ar_u32(ar, "idCount");
    record_name(ar, syms);
    rb_ar_layout_record(ar, "target", &HANDLE);
    const char *key = VALUE_KEYS[type];
    switch (type) {
    case VT_BOOL: rb_ar_bool(ar, key, 1); break;
    case VT_CHAR: rb_ar_u8(ar, key); break;
    case VT_INT: rb_ar_i32(ar, key); break;
    case VT_FLOAT: rb_ar_f32(ar, key); break;
    case VT_STRING: rb_ar_cstring(ar, key); break;
    case VT_GROUP: rb_ar_table(ar, key, RB_U32, &HANDLE); break;
    }
    /* the record ends with its key, which is its own handle */
    rb_slot key_id = rb_ar_slot(ar, "key id", RB_U32), key_count = rb_ar_slot(ar, "key count", RB_U32);
    int stale = key_id.value != id || key_count.value != id_count;
    if (rb_ar_has(ar, "storedKey", rb_ar_direction(ar) == RB_AR_READ && stale)) {
        rb_ar_record_begin(ar, "storedKey");
        id = (uint32_t)rb_ar_uint_detached(ar, "id", RB_U32, key_id.value);
        id_count = (uint32_t)rb_ar_uint_detached(ar, "count", RB_U32, key_count.value);
        rb_ar_record_end(ar);
    }
    rb_ar_slot_set(ar, &key_id, id);
    rb_ar_slot_set(ar, &key_count, id_count);
    rb_ar_record_end(ar);
}

void groff_value_table(rb_ar *ar, uint64_t size)
{
    vt_symbols syms = {0};
    rb_ar_cstring(ar, "tableName");
    symbol_table(ar, &syms);
    rb_slot next = {0};
    object_handle(ar, "valuesHandle", &next);
    rb_slot count = rb_ar_slot(ar, "value count", RB_U32);
    uint64_t n = rb_ar_list_begin_n(ar, "values", rb_ar_count_of(ar, "values", count.value), 28);
    uint64_t done = 0;
    for (; done < n && rb_ar_ok(ar); done++) value_record(ar, &syms);
    rb_ar_list_end(ar);
    rb_ar_slot_set(ar, &count, done);
    derived_u32(ar, "storedValuesLength", &next, done);
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_READ && !rb_ar_at_end(ar))
        rb_ar_fail(ar, RB_E_FORMAT, "%llu bytes after the last value", (unsigned long long)rb_ar_remaining(ar));
    free(syms.by_index);
    free(syms.by_text);
    free(syms.unique);
}
