/*
 * CGameCtnChallenge (0x03043000) beyond the block data: the skippable body chunks (the header
 * chunks are in map_header.c). Layouts: docs/formats/gbx_mapextra.md "Skippable body chunks",
 * from GBX.NET's CGameCtnChallenge.chunkl/.cs and the GBX wiki's CGameCtnChallenge page, checked
 * on the corpus. Key names are GBX.NET's property names in camelCase; fields whose
 * meaning nobody knows are u01, u02, ...
 *
 * Every chunk here is skippable (or a header chunk): when a layout does not consume exactly the
 * chunk's bytes, the framework keeps the chunk opaque, so a wrong guess costs coverage, never
 * a round trip. Chunks that define lookback ids in the shared body scope (048 baked blocks,
 * 051 title id) must be typed, or every later id reference is misread (docs/formats/gbx.md
 * "Lookback ids").
 */
#include "core/gbx/engine/gbx_internal.h"
#include "core/json/json.h"

/* ---------- small helpers ---------- */

/* A byte blob whose length is stored before it (GBX "data": i32 length + bytes). The length is
 * derived from the blob on write. */
static uint64_t sized_blob(rb_ar *ar, const char *key, const char *size_what)
{
    rb_slot size = rb_ar_slot(ar, size_what, RB_U32);
    const rb_node *blob = rb_ar_bytes(ar, key, RB_K_BLOB, size.value);
    uint64_t n = blob ? blob->v.bytes.size : 0;
    rb_ar_slot_set(ar, &size, n);
    return n;
}

/* A 128-bit hash or mask: kept as 16 bytes. */
static void uint128(rb_ar *ar, const char *key) { rb_ar_bytes(ar, key, RB_K_BLOB, 16); }

/* A version the description knows no layout for: READ fails (the chunk stays opaque). */
static int version_known(rb_ar *ar, uint32_t version, uint32_t max_known)
{
    if (version <= max_known) return 1;
    if (rb_ar_ok(ar))
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "chunk version %u is not known (up to %u are)", version, max_known);
    return 0;
}

/* ---------- body chunks: small ones ---------- */

/* 042: the author (the header's 008 copies it, map_header.c) */
GBX_FIELDS_CHUNK(author_info, {'u', "version"}, {'u', "authorVersion"}, {'s', "authorLogin"}, {'s', "authorNickname"},
                 {'s', "authorZone"}, {'s', "authorExtraInfo"})

/* 014 (TMPU..TMU): the old password (weak xor) */
GBX_FIELDS_CHUNK(chunk_014, {'u', "u01"}, {'s', "password"})

static void chunk_016(rb_ar *ar) { rb_ar_u32(ar, "u01"); }
static void chunk_017(rb_ar *ar) { gbx_int3_list(ar, "checkpoints"); }

GBX_FIELDS_CHUNK(chunk_018, {'b', "isLapRace"}, {'u', "nbLaps"})

static void chunk_019(rb_ar *ar) { gbx_fileref(ar, "modPackDesc"); }
static void chunk_01c(rb_ar *ar) { rb_ar_u32(ar, "mode"); }

/* 029: salted MD5 of the password and a CRC-32 over its hex form and the map uid. The CRC is
 * kept as stored: it depends on the uid in chunk 01F, which this chunk cannot see. */
static void chunk_029(rb_ar *ar)
{
    uint128(ar, "hashedPassword");
    rb_ar_x32(ar, "crc32");
}

static void chunk_034(rb_ar *ar) { sized_blob(ar, "u01", "u01 size"); }

/* 036: the editor's thumbnail camera and the comments */
GBX_FIELDS_CHUNK(chunk_036, {'v', "thumbnailPosition"}, {'v', "thumbnailPitchYawRoll"}, {'f', "thumbnailFov"},
                 {'f', "u01"}, {'f', "u02"}, {'f', "thumbnailNearClipPlane"}, {'f', "thumbnailFarClipPlane"},
                 {'s', "comments"})

/* Chunks nobody has described (GBX.NET "ignore"): a fixed run of u32 values whose meaning is
 * unknown, typed as u01.. only when the chunk has exactly that many bytes (else it stays opaque). */
static void unknown_u32s(rb_ar *ar, int count)
{
    static const char *const keys[] = {"u01", "u02", "u03", "u04", "u05", "u06", "u07", "u08"};
    for (int i = 0; i < count && i < 8 && rb_ar_ok(ar); i++) rb_ar_u32(ar, keys[i]);
}

static void chunk_038(rb_ar *ar) { unknown_u32s(ar, 1); }
static void chunk_03a(rb_ar *ar) { unknown_u32s(ar, 3); }
static void chunk_05a(rb_ar *ar) { unknown_u32s(ar, 2); }
static void chunk_05c(rb_ar *ar) { unknown_u32s(ar, 3); }
static void chunk_05d(rb_ar *ar) { unknown_u32s(ar, 2); }
static void chunk_060(rb_ar *ar) { unknown_u32s(ar, 2); }

