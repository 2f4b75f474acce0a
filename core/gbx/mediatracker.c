/*
 * The media tracker: CGameCtnMediaClip (0x03079000), CGameCtnMediaClipGroup (0x0307A000),
 * CGameCtnMediaTrack (0x03078000), every media block class and CControlEffectSimi (0x07010000).
 * Facts: gbx-facts.md §6.7 (layouts checked on the corpus), GBX.NET's *.chunkl for the rest.
 *
 * Most blocks are a list of keys ("keys(k)": u32 count, then keys that start with their time,
 * a timefloat) or a start and an end time. Keys are records with named fields so a patch can
 * address e.g. /…/keys/3/fov. Legacy ids (0x24061000 tracks, 0x2406D000 game cameras, ...)
 * reach these descriptions through gbx_remap_id; the raw id is what the model keeps.
 *
 * Two chunk ids are shared by two classes and the chunk id alone does not say which layout
 * follows (facts §3.1): 0x03085000 (Time keys, or TimeSpeed keys in CGameCtnMediaBlockTimeSpeed)
 * and 0x030A1000..002 (CameraPath keys, or CGameCtnMediaBlockCameraSimple). The chunk description
 * does not see the node's class, so the reader picks the layout after which the node ends (or one
 * of its later chunks follows), preferring the chunk id's own class when both fit; the model names
 * the foreign variant's fields differently ("timeSpeedKeys", "simpleKeys") so writing and building
 * from JSON know the layout from the model.
 */
#include "gbx_internal.h"

typedef void (*key_fields_fn)(rb_ar *ar, uint32_t version);

/* ---------- shared shapes ---------- */

static void f32s(rb_ar *ar, const char *const *names, int count)
{
    for (int i = 0; i < count && rb_ar_ok(ar); i++) rb_ar_f32(ar, names[i]);
}

static void i32s(rb_ar *ar, const char *const *names, int count)
{
    for (int i = 0; i < count && rb_ar_ok(ar); i++) rb_ar_i32(ar, names[i]);
}

static void bools(rb_ar *ar, const char *const *names, int count)
{
    for (int i = 0; i < count && rb_ar_ok(ar); i++) gbx_bool(ar, names[i]);
}

static void start_end(rb_ar *ar)
{
    rb_ar_f32(ar, "start");
    rb_ar_f32(ar, "end");
}

/* "keys(k)": u32 count, then `count` keys of at least `key_bytes` bytes, each starting with its time. */
static void key_list(rb_ar *ar, const char *name, uint64_t key_bytes, key_fields_fn fields, uint32_t version)
{
    uint64_t n = rb_ar_list_begin(ar, name, RB_U32, key_bytes);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) {
        rb_ar_record_begin(ar, NULL);
        rb_ar_f32(ar, "time");
        if (fields) fields(ar, version);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
}

/* Reject a chunk version whose layout is not known: guessing would misread everything after it. */
static int version_known(rb_ar *ar, uint32_t version, uint32_t max, const char *what)
{
    if (rb_ar_ok(ar) && version > max) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "%s version %u is not known (up to %u are)", what, version, max);
        return 0;
    }
    return rb_ar_ok(ar);
}

/* READ: is the u32 `offset` bytes ahead the end of the node, or a chunk that may follow chunk number
 * `after` in a node of class `class_a` or `class_b` (chunk numbers increase within a class)? */
static int chunk_boundary_at(rb_ar *ar, uint64_t offset, uint32_t class_a, uint32_t class_b, uint32_t after)
{
    uint32_t next = 0;
    if (!rb_ar_peek_u32_at(ar, offset, &next)) return 0;
    uint32_t cls = next & 0xFFFFF000u;
    return next == GBX_FACADE || ((cls == class_a || cls == class_b) && (next & 0xFFFu) > after);
}

/* ---------- CGameCtnMediaClip 0x03079000 ---------- */

static void clip_tracks_and_name(rb_ar *ar)
{
    gbx_noderef_deprec_list(ar, "tracks");
    gbx_string(ar, "name");
}

static void clip_002(rb_ar *ar)
{
    clip_tracks_and_name(ar);
    gbx_bool(ar, "u01");
}

static void clip_003(rb_ar *ar) { clip_tracks_and_name(ar); }
static void clip_004(rb_ar *ar) { gbx_noderef(ar, "scene"); }
static void clip_007(rb_ar *ar) { rb_ar_i32(ar, "localPlayerClipEntIndex"); }
static void clip_008(rb_ar *ar) { rb_ar_f32(ar, "u01"); }
static void clip_009(rb_ar *ar) { gbx_string(ar, "u01"); }
static void clip_00a(rb_ar *ar) { gbx_bool(ar, "stopWhenLeave"); }
static void clip_00b(rb_ar *ar) { gbx_bool(ar, "u01"); }
static void clip_00c(rb_ar *ar) { rb_ar_u32(ar, "u01"); }

/* 00D: ManiaPlanet clip (version 0 in MP4, 1 in TM2020; the same layout) */
static void clip_00d(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 1, "clip 0x0307900D")) return;
    clip_tracks_and_name(ar);
    gbx_bool(ar, "stopWhenLeave");
    gbx_bool(ar, "u01");
    gbx_bool(ar, "stopWhenRespawn");
    gbx_string(ar, "u02");
    rb_ar_f32(ar, "u03");
    rb_ar_i32(ar, "localPlayerClipEntIndex");
}

static void clip_00e(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    rb_ar_i32(ar, "u01");
}

/* ---------- CGameCtnMediaClipGroup 0x0307A000 ---------- */

/* A clip's trigger; its layout depends on the chunk (001 -> 1, 002 -> 2, 003 -> 3). */
static void trigger(rb_ar *ar, uint32_t version)
{
    static const char *const u[] = {"u01", "u02", "u03", "u04"};
    rb_ar_record_begin(ar, NULL);
    if (version <= 2) gbx_int3_list(ar, "coords");
    if (version >= 2) {
        i32s(ar, u, 4);
        if (version >= 3) {
            rb_ar_u32(ar, "condition");
            rb_ar_f32(ar, "conditionValue");
            gbx_int3_list(ar, "coords");
        }
    }
    rb_ar_record_end(ar);
}

