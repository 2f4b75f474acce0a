/*
 * GameMaker data.win: the FORM container, its chunk list, padding and version inference.
 * Layouts: docs/formats/datawin.md "Container", "Padding", "Version clues", "Pointers".
 *
 * Every chunk is kept opaque unless a typed description knows it (datawin_chunks.c, datawin_strg.c) and
 * the chunk's bytes fit that description exactly; so every file round-trips whatever it holds.
 * Opaque chunks still carry the positions of their string references, so strings can move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/datawin/datawin.h"
#include "core/datawin/datawin_internal.h"

enum { DATAWIN_UNKNOWN_VERSION = 0 };

static int datawin_detect(const uint8_t *data, size_t size)
{
    if (size < 16 || memcmp(data, "FORM", 4) != 0) return 0;
    if (memcmp(data + 8, "GEN8", 4) != 0) return 0; /* other IFF files (AIFF, ILBM) share "FORM" */
    uint32_t form_length = datawin_le32(data + 4), gen8_length = datawin_le32(data + 12);
    return form_length <= size - 8 && gen8_length <= form_length - 8 ? 100 : 60;
}

/* ---------- READ pre-pass: the whole file, the chunk spans, the layout flags ---------- */

/* Pointers go anywhere: the descriptions see the whole input, not only the bytes at the cursor. */
static int see_input(rb_ar *ar, datawin_state *st)
{
    uint64_t size = rb_ar_remaining(ar);
    st->file = rb_ar_peek_bytes(ar, size);
    st->file_size = st->file ? (size_t)size : 0;
    return st->file != NULL;
}

/* The chunk headers, walked without trusting them (the description reports what is wrong). */
static void walk_chunks(datawin_state *st)
{
    if (st->file_size < 8) return;
    uint64_t end = 8 + (uint64_t)datawin_le32(st->file + 4);
    if (end > st->file_size) end = st->file_size;
    size_t cap = 0;
    for (uint64_t pos = 8; pos + 8 <= end;) {
        uint32_t size = datawin_le32(st->file + pos + 4);
        if (size > end - pos - 8) break;
        if (st->chunk_count == cap) {
            datawin_chunk_span *grown = datawin_grown(st->chunks, &cap, sizeof *grown, 32);
            if (!grown) return;
            st->chunks = grown;
        }
        datawin_chunk_span *c = &st->chunks[st->chunk_count++];
        memcpy(c->id, st->file + pos, 4);
        c->id[4] = 0;
        c->data = (uint32_t)(pos + 8);
        c->size = size;
        pos += 8 + (uint64_t)size;
    }
}

/* 16 when every chunk but the last ends on a 16-byte boundary, else 4, else 1: detected from the
 * bytes, not from the version (GMS 2.0 files pad to 4 only; docs/formats/datawin.md "Padding"). */
static unsigned detect_alignment(const datawin_state *st)
{
    unsigned alignment = 16;
    for (size_t i = 0; i + 1 < st->chunk_count; i++) {
        uint64_t end = (uint64_t)st->chunks[i].data + st->chunks[i].size;
        while (alignment > 1 && end % alignment) alignment = alignment == 16 ? 4 : 1;
    }
    return alignment;
}

static void read_gen8_facts(datawin_state *st)
{
    const datawin_chunk_span *gen8 = st->chunk_count ? &st->chunks[0] : NULL;
    if (!gen8 || memcmp(gen8->id, "GEN8", 4) != 0 || gen8->size < 60) return;
    const uint8_t *g = st->file + gen8->data;
    st->bytecode = g[1];
    st->major = datawin_le32(g + 44);
    st->build = datawin_le32(g + 56);
    st->last_object = datawin_le32(g + 12);
    st->last_tile = datawin_le32(g + 16);
}

/* ---------- version inference (docs/formats/datawin.md "Version clues") ---------- */

#define DATAWIN_V(major, minor, release) ((uint32_t)(major) * 1000000u + (uint32_t)(minor) * 1000u + (uint32_t)(release))

enum {
    DATAWIN_EVIDENCE_GEN8 = 1,      /* GEN8 version and bytecode byte */
    DATAWIN_EVIDENCE_CHUNKS = 2,    /* which chunks exist */
    DATAWIN_EVIDENCE_TXTR = 4,      /* texture entry layout */
    DATAWIN_EVIDENCE_SOND = 8,      /* sound entry stride */
    DATAWIN_EVIDENCE_NULLS = 16     /* null entries in pointer lists */
};