/* 061 (TM2020; no reference describes it): a frame around a payload nobody has decoded. After
 * `version` and two u32 (the second a count: 1037 to 5585 in the corpus) the payload runs up to
 * a fill of zero bytes that ends four bytes before the chunk; the last u32 follows. The fill is
 * most of the chunk (the payload grows to about 20 bytes per counted element, the chunk is sized
 * for it): its length is a model value, its bytes are checked to be zero. The payload stays opaque
 * (docs/formats/gbx_mapextra.md "Skippable body chunks"). */
static void chunk_061(rb_ar *ar)
{
    static const uint8_t zeros[4096];
    rb_ar_u32(ar, "version");
    rb_ar_u32(ar, "u01");
    rb_ar_u32(ar, "u02");
    if (rb_ar_is_text(ar)) {
        /* text GBX: the payload's own line, then the fill's length as a line instead of the zeros */
        rb_ar_bytes(ar, "payload", RB_K_OPAQUE, UINT64_MAX);
        rb_ar_u32(ar, "zeroFill");
        rb_ar_u32(ar, "u03");
        return;
    }
    uint64_t payload = 0, fill = 0;
    if (rb_ar_direction(ar) == RB_AR_READ) {
        uint64_t left = rb_ar_remaining(ar);
        const uint8_t *p = left >= 4 ? rb_ar_peek_bytes(ar, left) : NULL;
        if (!p) {
            if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_FORMAT, "chunk 061 ends before its last u32");
            return;
        }
        payload = left - 4;
        while (payload > 0 && p[payload - 1] == 0) payload--;
        fill = left - 4 - payload;
    }
    rb_ar_bytes(ar, "payload", RB_K_OPAQUE, payload);
    fill = rb_ar_uint_detached(ar, "zeroFill", RB_U32, fill);
    if (fill > (64u << 20) && rb_ar_ok(ar)) /* a model's value: the corpus's largest is 78 429 */
        rb_ar_fail(ar, RB_E_MODEL, "zeroFill %llu is more than a map chunk holds (64 MiB)", (unsigned long long)fill);
    for (uint64_t done = 0; done < fill && rb_ar_ok(ar); done += sizeof zeros)
        rb_ar_expect(ar, "zero fill", zeros, fill - done < sizeof zeros ? (size_t)(fill - done) : sizeof zeros);
    rb_ar_u32(ar, "u03");
}

static void versioned_u32s(rb_ar *ar, int count)
{
    rb_ar_u32(ar, "version");
    unknown_u32s(ar, count);
}

static void chunk_057(rb_ar *ar) { versioned_u32s(ar, 1); }
static void chunk_05e(rb_ar *ar) { versioned_u32s(ar, 4); }

/* An encapsulated section (own id scope) whose content is not described: u32 values. */
static void encapsulated_u32s(rb_ar *ar)
{
    gbx_encapsulation_begin(ar);
    rb_ar_list_begin_open(ar, "u01");
    while (rb_ar_ok(ar) && rb_ar_list_has_more(ar)) {
        if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_at_end(ar)) break;
        rb_ar_u32(ar, NULL);
    }
    rb_ar_list_end(ar);
    gbx_encapsulation_end(ar);
}

static void chunk_041(rb_ar *ar) { encapsulated_u32s(ar); }

static void versioned_encapsulated_u32s(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    encapsulated_u32s(ar);
}

static void chunk_047(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 0)) return;
    gbx_string(ar, "u01");
}

/* 04B: objective texts shown per medal */
GBX_FIELDS_CHUNK(chunk_04b, {'s', "objectiveTextAuthor"}, {'s', "objectiveTextGold"}, {'s', "objectiveTextSilver"},
                 {'s', "objectiveTextBronze"})

/* 04F: version < 2 an encapsulated payload nobody has described; 2 a bool; 3 a byte */
static void chunk_04f(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version < 2) {
        gbx_encapsulation_begin(ar);
        rb_ar_bytes(ar, "u01", RB_K_BLOB, rb_ar_remaining(ar));
        gbx_encapsulation_end(ar);
    } else if (version == 2) {
        gbx_bool(ar, "u01");
    } else {
        rb_ar_u8(ar, "u01");
    }
}

/* 050: off-zones (boxes of block coordinates) */
static void chunk_050(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 0)) return;
    gbx_int3(ar, "offzoneTriggerSize");
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "offzones", RB_U32, 24)) {
        RB_AR_LIST(ar, j, rb_ar_list_begin_n(ar, NULL, 6, 4)) rb_ar_i32(ar, NULL);
    }
}

/* 051: the title the map was made in; defines an id in the body scope, so it must be typed */
static void chunk_051(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 0)) return;
    gbx_id(ar, "titleId");
    gbx_string(ar, "buildVersion");
}

static void chunk_052(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 0)) return;
    rb_ar_i32(ar, "decoBaseHeightOffset");
}

