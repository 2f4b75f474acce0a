/*
 * CODE, VARI and FUNC (facts §7.17, §7.18, §7.19, §8, §9, §10): the compiled scripts and the
 * variable and function tables that point into them.
 *
 * CODE (bytecode >= 15) is a pointer table, then the bytecode of every root entry concatenated in
 * entry order, then the 20-byte entry headers. A header's bytecode address is relative to the field
 * itself; child entries (functions declared inside a 2.3+ script) share their parent's bytecode and
 * start `offset` bytes into it. The model keeps, per entry, its name, locals and arguments, and
 * either its bytecode (a blob) or the parent entry it runs inside ("parent" + "offset"): lengths,
 * addresses and the pointer table are derived. Bytecode <= 14: a pointer list of {name, length,
 * inline bytecode}.
 *
 * VARI and FUNC name the first occurrence of each variable / function by absolute address. In the
 * model that is a link {"entry": root entry index, "offset": byte offset in its bytecode}, resolved
 * once CODE is laid out (GM_LINK_CODE in gm.c): nothing before these chunks pins them, so they move
 * with whatever grows before them. The occurrence chains inside the bytecode (§9) are self-relative
 * and are kept as they are: they stay valid while the bytecode blobs keep their lengths and order.
 *
 * Bytecode holds STRG *indices* (§3): push.s operands (the whole word) and the last operand of every
 * VARI/FUNC occurrence chain (low 24 bits; the high byte is the reference type). Reading walks every
 * root blob (§8 instruction sizes) and follows every chain from the raw VARI/FUNC records; a root
 * entry lists them as links by text, "stringOperands" and "chainEnds" [{"at": offset in its
 * bytecode, "string": text}], with those index bits zero in the model's blob, so the model does not
 * change when strings are inserted, and writing puts the text's new index there (GM_LINK_STRING_INDEX).
 * A blob that does not walk, a chain that does not end on its name's index, or bytecode <= 14 (not
 * walked) fails the read: CODE is then kept opaque with a note, never typed with raw indices that
 * would silently go stale. Not done: recomputing the chains, so blobs must keep their lengths.
 */
#include <stdlib.h>
#include <string.h>
#include "gm_internal.h"

/* Where each code entry's bytecode is: READ in the input, WRITE in the output. */
typedef struct code_span { uint32_t at, size; int is_root; } code_span;

struct gm_code_map {
    code_span *spans;
    size_t count;
    uint32_t *roots;   /* READ: indices of non-empty root entries, by increasing address */
    size_t root_count;
};

void gm_code_free(gm_state *st)
{
    if (!st->code) return;
    free(st->code->spans);
    free(st->code->roots);
    free(st->code);
    st->code = NULL;
}

static int code_map_reset(rb_ar *ar, gm_state *st, uint64_t count)
{
    gm_code_free(st);
    st->code = calloc(1, sizeof *st->code);
    if (st->code) st->code->spans = calloc(count ? (size_t)count : 1, sizeof *st->code->spans);
    if (!st->code || !st->code->spans) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu code entries", (unsigned long long)count);
        gm_code_free(st);
        return 0;
    }
    st->code->count = (size_t)count;
    return 1;
}

/* READ: the roots, for turning addresses into links (they are laid out in entry order). */
static void code_map_index_roots(rb_ar *ar, gm_state *st)
{
    struct gm_code_map *m = st->code;
    m->roots = calloc(m->count ? m->count : 1, sizeof *m->roots);
    if (!m->roots) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    for (size_t i = 0; i < m->count; i++)
        if (m->spans[i].is_root && m->spans[i].size) m->roots[m->root_count++] = (uint32_t)i;
}

/* READ: the root entry whose bytecode holds `address`, or -1. */
static long code_entry_at(const gm_state *st, uint32_t address)
{
    const struct gm_code_map *m = st->code;
    size_t lo = 0, hi = m->root_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const code_span *s = &m->spans[m->roots[mid]];
        if (address < s->at) hi = mid;
        else if (address - s->at >= s->size) lo = mid + 1;
        else return (long)m->roots[mid];
    }
    return -1;
}

