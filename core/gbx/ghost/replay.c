/*
 * Replays: CGameCtnReplayRecord (0x03093000; legacy 0x2403F000 / 0x2407E000), its header
 * chunks, and CPlugDataTape (0x090CE000). The old replays' event blocks (0x2407F000,
 * 0x24092000) are media blocks: see core/gbx/mediatracker/. Layouts: docs/formats/gbx_ghost.md
 * "CGameCtnReplayRecord 0x03093000", from GBX.NET's CGameCtnReplayRecord.chunkl / .cs.
 *
 * Body chunk 002 is the map the replay was driven on: a complete GBX file of its own (own
 * header, ids and node indices), described with gbx_embedded_file so the map is part of the
 * model and edits to it rebuild the embedded file and its size.
 */
#include "core/gbx/ghost/ghost.h"

static void i64_list(rb_ar *ar, const char *key)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, key, RB_U32, 8)) rb_ar_sint(ar, NULL, RB_I64);
}

/* ---------- header chunks ---------- */

/* 000: basic info. The version word is compared unsigned for the first part and signed for the
 * title part (GBX.NET reads it so): 0xFFFFFFFF (a TMU-era replay) has map, time, nickname and
 * login but no title. 9999 (GBX.NET's special value) has nothing. */
static void header_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version >= 4 && version != 9999) {
        gbx_meta(ar, "mapInfo");
        rb_ar_i32(ar, "time");
        gbx_string(ar, "playerNickname");
        if (version >= 6) gbx_string(ar, "playerLogin");
    }
    if ((int32_t)version > 7) {
        rb_ar_u8(ar, "u01");
        gbx_id(ar, "titleId");
    }
}

static void header_001(rb_ar *ar) { gbx_string(ar, "xml"); }

GBX_FIELDS_CHUNK(author_info, {'i', "authorVersion"}, {'s', "authorLogin"}, {'s', "authorNickname"},
                 {'s', "authorZone"}, {'s', "authorExtraInfo"})

static void header_002(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    author_info(ar);
}

/* ---------- body chunks ---------- */

static void replay_002(rb_ar *ar) { gbx_embedded_file(ar, "map"); }

/* 003: TM 1.0 validation: control names with their bindings, then the input events. The event
 * count is stored plus one. */
static void replay_003(rb_ar *ar)
{
    int32_t duration = rb_ar_i32(ar, "eventsDuration");
    if (duration == 0) return;
    rb_ar_u32(ar, "u01");
    gbx_fields_list(ar, "controlNames", 12, GBX_FIELDS({'u', "u01"}, {'u', "u02"}, {'s', "name"}));
    rb_slot count = rb_ar_slot(ar, "numInputs + 1", RB_U32);
    if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_ok(ar) && count.value == 0) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "an input count of 0 (stored plus one) is not known");
        return;
    }
    uint64_t k = rb_ar_count_of(ar, "inputs", count.value - 1);
    rb_ar_slot_set(ar, &count, k + 1);
    k = rb_ar_list_begin_n(ar, "inputs", k, 12);
    RB_AR_RECORDS(ar, i, k) {
        rb_ar_i32(ar, "time"); /* milliseconds + 10000, as stored */
        rb_ar_i32(ar, "controlNameIndex");
        rb_ar_u32(ar, "data");
    }
    rb_ar_u32(ar, "u02");
}

/* 004/014: the ghosts, then a time and SRecordUnit/SOldShowTime entries (8 bytes each). */
static void replay_004(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    gbx_noderef_deprec_list(ar, "ghosts");
    rb_ar_u32(ar, "u01");
    i64_list(ar, "u02");
}

static void replay_005(rb_ar *ar) { rb_ar_u32(ar, "u01"); }
static void replay_007(rb_ar *ar) { rb_ar_u32(ar, "u01"); }

static void replay_008(rb_ar *ar)
{
    gbx_string(ar, "exeVersion");
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "u01", RB_U32, 72)) {
        const rb_node *key = rb_ar_bytes(ar, NULL, RB_K_BLOB, 72);
        if (key && rb_ar_ok(ar) && key->v.bytes.size != 72)
            rb_ar_fail(ar, RB_E_MODEL, "an SOldCutKey2 entry must be 72 bytes, has %zu", key->v.bytes.size);
    }
}

static void replay_00c(rb_ar *ar) { gbx_noderef(ar, "clip"); }

