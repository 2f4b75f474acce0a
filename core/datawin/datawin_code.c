/*
 * CODE, VARI and FUNC: the compiled scripts and the variable and function tables that point into
 * them. Layouts: docs/formats/datawin.md "CODE", "VARI", "FUNC", "Bytecode instructions",
 * "Occurrence chains".
 *
 * CODE (bytecode >= 15) is a pointer table, then the bytecode of every root entry concatenated in
 * entry order, then the 20-byte entry headers. A header's bytecode address is relative to the field
 * itself; child entries (functions declared inside a 2.3+ script) share their parent's bytecode and
 * start `offset` bytes into it. The model keeps, per entry, its name, locals and arguments, and
 * either its bytecode (a blob) or the parent entry it runs inside ("parent" + "offset"): lengths,
 * addresses and the pointer table are derived. Bytecode <= 14: a pointer list of {name, length,
 * inline bytecode}.
 *
 * Bytecode holds STRG *indices* in push.s operands (docs/formats/datawin.md "STRG"): a root entry
 * lists them as links by text, "stringOperands" [{"at": offset in its bytecode, "string": text}],
 * with the operand words zero in the model's blob, so the model does not change when strings are
 * inserted; writing puts the text's new index there (DATAWIN_LINK_STRING_INDEX).
 *
 * Occurrence chains are derived, so bytecode may change length. Every operand that names a
 * variable or function is, in the model, an element of its root's "variableReferences" [{"at":
 * offset, "variable": VARI index}] or "functionReferences" [{"at": offset, "function": FUNC index}]
 * (tables: packed, 8 bytes each), with the operand's low 27 bits
 * (the chain delta) zero in the blob and its high 5 bits (the reference type) kept; a chain's last
 * operand keeps its high byte and has its low 24 bits (the name's STRG index) zero. Writing, like
 * UMT, links each entity's references in file order (root entries in CODE-list order): every
 * operand gets the distance to the next one, the last gets the STRG index of the entity's name
 * (resolved from VARI/FUNC's name once STRG is laid out), and VARI/FUNC get the count and the first
 * address, derived, not in the model (when VARI or FUNC is kept opaque, its chains' ends keep
 * their raw index in the blobs: datawin_code_chunk_opaque). Reading follows the stored chains from the
 * raw VARI/FUNC records and fails (CODE kept opaque, with a note) on anything recomputation would
 * not give back: a blob that does not walk (instruction sizes: docs/formats/datawin.md
 * "Bytecode instructions"), a chain that does not end on its name's index (or ends on a text STRG
 * repeats), an operand on two chains, first addresses that mix the operand and instruction rules,
 * an unused entry with a count or first address, bytecode <= 14 (not walked).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/datawin/datawin_internal.h"
#include "core/datawin/datawin_asm.h"

/* Where each code entry's bytecode is: READ in the input, WRITE in the output (and, for
 * messages, the entry's name). */
typedef struct code_span { uint32_t at, size; int is_root; const rb_node *name; } code_span;

/* What bytecode names: a VARI variable or a FUNC function, by index in its list. */
enum { ENTITY_VARIABLE, ENTITY_FUNCTION, ENTITY_KINDS };

/* The occurrences of one entity: READ found in the input's chains, WRITE laid out in the output. */
typedef struct entity_occurrences {
    uint32_t kind, entity, count;
    uint32_t first;       /* absolute address of the first occurrence's operand */
    uint32_t last;        /* absolute address of the last occurrence's operand */
} entity_occurrences;

/* READ: a chain end's index bits, zeroed in the model's blob (`word`), put back if the VARI/FUNC
 * chunk that names the entity is kept opaque: its raw record then still points at this chain. */
typedef struct raw_end { uint8_t *word; uint32_t index, kind; } raw_end;

struct datawin_code_map {
    code_span *spans;
    size_t count;
    entity_occurrences *named;  /* sorted by kind, then entity */
    size_t named_count, named_cap;
    raw_end *raw_ends;
    size_t raw_end_count, raw_end_cap;
    /* READ: whether the first addresses name the operand (1) or the instruction (0): -1 unseen */
    int first_is_operand[ENTITY_KINDS];
};

void datawin_code_free(datawin_state *st)
{
    if (!st->code) return;
    free(st->code->spans);
    free(st->code->named);
    free(st->code->raw_ends);
    free(st->code);
    st->code = NULL;
}

static int code_map_reset(rb_ar *ar, datawin_state *st, uint64_t count)
{
    datawin_code_free(st);
    st->code = calloc(1, sizeof *st->code);
    if (st->code) st->code->spans = calloc(count ? (size_t)count : 1, sizeof *st->code->spans);
    if (!st->code || !st->code->spans) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu code entries", (unsigned long long)count);
        datawin_code_free(st);
        return 0;
    }
    st->code->count = (size_t)count;
    for (int kind = 0; kind < ENTITY_KINDS; kind++) st->code->first_is_operand[kind] = -1;
    return 1;
}

static entity_occurrences *add_named(rb_ar *ar, struct datawin_code_map *m)
{
    if (m->named_count == m->named_cap) {
        entity_occurrences *grown = datawin_grown(m->named, &m->named_cap, sizeof *grown, 64);
        if (!grown) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return NULL; }
        m->named = grown;
    }
    entity_occurrences *o = &m->named[m->named_count++];
    memset(o, 0, sizeof *o);
    return o;
}

/* The occurrences of entity `index` of `kind`, or NULL when bytecode never names it. */
static const entity_occurrences *find_named(const datawin_state *st, uint32_t kind, uint64_t index)
{
    const struct datawin_code_map *m = st->code;
    size_t lo = 0, hi = m ? m->named_count : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const entity_occurrences *o = &m->named[mid];
        if (o->kind < kind || (o->kind == kind && o->entity < index)) lo = mid + 1;
        else if (o->kind == kind && o->entity == index) return o;
        else hi = mid;
    }
    return NULL;
}

/* VARI or FUNC kept opaque (docs/formats/datawin.md "Pointers"): their raw records hold the
 * counts and first addresses of the chains as stored, so those chains must be written as stored,
 * ends included: the model's blobs get the ends' raw STRG indices back (an edit that moves CODE is
 * refused: the opaque chunk is pinned where it was laid out). */
void datawin_code_chunk_opaque(datawin_state *st, const char *id)
{
    uint32_t kind = memcmp(id, "VARI", 4) == 0 ? ENTITY_VARIABLE : memcmp(id, "FUNC", 4) == 0 ? ENTITY_FUNCTION : 2;
    for (size_t k = 0; st->code && kind < ENTITY_KINDS && k < st->code->raw_end_count; k++) {
        const raw_end *r = &st->code->raw_ends[k];
        if (r->kind != kind) continue;
        r->word[0] = (uint8_t)r->index;
        r->word[1] = (uint8_t)(r->index >> 8);
        r->word[2] = (uint8_t)(r->index >> 16);
    }
}

static void raw_end_add(rb_ar *ar, struct datawin_code_map *m, raw_end r)
{
    if (m->raw_end_count == m->raw_end_cap) {
        raw_end *grown = datawin_grown(m->raw_ends, &m->raw_end_cap, sizeof *grown, 64);
        if (!grown) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
        m->raw_ends = grown;
    }
    m->raw_ends[m->raw_end_count++] = r;
}

/* ---------- CODE kept as its bytes (the deferred model: datawin_defer.c) ---------- */

const void *datawin_code_occurrences(const datawin_state *st, size_t *count, size_t *size)
{
    *count = st->code ? st->code->named_count : 0;
    *size = *count * sizeof(entity_occurrences);
    return *count ? st->code->named : NULL;
}

