/*
 * Typed chunks besides STRG: GEN8 (general info), TPAG (texture page items), TXTR (texture
 * pages + image blobs), AUDO (embedded audio blobs). Layouts: docs/formats/datawin.md "GEN8",
 * "TPAG", "TXTR", "AUDO".
 *
 * Each has a READ-side check ("fits"): when a chunk does not have exactly the layout the
 * description writes, it stays opaque, so typing never costs byte-exactness.
 */
#include <stdlib.h>
#include <string.h>
#include "core/datawin/datawin_internal.h"

static const uint8_t datawin_zeros[128];

/* Zero fill up to `alignment` (absolute); the chunk's "fits" check vouched for it in READ. */
static void zero_fill(rb_ar *ar, const datawin_state *st, unsigned alignment)
{
    uint64_t here = datawin_abs(ar, st);
    uint64_t n = (alignment - here % alignment) % alignment;
    if (n && rb_ar_direction(ar) != RB_AR_FROM_JSON) rb_ar_expect(ar, "zero fill", datawin_zeros, (size_t)n);
}

static int zeros_between(const datawin_state *st, uint64_t from, uint64_t to)
{
    for (uint64_t i = from; i < to; i++)
        if (st->file[i]) return 0;
    return 1;
}

static uint64_t fill_to(uint64_t position, unsigned alignment) { return (alignment - position % alignment) % alignment; }

/* Pointer table of a list chunk whose data starts at `c->data + header`: 0 if it does not fit. */
static int table_fits(const datawin_state *st, const datawin_chunk_span *c, uint32_t header, uint32_t *count)
{
    if (c->size < header + 4) return 0;
    *count = datawin_le32(st->file + c->data + header);
    return *count <= (c->size - header - 4) / 4;
}

/* ---------- GEN8 ---------- */

static void blob16(rb_ar *ar, const char *key) { rb_ar_bytes(ar, key, RB_K_BLOB, 16); }

static int strref_ok(const datawin_state *st, uint32_t value) { return value == 0 || datawin_string_at(st, value) >= 0; }

/* Size of GEN8 content (without padding), or 0 if the chunk cannot be GEN8. */
static uint64_t gen8_content_size(const datawin_state *st, const datawin_chunk_span *c)
{
    const uint8_t *g = st->file + c->data;
    if (c->size < 132) return 0;
    uint64_t at = g[1] >= 14 ? 128 : 124;
    uint64_t rooms = datawin_le32(g + at);
    if (rooms > (c->size - at - 4) / 4) return 0;
    at += 4 + 4 * rooms;
    if (datawin_le32(g + 44) >= 2) at += 40 + 4 + 4 + 16;
    return at <= c->size ? at : 0;
}

int datawin_gen8_fits(const datawin_state *st, const datawin_chunk_span *c)
{
    if (!gen8_content_size(st, c)) return 0;
    const uint8_t *g = st->file + c->data;
    return strref_ok(st, datawin_le32(g + 4)) && strref_ok(st, datawin_le32(g + 8)) && strref_ok(st, datawin_le32(g + 40)) &&
           strref_ok(st, datawin_le32(g + 100));
}

void datawin_chunk_gen8(rb_ar *ar, datawin_state *st)
{
    rb_ar_u8(ar, "debuggerDisabled");
    unsigned bytecode = rb_ar_u8(ar, "bytecodeVersion");
    rb_ar_u16(ar, "unknown");
    datawin_strref(ar, st, "fileName");
    datawin_strref(ar, st, "config");
    rb_ar_u32(ar, "lastObject");
    rb_ar_u32(ar, "lastTile");
    rb_ar_u32(ar, "gameId");
    blob16(ar, "directPlayGuid");
    datawin_strref(ar, st, "name");
    unsigned major = rb_ar_u32(ar, "major");
    rb_ar_u32(ar, "minor");
    rb_ar_u32(ar, "release");
    unsigned build = rb_ar_u32(ar, "build");
    /* the later chunks' layouts depend on these in every direction (READ had them from the pre-pass) */
    st->bytecode = bytecode;
    st->major = major;
    st->build = build;
    rb_ar_u32(ar, "defaultWindowWidth");
    rb_ar_u32(ar, "defaultWindowHeight");
    rb_ar_x32(ar, "infoFlags");
    rb_ar_x32(ar, "licenseCrc32");
    blob16(ar, "licenseMd5");
    rb_ar_u64(ar, "timestamp");
    datawin_strref(ar, st, "displayName");
    rb_ar_uint(ar, "activeTargets", RB_U64 | RB_W_HEX);
    rb_ar_uint(ar, "functionClassifications", RB_U64 | RB_W_HEX);
    rb_ar_i32(ar, "steamAppId");
    if (bytecode >= 14) rb_ar_u32(ar, "debuggerPort");
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "roomOrder", RB_U32, 4)) rb_ar_i32(ar, NULL);
    if (major >= 2) {
        /* seeded from the timestamp, window size, flags and room count: kept verbatim
         * (docs/formats/datawin.md "GEN8") */
        rb_ar_bytes(ar, "randomUid", RB_K_BLOB, 40);
        rb_ar_f32(ar, "gameSpeed");
        rb_ar_bool(ar, "allowStatistics", 4);
        blob16(ar, "gameGuid");
    }
}

