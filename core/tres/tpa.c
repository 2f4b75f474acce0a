/*
 * Trespasser packed audio, .tpa version 0x150 (docs/formats/tres.md "TPA layout"): a 24-byte
 * header, a table of sound ids (56 bytes each), the sample bodies ("CAU", magic WBOR) back to back
 * without padding, then the collision ("foley") table when there is one.
 *
 * The id table says where each body is and repeats the body's 36-byte header; two ids may
 * share one body. The model lists the bodies once and gives each id the index of its body:
 * offsets, lengths and the header copies are derived on write (a copy that differs from the
 * body is kept as `headerCopy`). Sample data (PCM or IMA ADPCM) is a blob; the decompressed
 * size and the 4 junk bytes closing each subtitle block are kept as stored.
 */
#include <stdlib.h>
#include <string.h>
#include "core/tres/tres.h"
#include "core/tres/tres_assets.h"
#include "core/bytes.h"

enum {
    TPA_VERSION = 0x150,
    TPA_HEADER_BYTES = 24,
    TPA_ID_BYTES = 56,
    TPA_BODY_HEADER_BYTES = 36,
    TPA_FOLEY_BYTES = 152,
    WBOR = 0x524F4257u
};


static int tpa_detect(const uint8_t *data, size_t size)
{
    if (size < TPA_HEADER_BYTES || rb_le32(data) != TPA_VERSION || rb_le32(data + 8) != TPA_HEADER_BYTES) return 0;
    uint64_t ids = rb_le32(data + 20);
    if (ids > (size - TPA_HEADER_BYTES) / TPA_ID_BYTES) return 0;
    /* the first id's header copy starts with the body magic */
    if (ids && rb_le32(data + TPA_HEADER_BYTES + 20) != WBOR) return 0;
    return 80;
}

typedef struct tpa_body_place {
    uint32_t offset, length;
} tpa_body_place;

typedef struct tpa_state {
    /* READ: bodies in ascending offset order, from a look-ahead over the id table */
    tpa_body_place *bodies;
    size_t body_count;
    /* WRITE: where each id's offset, length and header copy go, patched after the bodies */
    rb_slot *id_offset, *id_length, *id_copy; /* id_copy: 9 slots per id */
    uint32_t *id_body;
    uint8_t *copy_kept; /* the id keeps its own header copy */
    size_t id_count;
    /* WRITE: what the bodies turned out to be */
    uint32_t *body_offset, *body_length;
    uint8_t (*body_header)[TPA_BODY_HEADER_BYTES];
} tpa_state;

static uint32_t peek32(rb_ar *ar, uint64_t at)
{
    uint32_t v = 0;
    rb_ar_peek_u32_at(ar, at, &v);
    return v;
}

static int by_offset(const void *a, const void *b)
{
    uint32_t x = ((const tpa_body_place *)a)->offset, y = ((const tpa_body_place *)b)->offset;
    return x < y ? -1 : x > y;
}

/* READ: the distinct bodies the id table points to; they must tile the space after it. */
static int find_bodies(rb_ar *ar, tpa_state *st, uint64_t ids, uint64_t bodies_end)
{
    st->bodies = calloc(ids + 1, sizeof *st->bodies);
    if (!st->bodies) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu ids", (unsigned long long)ids); return 0; }
    for (uint64_t i = 0; i < ids; i++) {
        tpa_body_place p = {peek32(ar, TPA_ID_BYTES * i + 4), peek32(ar, TPA_ID_BYTES * i + 8)};
        st->bodies[i] = p;
    }
    qsort(st->bodies, ids, sizeof *st->bodies, by_offset);
    size_t n = 0;
    for (uint64_t i = 0; i < ids; i++) {
        if (n && st->bodies[n - 1].offset == st->bodies[i].offset) {
            if (st->bodies[n - 1].length != st->bodies[i].length) {
                rb_ar_fail(ar, RB_E_UNSUPPORTED, "two ids give body 0x%X different lengths", st->bodies[i].offset);
                return 0;
            }
            continue;
        }
        st->bodies[n++] = st->bodies[i];
    }
    st->body_count = n;
    uint64_t at = TPA_HEADER_BYTES + TPA_ID_BYTES * ids;
    for (size_t i = 0; i < n; i++) {
        if (st->bodies[i].offset != at) {
            rb_ar_fail(ar, RB_E_UNSUPPORTED, "body %zu starts at 0x%X, not right after the previous one (0x%llX)", i,
                       st->bodies[i].offset, (unsigned long long)at);
            return 0;
        }
        at += st->bodies[i].length;
    }
    if (at != bodies_end) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "bodies end at 0x%llX, the collision table starts at 0x%llX",
                   (unsigned long long)at, (unsigned long long)bodies_end);
        return 0;
    }
    return 1;
}