int gm_code_link_address(rb_ar *ar, const gm_state *st, uint64_t link, uint64_t *address)
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

/* ---------- string operands: the bytecode's STRG indices (facts §3, §8, §9) ---------- */

/* A word of bytecode that holds a STRG index: a push.s operand (the whole word) or the end of a
 * VARI/FUNC occurrence chain (the low 24 bits; the high byte is the reference type). */
typedef struct string_site { uint32_t at, index; } string_site;
typedef struct site_list { string_site *items; size_t count, cap, next; } site_list;

/* READ: what the walk learned, for every root blob (they are contiguous from `start`). */
typedef struct code_sites {
    uint64_t start, end;
    uint8_t *word;       /* per 4-byte word from `start`: WORD_* flags */
    site_list operands;  /* push.s, by address */
    site_list chain_ends; /* by address */
} code_sites;

enum { WORD_INSTRUCTION = 1, WORD_REFERENCE = 2 };
enum { TYPE_DOUBLE = 0, TYPE_FLOAT = 1, TYPE_INT32 = 2, TYPE_INT64 = 3, TYPE_BOOL = 4, TYPE_VARIABLE = 5,
       TYPE_STRING = 6, TYPE_INT16 = 15 };
#define CHAIN_END_KEPT 0xFF000000u

static void code_sites_free(code_sites *c)
{
    free(c->word);
    free(c->operands.items);
    free(c->chain_ends.items);
}

static int site_add(site_list *l, uint32_t at, uint32_t index)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        string_site *grown = realloc(l->items, cap * sizeof *grown);
        if (!grown) return 0;
        l->items = grown;
        l->cap = cap;
    }
    l->items[l->count++] = (string_site){at, index};
    return 1;
}

static int is_push(unsigned opcode) { return (opcode >= 0xC0 && opcode <= 0xC3) || opcode == 0x84; }

/* Words after the push's instruction word, by its type (facts §8); -1 = unknown type. */
static int push_extra_words(unsigned type)
{
    if (type == TYPE_DOUBLE || type == TYPE_INT64) return 2;
    if (type == TYPE_FLOAT || type == TYPE_INT32 || type == TYPE_BOOL || type == TYPE_VARIABLE || type == TYPE_STRING)
        return 1;
    return type == TYPE_INT16 ? 0 : -1;
}

/* Words after an instruction word (bytecode >= 15, facts §8 table); -1 = not an instruction. */
static int extra_words(uint32_t word)
{
    unsigned opcode = word >> 24, type = word >> 16 & 0xF;
    if (is_push(opcode)) return push_extra_words(type);
    switch (opcode) {
    case 0x45: return type == TYPE_INT16 ? 0 : 1; /* pop: a variable operand, but pop.e (swap) */
    case 0xD9: return 1;                          /* call: a function operand */
    case 0xFF: return type == TYPE_INT32 ? 1 : 0; /* break: an int32 word from 2023.8 */
    case 0x86: case 0x99: case 0x9C: case 0x9D: case 0x9E:
    case 0xB6: case 0xB7: case 0xB8: case 0xBA: case 0xBB: return 0;
    default: return opcode >= 0x07 && opcode <= 0x15 ? 0 : -1;
    }
}

/* Whether the operand of this instruction may be an occurrence in a VARI/FUNC chain (facts §9):
 * pop/push of a variable, call, push.i of a function (2.3+), pushref (break -11). */
static int operand_may_be_reference(uint32_t word)
{
    unsigned opcode = word >> 24, type = word >> 16 & 0xF;
    if (is_push(opcode)) return type == TYPE_VARIABLE || type == TYPE_INT32;
    return opcode == 0x45 || opcode == 0xD9 || opcode == 0xFF;
}

