/*
 * GBX nodes: references, chunk streams, encapsulation, the chunk registry.
 *
 * A chunk whose layout is known is typed; a skippable chunk whose layout is unknown (or does
 * not match) keeps its bytes as "data"; a non-skippable chunk without a known layout cannot be
 * skipped (it has no size), so the main node keeps everything from there as "opaqueTail".
 */
#include <stdlib.h>
#include <string.h>
#include "core/bytes.h"
#include "core/gbx/engine/gbx_internal.h"

/* ---------- speculative reads ---------- */

/* Running out of memory must reach the user; anything else (a layout that does not match, a
 * count over a limit — checked before anything is allocated) may fall back to keeping the bytes
 * opaque, which is always exact. A limit that caused a fallback is noted, so the user learns it. */
/* Errors no fallback may swallow (limits, out of memory). */
static int gbx_error_is_final(rb_ar *ar)
{
    rb_status st = rb_ar_ok(ar) ? RB_OK : rb_ar_error(ar)->status;
    if (st == RB_E_LIMIT && rb_ar_direction(ar) == RB_AR_READ) {
        char text[1600], note[1700];
        snprintf(note, sizeof note, "kept opaque because a limit was hit: %s", rb_error_format(rb_ar_error(ar), text, sizeof text));
        rb_doc_add_note(rb_ar_doc(ar), note);
    }
    return st == RB_E_NOMEM;
}

gbx_mark gbx_mark_here(rb_ar *ar)
{
    gbx_ctx *ctx = gbx_ctx_of(ar);
    gbx_mark m;
    m.ar = rb_ar_mark_here(ar);
    m.scope_count = ctx->scope_count;
    m.id_count = ctx->scopes[ctx->scope_count - 1].count;
    m.version_seen = ctx->scopes[ctx->scope_count - 1].version_seen;
    m.node_log = ctx->node_log_count;
    return m;
}

void gbx_rewind(rb_ar *ar, const gbx_mark *m, char *why, size_t why_size)
{
    gbx_ctx *ctx = gbx_ctx_of(ar);
    rb_ar_rewind(ar, &m->ar, why, why_size);
    if (m->ar.failed) return; /* nothing was undone: the GBX state stays with it */
    ctx->scope_count = m->scope_count;
    ctx->scopes[ctx->scope_count - 1].count = m->id_count;
    ctx->scopes[ctx->scope_count - 1].version_seen = m->version_seen;
    while (ctx->node_log_count > m->node_log) {
        uint32_t index = ctx->node_log[--ctx->node_log_count];
        ctx->node_seen[index / 8] &= (uint8_t)~(1u << (index % 8));
    }
}

/* ---------- node indices ---------- */

static int node_is_seen(const gbx_ctx *ctx, uint32_t index)
{
    return index < ctx->node_seen_bits && (ctx->node_seen[index / 8] >> (index % 8)) & 1;
}

static int node_is_external(const gbx_ctx *ctx, uint32_t index)
{
    for (size_t i = 0; i < ctx->external_count; i++)
        if (ctx->external_nodes[i] == index) return 1;
    return 0;
}

static int mark_node_seen(rb_ar *ar, uint32_t index)
{
    gbx_ctx *ctx = gbx_ctx_of(ar);
    if (index >= rb_ar_limits(ar)->max_count) {
        rb_ar_fail_field(ar, RB_E_LIMIT, "index", "node index %u exceeds the limit max_count", index);
        return 0;
    }
    if (index >= ctx->node_seen_bits) {
        size_t bits = ctx->node_seen_bits ? ctx->node_seen_bits : 1024;
        while (bits <= index) bits *= 2;
        uint8_t *seen = realloc(ctx->node_seen, bits / 8);
        if (!seen) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return 0; }
        memset(seen + ctx->node_seen_bits / 8, 0, (bits - ctx->node_seen_bits) / 8);
        ctx->node_seen = seen;
        ctx->node_seen_bits = bits;
    }
    if (ctx->node_log_count == ctx->node_log_cap) {
        size_t cap = ctx->node_log_cap ? ctx->node_log_cap * 2 : 256;
        uint32_t *log = realloc(ctx->node_log, cap * sizeof(*log));
        if (!log) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return 0; }
        ctx->node_log = log;
        ctx->node_log_cap = cap;
    }
    ctx->node_seen[index / 8] |= (uint8_t)(1u << (index % 8));
    ctx->node_log[ctx->node_log_count++] = index;
    return 1;
}