typedef struct datawin_version { uint32_t at_least, below, evidence; } datawin_version;

static void raise_to(datawin_version *v, uint32_t version, uint32_t evidence)
{
    if (version > v->at_least) v->at_least = version;
    v->evidence |= evidence;
}

static void lower_to(datawin_version *v, uint32_t version, uint32_t evidence)
{
    if (!v->below || version < v->below) v->below = version;
    v->evidence |= evidence;
}

/* Entry stride of a pointer-list chunk with at least two entries (0 if unknown). */
static uint32_t list_stride(const datawin_state *st, const datawin_chunk_span *c)
{
    if (!c || c->size < 12) return 0;
    const uint8_t *d = st->file + c->data;
    uint32_t n = datawin_le32(d);
    if (n < 2 || n > (c->size - 4) / 4) return 0;
    uint32_t a = datawin_le32(d + 4), b = datawin_le32(d + 8);
    return a && b > a ? b - a : 0;
}

static int list_has_null(const datawin_state *st, const char *id)
{
    const datawin_chunk_span *c = datawin_find_chunk(st, id);
    if (!c || c->size < 4) return 0;
    uint32_t n = datawin_le32(st->file + c->data);
    if (n > (c->size - 4) / 4) return 0;
    for (uint32_t i = 0; i < n; i++)
        if (datawin_le32(st->file + c->data + 4 + 4 * i) == 0) return 1;
    return 0;
}

static datawin_version infer_version(const datawin_state *st)
{
    datawin_version v = {0, 0, 0};
    if (!st->chunk_count) return v;
    if (st->major < 2) {
        raise_to(&v, DATAWIN_V(1, st->bytecode >= 16 ? 4 : 0, 0), DATAWIN_EVIDENCE_GEN8);
        lower_to(&v, DATAWIN_V(2, 0, 0), DATAWIN_EVIDENCE_GEN8);
        return v;
    }
    raise_to(&v, DATAWIN_V(2, 0, 0), DATAWIN_EVIDENCE_GEN8);
    if (st->bytecode <= 16) lower_to(&v, DATAWIN_V(2, 2, 1), DATAWIN_EVIDENCE_GEN8);
    static const struct { const char *id; uint32_t since; } milestones[] = {
        {"TGIN", DATAWIN_V(2, 2, 1)}, {"SEQN", DATAWIN_V(2, 3, 0)}, {"FEDS", DATAWIN_V(2, 3, 6)},
        {"FEAT", DATAWIN_V(2022, 8, 0)}, {"PSEM", DATAWIN_V(2023, 2, 0)}, {"UILR", DATAWIN_V(2024, 13, 0)},
    };
    for (size_t i = 0; i < sizeof milestones / sizeof milestones[0]; i++) {
        if (datawin_find_chunk(st, milestones[i].id)) raise_to(&v, milestones[i].since, DATAWIN_EVIDENCE_CHUNKS);
        else lower_to(&v, milestones[i].since, DATAWIN_EVIDENCE_CHUNKS);
    }
    uint32_t txtr = list_stride(st, datawin_find_chunk(st, "TXTR"));
    if (txtr == 12) { raise_to(&v, DATAWIN_V(2, 0, 6), DATAWIN_EVIDENCE_TXTR); lower_to(&v, DATAWIN_V(2022, 3, 0), DATAWIN_EVIDENCE_TXTR); }
    if (txtr == 16) { raise_to(&v, DATAWIN_V(2022, 3, 0), DATAWIN_EVIDENCE_TXTR); lower_to(&v, DATAWIN_V(2022, 9, 0), DATAWIN_EVIDENCE_TXTR); }
    if (txtr == 28) raise_to(&v, DATAWIN_V(2022, 9, 0), DATAWIN_EVIDENCE_TXTR);
    uint32_t sond = list_stride(st, datawin_find_chunk(st, "SOND"));
    if (sond == 36) lower_to(&v, DATAWIN_V(2024, 6, 0), DATAWIN_EVIDENCE_SOND);
    if (sond == 40) raise_to(&v, DATAWIN_V(2024, 6, 0), DATAWIN_EVIDENCE_SOND);
    static const char *const lists[] = {"SOND", "AGRP", "SPRT", "BGND", "SCPT", "SHDR", "FONT", "OBJT", "ROOM"};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        if (list_has_null(st, lists[i])) raise_to(&v, DATAWIN_V(2024, 11, 0), DATAWIN_EVIDENCE_NULLS);
    if (v.below && v.below <= v.at_least) v.below = 0; /* contradictory evidence: say only what is known */
    return v;
}

