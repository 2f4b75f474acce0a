/*
 * Classes nested in maps: CGameCtnCollectorList, CGameCtnChallengeParameters,
 * CGameCtnBlockSkin, CGameWaypointSpecialProperty.
 * Layouts: docs/formats/gbx.md "Classes nested in maps".
 */
#include "core/gbx/engine/gbx_internal.h"
#include "core/gbx/map/map_header.h"

/* CGameCtnCollectorList 000: the block stock */
static void collector_list_000(rb_ar *ar)
{
    gbx_fields_list(ar, "blocks", 16, GBX_FIELDS({'M', "blockModel"}, {'u', "count"}));
}

/* ---------- CGameCtnChallengeParameters ---------- */

static void params_000(rb_ar *ar)
{
    static const char *const keys[] = {"u01", "u02", "u03", "u04", "u05", "u06", "u07", "u08"};
    RB_AR_EACH(ar, i, 8) rb_ar_u32(ar, keys[i]);
}

GBX_FIELDS_CHUNK(params_001, {'s', "tip"}, {'s', "tip1"}, {'s', "tip2"}, {'s', "tip3"})

GBX_FIELDS_CHUNK(params_004, {'i', "bronzeTime"}, {'i', "silverTime"}, {'i', "goldTime"}, {'i', "authorTime"},
                 {'u', "u01"})

/* 00A (skippable, ManiaPlanet and TM2020): the tip and the medals the game shows */
static void i32(rb_ar *ar, const char *key) { rb_ar_i32(ar, key); }

/* 00A (skippable, ManiaPlanet and TM2020): the tip and the medals again, copies of 001, 004
 * and 008 (map_header.c; written from them unless the file's copy differs) */
static void params_00a(rb_ar *ar)
{
    gbx_copy(ar, "tip", GBX_FACT_TIPS, NULL, gbx_string);
    gbx_copy(ar, "bronzeTime", GBX_FACT_MEDALS, NULL, i32);
    gbx_copy(ar, "silverTime", GBX_FACT_MEDALS, NULL, i32);
    gbx_copy(ar, "goldTime", GBX_FACT_MEDALS, NULL, i32);
    gbx_copy(ar, "authorTime", GBX_FACT_MEDALS, NULL, i32);
    gbx_copy(ar, "timeLimit", GBX_FACT_STUNTS, NULL, i32);
    gbx_copy(ar, "authorScore", GBX_FACT_STUNTS, NULL, i32);
}

/* 00E (skippable): the map type and style the title's scripts read */
GBX_FIELDS_CHUNK(params_00e, {'s', "mapType"}, {'s', "mapStyle"}, {'b', "isValidatedForScriptModes"})

GBX_FIELDS_CHUNK(params_005, {'u', "u01"}, {'u', "u02"}, {'u', "u03"})

static void params_006(rb_ar *ar)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "items", RB_U32, 4)) rb_ar_u32(ar, NULL);
}

static void params_007(rb_ar *ar) { rb_ar_u32(ar, "u01"); }

GBX_FIELDS_CHUNK(params_008, {'i', "timeLimit"}, {'i', "authorScore"})

static void params_00d(rb_ar *ar) { gbx_noderef(ar, "raceValidateGhost"); }

/* ---------- CGameCtnBlockSkin ---------- */

GBX_FIELDS_CHUNK(skin_000, {'s', "text"}, {'s', "u01"})

GBX_FIELDS_CHUNK(skin_001, {'s', "text"}, {'p', "packDesc"})

GBX_FIELDS_CHUNK(skin_002, {'s', "text"}, {'p', "packDesc"}, {'p', "parentPackDesc"})

GBX_FIELDS_CHUNK(skin_003, {'u', "version"}, {'p', "foregroundPackDesc"})

/* ---------- CGameWaypointSpecialProperty ---------- */

static void waypoint_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version == 1) {
        rb_ar_u32(ar, "spawn");
        rb_ar_u32(ar, "order");
    } else if (version == 2) {
        gbx_string(ar, "tag");
        rb_ar_u32(ar, "order");
    } else if (rb_ar_ok(ar)) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "waypoint property version %u is not known (1 and 2 are)", version);
    }
}

/* 001: optional script metadata (a direct CScriptTraitsMetadata node, encapsulated) */
static void waypoint_001(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    if (!gbx_bool(ar, "hasMetadata")) return;
    gbx_encapsulation_begin(ar);
    gbx_node_direct(ar, "metadata");
    gbx_encapsulation_end(ar);
}

static const gbx_chunk_def GAME_CHUNKS[] = {
    {0x0301B000, 0, "collector list", collector_list_000},
    {0x0305B000, 0, "parameters 000", params_000},
    {0x0305B001, 0, "tips", params_001},
    {0x0305B004, 0, "medals", params_004},
    {0x0305B005, 0, "parameters 005", params_005},
    {0x0305B006, 0, "parameters 006", params_006},
    {0x0305B007, 0, "parameters 007", params_007},
    {0x0305B008, 0, "stunts", params_008},
    {0x0305B00A, 1, "tip and medals", params_00a},
    {0x0305B00D, 0, "race validation ghost", params_00d},
    {0x0305B00E, 1, "map type", params_00e},
    {0x03059000, 0, "skin 000", skin_000},
    {0x03059001, 0, "skin 001", skin_001},
    {0x03059002, 0, "skin", skin_002},
    {0x03059003, 0, "foreground skin", skin_003},
    {0x2E009000, 0, "waypoint", waypoint_000},
    {0x2E009001, 1, "waypoint script metadata", waypoint_001},
};

const gbx_chunk_table gbx_game_chunks = {GAME_CHUNKS, sizeof GAME_CHUNKS / sizeof GAME_CHUNKS[0]};
