/*
 * CGameCtnChallenge (0x03043000): maps. Layouts: docs/formats/gbx.md "Map body chunks", from
 * GBX.NET's CGameCtnChallenge.chunkl, checked on the corpus.
 * Key names follow GBX.NET's property names (camelCase) so users can look them up there too.
 */
#include "core/gbx/engine/gbx_internal.h"
#include "core/gbx/map/map_header.h"

/* A deprecated-format list header: u32 version (10 in every known file), then the count. */
static uint64_t deprec_list_begin(rb_ar *ar, const char *key, uint64_t min_item_bytes)
{
    rb_ar_u32(ar, "listVersion");
    return rb_ar_list_begin(ar, key, RB_U32, min_item_bytes);
}

/* ---------- blocks ---------- */

enum {
    BLOCK_FLAG_SKIN = 0x8000,
    BLOCK_FLAG_DECAL = 0x20000,
    BLOCK_FLAG_SQUARE_CARD_EVENTS = 0x40000,
    BLOCK_FLAG_PHY_SPECIAL = 0x80000,
    BLOCK_FLAG_WAYPOINT = 0x100000
};

static void square_card_events(rb_ar *ar)
{
    /* an event is at least 12 bytes (two u32 and an empty idents list): a larger minimum let a
     * full read accept a count that the unit read alone, with only its own bytes, refused */
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "squareCardEvents", RB_U32, 12)) {
        rb_ar_u32(ar, "u01");
        rb_ar_u32(ar, "u02");
        RB_AR_LIST(ar, j, rb_ar_list_begin(ar, "idents", RB_U32, 12)) gbx_meta(ar, NULL);
    }
}

/* One block of the block list (chunks 013, 01F and the baked blocks of 048), version v. */
void gbx_block(rb_ar *ar, uint32_t version)
{
    rb_ar_record_begin(ar, NULL);
    gbx_id(ar, "name");
    rb_ar_u8(ar, "direction");
    gbx_byte3(ar, "coord");
    uint32_t flags = version == 0 ? rb_ar_uint(ar, "flags", RB_U16 | RB_W_HEX) : rb_ar_x32(ar, "flags");
    /* flags 0xFFFFFFFF (TMUnlimiter's marker block) has every bit set and carries every payload */
    if (flags & BLOCK_FLAG_SKIN) {
        gbx_id(ar, "author");
        gbx_noderef(ar, "skin");
    }
    if (version >= 2) {
        if (flags & BLOCK_FLAG_PHY_SPECIAL) gbx_noderef(ar, "charPhySpecialProperty");
        if (flags & BLOCK_FLAG_WAYPOINT) gbx_noderef(ar, "waypointSpecialProperty");
        if (flags & BLOCK_FLAG_SQUARE_CARD_EVENTS) square_card_events(ar);
        if (flags & BLOCK_FLAG_DECAL) {
            gbx_id(ar, "decalId");
            rb_ar_u32(ar, "decalIntensity");
            rb_ar_u32(ar, "decalVariant");
        }
    }
    rb_ar_record_end(ar);
}

/* `checkpoints`: the list the header's nbCheckpoints counts (01F's) */
static void blocks(rb_ar *ar, uint32_t version, int checkpoints)
{
    gbx_list list = {"blocks", 10, gbx_block, version, checkpoints ? gbx_block_is_checkpoint : NULL};
    gbx_deferrable_list(ar, &list);
}

/* 00F: TM 1.0 block data (blocks are nodes) */
static void chunk_00f(rb_ar *ar)
{
    gbx_meta(ar, "mapInfo");
    gbx_int3(ar, "size");
    uint64_t n = deprec_list_begin(ar, "blocks", 4);
    RB_AR_LIST(ar, i, n) gbx_noderef(ar, NULL);
    gbx_bool(ar, "needUnlock");
    gbx_meta(ar, "decoration");
}

/* What 013 and 01F store before their blocks. */
static const gbx_field MAP_BASICS[] = {{'M', "mapInfo"}, {'s', "mapName"}, {'M', "decoration"}, {'3', "size"},
                                       {'b', "needUnlock"}};

