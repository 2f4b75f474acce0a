/*
 * Items, macroblocks and their relatives: the body chunks of CGameCtnCollector (0x2E001000;
 * legacy 0x2400A000 / 0x0301A000), CGameItemModel (0x2E002000, top-level chunks),
 * CGameCtnMacroBlockInfo (0x0310D000), CGameCtnAutoTerrain (0x03120000), the TM 1.0 block node
 * CGameCtnBlock (0x03057000; legacy 0x24007000), CSystemConfig (0x0B005000) and the
 * CSystemConfigDisplay node it holds (0x0B013000). The header chunks of items and macroblocks
 * follow at the end of the file.
 *
 * Layouts: docs/formats/gbx_item.md "Layouts" (checked on the corpus), from GBX.NET's *.chunkl of
 * these classes. Key names are GBX.NET's property names; unnamed fields are u01, u02...
 *
 * The entity model below CGameItemModel 0x2E002019 is described in the files beside this one:
 * entity_models.c (entity models, block items, placement), crystal.c (CPlugCrystal meshes), solid2.c
 * (CPlugSolid2Model game meshes), surface.c (CPlugSurface shapes), object.c (object models).
 */
#include "core/gbx/engine/gbx_internal.h"
#include "core/gbx/item/item_shapes.h"
#include "core/gbx/map/map_header.h"

/* ---------- shared shapes ---------- */

/* Reject a chunk version whose layout is not known: guessing would misread all that follows. */
static int version_known(rb_ar *ar, uint32_t version, uint32_t max, const char *what)
{
    if (rb_ar_ok(ar) && version > max) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "%s version %u is not known (up to %u are)", what, version, max);
        return 0;
    }
    return rb_ar_ok(ar);
}


/* GBX.NET `data`: u32 length, then the bytes. */
static void data_blob(rb_ar *ar, const char *key)
{
    rb_slot size = rb_ar_slot(ar, "data length", RB_U32);
    const rb_node *data = rb_ar_bytes(ar, key, RB_K_BLOB, size.value);
    rb_ar_slot_set(ar, &size, data ? data->v.bytes.size : 0);
}

/* A deprecated-format list: u32 version (10 in every known file), then the counted list. */
static void deprec_node_list(rb_ar *ar, const char *version_key, const char *key)
{
    rb_ar_u32(ar, version_key);
    gbx_noderef_list(ar, key);
}

static void float_tuple_list(rb_ar *ar, const char *key, int width)
{
    uint64_t n = item_list_begin(ar, key, 4 * (uint64_t)width);
    RB_AR_LIST(ar, i, n) gbx_floats(ar, NULL, width);
}

static void int_tuple_list(rb_ar *ar, const char *key, int width)
{
    uint64_t n = item_list_begin(ar, key, 4 * (uint64_t)width);
    RB_AR_LIST(ar, i, n) gbx_int_tuple(ar, NULL, width);
}

/* A string whose emptiness decides what follows (returns 1 when empty). */
static int string_is_empty(rb_ar *ar, const char *key)
{
    const rb_node *s = rb_ar_string(ar, key, RB_I32);
    return s && s->v.bytes.size == 0;
}

/* ---------- CGameCtnBlock 0x03057000: a TM 1.0 block, a node of map chunk 0x0304300F ---------- */

static void block_002(rb_ar *ar)
{
    gbx_meta(ar, "blockModel");
    rb_ar_u8(ar, "direction");
    gbx_byte3(ar, "coord");
    rb_ar_x32(ar, "flags");
}

/* ---------- CGameCtnCollector 0x2E001000 (docs/formats/gbx_item.md "Collector chunks") ---------- */

static void collector_002(rb_ar *ar) { gbx_meta(ar, "ident"); }
static void collector_006(rb_ar *ar) { rb_ar_u32(ar, "skinKind"); }

GBX_FIELDS_CHUNK(collector_007, {'b', "isInternal"}, {'b', "needUnlock"}, {'i', "catalogPosition"},
                 {'i', "nbAvailableMin"}, {'i', "copperPrice"}, {'i', "nbAvailableMax"})

static void collector_008(rb_ar *ar) { gbx_noderef(ar, "skin"); }

static void collector_009(rb_ar *ar)
{
    gbx_string(ar, "pageName");
    if (gbx_bool(ar, "hasIconFid")) gbx_noderef(ar, "iconFid");
    gbx_id(ar, "parentCollectorId");
}

static void collector_00a(rb_ar *ar) { gbx_id(ar, "u01"); }
static void collector_00c(rb_ar *ar) { gbx_string(ar, "name"); }
static void collector_00d(rb_ar *ar) { gbx_string(ar, "description"); }
GBX_FIELDS_CHUNK(collector_00e, {'b', "iconUseAutoRender"}, {'i', "iconQuarterRotationY"})

/* 010: the default skin; from version 2 a node follows when there is no skin directory */
static void collector_010(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 4, "collector 0x2E001010")) return;
    gbx_noderef(ar, "defaultSkin");
    int no_directory = string_is_empty(ar, "skinDirectory");
    if (version >= 2 && no_directory) gbx_noderef(ar, "u01");
}

static void collector_011(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 1, "collector 0x2E001011")) return;
    gbx_bool(ar, "isInternal");
    gbx_bool(ar, "isAdvanced");
    rb_ar_i32(ar, "catalogPosition");
    if (version >= 1) rb_ar_u8(ar, "prodState");
}

GBX_FIELDS_CHUNK(collector_012, {'i', "u01"}, {'i', "u02"}, {'i', "u03"}, {'i', "u04"})

/* ---------- CGameItemModel 0x2E002000 (docs/formats/gbx_item.md "Item model chunks") ---------- */

static void item_000(rb_ar *ar) { gbx_noderef(ar, "vehicle"); }
static void item_001(rb_ar *ar) { gbx_noderef(ar, "gameSkin"); }
static void item_002(rb_ar *ar) { gbx_noderef(ar, "raceInterfaceFid"); }
static void item_003(rb_ar *ar) { gbx_noderef(ar, "lowQualitySolid"); }
static void item_004(rb_ar *ar) { gbx_noderef(ar, "u01"); }
static void item_006(rb_ar *ar) { rb_ar_i32(ar, "defaultCamIndex"); }

GBX_FIELDS_CHUNK(item_007, {'n', "materialSkin"}, {'n', "materialGlass"}, {'n', "materialDetails"})

static void item_008(rb_ar *ar) { gbx_noderef_list(ar, "nadeoSkinFids"); }
static void item_009(rb_ar *ar) { deprec_node_list(ar, "listVersion", "cameras"); }
static void item_00a(rb_ar *ar) { gbx_noderef(ar, "decoratorSolid"); }

GBX_FIELDS_CHUNK(item_00b, {'n', "stemMaterial"}, {'n', "stemBumpMaterial"})

static void item_00d(rb_ar *ar) { gbx_noderef_list(ar, "forcedSkinsFids"); }

static void item_00e(rb_ar *ar)
{
    item_007(ar);
    gbx_noderef(ar, "materialPilot");
}

static void item_010(rb_ar *ar) { gbx_noderef(ar, "bannerProfileFid"); }

