/*
 * Media tracker effect blocks: colours, blur, bloom, time, fades, trails, text, image, ghost, music,
 * sound, depth of field, tone mapping, fog, colour grading, triangles, lightmap, UI and the other
 * TM2/TM2020 effect classes (current and 2006 ids). Layouts: docs/formats/gbx_mediatracker.md.
 */
#include "core/gbx/mediatracker/mediatracker.h"

/* ---------- effect blocks ---------- */

/* FxColors 03080000: one key is a near and a far colour setting */
static void colors_setting(rb_ar *ar, const char *const *names)
{
    mt_f32s(ar, names, 5);
    gbx_vec3(ar, names[5]);
    mt_f32s(ar, names + 6, 4);
}

static void colors_key(rb_ar *ar, uint32_t v)
{
    static const char *const head[] = {"intensity", "blendZ", "distance", "farDistance"};
    static const char *const near[] = {"inverse", "hue", "saturation", "brightness", "contrast",
                                       "rgb", "u01", "u02", "u03", "u04"};
    static const char *const far[] = {"farInverse", "farHue", "farSaturation", "farBrightness", "farContrast",
                                      "farRgb", "farU01", "farU02", "farU03", "farU04"};
    mt_f32s(ar, head, 4);
    colors_setting(ar, near);
    colors_setting(ar, far);
}

static void colors_000(rb_ar *ar) { mt_key_list(ar, "keys", 116, colors_key, 0); }

/* FxBlurDepth 03081000 */
static void blur_depth_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "lensSize");
    gbx_bool(ar, "forceFocus");
    rb_ar_f32(ar, "focusZ");
}

static void blur_depth_001(rb_ar *ar) { mt_key_list(ar, "keys", 16, blur_depth_key, 0); }

/* FxBloom 03083000 */
static void bloom_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "intensity");
    rb_ar_f32(ar, "sensitivity");
}

static void bloom_001(rb_ar *ar) { mt_key_list(ar, "keys", 12, bloom_key, 0); }

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
    uint64_t n = mt_peek_count(ar);
    /* Time has no other chunk; TimeSpeed may add its own 0x03129000 */
    int speed = rb_ar_direction(ar) == RB_AR_READ && n > 0 && time_boundary_at(ar, 4 + n * 8) &&
                !time_boundary_at(ar, 4 + n * 12);
    if (rb_ar_has(ar, "keys", !speed)) mt_key_list(ar, "keys", 12, time_key, 0);
    else mt_key_list(ar, "timeSpeedKeys", 8, speed_key, 0);
}

static void time_speed_000(rb_ar *ar) { mt_key_list(ar, "keys", 8, speed_key, 0); }

/* TransitionFade 030AB000 */
static void opacity_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "opacity");
}

static void fade_000(rb_ar *ar)
{
    mt_key_list(ar, "keys", 8, opacity_key, 0);
    gbx_vec3(ar, "color");
    rb_ar_f32(ar, "u01");
}

/* Blocks that are only a time span: Trails, FxBlurMotion, Shoot, VehicleLight 000, FxCameraMap 000 ... */
static void span_000(rb_ar *ar) { mt_start_end(ar); }

static void vehicle_light_001(rb_ar *ar) { rb_ar_i32(ar, "target"); }

/* FxCameraMap 03139001 [GBX.NET, unconfirmed] */
static void camera_map_001(rb_ar *ar)
{
    static const char *const a[] = {"u01", "u02", "u03", "u04", "u05", "u06", "u07", "u08", "u09", "u10", "u11", "u12"};
    static const char *const b[] = {"u14", "u15", "u16"};
    RB_AR_EACH(ar, i, 12) {
        if (i == 1 || i == 5 || i == 9) rb_ar_i32(ar, a[i]);
        else rb_ar_f32(ar, a[i]);
    }
    rb_ar_u8(ar, "u13");
    mt_i32s(ar, b, 3);
    gbx_fileref(ar, "packDesc");
}

/* Text 030A8000 */
GBX_FIELDS_CHUNK(text_001, {'s', "text"}, {'n', "effect"})

static void text_002(rb_ar *ar) { gbx_vec3(ar, "color"); }
static void single_u01(rb_ar *ar) { rb_ar_f32(ar, "u01"); }