/* A unit read again alone: the node indices defined before it are defined again, in order. */
int gbx_restore_nodes(rb_ar *ar, const gbx_unit_start *start)
{
    for (uint32_t i = 0; i < start->node_log; i++)
        if (!mark_node_seen(ar, start->read_end->node_log[i])) return 0;
    return 1;
}

/* ---------- nodes ---------- */

static void gbx_node_chunks(rb_ar *ar, int top_level);

static void node_body(rb_ar *ar)
{
    uint32_t class_id = rb_ar_x32(ar, "classId");
    const gbx_chunk_def *whole = gbx_ctx_of(ar)->classes->find_chunk(class_id);
    if (whole && whole->skippable == GBX_WHOLE_NODE && whole->describe) {
        whole->describe(ar);
        return;
    }
    gbx_node_chunks(ar, 0);
}

/* WRITE: a node defined a second time under one index would read as a reference to the first,
 * and what follows as garbage (docs/formats/gbx.md "Node references"). Nodes written as the
 * bytes of a deferred unit are not seen: a model read from a file defines each index once. */
static void check_defined_once(rb_ar *ar, uint32_t index)
{
    gbx_ctx *ctx = gbx_ctx_of(ar);
    if (node_is_seen(ctx, index) || node_is_external(ctx, index))
        rb_ar_fail_field(ar, RB_E_MODEL, "index",
                         "node index %u is defined twice (another node, or the reference table, has it); a "
                         "new node needs an index of its own (apply gives one to what a copy or an add brings) "
                         "and the file's numNodes above it", index);
    else mark_node_seen(ar, index);
}

void gbx_noderef(rb_ar *ar, const char *key)
{
    rb_ar_record_begin(ar, key);
    int32_t index = rb_ar_i32(ar, "index");
    int defines = 0;
    if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_ok(ar) && index >= 0) {
        gbx_ctx *ctx = gbx_ctx_of(ar);
        defines = !node_is_seen(ctx, (uint32_t)index) && !node_is_external(ctx, (uint32_t)index);
        /* registered before its chunks are read: a node may refer to itself */
        if (defines && !mark_node_seen(ar, (uint32_t)index)) defines = 0;
    }
    if (rb_ar_direction(ar) == RB_AR_WRITE && rb_ar_ok(ar) && index >= 0 && rb_ar_has(ar, "classId", 0))
        check_defined_once(ar, (uint32_t)index);
    if (rb_ar_has(ar, "classId", defines)) node_body(ar);
    rb_ar_record_end(ar);
}

void gbx_noderef_list(rb_ar *ar, const char *key)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, key, RB_U32, 4)) gbx_noderef(ar, NULL);
}

/* A deprecated-format list: u32 version (10 in every known file), then the count. */
void gbx_noderef_deprec_list(rb_ar *ar, const char *key)
{
    rb_ar_u32(ar, "listVersion");
    gbx_noderef_list(ar, key);
}

void gbx_noderef_encapsulated(rb_ar *ar, const char *key)
{
    rb_ar_record_begin(ar, key);
    uint32_t class_id = rb_ar_x32(ar, "classId");
    if (class_id != 0xFFFFFFFFu) gbx_node_chunks(ar, 0);
    rb_ar_record_end(ar);
}

void gbx_node_direct(rb_ar *ar, const char *key)
{
    rb_ar_record_begin(ar, key);
    gbx_node_chunks(ar, 0);
    rb_ar_record_end(ar);
}

