/*
 * The editable meshes of items: CPlugCrystal (0x09003000; positions, edges, faces, UVs, groups,
 * layers, materials, lightmap UVs, smoothing groups), its base CPlugTreeGenerator (0x09051000)
 * and the material instances it refers to, CPlugMaterialUserInst (0x090FD000).
 *
 * Layouts: docs/formats/gbx_item.md "Crystal chunks", "Crystal mesh", "Crystal layers",
 * "Material instance chunks" (from GBX.NET's CPlugCrystal.cs and .chunkl files, checked on the
 * corpus). Widths of face indices, material and group indices are derived from counts
 * ("Optimized integers"): the model holds the values, the writer chooses the width.
 */
#include "core/gbx/item/item_shapes.h"

/* ---------- CPlugMaterialUserInst 0x090FD000 ---------- */

static void material_cst(rb_ar *ar)
{
    rb_ar_record_begin(ar, NULL);
    gbx_id(ar, "u01");
    gbx_id(ar, "u02");
    rb_ar_i32(ar, "u03");
    rb_ar_record_end(ar);
}

static void material_user_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 11, "material instance 0x090FD000")) return;
    uint32_t game_material = version >= 11 ? rb_ar_bool(ar, "isUsingGameMaterial", 1) : 0;
    gbx_fields(ar, GBX_FIELDS({'I', "materialName"}, {'I', "model"}, {'s', "baseTexture"}, {'y', "surfacePhysicId"}));
    if (version >= 10) rb_ar_u8(ar, "surfaceGameplayId");
    if (version < 1) return;
    if (game_material || (version >= 9 && version <= 10)) gbx_string(ar, "link");
    else gbx_id(ar, "link");
    if (version < 2) return;
    uint64_t n = item_list_begin(ar, "csts", 12);
    RB_AR_LIST(ar, i, n) material_cst(ar);
    gbx_i32_list(ar, "color");
    if (version < 3) return;
    n = item_list_begin(ar, "uvAnims", 24);
    RB_AR_RECORDS(ar, i, n) {
        gbx_fields(ar, GBX_FIELDS({'I', "u01"}, {'I', "u02"}, {'f', "u03"}, {'Q', "u04"}));
        if (version >= 5) gbx_id(ar, "u05");
    }
    if (version < 4) return;
    item_id_list(ar, "u01");
    if (version < 6) return;
    n = item_list_begin(ar, "userTextures", 8);
    RB_AR_RECORDS(ar, i, n) {
        rb_ar_i32(ar, "u01");
        gbx_string(ar, "texture");
    }
    if (version >= 7) gbx_id(ar, "hidingGroup");
}

static void material_user_001(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 5, "material instance 0x090FD001")) return;
    gbx_noderef(ar, "bitmapAtlas");
    if (version == 2) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "material instance 0x090FD001 version 2 has no known layout");
        return;
    }
    if (version < 3) return;
    rb_ar_i32(ar, "tilingU");
    rb_ar_i32(ar, "tilingV");
    rb_ar_f32(ar, "textureSizeInMeters");
    if (version >= 4) rb_ar_i32(ar, "u01");
    if (version >= 5) gbx_bool(ar, "isNatural");
}

GBX_FIELDS_CHUNK(material_user_002, {'u', "version"}, {'i', "u01"})

/* ---------- CPlugTreeGenerator 0x09051000 ---------- */

static void tree_generator_000(rb_ar *ar) { rb_ar_u32(ar, "u01"); }

/* ---------- the crystal mesh (docs/formats/gbx_item.md "Crystal mesh") ---------- */

static const rb_layout_field VISUAL_LEVEL_FIELDS[] = {{"u01", RB_K_INT, RB_I32}, {"u02", RB_K_FLOAT, 4}};
static const rb_layout VISUAL_LEVEL = {"visual level", VISUAL_LEVEL_FIELDS, 2};
static const rb_layout_field EDGE_FIELDS[] = {{"a", RB_K_INT, RB_I32}, {"b", RB_K_INT, RB_I32}};
static const rb_layout EDGE = {"edge", EDGE_FIELDS, 2};
static const rb_layout_field I32_FIELD[] = {{NULL, RB_K_INT, RB_I32}};
static const rb_layout I32_ELEMENT = {"int32", I32_FIELD, 1};