/* Image 030A5000 */
GBX_FIELDS_CHUNK(image_000, {'n', "effect"}, {'p', "image"})

/* GhostTM 030E5000: the ghost node's classes are described elsewhere */
static void ghost_001(rb_ar *ar)
{
    mt_start_end(ar);
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
    if (version >= 3) mt_key_list(ar, "keys", 8, light_intensity_key, 0);
    else mt_start_end(ar);
    gbx_noderef(ar, "ghostModel");
    rb_ar_f32(ar, "startOffset");
    mt_bools(ar, b, 3);
}

/* MusicEffect 030A6000 */
static void music_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "musicVolume");
    if (v >= 1) rb_ar_f32(ar, "soundVolume");
}

static void music_000(rb_ar *ar) { mt_key_list(ar, "keys", 8, music_key, 0); }
static void music_001(rb_ar *ar) { mt_key_list(ar, "keys", 12, music_key, 1); }

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
    mt_key_list(ar, "keys", 12, sound_key, 0);
}

GBX_FIELDS_CHUNK(sound_002, {'i', "playCount"}, {'b', "isLooping"})

static void sound_003(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!mt_version_known(ar, version, 2, "sound 0x030A7003")) return;
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
    mt_key_list(ar, "keys", version >= 1 ? 24 : 12, sound_key, version);
}

/* Spectators 030EB000, DirtyLens 03165000, FxCameraBlend 0316D000: u32 version + keys(8) */
static void spectators_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "spectators");
}

static void intensity_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "intensity");
}

static void capture_weight_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "captureWeight");
}

/* the version, then keys of one float each (`key` names it) */
static void version_and_float_keys(rb_ar *ar, key_fields_fn key)
{
    rb_ar_u32(ar, "version");
    mt_key_list(ar, "keys", 8, key, 0);
}

static void spectators_000(rb_ar *ar) { version_and_float_keys(ar, spectators_key); }
static void dirty_lens_000(rb_ar *ar) { version_and_float_keys(ar, intensity_key); }
static void camera_blend_000(rb_ar *ar) { version_and_float_keys(ar, capture_weight_key); }

/* DOF 03126000: chunk number = key version */
static void dof_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "zFocus");
    rb_ar_f32(ar, "lensSize");
    if (v >= 1) rb_ar_i32(ar, "target");
    if (v >= 2) gbx_vec3(ar, "targetPosition");
}

static void dof_000(rb_ar *ar) { mt_key_list(ar, "keys", 12, dof_key, 0); }
static void dof_001(rb_ar *ar) { mt_key_list(ar, "keys", 16, dof_key, 1); }
static void dof_002(rb_ar *ar) { mt_key_list(ar, "keys", 28, dof_key, 2); }

/* ToneMapping 03127000 (chunks 000-004, one layout) */
static void tone_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"exposure", "maxHDR", "lightTrailScale"};
    mt_f32s(ar, f, 3);
    rb_ar_i32(ar, "u01");
}

static void tone_000(rb_ar *ar) { mt_key_list(ar, "keys", 20, tone_key, 0); }

/* BloomHdr 03128000 (chunks 000-002, one layout) */
static void bloom_hdr_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"intensity", "streaksIntensity", "streaksAttenuation"};
    mt_f32s(ar, f, 3);
}

static void bloom_hdr_000(rb_ar *ar) { mt_key_list(ar, "keys", 16, bloom_hdr_key, 0); }

/* 3dStereo 03024000 */
static void stereo_key(rb_ar *ar, uint32_t v)
{
    rb_ar_f32(ar, "upToMax");
    rb_ar_f32(ar, "screenDist");
}

static void stereo_000(rb_ar *ar) { mt_key_list(ar, "keys", 12, stereo_key, 0); }

/* Manialink 0312A000, Interface 03195000 */
static void manialink_001(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    mt_start_end(ar);
    gbx_string(ar, "manialinkUrl");
}

static void interface_000(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    mt_start_end(ar);
    gbx_bool(ar, "showInterface");
    gbx_string(ar, "manialink");
}