/* ---------- encapsulation ---------- */

void gbx_encapsulation_begin(rb_ar *ar)
{
    static const uint8_t zero[4] = {0};
    rb_ar_expect(ar, "encapsulation marker 0", zero, 4);
    rb_ar_sized_begin(ar, "encapsulated size", RB_U32);
    gbx_scope_push(ar);
}

void gbx_encapsulation_end(rb_ar *ar)
{
    gbx_scope_pop(ar);
    rb_ar_sized_end(ar);
}

/* ---------- chunks ---------- */

/* A skippable chunk's payload: typed when its layout is known and matches all of its bytes,
 * else kept as "data". */
void gbx_typed_or_opaque(rb_ar *ar, const gbx_chunk_def *def)
{
    int typed = 0;
    if (def && def->describe && rb_ar_ok(ar)) {
        if (rb_ar_direction(ar) == RB_AR_READ) {
            gbx_mark m = gbx_mark_here(ar);
            def->describe(ar);
            typed = rb_ar_ok(ar) && rb_ar_at_end(ar);
            if (!typed && !gbx_error_is_final(ar)) gbx_rewind(ar, &m, NULL, 0);
        } else if (!rb_ar_has(ar, "data", 0)) {
            def->describe(ar);
            typed = 1;
        }
    }
    if (!typed) rb_ar_rest(ar, "data");
}

static void skippable_payload(rb_ar *ar, const gbx_chunk_def *def)
{
    rb_ar_expect(ar, "SKIP marker", "PIKS", 4);
    rb_ar_sized_begin(ar, "chunk size", RB_U32);
    gbx_typed_or_opaque(ar, def);
    rb_ar_sized_end(ar);
}

/* Whether the chunk is stored with a SKIP marker and size. Normally a property of the chunk id
 * (its layout's default); a file that stores it the other way (TMUnlimiter's 0x03043055, a
 * damaged file) keeps that as a "skippable" field, so it is written back the same way. */
static int chunk_is_skippable(rb_ar *ar, const gbx_chunk_def *def)
{
    int by_layout = def ? def->skippable : 1;
    int stored = by_layout;
    if (rb_ar_direction(ar) == RB_AR_READ) {
        uint32_t marker = 0;
        stored = rb_ar_peek_u32(ar, &marker) && marker == GBX_SKIP;
    }
    if (rb_ar_has(ar, "skippable", stored != by_layout))
        return (int)rb_ar_bool_detached(ar, "skippable", 1, (uint64_t)stored);
    return by_layout;
}

void gbx_describe_chunk(rb_ar *ar)
{
    rb_ar_record_begin(ar, NULL);
    uint32_t id = rb_ar_x32(ar, "id");
    const gbx_chunk_def *def = gbx_ctx_of(ar)->classes->find_chunk(id);
    if (def && def->skippable == GBX_WHOLE_NODE) def = NULL; /* a class, not a chunk */
    if (chunk_is_skippable(ar, def)) {
        skippable_payload(ar, def);
    } else if (!def || !def->describe) {
        if (rb_ar_ok(ar))
            rb_ar_fail(ar, RB_E_UNSUPPORTED, "chunk 0x%08X has no known layout and no size: parsing cannot continue", id);
    } else {
        def->describe(ar);
    }
    rb_ar_record_end(ar);
}

static int next_is_node_end(rb_ar *ar, int *at_end)
{
    uint32_t id = 0;
    *at_end = 0;
    if (rb_ar_direction(ar) != RB_AR_READ) return 0;
    if (!rb_ar_peek_u32(ar, &id)) {
        rb_ar_fail(ar, RB_E_FORMAT, "the node ends without its end marker 0xFACADE01");
        return 0;
    }
    *at_end = id == GBX_FACADE;
    return *at_end;
}

/* Chunks whose lists a later chunk of the same node counts while it is read (map/map_extra.c's
 * per-element chunks, item/solid2.c's vertex streams): they stay nodes. */