/* ---------- the container ---------- */

/* Chunks whose opaque bytes hold absolute pointers (other than string references, which are
 * relinked): they are only valid where they were laid out. */
static int chunk_is_position_free(const char *id)
{
    static const char *const free_ids[] = {"GLOB", "GMEN", "DAFL", "LANG", "FEAT"};
    for (size_t i = 0; i < sizeof free_ids / sizeof free_ids[0]; i++)
        if (memcmp(id, free_ids[i], 4) == 0) return 1;
    return 0;
}

/* The string references of an opaque chunk: their words are zero in the model's bytes (the
 * address is derived) and the list says which string each one names. */
static void opaque_strrefs(rb_ar *ar, datawin_state *st, const uint32_t *offsets, const uint32_t *targets, size_t count,
                           int walked, uint64_t data_at, uint64_t data_size)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    if (!rb_ar_has(ar, "strrefs", reading && st->strings_linked)) return;
    rb_ar_uint_detached(ar, "strrefsFoundByScan", RB_U8, !walked);
    count = rb_ar_list_begin_n(ar, "strrefs", count, 0);
    RB_AR_RECORDS(ar, i, count) {
        uint32_t at = (uint32_t)rb_ar_uint_detached(ar, "at", RB_U32, offsets ? offsets[i] : 0);
        long target = reading ? datawin_string_at(st, targets[i]) : 0;
        uint32_t size = 0;
        const uint8_t *read_text = reading ? datawin_string_text(st, target, &size) : NULL;
        const rb_node *text = rb_ar_string_detached(ar, "string", read_text, size);
        /* the n-th string with that text, when STRG repeats it (kept only then) */
        uint32_t repeat = reading ? st->string_occurrence[target] : 0;
        uint64_t occurrence = rb_ar_has(ar, "occurrence", repeat != 0) ? rb_ar_uint_detached(ar, "occurrence", RB_U32, repeat) : 0;
        if (rb_ar_direction(ar) == RB_AR_WRITE && text) {
            if ((uint64_t)at + 4 > data_size)
                rb_ar_fail(ar, RB_E_MODEL, "string reference at %u is outside the chunk's %llu bytes", at,
                           (unsigned long long)data_size);
            else
                datawin_add_text_link(ar, st, (size_t)(data_at + at), text, occurrence, "strrefs");
        }
    }
}

/* READ: the chunk's bytes with every string reference word set to zero (an arena copy). */
static void mask_strrefs(rb_ar *ar, const rb_node *data, const uint32_t *offsets, uint32_t *targets, size_t count)
{
    if (!count) return;
    uint8_t *copy = rb_arena_alloc(rb_ar_arena(ar), data->v.bytes.size);
    if (!copy) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    memcpy(copy, data->v.bytes.data, data->v.bytes.size);
    for (size_t i = 0; i < count; i++) {
        targets[i] = datawin_le32(copy + offsets[i]);
        memset(copy + offsets[i], 0, 4);
    }
    rb_node *built = rb_ar_own(ar, data); /* the node this READ made: ours to finish */
    if (built) built->v.bytes.data = copy;
    else rb_ar_fail(ar, RB_E_MODEL, "the chunk's bytes are not the current record's");
}

/* Chunks that point at TPAG items: kept opaque, they pin TPAG where it was
 * (docs/formats/datawin.md "Pointers"). */