/* READ: walk one root blob; it must end exactly on an instruction boundary. */
static void walk_blob(rb_ar *ar, const gm_state *st, uint64_t blob, uint32_t length, code_sites *c)
{
    const uint8_t *p = st->file + blob;
    uint32_t pos = 0;
    while (pos < length && rb_ar_ok(ar)) {
        uint32_t word = length - pos >= 4 ? gm_le32(p + pos) : 0;
        int extra = length - pos >= 4 ? extra_words(word) : -1;
        if (extra < 0 || (uint64_t)length - pos < 4 + 4 * (uint64_t)extra) {
            rb_ar_fail(ar, RB_E_FORMAT, "bytecode at 0x%llx: instruction 0x%08x does not walk (facts §8)",
                       (unsigned long long)(blob + pos), word);
            return;
        }
        uint8_t *flags = &c->word[(blob + pos - c->start) / 4];
        flags[0] |= WORD_INSTRUCTION;
        if (extra && operand_may_be_reference(word)) flags[1] |= WORD_REFERENCE;
        if (is_push(word >> 24) && (word >> 16 & 0xF) == TYPE_STRING) {
            uint32_t index = gm_le32(p + pos + 4);
            if (index >= st->strings.count) {
                rb_ar_fail(ar, RB_E_FORMAT, "push.s at 0x%llx names string %u, but STRG has %zu",
                           (unsigned long long)(blob + pos), index, st->strings.count);
                return;
            }
            if (!site_add(&c->operands, (uint32_t)(blob + pos + 4), index)) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        }
        pos += 4 + 4 * (uint32_t)extra;
    }
}

static int is_reference_operand(const code_sites *c, uint64_t at)
{
    return at >= c->start && at < c->end && (at - c->start) % 4 == 0 && (c->word[(at - c->start) / 4] & WORD_REFERENCE);
}

/* READ: follow one VARI/FUNC entry's occurrence chain (facts §9) to its end, which must hold the
 * STRG index of the entry's name. The first address is the instruction's or (FUNC, 2.3+) its operand's. */
static void follow_chain(rb_ar *ar, const gm_state *st, code_sites *c, const uint8_t *record, int32_t count,
                         uint32_t first, const char *what)
{
    uint64_t at = is_reference_operand(c, first) ? first : (uint64_t)first + 4;
    long name = gm_string_at(st, gm_le32(record));
    for (int32_t k = 0; rb_ar_ok(ar); k++) {
        if (!is_reference_operand(c, at) || (size_t)k > c->end - c->start) {
            rb_ar_fail(ar, RB_E_FORMAT, "%s at 0x%x: occurrence %d at 0x%llx is not a variable or function operand",
                       what, first, k, (unsigned long long)at);
            return;
        }
        uint32_t word = gm_le32(st->file + at);
        if (k + 1 == count) break;
        if (!(word & 0x07FFFFFFu)) {
            rb_ar_fail(ar, RB_E_FORMAT, "%s at 0x%x: occurrence chain loops at 0x%llx", what, first, (unsigned long long)at);
            return;
        }
        at += word & 0x07FFFFFFu;
    }
    if (!rb_ar_ok(ar)) return;
    uint32_t index = gm_le32(st->file + at) & ~CHAIN_END_KEPT;
    if (name < 0 || (uint32_t)name != index) {
        rb_ar_fail(ar, RB_E_FORMAT, "%s at 0x%x: occurrence chain ends on string %u, not on the name's index %ld",
                   what, first, index, name);
        return;
    }
    if (!site_add(&c->chain_ends, (uint32_t)at, index)) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
}

/* READ: the chains of every VARI (20-byte records after 3 counts) and FUNC (counted 12-byte
 * records) entry that has occurrences (facts §7.18, §7.19). */
static void follow_chains(rb_ar *ar, const gm_state *st, code_sites *c)
{
    const gm_chunk_span *vari = gm_find_chunk(st, "VARI"), *func = gm_find_chunk(st, "FUNC");
    for (uint32_t off = 12; vari && vari->size >= 12 && off + 20 <= vari->size && rb_ar_ok(ar); off += 20) {
        const uint8_t *r = st->file + vari->data + off;
        int32_t count = (int32_t)gm_le32(r + 12);
        if (count > 0) follow_chain(ar, st, c, r, count, gm_le32(r + 16), "variable");
    }
    uint32_t functions = func && func->size >= 4 ? gm_le32(st->file + func->data) : 0;
    if (func && functions > (func->size - 4) / 12) {
        rb_ar_fail(ar, RB_E_FORMAT, "FUNC counts %u functions that do not fit", functions);
        return;
    }
    for (uint32_t k = 0; k < functions && rb_ar_ok(ar); k++) {
        const uint8_t *r = st->file + func->data + 4 + 12 * (uint64_t)k;
        int32_t count = (int32_t)gm_le32(r + 4);
        if (count > 0) follow_chain(ar, st, c, r, count, gm_le32(r + 8), "function");
    }
}