void datawin_code_let_go_of_nodes(datawin_state *st)
{
    if (!st->code) return;
    for (size_t i = 0; i < st->code->count; i++) st->code->spans[i].name = NULL;
    /* the chain ends pointed into the blobs' copies, gone with the nodes; the bytes kept hold the
     * raw ends an opaque VARI or FUNC needs */
    st->code->raw_end_count = 0;
}

void datawin_code_replay(rb_ar *ar, datawin_state *st, const void *occurrences, size_t count)
{
    if (!code_map_reset(ar, st, 0)) return;
    RB_AR_EACH(ar, k, count) {
        entity_occurrences *o = add_named(ar, st->code);
        if (o) memcpy(o, (const entity_occurrences *)occurrences + k, sizeof *o);
    }
}

/* DATAWIN_LINK_CODE (no longer made here: first occurrences are derived) */
int datawin_code_link_address(rb_ar *ar, const datawin_state *st, uint64_t link, uint64_t *address)
{
    uint64_t entry = link >> 32, offset = link & 0xFFFFFFFFu;
    if (!st->code) {
        rb_ar_fail(ar, RB_E_MODEL, "a first occurrence names code entry %llu, but the file has no typed CODE chunk",
                   (unsigned long long)entry);
        return 0;
    }
    if (entry >= st->code->count || offset >= st->code->spans[entry].size) {
        rb_ar_fail(ar, RB_E_MODEL, "first occurrence {entry %llu, offset %llu} is not inside a code entry's bytecode",
                   (unsigned long long)entry, (unsigned long long)offset);
        return 0;
    }
    *address = st->code->spans[entry].at + offset;
    return 1;
}

/* ---------- CODE, bytecode >= 15 ---------- */

/* One entry as the model and the header know it. */
typedef struct code_entry {
    const rb_node *name;
    uint32_t name_address;  /* READ */
    uint64_t locals, arguments;
    uint64_t parent;        /* the entry's own index when it has its bytecode */
    uint64_t offset;
    int64_t blob;           /* READ: absolute address of the bytecode */
    uint32_t length;
} code_entry;

/* ---------- the walk: string operands and references ---------- */
/* docs/formats/datawin.md "Bytecode instructions" */

/* A push.s operand: the word at `at` holds STRG index `index`. */
typedef struct string_site { uint32_t at, index; } string_site;
typedef struct site_list { string_site *items; size_t count, cap, next; } site_list;

/* An operand that names a variable or function: absolute address (READ: input, WRITE:
 * output), what it names, and the bits of its word that are not derived: READ whether it ends its
 * chain (then only the low 24 bits are: CHAIN_END_KEPT), WRITE the model's whole word. */
typedef struct reference { uint32_t at, kind, entity, kept; } reference;
typedef struct reference_list { reference *items; size_t count, cap, next; } reference_list;

/* What the walk learned, for every root blob (READ: they are contiguous from `start`). */
typedef struct code_sites {
    uint64_t start, end;
    uint8_t *word;       /* READ: per 4-byte word from `start`: WORD_* flags */
    site_list operands;  /* READ: push.s, by address */
    reference_list references; /* READ: by address; WRITE: collected from the model */
} code_sites;

enum { WORD_INSTRUCTION = 1, WORD_REFERENCE = 2, WORD_STRING = 4 };
/* A reference operand: low 27 bits the distance to the next occurrence, high 5 the reference type;
 * the last occurrence holds the name's STRG index in the low 24 bits instead
 * (docs/formats/datawin.md "Occurrence chains"). */
#define REFERENCE_DELTA 0x07FFFFFFu
#define CHAIN_END_KEPT 0xFF000000u

static void code_sites_free(code_sites *c)
{
    free(c->word);
    free(c->operands.items);
    free(c->references.items);
}

static int site_add(site_list *l, uint32_t at, uint32_t index)
{
    if (l->count == l->cap) {
        string_site *grown = datawin_grown(l->items, &l->cap, sizeof *grown, 64);
        if (!grown) return 0;
        l->items = grown;
    }
    l->items[l->count++] = (string_site){at, index};
    return 1;
}

static void reference_add(rb_ar *ar, reference_list *l, reference r)
{
    if (l->count == l->cap) {
        reference *grown = datawin_grown(l->items, &l->cap, sizeof *grown, 256);
        if (!grown) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
        l->items = grown;
    }
    l->items[l->count++] = r;
}

/* Walk one root blob of `length` bytes at `p`, marking in `flags` (a byte per word) its instruction
 * words, the operands that may be references and the push.s operands. It must end exactly on an
 * instruction boundary; `address` (absolute) is for the message. */
static void walk_blob(rb_ar *ar, const uint8_t *p, uint32_t length, uint64_t address, uint8_t *flags)
{
    uint32_t pos = 0;
    while (pos < length && rb_ar_ok(ar)) {
        uint32_t word = length - pos >= 4 ? datawin_le32(p + pos) : 0;
        int extra = length - pos >= 4 ? datawin_operand_words(word) : -1;
        if (extra < 0 || (uint64_t)length - pos < 4 + 4 * (uint64_t)extra) {
            rb_ar_fail(ar, RB_E_FORMAT,
                       "bytecode at 0x%llx: instruction 0x%08x does not walk "
                       "(docs/formats/datawin.md \"Bytecode instructions\")",
                       (unsigned long long)(address + pos), word);
            return;
        }
        flags[pos / 4] |= WORD_INSTRUCTION;
        if (extra && datawin_operand_may_be_reference(word)) flags[pos / 4 + 1] |= WORD_REFERENCE;
        if (datawin_is_push(word >> 24) && (word >> 16 & 0xF) == DW_TYPE_STRING) flags[pos / 4 + 1] |= WORD_STRING;
        pos += 4 + 4 * (uint32_t)extra;
    }
}

static int is_reference_operand(const code_sites *c, uint64_t at)
{
    return at >= c->start && at < c->end && (at - c->start) % 4 == 0 && (c->word[(at - c->start) / 4] & WORD_REFERENCE);
}

/* READ: the first addresses of one kind must all follow one rule (the instruction, or for 2.3+
 * functions the operand: docs/formats/datawin.md "FUNC"), kept in the model to write them back. */
static void note_first_rule(rb_ar *ar, datawin_state *st, uint32_t kind, int is_operand, uint32_t first)
{
    int *rule = &st->code->first_is_operand[kind];
    if (*rule >= 0 && *rule != is_operand)
        rb_ar_fail(ar, RB_E_FORMAT, "%s first occurrence 0x%x names the %s, earlier ones the %s",
                   kind == ENTITY_VARIABLE ? "variable" : "function", first, is_operand ? "operand" : "instruction",
                   is_operand ? "instruction" : "operand");
    *rule = is_operand;
}

/* READ: the last occurrence must hold the STRG index of the entity's name in its low 24 bits; its
 * high byte is kept (pushref ends, 2023.8+, hold 5 in bits 24-26 [held-out file]). */
static void check_chain_end(rb_ar *ar, const datawin_state *st, uint64_t at, const uint8_t *record, const char *what)
{
    uint32_t word = datawin_le32(st->file + at), index = word & ~CHAIN_END_KEPT;
    long name = datawin_string_at(st, datawin_le32(record));
    if (name < 0 || (uint32_t)name != index)
        rb_ar_fail(ar, RB_E_FORMAT, "%s chain ends at 0x%llx on string %u, not on the name's index %ld", what,
                   (unsigned long long)at, index, name);
    else if (st->string_occurrence[name])
        /* VARI/FUNC name their string by text alone: the end's index could not be told apart */
        rb_ar_fail(ar, RB_E_FORMAT, "%s chain ends on a repeated text (string %ld)", what, name);
}