/* 053: bot paths */
static void chunk_053(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "botPaths", RB_U32, 16)) {
        rb_ar_i32(ar, "clan");
        RB_AR_LIST(ar, j, rb_ar_list_begin(ar, "path", RB_U32, 12)) gbx_vec3(ar, NULL);
        gbx_bool(ar, "isFlying");
        gbx_noderef(ar, "waypointSpecialProperty");
        gbx_bool(ar, "isAutonomous");
    }
}

/* 054: embedded item models: their idents, the zip holding them, texture names */
static void chunk_054(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    gbx_encapsulation_begin(ar);
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "expectedEmbeddedItemModels", RB_U32, 12)) gbx_meta(ar, NULL);
    gbx_embedded_zip(ar, "embeddedZipData");
    if (version >= 1) {
        RB_AR_LIST(ar, j, rb_ar_list_begin(ar, "textures", RB_U32, 4)) gbx_string(ar, NULL);
    }
    gbx_encapsulation_end(ar);
}

static void chunk_055(rb_ar *ar) { (void)ar; }

/* 056 and 06B: light settings (06B has no version) */
static void light_settings(rb_ar *ar)
{
    rb_ar_u32(ar, "u01");
    rb_ar_x32(ar, "dayTime"); /* fraction of a day 0..65535, 0xFFFFFFFF = none */
    rb_ar_u32(ar, "u02");
    gbx_bool(ar, "dynamicDaylight");
    rb_ar_i32(ar, "dayDuration");
}

static void chunk_056(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    light_settings(ar);
}

static void chunk_06b(rb_ar *ar) { light_settings(ar); }

/* 058: sub-map infos; only an empty list has a known layout */
static void chunk_058(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    uint32_t count = rb_ar_u32(ar, "u01");
    if (count != 0 && rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "sub-map infos are not described");
}

/* 059: world distortion */
static void chunk_059(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    gbx_vec3(ar, "worldDistortion");
    if (version == 0) {
        gbx_noderef(ar, "u01");
        return;
    }
    uint32_t has = gbx_bool(ar, "u02");
    if (has && rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "world distortion data is not described");
    if (version >= 3) {
        rb_ar_f32(ar, "u03");
        rb_ar_f32(ar, "u04");
    }
}

/* 05F: position and rotation of each free block (blocks with flag bit 29), in block order */
static void chunk_05f(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 0)) return;
    rb_ar_list_begin_open(ar, "freeBlocks");
    while (rb_ar_ok(ar) && rb_ar_list_has_more(ar)) {
        if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_at_end(ar)) break;
        rb_ar_record_begin(ar, NULL);
        gbx_vec3(ar, "absolutePositionInMap");
        gbx_vec3(ar, "yawPitchRoll");
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
}

/* ---------- lightmaps (03D, 05B): CHmsLightMapCache "small" ---------- */

/* Frames of JPEG/WebP images, then the lightmap cache node zlib-compressed. The cache node
 * itself is not described: its decompressed bytes stay opaque inside the stream. */
static void lightmap_cache(rb_ar *ar)
{
    int32_t version = rb_ar_i32(ar, "lightmapVersion");
    if (version < 2) {
        if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "lightmap version %d (< 2) is not described", version);
        return;
    }
    uint64_t n = version >= 5 ? rb_ar_list_begin(ar, "frames", RB_U32, 4) : rb_ar_list_begin_n(ar, "frames", 1, 4);
    if (version < 5 && n != 1 && rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_MODEL, "lightmap version %d has exactly one frame", version);
    uint64_t image_bytes = 0;
    RB_AR_RECORDS(ar, i, n) {
        image_bytes += sized_blob(ar, "data", "data size");
        if (version >= 3) image_bytes += sized_blob(ar, "data2", "data2 size");
        if (version >= 6) image_bytes += sized_blob(ar, "data3", "data3 size");
    }
    if (image_bytes == 0) return; /* no images, no cache */
    rb_slot content_size = rb_ar_slot(ar, "uncompressedSize", RB_U32);
    rb_slot encoded_size = rb_ar_slot(ar, "compressedSize", RB_U32);
    rb_ar_stream_begin(ar, "lightmapCacheData", &rb_codec_zlib, content_size.value, encoded_size.value);
    /* the decoded CHmsLightMapCache node: lightmap data taken as a whole (a blob, like the images
     * before it); its inner layout is not described yet */
    rb_ar_bytes(ar, "content", RB_K_BLOB, rb_ar_remaining(ar));
    rb_ar_stream_end(ar, &content_size, &encoded_size);
}

static void chunk_03d(rb_ar *ar)
{
    if (gbx_bool(ar, "hasLightmaps")) lightmap_cache(ar);
}

static void chunk_05b(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    uint32_t has = gbx_bool(ar, "hasLightmaps");
    gbx_bool(ar, "u01");
    gbx_bool(ar, "u02");
    if (has) lightmap_cache(ar);
}

/* ---------- 03E: car marks (CSceneVehicleCarMarksSamples nodes) ---------- */

