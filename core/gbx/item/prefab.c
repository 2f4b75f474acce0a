/*
 * What a TM2020 item's entity model can be besides the editor's edition: a prefab, CPlugPrefab
 * (0x09145000), a list of entities each placed by a rotation and a position, and the models it
 * places: dynamic objects, CPlugDynaObjectModel (0x09144000, a moving mesh with its shapes), whose
 * motion is a CPlugAnimLocSimple (0x090F8000). These classes are archives without chunks; a
 * prefab entity's parameters are a class id and that class's archive.
 *
 * Layouts: docs/formats/gbx_item.md "Prefab chunks" (from GBX.NET's descriptions of these
 * classes, checked on public TM2020 items).
 */
#include "core/gbx/item/item_shapes.h"

/* ---------- the parameters of a prefab entity (a class id, then that class's archive) ---------- */

enum {
    PARAMS_NONE = 0xFFFFFFFFu,
    PARAMS_PLACEMENT = 0x2F0A9000u,
    PARAMS_DYNA_INSTANCE = 0x2F0B6000u,
    PARAMS_PREFAB_CONSTRAINT = 0x2F0C8000u,
    PARAMS_STATIC_INSTANCE = 0x2F0D9000u,
};

/* NPlugDynaObjectModel_SInstanceParams: how a dynamic object of the prefab moves */
static void dyna_instance_params(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 2, "dyna instance parameters 0x2F0B6000")) return;
    rb_ar_f32(ar, "periodSc");
    rb_ar_i32(ar, "textureId");
    gbx_bool(ar, "isKinematic");
    if (version < 1) return;
    rb_ar_f32(ar, "periodScMax");
    rb_ar_f32(ar, "phase01");
    rb_ar_f32(ar, "phase01Max");
    if (version >= 2) gbx_bool(ar, "castStaticShadow");
}

/* NPlugDyna_SPrefabConstraintParams: two entities of the prefab held together at two points */
GBX_FIELDS_CHUNK(prefab_constraint_params, {'u', "version"}, {'i', "ent1"}, {'i', "ent2"}, {'v', "pos1"}, {'v', "pos2"})

/* NPlugItemPlacement_SPlacement: a layout and its options, each a list of required tags */
static void placement_params(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    rb_ar_i32(ar, "iLayout");
    uint64_t n = item_list_begin(ar, "options", 4);
    RB_AR_LIST(ar, i, n) {
        rb_ar_record_begin(ar, NULL);
        uint64_t m = item_list_begin(ar, "requiredTags", 8);
        RB_AR_RECORDS(ar, k, m) {
            gbx_string(ar, "key");
            gbx_string(ar, "value");
        }
        rb_ar_record_end(ar);
    }
}

/* NPlugStaticObjectModel_SInstanceParams */
GBX_FIELDS_CHUNK(static_instance_params, {'u', "version"}, {'f', "phase01"})

static void entity_params(rb_ar *ar)
{
    rb_ar_record_begin(ar, "params");
    uint32_t class_id = rb_ar_x32(ar, "classId");
    switch (class_id) {
    case PARAMS_NONE: break;
    case PARAMS_PLACEMENT: placement_params(ar); break;
    case PARAMS_DYNA_INSTANCE: dyna_instance_params(ar); break;
    case PARAMS_PREFAB_CONSTRAINT: prefab_constraint_params(ar); break;
    case PARAMS_STATIC_INSTANCE: static_instance_params(ar); break;
    default:
        if (rb_ar_ok(ar))
            rb_ar_fail(ar, RB_E_UNSUPPORTED, "prefab entity parameters of class 0x%08X have no known layout",
                       class_id);
    }
    rb_ar_record_end(ar);
}

/* ---------- CPlugPrefab 0x09145000 ---------- */

static void prefab_entity(rb_ar *ar)
{
    rb_ar_record_begin(ar, NULL);
    gbx_noderef(ar, "model");
    gbx_floats(ar, "rotation", 4);
    gbx_vec3(ar, "position");
    entity_params(ar);
    gbx_string(ar, "u01");
    rb_ar_record_end(ar);
}

static void prefab(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 11, "prefab 0x09145000")) return;
    rb_ar_u64(ar, "fileWriteTime");
    gbx_string(ar, "url");
    rb_ar_i32(ar, "u01");
    /* the entity count comes before u02, the entities after it */
    item_count c = item_count_begin(ar, "entity count", RB_U32, "ents");
    rb_ar_i32(ar, "u02");
    uint64_t n = rb_ar_list_begin_n(ar, "ents", c.count, 40);
    RB_AR_LIST(ar, i, n) prefab_entity(ar);
    item_count_end(ar, &c, n);
}

/* ---------- CPlugDynaObjectModel 0x09144000 ---------- */

