/*
 * SA:MP streamer plugin map file: the magic "strmrgrps01", then chunks of
 *   u16 size | 4-byte id | `size` bytes of data | u32 CRC-32 (zlib's) of the data
 * until "_EOF" (docs/formats/streamer.md "File layout"; the spec is BigETI's map file text, 2014).
 * No other implementation or real file exists, so this module is the reference:
 * docs/formats/streamer.md says how every ambiguity of the spec is read, and each reading has a
 * test in tests/streamer/.
 *
 * The model: "groups" (the first is implicit, each NGrp chunk starts the next), each holding its
 * chunks in file order, and "eof". Sizes, counts and checksums are derived; what a file stores
 * differently from what a writer derives (a stale checksum, a reversed id, the second of the two
 * readings of an ambiguous size) is recorded in the chunk and written back the same way.
 */
#include "core/streamer/streamer.h"
#include "core/streamer/streamer_assets.h"
#include <inttypes.h>
#include "core/json/json.h"
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include "core/bytes.h"

static const char MAGIC[] = "strmrgrps01";
enum { MAGIC_SIZE = 11, HEADER_SIZE = 6, CHECKSUM_SIZE = 4, MAX_DATA = 0xFFFF };

/* The spec's checksum of NGrp and _EOF: CRC-32 of four zero bytes (CRC-32 of no bytes is 0).
 * rebyte writes it for every chunk with empty data and accepts 0 as well (docs: "Checksums"). */
#define EMPTY_CHUNK_CRC 0x2144DF1Cu

typedef enum chunk_type {
    T_HEAD, T_GNRT, T_NGRP, T_GRPH, T_OBJ, T_PCKP, T_TXTL, T_CHK, T_RCHK, T_CRCL,
    T_RECT, T_SPHR, T_CUBE, T_PLGN, T_MAPI, T_WRLD, T_INT, T_PLYR, T_EOF, T_UNKNOWN
} chunk_type;

typedef struct chunk_kind {
    char name[5];
    /* The spec's hex value for this id is the big-endian reading of its name (all others are
     * little-endian readings), so a writer that stored the value may have reversed the bytes. */
    int reversible;
} chunk_kind;

static const chunk_kind KINDS[] = {
    [T_HEAD] = {"Head", 0}, [T_GNRT] = {"Gnrt", 0}, [T_NGRP] = {"NGrp", 0}, [T_GRPH] = {"GrpH", 0},
    [T_OBJ] = {"_Obj", 0},  [T_PCKP] = {"Pckp", 0}, [T_TXTL] = {"TxtL", 0}, [T_CHK] = {"_Chk", 0},
    [T_RCHK] = {"RChk", 0}, [T_CRCL] = {"Crcl", 0}, [T_RECT] = {"Rect", 0}, [T_SPHR] = {"Sphr", 0},
    [T_CUBE] = {"Cube", 1}, [T_PLGN] = {"Plgn", 1}, [T_MAPI] = {"MapI", 1}, [T_WRLD] = {"Wrld", 1},
    [T_INT] = {"_Int", 1},  [T_PLYR] = {"Plyr", 1}, [T_EOF] = {"_EOF", 1},
};

static chunk_type type_of_id(const uint8_t id[4])
{
    for (int t = 0; t < T_UNKNOWN; t++) {
        const char *n = KINDS[t].name;
        if (memcmp(id, n, 4) == 0) return (chunk_type)t;
        if (KINDS[t].reversible && id[0] == n[3] && id[1] == n[2] && id[2] == n[1] && id[3] == n[0])
            return (chunk_type)t;
    }
    return T_UNKNOWN;
}

/* Where the description is: counters for messages and the rules on chunk order. */
typedef struct streamer_state {
    unsigned chunk_index;   /* the chunk being described: its place after the magic, from 0 */
    unsigned group_index;
    int generator_chunk;    /* index of the Gnrt chunk seen, or -1 */
    int group_header_chunk; /* index of the current group's GrpH chunk, or -1 */
} streamer_state;

/* One chunk being described. */
typedef struct chunk_ctx {
    unsigned index;
    uint64_t offset; /* READ: in the file; WRITE: in the output */
    uint8_t id[4];
    chunk_type type;
    uint64_t size;   /* READ: the stored data size */
    uint32_t data_crc;   /* READ: CRC-32 of the data */
    uint32_t stored_crc; /* READ: the checksum that follows it */
} chunk_ctx;

/* "chunk 7 "_Obj" @0x5a" — the id shown printable, other bytes as \xNN. */
static void chunk_where(rb_ar *ar, const chunk_ctx *c, char *out, size_t size)
{
    char id[20];
    size_t n = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t b = c->id[i];
        if (b >= 0x20 && b < 0x7f && b != '"' && b != '\\') id[n++] = (char)b;
        else n += (size_t)snprintf(id + n, sizeof id - n, "\\x%02x", b);
    }
    id[n] = 0;
    if (rb_ar_direction(ar) == RB_AR_FROM_JSON) snprintf(out, size, "chunk %u \"%s\"", c->index, id);
    else snprintf(out, size, "chunk %u \"%s\" @0x%" PRIx64, c->index, id, c->offset);
}