/* The clips and, in a list of its own (with its own count), one trigger per clip. */
static void clip_group(rb_ar *ar, uint32_t trigger_version)
{
    gbx_noderef_deprec_list(ar, "clips");
    uint64_t n = rb_ar_list_begin(ar, "triggers", RB_U32, 4);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) trigger(ar, trigger_version);
    rb_ar_list_end(ar);
}

static void group_001(rb_ar *ar) { clip_group(ar, 1); }
static void group_002(rb_ar *ar) { clip_group(ar, 2); }
static void group_003(rb_ar *ar) { clip_group(ar, 3); }
static void group_004(rb_ar *ar) { rb_ar_u32(ar, "u01"); }

/* ---------- CGameCtnMediaTrack 0x03078000 ---------- */

static void track_001(rb_ar *ar)
{
    gbx_string(ar, "name");
    gbx_noderef_deprec_list(ar, "blocks");
    rb_ar_i32(ar, "u01");
}

static void track_002(rb_ar *ar) { gbx_bool(ar, "isKeepPlaying"); }
static void track_003(rb_ar *ar) { gbx_bool(ar, "isReadOnly"); }

static void track_004(rb_ar *ar)
{
    gbx_bool(ar, "isKeepPlaying");
    gbx_bool(ar, "isReadOnly");
}

static void track_005(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 1, "track 0x03078005")) return;
    gbx_bool(ar, "isKeepPlaying");
    gbx_bool(ar, "isReadOnly");
    gbx_bool(ar, "isCycling");
    if (version >= 1) {
        rb_ar_f32(ar, "repeatingSegmentStart");
        rb_ar_f32(ar, "repeatingSegmentEnd");
    }
}

/* ---------- CControlEffectSimi 0x07010000 (text and image placement) ---------- */

static void simi_key(rb_ar *ar, uint32_t version)
{
    static const char *const u[] = {"u01", "u02", "u03", "u04"};
    gbx_vec2(ar, "position");
    rb_ar_f32(ar, "rotation");
    gbx_vec2(ar, "scale");
    if (version >= 1) rb_ar_f32(ar, "opacity");
    if (version >= 2) rb_ar_f32(ar, "depth");
    if (version >= 3) f32s(ar, u, 4);
}

/* Chunks 001, 002, 004, 005: the chunk number is the key version. */
static void simi(rb_ar *ar, uint32_t version)
{
    uint64_t key_bytes = 24 + (version >= 1 ? 4 : 0) + (version >= 2 ? 4 : 0) + (version >= 3 ? 16 : 0);
    key_list(ar, "keys", key_bytes, simi_key, version);
    gbx_bool(ar, "centered");
    if (version >= 4) {
        rb_ar_u32(ar, "colorBlendMode");
        gbx_bool(ar, "isContinousEffect");
    }
    if (version >= 5) gbx_bool(ar, "isInterpolated");
}

static void simi_001(rb_ar *ar) { simi(ar, 1); }
static void simi_002(rb_ar *ar) { simi(ar, 2); }
static void simi_004(rb_ar *ar) { simi(ar, 4); }
static void simi_005(rb_ar *ar) { simi(ar, 5); }

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

static void custom_view(rb_ar *ar)
{
    gbx_vec3(ar, "position");
    gbx_vec3(ar, "pitchYawRoll");
    rb_ar_f32(ar, "fov");
}

/* CameraCustom key, versions 1 to 10 (chunk 001 -> 1, 002 -> 2, 005 -> 5, 006 -> 6 + its version) */
static void custom_key(rb_ar *ar, uint32_t v)
{
    rb_ar_u32(ar, "interpolation");
    if (v <= 5) {
        rb_ar_i32(ar, "u01");
        rb_ar_i32(ar, "u02");
        custom_view(ar);
    }
    gbx_bool(ar, "anchorRot");
    rb_ar_i32(ar, "anchor");
    gbx_bool(ar, "anchorVis");
    rb_ar_i32(ar, "target");
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

static void custom_001(rb_ar *ar) { key_list(ar, "keys", 68, custom_key, 1); }
static void custom_002(rb_ar *ar) { key_list(ar, "keys", 84, custom_key, 2); }
static void custom_005(rb_ar *ar) { key_list(ar, "keys", 84, custom_key, 5); }

static void custom_006(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 4, "custom camera 0x030A2006")) return;
    key_list(ar, "keys", 84, custom_key, 6 + version);
}

/* CameraGame 03084000 */
static void game_000(rb_ar *ar)
{
    start_end(ar);
    rb_ar_i32(ar, "gameCamOld");
}

static void game_001(rb_ar *ar)
{
    game_000(ar);
    rb_ar_i32(ar, "clipEntId");
}

static void game_003(rb_ar *ar)
{
    start_end(ar);
    gbx_id(ar, "gameCamId");
    rb_ar_i32(ar, "clipEntId");
}

static void game_view(rb_ar *ar)
{
    static const char *const f[] = {"camFov", "u01", "u02", "camNearClipPlane", "camFarClipPlane"};
    gbx_vec3(ar, "camPosition");
    gbx_vec3(ar, "camPitchYawRoll");
    f32s(ar, f, 5);
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
    if (!version_known(ar, version, 4, "game camera 0x03084007")) return;
    start_end(ar);
    if (version <= 1) gbx_id(ar, "gameCamId");
    else rb_ar_i32(ar, "gameCam");
    rb_ar_i32(ar, "clipEntId");
    game_view(ar);
    bools(ar, b, 3);
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
    f32s(ar, f, 3);
    gbx_vec3(ar, "targetPosition");
    f32s(ar, r, 3);
    if (v == UINT32_MAX) return;
    rb_ar_i32(ar, "u02");
    if (v >= 1) i32s(ar, u, 4);
}