/* ColorGrading 03186000 */
static void color_grading_000(rb_ar *ar) { gbx_fileref(ar, "image"); }
static void color_grading_001(rb_ar *ar) { mt_key_list(ar, "keys", 8, intensity_key, 0); }

/* Fog 03199000 */
static void fog_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"intensity", "skyIntensity", "distance"};
    mt_f32s(ar, f, 3);
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
    if (!mt_version_known(ar, version, 2, "fog 0x03199000")) return;
    mt_key_list(ar, "keys", 16 + (version >= 1 ? 16 : 0) + (version >= 2 ? 8 : 0), fog_key, version);
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
    mt_key_list(ar, "keys", 16, capturable_key, 0);
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
    if (!mt_version_known(ar, version, 2, "coloring base 0x03172000")) return;
    if (version >= 2) rb_ar_i32(ar, "u01");
    mt_key_list(ar, "keys", 8 + (version >= 1 ? 4 : 0) + (version >= 2 ? 2 : 0), coloring_base_key, version);
    if (version >= 1) rb_ar_i32(ar, "baseIndex");
}

/* Lightmap 030C0000 [GBX.NET] */
static void lightmap_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    mt_start_end(ar);
    if (version >= 1) rb_ar_f32(ar, "u01");
}

/* Blocks around a data tape node [GBX.NET]: BulletFx 03169000, CharVis 0316A000, CheatEmptyCars 0325E000 */
static void span_tape_000(rb_ar *ar)
{
    mt_start_end(ar);
    gbx_noderef(ar, "dataTape");
}

/* Turret 03294000 [GBX.NET] */
GBX_FIELDS_CHUNK(turret_000, {'u', "version"}, {'n', "dataTape"})

/* Scenery 03188000 [GBX.NET] */
static void scenery_key(rb_ar *ar, uint32_t v)
{
    static const char *const f[] = {"u01", "u02", "u03"};
    mt_f32s(ar, f, 3);
}

static void scenery_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    mt_key_list(ar, "keys", 16, scenery_key, version);
}

GBX_FIELDS_CHUNK(scenery_001, {'u', "version"}, {'i', "u01"}, {'n', "dataTape"})

/* OpponentVisibility 0338B000 [GBX.NET] */
static void visibility_001(rb_ar *ar) { rb_ar_u32(ar, "visibility"); }

/* Ui 0307D000 [GBX.NET] */
static void ui_000(rb_ar *ar)
{
    gbx_noderef(ar, "userInterface");
    mt_start_end(ar);
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
    RB_AR_LIST(ar, i, n) {
        uint64_t m = rb_ar_list_begin_n(ar, NULL, per_key, 12);
        if (rb_ar_ok(ar) && m != per_key)
            rb_ar_fail(ar, RB_E_MODEL, "has %llu positions, the block has %llu vertices", (unsigned long long)m,
                       (unsigned long long)per_key);
        RB_AR_LIST(ar, j, m) gbx_vec3(ar, NULL);
    }
    rb_ar_slot_set(ar, &count, per_key);
    *vertex_count = per_key;
}

static void triangles_001(rb_ar *ar)
{
    static const char *const u[] = {"u01", "u02", "u03"};
    mt_key_list(ar, "keys", 4, NULL, 0);
    uint64_t vertex_count = 0;
    triangle_positions(ar, &vertex_count);
    uint64_t n = rb_ar_list_begin(ar, "vertices", RB_U32, 16);
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_READ && n != vertex_count)
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "%llu vertices, but the key positions are for %llu",
                   (unsigned long long)n, (unsigned long long)vertex_count);
    RB_AR_LIST(ar, i, n) gbx_floats(ar, NULL, 4);
    gbx_int3_list(ar, "triangles");
    mt_i32s(ar, u, 3);
    rb_ar_f32(ar, "u04");
    rb_ar_i32(ar, "u05");
    rb_ar_u64(ar, "u06");
}

static void triangles_002(rb_ar *ar) { rb_ar_i32(ar, "u01"); }

/* ---------- the table ---------- */

static const gbx_chunk_def CHUNKS[] = {
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
    {0x240CF001, 0, "fx bloom (legacy)", bloom_001},
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
};

const gbx_chunk_table gbx_media_effects_chunks = {CHUNKS, sizeof CHUNKS / sizeof CHUNKS[0]};