/* 00D: validation (TMS/TMN): the input events only; the rest lives in 00F. */
static void replay_00d(rb_ar *ar)
{
    int32_t duration = rb_ar_i32(ar, "eventsDuration");
    if (duration != 0) gbx_ghost_inputs(ar);
}

static void replay_00e(rb_ar *ar) { gbx_noderef(ar, "events"); }

static void replay_010(rb_ar *ar) { gbx_noderef(ar, "simpleEventsDisplay"); }
static void replay_011(rb_ar *ar) { (void)ar; } /* no payload */

/* 013 (skippable; GBX.NET ignores it): one u32 in the corpus. */
static void replay_013(rb_ar *ar) { rb_ar_u32(ar, "u01"); }

static void replay_014(rb_ar *ar)
{
    gbx_noderef_deprec_list(ar, "ghosts");
    rb_ar_u32(ar, "u01");
    i64_list(ar, "u02");
}

static void replay_015(rb_ar *ar) { gbx_noderef(ar, "clip"); }

/* 018 (skippable): author. Its title id is an id of the body's shared table
 * (docs/formats/gbx.md "Lookback ids"). */
static void replay_018(rb_ar *ar)
{
    gbx_id(ar, "titleId");
    author_info(ar);
}

/* 01A: scenery vortex keys */
static void replay_01a(rb_ar *ar)
{
    rb_ar_u32(ar, "u01");
    gbx_fields_list(ar, "sceneryVortexKeys", 16, GBX_FIELDS({'f', "time"}, {'f', "u01"}, {'f', "u02"}, {'f', "u03"}));
    rb_ar_f32(ar, "u02");
    gbx_noderef(ar, "u03");
    rb_ar_i32(ar, "sceneryCapturableCount");
}

/* 01B: player of interest */
static void replay_01b(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    gbx_fields_list(ar, "u01", 8, GBX_FIELDS({'i', "x"}, {'i', "y"}));
}

/* 01E (actions), 022 (timed camera values), 023 (bonus bump keys): GBX.NET skips them; every
 * corpus replay stores them empty, so they are typed as the u32s they are (a chunk of another
 * length stays bytes; docs/formats/gbx_ghost.md "CGameCtnReplayRecord 0x03093000") */
static void replay_01e(rb_ar *ar)
{
    static const char *const names[] = {"u01", "u02", "u03"};
    rb_ar_u32(ar, "version");
    RB_AR_EACH(ar, i, 3) rb_ar_u32(ar, names[i]);
}

GBX_FIELDS_CHUNK(replay_022, {'u', "version"}, {'u', "u01"})

GBX_FIELDS_CHUNK(replay_023, {'u', "version"}, {'i', "u01"}, {'u', "u02"})

/* 01F: the scenery objects. Version 0 lists anchored object infos, later versions hold a
 * CGameReplayObjectVisData node, as the Object media block does (mediatracker/tm2020_blocks.c). GBX.NET's note
 * numbers them 1 and 2; the corpus stores version 1 with a null node reference. */
static void replay_01f(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version >= 1) {
        gbx_noderef(ar, "sceneryObjects");
        return;
    }
    gbx_anchored_object_infos(ar, "anchoredObjectInfos");
}

/* 020: item skins and names (GBX.NET's name; it skips the chunk): names, then skin packdescs */
GBX_FIELDS_CHUNK(replay_020, {'u', "version"}, {'S', "names"}, {'P', "skins"})

GBX_FIELDS_CHUNK(replay_01c, {'u', "version"}, {'s', "playgroundScript"})

/* 01D: interface script infos (version 0 only) */
static void replay_01d(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version > 0) {
        if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "replay 01D version %u is not known (0 is)", version);
        return;
    }
    gbx_fields_list(ar, "interfaceScriptInfos", 8, GBX_FIELDS({'S', "u01"}, {'i', "u02"}));
}

GBX_FIELDS_CHUNK(replay_021, {'u', "version"}, {'b', "u01"})

static void replay_024(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    gbx_noderef(ar, "u01"); /* CPlugDataTape */
    gbx_noderef(ar, "recordData");
}

GBX_FIELDS_CHUNK(replay_025, {'u', "version"}, {'f', "u01"}, {'i', "u02"})

