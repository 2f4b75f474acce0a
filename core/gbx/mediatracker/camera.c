/*
 * Media tracker camera blocks: custom, game, orbital, path/simple, shake, effect script and inertial
 * tracking cameras (current and 2006 ids). Layouts: docs/formats/gbx_mediatracker.md.
 */
#include "core/gbx/mediatracker/mediatracker.h"

/* ---------- camera blocks ---------- */

/* CameraCustom tangent (InterpVal) of key version v */
static void custom_tangent(rb_ar *ar, const char *key, uint32_t v)
{
    rb_ar_record_begin(ar, key);
    gbx_vec3(ar, "position");
    if (v >= 6) {
        gbx_vec3(ar, "pitchYawRoll");
        if (v >= 10) rb_ar_i32(ar, "u01");
        rb_ar_f32(ar, "fov");
        gbx_vec3(ar, "targetPosition");
        if (v >= 7) rb_ar_f32(ar, "nearZ");
    }
    rb_ar_record_end(ar);
}

GBX_FIELDS_CHUNK(custom_view, {'v', "position"}, {'v', "pitchYawRoll"}, {'f', "fov"})

/* CameraCustom key, versions 1 to 10 (chunk 001 -> 1, 002 -> 2, 005 -> 5, 006 -> 6 + its version) */
static void custom_key(rb_ar *ar, uint32_t v)
{
    rb_ar_u32(ar, "interpolation");
    if (v <= 5) {
        rb_ar_i32(ar, "u01");
        rb_ar_i32(ar, "u02");
        custom_view(ar);
    }
    gbx_fields(ar, GBX_FIELDS({'b', "anchorRot"}, {'i', "anchor"}, {'b', "anchorVis"}, {'i', "target"}));
    if (v <= 5) {
        gbx_vec3(ar, "targetPosition");
        if (v == 1) {
            rb_ar_f32(ar, "u03");
            rb_ar_f32(ar, "u04");
            return;
        }
        custom_tangent(ar, "leftTangent", v);
        custom_tangent(ar, "rightTangent", v);
        if (v == 3) {
            rb_ar_f32(ar, "u03");
            gbx_floats(ar, "u04", 4);
        }
        return;
    }
    custom_view(ar);
    gbx_vec3(ar, "targetPosition");
    if (v >= 7) rb_ar_f32(ar, "nearZ");
    custom_tangent(ar, "leftTangent", v);
    custom_tangent(ar, "rightTangent", v);
    if (v == 8) {
        rb_ar_i32(ar, "u03");
        rb_ar_i32(ar, "u04");
    }
    if (v >= 10) rb_ar_i32(ar, "u05");
}

static void custom_001(rb_ar *ar) { mt_key_list(ar, "keys", 68, custom_key, 1); }
static void custom_002(rb_ar *ar) { mt_key_list(ar, "keys", 84, custom_key, 2); }
static void custom_005(rb_ar *ar) { mt_key_list(ar, "keys", 84, custom_key, 5); }

static void custom_006(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!mt_version_known(ar, version, 4, "custom camera 0x030A2006")) return;
    mt_key_list(ar, "keys", 84, custom_key, 6 + version);
}

/* CameraGame 03084000 */
static void game_000(rb_ar *ar)
{
    mt_start_end(ar);
    rb_ar_i32(ar, "gameCamOld");
}

static void game_001(rb_ar *ar)
{
    game_000(ar);
    rb_ar_i32(ar, "clipEntId");
}

static void game_003(rb_ar *ar)
{
    mt_start_end(ar);
    gbx_id(ar, "gameCamId");
    rb_ar_i32(ar, "clipEntId");
}

static void game_view(rb_ar *ar)
{
    static const char *const f[] = {"camFov", "u01", "u02", "camNearClipPlane", "camFarClipPlane"};
    gbx_vec3(ar, "camPosition");
    gbx_vec3(ar, "camPitchYawRoll");
    mt_f32s(ar, f, 5);
}

static void game_004(rb_ar *ar)
{
    game_003(ar);
    game_view(ar);
}

static void game_005(rb_ar *ar)
{
    game_004(ar);
    gbx_bool(ar, "u03");
}

static void game_006(rb_ar *ar)
{
    game_005(ar);
    gbx_bool(ar, "u04");
}