/* READ: follow one VARI/FUNC entry's occurrence chain from its first address (the
 * instruction's or, FUNC 2.3+, its operand's), recording each operand as a reference. */
static void follow_chain(rb_ar *ar, datawin_state *st, code_sites *c, const uint8_t *record, int32_t count,
                         uint32_t first, uint32_t kind, uint32_t entity)
{
    const char *what = kind == ENTITY_VARIABLE ? "variable" : "function";
    uint64_t at = is_reference_operand(c, first) ? first : (uint64_t)first + 4;
    note_first_rule(ar, st, kind, at == first, first);
    entity_occurrences *o = rb_ar_ok(ar) ? add_named(ar, st->code) : NULL;
    if (!o) return;
    *o = (entity_occurrences){kind, entity, (uint32_t)count, (uint32_t)at, 0};
    for (int32_t k = 0; rb_ar_ok(ar); k++) {
        if (!is_reference_operand(c, at)) {
            rb_ar_fail(ar, RB_E_FORMAT, "%s at 0x%x: occurrence %d at 0x%llx is not a variable or function operand",
                       what, first, k, (unsigned long long)at);
            return;
        }
        int is_end = k + 1 == count;
        uint32_t kept = is_end ? CHAIN_END_KEPT : ~REFERENCE_DELTA;
        reference_add(ar, &c->references, (reference){(uint32_t)at, kind, entity, kept});
        if (is_end) break;
        uint32_t delta = datawin_le32(st->file + at) & REFERENCE_DELTA;
        if (!delta) {
            rb_ar_fail(ar, RB_E_FORMAT, "%s at 0x%x: occurrence chain loops at 0x%llx", what, first, (unsigned long long)at);
            return;
        }
        at += delta;
    }
    o->last = (uint32_t)at; /* what a write gives too: a CODE kept as its bytes replays it */
    if (rb_ar_ok(ar)) check_chain_end(ar, st, at, record, what);
}

/* READ: an entry that is not followed (no occurrences) must say so: count 0, first address -1. */
static void check_unused(rb_ar *ar, int32_t count, uint32_t first, uint32_t entity, const char *what)
{
    if (count != 0 || first != 0xFFFFFFFFu)
        rb_ar_fail(ar, RB_E_FORMAT, "%s %u: %d occurrences, first at 0x%x: not what recomputing gives", what, entity,
                   count, first);
}

/* READ: the chains of every VARI (20-byte records after 3 counts) and FUNC (counted 12-byte
 * records) entry, in kind then index order. */
static void follow_chains(rb_ar *ar, datawin_state *st, code_sites *c)
{
    const datawin_chunk_span *vari = datawin_find_chunk(st, "VARI"), *func = datawin_find_chunk(st, "FUNC");
    uint32_t k = 0;
    for (uint32_t off = 12; vari && vari->size >= 12 && off + 20 <= vari->size && rb_ar_ok(ar); off += 20, k++) {
        const uint8_t *r = st->file + vari->data + off;
        int32_t count = (int32_t)datawin_le32(r + 12);
        if (count > 0) follow_chain(ar, st, c, r, count, datawin_le32(r + 16), ENTITY_VARIABLE, k);
        else check_unused(ar, count, datawin_le32(r + 16), k, "variable");
    }
    uint32_t functions = func && func->size >= 4 ? datawin_le32(st->file + func->data) : 0;
    if (func && functions > (func->size - 4) / 12) {
        rb_ar_fail(ar, RB_E_FORMAT, "FUNC counts %u functions that do not fit", functions);
        return;
    }
    for (k = 0; k < functions && rb_ar_ok(ar); k++) {
        const uint8_t *r = st->file + func->data + 4 + 12 * (uint64_t)k;
        int32_t count = (int32_t)datawin_le32(r + 4);
        if (count > 0) follow_chain(ar, st, c, r, count, datawin_le32(r + 8), ENTITY_FUNCTION, k);
        else check_unused(ar, count, datawin_le32(r + 8), k, "function");
    }
}

static int compare_reference_at(const void *a, const void *b)
{
    uint32_t x = ((const reference *)a)->at, y = ((const reference *)b)->at;
    return x < y ? -1 : x > y;
}

/* Stable LSD radix sort by `at`, a byte at a time, skipping bytes all references share: READ
 * collects references chain by chain, tens of thousands of them in runs all over the code, where
 * qsort was 5% of reading a data.win. 0 when out of memory (then nothing moved). */
static int radix_sort_references(reference *items, size_t count)
{
    reference *spare = malloc(count * sizeof *spare);
    if (!spare) return 0;
    reference *from = items, *to = spare;
    for (unsigned shift = 0; shift < 32; shift += 8) {
        size_t start[257] = {0};
        for (size_t i = 0; i < count; i++) start[(from[i].at >> shift & 0xFF) + 1]++;
        if (start[(from[0].at >> shift & 0xFF) + 1] == count) continue; /* one value: order kept */
        for (int d = 0; d < 256; d++) start[d + 1] += start[d];
        for (size_t i = 0; i < count; i++) to[start[from[i].at >> shift & 0xFF]++] = from[i];
        reference *t = from;
        from = to;
        to = t;
    }
    if (from != items) memcpy(items, from, count * sizeof *items);
    free(spare);
    return 1;
}

/* The references in file order; an operand on two chains could not be written back. */
static void sort_references(rb_ar *ar, reference_list *l)
{
    size_t ordered = 1;
    while (ordered < l->count && l->items[ordered - 1].at <= l->items[ordered].at) ordered++;
    /* usually already in file order (blobs are walked and written in address order) */
    if (ordered < l->count && !radix_sort_references(l->items, l->count))
        qsort(l->items, l->count, sizeof *l->items, compare_reference_at);
    for (size_t k = 1; k < l->count && rb_ar_ok(ar); k++)
        if (l->items[k].at == l->items[k - 1].at)
            rb_ar_fail(ar, RB_E_FORMAT, "the operand at 0x%x is an occurrence of two entities", l->items[k].at);
}

/* READ: the push.s operands, in address order, from the walk's flags. */
static void collect_string_operands(rb_ar *ar, const datawin_state *st, code_sites *c)
{
    RB_AR_EACH(ar, w, (c->end - c->start) / 4) {
        if (!(c->word[w] & WORD_STRING)) continue;
        uint64_t at = c->start + 4 * w;
        uint32_t index = datawin_le32(st->file + at);
        if (index >= st->strings.count)
            rb_ar_fail(ar, RB_E_FORMAT, "push.s operand at 0x%llx names string %u, but STRG has %zu",
                       (unsigned long long)at, index, st->strings.count);
        else if (!site_add(&c->operands, (uint32_t)at, index))
            rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
    }
}

/* READ: every string operand and reference of the root blobs (which run from `start` to `end`, in
 * entry order). A blob that does not walk fails the CODE read: the chunk is then kept opaque and
 * says why, rather than typed with raw indices that would silently go stale when STRG changes. */
static void find_sites(rb_ar *ar, datawin_state *st, const code_entry *e, uint64_t count, code_sites *c)
{
    c->word = calloc((size_t)((c->end - c->start) / 4 + 1), 1);
    if (!c->word) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    RB_AR_EACH(ar, i, count)
        if (e[i].parent == i)
            walk_blob(ar, st->file + e[i].blob, e[i].length, (uint64_t)e[i].blob,
                      c->word + ((uint64_t)e[i].blob - c->start) / 4);
    if (rb_ar_ok(ar)) collect_string_operands(ar, st, c);
    if (rb_ar_ok(ar)) follow_chains(ar, st, c);
    if (rb_ar_ok(ar)) sort_references(ar, &c->references);
}