static void chunk_03e(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 0)) return;
    rb_ar_u32(ar, "listVersion");
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "carMarksBuffer", RB_U32, 4)) gbx_noderef(ar, NULL);
}

static void car_marks_002(rb_ar *ar)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "stops", RB_U32, 4)) rb_ar_u32(ar, NULL);
}

static void car_marks_003(rb_ar *ar) { gbx_string(ar, "name"); }
static void car_marks_004(rb_ar *ar) { gbx_bool(ar, "disabled"); }

/* 006: samples of 10 i32 each (meaning unknown) */
static void car_marks_006(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 0)) return;
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "samples", RB_U32, 40)) {
        RB_AR_LIST(ar, j, rb_ar_list_begin_n(ar, NULL, 10, 4)) rb_ar_i32(ar, NULL);
    }
}

/* ---------- 043: zone genealogies (encapsulated CGameCtnZoneGenealogy nodes) ---------- */

static void chunk_043(rb_ar *ar)
{
    gbx_encapsulation_begin(ar);
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "zoneGenealogy", RB_U32, 4)) gbx_noderef_encapsulated(ar, NULL);
    gbx_encapsulation_end(ar);
}

GBX_FIELDS_CHUNK(genealogy_001, {'u', "currentIndex"}, {'u', "dir"})

static void genealogy_002(rb_ar *ar)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "zoneIds", RB_U32, 4)) gbx_id(ar, NULL);
    rb_ar_u32(ar, "currentIndex");
    rb_ar_u32(ar, "dir");
    gbx_id(ar, "currentZoneId");
}

/* ---------- 044: script metadata (a direct CScriptTraitsMetadata node, encapsulated) ---------- */

static void chunk_044(rb_ar *ar)
{
    gbx_encapsulation_begin(ar);
    gbx_node_direct(ar, "scriptMetadata");
    gbx_encapsulation_end(ar);
}

/* ---------- CScriptTraitsMetadata 0x11002000 (GBX.NET CScriptTraitsMetadata.cs) ---------- */
/* docs/formats/gbx_mapextra.md "Script metadata" */

/* Script types and values. The traits version is the chunk version - 2. From traits version 1
 * counts and string lengths are "SmallLen" (u8; bit 7 set: 7 low bits + u16 << 7); from 3 the
 * distinct types come first and each trait names its type by index. */
enum {
    SCRIPT_VOID = 0, SCRIPT_BOOLEAN = 1, SCRIPT_INTEGER = 2, SCRIPT_REAL = 3, SCRIPT_TEXT = 5,
    SCRIPT_ARRAY = 7, SCRIPT_VEC2 = 9, SCRIPT_VEC3 = 10, SCRIPT_INT3 = 11, SCRIPT_INT2 = 14,
    SCRIPT_STRUCT = 15
};

typedef struct script_type {
    uint32_t kind;
    const struct script_type *key, *value; /* arrays */
    const struct script_type **members;    /* structs */
    uint64_t member_count;
} script_type;

static int small_len_encode(uint64_t value, uint8_t out[3])
{
    if (value < 0x80) { out[0] = (uint8_t)value; return 1; }
    out[0] = (uint8_t)(0x80 | (value & 0x7F));
    out[1] = (uint8_t)(value >> 7);
    out[2] = (uint8_t)(value >> 15);
    return 3;
}

/* READ: a SmallLen value; a spelling other than the shortest fails (the chunk stays opaque). */
static uint64_t small_len_read(rb_ar *ar, const char *what)
{
    const uint8_t *p = rb_ar_take(ar, what, 1);
    if (!p) return 0;
    if (!(p[0] & 0x80)) return p[0];
    const uint8_t *hi = rb_ar_take(ar, what, 2);
    if (!hi) return 0;
    uint64_t value = (uint64_t)(p[0] & 0x7F) | ((uint64_t)hi[0] << 7) | ((uint64_t)hi[1] << 15);
    if (value < 0x80) rb_ar_fail(ar, RB_E_UNSUPPORTED, "%s: SmallLen %llu not in its shortest form", what, (unsigned long long)value);
    return value;
}

static void small_len_emit(rb_ar *ar, uint64_t value)
{
    uint8_t b[3];
    if (value > 0x7FFFFF) { rb_ar_fail(ar, RB_E_MODEL, "%llu does not fit a SmallLen", (unsigned long long)value); return; }
    rb_ar_emit(ar, b, (size_t)small_len_encode(value, b));
}

/* A list whose count is a SmallLen (v >= 1) or a u32. */
static uint64_t script_list_begin(rb_ar *ar, const char *key, int small, uint64_t min_item_bytes)
{
    if (!small) return rb_ar_list_begin(ar, key, RB_U32, min_item_bytes);
    uint64_t count = 0;
    if (rb_ar_direction(ar) == RB_AR_READ) count = small_len_read(ar, key);
    else if (rb_ar_direction(ar) == RB_AR_WRITE) small_len_emit(ar, rb_ar_count_of(ar, key, 0));
    if (rb_ar_direction(ar) == RB_AR_READ && min_item_bytes && count > rb_ar_remaining(ar) / min_item_bytes && rb_ar_ok(ar))
        rb_ar_fail(ar, RB_E_FORMAT, "%s: %llu elements cannot fit", key, (unsigned long long)count);
    return rb_ar_list_begin_n(ar, key, count, min_item_bytes);
}