static void crystal_anchor(rb_ar *ar)
{
    rb_ar_record_begin(ar, NULL);
    gbx_bool(ar, "u01");
    gbx_bool(ar, "u02");
    item_iso4(ar, "u03");
    gbx_string(ar, "u04");
    rb_ar_i32(ar, "u05");
    rb_ar_record_end(ar);
}

/* A group of faces ("part"), named in the editor. */
static void crystal_group(rb_ar *ar, uint32_t version)
{
    rb_ar_record_begin(ar, NULL);
    if (version >= 31) rb_ar_i32(ar, "u01");
    if (version >= 36) rb_ar_u8(ar, "u02");
    else rb_ar_i32(ar, "u02");
    gbx_fields(ar, GBX_FIELDS({'i', "u03"}, {'s', "name"}, {'i', "u04"}, {'L', "u05"}));
    rb_ar_record_end(ar);
}

typedef struct crystal_counts {
    uint64_t positions, groups, materials;
} crystal_counts;

/* An edit that removes positions or groups must not leave a face pointing past them: the game
 * would read beyond its arrays. Checked when building from JSON and writing an edited model (a
 * file as read keeps what it has). */
static void crystal_face_check(rb_ar *ar, const crystal_counts *k)
{
    if (!rb_ar_ok(ar) || !rb_ar_checks_edits(ar)) return;
    const rb_node *face = rb_ar_current(ar);
    const rb_node *indices = rb_node_get(face, "indices"), *group = rb_node_get(face, "group");
    for (size_t i = 0; indices && i < rb_element_count(indices); i++) {
        uint64_t v = rb_element_uint(indices, i, NULL);
        if (v >= k->positions) {
            rb_ar_fail(ar, RB_E_MODEL, "indices[%zu]: vertex %llu is beyond the %llu positions", i,
                       (unsigned long long)v, (unsigned long long)k->positions);
            return;
        }
    }
    if (group && (uint64_t)rb_node_int(group) >= k->groups)
        rb_ar_fail(ar, RB_E_MODEL, "group %lld is beyond the %llu groups", (long long)rb_node_int(group),
                   (unsigned long long)k->groups);
}

static void crystal_face(rb_ar *ar, uint32_t version, const crystal_counts *k)
{
    rb_ar_record_begin(ar, NULL);
    /* the vertex count is the length of the index list (stored minus 3 in a byte from v35) */
    item_count c = item_count_begin(ar, "vertex count", version >= 35 ? RB_U8 : RB_U32, "indices");
    uint64_t n = c.count + (rb_ar_direction(ar) == RB_AR_READ && version >= 35 ? 3 : 0);
    if (rb_ar_ok(ar) && rb_ar_direction(ar) != RB_AR_READ && version >= 35 && (n < 3 || n > 258)) {
        rb_ar_fail(ar, RB_E_MODEL, "a face has %llu vertices; this crystal version stores 3 to 258",
                   (unsigned long long)n);
        return;
    }
    if (version >= 34) n = item_opt_uints(ar, "indices", n, item_opt_array_width(k->positions));
    else n = rb_ar_table_n(ar, "indices", n, &I32_ELEMENT);
    item_count_end(ar, &c, version >= 35 ? n - 3 : n);
    if (version < 27) {
        item_vec2_table(ar, "texCoords");
        gbx_vec3(ar, "u01");
    } else if (version < 37) {
        static const rb_layout_field VEC2_FIELDS[] = {{"x", RB_K_FLOAT, 4}, {"y", RB_K_FLOAT, 4}};
        static const rb_layout VEC2 = {"vec2", VEC2_FIELDS, 2};
        rb_ar_table_n(ar, "texCoords", n, &VEC2);
    }
    if (version >= 25) {
        if (version >= 33 && k->materials > 0) item_opt_uint(ar, "material", item_opt_single_width(k->materials));
        else rb_ar_i32(ar, "material");
    }
    if (version >= 33) item_opt_uint(ar, "group", item_opt_single_width(k->groups));
    else rb_ar_i32(ar, "group");
    crystal_face_check(ar, k);
    rb_ar_record_end(ar);
}

