/*
 * Media tracker blocks of TrackMania Nations/United replays: CCtnMediaBlockEventTrackMania (0x2407F000),
 * the simple events display (0x24092000) and the UI controls a CGameCtnMediaBlockUi reaches
 * (CSceneObject, CSceneMobil, CControlBase, CControlContainer, CControlList).
 * Layouts: docs/formats/gbx_mediatracker.md.
 */
#include "core/gbx/mediatracker/mediatracker.h"

/* ---------- CCtnMediaBlockEventTrackMania 2407F000 (TMN-TMU replays) ---------- */

static void stunt_fields(rb_ar *ar)
{
    static const char *const head[] = {"figure", "angle", "score"};
    static const char *const b[] = {"straight", "u01", "u02", "u03"};
    mt_i32s(ar, head, 3);
    rb_ar_f32(ar, "factor");
    mt_bools(ar, b, 4);
    rb_ar_i32(ar, "combo");
    rb_ar_i32(ar, "totalScore");
}

static void event_000(rb_ar *ar)
{
    mt_start_end(ar);
    gbx_bool(ar, "u01");
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "stunts", RB_U32, 44)) {
        rb_ar_f32(ar, "time");
        stunt_fields(ar);
    }
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
    mt_start_end(ar);
    gbx_bool(ar, "u01");
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "events", RB_U32, 13)) event(ar);
}

/* CCtnMediaBlockUiTMSimpleEvtsDisplay 24092000 [GBX.NET] */
static void evts_display_000(rb_ar *ar) { rb_ar_i32(ar, "displayMode"); }

static void evts_display_001(rb_ar *ar)
{
    static const char *const b[] = {"stuntFigures", "checkpoints", "endOfRace", "endOfLaps", "ghostsName"};
    mt_bools(ar, b, 5);
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
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "objectLink", RB_U32, 4)) gbx_noderef(ar, NULL);
}

static void scene_mobil_004(rb_ar *ar) { gbx_noderef(ar, "u01"); }
/* A direct CHmsItem (its chunks up to the end marker, as block info mobils store it); the 2006
 * replay stores a single u32 0 instead, which GBX.NET's CHmsItem takes as an empty chunk stream. */
static void scene_mobil_005(rb_ar *ar)
{
    uint32_t next = 0;
    int empty = rb_ar_direction(ar) == RB_AR_READ && rb_ar_peek_u32(ar, &next) && next == 0;
    if (rb_ar_has(ar, "item", !empty)) {
        gbx_node_direct(ar, "item");
    } else if (rb_ar_i32(ar, "u01") != 0 && rb_ar_ok(ar)) {
        /* any other value would be read back as the first chunk id of an item */
        rb_ar_fail(ar, RB_E_FORMAT, "a mobil without item stores 0 here, not another number");
    }
}
static void scene_mobil_006(rb_ar *ar) { gbx_noderef(ar, "messageHandler"); }

static void control_base_00c(rb_ar *ar)
{
    static const char *const u[] = {"u01", "u02", "u03", "u04"};
    mt_i32s(ar, u, 4);
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
    mt_i32s(ar, u, 3);
}

static void control_list_007(rb_ar *ar)
{
    static const char *const u[] = {"u01", "u02", "u03", "u04", "u05", "u06", "u07"};
    mt_i32s(ar, u, 7);
    gbx_fields_list(ar, "u08", 20, GBX_FIELDS({'s', "u01"}, {'f', "u02"}, {'n', "u03"}, {'I', "u04"}, {'b', "u05"}));
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
    mt_f32s(ar, f, 3);
    rb_ar_i32(ar, "u04");
    gbx_bool(ar, "u05");
    gbx_id(ar, "u06");
    if (rb_ar_has(ar, "u07", id_is_empty(ar, "u06"))) gbx_noderef(ar, "u07");
    rb_ar_f32(ar, "u08");
    rb_ar_f32(ar, "u09");
    gbx_bool(ar, "u10");
}

/* ---------- the table ---------- */

static const gbx_chunk_def CHUNKS[] = {
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
    {0x2407F000, 0, "stunt events", event_000},
    {0x2407F003, 0, "race events", event_003},
    {0x24092000, 0, "simple events display 000", evts_display_000},
    {0x24092001, 0, "simple events display", evts_display_001},
    {0x24092002, 0, "simple events display 002", evts_display_002},
};

const gbx_chunk_table gbx_media_replay_ui_chunks = {CHUNKS, sizeof CHUNKS / sizeof CHUNKS[0]};