static void item_011(rb_ar *ar)
{
    static const char *const lights[] = {"frontLight", "frontLightSmall", "rearLight", "projShadow", "projFront"};
    item_00e(ar);
    RB_AR_EACH(ar, i, sizeof lights / sizeof lights[0]) gbx_noderef(ar, lights[i]);
}

GBX_FIELDS_CHUNK(item_012, {'v', "groundPoint"}, {'f', "painterGroundMargin"}, {'f', "orbitalCenterHeightFromGround"},
                 {'f', "orbitalRadiusBase"}, {'f', "orbitalPreviewAngle"})

static void item_013(rb_ar *ar) { gbx_noderef(ar, "audioEnvironmentInCar"); }
static void item_014(rb_ar *ar) { gbx_noderef(ar, "u01"); }
static void item_015(rb_ar *ar) { rb_ar_u32(ar, "itemTypeE"); }

/* The item type of the file's header chunk 0x2E002000 (0 = Undefined when there is none). */
static uint32_t header_item_type(rb_ar *ar)
{
    const rb_doc_state *doc = rb_ar_doc(ar);
    const rb_node *chunks = doc && doc->root ? rb_node_get(doc->root, "headerChunks") : NULL;
    for (size_t i = 0; chunks && rb_node_is_container(chunks) && i < chunks->v.kids.count; i++) {
        const rb_node *chunk = chunks->v.kids.items[i];
        const rb_node *id = rb_node_get(chunk, "id"), *type = rb_node_get(chunk, "itemType");
        if (id && type && gbx_remap_id((uint32_t)rb_node_uint(id)) == 0x2E002000) return (uint32_t)rb_node_uint(type);
    }
    return 0;
}

/* 019 starts with the custom physical and visual models while its version is below a threshold
 * that depends on the item type (GBX.NET Chunk2E002019.GetItemTypeVersion; blocks never have
 * them). GBX.NET takes the type from the header, as the reader does here; the model records
 * whether the two are present, so writing and building from JSON do not depend on it. */
static int item_has_custom_models(uint32_t version, uint32_t item_type)
{
    switch (item_type) {
    case 1: case 2: case 5: return version < 9; /* ornament, pick-up, spot */
    case 4: return version < 10;                /* vehicle */
    case 11: return 0;                          /* block */
    default: return version < 12;
    }
}

static void item_019_entity(rb_ar *ar, uint32_t version)
{
    uint32_t edition_index = 0;
    int edition_null = rb_ar_peek_u32(ar, &edition_index) && edition_index == 0xFFFFFFFFu;
    gbx_noderef(ar, "entityModelEdition");
    if (rb_ar_has(ar, "entityModel", edition_null)) gbx_noderef(ar, "entityModel");
    if (version >= 13) gbx_noderef(ar, "vfx");
    if (version >= 15) gbx_noderef(ar, "materialModifier");
}

static void item_019(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 15, "item model 0x2E002019")) return;
    int custom = rb_ar_direction(ar) == RB_AR_READ && item_has_custom_models(version, header_item_type(ar));
    if (rb_ar_has(ar, "phyModelCustom", custom)) {
        gbx_noderef(ar, "phyModelCustom");
        gbx_noderef(ar, "visModelCustom");
    }
    if (version < 3) return;
    gbx_id(ar, "defaultWeaponName");
    if (version < 4) return;
    gbx_noderef(ar, "phyModel");
    if (version < 5) return;
    gbx_noderef(ar, "visModel");
    if (version < 6) return;
    gbx_noderef_list(ar, "actions");
    if (version < 7) return;
    rb_ar_i32(ar, "defaultCam");
    if (version >= 8) item_019_entity(ar, version);
}

static void item_01a(rb_ar *ar) { gbx_noderef(ar, "u01"); }

/* 01C: the default placement: a node from version 5, numbers before */
static void item_01c(rb_ar *ar)
{
    static const char *const numbers[] = {"u02", "u03", "u04", "u05", "u06", "u07", "u08",
                                          "u09", "u10", "u11", "u12", "u13", "u14", "u15"};
    static const int count_by_version[] = {0, 6, 11, 13, 14};
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 5, "item model 0x2E00201C")) return;
    if (version >= 5) {
        gbx_noderef(ar, "defaultPlacement");
        return;
    }
    float_tuple_list(ar, "u01", 3);
    for (int i = 0; i < count_by_version[version] && rb_ar_ok(ar); i++) rb_ar_f32(ar, numbers[i]);
}

static void item_01d(rb_ar *ar) { rb_ar_u16(ar, "u01"); }

/* 01E: the archetype (a referenced file, or from version 5 the node itself when none) */
static void item_01e(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 7, "item model 0x2E00201E") || version < 2) return;
    int no_reference = string_is_empty(ar, "archetypeRef");
    if (version < 5) return;
    if (no_reference) gbx_noderef(ar, "archetypeFid");
    if (version < 6) return;
    gbx_string(ar, "u01"); /* GBX.NET: "SkinDirNameCustom" */
    if (version >= 7) rb_ar_i32(ar, "u02");
}

/* 01F: waypoint type, lightmap switch and their predecessors */
static void item_01f(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 12, "item model 0x2E00201F")) return;
    if (version >= 5 && version <= 6) {
        gbx_string(ar, "u01");
        gbx_string(ar, "u02");
        rb_ar_i32(ar, "u03");
    }
    if (version >= 4 && version <= 6) rb_ar_i32(ar, "u04");
    if (version <= 2) rb_ar_u16(ar, "u05");
    rb_ar_u32(ar, "waypointType");
    if (version <= 7) item_iso4(ar, "u06");
    if (version < 6) return;
    gbx_bool(ar, "disableLightmap");
    if (version < 9) return;
    if (version <= 12) gbx_noderef(ar, "u07");
    if (version < 11) return;
    rb_ar_u8(ar, "u08");
    if (version < 12) return;
    rb_ar_i32(ar, "u09");
    rb_ar_i32(ar, "u10");
}

static void item_020(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 3, "item model 0x2E002020")) return;
    if (version <= 1) {
        gbx_string(ar, "u01");
        gbx_noderef(ar, "u02");
        return;
    }
    gbx_string(ar, "iconFid");
    if (version >= 3) rb_ar_bool(ar, "u03", 1);
}

/* 021: item group elements: a placement, then a referenced file or the item node itself */
static void item_021(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 0, "item model 0x2E002021")) return;
    uint64_t n = item_list_begin(ar, "itemGroupElements", 52);
    RB_AR_RECORDS(ar, i, n) {
        item_iso4(ar, "location");
        if (string_is_empty(ar, "itemRef")) gbx_noderef(ar, "item");
    }
}

/* 022 (skippable, defines ids): typed so that the ids it adds reach the scope's table */
static void item_022(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    rb_ar_i32(ar, "u01");
    uint64_t n = item_list_begin(ar, "u02", 4);
    RB_AR_LIST(ar, i, n) gbx_id(ar, NULL);
    rb_ar_i32(ar, "u03");
    n = item_list_begin(ar, "u04", 2);
    RB_AR_LIST(ar, i, n) rb_ar_u16(ar, NULL);
}