static int chunk_points_into_tpag(const char *id)
{
    static const char *const ids[] = {"SPRT", "BGND", "FONT", "OPTN", "EMBI"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (memcmp(id, ids[i], 4) == 0) return 1;
    return 0;
}

static void opaque_chunk(rb_ar *ar, datawin_state *st, const char *id, const datawin_chunk_span *span)
{
    uint64_t here = datawin_abs(ar, st);
    /* where the chunk was laid out matters only for chunks that hold absolute pointers */
    int pinned = !chunk_is_position_free(id);
    uint64_t laid_out_at = rb_ar_has(ar, "laidOutAt", pinned) ? rb_ar_uint_detached(ar, "laidOutAt", RB_U32, st->chunk_base) : here;
    if (chunk_points_into_tpag(id)) st->tpag_pinned = 1;
    if (rb_ar_direction(ar) == RB_AR_WRITE && laid_out_at != here && !chunk_is_position_free(id)) {
        rb_ar_fail(ar, RB_E_MODEL,
                   "chunk %.4s is kept opaque and holds absolute pointers valid at 0x%llx, but it would be written at "
                   "0x%llx (something before it changed size)",
                   id, (unsigned long long)laid_out_at, (unsigned long long)here);
        return;
    }
    uint32_t *offsets = NULL, *targets = NULL;
    size_t count = 0;
    int walked = 1;
    if (rb_ar_direction(ar) == RB_AR_READ) datawin_code_chunk_opaque(st, id);
    if (rb_ar_direction(ar) == RB_AR_READ && st->strings_linked) {
        walked = datawin_find_strrefs(st, span, &offsets, &count);
        targets = calloc(count ? count : 1, sizeof *targets);
        if (!targets) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); free(offsets); return; }
    }
    const rb_node *data = rb_ar_rest(ar, "data");
    if (data && rb_ar_direction(ar) == RB_AR_READ) mask_strrefs(ar, data, offsets, targets, count);
    if (data) opaque_strrefs(ar, st, offsets, targets, count, walked, here, data->v.bytes.size);
    free(offsets);
    free(targets);
}

/* The typed chunk descriptions. `fits` (optional) is a cheap READ-side check of the whole
 * layout; without it the chunk is read speculatively and kept opaque if its description fails. */
typedef struct datawin_typed_chunk {
    const char *id;
    int (*fits)(const datawin_state *st, const datawin_chunk_span *c);
    void (*describe)(rb_ar *ar, datawin_state *st);
} datawin_typed_chunk;

static int strg_fits(const datawin_state *st, const datawin_chunk_span *c) { (void)st; (void)c; return 1; }

static const datawin_typed_chunk typed_chunks[] = {
    {"STRG", strg_fits, datawin_chunk_strg},
    {"GEN8", datawin_gen8_fits, datawin_chunk_gen8},
    {"TPAG", datawin_tpag_fits, datawin_chunk_tpag},
    {"TXTR", datawin_txtr_fits, datawin_chunk_txtr},
    {"AUDO", datawin_audo_fits, datawin_chunk_audo},
    /* describe NULL: not typed yet (kept opaque) */
    {"OPTN", NULL, datawin_chunk_optn}, {"LANG", NULL, datawin_chunk_lang}, {"EXTN", NULL, datawin_chunk_extn}, {"SOND", NULL, datawin_chunk_sond},
    {"AGRP", NULL, datawin_chunk_agrp}, {"PATH", NULL, datawin_chunk_path}, {"SCPT", NULL, datawin_chunk_scpt}, {"GLOB", NULL, datawin_chunk_glob},
    {"SHDR", NULL, datawin_chunk_shdr}, {"TMLN", NULL, datawin_chunk_tmln}, {"OBJT", NULL, datawin_chunk_objt},
    {"SPRT", NULL, datawin_chunk_sprt}, {"BGND", NULL, datawin_chunk_bgnd}, {"FONT", NULL, datawin_chunk_font},
    {"ROOM", NULL, datawin_chunk_room},
    {"ACRV", NULL, datawin_chunk_acrv}, {"SEQN", NULL, datawin_chunk_seqn}, {"TAGS", NULL, datawin_chunk_tags}, {"FEDS", NULL, datawin_chunk_feds},
    {"PSEM", NULL, datawin_chunk_psem}, {"PSYS", NULL, datawin_chunk_psys}, {"EMBI", NULL, datawin_chunk_embi}, {"FEAT", NULL, datawin_chunk_feat},
    {"TGIN", NULL, datawin_chunk_tgin}, {"DAFL", NULL, datawin_chunk_dafl},
    {"CODE", NULL, datawin_chunk_code}, {"VARI", NULL, datawin_chunk_vari}, {"FUNC", NULL, datawin_chunk_func},
    {"UILR", NULL, datawin_chunk_uilr},
};