static void dyna_object_model(rb_ar *ar)
{
    static const char *const floats[] = {"breakSpeedKmh", "mass", "lightAliveDurationScMin",
                                         "lightAliveDurationScMax"};
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 13, "dyna object model 0x09144000")) return;
    gbx_fields(ar, GBX_FIELDS({'b', "isStatic"}, {'b', "dynamizeOnSpawn"}, {'n', "mesh"}, {'n', "dynaShape"},
                               {'n', "staticShape"}));
    RB_AR_EACH(ar, i, sizeof floats / sizeof floats[0]) rb_ar_f32(ar, floats[i]);
    gbx_fields(ar, GBX_FIELDS({'i', "u01"}, {'i', "u02"}, {'y', "u03"}, {'y', "u04"}, {'i', "u05"}, {'i', "u06"},
                               {'y', "u07"}, {'i', "u08"}, {'i', "u09"}, {'n', "locAnim"}, {'i', "u10"},
                               {'b', "locAnimIsPhysical"}, {'n', "waterModel"}));
}

/* ---------- NPlugDyna_SKinematicConstraint 0x2F0CA000 ---------- */

/* A motion: whether it is timed, then its steps (an easing, reversed or not, a duration in ms) */
static void anim_func(rb_ar *ar, const char *key)
{
    static const rb_layout_field STEP_FIELDS[] = {
        {"ease", RB_K_INT, RB_U8}, {"reverse", RB_K_INT, RB_U8}, {"durationMs", RB_K_INT, RB_I32}};
    static const rb_layout STEP = {"animation step", STEP_FIELDS, 3};
    rb_ar_record_begin(ar, key);
    gbx_bool(ar, "isDuration");
    rb_ar_table(ar, "subFuncs", RB_U32, &STEP);
    rb_ar_record_end(ar);
}

/* How an entity of a prefab moves along and around an axis, and how its texture scrolls */
static void kinematic_constraint(rb_ar *ar)
{
    static const rb_layout_field TEXTURE_STEP_FIELDS[] = {{"durationMs", RB_K_INT, RB_I32},
                                                          {"textureId", RB_K_INT, RB_I32}};
    static const rb_layout TEXTURE_STEP = {"texture step", TEXTURE_STEP_FIELDS, 2};
    rb_ar_u32(ar, "version");
    rb_ar_i32(ar, "subVersion");
    anim_func(ar, "transAnimFunc");
    anim_func(ar, "rotAnimFunc");
    int32_t shader_tc_type = rb_ar_i32(ar, "shaderTcType");
    rb_ar_i32(ar, "shaderTcVersion");
    rb_ar_table(ar, "shaderTcAnimFunc", RB_U32, &TEXTURE_STEP);
    if (shader_tc_type == 1) { /* the texture is a grid of sub-textures shown in turn */
        rb_ar_record_begin(ar, "shaderTcDataTransSub");
        gbx_fields(ar, GBX_FIELDS({'i', "nbSubTexture"}, {'i', "nbSubTexturePerLine"}, {'i', "nbSubTexturePerColumn"},
                                   {'b', "topToBottom"}));
        rb_ar_record_end(ar);
    }
    gbx_fields(ar, GBX_FIELDS({'y', "transAxis"}, {'f', "transMin"}, {'f', "transMax"}, {'y', "rotAxis"},
                               {'f', "angleMinDeg"}, {'f', "angleMaxDeg"}));
}

/* ---------- CPlugAnimLocSimple 0x090F8000 ---------- */

/* 000: a rotation and a translation, each with its period */
static void anim_loc_simple_000(rb_ar *ar)
{
    rb_ar_i32(ar, "u01");
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 3, "simple location animation 0x090F8000")) return;
    rb_ar_i32(ar, "rotPeriod");
    rb_ar_i32(ar, "transPeriod");
    rb_ar_f32(ar, "transY");
    if (version < 1) return;
    rb_ar_i32(ar, "axis");
    if (version < 2) return;
    rb_ar_i32(ar, "rotPeriodMax");
    rb_ar_i32(ar, "transPeriodMax");
    if (version < 3) return;
    rb_ar_u8(ar, "rotFunc");
    rb_ar_f32(ar, "rotAngle");
}

static const gbx_chunk_def PREFAB_CHUNKS[] = {
    {0x09145000, GBX_WHOLE_NODE, "prefab", prefab},
    {0x09144000, GBX_WHOLE_NODE, "dyna object model", dyna_object_model},
    {0x2F0CA000, GBX_WHOLE_NODE, "kinematic constraint", kinematic_constraint},
    {0x090F8000, 0, "simple location animation", anim_loc_simple_000},
};

const gbx_chunk_table gbx_prefab_chunks = {PREFAB_CHUNKS, sizeof PREFAB_CHUNKS / sizeof PREFAB_CHUNKS[0]};