static void crystal_edges(rb_ar *ar, uint32_t version, uint64_t positions)
{
    if (version < 35) {
        rb_ar_table(ar, "edges", RB_U32, &EDGE);
        return;
    }
    /* from v35 a count the edges that follow do not use (12 for a cube with no edges listed) */
    rb_ar_i32(ar, "edgeCount");
    /* the pairs index vertices: their packing follows from the vertex count (GBX.NET takes the
     * pair count, which misreads a crystal of 255 vertices or more with fewer edges) */
    item_opt_pair_list(ar, "edges", positions);
}

/* The counts v<36 stores before three arrays of 4-byte values. */
static void crystal_old_arrays(rb_ar *ar)
{
    static const char *const keys[] = {"faceData", "edgeData", "vertexData"};
    item_count c[3];
    for (int i = 0; i < 3; i++) c[i] = item_count_begin(ar, keys[i], RB_U32, keys[i]);
    RB_AR_EACH(ar, i, 3) item_count_end(ar, &c[i], item_i32_table_n(ar, keys[i], c[i].count));
    rb_ar_i32(ar, "u07");
}

static void crystal(rb_ar *ar, const char *key, uint64_t materials)
{
    rb_ar_record_begin(ar, key);
    uint32_t version = rb_ar_u32(ar, "version");
    if (rb_ar_ok(ar) && (version < 25 || version > 37)) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "crystal version %u is not known (25 to 37 are)", version);
        return;
    }
    crystal_counts k = {.materials = materials};
    rb_ar_i32(ar, "u01");
    rb_ar_table(ar, "visualLevels", RB_U32, &VISUAL_LEVEL);
    uint64_t n = item_list_begin(ar, "anchorInfos", 60);
    RB_AR_LIST(ar, i, n) crystal_anchor(ar);
    k.groups = item_list_begin(ar, "groups", 16);
    RB_AR_LIST(ar, i, k.groups) crystal_group(ar, version);
    if (version < 29) {
        gbx_bool(ar, "isEmbeddedCrystal1");
        gbx_bool(ar, "isEmbeddedCrystal2");
    }
    uint32_t embedded = version >= 34 ? rb_ar_bool(ar, "isEmbeddedCrystal", 1) : gbx_bool(ar, "isEmbeddedCrystal");
    if (rb_ar_ok(ar) && !embedded) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "a crystal that is not embedded (a Crystal.Gbx reference) has no known layout");
        return;
    }
    if (version >= 33) {
        rb_ar_i32(ar, "u02");
        rb_ar_i32(ar, "u03");
    }
    k.positions = item_vec3_table(ar, "positions");
    crystal_edges(ar, version, k.positions);
    item_count faces = item_count_begin(ar, "face count", RB_U32, "faces");
    if (version >= 37) {
        item_vec2_table(ar, "texCoords");
        item_opt_uint_list(ar, "texCoordIndices");
    }
    n = rb_ar_list_begin_n(ar, "faces", faces.count, 3);
    RB_AR_LIST(ar, i, n) crystal_face(ar, version, &k);
    item_count_end(ar, &faces, n);
    if (version < 30) item_i32_table_n(ar, "faceU01", n);
    if (version < 29) item_f32_table_n(ar, "positionU01", k.positions);
    rb_ar_i32(ar, "u04");
    if (version < 32) {
        if (!rb_ar_empty_list(ar, "crystalLinks", RB_I32, "crystal links")) return;
        rb_ar_i32(ar, "u05");
        gbx_string(ar, "u06");
        if (version < 30) item_f32_table(ar, "smoothingGroups");
    }
    if (version < 36) crystal_old_arrays(ar);
    rb_ar_record_end(ar);
}

/* ---------- layers (docs/formats/gbx_item.md "Crystal layers") ---------- */