/* 026: ent-data scene uids to ghosts; version 1 appends one more int per entry after the list. */
static void replay_026(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    uint64_t n = gbx_fields_list(ar, "entDataSceneUIdsToGhosts", 12,
                                 GBX_FIELDS({'i', "u01"}, {'i', "u02"}, {'i', "u03"}));
    if (version < 1) return;
    uint64_t k = rb_ar_list_begin_n(ar, "u04", n, 4);
    if (rb_ar_ok(ar) && k != n)
        rb_ar_fail(ar, RB_E_MODEL, "u04 has %llu entries, entDataSceneUIdsToGhosts %llu", (unsigned long long)k,
                   (unsigned long long)n);
    RB_AR_LIST(ar, i, k) rb_ar_i32(ar, NULL);
}

static void replay_027(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    gbx_string_list(ar, "u01");
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "u02", RB_U32, 5)) gbx_fileref(ar, NULL);
}

static void replay_028(rb_ar *ar) { rb_ar_i32(ar, "u01"); }
static void replay_029(rb_ar *ar) { gbx_noderef(ar, "challengeParameters"); }

/* ---------- CPlugDataTape ---------- */

static void data_tape_001(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    rb_ar_i32(ar, "u01");
    uint64_t n = rb_ar_list_begin(ar, "u02", RB_U32, 4);
    RB_AR_LIST(ar, i, n) rb_ar_i32(ar, NULL);
    n = rb_ar_list_begin(ar, "u03", RB_U32, 4);
    RB_AR_LIST(ar, i, n) rb_ar_i32(ar, NULL);
    gbx_data_blob(ar, "u04");
    rb_ar_i32(ar, "u05");
    gbx_data_blob(ar, "u06");
}

static const gbx_chunk_def REPLAY_CHUNKS[] = {
    {0x03093002, 0, "map", replay_002},
    {0x03093003, 0, "validation (TM1.0)", replay_003},
    {0x03093004, 0, "ghosts (old)", replay_004},
    {0x03093005, 0, "replay 005", replay_005},
    {0x03093007, 1, "replay 007", replay_007},
    {0x03093008, 1, "game", replay_008},
    {0x0309300C, 0, "clip (old)", replay_00c},
    {0x0309300D, 0, "validation", replay_00d},
    {0x0309300E, 0, "events", replay_00e},
    {0x0309300F, 1, "validation data", gbx_ghost_validation_data},
    {0x03093010, 0, "simple events display", replay_010},
    {0x03093011, 0, "replay 011", replay_011},
    {0x03093013, 1, "replay 013", replay_013},
    {0x03093014, 0, "ghosts", replay_014},
    {0x03093015, 0, "clip", replay_015},
    {0x03093018, 1, "author", replay_018},
    {0x0309301A, 1, "scenery vortex keys", replay_01a},
    {0x0309301B, 1, "player of interest", replay_01b},
    {0x0309301C, 1, "playground script", replay_01c},
    {0x0309301D, 1, "interface script infos", replay_01d},
    {0x0309301E, 1, "actions", replay_01e},
    {0x0309301F, 1, "anchored object infos", replay_01f},
    {0x03093020, 1, "item skins and names", replay_020},
    {0x03093021, 1, "replay 021", replay_021},
    {0x03093022, 1, "timed cam val", replay_022},
    {0x03093023, 1, "bonus bump key", replay_023},
    {0x03093024, 0, "record data", replay_024},
    {0x03093025, 1, "replay 025", replay_025},
    {0x03093026, 1, "ent-data scene uids to ghosts", replay_026},
    {0x03093027, 1, "replay 027", replay_027},
    {0x03093028, 1, "replay 028", replay_028},
    {0x03093029, 1, "challenge parameters", replay_029},
    {0x090CE001, 0, "data tape", data_tape_001},
};

const gbx_chunk_table gbx_replay_chunks = {REPLAY_CHUNKS, sizeof REPLAY_CHUNKS / sizeof REPLAY_CHUNKS[0]};

static const gbx_chunk_def REPLAY_HEADER_CHUNKS[] = {
    {0x03093000, 0, "basic", header_000},
    {0x03093001, 0, "xml", header_001},
    {0x03093002, 0, "author", header_002},
};

const gbx_chunk_table gbx_replay_header_chunks = {REPLAY_HEADER_CHUNKS,
                                                  sizeof REPLAY_HEADER_CHUNKS / sizeof REPLAY_HEADER_CHUNKS[0]};