static int chunk_is_counted_by_siblings(uint32_t raw_id)
{
    static const uint32_t COUNTED[] = {0x0304301F, 0x03043048, 0x03043040, 0x0900600A, 0x0900600F, 0x09006006};
    uint32_t id = gbx_remap_id(raw_id);
    for (size_t i = 0; i < sizeof COUNTED / sizeof COUNTED[0]; i++)
        if (COUNTED[i] == id) return 1;
    return 0;
}

/* Can the main node's chunk `id` be kept as its bytes once read? Not when other descriptions
 * read its nodes: a header copy (map/map_header.c, when the header is written) or a sibling. */
static int chunk_is_deferrable(rb_ar *ar, uint32_t id)
{
    return !gbx_ctx_of(ar)->classes->holds_copied_facts(id) && !chunk_is_counted_by_siblings(id);
}

/* READ, deferring: the main node's chunk is read and checked in full, then kept as its bytes
 * (docs/performance.md "The deferred model") when nothing else reads its nodes. */
static void describe_chunk_deferred(rb_ar *ar, const gbx_mark *start)
{
    gbx_built unit; /* checked (rb_read_options.check_units): written and compared before it is let go */
    gbx_built_begin(ar, &unit, NULL);
    gbx_describe_chunk(ar);
    const rb_node *chunks = rb_ar_current(ar);
    const rb_node *chunk = unit.unit.open && rb_ar_ok(ar) ? chunks->v.kids.items[chunks->v.kids.count - 1] : NULL;
    if (chunk && chunk_is_deferrable(ar, (uint32_t)rb_node_uint(rb_node_get(chunk, "id"))) &&
        gbx_built_writes_back(ar, &unit, gbx_describe_chunk)) {
        rb_node *deferred = gbx_defer_ids(ar, &unit.unit, unit.ids_before, unit.version_seen);
        if (deferred) gbx_unit_remember_start(ar, deferred, start, NULL);
    }
    gbx_built_end(&unit);
}

/* FROM_JSON, deferring (a build): the main node's chunk built and checked in full, then written
 * and kept as those bytes (gbx_built.c) when nothing else reads its nodes. */
static void build_chunk_deferred(rb_ar *ar)
{
    gbx_built built;
    gbx_built_begin(ar, &built, NULL);
    gbx_describe_chunk(ar);
    const rb_node *chunks = rb_ar_current(ar);
    const rb_node *chunk = chunks->v.kids.count ? chunks->v.kids.items[chunks->v.kids.count - 1] : NULL;
    if (chunk && rb_ar_ok(ar) && !chunk_is_deferrable(ar, (uint32_t)rb_node_uint(rb_node_get(chunk, "id"))))
        built.unit.open = 0; /* stays nodes */
    gbx_built_defer(ar, &built, gbx_describe_chunk);
}


/* Does the element just read or built count (gbx_list.counted)? Asked before it is let go. */
static uint32_t element_counts(rb_ar *ar, const gbx_list *list)
{
    const rb_node *elements = list->counted ? rb_ar_current(ar) : NULL;
    if (!elements || elements->kind != RB_K_LIST || !elements->v.kids.count) return 0;
    return list->counted(elements->v.kids.items[elements->v.kids.count - 1]) ? 1 : 0;
}

static void describe_unit_elements(rb_ar *ar);

/* READ, deferring: the elements read since the last drop let go of, once checked (when asked). */
static void drop_elements(rb_ar *ar, gbx_built *unit)
{
    if (gbx_built_elements_write_back(ar, unit, describe_unit_elements)) rb_ar_unit_drop_elements(ar, &unit->unit);
}

/* *counted (when asked): the elements gbx_list.counted counts. `unit`: a deferring read's list
 * unit, which lets go of its elements a few at a time. */