static void orbital_000(rb_ar *ar) { key_list(ar, "keys", 41, orbital_key, UINT32_MAX); }

static void orbital_001(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 1, "orbital camera 0x030A0001")) return;
    key_list(ar, "keys", 45, orbital_key, version);
}

/* CameraPath 030A1000 */
static void path_key(rb_ar *ar, uint32_t v)
{
    gbx_vec3(ar, "position");
    gbx_vec3(ar, "pitchYawRoll");
    rb_ar_f32(ar, "fov");
    if (v >= 3) rb_ar_f32(ar, "nearZ");
    gbx_bool(ar, "anchorRot");
    rb_ar_i32(ar, "anchor");
    gbx_bool(ar, "anchorVis");
    rb_ar_i32(ar, "target");
    gbx_vec3(ar, "targetPosition");
    rb_ar_f32(ar, "weight");
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
    return chunk_boundary_at(ar, offset, 0x030A1000u, 0x0309F000u, chunk) ||
           chunk_boundary_at(ar, offset, 0x2407A000u, 0x2408B000u, chunk);
}

/* CameraSimple key (chunk ids 0x030A1000..002 in class 0x0309F000) */
static void simple_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"u02", "u03", "u04"};
    rb_ar_u8(ar, "u01");
    gbx_floats(ar, "location", 12);
    f32s(ar, f, 3);
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

static uint64_t peek_count(rb_ar *ar)
{
    uint32_t n = 0;
    return rb_ar_peek_u32(ar, &n) ? n : 0;
}

static void path_000(rb_ar *ar)
{
    int path = rb_ar_has(ar, "keys", !simple_fits(ar, 0, 0, 0, peek_count(ar)));
    if (path) key_list(ar, "keys", PATH_KEY_BYTES, path_key, 0);
    else key_list(ar, "simpleKeys", SIMPLE_KEY_BYTES, simple_key, 0);
}

static void path_001(rb_ar *ar)
{
    /* CameraSimple 001 is a single i32 */
    uint64_t n = peek_count(ar);
    int simple = rb_ar_direction(ar) == RB_AR_READ && path_boundary_at(ar, 4, 1) &&
                 !path_boundary_at(ar, 4 + n * PATH_KEY_BYTES, 1);
    if (rb_ar_has(ar, "keys", !simple)) key_list(ar, "keys", PATH_KEY_BYTES, path_key, 1);
    else rb_ar_i32(ar, "u01");
}

static void simple_002(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    key_list(ar, "simpleKeys", SIMPLE_KEY_BYTES, simple_key, version);
    rb_ar_i32(ar, "u05");
    rb_ar_i32(ar, "u06");
    if (version >= 2) gbx_bool(ar, "u07");
}

static void path_002(rb_ar *ar)
{
    uint64_t n = peek_count(ar);
    uint32_t version = 0;
    int simple = 0;
    if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_peek_u32(ar, &version))
        simple = simple_fits(ar, 2, 4, version >= 2 ? 12 : 8, n);
    if (rb_ar_has(ar, "keys", !simple)) key_list(ar, "keys", PATH_KEY_BYTES, path_key, 2);
    else simple_002(ar);
}

static void path_003(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    /* version 5 (TM2020) keys have the version 4 layout [corpus] */
    if (!version_known(ar, version, 5, "camera path 0x030A1003")) return;
    key_list(ar, "keys", PATH_KEY_BYTES, path_key, version);
}

/* CameraEffectShake 030A4000 */
static void shake_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "intensity");
    rb_ar_f32(ar, "speed");
}

static void shake_000(rb_ar *ar) { key_list(ar, "keys", 12, shake_key, 0); }

/* CameraEffectScript 03161000 */
static void script_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"a", "b", "c"};
    f32s(ar, f, 3);
}

static void script_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    gbx_string(ar, "script");
    if (version == 0) start_end(ar);
    key_list(ar, "keys", 16, script_key, version);
}

/* CameraEffectInertialTracking 03166000 */
static void inertial_000(rb_ar *ar)
{
    static const char *const b[] = {"tracking", "autoZoom", "autoFocus"};
    rb_ar_u32(ar, "version");
    start_end(ar);
    bools(ar, b, 3);
}

/* ---------- effect blocks ---------- */

/* FxColors 03080000: one key is a near and a far colour setting */
static void colors_setting(rb_ar *ar, const char *const *names)
{
    f32s(ar, names, 5);
    gbx_vec3(ar, names[5]);
    f32s(ar, names + 6, 4);
}

static void colors_key(rb_ar *ar, uint32_t v)
{
    static const char *const head[] = {"intensity", "blendZ", "distance", "farDistance"};
    static const char *const near[] = {"inverse", "hue", "saturation", "brightness", "contrast",
                                       "rgb", "u01", "u02", "u03", "u04"};
    static const char *const far[] = {"farInverse", "farHue", "farSaturation", "farBrightness", "farContrast",
                                      "farRgb", "farU01", "farU02", "farU03", "farU04"};
    f32s(ar, head, 4);
    colors_setting(ar, near);
    colors_setting(ar, far);
}

static void colors_000(rb_ar *ar) { key_list(ar, "keys", 116, colors_key, 0); }

/* FxBlurDepth 03081000 */
static void blur_depth_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "lensSize");
    gbx_bool(ar, "forceFocus");
    rb_ar_f32(ar, "focusZ");
}

static void blur_depth_001(rb_ar *ar) { key_list(ar, "keys", 16, blur_depth_key, 0); }

/* FxBloom 03083000 */
static void bloom_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "intensity");
    rb_ar_f32(ar, "sensitivity");
}

static void bloom_001(rb_ar *ar) { key_list(ar, "keys", 12, bloom_key, 0); }

