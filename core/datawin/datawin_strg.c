/*
 * STRG, the string table, and the positions of string references inside opaque chunks.
 * Layout: docs/formats/datawin.md "STRG" (records, +4 bias of references, per-record alignment,
 * 128 tail).
 *
 * Model: "strings" is the list of texts in file order; every reference elsewhere is a link by
 * text (datawin.c, datawin_strref), and the table is a copy the writer derives: a text a reference names
 * and the list lacks is appended on write (derive_strings). The pointer table, record lengths,
 * terminators and alignment are computed on write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/datawin/datawin_internal.h"
#include "core/datawin/datawin.h"

/* READ: does STRG have exactly the canonical layout (so the typed description reproduces it)? */
static int datawin_strg_fits(const uint8_t *data, uint32_t size, uint32_t base, unsigned *record_alignment)
{
    if (size < 4) return 0;
    uint32_t count = datawin_le32(data);
    if (count > (size - 4) / 4) return 0;
    unsigned alignment = 4;
    for (uint32_t i = 0; i < count; i++)
        if (datawin_le32(data + 4 + 4 * i) % 4) alignment = 1;
    uint64_t pos = 4 + 4ull * count; /* relative to the chunk data */
    for (uint32_t i = 0; i < count; i++) {
        uint64_t at = (uint64_t)datawin_le32(data + 4 + 4 * i);
        if (at < base) return 0;
        at -= base;
        uint64_t fill = alignment > 1 ? (alignment - (base + pos) % alignment) % alignment : 0;
        if (at != pos + fill || at + 4 > size) return 0;
        for (uint64_t k = pos; k < at; k++)
            if (data[k]) return 0;
        uint32_t length = datawin_le32(data + at);
        if (length > size - at - 4 || length + at + 4 >= size || data[at + 4 + length]) return 0;
        pos = at + 4 + length + 1;
    }
    *record_alignment = alignment;
    return 1;
}

/* Per string: how many earlier strings have the same text (0 for all in every corpus file).
 * Sorting by text keeps it O(n log n) on string tables of thousands. */
typedef struct text_entry { const uint8_t *text; uint32_t size, index; } text_entry;

static int compare_entries(const void *a, const void *b)
{
    const text_entry *x = a, *y = b;
    int c = memcmp(x->text, y->text, x->size < y->size ? x->size : y->size);
    if (c) return c;
    if (x->size != y->size) return x->size < y->size ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index; /* equal texts in list order */
}

static int count_occurrences(datawin_state *st, const datawin_chunk_span *strg, uint32_t count)
{
    text_entry *entries = malloc((count ? count : 1) * sizeof *entries);
    st->string_occurrence = calloc(count ? count : 1, sizeof *st->string_occurrence);
    if (!entries || !st->string_occurrence) { free(entries); return 0; }
    for (uint32_t i = 0; i < count; i++) {
        uint32_t record = datawin_le32(st->file + strg->data + 4 + 4 * i);
        entries[i] = (text_entry){st->file + record + 4, datawin_le32(st->file + record), i};
    }
    qsort(entries, count, sizeof *entries, compare_entries);
    for (uint32_t i = 1; i < count; i++) {
        const text_entry *x = &entries[i - 1], *y = &entries[i];
        if (x->size == y->size && memcmp(x->text, y->text, x->size) == 0)
            st->string_occurrence[y->index] = st->string_occurrence[x->index] + 1;
    }
    free(entries);
    return 1;
}

int datawin_build_string_map(datawin_state *st, const datawin_chunk_span *strg)
{
    unsigned alignment;
    if (!datawin_strg_fits(st->file + strg->data, strg->size, strg->data, &alignment)) return 0;
    uint32_t count = datawin_le32(st->file + strg->data);
    st->strings.items = malloc((count ? count : 1) * sizeof *st->strings.items);
    if (!st->strings.items) return 0;
    for (uint32_t i = 0; i < count; i++)
        st->strings.items[i] = (datawin_addr){datawin_le32(st->file + strg->data + 4 + 4 * i) + 4, i};
    st->strings.count = count;
    datawin_sort_addr_map(&st->strings);
    return count_occurrences(st, strg, count);
}