static const datawin_typed_chunk *typed_chunk_for(const char *id)
{
    for (size_t i = 0; i < sizeof typed_chunks / sizeof typed_chunks[0]; i++)
        if (memcmp(id, typed_chunks[i].id, 4) == 0) return typed_chunks[i].describe ? &typed_chunks[i] : NULL;
    return NULL;
}

static void typed_chunk(rb_ar *ar, datawin_state *st, const char *id, const datawin_chunk_span *span)
{
    const datawin_typed_chunk *t = typed_chunk_for(id);
    if (!t) {
        rb_ar_fail(ar, RB_E_MODEL, "chunk %.4s has no typed description (give it as \"data\")", id);
        return;
    }
    t->describe(ar, st);
    uint64_t end = span ? (uint64_t)span->data + span->size : 0;
    datawin_gap(ar, st, "padding", st->is_last_chunk ? 1 : st->alignment, end);
}

/* READ: the typed description if it reproduces the chunk, else the bytes kept opaque (with a
 * note saying why, for format research). 1 when typed. */
static int read_chunk_body(rb_ar *ar, datawin_state *st, const char *id, const datawin_chunk_span *span)
{
    const datawin_typed_chunk *t = st->strings_linked ? typed_chunk_for(id) : NULL;
    if (!t || (t->fits && !t->fits(st, span))) {
        opaque_chunk(ar, st, id, span);
        return 0;
    }
    rb_ar_mark mark = rb_ar_mark_here(ar);
    typed_chunk(ar, st, id, span);
    if (rb_ar_ok(ar) || mark.failed) return 1;
    char why[300];
    rb_ar_rewind(ar, &mark, why, sizeof why);
    rb_ar_note(ar, "chunk %.4s kept opaque: %s", id, why);
    opaque_chunk(ar, st, id, span);
    return 0;
}

static void one_chunk(rb_ar *ar, datawin_state *st, size_t index)
{
    rb_ar_dir dir = rb_ar_direction(ar);
    if (datawin_write_deferred_chunk(ar, st)) return;
    const datawin_chunk_span *span = dir == RB_AR_READ && index < st->chunk_count ? &st->chunks[index] : NULL;
    rb_ar_unit unit = rb_ar_unit_begin(ar); /* READ, deferring: the chunk may be kept as its bytes */
    int typed = 0;
    rb_ar_record_begin(ar, NULL);
    const rb_node *id_node = rb_ar_fixed_string(ar, "id", 4);
    char id[5] = "????";
    if (id_node && id_node->v.bytes.size == 4) memcpy(id, id_node->v.bytes.data, 4);
    rb_ar_sized_begin(ar, "chunkLength", RB_U32);
    if (span) st->chunk_base = span->data;
    if (dir == RB_AR_READ) {
        if (span && rb_ar_ok(ar)) typed = read_chunk_body(ar, st, id, span);
    } else if (rb_ar_has(ar, "data", 0)) {
        opaque_chunk(ar, st, id, span);
    } else if (rb_ar_ok(ar)) {
        typed_chunk(ar, st, id, span);
    }
    rb_ar_sized_end(ar);
    rb_ar_record_end(ar);
    if (unit.open) datawin_defer_chunk(ar, st, &unit, id, typed);
}

static void chunk_list(rb_ar *ar, datawin_state *st)
{
    rb_ar_list_begin_open(ar, "chunks");
    uint64_t count = rb_ar_direction(ar) == RB_AR_READ ? st->chunk_count : rb_ar_list_length(ar);
    for (size_t i = 0; rb_ar_ok(ar) && rb_ar_list_has_more(ar); i++) {
        if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_at_end(ar)) break;
        st->is_last_chunk = i + 1 == count;
        one_chunk(ar, st, i);
    }
    rb_ar_list_end(ar);
}

/* ---------- resolving links once every target is laid out ---------- */

/* What holds a text link, for messages: the code entry and instruction of a bytecode operand,
 * else the field and where it was written. */
static void link_holder(const datawin_state *st, const datawin_fixup *f, char *out, size_t size)
{
    char code[300];
    datawin_code_where(st, f->position, code, sizeof code);
    const char *key = f->key ? f->key : "string reference";
    if (code[0]) snprintf(out, size, "%s: %s", code, key);
    else snprintf(out, size, "%s (written at 0x%zx)", key, f->position);
}