/* Time 03085000 (and TimeSpeed's keys under the same chunk id, see the top of the file) */
static void time_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "timeValue");
    rb_ar_f32(ar, "tangent");
}

static void speed_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "speed");
}

static int time_boundary_at(rb_ar *ar, uint64_t offset)
{
    uint32_t next = 0;
    return rb_ar_peek_u32_at(ar, offset, &next) && (next == GBX_FACADE || next == 0x03129000u);
}

static void time_000(rb_ar *ar)
{
    uint64_t n = peek_count(ar);
    /* Time has no other chunk; TimeSpeed may add its own 0x03129000 */
    int speed = rb_ar_direction(ar) == RB_AR_READ && n > 0 && time_boundary_at(ar, 4 + n * 8) &&
                !time_boundary_at(ar, 4 + n * 12);
    if (rb_ar_has(ar, "keys", !speed)) key_list(ar, "keys", 12, time_key, 0);
    else key_list(ar, "timeSpeedKeys", 8, speed_key, 0);
}

static void time_speed_000(rb_ar *ar) { key_list(ar, "keys", 8, speed_key, 0); }

/* TransitionFade 030AB000 */
static void opacity_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "opacity");
}

static void fade_000(rb_ar *ar)
{
    key_list(ar, "keys", 8, opacity_key, 0);
    gbx_vec3(ar, "color");
    rb_ar_f32(ar, "u01");
}

/* Blocks that are only a time span: Trails, FxBlurMotion, Shoot, VehicleLight 000, FxCameraMap 000 ... */
static void span_000(rb_ar *ar) { start_end(ar); }

static void vehicle_light_001(rb_ar *ar) { rb_ar_i32(ar, "target"); }

/* FxCameraMap 03139001 [GBX.NET, unconfirmed] */
static void camera_map_001(rb_ar *ar)
{
    static const char *const a[] = {"u01", "u02", "u03", "u04", "u05", "u06", "u07", "u08", "u09", "u10", "u11", "u12"};
    static const char *const b[] = {"u14", "u15", "u16"};
    for (int i = 0; i < 12 && rb_ar_ok(ar); i++) {
        if (i == 1 || i == 5 || i == 9) rb_ar_i32(ar, a[i]);
        else rb_ar_f32(ar, a[i]);
    }
    rb_ar_u8(ar, "u13");
    i32s(ar, b, 3);
    gbx_fileref(ar, "packDesc");
}

/* Text 030A8000 */
static void text_001(rb_ar *ar)
{
    gbx_string(ar, "text");
    gbx_noderef(ar, "effect");
}

static void text_002(rb_ar *ar) { gbx_vec3(ar, "color"); }
static void single_u01(rb_ar *ar) { rb_ar_f32(ar, "u01"); }

/* Image 030A5000 */
static void image_000(rb_ar *ar)
{
    gbx_noderef(ar, "effect");
    gbx_fileref(ar, "image");
}

/* GhostTM 030E5000: the ghost node's classes are described elsewhere */
static void ghost_001(rb_ar *ar)
{
    start_end(ar);
    gbx_noderef(ar, "ghostModel");
    rb_ar_f32(ar, "startOffset");
}

static void light_intensity_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "lightIntensity");
}

static void ghost_002(rb_ar *ar)
{
    static const char *const b[] = {"noDamage", "forceLight", "forceHue"};
    uint32_t version = rb_ar_u32(ar, "version");
    if (version >= 3) key_list(ar, "keys", 8, light_intensity_key, 0);
    else start_end(ar);
    gbx_noderef(ar, "ghostModel");
    rb_ar_f32(ar, "startOffset");
    bools(ar, b, 3);
}

/* MusicEffect 030A6000 */
static void music_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "musicVolume");
    if (v >= 1) rb_ar_f32(ar, "soundVolume");
}

static void music_000(rb_ar *ar) { key_list(ar, "keys", 8, music_key, 0); }
static void music_001(rb_ar *ar) { key_list(ar, "keys", 12, music_key, 1); }

/* Sound 030A7000 */
static void sound_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "volume");
    rb_ar_f32(ar, "pan");
    if (v >= 1) gbx_vec3(ar, "position");
}

static void sound_001(rb_ar *ar)
{
    gbx_fileref(ar, "sound");
    key_list(ar, "keys", 12, sound_key, 0);
}

static void sound_002(rb_ar *ar)
{
    rb_ar_i32(ar, "playCount");
    gbx_bool(ar, "isLooping");
}

static void sound_003(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 2, "sound 0x030A7003")) return;
    rb_ar_i32(ar, "playCount");
    gbx_bool(ar, "isLooping");
    gbx_bool(ar, "isMusic");
    if (version >= 1) gbx_bool(ar, "stopWithClip");
    if (version >= 2) {
        gbx_bool(ar, "audioToSpeech");
        rb_ar_i32(ar, "audioToSpeechTarget");
    }
}

static void sound_004(rb_ar *ar)
{
    gbx_fileref(ar, "sound");
    uint32_t version = rb_ar_u32(ar, "version");
    key_list(ar, "keys", version >= 1 ? 24 : 12, sound_key, version);
}

/* Spectators 030EB000, DirtyLens 03165000, FxCameraBlend 0316D000: u32 version + keys(8) */
static void spectators_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "spectators");
}

static void spectators_000(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    key_list(ar, "keys", 8, spectators_key, 0);
}

static void intensity_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "intensity");
}

static void dirty_lens_000(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    key_list(ar, "keys", 8, intensity_key, 0);
}

static void capture_weight_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "captureWeight");
}

static void camera_blend_000(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    key_list(ar, "keys", 8, capture_weight_key, 0);
}

/* DOF 03126000: chunk number = key version */
static void dof_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "zFocus");
    rb_ar_f32(ar, "lensSize");
    if (v >= 1) rb_ar_i32(ar, "target");
    if (v >= 2) gbx_vec3(ar, "targetPosition");
}