void datawin_code_where(const datawin_state *st, uint64_t position, char *out, size_t size)
{
    out[0] = 0;
    for (size_t i = 0; st->code && i < st->code->count; i++) {
        const code_span *s = &st->code->spans[i];
        if (!s->is_root || position < s->at || position - s->at >= s->size) continue;
        /* an operand is the word after its instruction's first */
        uint64_t operand = position - s->at, instruction = operand >= 4 ? operand - 4 : 0;
        char name[160] = "";
        if (s->name)
            snprintf(name, sizeof name, "\"%.*s\" ", (int)(s->name->v.bytes.size > 120 ? 120 : s->name->v.bytes.size),
                     (const char *)s->name->v.bytes.data);
        snprintf(out, size, "CODE entry %s(entries/%zu), the instruction at byte %llu of its bytecode (operand at %llu)",
                 name, i, (unsigned long long)instruction, (unsigned long long)operand);
        return;
    }
}

/* WRITE: the word at `at` in the blob just written at `here` gets the index of the string with this text. */
static void link_operand(rb_ar *ar, datawin_state *st, const char *key, uint64_t here, uint64_t size, uint64_t at,
                         const rb_node *text, uint64_t occurrence)
{
    if (at > size || size - at < 4) {
        rb_ar_fail(ar, RB_E_MODEL, "%s: operand at %llu is outside the bytecode's %llu bytes", key,
                   (unsigned long long)at, (unsigned long long)size);
        return;
    }
    datawin_add_link(ar, st, (size_t)(here + at), DATAWIN_LINK_STRING_INDEX, occurrence);
    if (!rb_ar_ok(ar)) return;
    datawin_fixup *f = &st->fixups[st->fixup_count - 1];
    f->text = text;
    f->key = key;
    f->kept_mask = 0;
}

/* A root entry's push.s operands: [{"at": offset in its bytecode, "string": text,
 * ["occurrence": n-th string with that text, when STRG repeats it]}]. READ takes the sites
 * inside [here, here + size). */
static void string_operand_list(rb_ar *ar, datawin_state *st, site_list *l, uint64_t here, uint64_t size)
{
    const char *key = "stringOperands";
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    size_t first = l->next, n = 0;
    while (reading && first + n < l->count && l->items[first + n].at < here + size) n++;
    if (reading) l->next = first + n;
    if (!rb_ar_has(ar, key, n > 0)) return;
    uint64_t count = rb_ar_list_begin_n(ar, key, n, 0);
    RB_AR_LIST(ar, k, count) {
        const string_site *s = reading ? &l->items[first + k] : NULL;
        rb_ar_record_begin(ar, NULL);
        uint64_t at = rb_ar_uint_detached(ar, "at", RB_U32, s ? s->at - here : 0);
        uint32_t text_size = 0;
        const uint8_t *read_text = s ? datawin_string_text(st, (long)s->index, &text_size) : NULL;
        const rb_node *text = rb_ar_string_detached(ar, "string", read_text, text_size);
        uint32_t repeat = s ? st->string_occurrence[s->index] : 0;
        uint64_t occurrence =
            rb_ar_has(ar, "occurrence", repeat != 0) ? rb_ar_uint_detached(ar, "occurrence", RB_U32, repeat) : 0;
        if (rb_ar_direction(ar) == RB_AR_WRITE && text) link_operand(ar, st, key, here, size, at, text, occurrence);
        rb_ar_record_end(ar);
    }
}

/* WRITE: a reference of the model must sit on a variable or function operand of its blob (after an
 * edit its "at" must follow the instructions); it joins the list the chains are linked from. */
static void collect_reference(rb_ar *ar, code_sites *c, const rb_node *blob, const uint8_t *flags, uint64_t here,
                              uint64_t at, uint32_t kind, uint64_t entity, size_t index)
{
    uint64_t size = blob->v.bytes.size;
    if (at % 4 || at >= size || !(flags[at / 4] & WORD_REFERENCE) || entity > 0xFFFFFFFFu) {
        rb_ar_fail(ar, RB_E_MODEL, "%s[%zu]: the reference at %llu is not a variable or function operand of the bytecode "
                   "(docs/formats/datawin.md \"Bytecode instructions\")",
                   kind == ENTITY_VARIABLE ? "variableReferences" : "functionReferences", index, (unsigned long long)at);
        return;
    }
    uint32_t word = datawin_le32(blob->v.bytes.data + at);
    reference_add(ar, &c->references, (reference){(uint32_t)(here + at), kind, (uint32_t)entity, word});
}

/* WRITE: the walk of a blob, for checking its references (NULL when it has none). */
static uint8_t *walk_model_blob(rb_ar *ar, const rb_node *blob, uint64_t here)
{
    uint64_t size = blob->v.bytes.size;
    uint8_t *flags = calloc((size_t)(size / 4 + 2), 1);
    if (!flags) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return NULL; }
    walk_blob(ar, blob->v.bytes.data, (uint32_t)size, here, flags);
    return flags;
}

/* A root entry's variable and function operands, one table each: [{"at": offset, "variable":
 * index}] and [{"at": offset, "function": index}], in address order. */
static const rb_layout_field VARIABLE_REFERENCE_FIELDS[] = {{"at", RB_K_INT, RB_U32}, {"variable", RB_K_INT, RB_U32}};
static const rb_layout VARIABLE_REFERENCE = {"variable reference", VARIABLE_REFERENCE_FIELDS, 2};
static const rb_layout_field FUNCTION_REFERENCE_FIELDS[] = {{"at", RB_K_INT, RB_U32}, {"function", RB_K_INT, RB_U32}};
static const rb_layout FUNCTION_REFERENCE = {"function reference", FUNCTION_REFERENCE_FIELDS, 2};
static const char *const REFERENCE_KEYS[ENTITY_KINDS] = {"variableReferences", "functionReferences"};
static const rb_layout *const REFERENCE_LAYOUTS[ENTITY_KINDS] = {&VARIABLE_REFERENCE, &FUNCTION_REFERENCE};

/* READ: the packed elements of one kind's table, from the walk's references of this entry. */
static uint8_t *packed_references(rb_ar *ar, const reference *r, size_t n, uint32_t kind, uint64_t here, size_t *count)
{
    *count = 0;
    for (size_t k = 0; k < n; k++) *count += r[k].kind == kind;
    uint8_t *packed = *count ? rb_arena_alloc(rb_ar_arena(ar), *count * 8) : NULL;
    if (*count && !packed) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return NULL; }
    for (size_t k = 0, i = 0; packed && k < n; k++) {
        if (r[k].kind != kind) continue;
        datawin_put_le32(packed + 8 * i, (uint32_t)(r[k].at - here));
        datawin_put_le32(packed + 8 * i + 4, r[k].entity);
        i++;
    }
    return packed;
}

/* WRITE: the model's references of both kinds, merged in address order (they usually are), each
 * checked against the walk of the bytecode and collected for linking the chains. */