static void chunk_fail(rb_ar *ar, rb_status status, const chunk_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void chunk_fail(rb_ar *ar, rb_status status, const chunk_ctx *c, const char *fmt, ...)
{
    char where[64], what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    chunk_where(ar, c, where, sizeof where);
    rb_ar_fail(ar, status, "%s: %s", where, what);
}

/* ---------- sizes: which data sizes each id allows (READ, before anything is described) ---------- */


static int one_of(uint64_t size, const unsigned *allowed, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (size == allowed[i]) return 1;
    return 0;
}

static int has_packed_layout(chunk_type t, uint64_t size);

/* NULL when `size` (and the counts inside `data`) fit one of the readings of the id; else why not.
 * The sizes of the ids with fixed layouts are those of their layouts (PACKED_CHUNKS). */
static const char *size_problem(chunk_type t, const uint8_t *data, uint64_t size, char *why, size_t why_size)
{
    static const unsigned CUBE[] = {24, 28};
#define ALLOWED(list, text)                                                                  \
    if (!one_of(size, list, sizeof list / sizeof list[0])) {                                 \
        snprintf(why, why_size, "data size %" PRIu64 " is not %s", size, text);              \
        return why;                                                                          \
    }                                                                                        \
    return NULL
#define LAID_OUT(text)                                                                       \
    if (!has_packed_layout(t, size)) {                                                       \
        snprintf(why, why_size, "data size %" PRIu64 " is not %s", size, text);              \
        return why;                                                                          \
    }                                                                                        \
    return NULL
    switch (t) {
    case T_HEAD: case T_GNRT: case T_GRPH: case T_UNKNOWN:
        return NULL;
    case T_NGRP: case T_EOF:
        if (size == 0) return NULL;
        snprintf(why, why_size, "data size %" PRIu64 " is not 0 (the spec: \"Size\" is always 0)", size);
        return why;
    case T_OBJ: LAID_OUT("28, 32 or 36 (model, position, rotation, optional stream and draw distance)");
    case T_PCKP: LAID_OUT("20 or 24 (model, type, position, optional stream distance)");
    case T_CHK: LAID_OUT("16 or 20 (position, size, optional stream distance)");
    case T_RCHK: LAID_OUT("25 or 29 (type, position, next position, optional stream distance)");
    case T_CRCL: LAID_OUT("12 (x, y, size) or 16 (x, y, z, size)");
    case T_CUBE: ALLOWED(CUBE, "24 (six floats, as the plugin's cubes) or 28 (the spec's seven, Min X twice)");
    case T_MAPI: LAID_OUT("18 or 22 (position, type, color, style, optional stream distance)");
    case T_RECT:
    case T_SPHR:
        if (size == 16) return NULL;
        snprintf(why, why_size,
                 "data size %" PRIu64 " is not 16 (four floats; the spec's stated 12 fits no reading of %s)", size,
                 t == T_RECT ? "a rectangle: min x, min y, max x, max y" : "a sphere: x, y, z, size");
        return why;
    case T_TXTL:
        if (size >= 17) return NULL;
        snprintf(why, why_size, "data size %" PRIu64 " is below 17 (position, line-of-sight flag, stream distance)",
                 size);
        return why;
    case T_PLGN: {
        if (size < 34 || (size - 10) % 8) {
            snprintf(why, why_size, "data size %" PRIu64 " is not 10 + 8 x points with at least 3 points (34, 42, ...)",
                     size);
            return why;
        }
        uint64_t points = (size - 10) / 8, count = data[8] | data[9] << 8;
        if (count == points || count == 2 * points) return NULL;
        snprintf(why, why_size,
                 "stored count %" PRIu64 " fits neither reading of the data size %" PRIu64 ": %" PRIu64
                 " points, or %" PRIu64 " floats",
                 count, size, points, 2 * points);
        return why;
    }
    case T_WRLD: case T_INT: case T_PLYR: {
        if (size < 8 || size % 4) {
            snprintf(why, why_size, "data size %" PRIu64 " is not a multiple of 4 of at least 8", size);
            return why;
        }
        uint64_t count = rb_le32(data);
        if (count == (size - 4) / 4 || count == (size - 8) / 4) return NULL;
        snprintf(why, why_size,
                 "stored count %" PRIu64 " fits neither reading of the data size %" PRIu64 ": %" PRIu64
                 " values, or %" PRIu64 " values and a trailing one",
                 count, size, (size - 4) / 4, (size - 8) / 4);
        return why;
    }
    }
    return NULL;
#undef ALLOWED
#undef LAID_OUT
}

/* READ: the next chunk's header, size and order, before any of it is consumed (so errors point
 * at the chunk's first byte). Returns 0 after an error. */
static int peek_chunk(rb_ar *ar, const streamer_state *st, chunk_ctx *c)
{
    memset(c, 0, sizeof(*c));
    c->index = st->chunk_index;
    c->offset = rb_ar_tell(ar);
    if (!rb_ar_ok(ar)) return 0;
    uint64_t left = rb_ar_remaining(ar);
    if (left == 0) {
        rb_ar_fail(ar, RB_E_FORMAT, "missing _EOF: the file ends at 0x%" PRIx64 ", where chunk %u would start",
                   c->offset, c->index);
        return 0;
    }
    if (left < HEADER_SIZE) {
        rb_ar_fail(ar, RB_E_FORMAT, "chunk %u @0x%" PRIx64 ": the file ends inside its header (%" PRIu64 " of 6 bytes)",
                   c->index, c->offset, left);
        return 0;
    }
    const uint8_t *p = rb_ar_peek_bytes(ar, HEADER_SIZE);
    c->size = p[0] | p[1] << 8;
    memcpy(c->id, p + 2, 4);
    c->type = type_of_id(c->id);
    if (left < HEADER_SIZE + c->size + CHECKSUM_SIZE) {
        chunk_fail(ar, RB_E_FORMAT, c,
                   "declares %" PRIu64 " bytes of data; with its checksum that needs %" PRIu64 " bytes, only %" PRIu64
                   " are left",
                   c->size, c->size + CHECKSUM_SIZE, left - HEADER_SIZE);
        return 0;
    }
    char why[300];
    if (size_problem(c->type, p + HEADER_SIZE, c->size, why, sizeof why)) {
        chunk_fail(ar, RB_E_FORMAT, c, "%s", why);
        return 0;
    }
    const uint8_t *data = rb_ar_peek_bytes(ar, HEADER_SIZE + c->size + CHECKSUM_SIZE) + HEADER_SIZE;
    c->data_crc = (uint32_t)crc32(0, data, (uInt)c->size);
    c->stored_crc = rb_le32(data + c->size);
    return 1;
}

/* The spec's rules on order: one Gnrt per file, one GrpH per group. */
static int check_order(rb_ar *ar, streamer_state *st, const chunk_ctx *c)
{
    if (c->type == T_GNRT) {
        if (st->generator_chunk >= 0) {
            chunk_fail(ar, RB_E_FORMAT, c, "a second Gnrt (the first is chunk %d); the spec allows one per file",
                       st->generator_chunk);
            return 0;
        }
        st->generator_chunk = (int)c->index;
    } else if (c->type == T_GRPH) {
        if (st->group_header_chunk >= 0) {
            chunk_fail(ar, RB_E_FORMAT, c, "a second GrpH in group %u (the first is chunk %d); the spec allows one per group",
                       st->group_index, st->group_header_chunk);
            return 0;
        }
        st->group_header_chunk = (int)c->index;
    }
    return 1;
}

/* ---------- checksums ---------- */

/* The stored checksum follows the data. It is kept in the model only when it differs from what a
 * writer derives (CRC-32 of the data; 0x2144DF1C for empty data): then `key` holds the stored
 * value and the CRC-32 of the data it was stored with. Writing emits the stored value while the
 * data still has that CRC-32; once the data changed it emits the derived one and drops `key` from
 * the model, which then describes the bytes written (as `apply` checks by reading them back). */
static void chunk_checksum(rb_ar *ar, const chunk_ctx *c, const char *key, uint32_t data_crc, int empty)
{
    uint32_t derived = empty ? EMPTY_CHUNK_CRC : data_crc;
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    uint32_t stored = reading ? c->stored_crc : derived;
    if (reading && stored != derived) {
        char where[64];
        chunk_where(ar, c, where, sizeof where);
        if (empty && stored == 0)
            rb_ar_note(ar, "%s: checksum 0x00000000 (CRC-32 of the empty data) where the spec gives 0x%08X; kept",
                       where, EMPTY_CHUNK_CRC);
        else
            rb_ar_note(ar,
                       "%s: stored checksum 0x%08" PRIX32 " is not the data's CRC-32 0x%08" PRIX32
                       "; kept while the data is unchanged",
                       where, stored, data_crc);
    }
    rb_slot slot = rb_ar_slot(ar, "checksum", RB_U32);
    if (rb_ar_direction(ar) == RB_AR_WRITE && rb_ar_has(ar, key, 0)) {
        const rb_node *kept = rb_node_get(rb_ar_current(ar), key);
        const rb_node *with = kept ? rb_node_get(kept, "dataCrc") : NULL;
        const rb_node *value = kept ? rb_node_get(kept, "value") : NULL;
        if (!with || !value || (uint32_t)with->v.bits != data_crc || (uint32_t)value->v.bits == derived)
            rb_ar_drop(ar, key);
    }
    if (rb_ar_has(ar, key, reading && stored != derived)) {
        rb_ar_record_begin(ar, key);
        uint32_t value = (uint32_t)rb_ar_uint_detached(ar, "value", RB_X32, stored);
        uint32_t with = (uint32_t)rb_ar_uint_detached(ar, "dataCrc", RB_X32, data_crc);
        rb_ar_record_end(ar);
        rb_ar_slot_set(ar, &slot, with == data_crc ? value : derived);
    } else {
        rb_ar_slot_set(ar, &slot, derived);
    }
}

/* ---------- chunks kept packed ---------- */

/* The chunks a map is mostly made of have one layout per id and data size: the size (fixed by
 * the layout), the id, then the payload. These layouts are the one description of those chunks.
 * Read with a checksum that is the CRC-32 of their data, such a chunk stays in the model as its
 * bytes (one node, not one per field: docs/performance.md); otherwise (a stale checksum, a model
 * from JSON, an edit) payload_of_layout spells the same layout's payload field by field. Chunks
 * with a layout marker or variable data (Cube, Plgn, TxtL, the id lists) have functions below. */
enum { PACKED_PAYLOAD_FIRST = 2 }; /* the payload follows the size and the id */
#define SIZE_IS(n) {"chunk size", RB_LAYOUT_CONSTANT, RB_U16, 0, NULL, n}
#define ID {"id", RB_K_STRING, 0, 4, NULL, 0}
#define F32(key) {key, RB_K_FLOAT, 4, 0, NULL, 0}
#define INT(key, wire) {key, RB_K_INT, wire, 0, NULL, 0}
#define OBJECT ID, INT("modelId", RB_I32), F32("x"), F32("y"), F32("z"), F32("rotX"), F32("rotY"), F32("rotZ")
#define PICKUP ID, INT("modelId", RB_I32), INT("type", RB_I32), F32("x"), F32("y"), F32("z")
#define CHECKPOINT ID, F32("x"), F32("y"), F32("z"), F32("size")
#define RACE_CHECKPOINT ID, INT("type", RB_U8), F32("x"), F32("y"), F32("z"), F32("nextX"), F32("nextY"), F32("nextZ")
#define MAP_ICON ID, F32("x"), F32("y"), F32("z"), INT("type", RB_U8), INT("color", RB_X32), INT("style", RB_U8)

static const rb_layout_field OBJ28[] = {SIZE_IS(28), OBJECT};
static const rb_layout_field OBJ32[] = {SIZE_IS(32), OBJECT, F32("streamDistance")};
static const rb_layout_field OBJ36[] = {SIZE_IS(36), OBJECT, F32("streamDistance"), F32("drawDistance")};
static const rb_layout_field PCKP20[] = {SIZE_IS(20), PICKUP};
static const rb_layout_field PCKP24[] = {SIZE_IS(24), PICKUP, F32("streamDistance")};
static const rb_layout_field CHK16[] = {SIZE_IS(16), CHECKPOINT};
static const rb_layout_field CHK20[] = {SIZE_IS(20), CHECKPOINT, F32("streamDistance")};
static const rb_layout_field RCHK25[] = {SIZE_IS(25), RACE_CHECKPOINT};
static const rb_layout_field RCHK29[] = {SIZE_IS(29), RACE_CHECKPOINT, F32("streamDistance")};
static const rb_layout_field CRCL12[] = {SIZE_IS(12), ID, F32("x"), F32("y"), F32("size")};
static const rb_layout_field CRCL16[] = {SIZE_IS(16), ID, F32("x"), F32("y"), F32("z"), F32("size")};
static const rb_layout_field RECT16[] = {SIZE_IS(16), ID, F32("minX"), F32("minY"), F32("maxX"), F32("maxY")};
static const rb_layout_field SPHR16[] = {SIZE_IS(16), CHECKPOINT};
static const rb_layout_field MAPI18[] = {SIZE_IS(18), MAP_ICON};
static const rb_layout_field MAPI22[] = {SIZE_IS(22), MAP_ICON, F32("streamDistance")};

typedef struct packed_chunk {
    chunk_type type;
    uint16_t size;
    rb_layout layout;
} packed_chunk;

#define PACKED_CHUNK(type, size, name, fields) {type, size, {name, fields, sizeof fields / sizeof fields[0]}}
static const packed_chunk PACKED_CHUNKS[] = {
    PACKED_CHUNK(T_OBJ, 28, "_Obj chunk", OBJ28),       PACKED_CHUNK(T_OBJ, 32, "_Obj chunk", OBJ32),
    PACKED_CHUNK(T_OBJ, 36, "_Obj chunk", OBJ36),       PACKED_CHUNK(T_PCKP, 20, "Pckp chunk", PCKP20),
    PACKED_CHUNK(T_PCKP, 24, "Pckp chunk", PCKP24),     PACKED_CHUNK(T_CHK, 16, "_Chk chunk", CHK16),
    PACKED_CHUNK(T_CHK, 20, "_Chk chunk", CHK20),       PACKED_CHUNK(T_RCHK, 25, "RChk chunk", RCHK25),
    PACKED_CHUNK(T_RCHK, 29, "RChk chunk", RCHK29),     PACKED_CHUNK(T_CRCL, 12, "Crcl chunk", CRCL12),
    PACKED_CHUNK(T_CRCL, 16, "Crcl chunk", CRCL16),     PACKED_CHUNK(T_RECT, 16, "Rect chunk", RECT16),
    PACKED_CHUNK(T_SPHR, 16, "Sphr chunk", SPHR16),     PACKED_CHUNK(T_MAPI, 18, "MapI chunk", MAPI18),
    PACKED_CHUNK(T_MAPI, 22, "MapI chunk", MAPI22),
};
enum { PACKED_CHUNK_COUNT = sizeof PACKED_CHUNKS / sizeof PACKED_CHUNKS[0] };

static int has_packed_layout(chunk_type t, uint64_t size)
{
    for (int i = 0; i < PACKED_CHUNK_COUNT; i++)
        if (PACKED_CHUNKS[i].type == t && PACKED_CHUNKS[i].size == size) return 1;
    return 0;
}

/* READ: the layout the chunk stays packed in, or NULL when it is described field by field. */
static const rb_layout *packed_layout(const chunk_ctx *c)
{
    if (c->stored_crc != c->data_crc) return NULL; /* the stale checksum is kept in the record */
    for (int i = 0; i < PACKED_CHUNK_COUNT; i++)
        if (PACKED_CHUNKS[i].type == c->type && PACKED_CHUNKS[i].size == c->size) return &PACKED_CHUNKS[i].layout;
    return NULL;
}

/* A packed chunk (READ: one packed_layout gave; WRITE: one the model holds), then its checksum:
 * the data's CRC-32, which READ checked the stored value to be. A packed chunk's bytes are the ones
 * it was read from, unchanged (an edit turns it into nodes), so WRITE takes that checked value
 * from where it was read, right after them, instead of computing the CRC-32 of the same bytes. */
static void packed_chunk_and_checksum(rb_ar *ar, const rb_layout *layout)
{
    const rb_node *packed = rb_ar_packed_record(ar, NULL, layout); /* NULL: spelled out (text READ) */
    rb_slot checksum = rb_ar_slot(ar, "checksum", RB_U32);
    if (packed && rb_ar_direction(ar) == RB_AR_WRITE)
        rb_ar_slot_set(ar, &checksum, rb_le32(packed->v.bytes.data + packed->v.bytes.size));
}

/* WRITE: a packed chunk is one of PACKED_CHUNKS' layouts, by construction (only READ makes them). */
static int is_packed_chunk_layout(const rb_layout *layout)
{
    for (int i = 0; i < PACKED_CHUNK_COUNT; i++)
        if (&PACKED_CHUNKS[i].layout == layout) return 1;
    return 0;
}

/* ---------- chunk payloads ---------- */

static void f32s(rb_ar *ar, const char *const *keys)
{
    for (; *keys; keys++) rb_ar_f32(ar, *keys);
}

/* A marker for the second reading of an ambiguous layout: present only then, and only as true. */
static int layout_marker(rb_ar *ar, const chunk_ctx *c, const char *key, int read_answer)
{
    if (!rb_ar_has(ar, key, read_answer)) return 0;
    if (rb_ar_bool_detached(ar, key, 1, 1) != 1 && rb_ar_ok(ar))
        chunk_fail(ar, RB_E_MODEL, c, "\"%s\" is either true or left out (false is the default reading)", key);
    return 1;
}

static void payload_text_label(rb_ar *ar)
{
    static const char *const fields[] = {"x", "y", "z", NULL};
    f32s(ar, fields);
    rb_ar_bool(ar, "testLineOfSight", 1);
    rb_ar_f32(ar, "streamDistance");
    rb_ar_bytes(ar, "text", RB_K_STRING, rb_ar_remaining(ar));
}

/* 28 bytes (default): the spec's seven floats, Min X twice; the second is written equal to the
 * first unless the file held other bits there ("minXRepeat"). 24 bytes ("sixFloats"): the six
 * floats the plugin's cubes take. */
static void payload_cube(rb_ar *ar, const chunk_ctx *c)
{
    static const char *const rest[] = {"minY", "minZ", "maxX", "maxY", "maxZ", NULL};
    int six = layout_marker(ar, c, "sixFloats", c->size == 24);
    uint32_t min_x = rb_ar_f32(ar, "minX");
    if (!six) {
        uint32_t second = min_x;
        if (rb_ar_direction(ar) == RB_AR_READ) rb_ar_peek_u32(ar, &second);
        if (rb_ar_has(ar, "minXRepeat", second != min_x)) {
            rb_ar_f32(ar, "minXRepeat");
        } else {
            rb_slot repeat = rb_ar_slot(ar, "repeated Min X", RB_U32);
            rb_ar_slot_set(ar, &repeat, min_x);
        }
    }
    f32s(ar, rest);
}

/* Two floats (the plugin's polygons take a height range, minz and maxz; the spec labels them Min X
 * and Min Y), the point count, the points. The count holds points (default) or, as the plugin's
 * `maxpoints` does, floats ("countsFloats"). */
static void payload_polygon(rb_ar *ar, const chunk_ctx *c)
{
    rb_ar_f32(ar, "minZ");
    rb_ar_f32(ar, "maxZ");
    rb_slot count = rb_ar_slot(ar, "number of points", RB_U16);
    uint64_t points = c->size >= 10 ? (c->size - 10) / 8 : 0;
    int floats = layout_marker(ar, c, "countsFloats", count.value == 2 * points && count.value != points);
    uint64_t n = rb_ar_list_begin_n(ar, "points", points, 8);
    RB_AR_LIST(ar, i, n) {
        rb_ar_list_begin_n(ar, NULL, 2, 4);
        rb_ar_f32(ar, NULL);
        rb_ar_f32(ar, NULL);
        rb_ar_list_end(ar);
    }
    if (rb_ar_ok(ar) && rb_ar_direction(ar) != RB_AR_READ && n < 3)
        chunk_fail(ar, RB_E_MODEL, c, "a polygon needs at least 3 points (the spec: size at least 34), it has %" PRIu64, n);
    rb_ar_slot_set(ar, &count, floats ? 2 * n : n);
}

/* A count and the values (the spec's last line, "4 bytes: Virtual World", read as the element of
 * the array: default); or the values and one more ("trailing") when the size says so. */
static void payload_id_list(rb_ar *ar, const chunk_ctx *c, const char *key)
{
    rb_slot count = rb_ar_slot(ar, "count", RB_U32);
    uint64_t n = rb_ar_list_begin_n(ar, key, count.value, 4);
    RB_AR_LIST(ar, i, n) rb_ar_i32(ar, NULL);
    int trailing = rb_ar_has(ar, "trailing", c->size == 8 + 4 * count.value);
    if (trailing) rb_ar_i32(ar, "trailing");
    if (rb_ar_ok(ar) && rb_ar_direction(ar) != RB_AR_READ && n == 0 && !trailing)
        chunk_fail(ar, RB_E_MODEL, c, "\"%s\" is empty; the spec's minimum size 8 needs one value (or a \"trailing\" one)",
                   key);
    rb_ar_slot_set(ar, &count, n);
}

/* The chunks of PACKED_CHUNKS' layouts, described field by field by those layouts (a stale
 * checksum, a model from JSON, an edited chunk): READ takes the layout of the data size; WRITE and
 * FROM_JSON the one with the most fields, all of which the model has (the optional ones decide). */
static void payload_of_layout(rb_ar *ar, const chunk_ctx *c)
{
    const rb_layout *chosen = NULL, *smallest = NULL;
    for (int i = PACKED_CHUNK_COUNT - 1; i >= 0 && !chosen; i--) { /* each type's largest first */
        const packed_chunk *p = &PACKED_CHUNKS[i];
        if (p->type != c->type) continue;
        smallest = &p->layout;
        if (rb_ar_direction(ar) == RB_AR_READ) {
            if (p->size == c->size) chosen = &p->layout;
            continue;
        }
        int all_there = 1;
        for (size_t f = PACKED_PAYLOAD_FIRST; f < p->layout.field_count && all_there; f++)
            all_there = rb_ar_has(ar, p->layout.fields[f].key, 0);
        if (all_there) chosen = &p->layout;
    }
    /* a model without every field of even the smallest layout: spelling it names the one missing */
    if (!chosen) chosen = smallest;
    if (chosen) rb_ar_layout_fields(ar, chosen, PACKED_PAYLOAD_FIRST);
}

static void describe_payload(rb_ar *ar, const chunk_ctx *c)
{
    switch (c->type) {
    case T_HEAD: case T_GNRT: case T_GRPH:
        rb_ar_bytes(ar, "data", RB_K_STRING, rb_ar_remaining(ar));
        break;
    case T_OBJ: case T_PCKP: case T_CHK: case T_RCHK: case T_CRCL: case T_RECT: case T_SPHR: case T_MAPI:
        payload_of_layout(ar, c);
        break;
    case T_TXTL: payload_text_label(ar); break;
    case T_CUBE: payload_cube(ar, c); break;
    case T_PLGN: payload_polygon(ar, c); break;
    case T_WRLD: payload_id_list(ar, c, "worlds"); break;
    case T_INT: payload_id_list(ar, c, "interiors"); break;
    case T_PLYR: payload_id_list(ar, c, "players"); break;
    case T_NGRP: case T_EOF: break;
    case T_UNKNOWN: rb_ar_rest(ar, "data"); break; /* kept as it is, in its place */
    }
}

/* ---------- chunks ---------- */

/* The data of a chunk whose size slot and id are behind us, then its checksum. */
static void chunk_data(rb_ar *ar, chunk_ctx *c, rb_slot *size, const char *checksum_key)
{
    rb_ar_dir dir = rb_ar_direction(ar);
    uint64_t start = rb_ar_tell(ar);
    rb_ar_range_begin(ar, "data", c->size);
    describe_payload(ar, c);
    rb_ar_range_end(ar);
    if (!rb_ar_ok(ar)) return;
    uint32_t data_crc = 0;
    uint64_t data_size = 0;
    if (dir == RB_AR_READ) {
        data_size = c->size;
        data_crc = c->data_crc;
    } else if (dir == RB_AR_WRITE) {
        const uint8_t *written = rb_ar_written_since(ar, start, &data_size);
        if (!written) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory writing"); return; }
        if (data_size > MAX_DATA) {
            chunk_fail(ar, RB_E_MODEL, c, "%" PRIu64 " bytes of data; a chunk holds at most 65535", data_size);
            return;
        }
        data_crc = (uint32_t)crc32(0, written, (uInt)data_size);
        rb_ar_slot_set(ar, size, data_size);
    }
    chunk_checksum(ar, c, checksum_key, data_crc, data_size == 0 && dir != RB_AR_FROM_JSON);
}

/* One chunk of a group's list. READ has checked its header and size (peek_chunk). */
static void describe_chunk(rb_ar *ar, streamer_state *st, const chunk_ctx *peeked)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    chunk_ctx c = *peeked;
    const rb_layout *packed = reading ? packed_layout(&c) : rb_ar_next_packed(ar);
    if (packed && !reading && !is_packed_chunk_layout(packed)) {
        rb_ar_fail(ar, RB_E_MODEL, "chunk %u: the model holds a packed %s, not a streamer chunk", st->chunk_index,
                   packed->name);
        return;
    }
    if (reading) {
        if (!check_order(ar, st, &c)) return; /* before anything is consumed: the error points at the chunk */
    }
    if (packed) { /* none of them is a Gnrt or a GrpH: nothing for check_order */
        packed_chunk_and_checksum(ar, packed);
        st->chunk_index++;
        return;
    }
    if (!reading) {
        memset(&c, 0, sizeof c);
        c.index = st->chunk_index;
        c.offset = rb_ar_tell(ar);
    }
    rb_ar_record_begin(ar, NULL);
    rb_slot size = rb_ar_slot(ar, "chunk size", RB_U16);
    const rb_node *id = rb_ar_fixed_string(ar, "id", 4);
    if (id && !reading) {
        memcpy(c.id, id->v.bytes.data, 4);
        c.type = type_of_id(c.id);
        if (c.type == T_NGRP)
            chunk_fail(ar, RB_E_MODEL, &c, "NGrp is not a chunk of a group's list: it starts the next element of \"groups\"");
        else if (c.type == T_EOF)
            chunk_fail(ar, RB_E_MODEL, &c, "_EOF is not a chunk of a group's list: it is the root's \"eof\"");
        else
            check_order(ar, st, &c);
    }
    chunk_data(ar, &c, &size, "storedCrc");
    rb_ar_record_end(ar);
    st->chunk_index++;
}