static uint32_t body_index_of(const tpa_state *st, uint32_t offset)
{
    for (size_t i = 0; st->bodies && i < st->body_count; i++)
        if (st->bodies[i].offset == offset) return (uint32_t)i;
    return 0;
}

static void tpa_id(rb_ar *ar, tpa_state *st, uint64_t i)
{
    int dir = rb_ar_direction(ar);
    rb_ar_record_begin(ar, NULL);
    rb_ar_x32(ar, "id");
    rb_slot offset = rb_ar_slot(ar, "body offset", RB_U32);
    rb_slot length = rb_ar_slot(ar, "body length", RB_U32);
    uint32_t body = (uint32_t)rb_ar_uint_detached(ar, "body", RB_U32, body_index_of(st, (uint32_t)offset.value));
    rb_ar_f32(ar, "attenuation");
    rb_ar_f32(ar, "volume");
    int differs = 0;
    if (dir == RB_AR_READ) {
        /* compare the copy with the body's own header, which lies ahead */
        uint64_t cursor = rb_ar_tell(ar);
        for (uint64_t k = 0; k < TPA_BODY_HEADER_BYTES; k += 4)
            differs |= offset.value < cursor || peek32(ar, k) != peek32(ar, offset.value - cursor + k);
    }
    if (rb_ar_has(ar, "headerCopy", differs)) {
        rb_ar_bytes(ar, "headerCopy", RB_K_OPAQUE, TPA_BODY_HEADER_BYTES);
        if (dir == RB_AR_WRITE && i < st->id_count) st->copy_kept[i] = 1;
    } else {
        for (int k = 0; k < TPA_BODY_HEADER_BYTES / 4; k++) {
            rb_slot s = rb_ar_slot(ar, "header copy", RB_U32);
            if (dir == RB_AR_WRITE && i < st->id_count) st->id_copy[i * 9 + k] = s;
        }
    }
    if (dir == RB_AR_WRITE && i < st->id_count) {
        st->id_offset[i] = offset;
        st->id_length[i] = length;
        st->id_body[i] = body;
    }
    rb_ar_record_end(ar);
}

/* Subtitles: u32 length of the rest, u32 section count, sections (duration in 1/5 s, text),
 * then 4 bytes of junk. */
static void subtitle_sections(rb_ar *ar)
{
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "sections", RB_U32, 5)) {
        rb_ar_u32(ar, "duration");
        rb_ar_cstring(ar, "text");
    }
}

/* The 36-byte body header as the id table repeats it. */
static void put32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}