/* 013: TMPU block data, block version 0 */
static void chunk_013(rb_ar *ar)
{
    gbx_fields(ar, MAP_BASICS, sizeof MAP_BASICS / sizeof MAP_BASICS[0]);
    blocks(ar, 0, 0);
}

/* 01F: block data */
static void chunk_01f(rb_ar *ar)
{
    gbx_fields(ar, MAP_BASICS, sizeof MAP_BASICS / sizeof MAP_BASICS[0]);
    uint32_t version = rb_ar_u32(ar, "blockVersion");
    blocks(ar, version, 1);
}

/* ---------- other body chunks ---------- */

static void chunk_00d(rb_ar *ar) { gbx_meta(ar, "playerModel"); }

GBX_FIELDS_CHUNK(chunk_011, {'n', "blockStock"}, {'n', "challengeParameters"}, {'u', "kind"})

static void chunk_012(rb_ar *ar) { gbx_string(ar, "mapName"); }

GBX_FIELDS_CHUNK(chunk_021, {'n', "clipIntro"}, {'n', "clipGroupInGame"}, {'n', "clipGroupEndRace"})

static void chunk_022(rb_ar *ar) { rb_ar_u32(ar, "u01"); }
static void chunk_024(rb_ar *ar) { gbx_fileref(ar, "customMusicPackDesc"); }

static void chunk_025(rb_ar *ar)
{
    gbx_vec2(ar, "mapCoordOrigin");
    gbx_vec2(ar, "mapCoordTarget");
}

static void chunk_026(rb_ar *ar) { gbx_noderef(ar, "clipGlobal"); }

/* 027/028: the thumbnail camera (028 adds the comments) */
static void thumbnail_camera(rb_ar *ar)
{
    uint32_t has = gbx_bool(ar, "hasCameraThumbnail");
    if (!has) return;
    rb_ar_u8(ar, "u01");
    gbx_floats(ar, "thumbnailRotation", 9);
    gbx_fields(ar, GBX_FIELDS({'v', "thumbnailPosition"}, {'f', "thumbnailFov"}, {'f', "thumbnailNearClipPlane"},
                               {'f', "thumbnailFarClipPlane"}));
}

static void chunk_027(rb_ar *ar) { thumbnail_camera(ar); }

static void chunk_028(rb_ar *ar)
{
    thumbnail_camera(ar);
    gbx_string(ar, "comments");
}

static void chunk_02a(rb_ar *ar) { gbx_bool(ar, "createdWithSimpleEditor"); }

static void chunk_049(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    gbx_fields(ar, GBX_FIELDS({'n', "clipIntro"}, {'n', "clipPodium"}, {'n', "clipGroupInGame"},
                               {'n', "clipGroupEndRace"}));
    if (version >= 2) gbx_noderef(ar, "clipAmbiance");
    if (version >= 1) gbx_int3(ar, "clipTriggerSize");
}

static const gbx_chunk_def CHALLENGE_CHUNKS[] = {
    {0x0304300D, 0, "vehicle", chunk_00d},
    {0x0304300F, 0, "TM1.0 block data", chunk_00f},
    {0x03043011, 0, "parameters", chunk_011},
    {0x03043012, 0, "TM1.0 map name", chunk_012},
    {0x03043013, 0, "TMPU block data", chunk_013},
    {0x0304301F, 0, "block data", chunk_01f},
    {0x03043021, 0, "legacy media tracker", chunk_021},
    {0x03043022, 0, "u32", chunk_022},
    {0x03043024, 0, "custom music", chunk_024},
    {0x03043025, 0, "map coordinates", chunk_025},
    {0x03043026, 0, "global clip", chunk_026},
    {0x03043027, 0, "thumbnail camera", chunk_027},
    {0x03043028, 0, "thumbnail camera and comments", chunk_028},
    {0x0304302A, 0, "created with simple editor", chunk_02a},
    {0x03043049, 0, "media tracker", chunk_049},
};

const gbx_chunk_table gbx_challenge_chunks = {CHALLENGE_CHUNKS, sizeof CHALLENGE_CHUNKS / sizeof CHALLENGE_CHUNKS[0]};