static int compare_site(const void *a, const void *b)
{
    uint32_t x = ((const string_site *)a)->at, y = ((const string_site *)b)->at;
    return x < y ? -1 : x > y;
}

/* READ: every string operand of the root blobs (which run from `start` to `end`, in entry order).
 * A blob that does not walk fails the CODE read: the chunk is then kept opaque and says why, rather
 * than typed with some indices left raw, which would silently go stale when STRG changes. */
static void find_string_sites(rb_ar *ar, const gm_state *st, const code_entry *e, uint64_t count, code_sites *c)
{
    c->word = calloc((size_t)((c->end - c->start) / 4 + 1), 1);
    if (!c->word) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++)
        if (e[i].parent == i) walk_blob(ar, st, (uint64_t)e[i].blob, e[i].length, c);
    if (rb_ar_ok(ar)) follow_chains(ar, st, c);
    if (!rb_ar_ok(ar)) return;
    qsort(c->chain_ends.items, c->chain_ends.count, sizeof *c->chain_ends.items, compare_site);
    for (size_t k = 1; k < c->chain_ends.count; k++)
        if (c->chain_ends.items[k].at == c->chain_ends.items[k - 1].at)
            rb_ar_fail(ar, RB_E_FORMAT, "two occurrence chains end at 0x%x", c->chain_ends.items[k].at);
}

/* WRITE: the word at `at` in the blob just written at `here` gets the index of the string with this text. */
static void link_operand(rb_ar *ar, gm_state *st, const char *key, uint64_t here, uint64_t size, uint64_t at,
                         const rb_node *text, uint64_t occurrence, uint32_t kept_mask)
{
    if (at > size || size - at < 4) {
        rb_ar_fail(ar, RB_E_MODEL, "%s: operand at %llu is outside the bytecode's %llu bytes", key,
                   (unsigned long long)at, (unsigned long long)size);
        return;
    }
    gm_add_link(ar, st, (size_t)(here + at), GM_LINK_STRING_INDEX, occurrence);
    if (!rb_ar_ok(ar)) return;
    gm_fixup *f = &st->fixups[st->fixup_count - 1];
    f->text = text;
    f->key = key;
    f->kept_mask = kept_mask;
}

/* One list of string operands of a root entry: [{"at": offset in its bytecode, "string": text,
 * ["occurrence": n-th string with that text, when STRG repeats it]}]. READ takes the sites of
 * `l` inside [here, here + size). */
static void operand_list(rb_ar *ar, gm_state *st, const char *key, site_list *l, uint64_t here, uint64_t size,
                         uint32_t kept_mask)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    size_t first = l ? l->next : 0, n = 0;
    while (reading && first + n < l->count && l->items[first + n].at < here + size) n++;
    if (reading) l->next = first + n;
    if (!rb_ar_has(ar, key, n > 0)) return;
    uint64_t count = rb_ar_list_begin_n(ar, key, n, 0);
    for (uint64_t k = 0; k < count && rb_ar_ok(ar); k++) {
        const string_site *s = reading ? &l->items[first + k] : NULL;
        rb_ar_record_begin(ar, NULL);
        uint64_t at = rb_ar_uint_detached(ar, "at", RB_U32, s ? s->at - here : 0);
        uint32_t text_size = 0;
        const uint8_t *read_text = s ? gm_string_text(st, (long)s->index, &text_size) : NULL;
        const rb_node *text = rb_ar_string_detached(ar, "string", read_text, text_size);
        uint32_t repeat = s ? st->string_occurrence[s->index] : 0;
        uint64_t occurrence =
            rb_ar_has(ar, "occurrence", repeat != 0) ? rb_ar_uint_detached(ar, "occurrence", RB_U32, repeat) : 0;
        if (rb_ar_direction(ar) == RB_AR_WRITE && text)
            link_operand(ar, st, key, here, size, at, text, occurrence, kept_mask);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
}