/* ---------- TPAG ---------- */

int datawin_tpag_fits(const datawin_state *st, const datawin_chunk_span *c)
{
    uint32_t n;
    if (!table_fits(st, c, 0, &n)) return 0;
    uint64_t items = (uint64_t)c->data + 4 + 4ull * n;
    if (4 + 4ull * n + 22ull * n > c->size) return 0;
    for (uint32_t i = 0; i < n; i++)
        if (datawin_le32(st->file + c->data + 4 + 4 * i) != items + 22ull * i) return 0;
    return 1;
}

/* READ pre-pass: where the TPAG items are (22 bytes each, right after TPAG's pointer table). */
void datawin_note_tpag(datawin_state *st, const datawin_chunk_span *tpag)
{
    if (!tpag || !datawin_tpag_fits(st, tpag)) return;
    st->tpag_count = datawin_le32(st->file + tpag->data);
    st->tpag_first = (uint64_t)tpag->data + 4 + 4ull * st->tpag_count;
    st->tpag_known = 1;
}

/* TPAG items are the targets of pointers in SPRT, BGND, FONT, OPTN and EMBI, which may be kept
 * opaque: the items must stay where they were, so only their fields can be edited. */
void datawin_chunk_tpag(rb_ar *ar, datawin_state *st)
{
    /* the position is part of the model only while an opaque chunk (read before TPAG) pins it */
    int recorded = rb_ar_has(ar, "laidOutAt", st->tpag_pinned);
    uint64_t laid_out_at = recorded ? rb_ar_uint_detached(ar, "laidOutAt", RB_U32, st->chunk_base) : datawin_abs(ar, st);
    if (rb_ar_direction(ar) == RB_AR_WRITE && st->tpag_pinned && !recorded) {
        rb_ar_fail(ar, RB_E_MODEL, "an opaque chunk points at TPAG items, but TPAG has no laidOutAt to keep them there");
        return;
    }
    if (rb_ar_direction(ar) == RB_AR_WRITE && st->tpag_pinned && laid_out_at != datawin_abs(ar, st)) {
        rb_ar_fail(ar, RB_E_MODEL, "TPAG items are pointed at from opaque chunks: TPAG must stay at 0x%llx",
                   (unsigned long long)laid_out_at);
        return;
    }
    rb_slot count_slot = rb_ar_slot(ar, "itemCount", RB_U32);
    uint64_t count = rb_ar_count_of(ar, "items", count_slot.value);
    rb_ar_slot_set(ar, &count_slot, count);
    uint64_t first = datawin_abs(ar, st) + 4 * count;
    if (rb_ar_direction(ar) == RB_AR_WRITE) {
        st->tpag_first = first;
        st->tpag_count = count;
        st->tpag_known = 1;
    }
    RB_AR_EACH(ar, i, count) {
        rb_slot p = rb_ar_slot(ar, "itemPointer", RB_U32);
        rb_ar_slot_set(ar, &p, first + 22 * i);
    }
    static const char *const fields[] = {"sourceX", "sourceY", "sourceWidth", "sourceHeight", "targetX",
                                         "targetY", "targetWidth", "targetHeight", "boundingWidth", "boundingHeight"};
    count = rb_ar_list_begin_n(ar, "items", count, 22);
    RB_AR_RECORDS(ar, i, count) {
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) rb_ar_u16(ar, fields[f]);
        rb_ar_sint(ar, "texturePage", RB_I16);
    }
}

/* ---------- TXTR ---------- */

