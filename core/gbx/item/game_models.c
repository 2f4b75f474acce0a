/*
 * Small model files a game reads besides items: where a vehicle spawns, CGameSpawnModel
 * (0x2E00E000, `.Spawn.Gbx`), how a vehicle item's car drives, CPlugVehiclePhyModelCustom
 * (0x0911E000), and a train wagon, CPlugTrainWagonModel (0x0911C000,
 * `.Wagon.Gbx`: its shape, mesh, sounds and effects), and the curves such models hold,
 * CFuncKeysReal (0x0501A000, numbers over keys of CFuncKeys 0x05002000).
 *
 * Layouts: docs/formats/gbx_item.md "Spawn and wagon chunks" (GBX.NET's CGameSpawnModel,
 * CPlugVehiclePhyModelCustom, CPlugTrainWagonModel, CFuncKeys and CFuncKeysReal .chunkl files,
 * checked on GBX.NET's example files where there is one).
 */
#include "core/gbx/item/item_shapes.h"

/* 000: the spawn location, whether it is underground, then by version the push at start and
 * the gravity */
static void spawn_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 3, "spawn model 0x2E00E000")) return;
    item_iso4(ar, "loc");
    gbx_bool(ar, "underground");
    if (version < 1) return;
    rb_ar_f32(ar, "torqueX");
    if (version < 2) return;
    rb_ar_i32(ar, "torqueDuration");
    if (version >= 3) gbx_vec3(ar, "defaultGravitySpawn");
}

/* 000: a vehicle item's changes to the car's physics: acceleration, control and gravity */
GBX_FIELDS_CHUNK(vehicle_phy_custom_000, {'u', "version"}, {'f', "accelCoef"}, {'f', "controlCoef"},
                 {'f', "gravityCoef"})

/* 000: the wagon's shape and mesh, then by version what it is, sounds, sizes and effects */
static void wagon_000(rb_ar *ar)
{
    static const char *const sounds[] = {"soundEngine", "soundBrake", "soundRailContact", "soundCollision"};
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 10, "train wagon model 0x0911C000")) return;
    gbx_noderef(ar, "shape");
    gbx_noderef(ar, "mesh");
    if (version < 2) return;
    gbx_bool(ar, "isLoco");
    gbx_vec3(ar, "u01");
    if (version < 3) return;
    RB_AR_EACH(ar, i, sizeof sounds / sizeof sounds[0]) gbx_noderef(ar, sounds[i]);
    if (version < 5) return;
    rb_ar_f32(ar, "wagonLength");
    rb_ar_f32(ar, "wagonColOffset");
    gbx_bool(ar, "genLengthFromShape");
    if (version < 6) return;
    gbx_noderef(ar, "accelCurve");
    if (version < 7) return;
    gbx_noderef(ar, "smokeEmitterModel");
    if (version < 8) return;
    gbx_noderef(ar, "u02");
    gbx_noderef(ar, "dustEmitterModel");
    gbx_noderef(ar, "sparkleParticle");
    if (version < 9) return;
    gbx_noderef(ar, "u03");
    if (version >= 10) gbx_noderef(ar, "animFile");
}

/* ---------- CFuncKeys 0x05002000, CFuncKeysReal 0x0501A000 ---------- */

static void func_keys_001(rb_ar *ar) { item_f32_table(ar, "xs"); }
static void func_keys_003(rb_ar *ar) { gbx_id(ar, "u01"); }
static void func_keys_real_000(rb_ar *ar) { item_f32_table(ar, "ys"); }

/* 001: the values and how to interpolate between them (none, linear, Hermite, smooth step) */
static void func_keys_real_001(rb_ar *ar)
{
    item_f32_table(ar, "ys");
    rb_ar_i32(ar, "realInterp");
}

/* 002: 001, then tangents forced at both ends */
static void func_keys_real_002(rb_ar *ar)
{
    func_keys_real_001(ar);
    gbx_fields(ar, GBX_FIELDS({'b', "forceTangentMinX"}, {'b', "forceTangentMaxX"}, {'f', "forcedTangentMinX"},
                               {'f', "forcedTangentMaxX"}));
}

static const gbx_chunk_def GAME_MODEL_CHUNKS[] = {
    {0x2E00E000, 0, "spawn model", spawn_000},
    {0x0911C000, 0, "train wagon model", wagon_000},
    {0x0911E000, 0, "vehicle physics coefficients", vehicle_phy_custom_000},
    {0x05002001, 0, "function keys", func_keys_001},
    {0x05002003, 0, "function keys 003", func_keys_003},
    {0x0501A000, 0, "real function values", func_keys_real_000},
    {0x0501A001, 0, "real function values and interpolation", func_keys_real_001},
    {0x0501A002, 0, "real function values, interpolation and tangents", func_keys_real_002},
};

const gbx_chunk_table gbx_game_model_chunks = {GAME_MODEL_CHUNKS,
                                              sizeof GAME_MODEL_CHUNKS / sizeof GAME_MODEL_CHUNKS[0]};