/* READ: the model's bytecode has the index bits of every string operand zeroed (they are derived
 * from the links on write), so it does not change when STRG does. */
static void mask_operands(rb_ar *ar, const rb_node *blob, uint64_t here, const site_list *operands,
                          size_t operands_from, const site_list *ends, size_t ends_from)
{
    if (operands->next == operands_from && ends->next == ends_from) return;
    uint8_t *copy = rb_arena_alloc(rb_ar_arena(ar), blob->v.bytes.size);
    if (!copy) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    memcpy(copy, blob->v.bytes.data, blob->v.bytes.size);
    for (size_t k = operands_from; k < operands->next; k++) memset(copy + (operands->items[k].at - here), 0, 4);
    for (size_t k = ends_from; k < ends->next; k++) memset(copy + (ends->items[k].at - here), 0, 3);
    ((rb_node *)blob)->v.bytes.data = copy; /* created by this READ: ours to finish */
}

/* A root entry's string operands: push.s operands, then occurrence chain ends. */
static void string_operands(rb_ar *ar, gm_state *st, code_sites *c, const rb_node *blob, uint64_t here)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    size_t operands_from = reading ? c->operands.next : 0, ends_from = reading ? c->chain_ends.next : 0;
    uint64_t size = blob->v.bytes.size;
    operand_list(ar, st, "stringOperands", reading ? &c->operands : NULL, here, size, 0);
    operand_list(ar, st, "chainEnds", reading ? &c->chain_ends : NULL, here, size, CHAIN_END_KEPT);
    if (reading && rb_ar_ok(ar)) mask_operands(ar, blob, here, &c->operands, operands_from, &c->chain_ends, ends_from);
}