static void dof_000(rb_ar *ar) { key_list(ar, "keys", 12, dof_key, 0); }
static void dof_001(rb_ar *ar) { key_list(ar, "keys", 16, dof_key, 1); }
static void dof_002(rb_ar *ar) { key_list(ar, "keys", 28, dof_key, 2); }

/* ToneMapping 03127000 (chunks 000-004, one layout) */
static void tone_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"exposure", "maxHDR", "lightTrailScale"};
    f32s(ar, f, 3);
    rb_ar_i32(ar, "u01");
}

static void tone_000(rb_ar *ar) { key_list(ar, "keys", 20, tone_key, 0); }

/* BloomHdr 03128000 (chunks 000-002, one layout) */
static void bloom_hdr_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"intensity", "streaksIntensity", "streaksAttenuation"};
    f32s(ar, f, 3);
}

static void bloom_hdr_000(rb_ar *ar) { key_list(ar, "keys", 16, bloom_hdr_key, 0); }

/* 3dStereo 03024000 */
static void stereo_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "upToMax");
    rb_ar_f32(ar, "screenDist");
}

static void stereo_000(rb_ar *ar) { key_list(ar, "keys", 12, stereo_key, 0); }

/* Manialink 0312A000, Interface 03195000 */
static void manialink_001(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    start_end(ar);
    gbx_string(ar, "manialinkUrl");
}

static void interface_000(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    start_end(ar);
    gbx_bool(ar, "showInterface");
    gbx_string(ar, "manialink");
}

/* ColorGrading 03186000 */
static void color_grading_000(rb_ar *ar) { gbx_fileref(ar, "image"); }
static void color_grading_001(rb_ar *ar) { key_list(ar, "keys", 8, intensity_key, 0); }

/* Fog 03199000 */
static void fog_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"intensity", "skyIntensity", "distance"};
    f32s(ar, f, 3);
    if (v >= 1) {
        rb_ar_f32(ar, "coefficient");
        gbx_vec3(ar, "color");
    }
    if (v >= 2) {
        rb_ar_f32(ar, "cloudsOpacity");
        rb_ar_f32(ar, "cloudsSpeed");
    }
}

static void fog_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 2, "fog 0x03199000")) return;
    key_list(ar, "keys", 16 + (version >= 1 ? 16 : 0) + (version >= 2 ? 8 : 0), fog_key, version);
}

/* ColoringCapturable 0316C000 [GBX.NET, unconfirmed] */
static void capturable_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "hue");
    rb_ar_f32(ar, "gauge");
    rb_ar_i32(ar, "emblem");
}

static void capturable_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    rb_ar_i32(ar, "u01");
    key_list(ar, "keys", 16, capturable_key, 0);
    if (version >= 1) rb_ar_i32(ar, "capturableIndex");
}

/* ColoringBase 03172000 [GBX.NET, unconfirmed] */
static void coloring_base_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "hue");
    if (v >= 1) rb_ar_f32(ar, "intensity");
    if (v >= 2) rb_ar_sint(ar, "u01", RB_I16);
}

static void coloring_base_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!version_known(ar, version, 2, "coloring base 0x03172000")) return;
    if (version >= 2) rb_ar_i32(ar, "u01");
    key_list(ar, "keys", 8 + (version >= 1 ? 4 : 0) + (version >= 2 ? 2 : 0), coloring_base_key, version);
    if (version >= 1) rb_ar_i32(ar, "baseIndex");
}

/* Lightmap 030C0000 [GBX.NET] */
static void lightmap_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    start_end(ar);
    if (version >= 1) rb_ar_f32(ar, "u01");
}

/* Blocks around a data tape node [GBX.NET]: BulletFx 03169000, CharVis 0316A000, CheatEmptyCars 0325E000 */
static void span_tape_000(rb_ar *ar)
{
    start_end(ar);
    gbx_noderef(ar, "dataTape");
}

/* Turret 03294000 [GBX.NET] */
static void turret_000(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    gbx_noderef(ar, "dataTape");
}

/* Scenery 03188000 [GBX.NET] */
static void scenery_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"u01", "u02", "u03"};
    f32s(ar, f, 3);
}

static void scenery_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    key_list(ar, "keys", 16, scenery_key, version);
}

static void scenery_001(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    rb_ar_i32(ar, "u01");
    gbx_noderef(ar, "dataTape");
}

/* OpponentVisibility 0338B000 [GBX.NET] */
static void visibility_001(rb_ar *ar) { rb_ar_u32(ar, "visibility"); }

/* Ui 0307D000 [GBX.NET] */
static void ui_000(rb_ar *ar)
{
    gbx_noderef(ar, "userInterface");
    start_end(ar);
}

/* ---------- Triangles 03029000 ---------- */

/* The positions of every vertex at every key; each inner list has one position per vertex. */
static void triangle_positions(rb_ar *ar, uint64_t *vertex_count)
{
    /* the vertex count is stored here, after the key count, but derived from "vertices" further on */
    uint64_t vertices = rb_ar_count_of(ar, "vertices", 0);
    uint64_t n = rb_ar_list_begin(ar, "keyPositions", RB_U32, 4);
    rb_slot count = rb_ar_slot(ar, "vertex count", RB_U32);
    uint64_t per_key = rb_ar_direction(ar) == RB_AR_READ ? count.value : vertices;
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) {
        uint64_t m = rb_ar_list_begin_n(ar, NULL, per_key, 12);
        if (rb_ar_ok(ar) && m != per_key)
            rb_ar_fail(ar, RB_E_MODEL, "has %llu positions, the block has %llu vertices", (unsigned long long)m,
                       (unsigned long long)per_key);
        for (uint64_t j = 0; j < m && rb_ar_ok(ar); j++) gbx_vec3(ar, NULL);
        rb_ar_list_end(ar);
    }
    rb_ar_list_end(ar);
    rb_ar_slot_set(ar, &count, per_key);
    *vertex_count = per_key;
}