static void counted_list(rb_ar *ar, const gbx_list *list, gbx_built *unit, uint32_t *counted)
{
    uint64_t n = rb_ar_list_begin(ar, list->key, RB_U32, list->min_element_bytes);
    if (unit) rb_ar_unit_elements(ar, &unit->unit);
    RB_AR_EACH(ar, i, n) {
        list->element(ar, list->argument);
        if (counted) *counted += element_counts(ar, list);
        if (unit && (i + 1) % GBX_ELEMENTS_AT_ONCE == 0) drop_elements(ar, unit);
    }
    /* the elements after the last drop (the count before them is the number read) */
    if (unit && unit->unit.dropped && rb_ar_ok(ar)) gbx_built_elements_write_back(ar, unit, describe_unit_elements);
    rb_ar_list_end(ar);
}

/* A deferred list keeps its count of counted elements. */
static void keep_counted(rb_node *deferred, uint32_t counted)
{
    if (deferred && deferred->kind == RB_K_DEFERRED && deferred->deferred)
        deferred->deferred->flags |= counted << GBX_UNIT_COUNTED_SHIFT;
}

void gbx_counted_list(rb_ar *ar, const gbx_list *list) { counted_list(ar, list, NULL, NULL); }

/* WRITE of a list unit at build time (gbx_built.c): the list its context names, whole, or the
 * elements its holder has. */
static void describe_unit_list(rb_ar *ar) { counted_list(ar, gbx_ctx_of(ar)->unit_list, NULL, NULL); }

static void describe_unit_elements(rb_ar *ar)
{
    const gbx_list *list = gbx_ctx_of(ar)->unit_list;
    size_t n = rb_ar_current(ar)->v.kids.count;
    RB_AR_EACH(ar, i, n) list->element(ar, list->argument);
}

/* FROM_JSON, deferring: the list built a few elements at a time, each few written and let go
 * of, the list kept as its bytes (gbx_built.c). */
static void build_list_deferred(rb_ar *ar, const gbx_list *list)
{
    gbx_built built;
    gbx_built_begin(ar, &built, list);
    uint64_t n = rb_ar_list_begin(ar, list->key, RB_U32, list->min_element_bytes);
    rb_ar_unit_elements(ar, &built.unit);
    uint32_t counted = 0;
    RB_AR_EACH(ar, i, n) {
        list->element(ar, list->argument);
        counted += element_counts(ar, list);
        if ((i + 1) % GBX_ELEMENTS_AT_ONCE == 0) gbx_built_flush(ar, &built, describe_unit_elements);
    }
    if (built.unit.dropped) gbx_built_flush(ar, &built, describe_unit_elements); /* the rest */
    rb_ar_list_end(ar);
    keep_counted(gbx_built_defer(ar, &built, describe_unit_list), counted);
}

void gbx_deferrable_list(rb_ar *ar, const gbx_list *list)
{
    const rb_node *deferred = rb_ar_next_deferred(ar);
    if (deferred) { /* WRITE: kept as its bytes */
        gbx_replay_ids(ar, deferred);
        rb_ar_copy_deferred(ar);
        return;
    }
    if (gbx_ctx_of(ar)->deferring && rb_ar_direction(ar) == RB_AR_FROM_JSON) {
        build_list_deferred(ar, list);
        return;
    }
    if (!gbx_ctx_of(ar)->deferring || rb_ar_direction(ar) != RB_AR_READ) {
        counted_list(ar, list, NULL, NULL);
        return;
    }
    gbx_mark mark = gbx_mark_here(ar);
    gbx_built unit; /* checked (rb_read_options.check_units): written and compared before it is let go */
    gbx_built_begin(ar, &unit, list);
    uint32_t counted = 0;
    counted_list(ar, list, &unit, &counted);
    int writes_back = unit.unit.dropped ? !unit.differs : gbx_built_writes_back(ar, &unit, describe_unit_list);
    rb_node *kept = unit.unit.open && rb_ar_ok(ar) && writes_back
                        ? gbx_defer_ids(ar, &unit.unit, unit.ids_before, unit.version_seen)
                        : NULL;
    keep_counted(kept, counted);
    if (kept) gbx_unit_remember_start(ar, kept, &mark, list);
    int read_again = unit.unit.open && rb_ar_ok(ar) && !kept && unit.unit.dropped;
    gbx_built_end(&unit);
    if (!read_again) return;
    /* elements were let go but the list cannot stand as its bytes (a stream opened in it, or
     * some would be written otherwise): read it again, whole */
    gbx_rewind(ar, &mark, NULL, 0);
    counted_list(ar, list, NULL, NULL);
}