/* Groups after the first start with an NGrp chunk: size 0, no data, only its checksum to keep. */
static void describe_next_group_chunk(rb_ar *ar, streamer_state *st)
{
    chunk_ctx c = {.index = st->chunk_index, .offset = rb_ar_tell(ar), .type = T_NGRP};
    memcpy(c.id, "NGrp", 4);
    if (rb_ar_direction(ar) == RB_AR_READ) {
        if (!peek_chunk(ar, st, &c)) return;
        if (c.type != T_NGRP) { chunk_fail(ar, RB_E_FORMAT, &c, "expected NGrp"); return; }
    }
    rb_slot size = rb_ar_slot(ar, "chunk size", RB_U16);
    rb_ar_expect(ar, "NGrp id", "NGrp", 4);
    chunk_data(ar, &c, &size, "ngrpStoredCrc");
    st->chunk_index++;
}

/* READ: is the next chunk one that ends the current group's list (NGrp, _EOF)? Checks it. */
static int next_ends_group(rb_ar *ar, streamer_state *st, chunk_ctx *c)
{
    if (!peek_chunk(ar, st, c)) return 1;
    return c->type == T_NGRP || c->type == T_EOF;
}

static void describe_group(rb_ar *ar, streamer_state *st)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    st->group_header_chunk = -1;
    rb_ar_record_begin(ar, NULL);
    if (st->group_index > 0) describe_next_group_chunk(ar, st);
    rb_ar_list_begin_open(ar, "chunks");
    while (rb_ar_ok(ar) && rb_ar_list_has_more(ar)) {
        chunk_ctx c;
        if (reading && next_ends_group(ar, st, &c)) break;
        describe_chunk(ar, st, &c);
    }
    rb_ar_list_end(ar);
    rb_ar_record_end(ar);
    st->group_index++;
}