/* Length of a PNG stream (signature + chunks up to IEND), or 0. */
static uint64_t png_length(const uint8_t *p, uint64_t avail)
{
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (avail < 8 || memcmp(p, signature, 8) != 0) return 0;
    uint64_t at = 8;
    while (at + 12 <= avail) {
        uint64_t length = (uint64_t)p[at] << 24 | (uint64_t)p[at + 1] << 16 | (uint64_t)p[at + 2] << 8 | p[at + 3];
        int is_end = memcmp(p + at + 4, "IEND", 4) == 0;
        if (length > avail - at - 12) return 0;
        at += 12 + length;
        if (is_end) return at;
    }
    return 0;
}

typedef struct txtr_layout { uint32_t count, words; } txtr_layout;

/* Entry words (u32 fields, the last being the blob pointer): 2 (GM:S 1.x), 3 (+ generated mips,
 * 2.0.6), 4 (+ blob size, 2022.3), 7 (+ width, height, index in group, 2022.9). */
static int txtr_entry_words(const datawin_state *st, const datawin_chunk_span *c, uint32_t n)
{
    uint64_t table_end = (uint64_t)c->data + 4 + 4ull * n;
    static const int candidates[] = {7, 4, 3, 2};
    for (size_t k = 0; k < 4; k++) {
        uint32_t w = (uint32_t)candidates[k];
        if (4 + 4ull * n + 4ull * w * n > c->size) continue;
        int ok = 1;
        for (uint32_t i = 0; i < n && ok; i++) ok = datawin_le32(st->file + c->data + 4 + 4 * i) == table_end + 4ull * w * i;
        if (!ok) continue;
        /* the first non-null blob pointer must be the first 128-aligned offset after the entries */
        uint64_t entries_end = table_end + 4ull * w * n;
        int found = 0;
        for (uint32_t i = 0; i < n && !found; i++) {
            uint32_t blob = datawin_le32(st->file + table_end + 4ull * w * i + 4ull * (w - 1));
            if (!blob) continue;
            found = 1;
            if (blob == entries_end + fill_to(entries_end, 128)) return (int)w;
        }
        if (!found && n >= 2) return (int)w; /* the table's stride alone tells the layout */
    }
    return n == 0 ? 2 : 0;
}

/* Blob length: the stored size (2022.3+), else a PNG walk; other encodings keep TXTR opaque. */
static uint64_t txtr_blob_length(const datawin_state *st, const uint8_t *entry, uint32_t words, uint64_t blob, uint64_t end)
{
    if (words >= 4) {
        uint64_t size = datawin_le32(entry + 8);
        return size <= end - blob ? size : 0;
    }
    return png_length(st->file + blob, end - blob);
}

int datawin_txtr_fits(const datawin_state *st, const datawin_chunk_span *c)
{
    uint32_t n;
    if (!table_fits(st, c, 0, &n)) return 0;
    int words = txtr_entry_words(st, c, n);
    if (!words) return 0;
    uint64_t end = (uint64_t)c->data + c->size;
    uint64_t pos = (uint64_t)c->data + 4 + 4ull * n + 4ull * (uint64_t)words * n;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *entry = st->file + c->data + 4 + 4ull * n + 4ull * (uint64_t)words * i;
        uint64_t blob = datawin_le32(entry + 4 * (words - 1));
        if (!blob) continue;
        if (blob != pos + fill_to(pos, 128) || blob >= end || !zeros_between(st, pos, blob)) return 0;
        uint64_t length = txtr_blob_length(st, entry, (uint32_t)words, blob, end);
        if (!length) return 0;
        pos = blob + length;
    }
    uint64_t tail = pos + fill_to(pos, 4);
    return tail <= end && zeros_between(st, pos, end);
}

