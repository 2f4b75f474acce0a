/*
 * The TM2020-era media blocks that hold recorded or placed things rather than an effect: Entity
 * (a recorded entity, its CPlugEntRecordData typed by ghost/ent_record.c), Object (anchored
 * objects shown in a replay, with CGameReplayObjectVisData), Skel (skeleton poses) and Decal2d.
 * No corpus file has one; the layouts are GBX.NET's chunkl files, and fixtures made by the
 * project's writer round-trip each (docs/formats/gbx_mediatracker.md "TM2020 blocks").
 */
#include "core/gbx/mediatracker/mediatracker.h"

/* ---------- Entity 0329F000 ---------- */

/* highest version GBX.NET's reading knows; a later one is refused rather than guessed */
enum { ENTITY_VERSION_MAX = 11, OBJECT_VERSION_MAX = 1, SKEL_VERSION_MAX = 4 };

static void entity_key(rb_ar *ar, uint32_t version)
{
    rb_ar_i32(ar, "lights"); /* 0 auto, 1 on, 2 off */
    if (version < 6) return;
    gbx_fields(ar, GBX_FIELDS({'f', "u01"}, {'i', "u02"}, {'i', "u03"}, {'f', "trailIntensity"}));
    if (version >= 9) rb_ar_f32(ar, "selfIllumIntensity");
}

void gbx_player_badge(rb_ar *ar, unsigned version_wire)
{
    rb_ar_record_begin(ar, "badge");
    uint64_t version = rb_ar_uint(ar, "version", version_wire);
    gbx_vec3(ar, "color");
    if (version == 0) {
        rb_ar_i32(ar, "u01");
        gbx_string(ar, "u02");
    }
    gbx_fields_list(ar, "stickers", 8, GBX_FIELDS({'s', "u01"}, {'s', "u02"}));
    gbx_string_list(ar, "layers");
    rb_ar_record_end(ar);
}

/* The entity's look: lights, skins, badge, keys, ghost name, by version (2 and later). */
static void entity_look(rb_ar *ar, uint32_t version)
{
    static const char *const flags[] = {"noDamage", "u01", "forceLight", "forceHue"};
    mt_bools(ar, flags, 4);
    if (version <= 5) gbx_vec3(ar, "lightTrailColor");
    if (version < 3) return;
    if (version >= 11) rb_ar_i32(ar, "u02");
    gbx_meta(ar, "playerModel");
    gbx_vec3(ar, "u03");
    gbx_fileref_list(ar, "skinNames");
    if (gbx_bool(ar, "hasBadges")) gbx_player_badge(ar, RB_U32);
    if (version < 4) return;
    if (version >= 11) gbx_string(ar, "skinOptions");
    mt_key_list(ar, "keys", version >= 9 ? 28 : version >= 6 ? 24 : 8, entity_key, version);
    if (version == 5) rb_ar_f32(ar, "u04");
    if (version < 7) return;
    gbx_string(ar, "ghostName");
    if (version < 8) return;
    rb_ar_i32(ar, "u05");
    if (version >= 11) {
        rb_ar_i32(ar, "u06");
        rb_ar_i32(ar, "u07");
    }
}

static void entity_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!mt_version_known(ar, version, ENTITY_VERSION_MAX, "media block entity")) return;
    gbx_noderef(ar, "recordData");
    if (version <= 3) mt_start_end(ar); /* from 4 on, the keys carry the times */
    rb_ar_f32(ar, "startOffset");
    gbx_i32_list(ar, "noticeRecords");
    if (version >= 2) entity_look(ar, version);
}

static void entity_002(rb_ar *ar) { gbx_string(ar, "skinOptions"); }

/* ---------- Object 03196000 and its CGameReplayObjectVisData 031A8000 ---------- */

/* also replay chunk 0x0309301F's version 0 (ghost/replay.c) */
void gbx_anchored_object_infos(rb_ar *ar, const char *key)
{
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, key, RB_U32, 24)) {
        gbx_fields(ar, GBX_FIELDS({'b', "u01"}, {'i', "u02"}, {'f', "u03"}, {'f', "u04"}, {'f', "u05"}, {'i', "u06"}));
    }
}

static void object_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!mt_version_known(ar, version, OBJECT_VERSION_MAX, "media block object")) return;
    mt_start_end(ar);
    if (version == 0) gbx_anchored_object_infos(ar, "anchoredObjectInfos");
    else gbx_noderef(ar, "visData");
}

/* a list of records of `count` i32 fields named u01, u02, ... */
static void i32_records(rb_ar *ar, const char *key, int count)
{
    static const char *const names[] = {"u01", "u02", "u03", "u04", "u05", "u06", "u07", "u08", "u09", "u10"};
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, key, RB_U32, (uint64_t)count * 4)) mt_i32s(ar, names, count);
}

static void object_vis_000(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    i32_records(ar, "keys", 10);
    i32_records(ar, "visList", 5);
}

/* ---------- Skel 0314A000 ---------- */

static void skel_key(rb_ar *ar, uint32_t version)
{
    static const char *const head[] = {"u01", "u02", "u03", "u04"};
    static const char *const transquat[] = {"tx", "ty", "tz", "x", "y", "z", "w"};
    if (version >= 2) mt_f32s(ar, head, 4);
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "bones", RB_U32, 28)) mt_f32s(ar, transquat, 7);
}

static void skel_000(rb_ar *ar)
{
    static const char *const tail[] = {"u07", "u08", "u09", "u10"};
    uint32_t version = rb_ar_u32(ar, "version");
    if (!mt_version_known(ar, version, SKEL_VERSION_MAX, "media block skel")) return;
    mt_key_list(ar, "keys", version >= 2 ? 24 : 8, skel_key, version);
    if (version < 1) return;
    rb_ar_i32(ar, "u05");
    if (version == 4) rb_ar_i32(ar, "u06");
    if (version < 3) return;
    mt_f32s(ar, tail, 4);
    if (version >= 4) rb_ar_f32(ar, "u11");
}

/* ---------- Decal2d 031AA000 ---------- */

static void decal2d_000(rb_ar *ar)
{
    mt_start_end(ar);
    gbx_fileref_list(ar, "images");
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "decals", RB_U32, 72)) {
        gbx_floats(ar, "location", 12); /* iso4: a 3x3 rotation, then the translation */
        gbx_fields(ar, GBX_FIELDS({'v', "scale"}, {'f', "u01"}, {'b', "u02"}, {'i', "u03"}));
    }
}

static const gbx_chunk_def ENTITY_CHUNKS[] = {
    {0x0329F000, 0, "media block entity", entity_000},
    {0x0329F002, 0, "media block entity skin options", entity_002},
    {0x03196000, 0, "media block object", object_000},
    {0x031A8000, 0, "replay object vis data", object_vis_000},
    {0x0314A000, 0, "media block skel", skel_000},
    {0x031AA000, 0, "media block decal 2d", decal2d_000},
};

const gbx_chunk_table gbx_media_entity_chunks = {ENTITY_CHUNKS, sizeof ENTITY_CHUNKS / sizeof ENTITY_CHUNKS[0]};