/* A SmallLen-prefixed string. */
static void small_string(rb_ar *ar, const char *key)
{
    json_t *jv = NULL;
    rb_node *n = rb_ar_field(ar, key, RB_K_STRING, 0, &jv);
    if (!n) return;
    if (rb_ar_direction(ar) == RB_AR_READ) {
        uint64_t size = small_len_read(ar, key);
        const uint8_t *p = rb_ar_ok(ar) ? rb_ar_take(ar, key, size) : NULL;
        if (!p) return;
        n->v.bytes.data = p;
        n->v.bytes.size = (size_t)size;
        rb_ar_note_size(ar, n);
    } else if (rb_ar_direction(ar) == RB_AR_WRITE) {
        small_len_emit(ar, n->v.bytes.size);
        rb_ar_emit(ar, n->v.bytes.data, n->v.bytes.size);
    } else {
        char why[200];
        uint8_t *data = NULL;
        size_t size = 0;
        if (!rb_json_to_bytes(rb_ar_doc(ar), jv, 1, &data, &size, why, sizeof why)) {
            rb_ar_fail_field(ar, RB_E_MODEL, key, "%s", why);
            return;
        }
        n->v.bytes.data = data;
        n->v.bytes.size = size;
    }
}

static void script_text(rb_ar *ar, const char *key, int version)
{
    if (version >= 1) small_string(ar, key);
    else gbx_string(ar, key);
}

/* A SmallLen value that is a model field (a type index). */
static uint64_t small_len_field(rb_ar *ar, const char *key)
{
    json_t *jv = NULL;
    rb_node *n = rb_ar_field(ar, key, RB_K_INT, RB_U32, &jv);
    if (!n) return 0;
    if (rb_ar_direction(ar) == RB_AR_READ) {
        n->v.bits = small_len_read(ar, key);
        rb_ar_note_size(ar, n);
    } else if (rb_ar_direction(ar) == RB_AR_WRITE) {
        small_len_emit(ar, n->v.bits);
    } else {
        char why[200];
        if (!rb_json_to_int(jv, RB_U32, &n->v.bits, why, sizeof why)) rb_ar_fail_field(ar, RB_E_MODEL, key, "%s", why);
    }
    return n->v.bits;
}

static void script_contents(rb_ar *ar, const char *key, const script_type *type, int version);

static const script_type *script_type_describe(rb_ar *ar, const char *key, int version)
{
    script_type *t = rb_arena_alloc(rb_ar_scratch_arena(ar), sizeof *t);
    if (!t) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return NULL; }
    rb_ar_record_begin(ar, key);
    t->kind = version >= 1 ? rb_ar_u8(ar, "type") : rb_ar_u32(ar, "type");
    if (t->kind == SCRIPT_ARRAY) {
        t->key = script_type_describe(ar, "keyType", version);
        t->value = script_type_describe(ar, "valueType", version);
    } else if (t->kind == SCRIPT_STRUCT) {
        if (version < 2 && rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "structs need traits version 2");
        /* the member count precedes the struct's name */
        rb_slot count = rb_ar_slot(ar, "member count", RB_U8);
        uint64_t n = rb_ar_count_of(ar, "members", count.value);
        rb_ar_slot_set(ar, &count, n);
        gbx_string(ar, "name");
        n = rb_ar_list_begin_n(ar, "members", n, 5);
        t->members = rb_arena_alloc(rb_ar_scratch_arena(ar), (n + 1) * sizeof *t->members);
        if (!t->members) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        RB_AR_EACH(ar, i, n) {
            rb_ar_record_begin(ar, NULL);
            gbx_string(ar, "name");
            t->members[i] = script_type_describe(ar, "type", version);
            if (version < 4) script_contents(ar, "default", t->members[i], version);
            rb_ar_record_end(ar);
        }
        t->member_count = rb_ar_ok(ar) ? n : 0;
        rb_ar_list_end(ar);
    }
    rb_ar_record_end(ar);
    return rb_ar_ok(ar) ? t : NULL;
}

