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
static void code_entry_fields(rb_ar *ar, gm_state *st, uint64_t i, code_entry *e)
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
    if (!table || !e) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu code entries", (unsigned long long)count);
    } else {
        for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++) table[i] = rb_ar_slot(ar, "entryPointer", RB_U32);
        uint64_t blobs = gm_abs(ar, st), chunk_end = blobs + rb_ar_remaining(ar);
        for (uint64_t i = 0; reading && i < count && rb_ar_ok(ar); i++) peek_header(ar, st, table[i].value, chunk_end, &e[i]);
        if (reading && rb_ar_ok(ar)) classify_entries(ar, e, count, blobs, chunk_end);
        count = rb_ar_list_begin_n(ar, "entries", count, 0);
        for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++) {
            rb_ar_record_begin(ar, NULL);
            code_entry_fields(ar, st, i, &e[i]);
            rb_ar_record_end(ar);
        }
        rb_ar_list_end(ar);
        for (uint64_t i = 0; i < count && rb_ar_ok(ar) && rb_ar_direction(ar) != RB_AR_FROM_JSON; i++)
            code_header(ar, st, &table[i], i, &e[i]);
    }
    free(table);
    free(e);
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
    if (rb_ar_direction(ar) == RB_AR_READ) rb_ar_peek_u32(ar, &count);
    else count = (uint32_t)rb_ar_count_of(ar, "entries", 0);
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