/* The index of the string a text link names: the occurrence-th string with that text (-1: failed).
 * STRG has every text named before it (datawin_chunk_strg appends them), so what fails here is a link
 * to a repeated copy that is not there, or a text named after STRG was written. */
static long string_with_text(rb_ar *ar, const datawin_state *st, const datawin_fixup *f)
{
    long index = datawin_string_with_text(st, f->text, f->index);
    if (index >= 0) return index;
    char holder[400];
    link_holder(st, f, holder, sizeof holder);
    int shown = f->text->v.bytes.size > 80 ? 80 : (int)f->text->v.bytes.size;
    const char *text = (const char *)f->text->v.bytes.data;
    if (f->index) {
        uint64_t copies = datawin_strings_with_text(st, f->text);
        rb_ar_fail(ar, RB_E_MODEL,
                   "%s: occurrence %llu of the string \"%.*s\" is named, but STRG has %llu string%s with that text "
                   "(occurrence counts from 0)",
                   holder, (unsigned long long)f->index, shown, text, (unsigned long long)copies, copies == 1 ? "" : "s");
    } else if (!st->strg_at) {
        rb_ar_fail(ar, RB_E_MODEL, "%s: the string \"%.*s\" is named, but the model has no typed STRG chunk to hold it",
                   holder, shown, text);
    } else {
        rb_ar_fail(ar, RB_E_MODEL,
                   "%s: the string \"%.*s\" is not in STRG, and this reference is written after STRG (which takes "
                   "the texts named before it); add it, e.g. {\"op\":\"add\",\"path\":\"/chunks/[id=STRG]/strings/-\",\"value\":\"...\"}",
                   holder, shown, text);
    }
    return -1;
}

static int resolve_text(rb_ar *ar, const datawin_state *st, const datawin_fixup *f, uint64_t *address)
{
    long index = string_with_text(ar, st, f);
    if (index >= 0) *address = st->string_address[index];
    return index >= 0;
}

/* DATAWIN_LINK_STRING_INDEX: the string's index in the bits of the written word not in `kept_mask`. */
static int resolve_text_index(rb_ar *ar, const datawin_state *st, const datawin_fixup *f, uint64_t *word)
{
    long index = string_with_text(ar, st, f);
    if (index < 0) return 0;
    uint8_t written[4];
    if (!rb_ar_read_written(ar, f->position, written, 4) || ((uint64_t)index & f->kept_mask)) {
        char holder[400];
        link_holder(st, f, holder, sizeof holder);
        rb_ar_fail(ar, RB_E_MODEL, "%s: string index %ld does not fit in its operand", holder, index);
        return 0;
    }
    *word = (datawin_le32(written) & f->kept_mask) | (uint64_t)index;
    return 1;
}

static int link_address(rb_ar *ar, const datawin_state *st, const datawin_fixup *f, uint64_t *address)
{
    if (f->kind == DATAWIN_LINK_STRING_TEXT) return resolve_text(ar, st, f, address);
    if (f->kind == DATAWIN_LINK_STRING_INDEX) return resolve_text_index(ar, st, f, address);
    if (f->kind == DATAWIN_LINK_STRING) {
        if (f->index < st->string_count) { *address = st->string_address[f->index]; return 1; }
        rb_ar_fail(ar, RB_E_MODEL, "string reference to string %llu, but STRG has %zu strings",
                   (unsigned long long)f->index, st->string_count);
        return 0;
    }
    if (f->kind == DATAWIN_LINK_CODE) return datawin_code_link_address(ar, st, f->index, address);
    if (!st->tpag_known) {
        rb_ar_fail(ar, RB_E_MODEL, "a TPAG item is referenced but the file has no typed TPAG chunk");
        return 0;
    }
    if (f->index >= st->tpag_count) {
        rb_ar_fail(ar, RB_E_MODEL, "reference to TPAG item %llu, but TPAG has %llu items",
                   (unsigned long long)f->index, (unsigned long long)st->tpag_count);
        return 0;
    }
    *address = st->tpag_first + 22 * f->index;
    return 1;
}

static void patch_fixups(rb_ar *ar, datawin_state *st)
{
    RB_AR_EACH(ar, i, st->fixup_count) {
        uint64_t address = 0;
        if (!link_address(ar, st, &st->fixups[i], &address)) break;
        rb_slot slot = {.position = st->fixups[i].position, .wire = RB_U32, .valid = 1};
        rb_ar_slot_set(ar, &slot, address);
    }
}