GBX_FIELDS_CHUNK(item_023, {'u', "version"}, {'y', "u01"}, {'i', "u02"})

static void item_024(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    float_tuple_list(ar, "u01", 2);
}

GBX_FIELDS_CHUNK(item_025, {'u', "version"}, {'b', "u01"})

static void item_026(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    float_tuple_list(ar, "u01", 3);
}

GBX_FIELDS_CHUNK(item_027, {'u', "version"}, {'f', "u01"})

/* ---------- CGameCtnMacroBlockInfo 0x0310D000 ---------- */
/* docs/formats/gbx_item.md "Block and object spawns" */

enum { SPAWN_FREE = 1u << 26 }; /* a block placed freely: position and rotation instead of a coordinate */

static void spawn_coord(rb_ar *ar)
{
    gbx_byte3(ar, "coord");
    rb_ar_u8(ar, "direction");
}

static void block_spawn(rb_ar *ar)
{
    rb_ar_record_begin(ar, NULL);
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 8, "block spawn")) return;
    gbx_meta(ar, "blockModel");
    if (version < 2) {
        gbx_int3(ar, "coord");
        rb_ar_u32(ar, "direction");
        rb_ar_record_end(ar);
        return;
    }
    if (version < 5) spawn_coord(ar);
    uint32_t flags = rb_ar_x32(ar, "flags");
    if (version >= 3) {
        if (version >= 5 && (flags & SPAWN_FREE)) {
            gbx_vec3(ar, "absolutePositionInMap");
            gbx_vec3(ar, "pitchYawRoll");
        } else if (version >= 5) {
            spawn_coord(ar);
        }
        gbx_noderef(ar, "waypoint");
        if (version >= 4 && version < 6) gbx_noderef(ar, "u01");
        if (version >= 8) rb_ar_u16(ar, "u02");
    }
    rb_ar_record_end(ar);
}

static void macro_000(rb_ar *ar)
{
    uint64_t n = item_list_begin(ar, "blockSpawns", 20);
    RB_AR_LIST(ar, i, n) block_spawn(ar);
}

static void macro_001(rb_ar *ar)
{
    uint64_t n = item_list_begin(ar, "blockSkinSpawns", 12);
    RB_AR_RECORDS(ar, i, n) {
        uint32_t version = rb_ar_u32(ar, "version");
        gbx_noderef(ar, "skin");
        if (version == 0) gbx_int3(ar, "u01");
        rb_ar_u32(ar, "blockSpawnIndex");
    }
}

static void macro_002(rb_ar *ar)
{
    uint64_t n = item_list_begin(ar, "cardEventsSpawns", 20);
    RB_AR_RECORDS(ar, i, n) {
        rb_ar_u32(ar, "version");
        uint64_t k = item_list_begin(ar, "u01", 12);
        RB_AR_LIST(ar, j, k) gbx_meta(ar, NULL);
        gbx_int3(ar, "u02");
    }
}

static void macro_006(rb_ar *ar)
{
    rb_ar_u32(ar, "u01");
    data_blob(ar, "u02");
}

GBX_FIELDS_CHUNK(macro_007, {'n', "u01"}, {'n', "u02"}, {'n', "u03"})

static void macro_008(rb_ar *ar)
{
    deprec_node_list(ar, "listVersion", "autoTerrains");
    rb_ar_i32(ar, "u01");
    rb_ar_i32(ar, "u02");
}

/* 00B (skippable): script metadata, a direct CScriptTraitsMetadata node (0x11002000, whose
 * chunk is described with the map's metadata) in an encapsulated section */
static void macro_00b(rb_ar *ar)
{
    gbx_encapsulation_begin(ar);
    gbx_node_direct(ar, "scriptMetadata");
    gbx_encapsulation_end(ar);
}

/* 00C (skippable): splines; version 2 has nothing more */
static void macro_00c(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version == 0) {
        deprec_node_list(ar, "u01Version", "u01");
        deprec_node_list(ar, "u02Version", "u02");
        deprec_node_list(ar, "u03Version", "u03");
        deprec_node_list(ar, "u04Version", "u04");
        rb_ar_i32(ar, "u05");
        rb_ar_i32(ar, "u06");
        rb_ar_i32(ar, "u07");
    }
    if (version < 2) deprec_node_list(ar, "u08Version", "u08");
}

static void macro_00d(rb_ar *ar) { rb_ar_u32(ar, "version"); }

/* ObjectSpawn: one item of the macroblock */
static void object_spawn_skins(rb_ar *ar)
{
    uint32_t has_skin = rb_ar_bool(ar, "hasPackDesc", 1);
    uint32_t has_foreground = rb_ar_bool(ar, "hasForegroundPackDesc", 1);
    if (has_skin) gbx_fileref(ar, "packDesc");
    if (has_foreground) gbx_fileref(ar, "foregroundPackDesc");
}

static void object_spawn_tail(rb_ar *ar, uint32_t version)
{
    rb_ar_u16(ar, "u03");
    if (version < 7) return;
    gbx_vec3(ar, "pivotPosition");
    if (version < 8) return;
    gbx_noderef(ar, "waypoint");
    if (version < 9) return;
    rb_ar_f32(ar, "scale");
    if (version < 10) return;
    gbx_int3(ar, "u04");
    if (version < 11) return;
    rb_ar_u8(ar, "u05");
    rb_ar_u8(ar, "u06");
    if (version < 12) return;
    rb_ar_u8(ar, "u07");
    if (version < 13) return;
    object_spawn_skins(ar);
    if (version >= 14) rb_ar_i32(ar, "u10");
}

static void object_spawn(rb_ar *ar)
{
    rb_ar_record_begin(ar, NULL);
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 14, "object spawn")) return;
    gbx_meta(ar, "itemModel");
    if (version < 3) {
        rb_ar_u8(ar, "quarterY");
        if (version >= 1) rb_ar_u8(ar, "additionalDir");
    } else {
        gbx_vec3(ar, "pitchYawRoll");
    }
    gbx_int3(ar, "blockCoord");
    gbx_id(ar, "anchorTreeId");
    gbx_vec3(ar, "absolutePositionInMap");
    if (version < 5) rb_ar_i32(ar, "u01");
    if (version < 6) rb_ar_i32(ar, "u02");
    else object_spawn_tail(ar, version);
    rb_ar_record_end(ar);
}

static void macro_00e(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 3, "macroblock 0x0310D00E")) return;
    uint64_t n = item_list_begin(ar, "objectSpawns", 40);
    RB_AR_LIST(ar, i, n) object_spawn(ar);
    if (version == 1 || version == 2) int_tuple_list(ar, "u01", 2);
    if (version >= 3) int_tuple_list(ar, "u01", 4);
}

static void macro_00f(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    gbx_int3(ar, "u01");
    gbx_int3(ar, "u02");
    gbx_int3_list(ar, "u03");
}

GBX_FIELDS_CHUNK(macro_010, {'u', "version"}, {'i', "iconSize"})

/* 011 (skippable): the media clips, encapsulated (nodes without indices) */
static void macro_011(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    gbx_encapsulation_begin(ar);
    gbx_int3(ar, "u01");
    gbx_int3(ar, "u02");
    gbx_noderef_encapsulated(ar, "clipGroupInGame");
    gbx_noderef_encapsulated(ar, "clipGroupEndRace");
    gbx_encapsulation_end(ar);
}