enum {
    LAYER_GEOMETRY, LAYER_SUBDIVIDE_SMOOTH, LAYER_TRANSLATION, LAYER_ROTATION, LAYER_SCALE, LAYER_MIRROR,
    LAYER_MOVE_TO_GROUND, LAYER_EXTRUDE, LAYER_SUBDIVIDE, LAYER_CHAOS, LAYER_SMOOTH, LAYER_BORDER_TRANSITION,
    LAYER_DEFORMATION, LAYER_CUBES, LAYER_TRIGGER, LAYER_SPAWN_POSITION, LAYER_LIGHT = 18
};

static void layer_base(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "layerVersion");
    gbx_bool(ar, "crystalEnabled");
    gbx_id(ar, "layerId");
    gbx_string(ar, "layerName");
    if (version >= 1) gbx_bool(ar, "isEnabled");
}

static void layer_modifier(rb_ar *ar)
{
    layer_base(ar);
    rb_ar_u32(ar, "modifierVersion");
    item_fields_list(ar, "mask", 8, GBX_FIELDS({'i', "groupIndex"}, {'I', "layerId"}));
}

static void layer_light_positions(rb_ar *ar)
{
    uint64_t n = item_list_begin(ar, "lightPositions", 52);
    RB_AR_RECORDS(ar, i, n) {
        rb_ar_i32(ar, "u01");
        item_iso4(ar, "u02");
    }
}

/* A modifier layer's own fields, after the modifier base and the layer's version. */
static void layer_modifier_fields(rb_ar *ar, int32_t type, uint32_t v)
{
    switch (type) {
    case LAYER_SUBDIVIDE_SMOOTH: case LAYER_SUBDIVIDE: rb_ar_i32(ar, "subdivisions"); break;
    case LAYER_TRANSLATION: gbx_vec3(ar, "translation"); break;
    case LAYER_ROTATION:
        rb_ar_f32(ar, "rotation");
        rb_ar_i32(ar, "axis");
        gbx_bool(ar, "independently");
        break;
    case LAYER_SCALE:
        gbx_vec3(ar, "scale");
        gbx_bool(ar, "independently");
        break;
    case LAYER_MIRROR:
        rb_ar_i32(ar, "axis");
        rb_ar_f32(ar, "distance");
        gbx_bool(ar, "independently");
        break;
    case LAYER_MOVE_TO_GROUND: gbx_bool(ar, "u01"); break;
    case LAYER_EXTRUDE: gbx_vec3(ar, "size"); break;
    case LAYER_CHAOS:
        rb_ar_f32(ar, "minDistance");
        rb_ar_i32(ar, "u01");
        if (v >= 1) rb_ar_f32(ar, "maxDistance");
        break;
    case LAYER_SMOOTH:
        rb_ar_f32(ar, "u01");
        gbx_bool(ar, "u02");
        break;
    case LAYER_BORDER_TRANSITION:
        rb_ar_f32(ar, "u01");
        rb_ar_f32(ar, "u02");
        gbx_noderef_list(ar, "u03");
        break;
    case LAYER_DEFORMATION:
        gbx_floats(ar, "u01", 6);
        item_iso4(ar, "u02");
        break;
    case LAYER_SPAWN_POSITION:
        gbx_vec3(ar, "spawnPosition");
        rb_ar_f32(ar, "horizontalAngle");
        rb_ar_f32(ar, "verticalAngle");
        if (v >= 1) rb_ar_f32(ar, "rollAngle");
        break;
    case LAYER_LIGHT:
        gbx_noderef_list(ar, "lights");
        layer_light_positions(ar);
        break;
    default: break;
    }
}