/* READ: the 20-byte header at `pointer` (inside the chunk) into `e`. */
static int peek_header(rb_ar *ar, const gm_state *st, uint64_t pointer, uint64_t chunk_end, code_entry *e)
{
    if (pointer < st->chunk_base || pointer + 20 > chunk_end) {
        rb_ar_fail(ar, RB_E_FORMAT, "code entry pointer 0x%llx is outside CODE", (unsigned long long)pointer);
        return 0;
    }
    const uint8_t *h = st->file + pointer;
    e->name_address = gm_le32(h);
    e->length = gm_le32(h + 4);
    e->locals = gm_le16(h + 8);
    e->arguments = gm_le16(h + 10);
    e->blob = (int64_t)pointer + 12 + (int32_t)gm_le32(h + 12);
    e->offset = gm_le32(h + 16);
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
 * run inside an earlier root's (same address and length: facts §7.17). `blobs` = first blob. */
static int classify_entries(rb_ar *ar, code_entry *e, uint64_t count, uint64_t blobs, uint64_t chunk_end)
{
    uint64_t *roots = malloc((count ? (size_t)count : 1) * sizeof *roots);
    if (!roots) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return 0; }
    size_t root_count = 0;
    uint64_t next = blobs;
    for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++) {
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
static const rb_node *detached_name(rb_ar *ar, const gm_state *st, uint32_t address)
{
    if (rb_ar_direction(ar) != RB_AR_READ)
        return rb_ar_has(ar, "name", 0) ? rb_ar_string_detached(ar, "name", NULL, 0) : NULL;
    if (!address) { rb_ar_has(ar, "name", 0); return NULL; }
    long index = gm_string_at(st, address);
    if (index < 0 || st->string_occurrence[index]) {
        rb_ar_fail(ar, RB_E_FORMAT, "code entry name 0x%x is not a STRG string named by text alone", address);
        return NULL;
    }
    uint32_t size;
    const uint8_t *text = gm_string_text(st, index, &size);
    rb_ar_has(ar, "name", 1);
    return rb_ar_string_detached(ar, "name", text, size);
}

/* WRITE: the u32 at `position` becomes the address of the string with this text. */
static void link_name(rb_ar *ar, gm_state *st, size_t position, const rb_node *text)
{
    gm_add_link(ar, st, position, GM_LINK_STRING_TEXT, 0);
    if (!rb_ar_ok(ar)) return;
    st->fixups[st->fixup_count - 1].text = text;
    st->fixups[st->fixup_count - 1].key = "CODE entry name";
}

/* The model part of one entry: name, locals, arguments, then its bytecode or its parent. */
static void code_entry_fields(rb_ar *ar, gm_state *st, uint64_t i, code_entry *e, code_sites *sites)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    e->name = detached_name(ar, st, e->name_address);
    e->locals = rb_ar_uint_detached(ar, "locals", RB_U16, e->locals);
    /* bit 15 is the "weird locals" flag: kept in the raw value */
    e->arguments = rb_ar_uint_detached(ar, "arguments", RB_U16, e->arguments);
    if (rb_ar_has(ar, "bytecode", reading && e->parent == i)) {
        e->parent = i;
        e->offset = 0;
        uint64_t here = gm_abs(ar, st);
        if (reading && (int64_t)here != e->blob) {
            rb_ar_fail(ar, RB_E_FORMAT, "bytecode at 0x%llx, but the blobs continue at 0x%llx", (unsigned long long)e->blob,
                       (unsigned long long)here);
            return;
        }
        const rb_node *blob = rb_ar_bytes(ar, "bytecode", RB_K_BLOB, e->length);
        if (!blob) return;
        e->length = (uint32_t)blob->v.bytes.size;
        st->code->spans[i] = (code_span){(uint32_t)here, e->length, 1};
        string_operands(ar, st, sites, blob, here);
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

static void code_header(rb_ar *ar, gm_state *st, rb_slot *pointer, uint64_t i, const code_entry *e)
{
    uint64_t here = gm_abs(ar, st);
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
    /* the bytecode address is relative to this very field (facts §7.17) */
    derived(ar, "bytecode address", RB_U32, (uint32_t)((int64_t)span->at - (int64_t)gm_abs(ar, st)));
    derived(ar, "offset", RB_U32, e->offset);
}

static void code_modern(rb_ar *ar, gm_state *st)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    rb_slot count_slot = rb_ar_slot(ar, "count", RB_U32);
    uint64_t count = rb_ar_count_of(ar, "entries", count_slot.value);
    rb_ar_slot_set(ar, &count_slot, count);
    if (!gm_count_fits(ar, count, 4 + 20, "code entries") || !code_map_reset(ar, st, count)) return;
    rb_slot *table = calloc(count ? (size_t)count : 1, sizeof *table);
    code_entry *e = calloc(count ? (size_t)count : 1, sizeof *e);
    code_sites sites;
    memset(&sites, 0, sizeof sites);
    if (!table || !e) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu code entries", (unsigned long long)count);
    } else {
        for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++) table[i] = rb_ar_slot(ar, "entryPointer", RB_U32);
        uint64_t blobs = gm_abs(ar, st), chunk_end = blobs + rb_ar_remaining(ar);
        for (uint64_t i = 0; reading && i < count && rb_ar_ok(ar); i++) peek_header(ar, st, table[i].value, chunk_end, &e[i]);
        if (reading && rb_ar_ok(ar)) classify_entries(ar, e, count, blobs, chunk_end);
        sites.start = sites.end = blobs;
        for (uint64_t i = 0; reading && i < count; i++)
            if (e[i].parent == i && (uint64_t)e[i].blob + e[i].length > sites.end) sites.end = (uint64_t)e[i].blob + e[i].length;
        if (reading && rb_ar_ok(ar)) find_string_sites(ar, st, e, count, &sites);
        count = rb_ar_list_begin_n(ar, "entries", count, 0);
        for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++) {
            rb_ar_record_begin(ar, NULL);
            code_entry_fields(ar, st, i, &e[i], &sites);
            rb_ar_record_end(ar);
        }
        rb_ar_list_end(ar);
        for (uint64_t i = 0; i < count && rb_ar_ok(ar) && rb_ar_direction(ar) != RB_AR_FROM_JSON; i++)
            code_header(ar, st, &table[i], i, &e[i]);
    }
    free(table);
    free(e);
    code_sites_free(&sites);
}

/* ---------- CODE, bytecode <= 14: a pointer list of {name, length, inline bytecode} ---------- */