static void triangles_001(rb_ar *ar)
{
    static const char *const u[] = {"u01", "u02", "u03"};
    key_list(ar, "keys", 4, NULL, 0);
    uint64_t vertex_count = 0;
    triangle_positions(ar, &vertex_count);
    uint64_t n = rb_ar_list_begin(ar, "vertices", RB_U32, 16);
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_READ && n != vertex_count)
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "%llu vertices, but the key positions are for %llu",
                   (unsigned long long)n, (unsigned long long)vertex_count);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) gbx_floats(ar, NULL, 4);
    rb_ar_list_end(ar);
    gbx_int3_list(ar, "triangles");
    i32s(ar, u, 3);
    rb_ar_f32(ar, "u04");
    rb_ar_i32(ar, "u05");
    rb_ar_u64(ar, "u06");
}

static void triangles_002(rb_ar *ar) { rb_ar_i32(ar, "u01"); }

/* ---------- CCtnMediaBlockEventTrackMania 2407F000 (TMN-TMU replays) ---------- */

static void stunt_fields(rb_ar *ar)
{
    static const char *const head[] = {"figure", "angle", "score"};
    static const char *const b[] = {"straight", "u01", "u02", "u03"};
    i32s(ar, head, 3);
    rb_ar_f32(ar, "factor");
    bools(ar, b, 4);
    rb_ar_i32(ar, "combo");
    rb_ar_i32(ar, "totalScore");
}

static void event_000(rb_ar *ar)
{
    start_end(ar);
    gbx_bool(ar, "u01");
    uint64_t n = rb_ar_list_begin(ar, "stunts", RB_U32, 44);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) {
        rb_ar_record_begin(ar, NULL);
        rb_ar_f32(ar, "time");
        stunt_fields(ar);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
}

enum { EVENT_STUNT, EVENT_CHECKPOINT, EVENT_END_OF_LAP, EVENT_END_OF_RACE };

/* The payload of a checkpoint, end-of-lap or end-of-race event: a u32 that, when set, ends it. */
static void event_marker_payload(rb_ar *ar, uint32_t type, uint32_t event_version)
{
    rb_ar_record_begin(ar, type == EVENT_CHECKPOINT ? "checkpoint" : type == EVENT_END_OF_LAP ? "endOfLap" : "endOfRace");
    int32_t u01 = rb_ar_i32(ar, "u01");
    int stop = type == EVENT_END_OF_LAP ? u01 >= 2 : u01 != 0;
    if (!stop) {
        rb_ar_f32(ar, "time");
        rb_ar_i32(ar, "u02");
        if (type != EVENT_END_OF_RACE) rb_ar_i32(ar, "u03");
        if (type == EVENT_CHECKPOINT || (type == EVENT_END_OF_LAP && event_version != 1)) rb_ar_i32(ar, "u04");
    }
    rb_ar_record_end(ar);
}

static void event(rb_ar *ar)
{
    rb_ar_record_begin(ar, NULL);
    rb_ar_f32(ar, "time");
    uint8_t version = rb_ar_u8(ar, "version");
    if (rb_ar_ok(ar) && version == 0) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "event version 0 is not known");
        return;
    }
    if (version < 3) rb_ar_i32(ar, "u01");
    else rb_ar_u8(ar, "u02");
    uint32_t type = rb_ar_u32(ar, "type");
    if (type == EVENT_STUNT) {
        rb_ar_record_begin(ar, "stunt");
        stunt_fields(ar);
        rb_ar_record_end(ar);
    } else if (type <= EVENT_END_OF_RACE) {
        event_marker_payload(ar, type, version);
    } else if (rb_ar_ok(ar)) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "event type %u is not known (0 to 3 are)", type);
    }
    rb_ar_record_end(ar);
}

static void event_003(rb_ar *ar)
{
    start_end(ar);
    gbx_bool(ar, "u01");
    uint64_t n = rb_ar_list_begin(ar, "events", RB_U32, 13);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) event(ar);
    rb_ar_list_end(ar);
}

/* CCtnMediaBlockUiTMSimpleEvtsDisplay 24092000 [GBX.NET] */
static void evts_display_000(rb_ar *ar) { rb_ar_i32(ar, "displayMode"); }

static void evts_display_001(rb_ar *ar)
{
    static const char *const b[] = {"stuntFigures", "checkpoints", "endOfRace", "endOfLaps", "ghostsName"};
    bools(ar, b, 5);
}

static void evts_display_002(rb_ar *ar) { gbx_bool(ar, "u01"); }

/* ---------- UI controls reached from CGameCtnMediaBlockUi 0x0307D000 (TMN/TMU replays) ----------
 * The interface of a "simple events display" block is a CControlList (0x0700F000) whose chunks are
 * those of its base classes CSceneObject 0A005, CSceneMobil 0A011, CControlBase 07001,
 * CControlContainer 07002 and its own. Layouts: GBX.NET's chunkl, checked on the corpus replay. */

static void scene_object_001(rb_ar *ar) { gbx_id(ar, "name"); }
static void scene_object_003(rb_ar *ar) { gbx_noderef(ar, "motion"); }
static void scene_object_004(rb_ar *ar) { rb_ar_i32(ar, "u01"); }

static void scene_mobil_003(rb_ar *ar)
{
    uint64_t n = rb_ar_list_begin(ar, "objectLink", RB_U32, 4);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) gbx_noderef(ar, NULL);
    rb_ar_list_end(ar);
}

static void scene_mobil_004(rb_ar *ar) { gbx_noderef(ar, "u01"); }
/* GBX.NET reads a direct CHmsItem here; the 2006 replay stores a single u32 0 */
static void scene_mobil_005(rb_ar *ar) { rb_ar_i32(ar, "u01"); }
static void scene_mobil_006(rb_ar *ar) { gbx_noderef(ar, "messageHandler"); }

static void control_base_00c(rb_ar *ar)
{
    static const char *const u[] = {"u01", "u02", "u03", "u04"};
    i32s(ar, u, 4);
    gbx_string(ar, "stackText");
}

