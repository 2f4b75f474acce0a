/*
 * The collection and block-info classes of TrackMania 1.0 / Sunrise files (engine 0x24 ids, mapped
 * to the current ones by the REMAP of gbx_node.c): CGameCtnCollection (0x03033000, 0x24004000),
 * CGameCtnBlockInfo (0x0304E000, 0x24005000), CGameCtnBlockUnitInfo (0x03036000, 0x24006000), and
 * what a block info's helper mobils hold: CHmsItem (0x06003000), whose old CPlugSolid
 * (0x09005000) is described in solid.c; and a collection's decoration, CGameCtnDecoration
 * (0x03038000, `.TMDecoration.Gbx`).
 * Layouts: docs/formats/gbx_item.md "Collection and block info chunks", "Decoration chunks".
 */
#include "core/gbx/map/map_header.h"

static void f32s(rb_ar *ar, const char *const *keys, size_t n)
{
    RB_AR_EACH(ar, i, n) rb_ar_f32(ar, keys[i]);
}

/* ---------- CGameCtnCollection 0x03033000 ---------- */

static void collection_009(rb_ar *ar)
{
    gbx_id(ar, "collection");
    gbx_noderef_deprec_list(ar, "completeListZoneList");
    gbx_fields(ar, GBX_FIELDS({'n', "defaultZone"}, {'b', "needUnlock"}, {'f', "squareSize"}, {'f', "squareHeight"},
                               {'M', "vehicle"}));
}

GBX_FIELDS_CHUNK(collection_00c, {'b', "isEditable"}, {'i', "collectionType"})

/* A flag, then the node only when the flag is set. The flag keeps its raw value (a model may say
 * 2); a model whose flag and node disagree would write a file that reads back otherwise, so it is
 * refused. */
static void flagged_node(rb_ar *ar, const char *flag_key, const char *key)
{
    uint32_t flag = gbx_bool(ar, flag_key);
    int has = rb_ar_has(ar, key, flag != 0);
    if (rb_ar_ok(ar) && has != (flag != 0))
        rb_ar_fail(ar, RB_E_FORMAT, "%s is %s but %s is %s", flag_key, flag ? "set" : "not set", key,
                   has ? "present" : "absent");
    if (has) gbx_noderef(ar, key);
}

static void collection_00d(rb_ar *ar)
{
    flagged_node(ar, "hasIconFid", "iconFid");
    flagged_node(ar, "hasIconSmallFid", "iconSmallFid");
}

static void collection_00e(rb_ar *ar) { rb_ar_i32(ar, "sortIndex"); }
static void collection_011(rb_ar *ar) { gbx_noderef(ar, "defaultDecoration"); }

static void collection_013(rb_ar *ar)
{
    static const char *const k[] = {"waterTop", "waterBottom", "cameraMinHeight"};
    f32s(ar, k, 3);
}

GBX_FIELDS_CHUNK(collection_016, {'i', "blocksShadow"}, {'b', "shadowCastBack"}, {'i', "backgroundShadow"},
                 {'f', "shadowSoftSizeInWorld"}, {'i', "vertexLighting"}, {'f', "colorVertexMin"},
                 {'f', "colorVertexMax"})

static void collection_018(rb_ar *ar)
{
    gbx_noderef(ar, "mapFid");
    gbx_floats(ar, "mapRect", 4);
    gbx_vec2(ar, "mapCoordElem");
    gbx_vec2(ar, "mapCoordIcon");
}

static void collection_019(rb_ar *ar) { gbx_noderef(ar, "loadScreenFid"); }

/* Header chunk 001, the collection's description for menus. The values the body also holds in 009
 * and 00E are copies derived from it (docs/formats/gbx.md "Header copies"); the map rectangle and
 * coordinates (also in 018) are fixed numbers, which a copy cannot derive yet: the header keeps
 * its own (docs/formats/gbx_item.md "Collection and block info chunks"). */
static void bool_field(rb_ar *ar, const char *key) { gbx_bool(ar, key); }
static void i32_field(rb_ar *ar, const char *key) { rb_ar_i32(ar, key); }