static void gbx_node_chunks(rb_ar *ar, int top_level)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    int stopped = 0, at_end = 0;
    rb_ar_list_begin_open(ar, "chunks");
    while (rb_ar_ok(ar) && rb_ar_list_has_more(ar)) {
        if (next_is_node_end(ar, &at_end) || !rb_ar_ok(ar)) break;
        const rb_node *deferred = rb_ar_next_deferred(ar);
        if (deferred) { /* WRITE: a chunk kept as its bytes */
            gbx_replay_ids(ar, deferred);
            rb_ar_copy_deferred(ar);
            continue;
        }
        if (!(top_level && reading)) {
            if (top_level && gbx_ctx_of(ar)->deferring) build_chunk_deferred(ar);
            else gbx_describe_chunk(ar);
            continue;
        }
        /* the main node: a chunk that cannot be typed ends the typed part, not the parse */
        gbx_mark m = gbx_mark_here(ar);
        if (gbx_ctx_of(ar)->deferring) describe_chunk_deferred(ar, &m);
        else gbx_describe_chunk(ar);
        if (!rb_ar_ok(ar) && !gbx_error_is_final(ar)) {
            gbx_ctx *ctx = gbx_ctx_of(ar);
            gbx_rewind(ar, &m, ctx->opaque_reason, sizeof ctx->opaque_reason);
            /* an opaque tail is for chunks we cannot type in a complete node: a body that does
             * not end with the end marker was cut short, and that stays an error */
            uint32_t last = 0;
            uint64_t left = rb_ar_remaining(ar);
            if (!rb_ar_is_text(ar) && (left < 4 || !rb_ar_peek_u32_at(ar, left - 4, &last) || last != GBX_FACADE)) {
                rb_ar_fail(ar, RB_E_FORMAT, "the body does not end with 0xFACADE01 (cut short?); the typed parse stopped at: %s",
                           ctx->opaque_reason);
                ctx->opaque_reason[0] = 0;
                break;
            }
            stopped = 1;
            break;
        }
    }
    rb_ar_list_end(ar);
    if (top_level && rb_ar_has(ar, "opaqueTail", stopped)) {
        rb_ar_rest(ar, "opaqueTail");
        return;
    }
    static const uint8_t facade[4] = {0x01, 0xDE, 0xCA, 0xFA};
    rb_ar_expect(ar, "end-of-node marker 0xFACADE01", facade, 4);
}

/* The main node of a file whose class has no chunks (a `.Prefab.Gbx`): the body is that class's
 * archive alone, without an end marker. A layout that does not fit ends the typed part there, as
 * for chunks (docs/formats/gbx.md "Node references"). */
static void main_node_archive(rb_ar *ar, const gbx_chunk_def *whole)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ, stopped = 0;
    gbx_mark m = gbx_mark_here(ar);
    if (reading || !rb_ar_has(ar, "opaqueTail", 0)) whole->describe(ar);
    if (reading && !rb_ar_ok(ar) && !gbx_error_is_final(ar)) {
        gbx_ctx *ctx = gbx_ctx_of(ar);
        gbx_rewind(ar, &m, ctx->opaque_reason, sizeof ctx->opaque_reason);
        stopped = 1;
    }
    if (rb_ar_has(ar, "opaqueTail", stopped)) rb_ar_rest(ar, "opaqueTail");
}