/* ---------- CGameCtnAutoTerrain 0x03120000 ---------- */

GBX_FIELDS_CHUNK(auto_terrain_001, {'3', "offset"}, {'n', "genealogy"})

/* ---------- CSystemConfig 0x0B005000: only skippable chunks (GBX.NET CSystemConfig.chunkl) ----------
 * A layout that does not consume a chunk exactly leaves that chunk opaque, so the layouts of
 * every game are listed even where one game's chunk differs. */

GBX_FIELDS_CHUNK(config_002, {'s', "u01"})
GBX_FIELDS_CHUNK(config_004, {'b', "audioEnabled"}, {'f', "audioSoundVolume"}, {'f', "audioMusicVolume"}, {'i', "u01"},
                 {'i', "u02"}, {'b', "audioAllowEFX"}, {'i', "u03"}, {'i', "u04"}, {'i', "u05"})
GBX_FIELDS_CHUNK(config_005, {'i', "u01"}, {'i', "u02"}, {'i', "u03"})
GBX_FIELDS_CHUNK(config_007, {'s', "u01"}, {'s', "u02"}, {'s', "u03"}, {'b', "u04"}, {'q', "u05"})
GBX_FIELDS_CHUNK(config_008, {'s', "desiredLanguageId"})
GBX_FIELDS_CHUNK(config_009, {'s', "u01"}, {'s', "u02"}, {'s', "u03"}, {'s', "u04"}, {'s', "u05"}, {'s', "u06"})
GBX_FIELDS_CHUNK(config_00a, {'2', "u01"}, {'i', "u02"}, {'i', "u03"}, {'i', "u04"}, {'i', "u05"}, {'i', "u06"},
                 {'b', "u07"}, {'b', "u08"}, {'i', "u09"}, {'i', "u10"}, {'i', "u11"}, {'b', "u12"})
GBX_FIELDS_CHUNK(config_00b, {'i', "u01"}, {'i', "u02"}, {'i', "u03"}, {'i', "u04"})
GBX_FIELDS_CHUNK(config_00c, {'b', "isIgnorePlayerSkins"})
GBX_FIELDS_CHUNK(config_00d, {'s', "u01"}, {'s', "u02"}, {'b', "networkUseProxy"}, {'s', "u03"}, {'s', "u04"},
                 {'s', "u05"}, {'i', "networkServerPort"}, {'i', "networkClientPort"},
                 {'b', "networkForceUseLocalAddress"}, {'s', "networkForceServerAddress"}, {'i', "u06"})
GBX_FIELDS_CHUNK(config_00e, {'i', "tmCarQuality"}, {'i', "u01"}, {'i', "tmOpponents"})
GBX_FIELDS_CHUNK(config_00f, {'f', "u01"}, {'f', "u02"})
GBX_FIELDS_CHUNK(config_012, {'s', "u01"}, {'s', "u02"}, {'s', "u03"}, {'b', "u04"}, {'i', "u05"})
GBX_FIELDS_CHUNK(config_01d, {'b', "isIgnorePlayerSkins"}, {'b', "isSkipRollingDemo"})

/* 020: safe mode and the display settings, a CSystemConfigDisplay node without index or class */
static void config_020(rb_ar *ar)
{
    gbx_bool(ar, "isSafeMode");
    gbx_node_direct(ar, "display");
}

GBX_FIELDS_CHUNK(config_022, {'f', "u01"}, {'f', "u02"}, {'b', "inputsAlternateMethod"},
                 {'b', "inputsFreezeUnusedAxes"})
GBX_FIELDS_CHUNK(config_027, {'b', "u01"})
GBX_FIELDS_CHUNK(config_028, {'b', "audioEnabled"}, {'f', "audioSoundVolume"}, {'f', "audioMusicVolume"}, {'i', "u01"},
                 {'i', "u02"}, {'i', "u03"}, {'b', "audioAllowEFX"}, {'b', "audioDisableDoppler"},
                 {'i', "audioGlobalQuality"})
GBX_FIELDS_CHUNK(config_02b, {'i', "u01"}, {'b', "advertisingDisabledByUser"}, {'f', "advertisingTunningCoef"})
GBX_FIELDS_CHUNK(config_02c, {'i', "tmCarQuality"}, {'i', "u01"}, {'i', "u02"}, {'i', "tmOpponents"},
                 {'i', "tmMaxOpponents"}, {'b', "u03"})
GBX_FIELDS_CHUNK(config_030, {'b', "fileTransferEnableDownload"}, {'b', "fileTransferEnableUpload"}, {'i', "u01"},
                 {'b', "u02"}, {'b', "enableLocators"}, {'b', "autoUpdateFromLocator"},
                 {'b', "autoUpdateFromLocatorAtInternetConnection"}, {'s', "autoUpdateLocatorDBUrl"},
                 {'s', "blackListUrl"}, {'b', "enableCrashLogUpload"})
GBX_FIELDS_CHUNK(config_031, {'b', "networkUseProxy"}, {'s', "u01"}, {'s', "u02"}, {'i', "networkServerPort"},
                 {'i', "networkClientPort"}, {'b', "networkForceUseLocalAddress"}, {'s', "networkForceServerAddress"},
                 {'i', "u03"}, {'b', "networkUseNatUPnP"})
GBX_FIELDS_CHUNK(config_034, {'i', "tmCarQuality"}, {'i', "u01"}, {'i', "u02"}, {'i', "tmOpponents"},
                 {'i', "tmMaxOpponents"}, {'b', "u03"}, {'i', "tmBackgroundQuality"})
GBX_FIELDS_CHUNK(config_035, {'b', "u01"}, {'b', "networkTestInternetConnection"})
GBX_FIELDS_CHUNK(config_036, {'b', "networkUseProxy"}, {'s', "u01"}, {'s', "u02"}, {'i', "networkServerPort"},
                 {'i', "networkP2PServerPort"}, {'i', "networkClientPort"}, {'i', "networkServerBroadcastLength"},
                 {'b', "networkForceUseLocalAddress"}, {'s', "networkForceServerAddress"}, {'i', "u03"},
                 {'b', "networkUseNatUPnP"})
GBX_FIELDS_CHUNK(config_037, {'s', "u01"})
GBX_FIELDS_CHUNK(config_038, {'b', "gameProfileEnableMulti"}, {'I', "gameProfileName"})
GBX_FIELDS_CHUNK(config_039, {'b', "networkUseProxy"}, {'s', "u01"}, {'s', "u02"}, {'i', "networkServerPort"},
                 {'i', "networkP2PServerPort"}, {'i', "networkClientPort"}, {'i', "networkServerBroadcastLength"},
                 {'b', "networkForceUseLocalAddress"}, {'s', "networkForceServerAddress"}, {'i', "networkDownload"},
                 {'i', "networkUpload"}, {'b', "networkUseNatUPnP"})