static void collection_header_001(rb_ar *ar)
{
    uint8_t version = rb_ar_u8(ar, "version");
    if (rb_ar_ok(ar) && version > 10) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "collection header 0x03033001 version %u is above the known 10", version);
        return;
    }
    gbx_copy(ar, "collection", GBX_FACT_COLLECTION, NULL, gbx_id);
    gbx_copy(ar, "needUnlock", GBX_FACT_COLLECTION, NULL, bool_field);
    if (version < 1) return;
    gbx_string(ar, "iconFullName");
    gbx_string(ar, "iconSmallFullName");
    if (version < 2) return;
    gbx_copy(ar, "sortIndex", GBX_FACT_COLLECTION_SORT, NULL, i32_field);
    if (version < 3) return;
    gbx_id(ar, "defaultZoneId");
    if (version < 4) return;
    gbx_copy(ar, "vehicle", GBX_FACT_COLLECTION, NULL, gbx_meta);
    if (version < 5) return;
    gbx_string(ar, "mapFullName");
    gbx_floats(ar, "mapRect", 4);
    if (version <= 7) {
        gbx_vec2(ar, "mapCoordElem");
        if (version >= 6) gbx_vec2(ar, "mapCoordIcon");
    }
    if (version < 7) return;
    gbx_string(ar, "loadScreen");
    if (version < 8) return;
    gbx_vec2(ar, "mapCoordElem");
    gbx_vec2(ar, "mapCoordIcon");
    gbx_vec2(ar, "mapCoordDesc");
    gbx_string(ar, "longDesc");
    if (version < 9) return;
    gbx_string(ar, "displayName");
    if (version >= 10) gbx_bool(ar, "isEditable");
}

/* ---------- CGameCtnBlockInfo 0x0304E000 ---------- */

/* A list of lists of mobils (one list per variant). */
static void mobil_lists(rb_ar *ar, const char *key)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, key, RB_U32, 4)) gbx_noderef_list(ar, NULL);
}

static void block_info_005(rb_ar *ar)
{
    static const char *const zeros[] = {"u02", "u03", "u04"};
    gbx_id(ar, "identId"); /* "id" is the chunk's own key */
    RB_AR_EACH(ar, i, 3) rb_ar_i32(ar, zeros[i]);
    gbx_fields(ar, GBX_FIELDS({'b', "isPillar"}, {'i', "selection"}, {'i', "u06"}, {'n', "pillar"},
                               {'N', "groundBlockUnitInfos"}, {'N', "airBlockUnitInfos"}));
    mobil_lists(ar, "groundMobils");
    mobil_lists(ar, "airMobils");
    gbx_fields(ar, GBX_FIELDS({'y', "u07"}, {'i', "u08"}, {'h', "u09"}, {'h', "u10"}));
}

static void block_info_009(rb_ar *ar) { gbx_bool(ar, "isPillar"); }

GBX_FIELDS_CHUNK(helper_mobils, {'n', "groundHelperMobil"}, {'n', "airHelperMobil"},
                 {'n', "constructionModeHelperMobil"})

static void block_info_00b(rb_ar *ar)
{
    rb_ar_i32(ar, "u01");
    helper_mobils(ar);
}

static void block_info_00c(rb_ar *ar)
{
    gbx_floats(ar, "spawnLocGround", 12);
    gbx_floats(ar, "spawnLocAir", 12);
}

static void block_info_00d(rb_ar *ar) { gbx_bool(ar, "isReplacement"); }

static void block_info_00e(rb_ar *ar)
{
    rb_ar_i32(ar, "wayPointType");
    helper_mobils(ar);
}

static void block_info_00f(rb_ar *ar) { gbx_bool(ar, "noRespawn"); }

/* ---------- CGameCtnBlockUnitInfo 0x03036000 ---------- */

/* The second flag is 0x0707F880 in every unit of the corpus, so it is kept as a number. */
GBX_FIELDS_CHUNK(unit_info_000, {'i', "placePylons"}, {'b', "u01"}, {'X', "u02"}, {'3', "relativeOffset"},
                 {'N', "clips"})

GBX_FIELDS_CHUNK(unit_info_001, {'I', "surface"}, {'i', "frontier"}, {'i', "dir"})

static void unit_info_002(rb_ar *ar) { gbx_bool(ar, "underground"); }

/* The two numbers after the id look like uninitialised memory in the corpus (pointers, floats),
 * so they are shown in hex. */
GBX_FIELDS_CHUNK(unit_info_003, {'n', "replacementBlockInfo"}, {'I', "replacementId"}, {'X', "multiDir"}, {'X', "u01"})

static void unit_info_004(rb_ar *ar) { rb_ar_i32(ar, "acceptPylons"); }
static void unit_info_005(rb_ar *ar) { gbx_id(ar, "terrainModifierId"); }

/* ---------- CHmsItem 0x06003000 ---------- */

static void hms_item_001(rb_ar *ar) { gbx_noderef(ar, "solid"); }

/* 00E, 010 and 011 (one per game generation) hold the same two numbers. */
GBX_FIELDS_CHUNK(hms_item_u64_u16, {'Q', "u01"}, {'h', "u02"})