static void describe_eof(rb_ar *ar, streamer_state *st)
{
    chunk_ctx c = {.index = st->chunk_index, .offset = rb_ar_tell(ar), .type = T_EOF};
    if (rb_ar_direction(ar) == RB_AR_READ) {
        if (!peek_chunk(ar, st, &c)) return;
        if (c.type != T_EOF) { chunk_fail(ar, RB_E_FORMAT, &c, "expected _EOF"); return; }
    }
    rb_ar_record_begin(ar, "eof");
    rb_slot size = rb_ar_slot(ar, "chunk size", RB_U16);
    const rb_node *id = rb_ar_fixed_string(ar, "id", 4);
    if (id && rb_ar_direction(ar) != RB_AR_READ) {
        memcpy(c.id, id->v.bytes.data, 4);
        if (type_of_id(c.id) != T_EOF)
            chunk_fail(ar, RB_E_MODEL, &c, "the last chunk is \"_EOF\" (or \"FOE_\", its reversed spelling)");
    }
    chunk_data(ar, &c, &size, "storedCrc");
    rb_ar_record_end(ar);
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_READ && !rb_ar_at_end(ar)) {
        char where[64];
        chunk_where(ar, &c, where, sizeof where);
        rb_ar_fail(ar, RB_E_FORMAT, "%" PRIu64 " bytes at 0x%" PRIx64 " follow %s; nothing may follow _EOF",
                   rb_ar_remaining(ar), rb_ar_tell(ar), where);
    }
}