GBX_FIELDS_CHUNK(config_03a, {'s', "u01"}, {'s', "u02"}, {'i', "u03"}, {'q', "u04"})
GBX_FIELDS_CHUNK(config_03d, {'b', "isIgnorePlayerSkins"}, {'b', "isSkipRollingDemo"}, {'i', "u01"})
GBX_FIELDS_CHUNK(config_03e, {'q', "u01"}, {'x', "u02"})
GBX_FIELDS_CHUNK(config_041, {'s', "u01"})
GBX_FIELDS_CHUNK(config_043, {'b', "u01"}, {'b', "networkTestInternetConnection"}, {'s', "networkLastUsedMSAddress"},
                 {'s', "networkLastUsedMSPath"})
GBX_FIELDS_CHUNK(config_044, {'b', "networkTestInternetConnection"}, {'s', "networkLastUsedMSAddress"},
                 {'s', "networkLastUsedMSPath"}, {'L', "u01"})
GBX_FIELDS_CHUNK(config_045, {'b', "inputsAlternateMethod"}, {'b', "inputsFreezeUnusedAxes"},
                 {'b', "inputsEnableRumble"}, {'b', "inputsCaptureKeyboard"})
GBX_FIELDS_CHUNK(config_047, {'b', "u01"})
GBX_FIELDS_CHUNK(config_048, {'b', "gameProfileEnableMulti"}, {'s', "gameProfileName"})
GBX_FIELDS_CHUNK(config_049, {'q', "u01"})
GBX_FIELDS_CHUNK(config_04a, {'b', "isIgnorePlayerSkins"}, {'b', "isSkipRollingDemo"}, {'i', "u01"}, {'i', "u02"},
                 {'i', "u03"})
GBX_FIELDS_CHUNK(config_04c, {'b', "u01"}, {'b', "u02"})
GBX_FIELDS_CHUNK(config_04d, {'s', "u01"}, {'b', "u02"}, {'b', "u03"}, {'b', "u04"})
GBX_FIELDS_CHUNK(config_04e, {'S', "u01"})
GBX_FIELDS_CHUNK(config_04f, {'b', "audioEnabled"}, {'f', "audioSoundVolume"}, {'f', "audioMusicVolume"}, {'i', "u01"},
                 {'i', "u02"}, {'i', "u03"}, {'b', "audioAllowEFX"}, {'b', "audioDisableDoppler"}, {'b', "u04"},
                 {'i', "audioGlobalQuality"}, {'s', "audioDeviceOal"})
GBX_FIELDS_CHUNK(config_050, {'b', "u01"})
GBX_FIELDS_CHUNK(config_051, {'s', "u01"})
GBX_FIELDS_CHUNK(config_052, {'i', "tmCarQuality"}, {'i', "u01"}, {'i', "playerShadow"}, {'i', "u02"},
                 {'i', "tmOpponents"}, {'i', "tmMaxOpponents"}, {'i', "tmBackgroundQuality"})
GBX_FIELDS_CHUNK(config_053, {'b', "audioSoundHdr"})
GBX_FIELDS_CHUNK(config_054, {'b', "fileTransferEnableDownload"}, {'b', "fileTransferEnableUpload"}, {'Q', "u01"},
                 {'b', "u02"}, {'b', "enableLocators"}, {'b', "autoUpdateFromLocator"},
                 {'b', "autoUpdateFromLocatorAtInternetConnection"}, {'s', "autoUpdateLocatorDBUrl"},
                 {'s', "blackListUrl"}, {'b', "enableCrashLogUpload"})
GBX_FIELDS_CHUNK(config_055, {'s', "u01"}, {'b', "u02"}, {'b', "u03"}, {'b', "u04"}, {'b', "u05"})
GBX_FIELDS_CHUNK(config_056, {'b', "u01"}, {'b', "audioAllowHRTF"}, {'i', "audioDontMuteWhenApplicationUnfocused"},
                 {'i', "u02"}, {'b', "audioSoundHdr"}, {'b', "u03"})
#define NETWORK_057_FIELDS                                                                                  \
    {'b', "networkUseProxy"}, {'s', "networkProxyLogin"}, {'s', "networkProxyPassword"},                  \
        {'i', "networkServerPort"}, {'i', "networkP2PServerPort"}, {'i', "networkClientPort"},            \
        {'i', "networkServerBroadcastLength"}, {'b', "networkForceUseLocalAddress"},                      \
        {'s', "networkForceServerAddress"}, {'i', "networkDownload"}, {'i', "networkUpload"},             \
        {'b', "networkUseNatUPnP"}, {'b', "networkTestInternetConnection"},                               \
        {'s', "networkLastUsedMSAddress"}, {'s', "networkLastUsedMSPath"}, {'L', "u01"}, {'i', "networkSpeed"}
GBX_FIELDS_CHUNK(config_057, NETWORK_057_FIELDS)
GBX_FIELDS_CHUNK(config_058, {'i', "u01"})
GBX_FIELDS_CHUNK(config_059, {'b', "fileTransferEnableAvatarDownload"}, {'b', "fileTransferEnableAvatarUpload"},
                 {'b', "fileTransferEnableAvatarLocators"}, {'b', "fileTransferEnableMapDownload"},
                 {'b', "fileTransferEnableMapUpload"}, {'b', "fileTransferEnableMapLocators"},
                 {'b', "fileTransferEnableMapModDownload"}, {'b', "fileTransferEnableMapModUpload"},
                 {'b', "fileTransferEnableMapModLocators"}, {'b', "fileTransferEnableMapSkinDownload"},
                 {'b', "fileTransferEnableMapSkinUpload"}, {'b', "fileTransferEnableMapSkinLocators"},
                 {'b', "fileTransferEnableTagDownload"}, {'b', "fileTransferEnableTagUpload"},
                 {'b', "fileTransferEnableTagLocators"}, {'b', "fileTransferEnableVehicleSkinDownload"},
                 {'b', "fileTransferEnableVehicleSkinUpload"}, {'b', "fileTransferEnableVehicleSkinLocators"},
                 {'b', "fileTransferEnableUnknownTypeDownload"}, {'b', "fileTransferEnableUnknownTypeUpload"},
                 {'b', "fileTransferEnableUnknownTypeLocators"})
GBX_FIELDS_CHUNK(config_05a, {'b', "disableReplayRecording"}, {'b', "u01"}, {'b', "u02"}, {'b', "u03"}, {'i', "u04"},
                 {'i', "u05"}, {'i', "u06"}, {'s', "u07"}, {'s', "u08"}, {'f', "u09"}, {'f', "u10"})
GBX_FIELDS_CHUNK(config_05b, {'u', "version"}, {'s', "antiCheatServerUrl"})
GBX_FIELDS_CHUNK(config_05c, {'u', "version"}, {'i', "smMaxPlayerResimStepPerFrame"})
GBX_FIELDS_CHUNK(config_05d, {'u', "version"}, {'s', "u01"})
GBX_FIELDS_CHUNK(config_05e, {'u', "version"}, NETWORK_057_FIELDS)
GBX_FIELDS_CHUNK(config_05f, {'b', "networkUseProxy"}, {'s', "networkProxyAddress"})

/* ---------- CSystemConfigDisplay 0x0B013000 (GBX.NET CSystemConfigDisplay.chunkl) ----------
 * Several "bool"s hold other numbers in real files (GBX.NET: "bool but weird number"); where
 * GBX.NET reads them as booleans they stay booleans here, whose raw value the model keeps. */