static void collect_entry_references(rb_ar *ar, code_sites *c, const rb_node *blob, uint64_t here,
                                     const rb_node *const tables[ENTITY_KINDS])
{
    uint8_t *flags = walk_model_blob(ar, blob, here);
    size_t next[ENTITY_KINDS] = {0}, count[ENTITY_KINDS];
    for (int kind = 0; kind < ENTITY_KINDS; kind++) count[kind] = rb_element_count(tables[kind]);
    while (flags && rb_ar_ok(ar) && (next[0] < count[0] || next[1] < count[1])) {
        uint64_t at[ENTITY_KINDS];
        for (int kind = 0; kind < ENTITY_KINDS; kind++)
            at[kind] = next[kind] < count[kind] ? rb_element_uint(tables[kind], next[kind], "at") : UINT64_MAX;
        uint32_t kind = at[ENTITY_VARIABLE] <= at[ENTITY_FUNCTION] ? ENTITY_VARIABLE : ENTITY_FUNCTION;
        uint64_t entity = rb_element_uint(tables[kind], next[kind], kind == ENTITY_VARIABLE ? "variable" : "function");
        collect_reference(ar, c, blob, flags, here, at[kind], kind, entity, next[kind]);
        next[kind]++;
    }
    free(flags);
}

/* READ takes the references inside [here, here + size) from the walk. */
static void references_of_entry(rb_ar *ar, code_sites *c, const rb_node *blob, uint64_t here)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    reference_list *l = &c->references;
    size_t first = l->next, n = 0;
    while (reading && first + n < l->count && l->items[first + n].at < here + blob->v.bytes.size) n++;
    if (reading) l->next = first + n;
    const rb_node *tables[ENTITY_KINDS] = {NULL, NULL};
    RB_AR_EACH(ar, kind, ENTITY_KINDS) {
        size_t count = 0;
        /* no reference read yet: items is NULL, and NULL + 0 is undefined */
        const reference *entry_references = n ? l->items + first : NULL;
        uint8_t *packed = reading ? packed_references(ar, entry_references, n, kind, here, &count) : NULL;
        if (!rb_ar_has(ar, REFERENCE_KEYS[kind], count > 0)) continue;
        rb_ar_table_detached(ar, REFERENCE_KEYS[kind], REFERENCE_LAYOUTS[kind], packed, count);
        tables[kind] = rb_node_get(rb_ar_current(ar), REFERENCE_KEYS[kind]);
    }
    if (rb_ar_direction(ar) == RB_AR_WRITE && rb_ar_ok(ar) && (tables[0] || tables[1]))
        collect_entry_references(ar, c, blob, here, tables);
}

/* READ: the model's bytecode has every push.s operand zeroed and every reference's derived bits
 * zeroed (the low 27, the delta; at a chain end the low 24, the name's index): both are derived on
 * write, so the model does not change when strings or other code do. */
static void mask_operands(rb_ar *ar, datawin_state *st, const rb_node *blob, uint64_t here, const code_sites *c,
                          size_t operands_from, size_t references_from)
{
    if (c->operands.next == operands_from && c->references.next == references_from) return;
    uint8_t *copy = rb_arena_alloc(rb_ar_arena(ar), blob->v.bytes.size);
    if (!copy) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    memcpy(copy, blob->v.bytes.data, blob->v.bytes.size);
    for (size_t k = operands_from; k < c->operands.next; k++) memset(copy + (c->operands.items[k].at - here), 0, 4);
    for (size_t k = references_from; k < c->references.next && rb_ar_ok(ar); k++) {
        const reference *r = &c->references.items[k];
        uint8_t *word = copy + (r->at - here);
        if (r->kept == CHAIN_END_KEPT)
            raw_end_add(ar, st->code, (raw_end){word, datawin_le32(word) & ~CHAIN_END_KEPT, r->kind});
        word[0] = word[1] = word[2] = 0;
        word[3] &= (uint8_t)(r->kept >> 24);
    }
    rb_node *built = rb_ar_own(ar, blob); /* the node this READ made: ours to finish */
    if (built) built->v.bytes.data = copy;
    else rb_ar_fail(ar, RB_E_MODEL, "the bytecode is not the current entry's");
}

/* A root entry's derived operands: push.s string operands, then references. */
static void derived_operands(rb_ar *ar, datawin_state *st, code_sites *c, const rb_node *blob, uint64_t here)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    size_t operands_from = c->operands.next, references_from = c->references.next;
    string_operand_list(ar, st, &c->operands, here, blob->v.bytes.size);
    references_of_entry(ar, c, blob, here);
    if (reading && rb_ar_ok(ar)) mask_operands(ar, st, blob, here, c, operands_from, references_from);
}

/* ---------- WRITE: the occurrence chains, recomputed ---------- */
/* docs/formats/datawin.md "Occurrence chains" */

static void patch_word(rb_ar *ar, uint32_t at, uint32_t value)
{
    rb_slot slot = {.position = at, .wire = RB_U32, .valid = 1};
    rb_ar_slot_set(ar, &slot, value);
}

/* A link of a chain: the operand at `from` gets the distance to the next occurrence, at `to`
 * (its bits 24-26 and above are the model's). */
static void link_occurrence(rb_ar *ar, const reference *from, uint32_t to)
{
    uint32_t delta = to - from->at;
    if (delta > REFERENCE_DELTA)
        rb_ar_fail(ar, RB_E_MODEL, "occurrences at 0x%x and 0x%x are too far apart for a chain (27 bits)", from->at, to);
    patch_word(ar, from->at, (from->kept & ~REFERENCE_DELTA) | delta);
}

/* Per entity of one kind while the references are linked: its first and latest occurrence. */
typedef struct chain_state { uint32_t count, first, latest; } chain_state;
enum { MAX_ENTITIES = 1 << 24 };

/* WRITE, once every root blob is written: link the chains of every entity the model's references
 * name, in file order: one pass over the references, each linked to the entity's
 * previous one; the last keeps the model's word, whose low 24 bits VARI/FUNC set to the STRG
 * index of the entity's name when they are written (occurrence_fields). The counts and first
 * addresses are noted for VARI and FUNC, by kind and then entity. */
static void link_chains(rb_ar *ar, datawin_state *st, reference_list *l)
{
    sort_references(ar, l);
    uint32_t entities[ENTITY_KINDS] = {0};
    for (size_t k = 0; k < l->count; k++)
        if (l->items[k].entity >= entities[l->items[k].kind]) entities[l->items[k].kind] = l->items[k].entity + 1;
    for (int kind = 0; kind < ENTITY_KINDS; kind++)
        if (entities[kind] > MAX_ENTITIES) /* VARI and FUNC check the exact bound once written */
            rb_ar_fail(ar, RB_E_MODEL, "a reference names %s %u: no game has that many",
                       kind == ENTITY_VARIABLE ? "variable" : "function", entities[kind] - 1);
    if (!rb_ar_ok(ar)) return;
    chain_state *chains[ENTITY_KINDS];
    for (int kind = 0; kind < ENTITY_KINDS; kind++) chains[kind] = calloc(entities[kind] + 1, sizeof(chain_state));
    if (!chains[ENTITY_VARIABLE] || !chains[ENTITY_FUNCTION]) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
    RB_AR_EACH(ar, k, l->count) {
        const reference *r = &l->items[k];
        chain_state *c = &chains[r->kind][r->entity];
        if (c->count) link_occurrence(ar, &l->items[c->latest], r->at);
        else c->first = (uint32_t)k;
        c->latest = (uint32_t)k;
        c->count++;
    }
    for (int kind = 0; kind < ENTITY_KINDS && rb_ar_ok(ar); kind++)
        RB_AR_EACH(ar, e, entities[kind]) {
            const chain_state *c = &chains[kind][e];
            if (!c->count) continue;
            const reference *last = &l->items[c->latest];
            patch_word(ar, last->at, last->kept);
            entity_occurrences *o = rb_ar_ok(ar) ? add_named(ar, st->code) : NULL;
            if (o) *o = (entity_occurrences){(uint32_t)kind, e, c->count, l->items[c->first].at, last->at};
        }
    for (int kind = 0; kind < ENTITY_KINDS; kind++) free(chains[kind]);
}