static void tpa_body(rb_ar *ar, tpa_state *st, uint64_t index)
{
    int dir = rb_ar_direction(ar);
    uint64_t start = rb_ar_tell(ar);
    uint32_t h[9];
    rb_ar_record_begin(ar, NULL);
    rb_ar_expect(ar, "body magic WBOR", "WBOR", 4);
    h[0] = WBOR;
    h[1] = rb_ar_u32(ar, "version");
    rb_slot data_at = rb_ar_slot(ar, "data offset", RB_U32);
    h[3] = rb_ar_u32(ar, "adpcmBlockSize");
    rb_slot data_size = rb_ar_slot(ar, "data size", RB_U32);
    h[5] = rb_ar_u32(ar, "decompressedSize"); /* from the packer; no simple formula: kept */
    h[6] = rb_ar_u32(ar, "sampleRate");
    uint32_t bits = rb_ar_u8(ar, "bits"), channels = rb_ar_u8(ar, "channels");
    uint32_t compression = rb_ar_u8(ar, "compression"), flags = rb_ar_u8(ar, "flags");
    h[7] = bits | channels << 8 | compression << 16 | flags << 24;
    rb_slot subtitles_at = rb_ar_slot(ar, "subtitle offset", RB_U32);
    if (dir == RB_AR_READ && subtitles_at.value != 0 && subtitles_at.value != TPA_BODY_HEADER_BYTES) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "subtitles at body offset %llu (only 36 is known)",
                   (unsigned long long)subtitles_at.value);
        rb_ar_record_end(ar);
        return;
    }
    int has_subtitles = rb_ar_has(ar, "subtitles", subtitles_at.value != 0);
    if (has_subtitles) {
        rb_ar_record_begin(ar, "subtitles");
        rb_ar_sized_begin(ar, "subtitle block length", RB_U32);
        subtitle_sections(ar);
        rb_ar_bytes(ar, "junk", RB_K_BLOB, 4);
        rb_ar_sized_end(ar);
        rb_ar_record_end(ar);
    }
    uint64_t header_end = rb_ar_tell(ar) - start;
    if (dir == RB_AR_READ && data_at.value != header_end) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "sample data at body offset %llu, expected %llu",
                   (unsigned long long)data_at.value, (unsigned long long)header_end);
        rb_ar_record_end(ar);
        return;
    }
    const rb_node *data = rb_ar_bytes(ar, "samples", RB_K_BLOB, data_size.value);
    rb_ar_record_end(ar);
    h[2] = (uint32_t)header_end;
    h[4] = data ? (uint32_t)data->v.bytes.size : 0;
    h[8] = has_subtitles ? TPA_BODY_HEADER_BYTES : 0;
    rb_ar_slot_set(ar, &data_at, h[2]);
    rb_ar_slot_set(ar, &data_size, h[4]);
    rb_ar_slot_set(ar, &subtitles_at, h[8]);
    if (dir == RB_AR_WRITE) {
        st->body_offset[index] = (uint32_t)start;
        st->body_length[index] = (uint32_t)(rb_ar_tell(ar) - start);
        for (int k = 0; k < 9; k++) put32(st->body_header[index] + 4 * k, h[k]);
    }
}

static void transfer(rb_ar *ar, const char *key)
{
    static const char *const names[10] = {"volumeMax", "volumeMin", "volumeSlope", "volumeIntercept", "pitchMax",
                                           "pitchMin", "pitchSlope", "pitchIntercept", "attenuation", "minimumVelocity"};
    rb_ar_record_begin(ar, key);
    for (int k = 0; k < 10; k++) rb_ar_f32(ar, names[k]);
    rb_ar_record_end(ar);
}

static void tpa_foley(rb_ar *ar)
{
    rb_ar_record_begin(ar, NULL);
    rb_ar_x32(ar, "material1"); /* the smaller material id */
    rb_ar_x32(ar, "material2");
    rb_ar_x32(ar, "flags");
    rb_ar_f32(ar, "minimumDelay");
    rb_ar_f32(ar, "timeLastUsed");
    rb_ar_x32(ar, "hit1");
    rb_ar_x32(ar, "hit2");
    rb_ar_x32(ar, "slide");
    transfer(ar, "hit1Transfer");
    transfer(ar, "hit2Transfer");
    transfer(ar, "slideTransfer");
    rb_ar_record_end(ar);
}

static int alloc_write_state(rb_ar *ar, tpa_state *st)
{
    const rb_node *root = rb_ar_current(ar);
    const rb_node *ids = rb_node_get(root, "ids"), *bodies = rb_node_get(root, "bodies");
    size_t n = ids ? ids->v.kids.count : 0, b = bodies ? bodies->v.kids.count : 0;
    st->id_count = n;
    st->id_offset = calloc(n + 1, sizeof(rb_slot));
    st->id_length = calloc(n + 1, sizeof(rb_slot));
    st->id_copy = calloc(9 * n + 1, sizeof(rb_slot));
    st->id_body = calloc(n + 1, sizeof(uint32_t));
    st->copy_kept = calloc(n + 1, 1);
    st->body_count = b;
    st->body_offset = calloc(b + 1, sizeof(uint32_t));
    st->body_length = calloc(b + 1, sizeof(uint32_t));
    st->body_header = calloc(b + 1, TPA_BODY_HEADER_BYTES);
    return st->id_offset && st->id_length && st->id_copy && st->id_body && st->copy_kept && st->body_offset &&
           st->body_length && st->body_header;
}

static void free_state(tpa_state *st)
{
    free(st->bodies);
    free(st->id_offset);
    free(st->id_length);
    free(st->id_copy);
    free(st->id_body);
    free(st->copy_kept);
    free(st->body_offset);
    free(st->body_length);
    free(st->body_header);
}

