/*
 * What an item model's chunk 0x2E002019 leads to: the entity model of an item made in the
 * editor, CGameCommonItemEntityModelEdition (0x2E026000, which holds its CPlugCrystal mesh), a
 * block item's customized variants, CGameBlockItem (0x2E025000, one crystal per variant), and the
 * default placement of chunk 0x2E00201C, CGameItemPlacementParam (0x2E020000, pivots).
 *
 * Layouts: docs/formats/gbx_item.md "Entity model chunks", "Block item chunks", "Placement
 * chunks" (from GBX.NET's .chunkl files of these classes, checked on the corpus).
 */
#include "core/gbx/item/item_shapes.h"

/* ---------- CGameCommonItemEntityModelEdition 0x2E026000 ---------- */

enum { ITEM_TYPE_ORNAMENT = 1, ITEM_TYPE_PICK_UP = 2 };

static void edition_sprite_params(rb_ar *ar)
{
    item_fields_list(ar, "spriteParams", 20, GBX_FIELDS({'v', "u01"}, {'b', "u02"}, {'f', "u03"}));
}

static void edition_light_balls(rb_ar *ar)
{
    static const rb_layout_field LIGHT_BALL_FIELDS[] = {
        {"u01", RB_K_INT, RB_I32}, {"u02", RB_K_FLOAT, 4}, {"u03", RB_K_FLOAT, 4}, {"u04", RB_K_FLOAT, 4},
        {"u05", RB_K_FLOAT, 4},    {"u06", RB_K_FLOAT, 4}, {"u07", RB_K_FLOAT, 4}, {"u08", RB_K_FLOAT, 4},
    };
    static const rb_layout LIGHT_BALL = {"light ball state", LIGHT_BALL_FIELDS, 8};
    rb_ar_table(ar, "u06", RB_U32, &LIGHT_BALL);
}

static void edition_000(rb_ar *ar)
{
    static const char *const floats[] = {"u07", "u08", "u09", "u10", "u11", "u12", "u13"};
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 8, "entity model edition 0x2E026000")) return;
    uint32_t type = rb_ar_u32(ar, "itemType");
    gbx_fields(ar, GBX_FIELDS({'n', "meshCrystal"}, {'s', "u01"}, {'n', "u02"}, {'N', "u03"}));
    edition_sprite_params(ar);
    gbx_noderef(ar, "u04");
    gbx_noderef(ar, "u05");
    edition_light_balls(ar);
    RB_AR_EACH(ar, i, sizeof floats / sizeof floats[0]) rb_ar_f32(ar, floats[i]);
    item_iso4(ar, "u14");
    if (version >= 3 && type == ITEM_TYPE_PICK_UP) rb_ar_f32(ar, "mass");
    if (!gbx_bool(ar, "u15")) gbx_noderef(ar, "u16");
    if (rb_ar_ok(ar) && type != ITEM_TYPE_ORNAMENT) {
        /* GBX.NET stops here too: what other types store next is not known */
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "entity model edition of item type %u: only ornaments (1) have a known layout",
                   type);
        return;
    }
    if (gbx_bool(ar, "u17")) {
        rb_ar_i32(ar, "u18");
        item_iso4(ar, "u19");
    }
    rb_ar_i32(ar, "u20");
    if (version < 1) return;
    gbx_fields(ar, GBX_FIELDS({'s', "inventoryName"}, {'s', "inventoryDescription"}, {'i', "inventoryItemClass"},
                               {'i', "inventoryOccupation"}));
    if (version >= 6 && version <= 7) gbx_noderef(ar, "u21");
}

/* ---------- CGameBlockItem 0x2E025000 ---------- */

/* Per variant: u8 flags saying which of a static object, a shape, a box and a vector follow. */
static void block_item_properties(rb_ar *ar)
{
    rb_ar_record_begin(ar, NULL);
    uint8_t flags = (uint8_t)rb_ar_uint(ar, "flags", RB_U8 | RB_W_HEX);
    if (flags & 1) gbx_noderef(ar, "staticObject");
    if (flags & 2) gbx_noderef(ar, "shape");
    if (flags & 4) gbx_floats(ar, "box", 6);
    if (flags & 8) gbx_vec3(ar, "u01");
    rb_ar_record_end(ar);
}

static void block_item_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 1, "block item 0x2E025000")) return;
    gbx_id(ar, "archetypeBlockInfoId");
    gbx_id(ar, "archetypeBlockInfoCollectionId");
    uint64_t n = item_fields_list(ar, "customizedVariants", 8, GBX_FIELDS({'i', "id"}, {'n', "crystal"}));
    if (version < 1) return;
    /* one properties record per variant, after all of them, when any has some */
    if (!rb_ar_bool(ar, "hasProperties", 1)) return;
    uint64_t m = rb_ar_list_begin_n(ar, "variantProperties", n, 1);
    if (rb_ar_ok(ar) && rb_ar_checks_edits(ar) && m != n) {
        rb_ar_fail(ar, RB_E_MODEL, "variantProperties has %llu records for %llu customized variants",
                   (unsigned long long)m, (unsigned long long)n);
        return;
    }
    RB_AR_LIST(ar, i, m) block_item_properties(ar);
}

/* ---------- CGameItemPlacementParam 0x2E020000 (all skippable) ---------- */