static void game_007(rb_ar *ar)
{
    static const char *const b[] = {"u03", "u04", "u05"};
    uint32_t version = rb_ar_u32(ar, "version");
    if (!mt_version_known(ar, version, 4, "game camera 0x03084007")) return;
    mt_start_end(ar);
    if (version <= 1) gbx_id(ar, "gameCamId");
    else rb_ar_i32(ar, "gameCam");
    rb_ar_i32(ar, "clipEntId");
    game_view(ar);
    mt_bools(ar, b, 3);
    if (version >= 1) rb_ar_f32(ar, "u06");
    if (version >= 3) rb_ar_i32(ar, "u07");
}

/* CameraOrbital 030A0000: key version -1 (chunk 000) has no trailing ints. */
static void orbital_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"radius", "longitude", "latitude"};
    static const char *const r[] = {"fov", "minRenderDistance", "maxRenderDistance"};
    static const char *const u[] = {"u03", "u04", "u05", "u06"};
    rb_ar_u8(ar, "u01");
    mt_f32s(ar, f, 3);
    gbx_vec3(ar, "targetPosition");
    mt_f32s(ar, r, 3);
    if (v == UINT32_MAX) return;
    rb_ar_i32(ar, "u02");
    if (v >= 1) mt_i32s(ar, u, 4);
}

static void orbital_000(rb_ar *ar) { mt_key_list(ar, "keys", 41, orbital_key, UINT32_MAX); }

static void orbital_001(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!mt_version_known(ar, version, 1, "orbital camera 0x030A0001")) return;
    mt_key_list(ar, "keys", 45, orbital_key, version);
}

/* CameraPath 030A1000 */
static void path_key(rb_ar *ar, uint32_t v)
{
    gbx_vec3(ar, "position");
    gbx_vec3(ar, "pitchYawRoll");
    rb_ar_f32(ar, "fov");
    if (v >= 3) rb_ar_f32(ar, "nearZ");
    gbx_fields(ar, GBX_FIELDS({'b', "anchorRot"}, {'i', "anchor"}, {'b', "anchorVis"}, {'i', "target"},
                               {'v', "targetPosition"}, {'f', "weight"}));
    gbx_floats(ar, "u01", 4);
    if (v >= 4) {
        rb_ar_i32(ar, "u02");
        rb_ar_i32(ar, "u03");
    }
}

enum { PATH_KEY_BYTES = 80, SIMPLE_KEY_BYTES = 65 };

/* READ: does the end of the node, or a later chunk of CameraPath or CameraSimple (current or legacy
 * ids), follow `offset` bytes ahead of chunk number `chunk`? */
static int path_boundary_at(rb_ar *ar, uint64_t offset, uint32_t chunk)
{
    return mt_chunk_boundary_at(ar, offset, 0x030A1000u, 0x0309F000u, chunk) ||
           mt_chunk_boundary_at(ar, offset, 0x2407A000u, 0x2408B000u, chunk);
}

/* CameraSimple key (chunk ids 0x030A1000..002 in class 0x0309F000) */
static void simple_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"u02", "u03", "u04"};
    rb_ar_u8(ar, "u01");
    gbx_floats(ar, "location", 12);
    mt_f32s(ar, f, 3);
}

/* READ: does a CameraSimple layout starting `skip` bytes ahead (a key count, keys, `tail` bytes)
 * fit between here and the node's next chunk, while the CameraPath layout (count + path keys) does not? */
static int simple_fits(rb_ar *ar, uint32_t chunk, uint64_t skip, uint64_t tail, uint64_t path_count)
{
    uint32_t n = 0;
    if (!rb_ar_peek_u32_at(ar, skip, &n)) return 0;
    uint64_t simple_end = skip + 4 + (uint64_t)n * SIMPLE_KEY_BYTES + tail;
    uint64_t path_end = 4 + path_count * PATH_KEY_BYTES;
    return path_boundary_at(ar, simple_end, chunk) && !path_boundary_at(ar, path_end, chunk);
}

static void path_000(rb_ar *ar)
{
    int path = rb_ar_has(ar, "keys", !simple_fits(ar, 0, 0, 0, mt_peek_count(ar)));
    if (path) mt_key_list(ar, "keys", PATH_KEY_BYTES, path_key, 0);
    else mt_key_list(ar, "simpleKeys", SIMPLE_KEY_BYTES, simple_key, 0);
}