/* ---------- WRITE: the texts of STRG, derived from the references ---------- */

static uint64_t hash_text(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static int same_text(const datawin_text *a, const datawin_text *b)
{
    return a->is_text && a->size == b->size && (a->size == 0 || memcmp(a->data, b->data, a->size) == 0);
}

static datawin_text text_of(const rb_node *text) { return (datawin_text){text->v.bytes.data, text->v.bytes.size, 1}; }

/* Where `text` is in the index, or the empty slot where it would go. */
static size_t text_slot(const datawin_state *st, const datawin_text *text)
{
    const datawin_text_index *ix = &st->texts;
    size_t at = (size_t)hash_text(text->data, text->size) & ix->mask;
    while (ix->slots[at] != SIZE_MAX && !same_text(&st->string_texts[ix->slots[at]], text)) at = (at + 1) & ix->mask;
    return at;
}

static void index_string(datawin_state *st, size_t i)
{
    if (!st->string_texts[i].is_text) return;
    size_t at = text_slot(st, &st->string_texts[i]);
    if (st->texts.slots[at] == SIZE_MAX) { /* the first string with this text */
        st->texts.slots[at] = i;
        st->texts.used++;
    }
}

/* The index of strings 0 .. string_count - 1, at least half empty so that probes stay short. */
static int index_strings(datawin_state *st)
{
    size_t cap = 16;
    while (cap < 2 * st->string_count + 2) cap *= 2;
    if (st->texts.slots && st->texts.mask + 1 >= cap) return 1;
    free(st->texts.slots);
    st->texts = (datawin_text_index){malloc(cap * sizeof(size_t)), cap - 1, 0};
    if (!st->texts.slots) return 0;
    for (size_t i = 0; i < cap; i++) st->texts.slots[i] = SIZE_MAX;
    for (size_t i = 0; i < st->string_count; i++) index_string(st, i);
    return 1;
}

long datawin_string_with_text(const datawin_state *st, const rb_node *text, uint64_t occurrence)
{
    if (!st->texts.slots) return -1;
    datawin_text wanted = text_of(text);
    size_t first = st->texts.slots[text_slot(st, &wanted)];
    if (first == SIZE_MAX) return -1;
    uint64_t seen = 0;
    for (size_t i = first; i < st->string_count; i++)
        if (same_text(&st->string_texts[i], &wanted) && seen++ == occurrence) return (long)i;
    return -1;
}

uint64_t datawin_strings_with_text(const datawin_state *st, const rb_node *text)
{
    uint64_t n = 0;
    while (datawin_string_with_text(st, text, n) >= 0) n++;
    return n;
}

void datawin_strg_free(datawin_state *st)
{
    free(st->string_texts);
    free(st->string_address);
    free(st->texts.slots);
    st->string_texts = NULL;
    st->string_address = NULL;
    st->texts = (datawin_text_index){NULL, 0, 0};
    st->string_count = st->string_cap = 0;
}

/* One more string (`is_text` 0: an element that is not a text; writing it fails). */
static int push_string(datawin_state *st, datawin_text text)
{
    if (st->string_count == st->string_cap) {
        datawin_text *grown = datawin_grown(st->string_texts, &st->string_cap, sizeof *grown, 256);
        if (!grown) return 0;
        st->string_texts = grown;
    }
    st->string_texts[st->string_count++] = text;
    if (!index_strings(st)) return 0;
    index_string(st, st->string_count - 1);
    return 1;
}

/* A text a link names and STRG lacks becomes the model's last string (a copy in the document's
 * arena: the link's node may be replaced by a later edit). */
static const rb_node *append_string(rb_ar *ar, rb_node *list, const rb_node *text)
{
    rb_arena *arena = rb_ar_arena(ar);
    rb_node *s = rb_node_new(arena, RB_K_STRING, NULL);
    size_t size = text->v.bytes.size;
    const uint8_t *copy = size ? rb_arena_dup(arena, text->v.bytes.data, size) : (const uint8_t *)"";
    if (!s || !copy || !rb_node_append(arena, list, s)) return NULL;
    s->wire = RB_U32;
    s->v.bytes.data = copy;
    s->v.bytes.size = size;
    return s;
}

/* WRITE: the model's strings, then every text named by a link written so far (every chunk before
 * STRG: all that hold strings, in every GameMaker version) that none of them has, appended in the
 * order the links were written. The strings already there keep their place, so the references to
 * them and an unedited file do not change. A link to a later copy of a text (`occurrence` > 0)
 * adds nothing: it names a copy that is not there (refused when links are resolved). The model
 * gets the appended strings: it then describes what is written, as a deviation the writer drops
 * (rb_ar_drop) does, and a re-read of the output equals it. */
static void derive_strings(rb_ar *ar, datawin_state *st)
{
    datawin_strg_free(st);
    st->strg_at = datawin_abs(ar, st);
    rb_node *list = rb_node_get(rb_ar_current(ar), "strings");
    if (!list || list->kind != RB_K_LIST) return; /* the description says what is wrong */
    int ok = 1;
    for (uint32_t i = 0; i < list->v.kids.count && ok; i++) {
        const rb_node *s = list->v.kids.items[i];
        ok = push_string(st, s->kind == RB_K_STRING ? text_of(s) : (datawin_text){NULL, 0, 0});
    }
    for (size_t k = 0; k < st->fixup_count && ok; k++) {
        const datawin_fixup *f = &st->fixups[k];
        int by_text = f->kind == DATAWIN_LINK_STRING_TEXT || f->kind == DATAWIN_LINK_STRING_INDEX;
        if (!by_text || !f->text || f->index != 0 || datawin_string_with_text(st, f->text, 0) >= 0) continue;
        const rb_node *added = append_string(ar, list, f->text);
        ok = added && push_string(st, text_of(added));
    }
    if (!ok) rb_ar_fail(ar, RB_E_NOMEM, "out of memory for the strings");
}

void datawin_chunk_strg(rb_ar *ar, datawin_state *st)
{
    rb_ar_dir dir = rb_ar_direction(ar);
    unsigned alignment = 4;
    if (dir == RB_AR_READ) datawin_strg_fits(st->file + st->chunk_base, (uint32_t)rb_ar_remaining(ar), (uint32_t)st->chunk_base, &alignment);
    if (dir == RB_AR_WRITE) derive_strings(ar, st);
    alignment = (unsigned)rb_ar_uint_detached(ar, "recordAlignment", RB_U8, alignment);
    if (rb_ar_ok(ar) && alignment != 1 && alignment != 4) {
        rb_ar_fail(ar, RB_E_MODEL, "recordAlignment must be 1 or 4, not %u", alignment);
        return;
    }
    rb_slot count_slot = rb_ar_slot(ar, "stringCount", RB_U32);
    uint64_t count = rb_ar_count_of(ar, "strings", count_slot.value);
    rb_ar_slot_set(ar, &count_slot, count);
    /* bounded before allocating: every string needs at least its 4-byte pointer */
    if (dir == RB_AR_READ && rb_ar_ok(ar) && (count > rb_ar_limits(ar)->max_count || count > rb_ar_remaining(ar) / 4)) {
        rb_ar_fail(ar, RB_E_FORMAT, "string count %llu cannot fit in the %llu bytes left (limit max_count %llu)",
                   (unsigned long long)count, (unsigned long long)rb_ar_remaining(ar),
                   (unsigned long long)rb_ar_limits(ar)->max_count);
        return;
    }
    if (dir == RB_AR_WRITE && rb_ar_ok(ar) && count != st->string_count) {
        rb_ar_fail(ar, RB_E_MODEL, "strings must be a list of texts");
        return;
    }
    rb_slot *table = calloc(count ? (size_t)count : 1, sizeof *table);
    if (!table) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu strings", (unsigned long long)count); return; }
    RB_AR_EACH(ar, i, count) table[i] = rb_ar_slot(ar, "stringPointer", RB_U32);
    if (dir == RB_AR_WRITE) {
        st->string_address = calloc(count ? (size_t)count : 1, sizeof *st->string_address);
        if (!st->string_address) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
    }
    static const uint8_t zeros[4];
    count = rb_ar_list_begin_n(ar, "strings", count, 5);
    RB_AR_EACH(ar, i, count) {
        uint64_t here = datawin_abs(ar, st);
        uint64_t fill = alignment > 1 ? (alignment - here % alignment) % alignment : 0;
        if (dir != RB_AR_FROM_JSON && fill) rb_ar_expect(ar, "record alignment", zeros, (size_t)fill);
        here += fill;
        /* the pointers are derived from where the records are: one that points elsewhere cannot
         * be written back as it was */
        if (dir == RB_AR_READ && table[i].value != here) {
            rb_ar_fail(ar, RB_E_FORMAT, "string %llu: its pointer 0x%llx does not point at its record (0x%llx)",
                       (unsigned long long)i, (unsigned long long)table[i].value, (unsigned long long)here);
            break;
        }
        if (dir == RB_AR_WRITE) {
            rb_ar_slot_set(ar, &table[i], here);
            if (here + 4 > UINT32_MAX) { rb_ar_fail(ar, RB_E_MODEL, "file larger than 4 GiB"); break; }
            st->string_address[i] = (uint32_t)here + 4;
        }
        rb_ar_string(ar, NULL, RB_U32); /* WRITE: string_texts[i], indexed by derive_strings */
        rb_ar_expect(ar, "string terminator", zeros, 1);
    }
    rb_ar_list_end(ar);
    free(table);
    /* the table ends on a 128-byte boundary in every version (docs/formats/datawin.md "Padding") */
    datawin_gap(ar, st, "tail", 128, dir == RB_AR_READ ? st->chunk_base + rb_ar_tell(ar) + rb_ar_remaining(ar) : 0);
}

/* WRITE, STRG kept as its bytes (the deferred model, datawin_defer.c): the string table its
 * nodes would have given, read from those bytes, which a full read checked and which are written
 * where they were read (`at`: the absolute offset of the chunk's data, `data` its `size` bytes).
 * What a link written so far names is in it: an unedited model names nothing STRG lacks. */
void datawin_strg_replay(rb_ar *ar, datawin_state *st, const uint8_t *data, size_t size, uint64_t at)
{
    datawin_strg_free(st);
    st->strg_at = at;
    uint32_t count = size >= 4 ? datawin_le32(data) : 0;
    int ok = size >= 4 && count <= (size - 4) / 4;
    st->string_address = ok ? calloc(count ? count : 1, sizeof *st->string_address) : NULL;
    ok = ok && st->string_address;
    for (uint32_t i = 0; i < count && ok; i++) {
        uint64_t pointer = datawin_le32(data + 4 + 4 * (uint64_t)i), record = pointer - at;
        ok = pointer >= at && record <= size - 4 && datawin_le32(data + record) <= size - 4 - record;
        if (ok) {
            st->string_address[i] = (uint32_t)pointer + 4;
            ok = push_string(st, (datawin_text){data + record + 4, datawin_le32(data + record), 1});
        }
    }
    if (!ok) rb_ar_fail(ar, RB_E_MODEL, "STRG kept as its bytes has no string table a full read would accept");
}

/* ---------- where opaque chunks hold string references ---------- */

typedef struct offsets { uint32_t *items; size_t count, cap; int ok; } offsets;

static void add_offset(offsets *o, uint64_t at)
{
    if (!o->ok) return;
    if (o->count == o->cap) {
        uint32_t *grown = datawin_grown(o->items, &o->cap, sizeof *grown, 64);
        if (!grown) { o->ok = 0; return; }
        o->items = grown;
    }
    o->items[o->count++] = (uint32_t)at;
}

/* A walker's claim "a string reference is here": it must be 0 or land on a string. */
static void claim(const datawin_state *st, const datawin_chunk_span *c, offsets *o, uint64_t at, int required)
{
    if (!o->ok) return;
    if (at + 4 > c->size) { o->ok = 0; return; }
    uint32_t value = datawin_le32(st->file + c->data + at);
    if (value == 0) return;
    if (datawin_string_at(st, value) < 0) { if (required) o->ok = 0; return; }
    add_offset(o, at);
}

/* Offsets of the elements of a pointer list at `at` (relative to the chunk); 0 = a null entry. */
static uint32_t list_count(const datawin_state *st, const datawin_chunk_span *c, offsets *o, uint64_t at)
{
    if (!o->ok || at + 4 > c->size) { o->ok = 0; return 0; }
    uint32_t n = datawin_le32(st->file + c->data + at);
    if (n > (c->size - at - 4) / 4) { o->ok = 0; return 0; }
    return n;
}

static uint64_t element(const datawin_state *st, const datawin_chunk_span *c, offsets *o, uint64_t table, uint32_t i)
{
    uint32_t p = datawin_le32(st->file + c->data + table + 4 + 4ull * i);
    if (p == 0) return 0;
    if (p < c->data || p - c->data >= c->size) { o->ok = 0; return 0; }
    return p - c->data;
}

/* Pointer-list chunks whose elements hold string references at fixed offsets. */
static void walk_fixed(const datawin_state *st, const datawin_chunk_span *c, offsets *o, uint64_t table,
                       const int *required, size_t n_required, const int *optional, size_t n_optional)
{
    uint32_t n = list_count(st, c, o, table);
    for (uint32_t i = 0; i < n && o->ok; i++) {
        uint64_t e = element(st, c, o, table, i);
        if (!e) continue;
        for (size_t k = 0; k < n_required; k++) claim(st, c, o, e + (uint64_t)required[k], 1);
        for (size_t k = 0; k < n_optional; k++)
            if (e + (uint64_t)optional[k] + 4 <= c->size) claim(st, c, o, e + (uint64_t)optional[k], 0);
    }
}

static void walk_simple_strings(const datawin_state *st, const datawin_chunk_span *c, offsets *o, uint64_t at)
{
    uint32_t n = list_count(st, c, o, at);
    for (uint32_t i = 0; i < n && o->ok; i++) claim(st, c, o, at + 4 + 4ull * i, 1);
}

static void walk_func(const datawin_state *st, const datawin_chunk_span *c, offsets *o)
{
    if (c->size == 0) return;
    uint32_t n = list_count(st, c, o, 0);
    if (!o->ok || 4 + 12ull * n > c->size) { o->ok = 0; return; }
    for (uint32_t i = 0; i < n; i++) claim(st, c, o, 4 + 12ull * i, 1);
    uint64_t at = 4 + 12ull * n; /* before 2024.8: the code locals; after, only padding */
    if (at + 4 > c->size) return;
    uint32_t entries = datawin_le32(st->file + c->data + at);
    at += 4;
    for (uint32_t i = 0; i < entries && o->ok; i++) {
        if (at + 8 > c->size) { o->ok = 0; return; }
        uint32_t locals = datawin_le32(st->file + c->data + at);
        claim(st, c, o, at + 4, 1);
        at += 8;
        if (locals > (c->size - at) / 8) { o->ok = 0; return; }
        for (uint32_t k = 0; k < locals; k++) claim(st, c, o, at + 8ull * k + 4, 1);
        at += 8ull * locals;
    }
}

static void walk_vari(const datawin_state *st, const datawin_chunk_span *c, offsets *o)
{
    for (uint64_t at = 12; at + 20 <= c->size && o->ok; at += 20) claim(st, c, o, at, 1);
}

static void walk_lang(const datawin_state *st, const datawin_chunk_span *c, offsets *o)
{
    if (c->size < 12) { o->ok = 0; return; }
    const uint8_t *d = st->file + c->data;
    uint64_t languages = datawin_le32(d + 4), entries = datawin_le32(d + 8);
    if (entries > c->size / 4 || languages > c->size / 8) { o->ok = 0; return; }
    uint64_t at = 12;
    for (uint64_t i = 0; i < entries; i++, at += 4) claim(st, c, o, at, 1);
    for (uint64_t l = 0; l < languages && o->ok; l++)
        for (uint64_t i = 0; i < entries + 2; i++, at += 4) claim(st, c, o, at, 1);
}

static void walk_optn(const datawin_state *st, const datawin_chunk_span *c, offsets *o)
{
    if (c->size < 64 || datawin_le32(st->file + c->data) != 0x80000000u) { o->ok = 0; return; }
    uint32_t n = list_count(st, c, o, 60);
    for (uint32_t i = 0; i < n && o->ok; i++) {
        claim(st, c, o, 64 + 8ull * i, 1);
        claim(st, c, o, 68 + 8ull * i, 1);
    }
}

static void walk_embi(const datawin_state *st, const datawin_chunk_span *c, offsets *o)
{
    uint32_t n = list_count(st, c, o, 4);
    for (uint32_t i = 0; i < n && o->ok; i++) claim(st, c, o, 8 + 8ull * i, 1);
}

static void walk_tags(const datawin_state *st, const datawin_chunk_span *c, offsets *o)
{
    walk_simple_strings(st, c, o, 4);
    if (!o->ok) return;
    uint64_t table = 8 + 4ull * datawin_le32(st->file + c->data + 4);
    uint32_t n = list_count(st, c, o, table);
    for (uint32_t i = 0; i < n && o->ok; i++) {
        uint64_t e = element(st, c, o, table, i);
        if (e) walk_simple_strings(st, c, o, e + 4);
    }
}

/* Shader: name, type, six source strings, two HLSL11 pointers, then the attribute names. */
static void walk_shdr(const datawin_state *st, const datawin_chunk_span *c, offsets *o)
{
    uint32_t n = list_count(st, c, o, 0);
    for (uint32_t i = 0; i < n && o->ok; i++) {
        uint64_t e = element(st, c, o, 0, i);
        if (!e) continue;
        claim(st, c, o, e, 1);
        for (int k = 0; k < 6; k++) claim(st, c, o, e + 8 + 4ull * k, 1);
        walk_simple_strings(st, c, o, e + 40);
    }
}

static void walk_known(const datawin_state *st, const datawin_chunk_span *c, offsets *o)
{
    static const int at0[] = {0}, at0_4[] = {0, 4}, sond[] = {0, 8, 12}, opt4[] = {4}, opt4_8[] = {4, 8},
                     gen8[] = {4, 8, 40, 100};
    const char *id = c->id;
    int modern = st->bytecode >= 15;
    if (!memcmp(id, "SOND", 4)) walk_fixed(st, c, o, 0, sond, 3, NULL, 0);
    else if (!memcmp(id, "AGRP", 4)) walk_fixed(st, c, o, 0, at0, 1, opt4, 1);
    else if (!memcmp(id, "PATH", 4) || !memcmp(id, "SCPT", 4) || !memcmp(id, "BGND", 4))
        walk_fixed(st, c, o, 0, at0, 1, NULL, 0);
    else if (!memcmp(id, "FONT", 4)) walk_fixed(st, c, o, 0, at0_4, 2, NULL, 0);
    else if (!memcmp(id, "CODE", 4) && modern) { if (c->size) walk_fixed(st, c, o, 0, at0, 1, NULL, 0); }
    else if (!memcmp(id, "VARI", 4) && modern) walk_vari(st, c, o);
    else if (!memcmp(id, "FUNC", 4) && modern) walk_func(st, c, o);
    else if (!memcmp(id, "SHDR", 4)) walk_shdr(st, c, o);
    else if (!memcmp(id, "LANG", 4)) walk_lang(st, c, o);
    else if (!memcmp(id, "OPTN", 4)) walk_optn(st, c, o);
    else if (!memcmp(id, "EMBI", 4)) walk_embi(st, c, o);
    else if (!memcmp(id, "FEAT", 4)) walk_simple_strings(st, c, o, 0);
    else if (!memcmp(id, "FEDS", 4)) walk_fixed(st, c, o, 4, at0_4, 2, NULL, 0);
    else if (!memcmp(id, "PSYS", 4)) walk_fixed(st, c, o, 4, at0, 1, NULL, 0);
    else if (!memcmp(id, "TGIN", 4)) walk_fixed(st, c, o, 4, at0, 1, opt4_8, 2);
    else if (!memcmp(id, "TAGS", 4)) walk_tags(st, c, o);
    else if (!memcmp(id, "GEN8", 4)) { for (int k = 0; k < 4; k++) claim(st, c, o, (uint64_t)gen8[k], 1); }
    else if (!memcmp(id, "GLOB", 4) || !memcmp(id, "GMEN", 4) || !memcmp(id, "DAFL", 4) ||
             !memcmp(id, "TPAG", 4) || !memcmp(id, "TXTR", 4) || !memcmp(id, "AUDO", 4)) { /* no strings */ }
    else o->ok = 0;
}

/* Chunks nobody walked yet (SPRT, OBJT, ROOM, EXTN, TMLN, ACRV, SEQN, PSEM, ...): every 4-aligned
 * word equal to a string's first-character address. It can take a number for a reference;
 * the model says so ("strrefsFoundByScan") and the docs list the chunks concerned. */
static void scan(const datawin_state *st, const datawin_chunk_span *c, offsets *o)
{
    for (uint64_t at = (4 - c->data % 4) % 4; at + 4 <= c->size && o->ok; at += 4) {
        uint32_t value = datawin_le32(st->file + c->data + at);
        /* room instance ids run from 100000 to GEN8's LastObj and tile ids from 10000000 to
         * LastTile: in files of that size they collide with string addresses (measured: ROOM of
         * a 120 KB file), so numbers in those ranges are not taken for references */
        if ((value >= 100000 && value <= st->last_object) || (value >= 10000000 && value <= st->last_tile)) continue;
        if (datawin_string_at(st, value) >= 0) add_offset(o, at);
    }
}

int datawin_find_strrefs(const datawin_state *st, const datawin_chunk_span *chunk, uint32_t **out, size_t *count)
{
    offsets o = {NULL, 0, 0, 1};
    walk_known(st, chunk, &o);
    int walked = o.ok;
    if (!o.ok) {
        free(o.items);
        o = (offsets){NULL, 0, 0, 1};
        scan(st, chunk, &o);
    }
    if (o.ok && o.count) {
        qsort(o.items, o.count, sizeof *o.items, datawin_compare_u32);
        size_t unique = 1; /* shared sub-structures can be claimed twice */
        for (size_t i = 1; i < o.count; i++)
            if (o.items[i] != o.items[unique - 1]) o.items[unique++] = o.items[i];
        o.count = unique;
    }
    *out = o.ok ? o.items : NULL;
    *count = o.ok ? o.count : 0;
    if (!o.ok) free(o.items);
    return walked;
}

json_t *datawin_written_lists(const rb_doc *doc)
{
    const rb_node *chunks = rb_node_get(doc->root, "chunks");
    for (size_t i = 0; chunks && chunks->kind == RB_K_LIST && i < chunks->v.kids.count; i++) {
        const rb_node *chunk = chunks->v.kids.items[i];
        if (chunk->kind != RB_K_RECORD || !rb_node_text_equals(rb_node_get(chunk, "id"), "STRG", 4)) continue;
        if (!rb_node_get(chunk, "strings")) return NULL; /* kept opaque: nothing is appended */
        char path[48];
        snprintf(path, sizeof path, "/chunks/%zu/strings", i);
        return json_pack("[s]", path);
    }
    return NULL;
}