static void describe_magic(rb_ar *ar)
{
    const uint8_t *p = rb_ar_peek_bytes(ar, MAGIC_SIZE);
    if (p && memcmp(p, MAGIC, 9) == 0 && memcmp(p, MAGIC, MAGIC_SIZE) != 0) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "map file version \"%c%c\" is not supported (only \"01\")", p[9], p[10]);
        return;
    }
    rb_ar_expect(ar, "strmrgrps01 magic", MAGIC, MAGIC_SIZE);
}

static void streamer_describe(rb_ar *ar)
{
    streamer_state st = {.generator_chunk = -1, .group_header_chunk = -1};
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    describe_magic(ar);
    rb_ar_list_begin_open(ar, "groups");
    while (rb_ar_ok(ar) && rb_ar_list_has_more(ar)) {
        chunk_ctx c;
        /* the first group is implicit; each further one starts at an NGrp */
        if (reading && st.group_index > 0 && (!peek_chunk(ar, &st, &c) || c.type != T_NGRP)) break;
        describe_group(ar, &st);
    }
    rb_ar_list_end(ar);
    if (rb_ar_ok(ar) && st.group_index == 0)
        rb_ar_fail(ar, RB_E_MODEL, "\"groups\" is empty; a map has at least its implicit first group");
    describe_eof(ar, &st);
}