static void script_array(rb_ar *ar, const char *key, const script_type *type, int version)
{
    int is_map = type->key && type->key->kind != SCRIPT_VOID;
    uint64_t n = script_list_begin(ar, key, version >= 1, 1);
    RB_AR_EACH(ar, i, n) {
        if (!is_map) {
            script_contents(ar, NULL, type->value, version);
            continue;
        }
        rb_ar_record_begin(ar, NULL);
        script_contents(ar, "key", type->key, version);
        script_contents(ar, "value", type->value, version);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
}

static void script_contents(rb_ar *ar, const char *key, const script_type *type, int version)
{
    if (!type || !rb_ar_ok(ar)) return;
    switch (type->kind) {
    case SCRIPT_BOOLEAN: rb_ar_bool(ar, key, version >= 1 ? 1 : 4); break;
    case SCRIPT_INTEGER: rb_ar_i32(ar, key); break;
    case SCRIPT_REAL: rb_ar_f32(ar, key); break;
    case SCRIPT_TEXT: script_text(ar, key, version); break;
    case SCRIPT_ARRAY: script_array(ar, key, type, version); break;
    case SCRIPT_VEC2: gbx_vec2(ar, key); break;
    case SCRIPT_VEC3: gbx_vec3(ar, key); break;
    case SCRIPT_INT3: gbx_int3(ar, key); break;
    case SCRIPT_INT2: {
        uint64_t n = rb_ar_list_begin_n(ar, key, 2, 4);
        RB_AR_LIST(ar, i, n) rb_ar_i32(ar, NULL);
        break;
    }
    case SCRIPT_STRUCT: {
        uint64_t n = rb_ar_list_begin_n(ar, key, type->member_count, 0);
        if (n != type->member_count && rb_ar_ok(ar))
            rb_ar_fail(ar, RB_E_MODEL, "a struct value has %llu members", (unsigned long long)type->member_count);
        RB_AR_LIST(ar, i, n) script_contents(ar, NULL, type->members[i], version);
        break;
    }
    default:
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "script type %u has no described value layout", type->kind);
    }
}

/* Traits version >= 3: the distinct types, then (name, type index, value) per trait. */
static void script_traits_typed(rb_ar *ar, int version)
{
    uint64_t n = script_list_begin(ar, "types", 1, 1);
    const script_type **types = rb_arena_alloc(rb_ar_scratch_arena(ar), (n + 1) * sizeof *types);
    if (!types) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    RB_AR_LIST(ar, i, n) types[i] = script_type_describe(ar, NULL, version);
    uint64_t k = script_list_begin(ar, "traits", 1, 3);
    RB_AR_EACH(ar, i, k) {
        rb_ar_record_begin(ar, NULL);
        small_string(ar, "name");
        uint64_t index = small_len_field(ar, "typeIndex");
        if (index >= n && rb_ar_ok(ar)) {
            rb_ar_fail(ar, RB_E_FORMAT, "type index %llu, but %llu types are listed", (unsigned long long)index,
                       (unsigned long long)n);
            break;
        }
        if (rb_ar_ok(ar)) script_contents(ar, "value", types[index], version);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
}

/* Traits version < 3: (name, type, value) per trait. */
static void script_traits_inline(rb_ar *ar, int version)
{
    uint64_t k = script_list_begin(ar, "traits", version >= 1, 3);
    RB_AR_RECORDS(ar, i, k) {
        script_text(ar, "name", version);
        const script_type *type = script_type_describe(ar, "type", version);
        script_contents(ar, "value", type, version);
    }
}

static void script_metadata_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version < 2 || version > 6) {
        if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "script metadata version %u is not known (2 to 6 are)", version);
        return;
    }
    int traits_version = (int)version - 2;
    if (traits_version >= 3) script_traits_typed(ar, traits_version);
    else script_traits_inline(ar, traits_version);
}

/* ---------- 048: baked blocks (defines ids in the body scope: must be typed) ---------- */

static void chunk_048(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 0)) return;
    uint32_t blocks_version = rb_ar_u32(ar, "blocksVersion");
    gbx_list baked = {"bakedBlocks", 10, gbx_block, blocks_version};
    gbx_deferrable_list(ar, &baked);
    rb_ar_u32(ar, "u01");
    gbx_fields_list(ar, "bakedClipsAdditionalData", 24, GBX_FIELDS({'M', "clip1"}, {'M', "clip2"}, {'M', "clip3"},
            {'M', "clip4"}, {'3', "coord"}));
}

/* ---------- per-element chunks of TM2020 (062, 063, 065, 068, 069) ---------- */

/* These hold one entry per block (01F), per baked block (048) and per item (040), with no
 * counts of their own. Writing and JSON take the lengths from the model's lists; reading
 * takes them from the lists already read in the same node. The chunk list is the container
 * around the chunk being described, in every direction. */
static const rb_node *chunk_list_being_read(rb_ar *ar) { return rb_ar_enclosing(ar, 1); }

/* The length of list `key` of sibling chunk `id` (READ: read already; FROM_JSON: built already;
 * WRITE: the model's).
 * *known is 0 when the node has no such chunk, or kept it opaque (its length is then unknown). */
static uint64_t sibling_length(rb_ar *ar, uint32_t id, const char *key, int *known)
{
    *known = 0;
    const rb_node *chunks = chunk_list_being_read(ar);
    for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
        const rb_node *chunk = chunks->v.kids.items[i];
        if (gbx_remap_id((uint32_t)rb_node_uint(rb_node_get(chunk, "id"))) != id) continue;
        const rb_node *list = rb_node_get(chunk, key);
        if (!list || (list->kind != RB_K_LIST && list->kind != RB_K_TABLE && list->kind != RB_K_DEFERRED)) return 0;
        *known = 1;
        return rb_element_count(list);
    }
    return 0;
}