/* READ: the 20-byte header at `pointer` (inside the chunk) into `e`. */
static int peek_header(rb_ar *ar, const datawin_state *st, uint64_t pointer, uint64_t chunk_end, code_entry *e)
{
    if (pointer < st->chunk_base || pointer + 20 > chunk_end) {
        rb_ar_fail(ar, RB_E_FORMAT, "code entry pointer 0x%llx is outside CODE", (unsigned long long)pointer);
        return 0;
    }
    const uint8_t *h = st->file + pointer;
    e->name_address = datawin_le32(h);
    e->length = datawin_le32(h + 4);
    e->locals = datawin_le16(h + 8);
    e->arguments = datawin_le16(h + 10);
    e->blob = (int64_t)pointer + 12 + (int32_t)datawin_le32(h + 12);
    e->offset = datawin_le32(h + 16);
    return 1;
}

/* READ: the root (among `roots`, by increasing address) whose bytecode a child shares: same
 * address and length. Empty roots share an address with the next root and come before it. */
static long parent_of(const code_entry *e, const uint64_t *roots, size_t root_count, const code_entry *child)
{
    size_t lo = 0, hi = root_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e[roots[mid]].blob <= child->blob) lo = mid + 1;
        else hi = mid;
    }
    for (size_t k = lo; k > 0 && k + 2 > lo; k--) {
        const code_entry *r = &e[roots[k - 1]];
        if (r->blob == child->blob && r->length == child->length) return (long)roots[k - 1];
    }
    return -1;
}

/* READ: which entries own their bytecode (roots: at the next blob position, offset 0) and which
 * run inside an earlier root's (same address and length: docs/formats/datawin.md "CODE"). `blobs` =
 * first blob. */
static int classify_entries(rb_ar *ar, code_entry *e, uint64_t count, uint64_t blobs, uint64_t chunk_end)
{
    uint64_t *roots = malloc((count ? (size_t)count : 1) * sizeof *roots);
    if (!roots) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return 0; }
    size_t root_count = 0;
    uint64_t next = blobs;
    RB_AR_EACH(ar, i, count) {
        e[i].parent = i;
        if (e[i].blob == (int64_t)next && e[i].offset == 0) {
            if (e[i].length > chunk_end - next)
                rb_ar_fail(ar, RB_E_FORMAT, "code entry %llu: %u bytes of bytecode do not fit", (unsigned long long)i,
                           e[i].length);
            next += e[i].length;
            roots[root_count++] = i;
            continue;
        }
        long parent = parent_of(e, roots, root_count, &e[i]);
        if (parent < 0)
            rb_ar_fail(ar, RB_E_FORMAT, "code entry %llu: bytecode at 0x%llx is neither the next blob nor an earlier entry's",
                       (unsigned long long)i, (unsigned long long)e[i].blob);
        e[i].parent = (uint64_t)parent;
    }
    free(roots);
    return rb_ar_ok(ar);
}

/* The entry's name: its strref sits in the header, which is written after the bytecode. */
static const rb_node *detached_name(rb_ar *ar, const datawin_state *st, uint32_t address)
{
    if (rb_ar_direction(ar) != RB_AR_READ)
        return rb_ar_has(ar, "name", 0) ? rb_ar_string_detached(ar, "name", NULL, 0) : NULL;
    if (!address) { rb_ar_has(ar, "name", 0); return NULL; }
    long index = datawin_string_at(st, address);
    if (index < 0 || st->string_occurrence[index]) {
        rb_ar_fail(ar, RB_E_FORMAT, "code entry name 0x%x is not a STRG string named by text alone", address);
        return NULL;
    }
    uint32_t size;
    const uint8_t *text = datawin_string_text(st, index, &size);
    rb_ar_has(ar, "name", 1);
    return rb_ar_string_detached(ar, "name", text, size);
}

/* WRITE: the u32 at `position` becomes the address of the string with this text. */
static void link_name(rb_ar *ar, datawin_state *st, size_t position, const rb_node *text)
{
    datawin_add_link(ar, st, position, DATAWIN_LINK_STRING_TEXT, 0);
    if (!rb_ar_ok(ar)) return;
    st->fixups[st->fixup_count - 1].text = text;
    st->fixups[st->fixup_count - 1].key = "CODE entry name";
}

/* WRITE: where the entry's bytecode has words derived on write (its string operands and
 * references, from the lists that follow it in the model), in increasing order; *offsets is
 * malloc'd. 0 when there are none (or no memory: the words are then put as they are). */
static size_t derived_word_offsets(const rb_node *entry, uint32_t **offsets)
{
    const rb_node *operands = rb_node_get(entry, "stringOperands");
    const rb_node *lists[ENTITY_KINDS] = {rb_node_get(entry, REFERENCE_KEYS[0]), rb_node_get(entry, REFERENCE_KEYS[1])};
    size_t total = rb_element_count(operands);
    for (int kind = 0; kind < ENTITY_KINDS; kind++) total += rb_element_count(lists[kind]);
    *offsets = total ? malloc(total * sizeof **offsets) : NULL;
    if (!*offsets) return 0;
    size_t n = 0;
    for (size_t i = 0; i < rb_element_count(operands); i++) (*offsets)[n++] = (uint32_t)rb_element_uint(operands, i, "at");
    for (int kind = 0; kind < ENTITY_KINDS; kind++)
        for (size_t i = 0; i < rb_element_count(lists[kind]); i++)
            (*offsets)[n++] = (uint32_t)rb_element_uint(lists[kind], i, "at");
    qsort(*offsets, n, sizeof **offsets, datawin_compare_u32);
    return n;
}

/* The model part of one entry: name, locals, arguments, then its bytecode or its parent. */
static void code_entry_fields(rb_ar *ar, datawin_state *st, uint64_t i, code_entry *e, code_sites *sites)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    e->name = detached_name(ar, st, e->name_address);
    e->locals = rb_ar_uint_detached(ar, "locals", RB_U16, e->locals);
    /* bit 15 is the "weird locals" flag: kept in the raw value */
    e->arguments = rb_ar_uint_detached(ar, "arguments", RB_U16, e->arguments);
    if (rb_ar_has(ar, "bytecode", reading && e->parent == i)) {
        e->parent = i;
        e->offset = 0;
        uint64_t here = datawin_abs(ar, st);
        if (reading && (int64_t)here != e->blob) {
            rb_ar_fail(ar, RB_E_FORMAT, "bytecode at 0x%llx, but the blobs continue at 0x%llx", (unsigned long long)e->blob,
                       (unsigned long long)here);
            return;
        }
        uint32_t *derived = NULL;
        size_t derived_count = reading ? 0 : derived_word_offsets(rb_ar_current(ar), &derived);
        const rb_node *blob = rb_ar_bytes_deferring(ar, "bytecode", RB_K_BLOB, e->length, derived, derived_count, 4);
        free(derived);
        if (!blob) return;
        e->length = (uint32_t)blob->v.bytes.size;
        st->code->spans[i] = (code_span){(uint32_t)here, e->length, 1, e->name};
        derived_operands(ar, st, sites, blob, here);
        return;
    }
    e->parent = rb_ar_uint_detached(ar, "parent", RB_U32, e->parent);
    e->offset = rb_ar_uint_detached(ar, "offset", RB_U32, e->offset);
    if (rb_ar_direction(ar) == RB_AR_FROM_JSON) return;
    if (e->parent >= i || !st->code->spans[e->parent].is_root) {
        rb_ar_fail(ar, RB_E_MODEL, "parent %llu must be an earlier entry that has its own bytecode",
                   (unsigned long long)e->parent);
        return;
    }
    st->code->spans[i] = st->code->spans[e->parent];
    st->code->spans[i].is_root = 0;
}