/* ---------- the table ---------- */

/* ---------- CGameCtnDecoration 0x03038000: what a decoration is made of, by reference ---------- */

static void decoration_size(rb_ar *ar) { gbx_noderef(ar, "decoSize"); }
static void decoration_audio(rb_ar *ar) { gbx_noderef(ar, "decoAudio"); }
static void decoration_mood(rb_ar *ar) { gbx_noderef(ar, "decoMood"); }
static void decoration_solid_warp(rb_ar *ar) { gbx_noderef(ar, "decoratorSolidWarp"); }
static void decoration_terrain_covered(rb_ar *ar) { gbx_noderef(ar, "terrainModifierCovered"); }
static void decoration_terrain_base(rb_ar *ar) { gbx_noderef(ar, "terrainModifierBase"); }

static void decoration_017(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    gbx_id(ar, "decorationZoneFrontierId");
    if (version >= 1) gbx_bool(ar, "isWaterOutsidePlayField");
}

GBX_FIELDS_CHUNK(decoration_018, {'u', "version"}, {'n', "vehicleFxSkin"}, {'s', "vehicleFxFolder"})

static void decoration_019(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    gbx_noderef(ar, "decoAudio");
    if (version >= 1) gbx_noderef(ar, "decoAudioAmbient");
}

GBX_FIELDS_CHUNK(decoration_01a, {'u', "version"}, {'n', "decoMaterialModifiers"})

static void decoration_01b(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    gbx_noderef(ar, "decoMap");
    if (version >= 1) gbx_noderef(ar, "decoMapLightMap");
}

static const gbx_chunk_def CHUNKS[] = {
    {0x03038011, 0, "decoration size", decoration_size},
    {0x03038012, 0, "decoration audio", decoration_audio},
    {0x03038013, 0, "decoration mood", decoration_mood},
    {0x03038014, 0, "decoration solid warp", decoration_solid_warp},
    {0x03038015, 0, "decoration covered terrain", decoration_terrain_covered},
    {0x03038016, 0, "decoration base terrain", decoration_terrain_base},
    {0x03038017, 0, "decoration zone frontier", decoration_017},
    {0x03038018, 0, "decoration vehicle effects", decoration_018},
    {0x03038019, 0, "decoration audio and ambience", decoration_019},
    {0x0303801A, 0, "decoration material modifiers", decoration_01a},
    {0x0303801B, 0, "decoration map", decoration_01b},
    {0x03033009, 0, "collection", collection_009},
    {0x0303300C, 0, "collection editable", collection_00c},
    {0x0303300D, 0, "collection icons", collection_00d},
    {0x0303300E, 0, "collection sort index", collection_00e},
    {0x03033011, 0, "collection default decoration", collection_011},
    {0x03033013, 0, "collection water", collection_013},
    {0x03033016, 0, "collection shadows", collection_016},
    {0x03033018, 0, "collection map", collection_018},
    {0x03033019, 0, "collection load screen", collection_019},
    {0x0304E005, 0, "block info", block_info_005},
    {0x0304E009, 0, "block info pillar", block_info_009},
    {0x0304E00B, 0, "block info helper mobils", block_info_00b},
    {0x0304E00C, 0, "block info spawn locations", block_info_00c},
    {0x0304E00D, 0, "block info replacement", block_info_00d},
    {0x0304E00E, 0, "block info waypoint", block_info_00e},
    {0x0304E00F, 0, "block info no respawn", block_info_00f},
    {0x03036000, 0, "block unit info", unit_info_000},
    {0x03036001, 0, "block unit info surface", unit_info_001},
    {0x03036002, 1, "block unit info underground", unit_info_002},
    {0x03036003, 0, "block unit info replacement", unit_info_003},
    {0x03036004, 0, "block unit info pylons", unit_info_004},
    {0x03036005, 0, "block unit info terrain modifier", unit_info_005},
    {0x06003001, 0, "hms item solid", hms_item_001},
    {0x0600300E, 0, "hms item 00E", hms_item_u64_u16},
    {0x06003010, 0, "hms item 010", hms_item_u64_u16},
    {0x06003011, 0, "hms item 011", hms_item_u64_u16},
};

const gbx_chunk_table gbx_block_info_chunks = {CHUNKS, sizeof CHUNKS / sizeof CHUNKS[0]};

static const gbx_chunk_def HEADER_CHUNKS[] = {
    {0x03033001, 0, "collection description", collection_header_001},
};

const gbx_chunk_table gbx_block_info_header_chunks = {HEADER_CHUNKS, sizeof HEADER_CHUNKS / sizeof HEADER_CHUNKS[0]};