/* READ: the length of list `key` of sibling chunk `id`; 0 when the node has no such chunk.
 * Fails when the chunk is there but was kept opaque (its length is then unknown). */
static uint64_t sibling_count(rb_ar *ar, uint32_t id, const char *key)
{
    if (rb_ar_direction(ar) != RB_AR_READ || !rb_ar_ok(ar)) return 0;
    const rb_node *chunks = chunk_list_being_read(ar);
    if (!chunks) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "the chunk list of this node was not found");
        return 0;
    }
    int known;
    uint64_t n = sibling_length(ar, id, key, &known);
    for (size_t i = 0; !known && i < chunks->v.kids.count; i++)
        if (gbx_remap_id((uint32_t)rb_node_uint(rb_node_get(chunks->v.kids.items[i], "id"))) == id)
            rb_ar_fail(ar, RB_E_UNSUPPORTED, "chunk 0x%08X was not typed: the number of %s is unknown", id, key);
    return n;
}

/* A per-element list must stay in step with the list it annotates; an edit that adds or removes
 * blocks or items without it would shift every later entry onto the wrong element. Checked on a
 * model from JSON and on the write of an edited model (rb_ar_checks_edits). */
static void check_in_step(rb_ar *ar, const char *key, uint32_t id, const char *sibling_key)
{
    if (!rb_ar_checks_edits(ar) || !rb_ar_ok(ar)) return;
    const rb_node *list = rb_node_get(rb_ar_current(ar), key);
    int known;
    uint64_t expected = sibling_length(ar, id, sibling_key, &known);
    if (!known || !list || rb_element_count(list) == expected) return;
    rb_ar_fail(ar, RB_E_MODEL,
               "%s has %zu entries but chunk 0x%08X has %llu %s: remove or add the matching entries here too "
               "(one per element, in the same order)",
               key, rb_element_count(list), id, (unsigned long long)expected, sibling_key);
}

static void byte_list(rb_ar *ar, const char *key, uint64_t count)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin_n(ar, key, count, 1)) rb_ar_u8(ar, NULL);
}

/* A list of one u8 per element up to the end of the chunk. */
static void byte_list_to_end(rb_ar *ar, const char *key)
{
    rb_ar_list_begin_open(ar, key);
    while (rb_ar_ok(ar) && rb_ar_list_has_more(ar)) {
        if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_at_end(ar)) break;
        rb_ar_u8(ar, NULL);
    }
    rb_ar_list_end(ar);
}

/* 062 (colours) and 068 (lightmap quality): u8 per block, baked block, item */
static void per_element_bytes(rb_ar *ar, uint32_t max_version)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, max_version)) return;
    byte_list(ar, "blocks", sibling_count(ar, 0x0304301F, "blocks"));
    check_in_step(ar, "blocks", 0x0304301F, "blocks");
    byte_list(ar, "bakedBlocks", sibling_count(ar, 0x03043048, "bakedBlocks"));
    check_in_step(ar, "bakedBlocks", 0x03043048, "bakedBlocks");
    byte_list_to_end(ar, "items");
    check_in_step(ar, "items", 0x03043040, "anchoredObjects");
}

static void chunk_062(rb_ar *ar) { per_element_bytes(ar, 0); }
static void chunk_068(rb_ar *ar) { per_element_bytes(ar, 1); }

/* 063: animation phase offset per item */
static void chunk_063(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 0)) return;
    byte_list_to_end(ar, "animPhaseOffsets");
    check_in_step(ar, "animPhaseOffsets", 0x03043040, "anchoredObjects");
}

/* 065: per item, an optional foreground skin */
static void chunk_065(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 0)) return;
    rb_ar_list_begin_open(ar, "items");
    while (rb_ar_ok(ar) && rb_ar_list_has_more(ar)) {
        if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_at_end(ar)) break;
        rb_ar_record_begin(ar, NULL);
        if (rb_ar_bool(ar, "hasForegroundPackDesc", 1)) gbx_fileref(ar, "foregroundPackDesc");
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
    check_in_step(ar, "items", 0x03043040, "anchoredObjects");
}

/* 069: macroblock instance per block and per item (-1 = none), then each instance's flags */
static void chunk_069(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 0)) return;
    static const char *const keys[] = {"blocks", "items"};
    uint64_t counts[2];
    counts[0] = sibling_count(ar, 0x0304301F, "blocks");
    counts[1] = sibling_count(ar, 0x03043040, "anchoredObjects");
    RB_AR_EACH(ar, g, 2) {
        RB_AR_LIST(ar, i, rb_ar_list_begin_n(ar, keys[g], counts[g], 4)) rb_ar_i32(ar, NULL);
    }
    check_in_step(ar, "blocks", 0x0304301F, "blocks");
    check_in_step(ar, "items", 0x03043040, "anchoredObjects");
    gbx_fields_list(ar, "macroblockInstances", 8, GBX_FIELDS({'i', "id"}, {'X', "flags"}));
}

