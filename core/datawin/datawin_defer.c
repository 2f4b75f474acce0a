/*
 * The deferred model for data.win (docs/performance.md "The deferred model", docs/formats/datawin.md
 * "The deferred model"): which chunks a deferred read keeps as their bytes, and what writing one
 * replays into the writer's state.
 *
 * A chunk kept as its bytes is copied where it was read, so every absolute pointer and string link
 * in it is what writing its nodes would put there: nothing before it changed size, since an edit
 * expands the document first (core/doc/doc.c). Its links resolve nothing at write (its words are
 * already right) and add no text to STRG (an unedited model names only texts STRG has). What its
 * nodes would have given the rest of the write is replayed:
 *   STRG  the string table (texts, addresses) the links of the chunks kept as nodes resolve
 *         against: read again from its bytes, which a full read checked;
 *   TPAG  where its items are, for the TPAG links of the chunks kept as nodes: from its bytes;
 *   CODE  every variable's and function's occurrences (count, first and last operand), which
 *         VARI and FUNC kept as nodes write as counts and first addresses and whose last
 *         operands they complete: the unit's replay record.
 * Kept as nodes: GEN8 (its version fields choose every later chunk's layout when writing: 30 nodes
 * or so), opaque chunks (what they pin, TPAG and raw chain ends, is set while they are read and
 * written), and VARI and FUNC after a typed CODE that stayed nodes: CODE's write leaves its chains'
 * last operands open for theirs to complete, which copied bytes would not.
 */
#include <string.h>
#include "core/datawin/datawin_internal.h"

static int is_chunk(const char *id, const char *which) { return memcmp(id, which, 4) == 0; }

/* A chunk's write is not made alone (its links into other chunks are file offsets the whole
 * write settles), so a read that checks its units (rb_ar_checks_units) keeps every chunk as nodes. */
static int chunk_is_deferrable(rb_ar *ar, const datawin_state *st, const char *id, int typed)
{
    if (!typed || is_chunk(id, "GEN8") || rb_ar_checks_units(ar)) return 0;
    return !(st->code_chains_in_nodes && (is_chunk(id, "VARI") || is_chunk(id, "FUNC")));
}

void datawin_defer_chunk(rb_ar *ar, datawin_state *st, const rb_ar_unit *unit, const char *id, int typed)
{
    if (!rb_ar_ok(ar)) return;
    int code = is_chunk(id, "CODE");
    rb_node *kept = NULL;
    if (chunk_is_deferrable(ar, st, id, typed)) {
        size_t count = 0, size = 0;
        const void *occurrences = code ? datawin_code_occurrences(st, &count, &size) : NULL;
        kept = rb_ar_unit_defer(ar, unit, occurrences, size, (uint32_t)count, 0);
    }
    if (code && kept) datawin_code_let_go_of_nodes(st);
    if (code && typed && !kept) st->code_chains_in_nodes = st->code != NULL;
}

/* What TPAG's write sets: its items follow its count and pointer table. */
static void replay_tpag(rb_ar *ar, datawin_state *st, const uint8_t *data, size_t size, uint64_t at)
{
    uint32_t count = size >= 4 ? datawin_le32(data) : 0;
    if (size < 4 || count > (size - 4) / 26) {
        rb_ar_fail(ar, RB_E_MODEL, "TPAG kept as its bytes has no item table a full read would accept");
        return;
    }
    st->tpag_first = at + 4 + 4ull * count;
    st->tpag_count = count;
    st->tpag_known = 1;
}

int datawin_write_deferred_chunk(rb_ar *ar, datawin_state *st)
{
    const rb_node *unit = rb_ar_next_deferred(ar);
    if (!unit) return 0;
    uint64_t here = datawin_abs(ar, st);
    const uint8_t *bytes = unit->v.bytes.data;
    size_t size = unit->v.bytes.size;
    if (size < 8 || here != unit->src_offset) {
        rb_ar_fail(ar, RB_E_MODEL,
                   "internal: a chunk kept as its bytes (read at 0x%x, %zu bytes) would be written at 0x%llx",
                   unit->src_offset, size, (unsigned long long)here);
        return 1;
    }
    const char *id = (const char *)bytes; /* the chunk's record: id, length, data */
    if (is_chunk(id, "STRG")) datawin_strg_replay(ar, st, bytes + 8, size - 8, here + 8);
    if (is_chunk(id, "TPAG")) replay_tpag(ar, st, bytes + 8, size - 8, here + 8);
    if (is_chunk(id, "CODE")) datawin_code_replay(ar, st, unit->deferred->replay, unit->deferred->replay_count);
    rb_ar_copy_deferred(ar);
    return 1;
}

/* What a chunk kept as its bytes takes from outside it when read (rb_format.unit_reads): GEN8's
 * version and ids (read_gen8_facts, the version inference, the layouts they choose), its room
 * order (GEN8's size) and its strings (checked against STRG). An edit elsewhere in GEN8 (its game
 * id, window size, flags) leaves every other chunk's read as it was. */
const char *const datawin_unit_reads[] = {
    "/chunks/[id=GEN8]/bytecodeVersion", "/chunks/[id=GEN8]/major",       "/chunks/[id=GEN8]/minor",
    "/chunks/[id=GEN8]/release",         "/chunks/[id=GEN8]/build",       "/chunks/[id=GEN8]/lastObject",
    "/chunks/[id=GEN8]/lastTile",        "/chunks/[id=GEN8]/roomOrder",   "/chunks/[id=GEN8]/fileName",
    "/chunks/[id=GEN8]/config",          "/chunks/[id=GEN8]/name",        "/chunks/[id=GEN8]/displayName",
    "/chunks/[id=GEN8]/id",              NULL};

/* A chunk kept as its bytes begins with its record's first member, the id (one_chunk: four
 * letters, rb_ar_fixed_string). */
int datawin_unit_member(const rb_node *list, const rb_node *unit, const char *key, rb_node *member)
{
    (void)list;
    if (strcmp(key, "id") != 0 || unit->v.bytes.size < 8) return 0;
    *member = (rb_node){.kind = RB_K_STRING, .key = "id", .v.bytes = {unit->v.bytes.data, 4}};
    return 1;
}