GBX_FIELDS_CHUNK(display_001, {'2', "screenSizeFS"}, {'i', "u01"}, {'i', "u02"}, {'i', "u03"}, {'i', "refreshRate"},
                 {'b', "u04"}, {'b', "u05"})
GBX_FIELDS_CHUNK(display_003, {'b', "u01"}, {'i', "u02"}, {'b', "emulateCursorGDI"}, {'i', "u03"},
                 {'b', "optimPartDynaGeom"}, {'b', "u04"})
GBX_FIELDS_CHUNK(display_004, {'b', "u01"})
GBX_FIELDS_CHUNK(display_005, {'b', "enableFullscreenGDI"})
GBX_FIELDS_CHUNK(display_008, {'i', "u01"}, {'i', "u02"}, {'i', "zClipNbBlock"})
GBX_FIELDS_CHUNK(display_009, {'i', "u01"}, {'i', "u02"}, {'b', "postFx"}, {'b', "u03"})
GBX_FIELDS_CHUNK(display_00a, {'b', "u01"}, {'b', "u02"})
GBX_FIELDS_CHUNK(display_00b, {'b', "disableZBufferRange"}, {'f', "agpUseFactor"})
GBX_FIELDS_CHUNK(display_00d, {'i', "u01"}, {'b', "customize"}, {'i', "u02"}, {'i', "u03"}, {'i', "u04"}, {'i', "u05"},
                 {'i', "u06"}, {'i', "u07"})
GBX_FIELDS_CHUNK(display_00e, {'b', "u01"})
GBX_FIELDS_CHUNK(display_00f, {'b', "u01"})
GBX_FIELDS_CHUNK(display_010, {'f', "geomLodScaleZ"})
GBX_FIELDS_CHUNK(display_011, {'b', "u01"})
GBX_FIELDS_CHUNK(display_013, {'i', "u01"})
GBX_FIELDS_CHUNK(display_015, {'b', "disableWindowedAntiAlias"})
GBX_FIELDS_CHUNK(display_016, {'b', "enableCheckLags"})
GBX_FIELDS_CHUNK(display_017, {'i', "u01"})
GBX_FIELDS_CHUNK(display_018, {'i', "u01"})
GBX_FIELDS_CHUNK(display_019, {'i', "u01"})
GBX_FIELDS_CHUNK(display_01a, {'b', "u01"})
GBX_FIELDS_CHUNK(display_01b, {'i', "u01"})
GBX_FIELDS_CHUNK(display_01c, {'b', "multiThread"}, {'i', "threadCountMax"})
GBX_FIELDS_CHUNK(display_01d, {'i', "u01"})
GBX_FIELDS_CHUNK(display_01e, {'b', "u01"})
GBX_FIELDS_CHUNK(display_020, {'b', "stereoByDefault"}, {'b', "stereoAdvanced"})
GBX_FIELDS_CHUNK(display_021, {'b', "waterGeomStadium"})
GBX_FIELDS_CHUNK(display_022, {'i', "u01"}, {'b', "customize"}, {'i', "u02"}, {'i', "u03"}, {'i', "u04"}, {'i', "u05"},
                 {'i', "filterAnisoQ"})
GBX_FIELDS_CHUNK(display_025, {'i', "u01"}, {'i', "fxBloomHdr"})
GBX_FIELDS_CHUNK(display_026, {'i', "u01"}, {'i', "gpuSync0"}, {'b', "emulateCursorGDI"}, {'i', "u02"},
                 {'b', "optimPartDynaGeom"}, {'i', "u03"})
GBX_FIELDS_CHUNK(display_029, {'2', "screenSizeFS"}, {'i', "u01"}, {'i', "u02"}, {'i', "u03"}, {'i', "refreshRate"},
                 {'i', "displaySync"}, {'b', "u04"})
GBX_FIELDS_CHUNK(display_02a, {'i', "u01"}, {'b', "customize"}, {'i', "u02"}, {'i', "u03"}, {'i', "shaderQuality"},
                 {'i', "u04"}, {'i', "filterAnisoQ"})
GBX_FIELDS_CHUNK(display_02c, {'i', "vehicleReflect"})
GBX_FIELDS_CHUNK(display_02d, {'i', "fxMotionBlur"})
GBX_FIELDS_CHUNK(display_02e, {'b', "u01"})
GBX_FIELDS_CHUNK(display_02f, {'i', "maxFps"})
GBX_FIELDS_CHUNK(display_030, {'i', "u01"}, {'i', "lmQuality"}, {'b', "lmQUltra"}, {'b', "lmILight"})
GBX_FIELDS_CHUNK(display_031, {'b', "decals3DTextureDecals"}, {'b', "decals2DTextureDecals"})
GBX_FIELDS_CHUNK(display_032, {'i', "u01"})
GBX_FIELDS_CHUNK(display_033, {'b', "disableHdrCubeRenderMipMap"})
GBX_FIELDS_CHUNK(display_035, {'f', "fxMotionBlurIntens"})

/* 036: the screen mode, versioned */
static void display_036(rb_ar *ar)
{
    static const gbx_field base[] = {{'2', "screenSizeFS"}, {'i', "u01"}, {'i', "u02"}, {'i', "u03"},
                                      {'i', "refreshRate"},  {'i', "displaySync"}, {'i', "displayMode"},
                                      {'i', "u04"}};
    static const gbx_field v2[] = {{'i', "u06"}, {'i', "u07"}, {'i', "u08"}, {'i', "u09"}};
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 3, "display settings 0x0B013036")) return;
    gbx_fields(ar, base, sizeof base / sizeof base[0]);
    if (version >= 1) rb_ar_i32(ar, "u05");
    if (version >= 2) gbx_fields(ar, v2, sizeof v2 / sizeof v2[0]);
    if (version >= 3) gbx_string(ar, "adapter");
}

GBX_FIELDS_CHUNK(display_038, {'b', "u01"})
GBX_FIELDS_CHUNK(display_039, {'i', "screenShotExt"})
GBX_FIELDS_CHUNK(display_03a, {'i', "u01"})
GBX_FIELDS_CHUNK(display_03b, {'f', "particleMaxGpuLoadMs"})
GBX_FIELDS_CHUNK(display_03c, {'b', "u01"})
GBX_FIELDS_CHUNK(display_03d, {'b', "asyncRender"})

/* ---------- the table ---------- */