/* A derived header field: WRITE emits `value`; READ checks the file holds it. */
static void derived(rb_ar *ar, const char *what, unsigned wire, uint64_t value)
{
    rb_slot slot = rb_ar_slot(ar, what, wire);
    if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_ok(ar) && slot.value != value)
        rb_ar_fail(ar, RB_E_FORMAT, "%s is %llu, expected %llu", what, (unsigned long long)slot.value,
                   (unsigned long long)value);
    rb_ar_slot_set(ar, &slot, value);
}

static void code_header(rb_ar *ar, datawin_state *st, rb_slot *pointer, uint64_t i, const code_entry *e)
{
    uint64_t here = datawin_abs(ar, st);
    if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_ok(ar) && pointer->value != here) {
        rb_ar_fail(ar, RB_E_FORMAT, "code entry %llu: pointer 0x%llx, but headers continue at 0x%llx",
                   (unsigned long long)i, (unsigned long long)pointer->value, (unsigned long long)here);
        return;
    }
    rb_ar_slot_set(ar, pointer, here);
    const code_span *span = &st->code->spans[i];
    rb_slot name = rb_ar_slot(ar, "name", RB_U32);
    if (rb_ar_direction(ar) == RB_AR_WRITE && e->name) link_name(ar, st, name.position, e->name);
    derived(ar, "length", RB_U32, span->size);
    derived(ar, "locals", RB_U16, e->locals);
    derived(ar, "arguments", RB_U16, e->arguments);
    /* the bytecode address is relative to this very field */
    derived(ar, "bytecode address", RB_U32, (uint32_t)((int64_t)span->at - (int64_t)datawin_abs(ar, st)));
    derived(ar, "offset", RB_U32, e->offset);
}

static void code_modern(rb_ar *ar, datawin_state *st)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    rb_slot count_slot = rb_ar_slot(ar, "count", RB_U32);
    uint64_t count = rb_ar_count_of(ar, "entries", count_slot.value);
    rb_ar_slot_set(ar, &count_slot, count);
    if (!datawin_count_fits(ar, count, 4 + 20, "code entries") || !code_map_reset(ar, st, count)) return;
    rb_slot *table = calloc(count ? (size_t)count : 1, sizeof *table);
    code_entry *e = calloc(count ? (size_t)count : 1, sizeof *e);
    code_sites sites;
    memset(&sites, 0, sizeof sites);
    if (!table || !e) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu code entries", (unsigned long long)count);
    } else {
        RB_AR_EACH(ar, i, count) table[i] = rb_ar_slot(ar, "entryPointer", RB_U32);
        uint64_t blobs = datawin_abs(ar, st), chunk_end = blobs + rb_ar_remaining(ar);
        for (uint64_t i = 0; reading && i < count && rb_ar_ok(ar); i++) peek_header(ar, st, table[i].value, chunk_end, &e[i]);
        if (reading && rb_ar_ok(ar)) classify_entries(ar, e, count, blobs, chunk_end);
        sites.start = sites.end = blobs;
        for (uint64_t i = 0; reading && i < count; i++)
            if (e[i].parent == i && (uint64_t)e[i].blob + e[i].length > sites.end) sites.end = (uint64_t)e[i].blob + e[i].length;
        if (reading && rb_ar_ok(ar)) find_sites(ar, st, e, count, &sites);
        count = rb_ar_list_begin_n(ar, "entries", count, 0);
        RB_AR_RECORDS(ar, i, count) code_entry_fields(ar, st, i, &e[i], &sites);
        if (rb_ar_direction(ar) == RB_AR_WRITE && rb_ar_ok(ar)) link_chains(ar, st, &sites.references);
        for (uint64_t i = 0; i < count && rb_ar_ok(ar) && rb_ar_direction(ar) != RB_AR_FROM_JSON; i++)
            code_header(ar, st, &table[i], i, &e[i]);
    }
    free(table);
    free(e);
    code_sites_free(&sites);
}

/* ---------- CODE, bytecode <= 14: a pointer list of {name, length, inline bytecode} ---------- */

static void code_old_entry(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)ctx;
    datawin_strref(ar, st, "name");
    rb_slot length = rb_ar_slot(ar, "length", RB_U32);
    uint64_t here = datawin_abs(ar, st);
    const rb_node *blob = rb_ar_bytes(ar, "bytecode", RB_K_BLOB, length.value);
    if (!blob) return;
    rb_ar_slot_set(ar, &length, blob->v.bytes.size);
    if (st->code && index < st->code->count)
        st->code->spans[index] = (code_span){(uint32_t)here, (uint32_t)blob->v.bytes.size, 1};
}

static void code_old(rb_ar *ar, datawin_state *st)
{
    uint32_t count = 0;
    if (rb_ar_direction(ar) == RB_AR_READ) {
        /* the old instruction set is not walked: its string indices could not follow STRG edits */
        rb_ar_fail(ar, RB_E_FORMAT,
                   "bytecode <= 14: string operands are not walked (docs/formats/datawin.md \"CODE\")");
        return;
    }
    count = (uint32_t)rb_ar_count_of(ar, "entries", 0);
    if (!datawin_count_fits(ar, count, 4, "code entries") || !code_map_reset(ar, st, count)) return;
    datawin_pointer_list(ar, st, "entries", 1, code_old_entry, NULL);
}

/* The layout generation, from GEN8's bytecode version in READ, kept in the model: 15 = bytecode
 * >= 15 (separate blobs, counted lists), 14 = bytecode <= 14 (inline bytecode, bare records). */
static int modern_layout(rb_ar *ar, const datawin_state *st)
{
    unsigned format = (unsigned)rb_ar_uint_detached(ar, "bytecodeFormat", RB_U8, st->bytecode >= 15 ? 15 : 14);
    if (rb_ar_ok(ar) && format != 14 && format != 15)
        rb_ar_fail(ar, RB_E_MODEL, "bytecodeFormat must be 14 (bytecode <= 14) or 15 (bytecode >= 15), not %u", format);
    return format == 15;
}

/* An empty chunk (YYC builds with bytecode <= 16) has no content at all. */
static int chunk_has_content(rb_ar *ar, const char *key)
{
    return rb_ar_has(ar, key, rb_ar_direction(ar) == RB_AR_READ && rb_ar_remaining(ar) > 0);
}

void datawin_chunk_code(rb_ar *ar, datawin_state *st)
{
    datawin_code_free(st);
    if (!chunk_has_content(ar, "entries")) return;
    if (modern_layout(ar, st)) code_modern(ar, st);
    else code_old(ar, st);
    if (!rb_ar_ok(ar)) datawin_code_free(st);
}

/* ---------- VARI and FUNC occurrences, derived from CODE's references ---------- */

/* Whether first addresses name the operand (1) or the instruction (0) (variables the instruction,
 * 2.3+ functions the operand: docs/formats/datawin.md "FUNC"): READ as the chains showed (0 when
 * no chain does), kept in the model for writing. */