void gbx_main_node(rb_ar *ar, uint32_t class_id)
{
    const gbx_chunk_def *whole = gbx_ctx_of(ar)->classes->find_chunk(class_id);
    if (whole && whole->skippable == GBX_WHOLE_NODE && whole->describe) main_node_archive(ar, whole);
    else gbx_node_chunks(ar, 1);
}

/* ---------- ids of old engines ---------- */

/* Engine 0x24 ids (TM 2003-2006) and a few 2008 ids: class part -> current class part.
 * The low 12 bits (chunk number) are kept (docs/formats/gbx.md "Legacy ids"). Sorted by legacy id
 * (gbx_remap_id searches it by halves). */
static const struct {
    uint32_t legacy, current;
} REMAP[] = {
    {0x0301A000, 0x2E001000}, {0x0301C000, 0x2E002000}, {0x0313B000, 0x2E009000}, {0x24003000, 0x03043000},
    {0x24004000, 0x03033000}, {0x24005000, 0x0304E000}, {0x24006000, 0x03036000}, {0x24007000, 0x03057000},
    {0x2400A000, 0x2E001000}, {0x2400C000, 0x0305B000}, {0x2401B000, 0x03092000}, {0x24022000, 0x03051000},
    {0x2403A000, 0x03059000}, {0x2403C000, 0x0301B000}, {0x2403E000, 0x2E002000}, {0x2403F000, 0x03093000},
    {0x2405A000, 0x03080000}, {0x2405F000, 0x03081000}, {0x24061000, 0x03078000}, {0x24062000, 0x03078000},
    {0x24066000, 0x03085000}, {0x24067000, 0x030A2000}, {0x24068000, 0x030A8000}, {0x2406B000, 0x03082000},
    {0x2406D000, 0x03084000}, {0x24075000, 0x030A9000}, {0x24076000, 0x03079000}, {0x24077000, 0x0307A000},
    {0x2407E000, 0x03093000}, {0x24083000, 0x030AB000},
};

/* Every chunk id a class table looks up passes here (a map: hundreds of thousands), so the table
 * is searched by halves: it is sorted by legacy id. */
uint32_t gbx_remap_id(uint32_t raw)
{
    uint32_t class_part = raw & 0xFFFFF000u;
    size_t low = 0, high = sizeof REMAP / sizeof REMAP[0];
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (REMAP[mid].legacy == class_part) return REMAP[mid].current | (raw & 0xFFFu);
        if (REMAP[mid].legacy < class_part) low = mid + 1;
        else high = mid;
    }
    return raw;
}

/* A selector on a chunk or class id matches every era's spelling of it (rb_format.era_id). */
/* A main node's chunk kept as its bytes (describe_chunk_deferred) begins with its id, stored as
 * the file stores it and read as rb_ar_x32 reads it (read_chunk): a selector's id then matches it
 * in any era's spelling (gbx_era_id). */
int gbx_unit_member(const rb_node *list, const rb_node *unit, const char *key, rb_node *member)
{
    if (unit->kind != RB_K_DEFERRED || unit->v.bytes.size < 4 || strcmp(key, "id") != 0 || !list->key ||
        strcmp(list->key, "chunks") != 0)
        return 0;
    *member = (rb_node){.kind = RB_K_INT, .wire = RB_X32, .key = "id", .v.bits = rb_le32(unit->v.bytes.data)};
    return 1;
}

int gbx_era_id(const rb_node *member, uint64_t value, uint64_t *current)
{
    if (member->kind != RB_K_INT || (member->wire & RB_W_WIDTH) != 4 || !member->key ||
        (strcmp(member->key, "id") != 0 && strcmp(member->key, "classId") != 0))
        return 0;
    *current = gbx_remap_id((uint32_t)value);
    return 1;
}

size_t gbx_era_spellings(uint64_t current, uint64_t *others, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof REMAP / sizeof REMAP[0]; i++)
        if (REMAP[i].current == (current & 0xFFFFF000u) && n < max) others[n++] = REMAP[i].legacy | (current & 0xFFFu);
    return n;
}