static const gbx_chunk_def ITEM_CHUNKS[] = {
    {0x03057002, 0, "TM1.0 block", block_002},
    /* CGameCtnCollector */
    {0x2E001002, 0, "collector ident", collector_002},
    {0x2E001006, 0, "collector skin kind", collector_006},
    {0x2E001007, 0, "collector catalog (old)", collector_007},
    {0x2E001008, 0, "collector skin", collector_008},
    {0x2E001009, 0, "collector page and icon", collector_009},
    {0x2E00100A, 0, "collector 00A", collector_00a},
    {0x2E00100B, 0, "collector ident", collector_002},
    {0x2E00100C, 0, "collector name", collector_00c},
    {0x2E00100D, 0, "collector description", collector_00d},
    {0x2E00100E, 0, "collector icon render", collector_00e},
    {0x2E001010, 0, "collector default skin", collector_010},
    {0x2E001011, 0, "collector catalog", collector_011},
    {0x2E001012, 0, "collector 012", collector_012},
    /* CGameItemModel */
    {0x2E002000, 0, "item vehicle", item_000},
    {0x2E002001, 0, "item game skin", item_001},
    {0x2E002002, 0, "item old race interface", item_002},
    {0x2E002003, 0, "item low quality solid", item_003},
    {0x2E002004, 0, "item 004", item_004},
    {0x2E002006, 0, "item default camera", item_006},
    {0x2E002007, 0, "item old materials", item_007},
    {0x2E002008, 0, "item Nadeo skins", item_008},
    {0x2E002009, 0, "item cameras", item_009},
    {0x2E00200A, 0, "item decorator solid", item_00a},
    {0x2E00200B, 0, "item stem materials", item_00b},
    {0x2E00200C, 0, "item race interface", item_002},
    {0x2E00200D, 0, "item forced skins", item_00d},
    {0x2E00200E, 0, "item car materials", item_00e},
    {0x2E002010, 0, "item banner profile", item_010},
    {0x2E002011, 0, "item materials and lights", item_011},
    {0x2E002012, 0, "item ground point and orbital camera", item_012},
    {0x2E002013, 0, "item audio environment", item_013},
    {0x2E002014, 0, "item 014", item_014},
    {0x2E002015, 0, "item type", item_015},
    {0x2E002019, 0, "item model", item_019},
    {0x2E00201A, 0, "item 01A", item_01a},
    {0x2E00201B, 0, "item 01B", item_01a},
    {0x2E00201C, 0, "item default placement", item_01c},
    {0x2E00201D, 0, "item 01D", item_01d},
    {0x2E00201E, 0, "item archetype", item_01e},
    {0x2E00201F, 0, "item waypoint and lightmap", item_01f},
    {0x2E002020, 0, "item icon", item_020},
    {0x2E002021, 0, "item group elements", item_021},
    {0x2E002022, 1, "item 022", item_022},
    {0x2E002023, 0, "item 023", item_023},
    {0x2E002024, 1, "item 024", item_024},
    {0x2E002025, 1, "item 025", item_025},
    {0x2E002026, 1, "item 026", item_026},
    {0x2E002027, 1, "item 027", item_027},
    /* CGameCtnMacroBlockInfo, CGameCtnAutoTerrain */
    {0x0310D000, 0, "macroblock block spawns", macro_000},
    {0x0310D001, 0, "macroblock skin spawns", macro_001},
    {0x0310D002, 0, "macroblock card event spawns", macro_002},
    {0x0310D006, 0, "macroblock decals", macro_006},
    {0x0310D007, 0, "macroblock 007", macro_007},
    {0x0310D008, 0, "macroblock auto terrains", macro_008},
    {0x0310D00B, 1, "macroblock script metadata", macro_00b},
    {0x0310D00C, 1, "macroblock splines", macro_00c},
    {0x0310D00D, 0, "macroblock 00D", macro_00d},
    {0x0310D00E, 0, "macroblock object spawns", macro_00e},
    {0x0310D00F, 0, "macroblock 00F", macro_00f},
    {0x0310D010, 1, "macroblock icon size", macro_010},
    {0x0310D011, 1, "macroblock clips", macro_011},
    {0x03120001, 0, "auto terrain", auto_terrain_001},
    /* CSystemConfig */
    {0x0B005002, 1, "config 002", config_002},
    {0x0B005004, 1, "config audio (TM1.0)", config_004},
    {0x0B005005, 1, "config 005", config_005},
    {0x0B005007, 1, "config 007", config_007},
    {0x0B005008, 1, "config language", config_008},
    {0x0B005009, 1, "config 009", config_009},
    {0x0B00500A, 1, "config 00A", config_00a},
    {0x0B00500B, 1, "config 00B", config_00b},
    {0x0B00500C, 1, "config player skins", config_00c},
    {0x0B00500D, 1, "config network (TM1.0)", config_00d},
    {0x0B00500E, 1, "config car quality (TM1.0)", config_00e},
    {0x0B00500F, 1, "config 00F", config_00f},
    {0x0B005012, 1, "config 012", config_012},
    {0x0B00501D, 1, "config skins and demo", config_01d},
    {0x0B005020, 1, "config display", config_020},
    {0x0B005022, 1, "config inputs (old)", config_022},
    {0x0B005027, 1, "config 027", config_027},
    {0x0B005028, 1, "config audio (old)", config_028},
    {0x0B00502B, 1, "config advertising", config_02b},
    {0x0B00502C, 1, "config car quality (old)", config_02c},
    {0x0B005030, 1, "config file transfer (old)", config_030},
    {0x0B005031, 1, "config network (TMO)", config_031},
    {0x0B005034, 1, "config car quality", config_034},
    {0x0B005035, 1, "config internet test", config_035},
    {0x0B005036, 1, "config network (TMNESWC)", config_036},
    {0x0B005037, 1, "config 037", config_037},
    {0x0B005038, 1, "config game profile (old)", config_038},
    {0x0B005039, 1, "config network (TMU)", config_039},
    {0x0B00503A, 1, "config 03A", config_03a},
    {0x0B00503D, 1, "config skins and demo 03D", config_03d},
    {0x0B00503E, 1, "config 03E", config_03e},
    {0x0B005041, 1, "config 041", config_041},
    {0x0B005043, 1, "config master server (old)", config_043},
    {0x0B005044, 1, "config master server", config_044},
    {0x0B005045, 1, "config inputs", config_045},
    {0x0B005047, 1, "config 047", config_047},
    {0x0B005048, 1, "config game profile", config_048},
    {0x0B005049, 1, "config 049", config_049},
    {0x0B00504A, 1, "config skins and demo 04A", config_04a},
    {0x0B00504C, 1, "config 04C", config_04c},
    {0x0B00504D, 1, "config 04D", config_04d},
    {0x0B00504E, 1, "config 04E", config_04e},
    {0x0B00504F, 1, "config audio", config_04f},
    {0x0B005050, 1, "config 050", config_050},
    {0x0B005051, 1, "config 051", config_051},
    {0x0B005052, 1, "config car quality (MP)", config_052},
    {0x0B005053, 1, "config sound HDR", config_053},
    {0x0B005054, 1, "config file transfer", config_054},
    {0x0B005055, 1, "config 055", config_055},
    {0x0B005056, 1, "config audio (MP)", config_056},
    {0x0B005057, 1, "config network (057)", config_057},
    {0x0B005058, 1, "config 058", config_058},
    {0x0B005059, 1, "config file transfer by type", config_059},
    {0x0B00505A, 1, "config replay recording", config_05a},
    {0x0B00505B, 1, "config anti-cheat server", config_05b},
    {0x0B00505C, 1, "config resim steps", config_05c},
    {0x0B00505D, 1, "config 05D", config_05d},
    {0x0B00505E, 1, "config network", config_05e},
    {0x0B00505F, 1, "config proxy", config_05f},
    /* CSystemConfigDisplay */
    {0x0B013001, 1, "display screen (old)", display_001},
    {0x0B013003, 1, "display 003", display_003},
    {0x0B013004, 1, "display 004", display_004},
    {0x0B013005, 1, "display fullscreen GDI", display_005},
    {0x0B013008, 1, "display z clip", display_008},
    {0x0B013009, 1, "display post fx", display_009},
    {0x0B01300A, 1, "display 00A", display_00a},
    {0x0B01300B, 1, "display z buffer", display_00b},
    {0x0B01300D, 1, "display quality (old)", display_00d},
    {0x0B01300E, 1, "display 00E", display_00e},
    {0x0B01300F, 1, "display 00F", display_00f},
    {0x0B013010, 1, "display geometry LOD", display_010},
    {0x0B013011, 1, "display 011", display_011},
    {0x0B013013, 1, "display 013", display_013},
    {0x0B013015, 1, "display windowed antialias", display_015},
    {0x0B013016, 1, "display check lags", display_016},
    {0x0B013017, 1, "display 017", display_017},
    {0x0B013018, 1, "display 018", display_018},
    {0x0B013019, 1, "display 019", display_019},
    {0x0B01301A, 1, "display 01A", display_01a},
    {0x0B01301B, 1, "display 01B", display_01b},
    {0x0B01301C, 1, "display threads", display_01c},
    {0x0B01301D, 1, "display 01D", display_01d},
    {0x0B01301E, 1, "display 01E", display_01e},
    {0x0B013020, 1, "display stereo", display_020},
    {0x0B013021, 1, "display water", display_021},
    {0x0B013022, 1, "display quality (TMF)", display_022},
    {0x0B013025, 1, "display bloom", display_025},
    {0x0B013026, 1, "display GPU sync", display_026},
    {0x0B013029, 1, "display screen 029", display_029},
    {0x0B01302A, 1, "display quality", display_02a},
    {0x0B01302C, 1, "display vehicle reflection", display_02c},
    {0x0B01302D, 1, "display motion blur", display_02d},
    {0x0B01302E, 1, "display 02E", display_02e},
    {0x0B01302F, 1, "display max fps", display_02f},
    {0x0B013030, 1, "display lightmaps", display_030},
    {0x0B013031, 1, "display decals", display_031},
    {0x0B013032, 1, "display 032", display_032},
    {0x0B013033, 1, "display cube mipmaps", display_033},
    {0x0B013035, 1, "display motion blur intensity", display_035},
    {0x0B013036, 1, "display screen", display_036},
    {0x0B013038, 1, "display 038", display_038},
    {0x0B013039, 1, "display screenshot format", display_039},
    {0x0B01303A, 1, "display 03A", display_03a},
    {0x0B01303B, 1, "display particles", display_03b},
    {0x0B01303C, 1, "display 03C", display_03c},
    {0x0B01303D, 1, "display async render", display_03d},
};