static void code_old_entry(rb_ar *ar, gm_state *st, uint64_t index, void *ctx)
{
    (void)ctx;
    gm_strref(ar, st, "name");
    rb_slot length = rb_ar_slot(ar, "length", RB_U32);
    uint64_t here = gm_abs(ar, st);
    const rb_node *blob = rb_ar_bytes(ar, "bytecode", RB_K_BLOB, length.value);
    if (!blob) return;
    rb_ar_slot_set(ar, &length, blob->v.bytes.size);
    if (st->code && index < st->code->count)
        st->code->spans[index] = (code_span){(uint32_t)here, (uint32_t)blob->v.bytes.size, 1};
}

static void code_old(rb_ar *ar, gm_state *st)
{
    uint32_t count = 0;
    if (rb_ar_direction(ar) == RB_AR_READ) {
        /* the old instruction set is not walked: its string indices could not follow STRG edits */
        rb_ar_fail(ar, RB_E_FORMAT, "bytecode <= 14: string operands are not walked (facts §8)");
        return;
    }
    count = (uint32_t)rb_ar_count_of(ar, "entries", 0);
    if (!gm_count_fits(ar, count, 4, "code entries") || !code_map_reset(ar, st, count)) return;
    gm_pointer_list(ar, st, "entries", 1, code_old_entry, NULL);
}

/* The layout generation, from GEN8's bytecode version in READ, kept in the model: 15 = bytecode
 * >= 15 (separate blobs, counted lists), 14 = bytecode <= 14 (inline bytecode, bare records). */
static int modern_layout(rb_ar *ar, const gm_state *st)
{
    unsigned format = (unsigned)rb_ar_uint_detached(ar, "bytecodeFormat", RB_U8, st->bytecode >= 15 ? 15 : 14);
    if (rb_ar_ok(ar) && format != 14 && format != 15)
        rb_ar_fail(ar, RB_E_MODEL, "bytecodeFormat must be 14 (bytecode <= 14) or 15 (bytecode >= 15), not %u", format);
    return format == 15;
}

/* An empty chunk (YYC builds with bytecode <= 16, facts §7.17) has no content at all. */
static int chunk_has_content(rb_ar *ar, const char *key)
{
    return rb_ar_has(ar, key, rb_ar_direction(ar) == RB_AR_READ && rb_ar_remaining(ar) > 0);
}

void gm_chunk_code(rb_ar *ar, gm_state *st)
{
    gm_code_free(st);
    if (!chunk_has_content(ar, "entries")) return;
    if (modern_layout(ar, st)) code_modern(ar, st);
    else code_old(ar, st);
    if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_ok(ar)) code_map_index_roots(ar, st);
    if (!rb_ar_ok(ar)) gm_code_free(st);
}

/* ---------- links to the first occurrence (VARI, FUNC) ---------- */

/* The absolute address of an entity's first occurrence; -1 (none) is the link's absence. */
static void first_occurrence(rb_ar *ar, gm_state *st)
{
    const char *key = "firstOccurrence";
    rb_ar_dir dir = rb_ar_direction(ar);
    rb_slot slot = rb_ar_slot(ar, key, RB_U32);
    long entry = -1;
    if (dir == RB_AR_READ && rb_ar_ok(ar) && slot.value != 0xFFFFFFFFu) {
        entry = st->code ? code_entry_at(st, (uint32_t)slot.value) : -1;
        if (entry < 0) {
            rb_ar_fail(ar, RB_E_FORMAT, "first occurrence 0x%llx is not inside a typed code entry's bytecode",
                       (unsigned long long)slot.value);
            return;
        }
    }
    if (!rb_ar_has(ar, key, entry >= 0)) {
        rb_ar_slot_set(ar, &slot, 0xFFFFFFFFu);
        return;
    }
    rb_ar_record_begin(ar, key);
    uint64_t index = rb_ar_uint_detached(ar, "entry", RB_U32, (uint64_t)entry);
    uint64_t offset = rb_ar_uint_detached(ar, "offset", RB_U32,
                                          entry >= 0 ? slot.value - st->code->spans[entry].at : 0);
    rb_ar_record_end(ar);
    if (dir == RB_AR_WRITE) gm_add_link(ar, st, slot.position, GM_LINK_CODE, index << 32 | offset);
}