static void control_base_00e(rb_ar *ar)
{
    gbx_floats(ar, "boxAligned", 6);
    gbx_noderef(ar, "layout");
    rb_ar_i32(ar, "u01");
    rb_ar_i32(ar, "u02");
}

static void control_base_00f(rb_ar *ar) { gbx_string(ar, "u01"); }

static void control_base_010(rb_ar *ar)
{
    rb_ar_record_begin(ar, "u01");
    int32_t index = rb_ar_i32(ar, "index");
    rb_ar_record_end(ar);
    /* a null node is followed by an int (an external node's index in the corpus file) */
    if (index == -1) rb_ar_i32(ar, "u02");
    else if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "control chunk 0x07001010 with a node is not known");
}

static void control_container_005(rb_ar *ar)
{
    static const char *const u[] = {"u01", "u02", "u03"};
    gbx_bool(ar, "acceptOwnControls");
    gbx_bool(ar, "useScript");
    i32s(ar, u, 3);
}

static void control_list_007(rb_ar *ar)
{
    static const char *const u[] = {"u01", "u02", "u03", "u04", "u05", "u06", "u07"};
    i32s(ar, u, 7);
    uint64_t n = rb_ar_list_begin(ar, "u08", RB_U32, 20);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) {
        rb_ar_record_begin(ar, NULL);
        gbx_string(ar, "u01");
        rb_ar_f32(ar, "u02");
        gbx_noderef(ar, "u03");
        gbx_id(ar, "u04");
        gbx_bool(ar, "u05");
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
}

/* An id read just before: was it empty (or an empty string)? */
static int id_is_empty(rb_ar *ar, const char *key)
{
    const rb_node *n = rb_node_get(rb_ar_current(ar), key);
    return !n || n->wire == RB_ID_EMPTY || (n->wire == RB_ID_STRING && n->v.bytes.size == 0);
}

static void control_list_00a(rb_ar *ar)
{
    static const char *const f[] = {"u01", "u02", "u03"};
    f32s(ar, f, 3);
    rb_ar_i32(ar, "u04");
    gbx_bool(ar, "u05");
    gbx_id(ar, "u06");
    if (rb_ar_has(ar, "u07", id_is_empty(ar, "u06"))) gbx_noderef(ar, "u07");
    rb_ar_f32(ar, "u08");
    rb_ar_f32(ar, "u09");
    gbx_bool(ar, "u10");
}

/* ---------- the table ---------- */