/* WRITE: now that the bodies are placed, fill in what the id table says about them. */
static void patch_ids(rb_ar *ar, tpa_state *st)
{
    RB_AR_EACH(ar, i, st->id_count) {
        uint32_t b = st->id_body[i];
        if (b >= st->body_count) {
            rb_ar_fail(ar, RB_E_MODEL, "id %zu points to body %u, there are %zu bodies", i, b, st->body_count);
            return;
        }
        rb_ar_slot_set(ar, &st->id_offset[i], st->body_offset[b]);
        rb_ar_slot_set(ar, &st->id_length[i], st->body_length[b]);
        if (st->copy_kept[i]) continue;
        for (int k = 0; k < 9; k++) {
            const uint8_t *p = st->body_header[b] + 4 * k;
            rb_ar_slot_set(ar, &st->id_copy[i * 9 + k], p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24);
        }
    }
}

static void tpa_describe(rb_ar *ar)
{
    tpa_state st = {0};
    int dir = rb_ar_direction(ar);
    uint32_t version = rb_ar_x32(ar, "version");
    if (rb_ar_ok(ar) && dir == RB_AR_READ && version != TPA_VERSION)
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "TPA version 0x%X (the game accepts only 0x150)", version);
    rb_slot body_count = rb_ar_slot(ar, "sample count", RB_U32);
    rb_slot ids_at = rb_ar_slot(ar, "id table offset", RB_U32);
    rb_slot foley_count = rb_ar_slot(ar, "collision count", RB_U32);
    rb_slot foley_at = rb_ar_slot(ar, "collision table offset", RB_U32);
    rb_slot id_count = rb_ar_slot(ar, "id count", RB_U32);
    if (dir == RB_AR_READ && rb_ar_ok(ar)) {
        if (ids_at.value != TPA_HEADER_BYTES) {
            rb_ar_fail(ar, RB_E_UNSUPPORTED, "id table at 0x%llX, not after the header", (unsigned long long)ids_at.value);
            goto done;
        }
        if (id_count.value > rb_ar_remaining(ar) / TPA_ID_BYTES) {
            rb_ar_fail(ar, RB_E_FORMAT, "%llu ids cannot fit", (unsigned long long)id_count.value);
            goto done;
        }
        if (!find_bodies(ar, &st, id_count.value, foley_at.value)) goto done;
        if (st.body_count != body_count.value) {
            rb_ar_fail(ar, RB_E_UNSUPPORTED, "header counts %llu samples, the ids point to %zu",
                       (unsigned long long)body_count.value, st.body_count);
            goto done;
        }
    }
    if (dir == RB_AR_WRITE && !alloc_write_state(ar, &st)) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        goto done;
    }
    rb_ar_slot_set(ar, &ids_at, rb_ar_tell(ar));
    uint64_t n = rb_ar_list_begin_n(ar, "ids", id_count.value, TPA_ID_BYTES);
    RB_AR_LIST(ar, i, n) tpa_id(ar, &st, i);
    rb_ar_slot_set(ar, &id_count, n);
    n = rb_ar_list_begin_n(ar, "bodies", st.body_count, TPA_BODY_HEADER_BYTES);
    RB_AR_LIST(ar, i, n) {
        if (dir == RB_AR_READ) rb_ar_range_begin(ar, "sample body", st.bodies[i].length);
        tpa_body(ar, &st, i);
        if (dir == RB_AR_READ) rb_ar_range_end(ar);
    }
    rb_ar_slot_set(ar, &body_count, n);
    rb_ar_slot_set(ar, &foley_at, rb_ar_tell(ar));
    if (dir == RB_AR_WRITE) patch_ids(ar, &st);
    n = rb_ar_list_begin_n(ar, "collisions", foley_count.value, TPA_FOLEY_BYTES);
    RB_AR_LIST(ar, i, n) tpa_foley(ar);
    rb_ar_slot_set(ar, &foley_count, n);
done:
    free_state(&st);
}

const rb_format rb_format_tpa = {
    .name = "tpa",
    .description = "Trespasser packed audio (.tpa, version 0x150)",
    .summary = tres_summary_tpa,
    .detect = tpa_detect,
    .describe = tpa_describe,
    .assets = tpa_assets,
    .asset_patch = tpa_asset_patch,
};