static void path_001(rb_ar *ar)
{
    /* CameraSimple 001 is a single i32 */
    uint64_t n = mt_peek_count(ar);
    int simple = rb_ar_direction(ar) == RB_AR_READ && path_boundary_at(ar, 4, 1) &&
                 !path_boundary_at(ar, 4 + n * PATH_KEY_BYTES, 1);
    if (rb_ar_has(ar, "keys", !simple)) mt_key_list(ar, "keys", PATH_KEY_BYTES, path_key, 1);
    else rb_ar_i32(ar, "u01");
}

static void simple_002(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    mt_key_list(ar, "simpleKeys", SIMPLE_KEY_BYTES, simple_key, version);
    rb_ar_i32(ar, "u05");
    rb_ar_i32(ar, "u06");
    if (version >= 2) gbx_bool(ar, "u07");
}

static void path_002(rb_ar *ar)
{
    uint64_t n = mt_peek_count(ar);
    uint32_t version = 0;
    int simple = 0;
    if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_peek_u32(ar, &version))
        simple = simple_fits(ar, 2, 4, version >= 2 ? 12 : 8, n);
    if (rb_ar_has(ar, "keys", !simple)) mt_key_list(ar, "keys", PATH_KEY_BYTES, path_key, 2);
    else simple_002(ar);
}

static void path_003(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    /* version 5 (TM2020) keys have the version 4 layout [corpus] */
    if (!mt_version_known(ar, version, 5, "camera path 0x030A1003")) return;
    mt_key_list(ar, "keys", PATH_KEY_BYTES, path_key, version);
}

/* CameraEffectShake 030A4000 */
static void shake_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "intensity");
    rb_ar_f32(ar, "speed");
}

static void shake_000(rb_ar *ar) { mt_key_list(ar, "keys", 12, shake_key, 0); }

/* CameraEffectScript 03161000 */
static void script_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"a", "b", "c"};
    mt_f32s(ar, f, 3);
}

static void script_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    gbx_string(ar, "script");
    if (version == 0) mt_start_end(ar);
    mt_key_list(ar, "keys", 16, script_key, version);
}

/* CameraEffectInertialTracking 03166000 */
static void inertial_000(rb_ar *ar)
{
    static const char *const b[] = {"tracking", "autoZoom", "autoFocus"};
    rb_ar_u32(ar, "version");
    mt_start_end(ar);
    mt_bools(ar, b, 3);
}

/* ---------- the table ---------- */

static const gbx_chunk_def CHUNKS[] = {
    {0x030A2001, 0, "custom camera v1", custom_001},
    {0x030A2002, 0, "custom camera v2", custom_002},
    {0x030A2005, 0, "custom camera v5", custom_005},
    {0x030A2006, 0, "custom camera", custom_006},
    {0x03084000, 0, "game camera 000", game_000},
    {0x03084001, 0, "game camera 001", game_001},
    {0x03084003, 0, "game camera 003", game_003},
    {0x03084004, 0, "game camera 004", game_004},
    {0x03084005, 0, "game camera 005", game_005},
    {0x03084006, 0, "game camera 006", game_006},
    {0x03084007, 0, "game camera", game_007},
    {0x030A0000, 0, "orbital camera 000", orbital_000},
    {0x030A0001, 0, "orbital camera", orbital_001},
    {0x030A1000, 0, "camera path v0 / camera simple keys", path_000},
    {0x030A1001, 0, "camera path v1 / camera simple 001", path_001},
    {0x030A1002, 0, "camera path v2 / camera simple 002", path_002},
    {0x030A1003, 0, "camera path", path_003},
    {0x030A4000, 0, "camera shake", shake_000},
    {0x03161000, 0, "camera effect script", script_000},
    {0x03166000, 0, "camera inertial tracking", inertial_000},
    {0x24070000, 0, "orbital camera 000 (legacy)", orbital_000},
    {0x24070001, 0, "orbital camera (legacy)", orbital_001},
    {0x2407A000, 0, "camera path v0 (legacy)", path_000},
    {0x2407A001, 0, "camera path v1 (legacy)", path_001},
    {0x2407A002, 0, "camera path v2 (legacy)", path_002},
    {0x2407A003, 0, "camera path (legacy)", path_003},
    {0x24088000, 0, "camera shake (legacy)", shake_000},
};

const gbx_chunk_table gbx_media_camera_chunks = {CHUNKS, sizeof CHUNKS / sizeof CHUNKS[0]};
