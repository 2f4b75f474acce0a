/*
 * The physical and visual models of game objects (ManiaPlanet items, and version 0 of
 * CGameCommonItemEntityModel): CGameObjectPhyModel (0x2E006000: shapes, triggers, gameplay
 * numbers) and CGameObjectVisModel (0x2E007000: the mesh, sounds, effects), and the light model
 * of solids, CPlugLightUserModel (0x090F9000).
 *
 * Layouts: docs/formats/gbx_item.md "Object model chunks" (from GBX.NET's CGameObjectPhyModel.cs,
 * CGameObjectVisModel.cs and .chunkl files, checked on the corpus).
 */
#include "core/gbx/item/item_shapes.h"

/* An i32 that GBX.NET reads as the count of an array it does not describe: only 0 is typed. */
static int zero_count(rb_ar *ar, const char *key)
{
    int32_t v = rb_ar_i32(ar, key);
    if (rb_ar_ok(ar) && v != 0) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "%s is %d: the array it counts has no known layout", key, v);
        return 0;
    }
    return rb_ar_ok(ar);
}

/* A string whose emptiness decides what follows (returns 1 when empty). */
static int empty_string(rb_ar *ar, const char *key)
{
    const rb_node *s = rb_ar_string(ar, key, RB_I32);
    return s && s->v.bytes.size == 0;
}

/* ---------- CGameObjectPhyModel 0x2E006000 ---------- */

static void phy_trigger(rb_ar *ar, uint32_t v)
{
    static const char *const tail[] = {"u08", "u09", "u10", "u11", "u12", "u13"};
    rb_ar_record_begin(ar, NULL);
    if (v >= 5) rb_ar_i32(ar, "u01");
    if (v >= 4) {
        gbx_fields(ar, GBX_FIELDS({'f', "u02"}, {'f', "u03"}, {'f', "u04"}, {'f', "u05"}));
    }
    if (v >= 3) rb_ar_i32(ar, "u06");
    if (v >= 2) rb_ar_i32(ar, "u07");
    if (v >= 1) {
        rb_ar_i32(ar, "u14");
        rb_ar_i32(ar, "u15");
    }
    RB_AR_EACH(ar, i, sizeof tail / sizeof tail[0]) rb_ar_f32(ar, tail[i]);
    gbx_id(ar, "u16");
    rb_ar_record_end(ar);
}

typedef struct typed_key {
    char type; /* f f32, i i32, b bool */
    const char *key;
} typed_key;

/* From version 19: the gameplay numbers of an object (armor, life time, dome, heal, shield...). */
static void phy_001_gameplay(rb_ar *ar, uint32_t version)
{
    static const typed_key fields[] = {
        {'f', "throwSpeed"}, {'f', "throwAngularSpeed"}, {'i', "armor"}, {'b', "hasALifeTime"},
        {'i', "lifeTimeDuration"}, {'f', "scaleCoefMax"}, {'f', "staminaSpawnCoef"}, {'i', "timeBeforeDome"},
        {'b', "u20"}, {'b', "u21"}, {'b', "u22"}, {'b', "u23"}, {'b', "u24"}, {'b', "healEnabled"},
        {'i', "healArmorGainPerSecond"}, {'b', "shieldEnabled"}, {'i', "shieldDomeArmor"}};
    RB_AR_EACH(ar, i, sizeof fields / sizeof fields[0]) {
        if (fields[i].type == 'f') rb_ar_f32(ar, fields[i].key);
        else if (fields[i].type == 'i') rb_ar_i32(ar, fields[i].key);
        else gbx_bool(ar, fields[i].key);
    }
    if (version < 20) return;
    gbx_bool(ar, "u25");
    if (version < 23) return;
    gbx_bool(ar, "bumperEnabled");
    if (version < 24) return;
    gbx_bool(ar, "magnetEnabled");
    if (version >= 25) gbx_noderef(ar, "u26");
}

/* From version 9: the actions, then (11+) the shapes the names above leave empty. */
static void phy_001_late(rb_ar *ar, uint32_t version, int no_move, int no_hit, int no_trigger)
{
    int no_action_model = version >= 13 ? empty_string(ar, "actionModel") : 1;
    if (no_action_model) gbx_noderef_list(ar, "actions");
    if (version >= 21) gbx_noderef(ar, "u01");
    if (version < 11) return;
    if (no_move) gbx_noderef(ar, "moveShapeFid");
    if (no_hit) gbx_noderef(ar, "hitShapeFid");
    if (no_trigger) gbx_noderef(ar, "triggerShapeFid");
    if (version < 12) return;
    if (empty_string(ar, "u14")) gbx_noderef(ar, "u15");
    if (version < 15) return;
    rb_ar_i32(ar, "u19");
    if (version < 16) return;
    gbx_noderef(ar, "specialProperties");
    if (version < 17) return;
    rb_ar_i32(ar, "persistence");
    if (version < 18) return;
    gbx_bool(ar, "canStopEnemy");
    gbx_bool(ar, "canStopEnemyBullet");
    if (version >= 19) phy_001_gameplay(ar, version);
}

