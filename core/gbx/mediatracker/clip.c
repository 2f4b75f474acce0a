/*
 * Media tracker containers: CGameCtnMediaClip (0x03079000), CGameCtnMediaClipGroup (0x0307A000),
 * CGameCtnMediaTrack (0x03078000, and the 2006 ids 0x0307B000), and CControlEffectSimi (0x07010000),
 * the placement keys of text and image blocks. Layouts: docs/formats/gbx_mediatracker.md.
 */
#include "core/gbx/mediatracker/mediatracker.h"

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
    if (!mt_version_known(ar, version, 1, "clip 0x0307900D")) return;
    clip_tracks_and_name(ar);
    gbx_fields(ar, GBX_FIELDS({'b', "stopWhenLeave"}, {'b', "u01"}, {'b', "stopWhenRespawn"}, {'s', "u02"},
                               {'f', "u03"}, {'i', "localPlayerClipEntIndex"}));
}

GBX_FIELDS_CHUNK(clip_00e, {'u', "version"}, {'i', "u01"})

/* ---------- CGameCtnMediaClipGroup 0x0307A000 ---------- */

/* A clip's trigger; its layout depends on the chunk (001 -> 1, 002 -> 2, 003 -> 3). */
static void trigger(rb_ar *ar, uint32_t version)
{
    static const char *const u[] = {"u01", "u02", "u03", "u04"};
    rb_ar_record_begin(ar, NULL);
    if (version <= 2) gbx_int3_list(ar, "coords");
    if (version >= 2) {
        mt_i32s(ar, u, 4);
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
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "triggers", RB_U32, 4)) trigger(ar, trigger_version);
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

GBX_FIELDS_CHUNK(track_004, {'b', "isKeepPlaying"}, {'b', "isReadOnly"})

static void track_005(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!mt_version_known(ar, version, 1, "track 0x03078005")) return;
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
    if (version >= 3) mt_f32s(ar, u, 4);
}

/* Chunks 001, 002, 004, 005: the chunk number is the key version. */
static void simi(rb_ar *ar, uint32_t version)
{
    uint64_t key_bytes = 24 + (version >= 1 ? 4 : 0) + (version >= 2 ? 4 : 0) + (version >= 3 ? 16 : 0);
    mt_key_list(ar, "keys", key_bytes, simi_key, version);
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

/* ---------- the table ---------- */

static const gbx_chunk_def CHUNKS[] = {
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
    {0x0307A001, 0, "clip group (trigger v1)", group_001},
    {0x0307A002, 0, "clip group (trigger v2)", group_002},
    {0x0307A003, 0, "clip group (trigger v3)", group_003},
    {0x0307A004, 1, "clip group 004", group_004},
    {0x03078001, 0, "track name and blocks", track_001},
    {0x03078002, 0, "track keep playing", track_002},
    {0x03078003, 0, "track read only", track_003},
    {0x03078004, 0, "track parameters (TMF)", track_004},
    {0x03078005, 0, "track parameters", track_005},
    {0x07010001, 0, "effect simi v1", simi_001},
    {0x07010002, 0, "effect simi v2", simi_002},
    {0x07010004, 0, "effect simi v4", simi_004},
    {0x07010005, 0, "effect simi v5", simi_005},
    {0x0307B001, 0, "track name and blocks (0x0307B)", track_001},
    {0x0307B002, 0, "track keep playing (0x0307B)", track_002},
    {0x0307B003, 0, "track read only (0x0307B)", track_003},
    {0x0307B004, 0, "track parameters (0x0307B)", track_004},
    {0x0307B005, 0, "track parameters (0x0307B)", track_005},
};

const gbx_chunk_table gbx_media_clip_chunks = {CHUNKS, sizeof CHUNKS / sizeof CHUNKS[0]};