static void version_report(rb_ar *ar, const datawin_state *st)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    datawin_version v = reading ? infer_version(st) : (datawin_version){0, 0, 0};
    /* informational: what the bytes say about the GameMaker version (never used for writing) */
    if (rb_ar_has(ar, "versionAtLeast", reading)) rb_ar_uint_detached(ar, "versionAtLeast", RB_U32, v.at_least);
    if (rb_ar_has(ar, "versionBelow", reading)) rb_ar_uint_detached(ar, "versionBelow", RB_U32, v.below);
    if (rb_ar_has(ar, "versionEvidence", reading)) rb_ar_uint_detached(ar, "versionEvidence", RB_X32, v.evidence);
    if (rb_ar_has(ar, "bytecodeVersion", reading)) rb_ar_uint_detached(ar, "bytecodeVersion", RB_U8, st->bytecode);
}

static void prepare_read(rb_ar *ar, datawin_state *st)
{
    if (!see_input(ar, st)) return;
    walk_chunks(st);
    read_gen8_facts(st);
    st->alignment = detect_alignment(st);
    const datawin_chunk_span *strg = datawin_find_chunk(st, "STRG");
    /* typed chunks share state (the string table, texture and page lists): a file with two of
     * one of them (never written by GameMaker) is kept whole, chunk by chunk (fuzz find) */
    int duplicated = 0;
    for (size_t t = 0; t < sizeof typed_chunks / sizeof typed_chunks[0]; t++) {
        if (!typed_chunks[t].describe) continue;
        int seen = 0;
        for (size_t i = 0; i < st->chunk_count; i++) seen += memcmp(st->chunks[i].id, typed_chunks[t].id, 4) == 0;
        duplicated |= seen > 1;
    }
    st->strings_linked = strg && !duplicated && datawin_build_string_map(st, strg);
    if (st->strings_linked) st->strg_data = strg->data;
    if (!duplicated) datawin_note_tpag(st, datawin_find_chunk(st, "TPAG"));
}

static void datawin_describe(rb_ar *ar)
{
    datawin_state st;
    memset(&st, 0, sizeof st);
    st.alignment = 16;
    rb_ar_set_user(ar, &st);
    if (rb_ar_direction(ar) == RB_AR_READ) prepare_read(ar, &st);
    rb_ar_expect(ar, "FORM magic", "FORM", 4);
    version_report(ar, &st);
    st.alignment = (unsigned)rb_ar_uint_detached(ar, "chunkAlignment", RB_U8, st.alignment);
    if (rb_ar_ok(ar) && st.alignment != 1 && st.alignment != 4 && st.alignment != 16)
        rb_ar_fail(ar, RB_E_MODEL, "chunkAlignment must be 1, 4 or 16, not %u", st.alignment);
    rb_ar_sized_begin(ar, "formLength", RB_U32);
    chunk_list(ar, &st);
    rb_ar_sized_end(ar);
    if (rb_ar_direction(ar) == RB_AR_WRITE) patch_fixups(ar, &st);
    rb_ar_set_user(ar, NULL);
    free(st.string_occurrence);
    datawin_strg_free(&st);
    free(st.chunks);
    free(st.strings.items);
    free(st.fixups);
    datawin_code_free(&st);
}

/* Natural keys: room instances and tiles by their instance id (unique in a game). */
static const rb_key_set DATAWIN_IDENTITY_KEYS[] = {{70, {"instanceId", NULL}}};

const rb_format rb_format_datawin = {
    .name = "datawin",
    .description = "GameMaker data.win (GM:S 1.4 to GameMaker 2024.x)",
    .detect = datawin_detect,
    .describe = datawin_describe,
    .summary = datawin_summary,
    .plan = datawin_plan,
    .rules = datawin_rules,
    .identity_keys = DATAWIN_IDENTITY_KEYS,
    .identity_key_count = 1,
    .assets = datawin_assets,
    .asset_patch = datawin_asset_patch,
    .picture_pixels = datawin_picture_pixels,
    .followers = datawin_string_followers,
    .written_lists = datawin_written_lists,
    .unit_reads = datawin_unit_reads,
    .unit_member = datawin_unit_member,
};