static unsigned first_occurrence_rule(rb_ar *ar, const datawin_state *st, uint32_t kind)
{
    int seen = st->code ? st->code->first_is_operand[kind] : -1;
    unsigned rule = (unsigned)rb_ar_uint_detached(ar, "firstOccurrenceIsOperand", RB_U8, seen > 0);
    if (rb_ar_ok(ar) && rule > 1) rb_ar_fail(ar, RB_E_MODEL, "firstOccurrenceIsOperand must be 0 or 1, not %u", rule);
    return rule;
}

/* WRITE: the text of the string reference datawin_strref just wrote (its link is the last one), or NULL. */
static const rb_node *name_just_linked(const datawin_state *st, size_t links_before)
{
    return st->fixup_count > links_before ? st->fixups[st->fixup_count - 1].text : NULL;
}

/* An entity's occurrence count and first address: READ checks the file holds what CODE's chains
 * gave; WRITE puts what the chains were laid out as, and names the string the last occurrence
 * holds (the entity's name). */
static void occurrence_fields(rb_ar *ar, datawin_state *st, uint32_t kind, uint64_t index, unsigned first_is_operand,
                              const rb_node *name)
{
    const entity_occurrences *o = find_named(st, kind, index);
    derived(ar, "occurrences", RB_U32, o ? o->count : 0);
    derived(ar, "firstOccurrence", RB_U32, o ? o->first - (first_is_operand ? 0 : 4) : 0xFFFFFFFFu);
    if (!o || rb_ar_direction(ar) != RB_AR_WRITE || !rb_ar_ok(ar)) return;
    if (!name) {
        rb_ar_fail(ar, RB_E_MODEL, "%s %llu occurs in bytecode but has no name for its chain's end",
                   kind == ENTITY_VARIABLE ? "variable" : "function", (unsigned long long)index);
        return;
    }
    datawin_add_link(ar, st, o->last, DATAWIN_LINK_STRING_INDEX, 0);
    if (!rb_ar_ok(ar)) return;
    datawin_fixup *f = &st->fixups[st->fixup_count - 1];
    f->text = name;
    f->key = kind == ENTITY_VARIABLE ? "the last occurrence of a variable" : "the last occurrence of a function";
    f->kept_mask = CHAIN_END_KEPT;
}

/* WRITE: bytecode must not name an entity past the end of its list. */
static void check_named_exist(rb_ar *ar, const datawin_state *st, uint32_t kind, uint64_t count)
{
    const struct datawin_code_map *m = st->code;
    for (size_t k = 0; m && k < m->named_count && rb_ar_ok(ar); k++)
        if (m->named[k].kind == kind && m->named[k].entity >= count)
            rb_ar_fail(ar, RB_E_MODEL, "bytecode names %s %u, but %s has %llu",
                       kind == ENTITY_VARIABLE ? "variable" : "function", m->named[k].entity,
                       kind == ENTITY_VARIABLE ? "VARI" : "FUNC", (unsigned long long)count);
}

/* ---------- VARI ---------- */

static void variable(rb_ar *ar, datawin_state *st, int modern, uint64_t index, unsigned first_is_operand)
{
    rb_ar_record_begin(ar, NULL);
    size_t links_before = st->fixup_count;
    datawin_strref(ar, st, "name");
    const rb_node *name = name_just_linked(st, links_before);
    if (modern) {
        rb_ar_i32(ar, "instanceType"); /* -1 self, -5 global, -6 builtin, -7 local, -16 static, >= 0 object */
        rb_ar_i32(ar, "varId");
    }
    occurrence_fields(ar, st, ENTITY_VARIABLE, index, first_is_operand, name);
    rb_ar_record_end(ar);
}

/* bytecode >= 15: three counts, then 20-byte records up to the padding; bytecode <= 14: 12-byte
 * records to the end (docs/formats/datawin.md "VARI"). */
void datawin_chunk_vari(rb_ar *ar, datawin_state *st)
{
    if (!chunk_has_content(ar, "variables")) return;
    int modern = modern_layout(ar, st);
    unsigned first_is_operand = first_occurrence_rule(ar, st, ENTITY_VARIABLE);
    if (modern) {
        rb_ar_u32(ar, "varCount1");
        rb_ar_u32(ar, "varCount2");
        rb_ar_u32(ar, "maxLocalVarCount");
    }
    unsigned record = modern ? 20 : 12;
    uint64_t count = rb_ar_list_begin_n(ar, "variables", rb_ar_remaining(ar) / record, record);
    RB_AR_LIST(ar, i, count) variable(ar, st, modern, i, first_is_operand);
    if (rb_ar_direction(ar) == RB_AR_WRITE) check_named_exist(ar, st, ENTITY_VARIABLE, count);
}

/* ---------- FUNC ---------- */

static void function(rb_ar *ar, datawin_state *st, uint64_t index, unsigned first_is_operand)
{
    rb_ar_record_begin(ar, NULL);
    size_t links_before = st->fixup_count;
    datawin_strref(ar, st, "name");
    occurrence_fields(ar, st, ENTITY_FUNCTION, index, first_is_operand, name_just_linked(st, links_before));
    rb_ar_record_end(ar);
}

/* CodeLocals (before 2024.8): per code entry, its local variables' names. */
static void code_locals(rb_ar *ar, datawin_state *st)
{
    rb_ar_record_begin(ar, NULL);
    rb_slot count_slot = rb_ar_slot(ar, "localCount", RB_U32);
    datawin_strref(ar, st, "codeName");
    uint64_t count = rb_ar_count_of(ar, "locals", count_slot.value);
    rb_ar_slot_set(ar, &count_slot, count);
    count = rb_ar_list_begin_n(ar, "locals", count, 8);
    RB_AR_RECORDS(ar, i, count) {
        rb_ar_u32(ar, "index");
        datawin_strref(ar, st, "name");
    }
    rb_ar_record_end(ar);
}

/* READ: the version (2024.8) is not in the file: the list is there unless only the chunk's usual
 * zero padding follows the functions. */
static int code_locals_follow(rb_ar *ar, const datawin_state *st)
{
    uint64_t left = rb_ar_remaining(ar), here = datawin_abs(ar, st);
    uint64_t fill = st->alignment > 1 ? (st->alignment - here % st->alignment) % st->alignment : 0;
    if (left == 0) return 0;
    if (left != fill) return 1;
    const uint8_t *rest = st->file + here;
    for (uint64_t i = 0; i < left; i++)
        if (rest[i]) return 1;
    return 0;
}

/* bytecode >= 15: SimpleList of functions, then [CodeLocals]; bytecode <= 14: 12-byte records to
 * the end, no count (docs/formats/datawin.md "FUNC"). */
void datawin_chunk_func(rb_ar *ar, datawin_state *st)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    if (!chunk_has_content(ar, "functions")) return;
    int modern = modern_layout(ar, st);
    unsigned first_is_operand = first_occurrence_rule(ar, st, ENTITY_FUNCTION);
    uint64_t count = modern ? rb_ar_list_begin(ar, "functions", RB_U32, 12)
                            : rb_ar_list_begin_n(ar, "functions", rb_ar_remaining(ar) / 12, 12);
    RB_AR_LIST(ar, i, count) function(ar, st, i, first_is_operand);
    if (rb_ar_direction(ar) == RB_AR_WRITE) check_named_exist(ar, st, ENTITY_FUNCTION, count);
    if (!modern) return;
    if (!rb_ar_has(ar, "codeLocals", reading && code_locals_follow(ar, st))) return;
    count = rb_ar_list_begin(ar, "codeLocals", RB_U32, 8);
    RB_AR_LIST(ar, i, count) code_locals(ar, st);
}