/* ---------- VARI ---------- */

static void variable(rb_ar *ar, gm_state *st, int modern)
{
    rb_ar_record_begin(ar, NULL);
    gm_strref(ar, st, "name");
    if (modern) {
        rb_ar_i32(ar, "instanceType"); /* -1 self, -5 global, -6 builtin, -7 local, -16 static, >= 0 object */
        rb_ar_i32(ar, "varId");
    }
    rb_ar_u32(ar, "occurrences");
    first_occurrence(ar, st);
    rb_ar_record_end(ar);
}

/* bytecode >= 15: three counts, then 20-byte records up to the padding (facts §7.18);
 * bytecode <= 14: 12-byte records to the end. */
void gm_chunk_vari(rb_ar *ar, gm_state *st)
{
    if (!chunk_has_content(ar, "variables")) return;
    int modern = modern_layout(ar, st);
    if (modern) {
        rb_ar_u32(ar, "varCount1");
        rb_ar_u32(ar, "varCount2");
        rb_ar_u32(ar, "maxLocalVarCount");
    }
    unsigned record = modern ? 20 : 12;
    uint64_t count = rb_ar_list_begin_n(ar, "variables", rb_ar_remaining(ar) / record, record);
    for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++) variable(ar, st, modern);
    rb_ar_list_end(ar);
}

/* ---------- FUNC ---------- */

static void function(rb_ar *ar, gm_state *st)
{
    rb_ar_record_begin(ar, NULL);
    gm_strref(ar, st, "name");
    rb_ar_u32(ar, "occurrences");
    first_occurrence(ar, st);
    rb_ar_record_end(ar);
}

/* CodeLocals (before 2024.8): per code entry, its local variables' names. */
static void code_locals(rb_ar *ar, gm_state *st)
{
    rb_ar_record_begin(ar, NULL);
    rb_slot count_slot = rb_ar_slot(ar, "localCount", RB_U32);
    gm_strref(ar, st, "codeName");
    uint64_t count = rb_ar_count_of(ar, "locals", count_slot.value);
    rb_ar_slot_set(ar, &count_slot, count);
    count = rb_ar_list_begin_n(ar, "locals", count, 8);
    for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++) {
        rb_ar_record_begin(ar, NULL);
        rb_ar_u32(ar, "index");
        gm_strref(ar, st, "name");
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
    rb_ar_record_end(ar);
}

/* READ: the version (2024.8) is not in the file: the list is there unless only the chunk's usual
 * zero padding follows the functions. */
static int code_locals_follow(rb_ar *ar, const gm_state *st)
{
    uint64_t left = rb_ar_remaining(ar), here = gm_abs(ar, st);
    uint64_t fill = st->alignment > 1 ? (st->alignment - here % st->alignment) % st->alignment : 0;
    if (left == 0) return 0;
    if (left != fill) return 1;
    const uint8_t *rest = st->file + here;
    for (uint64_t i = 0; i < left; i++)
        if (rest[i]) return 1;
    return 0;
}

/* bytecode >= 15: SimpleList of functions, then [CodeLocals] (facts §7.19);
 * bytecode <= 14: 12-byte records to the end, no count. */
void gm_chunk_func(rb_ar *ar, gm_state *st)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    if (!chunk_has_content(ar, "functions")) return;
    if (!modern_layout(ar, st)) {
        uint64_t count = rb_ar_list_begin_n(ar, "functions", rb_ar_remaining(ar) / 12, 12);
        for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++) function(ar, st);
        rb_ar_list_end(ar);
        return;
    }
    uint64_t count = rb_ar_list_begin(ar, "functions", RB_U32, 12);
    for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++) function(ar, st);
    rb_ar_list_end(ar);
    if (!rb_ar_has(ar, "codeLocals", reading && code_locals_follow(ar, st))) return;
    count = rb_ar_list_begin(ar, "codeLocals", RB_U32, 8);
    for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++) code_locals(ar, st);
    rb_ar_list_end(ar);
}