/* 0x11001000 (CScriptTraitsGenericContainer, early ManiaPlanet): version 1 is a list of names
 * with a u32 each (meaning unknown; GBX.NET does not read it); later versions are 0x11002000's. */
static void script_container_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version >= 2) {
        if (version > 6) {
            if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "script traits version %u is not known", version);
            return;
        }
        if (version - 2 >= 3) script_traits_typed(ar, (int)version - 2);
        else script_traits_inline(ar, (int)version - 2);
        return;
    }
    gbx_fields_list(ar, "traits", 8, GBX_FIELDS({'s', "name"}, {'u', "u01"}));
}

static const gbx_chunk_def MAP_EXTRA_CHUNKS[] = {
    {0x03043014, 1, "old password", chunk_014},
    {0x03043016, 1, "u32", chunk_016},
    {0x03043017, 1, "checkpoints", chunk_017},
    {0x03043018, 1, "laps", chunk_018},
    {0x03043019, 1, "mod", chunk_019},
    {0x0304301C, 1, "play mode", chunk_01c},
    {0x03043029, 1, "password", chunk_029},
    {0x03043034, 1, "data", chunk_034},
    {0x03043036, 1, "thumbnail camera and comments", chunk_036},
    {0x03043038, 1, "unknown", chunk_038},
    {0x0304303A, 1, "unknown", chunk_03a},
    {0x0304303D, 1, "lightmaps", chunk_03d},
    {0x0304303E, 1, "car marks", chunk_03e},
    {0x03043041, 1, "unknown (encapsulated)", chunk_041},
    {0x03043042, 1, "author", author_info},
    {0x03043043, 1, "zone genealogies", chunk_043},
    {0x03043044, 1, "script metadata", chunk_044},
    {0x03043047, 1, "u32 + string", chunk_047},
    {0x03043048, 1, "baked blocks", chunk_048},
    {0x0304304B, 1, "objectives", chunk_04b},
    {0x0304304D, 1, "unknown (encapsulated)", versioned_encapsulated_u32s},
    {0x0304304E, 1, "unknown (encapsulated)", versioned_encapsulated_u32s},
    {0x0304304F, 1, "unknown", chunk_04f},
    {0x03043050, 1, "offzones", chunk_050},
    {0x03043051, 1, "title info", chunk_051},
    {0x03043052, 1, "deco height", chunk_052},
    {0x03043053, 1, "bot paths", chunk_053},
    {0x03043054, 1, "embedded items", chunk_054},
    {0x03043055, 1, "empty", chunk_055},
    {0x03043056, 1, "light settings", chunk_056},
    {0x03043057, 1, "unknown", chunk_057},
    {0x03043058, 1, "sub-map infos", chunk_058},
    {0x03043059, 1, "world distortion", chunk_059},
    {0x0304305A, 1, "unknown", chunk_05a},
    {0x0304305B, 1, "lightmaps", chunk_05b},
    {0x0304305C, 1, "unknown", chunk_05c},
    {0x0304305D, 1, "unknown", chunk_05d},
    {0x0304305E, 1, "unknown", chunk_05e},
    {0x0304305F, 1, "free blocks", chunk_05f},
    {0x03043060, 1, "unknown", chunk_060},
    {0x03043061, 1, "payload and zero fill", chunk_061},
    {0x03043062, 1, "element colours", chunk_062},
    {0x03043063, 1, "anim phase offsets", chunk_063},
    {0x03043064, 1, "unknown (encapsulated)", versioned_encapsulated_u32s},
    {0x03043065, 1, "foreground skins", chunk_065},
    {0x03043067, 1, "unknown (encapsulated)", versioned_encapsulated_u32s},
    {0x03043068, 1, "lightmap quality", chunk_068},
    {0x03043069, 1, "macroblock instances", chunk_069},
    {0x0304306B, 1, "light settings 2", chunk_06b},
    /* classes only found inside the chunks above */
    {0x0A083002, 0, "car marks stops", car_marks_002},
    {0x0A083003, 0, "car marks name", car_marks_003},
    {0x0A083004, 0, "car marks disabled", car_marks_004},
    {0x0A083006, 0, "car marks samples", car_marks_006},
    {0x0311D001, 0, "zone genealogy 001", genealogy_001},
    {0x0311D002, 0, "zone genealogy", genealogy_002},
    {0x11001000, 0, "script traits (old container)", script_container_000},
    {0x11002000, 0, "script traits", script_metadata_000},
};

const gbx_chunk_table gbx_map_extra_chunks = {MAP_EXTRA_CHUNKS, sizeof MAP_EXTRA_CHUNKS / sizeof MAP_EXTRA_CHUNKS[0]};