/* `rebyte info`: the file's head and generator, the number of groups, chunks counted by id. */
static json_t *streamer_summary(const rb_doc *doc)
{
    const rb_node *groups = rb_node_get(doc->root, "groups");
    if (!groups) return NULL;
    json_t *out = json_object(), *counts = json_object();
    json_object_set_new(out, "origin", json_pack("{s:s,s:s,s:s}", "game", "GTA San Andreas multiplayer (SA:MP, open.mp)",
                                                 "era", "the streamer plugin's map format strmrgrps01", "detected_from",
                                                 "the strmrgrps01 signature"));
    for (size_t g = 0; g < groups->v.kids.count; g++) {
        const rb_node *chunks = rb_node_get(groups->v.kids.items[g], "chunks");
        for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
            rb_record_scratch scratch; /* a packed chunk is read where it is, not turned into nodes */
            const rb_node *c = rb_record_view(chunks->v.kids.items[i], &scratch), *id = rb_node_get(c, "id");
            chunk_type t = type_of_id(id->v.bytes.data);
            const char *name = t == T_UNKNOWN ? "unknown" : KINDS[t].name;
            if ((t == T_HEAD || t == T_GNRT) && !json_object_get(out, t == T_HEAD ? "head" : "generator"))
                json_object_set_new(out, t == T_HEAD ? "head" : "generator",
                                    rb_model_to_json(doc, rb_node_get(c, "data"), RB_BLOBS_OMIT));
            json_int_t n = json_integer_value(json_object_get(counts, name));
            json_object_set_new(counts, name, json_integer(n + 1));
        }
    }
    json_object_set_new(out, "groups", json_integer((json_int_t)groups->v.kids.count));
    json_object_set_new(out, "chunks", counts);
    if (rb_doc_note_count(doc)) json_object_set_new(out, "notes", json_integer((json_int_t)rb_doc_note_count(doc)));
    return out;
}

static int streamer_detect(const uint8_t *data, size_t size)
{
    if (size >= MAGIC_SIZE && memcmp(data, MAGIC, MAGIC_SIZE) == 0) return 100;
    if (size >= 9 && memcmp(data, MAGIC, 9) == 0) return 60; /* another version: refused with a reason */
    return 0;
}

const rb_format rb_format_streamer = {
    .name = "streamer",
    .description = "SA:MP streamer plugin map (strmrgrps01)",
    .detect = streamer_detect,
    .describe = streamer_describe,
    .summary = streamer_summary,
    .rules = streamer_rules,
    .assets = streamer_assets,
    .asset_patch = streamer_asset_patch,
};