static void placement_000(rb_ar *ar)
{
    static const char *const floats[] = {"cubeSize",        "gridSnapHStep", "gridSnapVStep",
                                         "gridSnapHOffset", "gridSnapVOffset", "flyVStep",
                                         "flyVOffset",      "pivotSnapDistance"};
    rb_ar_u32(ar, "version");
    rb_ar_uint(ar, "flags", RB_U16 | RB_W_HEX);
    gbx_vec3(ar, "cubeCenter");
    RB_AR_EACH(ar, i, sizeof floats / sizeof floats[0]) rb_ar_f32(ar, floats[i]);
}

/* 001: where the item can be held when placed, and how it is turned there */
static void placement_001(rb_ar *ar)
{
    static const rb_layout_field QUAT_FIELDS[] = {
        {"x", RB_K_FLOAT, 4}, {"y", RB_K_FLOAT, 4}, {"z", RB_K_FLOAT, 4}, {"w", RB_K_FLOAT, 4}};
    static const rb_layout QUAT = {"quaternion", QUAT_FIELDS, 4};
    item_vec3_table(ar, "pivotPositions");
    rb_ar_table(ar, "pivotRotations", RB_U32, &QUAT);
}

/* NPlugItemPlacement_SClass (0x09187000): a placement class; its nodes are this archive alone */
static void placement_class(rb_ar *ar)
{
    /* version 10 is the one GBX.NET describes; a version 6 class (9b499f1f) is 16 bytes shorter
     * and which fields it lacks is not known */
    uint32_t version = rb_ar_u32(ar, "classVersion");
    if (!item_version_known(ar, version, 10, "placement class 0x09187000")) return;
    if (version < 10) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "placement class version %u has no known layout (10 has)", version);
        return;
    }
    gbx_id(ar, "sizeGroup");
    item_id_list(ar, "compatibleGroupsIds");
    gbx_fields(ar, GBX_FIELDS({'b', "alwaysUp"}, {'b', "alignToInterior"}, {'b', "alignToWorldDir"},
                               {'v', "worldDir"}));
    uint64_t n = item_list_begin(ar, "patchLayouts", 36);
    RB_AR_RECORDS(ar, i, n) {
        gbx_fields(ar, GBX_FIELDS({'i', "itemCount"}, {'f', "itemSpacing"}, {'i', "fillAlign"}, {'i', "fillDir"},
                                   {'f', "normedPos"}, {'f', "u01"}));
        item_id_list(ar, "onlyOnGroups");
        rb_ar_f32(ar, "altitude");
        rb_ar_f32(ar, "u02");
    }
    gbx_i32_list(ar, "groupCurPatchLayouts");
}

/* 003: the placement class in place (GBX.NET reads only the version) */
static void placement_003(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    placement_class(ar);
}

static void placement_005(rb_ar *ar) { gbx_noderef(ar, "placementClass"); }

/* ---------- CGameCommonItemEntityModel 0x2E027000 ---------- */

static void entity_model_000(rb_ar *ar)
{
    static const char *const strings[] = {"u05", "u06", "u07", "u08", "u09"};
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 6, "entity model 0x2E027000")) return;
    if (version == 0) {
        gbx_noderef(ar, "phyModel");
        gbx_noderef(ar, "visModel");
    }
    if (version == 3) {
        gbx_string(ar, "u01");
        gbx_string(ar, "u02");
    }
    if (version >= 4) gbx_noderef(ar, "staticObject");
    if (version < 2) return;
    gbx_noderef(ar, "triggerShape");
    item_iso4(ar, "u03");
    gbx_noderef(ar, "particleEmitterModel");
    gbx_noderef_list(ar, "actions");
    if (version <= 5) gbx_noderef(ar, "u04");
    RB_AR_EACH(ar, i, sizeof strings / sizeof strings[0]) gbx_string(ar, strings[i]);
    item_iso4(ar, "u10");
    rb_ar_i32(ar, "u11");
    if (version >= 5) rb_ar_u8(ar, "u12");
}

/* CPlugStaticObjectModel (0x09159000): a mesh and, unless the mesh collides itself, a shape;
 * its nodes are this archive alone */
static void static_object_model(rb_ar *ar)
{
    rb_ar_i32(ar, "version");
    gbx_noderef(ar, "mesh");
    if (!rb_ar_bool(ar, "isMeshCollidable", 1)) gbx_noderef(ar, "shape");
}

/* the small skippable chunks GBX.NET skips: a version and a number */
GBX_FIELDS_CHUNK(version_and_i32, {'u', "version"}, {'i', "u01"})

GBX_FIELDS_CHUNK(version_and_u16, {'u', "version"}, {'h', "u01"})

static const gbx_chunk_def ENTITY_CHUNKS[] = {
    {0x2E026000, 0, "entity model edition", edition_000},
    {0x2E026001, 1, "entity model edition 001", version_and_i32},
    {0x2E027000, 0, "entity model", entity_model_000},
    {0x09159000, GBX_WHOLE_NODE, "static object model", static_object_model},
    {0x2E025000, 0, "block item variants", block_item_000},
    {0x2E025002, 1, "block item 002", version_and_i32},
    {0x2E025003, 1, "block item 003", version_and_u16},
    {0x2E020000, 1, "placement snapping", placement_000},
    {0x2E020001, 1, "placement pivots", placement_001},
    {0x2E020003, 1, "placement class version", placement_003},
    {0x2E020004, 1, "placement 004", version_and_i32},
    {0x2E020005, 1, "placement class", placement_005},
    {0x09187000, GBX_WHOLE_NODE, "placement class", placement_class},
};

const gbx_chunk_table gbx_entity_chunks = {ENTITY_CHUNKS, sizeof ENTITY_CHUNKS / sizeof ENTITY_CHUNKS[0]};