void datawin_chunk_txtr(rb_ar *ar, datawin_state *st)
{
    rb_ar_dir dir = rb_ar_direction(ar);
    uint32_t n_read = 0;
    if (dir == RB_AR_READ) n_read = datawin_le32(st->file + st->chunk_base);
    const datawin_chunk_span span = {"TXTR", (uint32_t)st->chunk_base, (uint32_t)rb_ar_remaining(ar)};
    unsigned words = (unsigned)rb_ar_uint_detached(ar, "entryWords", RB_U8,
                                                   dir == RB_AR_READ ? (uint64_t)txtr_entry_words(st, &span, n_read) : 0);
    if (rb_ar_ok(ar) && words != 2 && words != 3 && words != 4 && words != 7) {
        rb_ar_fail(ar, RB_E_MODEL, "entryWords must be 2, 3, 4 or 7, not %u", words);
        return;
    }
    rb_slot count_slot = rb_ar_slot(ar, "textureCount", RB_U32);
    uint64_t count = rb_ar_count_of(ar, "textures", count_slot.value);
    rb_ar_slot_set(ar, &count_slot, count);
    if (!datawin_count_fits(ar, count, 4, "textures")) return;
    rb_slot *slots = calloc((size_t)count * (words + 1) + 1, sizeof *slots);
    if (!slots) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu textures", (unsigned long long)count); return; }
    RB_AR_EACH(ar, i, count) slots[i] = rb_ar_slot(ar, "entryPointer", RB_U32);
    rb_slot *fields = slots + count;
    RB_AR_EACH(ar, i, count) {
        rb_ar_slot_set(ar, &slots[i], datawin_abs(ar, st));
        for (unsigned w = 0; w < words; w++) fields[i * words + w] = rb_ar_slot(ar, "entry field", RB_U32);
    }
    count = rb_ar_list_begin_n(ar, "textures", count, 0);
    RB_AR_LIST(ar, i, count) {
        rb_slot *f = &fields[i * words];
        rb_ar_record_begin(ar, NULL);
        rb_ar_slot_set(ar, &f[0], rb_ar_uint_detached(ar, "scaled", RB_U32, f[0].value));
        if (words >= 3) rb_ar_slot_set(ar, &f[1], rb_ar_uint_detached(ar, "generatedMips", RB_U32, f[1].value));
        if (words >= 7) {
            rb_ar_slot_set(ar, &f[3], rb_ar_uint_detached(ar, "width", RB_I32, f[3].value));
            rb_ar_slot_set(ar, &f[4], rb_ar_uint_detached(ar, "height", RB_I32, f[4].value));
            rb_ar_slot_set(ar, &f[5], rb_ar_uint_detached(ar, "indexInGroup", RB_I32, f[5].value));
        }
        uint64_t blob = f[words - 1].value;
        if (rb_ar_has(ar, "data", blob != 0)) {
            zero_fill(ar, st, 128);
            rb_ar_slot_set(ar, &f[words - 1], datawin_abs(ar, st));
            uint64_t length = 0;
            if (dir == RB_AR_READ) {
                const uint8_t *entry = st->file + datawin_le32(st->file + st->chunk_base + 4 + 4 * i);
                length = txtr_blob_length(st, entry, words, blob, st->chunk_base + span.size);
            }
            const rb_node *data = rb_ar_bytes(ar, "data", RB_K_BLOB, length);
            if (words >= 4 && data) rb_ar_slot_set(ar, &f[2], data->v.bytes.size);
        }
        rb_ar_record_end(ar);
    }
    free(slots);
    zero_fill(ar, st, 4);
}

/* ---------- AUDO ---------- */

int datawin_audo_fits(const datawin_state *st, const datawin_chunk_span *c)
{
    uint32_t n;
    if (!table_fits(st, c, 0, &n)) return 0;
    uint64_t end = (uint64_t)c->data + c->size;
    uint64_t pos = (uint64_t)c->data + 4 + 4ull * n;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t p = datawin_le32(st->file + c->data + 4 + 4ull * i);
        if (!p) continue;
        if (p != pos + fill_to(pos, 4) || p + 4 > end || !zeros_between(st, pos, p)) return 0;
        uint64_t length = datawin_le32(st->file + p);
        if (length > end - p - 4) return 0;
        pos = p + 4 + length;
    }
    return 1;
}

void datawin_chunk_audo(rb_ar *ar, datawin_state *st)
{
    rb_slot count_slot = rb_ar_slot(ar, "soundCount", RB_U32);
    uint64_t count = rb_ar_count_of(ar, "sounds", count_slot.value);
    rb_ar_slot_set(ar, &count_slot, count);
    if (!datawin_count_fits(ar, count, 4, "sounds")) return;
    rb_slot *table = calloc(count ? (size_t)count : 1, sizeof *table);
    if (!table) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu sounds", (unsigned long long)count); return; }
    RB_AR_EACH(ar, i, count) table[i] = rb_ar_slot(ar, "soundPointer", RB_U32);
    count = rb_ar_list_begin_n(ar, "sounds", count, 0);
    RB_AR_RECORDS(ar, i, count) {
        /* 2024.11+ "remove unused assets" leaves null entries: nothing is written for them */
        if (rb_ar_has(ar, "data", table[i].value != 0)) {
            zero_fill(ar, st, 4);
            rb_ar_slot_set(ar, &table[i], datawin_abs(ar, st));
            rb_slot length = rb_ar_slot(ar, "length", RB_U32);
            const rb_node *data = rb_ar_bytes(ar, "data", RB_K_BLOB, length.value);
            if (data) rb_ar_slot_set(ar, &length, data->v.bytes.size);
        }
    }
    free(table);
}