const gbx_chunk_table gbx_item_chunks = {ITEM_CHUNKS, sizeof ITEM_CHUNKS / sizeof ITEM_CHUNKS[0]};

/* ---------- header chunks of items and macroblocks (GBX.NET CGameCtnCollector, CGameItemModel;
 * docs/formats/gbx_mapextra.md "Header chunks") ---------- */

static void u16(rb_ar *ar, const char *key) { rb_ar_u16(ar, key); }
static void u8(rb_ar *ar, const char *key) { rb_ar_u8(ar, key); }

/* 2E001003 "Desc": ident, catalog page, flags, name; copies of the body's collector chunks,
 * written from them unless the file's copy differs (map_header.c, docs/formats/gbx.md). */
static void item_header_desc(rb_ar *ar)
{
    gbx_copy(ar, "ident", GBX_FACT_COLLECTOR_IDENT, NULL, gbx_meta);
    uint32_t version = rb_ar_u32(ar, "version");
    gbx_copy(ar, "pageName", GBX_FACT_COLLECTOR_PAGE, NULL, gbx_string);
    if (version == 5) gbx_id(ar, "u01");
    if (version >= 4) gbx_copy(ar, "parentCollectorId", GBX_FACT_COLLECTOR_PAGE, NULL, gbx_id);
    if (version < 3) return;
    rb_ar_x32(ar, "flags");
    gbx_copy(ar, "catalogPosition", GBX_FACT_COLLECTOR_CATALOG, NULL, u16);
    if (version <= 5) {
        rb_ar_u8(ar, "nbAvailableMin");
        rb_ar_u32(ar, "copperPrice");
        rb_ar_u16(ar, "nbAvailableMax");
    }
    if (version < 7) return;
    gbx_copy(ar, "name", GBX_FACT_COLLECTOR_NAME, NULL, gbx_string);
    if (version >= 8) gbx_copy(ar, "prodState", GBX_FACT_COLLECTOR_CATALOG, NULL, u8);
}

/* 2E001004 "Icon": u16 width, u16 height; both with bit 15 set = WebP data follows, else
 * width x height 32-bit pixels. */
static void item_header_icon(rb_ar *ar)
{
    uint16_t width = (uint16_t)rb_ar_uint(ar, "width", RB_U16 | RB_W_HEX);
    uint16_t height = (uint16_t)rb_ar_uint(ar, "height", RB_U16 | RB_W_HEX);
    if ((width & 0x8000) && (height & 0x8000)) {
        rb_ar_u16(ar, "u01");
        rb_slot size = rb_ar_slot(ar, "iconWebP size", RB_U32);
        const rb_node *webp = rb_ar_bytes(ar, "iconWebP", RB_K_BLOB, size.value);
        rb_ar_slot_set(ar, &size, webp ? webp->v.bytes.size : 0);
        return;
    }
    rb_ar_bytes(ar, "icon", RB_K_BLOB, (uint64_t)width * height * 4);
}

/* 2E001006: when the lightmap was computed (a Windows FILETIME). */
static void item_header_lightmap_time(rb_ar *ar) { rb_ar_u64(ar, "lightmapComputeTime"); }

static void item_header_item_type(rb_ar *ar) { rb_ar_u32(ar, "itemType"); }
static void item_header_file_version(rb_ar *ar) { rb_ar_u32(ar, "version"); }

/* 090BB000: the file version of a .Mesh.Gbx (CPlugSolid2Model), docs/formats/gbx_item.md "Solid chunks" */
static void solid_header_file_version(rb_ar *ar) { rb_ar_i32(ar, "fileVersion"); }

static const gbx_chunk_def ITEM_HEADER_CHUNKS[] = {
    {0x2E001003, 0, "collector description", item_header_desc},
    {0x2E001004, 0, "collector icon", item_header_icon},
    {0x2E001006, 0, "lightmap compute time", item_header_lightmap_time},
    {0x2E002000, 0, "item type", item_header_item_type},
    {0x2E002001, 0, "item file version", item_header_file_version},
    {0x090BB000, 0, "solid file version", solid_header_file_version},
};

const gbx_chunk_table gbx_item_header_chunks = {ITEM_HEADER_CHUNKS, sizeof ITEM_HEADER_CHUNKS / sizeof ITEM_HEADER_CHUNKS[0]};