static void crystal_layer(rb_ar *ar, uint64_t materials)
{
    rb_ar_record_begin(ar, NULL);
    int32_t type = rb_ar_i32(ar, "type");
    if (!rb_ar_ok(ar)) return;
    if (type == LAYER_GEOMETRY || type == LAYER_TRIGGER) {
        layer_base(ar);
        uint32_t v = rb_ar_u32(ar, type == LAYER_GEOMETRY ? "geometryVersion" : "triggerVersion");
        crystal(ar, "crystal", materials);
        if (type == LAYER_GEOMETRY) {
            gbx_i32_list(ar, "u02");
            if (v >= 1) {
                gbx_bool(ar, "isVisible");
                gbx_bool(ar, "collidable");
            }
        } else if (v >= 1) {
            gbx_i32_list(ar, "u02");
        }
    } else if ((type >= LAYER_SUBDIVIDE_SMOOTH && type <= LAYER_SPAWN_POSITION && type != LAYER_CUBES) ||
               type == LAYER_LIGHT) {
        layer_modifier(ar);
        uint32_t v = rb_ar_u32(ar, "version");
        layer_modifier_fields(ar, type, v);
    } else {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "crystal layer type %d has no known layout", type);
        return;
    }
    rb_ar_record_end(ar);
}

/* ---------- CPlugCrystal 0x09003000 (docs/formats/gbx_item.md "Crystal chunks") ---------- */

/* The faces index the materials of chunk 003 with a width derived from their count. */
static uint64_t crystal_material_count(rb_ar *ar) { return item_sibling_chunk_count(ar, 0x09003003, "materials"); }

static void crystal_000(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    crystal(ar, "crystal", crystal_material_count(ar));
}

static void crystal_003(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    uint64_t n = item_list_begin(ar, "materials", 4);
    RB_AR_RECORDS(ar, i, n) {
        const rb_node *name = rb_ar_string(ar, "materialName", RB_I32);
        if (name && name->v.bytes.size == 0) gbx_noderef(ar, "materialUserInst");
    }
}

/* 004 (skippable): a blob of unknown meaning, kept as bytes inside a typed chunk */
static void crystal_004(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    rb_slot size = rb_ar_slot(ar, "data length", RB_U32);
    const rb_node *data = rb_ar_bytes(ar, "u02", RB_K_BLOB, size.value);
    rb_ar_slot_set(ar, &size, data ? data->v.bytes.size : 0);
    if (version >= 1) rb_ar_i32(ar, "u01");
}

static void crystal_005(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    uint64_t materials = crystal_material_count(ar);
    uint64_t n = item_list_begin(ar, "layers", 4);
    RB_AR_LIST(ar, i, n) crystal_layer(ar, materials);
}

/* 006: lightmap UVs, one per face vertex of the visible geometry layers (v2: indexed) */
static void crystal_006(rb_ar *ar)
{
    static const rb_layout_field UV16_FIELDS[] = {{"u", RB_K_INT, RB_U16}, {"v", RB_K_INT, RB_U16}};
    static const rb_layout UV16 = {"lightmap UV (u16 fractions of 65535)", UV16_FIELDS, 2};
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 2, "crystal lightmap UVs 0x09003006")) return;
    if (version == 0) {
        item_vec2_table(ar, "lightmapCoords");
        return;
    }
    rb_ar_table(ar, "lightmapCoords", RB_U32, &UV16);
    if (version >= 2) item_opt_uint_list(ar, "indices");
}

static void crystal_007(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    item_f32_table(ar, "smoothingGroups");
    gbx_i32_list(ar, "u01");
}

static const gbx_chunk_def CRYSTAL_CHUNKS[] = {
    {0x09003000, 0, "crystal (one layer)", crystal_000},
    {0x09003003, 0, "crystal materials", crystal_003},
    {0x09003004, 1, "crystal 004", crystal_004},
    {0x09003005, 0, "crystal layers", crystal_005},
    {0x09003006, 0, "crystal lightmap UVs", crystal_006},
    {0x09003007, 0, "crystal smoothing groups", crystal_007},
    {0x09051000, 0, "tree generator", tree_generator_000},
    {0x090FD000, 0, "material instance", material_user_000},
    {0x090FD001, 0, "material instance texture", material_user_001},
    {0x090FD002, 0, "material instance 002", material_user_002},
};

const gbx_chunk_table gbx_crystal_chunks = {CRYSTAL_CHUNKS, sizeof CRYSTAL_CHUNKS / sizeof CRYSTAL_CHUNKS[0]};