static void phy_001(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 25, "object physical model 0x2E006001")) return;
    if (version < 11) {
        gbx_noderef(ar, "moveShapeFid");
        gbx_noderef(ar, "hitShapeFid");
        gbx_noderef(ar, "triggerShapeFid");
    }
    uint32_t trigger_version = version >= 8 ? (uint32_t)rb_ar_i32(ar, "triggerActionVersion") : 5;
    uint64_t n = item_list_begin(ar, "triggers", 28);
    RB_AR_LIST(ar, i, n) phy_trigger(ar, trigger_version);
    if (version < 14) gbx_noderef(ar, "u03");
    if (version < 2) return;
    int no_move = empty_string(ar, "moveShape");
    int no_hit = version >= 4 ? empty_string(ar, "hitShape") : 1;
    if (version < 3) return;
    if (gbx_bool(ar, "hasDynaPointModel")) {
        static const rb_layout_field DYNA_FIELDS[] = {
            {"u01", RB_K_INT, RB_I32}, {"u02", RB_K_INT, RB_I32}, {"u03", RB_K_INT, RB_I32}, {"u04", RB_K_INT, RB_I32},
            {"u05", RB_K_INT, RB_I32}, {"u06", RB_K_INT, RB_I32}, {"u07", RB_K_INT, RB_I32}, {"u08", RB_K_INT, RB_I32}};
        static const rb_layout DYNA = {"dyna point model", DYNA_FIELDS, 8};
        rb_ar_layout_record(ar, "dynaPointModel", &DYNA);
    }
    if (version < 5) return;
    rb_ar_i32(ar, "program");
    if (version < 6) return;
    if (version < 22 || rb_ar_bool(ar, "hasU09", 1)) item_iso4(ar, "u09");
    if (version < 7) return;
    int no_trigger = empty_string(ar, "triggerShape");
    if (version >= 9) phy_001_late(ar, version, no_move, no_hit, no_trigger);
}

/* 003: a flag GBX.NET knows only as false */
static void phy_003(rb_ar *ar)
{
    if (gbx_bool(ar, "u01") && rb_ar_ok(ar))
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "object physical model 0x2E006003 with u01 set has no known layout");
}

/* ---------- CGameObjectVisModel 0x2E007000 ---------- */

static void vis_001_late(rb_ar *ar, uint32_t version)
{
    if (!empty_string(ar, "u07") && version >= 11) {
        rb_ar_f32(ar, "u18");
        rb_ar_f32(ar, "u19");
        rb_ar_f32(ar, "u20");
    }
    if (version < 12) return;
    if (!empty_string(ar, "smashParticleRef")) gbx_id(ar, "u21");
    if (version < 13 || !zero_count(ar, "u08") || !zero_count(ar, "u09") || version < 14) return;
    if (empty_string(ar, "solidRef")) gbx_noderef(ar, "solid");
    if (version < 16) return;
    gbx_noderef(ar, "u10");
    if (version < 19) return;
    rb_ar_f32(ar, "u12");
    if (version < 20) return;
    if (empty_string(ar, "visEntFx")) gbx_noderef(ar, "u13");
    if (version < 21) return;
    gbx_noderef(ar, "meshShadedFid");
    if (version >= 22) gbx_vec3(ar, "domeShaderColor");
}

static void vis_001(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 22, "object visual model 0x2E007001")) return;
    if (version < 9) gbx_noderef(ar, "u14");
    else if (empty_string(ar, "mesh")) gbx_noderef(ar, "meshShaded");
    if (version < 18) gbx_noderef(ar, "u16");
    if (version >= 2) {
        if (version < 9) gbx_string(ar, "mesh");
        gbx_noderef(ar, "locAnim");
        if (!zero_count(ar, "u03")) return;
    }
    if (version < 17) {
        gbx_string(ar, "soundRefSpawn");
        gbx_string(ar, "soundRefUnspawn");
        gbx_string(ar, "soundRefGrab");
    }
    if (version >= 10) vis_001_late(ar, version);
}

/* 002 (skippable): sounds */
static void vis_002(rb_ar *ar)
{
    gbx_fields(ar, GBX_FIELDS({'u', "version"}, {'s', "soundRefSpawn"}, {'s', "soundRefUnspawn"}, {'s', "soundRefGrab"},
                               {'s', "soundRefSmashed"}, {'s', "soundRefPermanent"}));
    item_iso4(ar, "soundLocPermanent");
}

/* ---------- CPlugLightUserModel 0x090F9000 ---------- */

static void light_user_000(rb_ar *ar)
{
    static const char *const floats[] = {"intensity", "distance", "pointEmissionRadius", "pointEmissionLength",
                                         "spotInnerAngle", "spotOuterAngle", "spotEmissionSizeX", "spotEmissionSizeY"};
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 1, "light user model 0x090F9000")) return;
    rb_ar_i32(ar, "u01");
    gbx_vec3(ar, "color");
    RB_AR_EACH(ar, i, sizeof floats / sizeof floats[0]) rb_ar_f32(ar, floats[i]);
    if (version >= 1) gbx_bool(ar, "nightOnly");
}

/* ---------- CPlugLight 0x0901D000 (a light of an old solid's tree) ---------- */

/* 000: the light, its function over time, the flare and projector pictures (nodes) */
GBX_FIELDS_CHUNK(light_000, {'n', "light"}, {'n', "funcLight"}, {'n', "bitmapFlare"}, {'n', "bitmapProjector"})

/* 002: 000, then flags (night only, reflected by the ground, ...) */
static void light_002(rb_ar *ar)
{
    light_000(ar);
    rb_ar_x32(ar, "flags");
}

static const gbx_chunk_def OBJECT_CHUNKS[] = {
    {0x2E006001, 0, "object physical model", phy_001},
    {0x2E006003, 0, "object physical model 003", phy_003},
    {0x2E007001, 0, "object visual model", vis_001},
    {0x2E007002, 1, "object visual model sounds", vis_002},
    {0x090F9000, 0, "light user model", light_user_000},
    {0x0901D000, 0, "light", light_000},
    {0x0901D002, 0, "light and flags", light_002},
};

const gbx_chunk_table gbx_object_chunks = {OBJECT_CHUNKS, sizeof OBJECT_CHUNKS / sizeof OBJECT_CHUNKS[0]};