static const gbx_chunk_def MEDIATRACKER_CHUNKS[] = {
    /* CGameCtnMediaClip */
    {0x03079002, 0, "clip tracks (bool)", clip_002},
    {0x03079003, 0, "clip tracks with sorting", clip_003},
    {0x03079004, 0, "clip scene", clip_004},
    {0x03079005, 0, "clip tracks", clip_003},
    {0x03079007, 0, "clip local player", clip_007},
    {0x03079008, 0, "clip 008", clip_008},
    {0x03079009, 0, "clip 009", clip_009},
    {0x0307900A, 0, "clip stop when leave", clip_00a},
    {0x0307900B, 0, "clip 00B", clip_00b},
    {0x0307900C, 0, "clip 00C", clip_00c},
    {0x0307900D, 0, "clip (ManiaPlanet)", clip_00d},
    {0x0307900E, 1, "clip 00E", clip_00e},
    /* CGameCtnMediaClipGroup */
    {0x0307A001, 0, "clip group (trigger v1)", group_001},
    {0x0307A002, 0, "clip group (trigger v2)", group_002},
    {0x0307A003, 0, "clip group (trigger v3)", group_003},
    {0x0307A004, 1, "clip group 004", group_004},
    /* CGameCtnMediaTrack */
    {0x03078001, 0, "track name and blocks", track_001},
    {0x03078002, 0, "track keep playing", track_002},
    {0x03078003, 0, "track read only", track_003},
    {0x03078004, 0, "track parameters (TMF)", track_004},
    {0x03078005, 0, "track parameters", track_005},
    /* CControlEffectSimi */
    {0x07010001, 0, "effect simi v1", simi_001},
    {0x07010002, 0, "effect simi v2", simi_002},
    {0x07010004, 0, "effect simi v4", simi_004},
    {0x07010005, 0, "effect simi v5", simi_005},
    /* cameras */
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
    /* effects */
    {0x03080000, 0, "fx colors 000", colors_000},
    {0x03080001, 0, "fx colors 001", colors_000},
    {0x03080002, 0, "fx colors 002", colors_000},
    {0x03080003, 0, "fx colors", colors_000},
    {0x03081001, 0, "fx blur depth", blur_depth_001},
    {0x03082000, 0, "fx blur motion", span_000},
    {0x03083001, 0, "fx bloom", bloom_001},
    {0x03085000, 0, "time / time speed keys", time_000},
    {0x03129000, 0, "time speed", time_speed_000},
    {0x030AB000, 0, "transition fade", fade_000},
    {0x030A9000, 0, "trails", span_000},
    {0x03145000, 0, "shoot", span_000},
    {0x03133000, 0, "vehicle light", span_000},
    {0x03133001, 0, "vehicle light target", vehicle_light_001},
    {0x03139000, 0, "fx camera map", span_000},
    {0x03139001, 0, "fx camera map 001", camera_map_001},
    {0x030A8001, 0, "text", text_001},
    {0x030A8002, 0, "text color", text_002},
    {0x030A8003, 0, "text 003", single_u01},
    {0x030A5000, 0, "image", image_000},
    {0x030A5001, 0, "image 001", single_u01},
    {0x030E5001, 0, "ghost 001", ghost_001},
    {0x030E5002, 0, "ghost", ghost_002},
    {0x030A6000, 0, "music effect 000", music_000},
    {0x030A6001, 0, "music effect", music_001},
    {0x030A7001, 0, "sound 001", sound_001},
    {0x030A7002, 0, "sound 002", sound_002},
    {0x030A7003, 0, "sound parameters", sound_003},
    {0x030A7004, 0, "sound", sound_004},
    {0x030EB000, 0, "spectators", spectators_000},
    {0x03165000, 0, "dirty lens", dirty_lens_000},
    {0x0316D000, 0, "fx camera blend", camera_blend_000},
    {0x03126000, 0, "DOF v0", dof_000},
    {0x03126001, 0, "DOF v1", dof_001},
    {0x03126002, 0, "DOF", dof_002},
    {0x03127000, 0, "tone mapping 000", tone_000},
    {0x03127001, 0, "tone mapping 001", tone_000},
    {0x03127002, 0, "tone mapping 002", tone_000},
    {0x03127003, 0, "tone mapping 003", tone_000},
    {0x03127004, 0, "tone mapping", tone_000},
    {0x03128000, 0, "bloom HDR 000", bloom_hdr_000},
    {0x03128001, 0, "bloom HDR 001", bloom_hdr_000},
    {0x03128002, 0, "bloom HDR", bloom_hdr_000},
    {0x03024000, 0, "3D stereo", stereo_000},
    {0x0312A001, 0, "manialink", manialink_001},
    {0x03195000, 0, "interface", interface_000},
    {0x03186000, 0, "color grading image", color_grading_000},
    {0x03186001, 0, "color grading keys", color_grading_001},
    {0x03199000, 0, "fog", fog_000},
    {0x0316C000, 0, "coloring capturable", capturable_000},
    {0x03172000, 0, "coloring base", coloring_base_000},
    {0x03029001, 0, "triangles", triangles_001},
    {0x03029002, 1, "triangles 002", triangles_002},
    {0x030C0000, 0, "lightmap", lightmap_000},
    {0x03169000, 0, "bullet fx", span_tape_000},
    {0x0316A000, 0, "char vis", span_tape_000},
    {0x0325E000, 0, "cheat empty cars", span_tape_000},
    {0x03294000, 0, "turret", turret_000},
    {0x03188000, 0, "scenery keys", scenery_000},
    {0x03188001, 0, "scenery data tape", scenery_001},
    {0x0338B000, 0, "opponent visibility span", span_000},
    {0x0338B001, 0, "opponent visibility", visibility_001},
    {0x0307D000, 0, "ui 000", ui_000},
    {0x0307D001, 0, "ui", span_000},
    /* Legacy (engine 0x24, 2006) ids of GBX.NET's Wrap.txt that gbx_remap_id does not map:
     * listed here under their raw ids so they reach the same descriptions. */
    {0x0307B001, 0, "track name and blocks (0x0307B)", track_001},
    {0x0307B002, 0, "track keep playing (0x0307B)", track_002},
    {0x0307B003, 0, "track read only (0x0307B)", track_003},
    {0x0307B004, 0, "track parameters (0x0307B)", track_004},
    {0x0307B005, 0, "track parameters (0x0307B)", track_005},
    {0x240CF001, 0, "fx bloom (legacy)", bloom_001},
    {0x24070000, 0, "orbital camera 000 (legacy)", orbital_000},
    {0x24070001, 0, "orbital camera (legacy)", orbital_001},
    {0x2407A000, 0, "camera path v0 (legacy)", path_000},
    {0x2407A001, 0, "camera path v1 (legacy)", path_001},
    {0x2407A002, 0, "camera path v2 (legacy)", path_002},
    {0x2407A003, 0, "camera path (legacy)", path_003},
    {0x24088000, 0, "camera shake (legacy)", shake_000},
    {0x24081000, 0, "image (legacy)", image_000},
    {0x24081001, 0, "image 001 (legacy)", single_u01},
    {0x24089000, 0, "music effect 000 (legacy)", music_000},
    {0x24089001, 0, "music effect (legacy)", music_001},
    {0x2406F001, 0, "sound 001 (legacy)", sound_001},
    {0x2406F002, 0, "sound 002 (legacy)", sound_002},
    {0x2406F003, 0, "sound parameters (legacy)", sound_003},
    {0x2406F004, 0, "sound (legacy)", sound_004},
    {0x24091000, 0, "ui 000 (legacy)", ui_000},
    {0x24091001, 0, "ui (legacy)", span_000},
    /* UI controls of CGameCtnMediaBlockUi */
    {0x0A005001, 0, "scene object name", scene_object_001},
    {0x0A005003, 0, "scene object motion", scene_object_003},
    {0x0A005004, 0, "scene object 004", scene_object_004},
    {0x0A011003, 0, "scene mobil links", scene_mobil_003},
    {0x0A011004, 0, "scene mobil 004", scene_mobil_004},
    {0x0A011005, 0, "scene mobil item", scene_mobil_005},
    {0x0A011006, 0, "scene mobil message handler", scene_mobil_006},
    {0x0700100C, 0, "control base 00C", control_base_00c},
    {0x0700100E, 0, "control base layout", control_base_00e},
    {0x0700100F, 0, "control base 00F", control_base_00f},
    {0x07001010, 0, "control base 010", control_base_010},
    {0x07002005, 0, "control container", control_container_005},
    {0x0700F007, 0, "control list 007", control_list_007},
    {0x0700F00A, 0, "control list 00A", control_list_00a},
    /* TrackMania Nations/United replays */
    {0x2407F000, 0, "stunt events", event_000},
    {0x2407F003, 0, "race events", event_003},
    {0x24092000, 0, "simple events display 000", evts_display_000},
    {0x24092001, 0, "simple events display", evts_display_001},
    {0x24092002, 0, "simple events display 002", evts_display_002},
};

const gbx_chunk_table gbx_mediatracker_chunks = {MEDIATRACKER_CHUNKS,
                                                 sizeof MEDIATRACKER_CHUNKS / sizeof MEDIATRACKER_CHUNKS[0]};
