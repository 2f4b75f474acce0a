/*
 * Ghosts: CGameGhost (0x0303F000, the recorded samples), CGameCtnGhost (0x03092000, the
 * player, times, inputs and validation data) and CPlugEntRecordData (0x0911F000, TM2020-era
 * entity records). Layouts: docs/formats/gbx_ghost.md "What is typed", from GBX.NET's
 * CGameCtnGhost.chunkl / .cs, CGameGhost.chunkl / .Data.cs and CPlugEntRecordData.cs.
 *
 * Sample data and entity records are zlib streams: they are described with the stream API, so
 * the original compressed bytes are written back while their content is unchanged and the
 * content is re-encoded when it was edited. Key names are GBX.NET property names, camelCase.
 */
#include "core/gbx/ghost/ghost.h"
#include "core/gbx/mediatracker/mediatracker.h"

/* ---------- small building blocks ---------- */

/* A checksum or key of a fixed size: an edit must keep its length. */
static void fixed_blob(rb_ar *ar, const char *key, uint64_t size)
{
    const rb_node *n = rb_ar_bytes(ar, key, RB_K_BLOB, size);
    if (n && rb_ar_ok(ar) && n->v.bytes.size != size)
        rb_ar_fail_field(ar, RB_E_MODEL, key, "must be exactly %llu bytes, has %zu", (unsigned long long)size,
                         n->v.bytes.size);
}

static void unsupported_version(rb_ar *ar, const char *what, uint32_t version)
{
    if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "%s version %u is not known", what, version);
}

/* ---------- CGameGhost: sample data ---------- */

/* The old (TM 1.0 - TMN) samples: raw state bytes, then how to cut and time them. */
static void ghost_003(rb_ar *ar)
{
    rb_ar_record_begin(ar, "sampleData");
    gbx_data_blob(ar, "rawData");
    gbx_fields(ar, GBX_FIELDS({'L', "offsets"}, {'L', "stateTimes"}, {'b', "isFixedTimeStep"}, {'i', "samplePeriod"},
                               {'i', "version"}));
    rb_ar_record_end(ar);
}

static void ghost_004(rb_ar *ar) { rb_ar_x32(ar, "savedMobilClassId"); }

/* WRITE: a stored size that disagrees with the samples written would cut them wrongly. */
static void check_stored_size(rb_ar *ar, const ghost_sample_sizes *cut, uint32_t i, int32_t stored, const char *what)
{
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_WRITE && cut->typed && i < cut->count &&
        (uint32_t)stored != cut->size_of[i])
        rb_ar_fail(ar, RB_E_MODEL, "%s says %d bytes, sample %u has %u", what, stored, i, cut->size_of[i]);
}

/* Sample sizes: one per sample but the last, or one size for all. */
static void sample_layout(rb_ar *ar, const ghost_sample_sizes *cut)
{
    int32_t samples = rb_ar_i32(ar, "numSamples");
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_WRITE && cut->typed && (uint32_t)samples != cut->count)
        rb_ar_fail(ar, RB_E_MODEL, "numSamples is %d, the state buffer has %u samples", samples, cut->count);
    if (samples <= 0) return;
    rb_ar_i32(ar, "firstSampleOffset");
    if (samples == 1) return;
    int32_t size_per_sample = rb_ar_i32(ar, "sizePerSample");
    if (size_per_sample != -1) {
        for (uint32_t i = 0; cut->typed && i < cut->count; i++) check_stored_size(ar, cut, i, size_per_sample, "sizePerSample");
        return;
    }
    uint64_t n = rb_ar_list_begin_n(ar, "sampleSizes", (uint64_t)samples - 1, 4);
    if (rb_ar_ok(ar) && n != (uint64_t)samples - 1)
        rb_ar_fail(ar, RB_E_MODEL, "sampleSizes has %llu entries; numSamples %d needs %d", (unsigned long long)n,
                   samples, samples - 1);
    RB_AR_LIST(ar, i, n) check_stored_size(ar, cut, (uint32_t)i, rb_ar_i32(ar, NULL), "sampleSizes");
}

/* The decompressed samples of 005/006 (CGameGhostTMData; GBX.NET marks the tail as guessed). */
static void sample_content_typed(rb_ar *ar)
{
    uint32_t mobil = rb_ar_x32(ar, "savedMobilClassId");
    if (mobil == 0xFFFFFFFFu) return;
    uint32_t fixed_step = gbx_bool(ar, "isFixedTimeStep");
    rb_ar_i32(ar, "u01");
    rb_ar_i32(ar, "samplePeriod");
    int32_t version = rb_ar_i32(ar, "version");
    ghost_sample_sizes cut = {0};
    gbx_ghost_state_buffer(ar, mobil, version, &cut);
    sample_layout(ar, &cut);
    if (!fixed_step) gbx_i32_list(ar, "stateTimes");
    /* GBX.NET guesses a trailing i32 from version 10 on; TMT ghosts (version >= 10) end without
     * it, so the bytes left decide. */
    if (version >= 10 && rb_ar_has(ar, "u02", !rb_ar_at_end(ar))) rb_ar_i32(ar, "u02");
}

/* Typed when the known layout reads the content exactly; otherwise the content stays opaque. */
static void sample_content(rb_ar *ar)
{
    if (rb_ar_direction(ar) == RB_AR_READ) {
        gbx_mark m = gbx_mark_here(ar);
        sample_content_typed(ar);
        if (rb_ar_ok(ar) && rb_ar_at_end(ar)) return;
        char why[300];
        gbx_rewind(ar, &m, why, sizeof why);
        rb_ar_note(ar, "ghost samples kept opaque: the known layout does not read them exactly%s%s",
                   why[0] ? ": " : "", why);
    } else if (!rb_ar_has(ar, "opaque", 0)) {
        sample_content_typed(ar);
        return;
    }
    rb_ar_rest(ar, "opaque");
}

/* i32 content size, i32 compressed size, zlib stream. */
static void zlib_stream(rb_ar *ar, const char *key, void (*content)(rb_ar *))
{
    rb_slot content_size = rb_ar_slot(ar, "uncompressedSize", RB_U32);
    rb_slot encoded_size = rb_ar_slot(ar, "compressedSize", RB_U32);
    rb_ar_stream_begin(ar, key, &rb_codec_zlib, content_size.value, encoded_size.value);
    content(ar);
    rb_ar_stream_end(ar, &content_size, &encoded_size);
}

/* 007 (skippable; GBX.NET ignores it): one u32 (0) in every corpus file. */
static void ghost_007(rb_ar *ar) { rb_ar_u32(ar, "u01"); }

static void ghost_005(rb_ar *ar) { zlib_stream(ar, "sampleData", sample_content); }

static void ghost_006(rb_ar *ar)
{
    gbx_bool(ar, "isReplaying");
    zlib_stream(ar, "sampleData", sample_content);
}

/* ---------- CGameCtnGhost ---------- */

/* 000 (skippable): appearance. Defines ids in the body's table (player model), so it must be
 * typed for later references to resolve (docs/formats/gbx.md "Lookback ids"); v5+ holds a
 * CPlugEntRecordData node. */
static void ctn_ghost_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    uint32_t appearance = version >= 9 ? rb_ar_u32(ar, "appearanceVersion") : 0;
    gbx_meta(ar, "playerModel");
    gbx_vec3(ar, "lightTrailColor");
    gbx_fileref_list(ar, "skinPackDescs");
    if (gbx_bool(ar, "hasBadges")) gbx_player_badge(ar, RB_I32);
    if (appearance >= 1) gbx_string(ar, "u01");
    gbx_string(ar, "ghostNickname");
    gbx_string(ar, "ghostAvatarName");
    if (version >= 2) gbx_string(ar, "recordingContext");
    if (version >= 4) gbx_bool(ar, "u02");
    if (version >= 5) {
        gbx_noderef(ar, "recordData");
        gbx_i32_list(ar, "u03");
    }
    if (version >= 6) gbx_string(ar, "ghostTrigram");
    if (version >= 7) gbx_string(ar, "ghostZone");
    if (version >= 8) gbx_string(ar, "ghostClubTag");
}

GBX_FIELDS_CHUNK(ctn_ghost_003, {'M', "playerModel"}, {'s', "skinFile"}, {'s', "ghostNickname"})

/* Checkpoints: time, then the speed (archive v0, chunk 004) or the stunts score (v1, 00B). */
static void checkpoints(rb_ar *ar, int with_score)
{
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "checkpoints", RB_U32, 8)) {
        rb_ar_i32(ar, "time");
        if (with_score) rb_ar_i32(ar, "stuntsScore");
        else rb_ar_f32(ar, "speed");
    }
}

static void ctn_ghost_004(rb_ar *ar) { checkpoints(ar, 0); }
static void ctn_ghost_005(rb_ar *ar) { rb_ar_i32(ar, "raceTime"); }

GBX_FIELDS_CHUNK(ctn_ghost_006, {'M', "playerModel"}, {'s', "skinFile"}, {'u', "u01"}, {'s', "ghostNickname"})

static void ctn_ghost_007(rb_ar *ar) { gbx_vec3(ar, "lightTrailColor"); }
static void ctn_ghost_008(rb_ar *ar) { rb_ar_i32(ar, "respawns"); }
static void ctn_ghost_00a(rb_ar *ar) { rb_ar_i32(ar, "stuntScore"); }
static void ctn_ghost_00b(rb_ar *ar) { checkpoints(ar, 1); }
static void ctn_ghost_00c(rb_ar *ar) { rb_ar_u32(ar, "u01"); }

static void ctn_ghost_00d(rb_ar *ar)
{
    static const char *const keys[] = {"u01", "u02", "u03", "u04"};
    gbx_meta(ar, "playerModel");
    gbx_string(ar, "skinFile");
    RB_AR_EACH(ar, i, 4) rb_ar_u32(ar, keys[i]);
    gbx_string(ar, "ghostNickname");
}

static void ctn_ghost_00e(rb_ar *ar) { gbx_id(ar, "ghostUid"); }
static void ctn_ghost_00f(rb_ar *ar) { gbx_string(ar, "ghostLogin"); }
static void ctn_ghost_010(rb_ar *ar) { gbx_id(ar, "validateChallengeUid"); }

/* Inputs and validation data after an events duration. */
static void inputs_and_validation(rb_ar *ar)
{
    gbx_ghost_inputs(ar);
    gbx_ghost_validation_data(ar);
}

/* 011: validation (TMU). An events duration of 0 means nothing else is stored. */
static int32_t validation_011(rb_ar *ar)
{
    int32_t duration = rb_ar_i32(ar, "eventsDuration");
    if (duration != 0) inputs_and_validation(ar);
    return duration;
}

static void ctn_ghost_011(rb_ar *ar) { validation_011(ar); }

static void ctn_ghost_012(rb_ar *ar)
{
    rb_ar_u32(ar, "u01");
    fixed_blob(ar, "securityKey128", 16);
}

GBX_FIELDS_CHUNK(ctn_ghost_013, {'i', "u01"}, {'i', "u02"})

static void ctn_ghost_014(rb_ar *ar) { rb_ar_i32(ar, "ghostVersion"); }
static void ctn_ghost_015(rb_ar *ar) { gbx_id(ar, "ghostNickname"); }

GBX_FIELDS_CHUNK(ctn_ghost_017, {'P', "skinPackDescs"}, {'s', "ghostNickname"}, {'s', "ghostAvatarName"})

static void ctn_ghost_018(rb_ar *ar) { gbx_meta(ar, "playerModel"); }

/* 019: validation (TMUF) = 011 + the validation seed. */
static int32_t validation_019(rb_ar *ar)
{
    int32_t duration = validation_011(ar);
    if (duration != 0) rb_ar_i32(ar, "validateValidationSeed");
    return duration;
}

static void ctn_ghost_019(rb_ar *ar) { validation_019(ar); }
static void ctn_ghost_01a(rb_ar *ar) { rb_ar_i32(ar, "checkpointCount"); }
static void ctn_ghost_01c(rb_ar *ar) { fixed_blob(ar, "securityKey256", 32); }

/* 01D: player inputs (ManiaPlanet 4 / TM2020). */
static void ctn_ghost_01d(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "playerInputs", RB_U32, 16)) {
        rb_ar_i32(ar, "version");
        rb_ar_i32(ar, "u01");
        if (version >= 4) rb_ar_i32(ar, "startOffset"); /* by the chunk's version, not the entry's */
        rb_ar_i32(ar, "ticks");
        gbx_data_blob(ar, "data");
    }
}

static void settings_info(rb_ar *ar, uint32_t version)
{
    rb_ar_record_begin(ar, NULL);
    gbx_fields(ar, GBX_FIELDS({'b', "u01"}, {'b', "u02"}, {'y', "u03"}, {'b', "u04"}, {'f', "u05"}, {'b', "u06"},
                               {'f', "u07"}, {'f', "u08"}));
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "u09", RB_U32, 4)) rb_ar_f32(ar, NULL);
    gbx_string(ar, "u10");
    if (version >= 3) gbx_int3(ar, "u11");
    if (version >= 4) rb_ar_f32(ar, "u12");
    rb_ar_record_end(ar);
}

/* 022: settings info */
static void ctn_ghost_022(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version <= 1) {
        gbx_fields_list(ar, "oldSettings", 12, GBX_FIELDS({'i', "u01"}, {'i', "u02"}, {'i', "u03"}));
        return;
    }
    uint64_t n = rb_ar_list_begin(ar, "settings", RB_U32, 40);
    RB_AR_LIST(ar, i, n) settings_info(ar, version);
}

/* 023: anticheat data */
static void ctn_ghost_023(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    gbx_fields(ar, GBX_FIELDS({'s', "u01"}, {'i', "u02"}, {'s', "u03"}, {'i', "u04"}, {'i', "u05"}, {'s', "u06"},
                               {'i', "u07"}, {'s', "u08"}));
    if (version >= 2) {
        rb_ar_u8(ar, "u09");
        rb_ar_i32(ar, "u10");
        rb_ar_i32(ar, "u11");
    }
    if (version >= 3) {
        rb_ar_u8(ar, "u12");
        rb_ar_u8(ar, "u13");
    }
}

/* 024: match replay separators */
static void ctn_ghost_024(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    gbx_fields_list(ar, "matchReplaySeparators", 8, GBX_FIELDS({'i', "u01"}, {'i', "u02"}));
}

/* 025 (skippable): validation (TM2). Its input names are ids of the body's shared table
 * (docs/formats/gbx.md "Lookback ids"), so it must be typed for later references to resolve. */
static void ctn_ghost_025(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version == 0) {
        if (validation_019(ar) != 0) gbx_bool(ar, "steeringWheelSensitivity");
        return;
    }
    rb_ar_i32(ar, "eventsDuration");
    inputs_and_validation(ar);
    rb_ar_i32(ar, "validateValidationSeed");
    gbx_bool(ar, "steeringWheelSensitivity");
}

static void ctn_ghost_026(rb_ar *ar) { fixed_blob(ar, "ghostUid128", 16); }

/* 027: timed pixel arrays (CPlugTimedPixelArray nodes) */
static void ctn_ghost_027(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    gbx_noderef_list(ar, "timedPixelArrays");
    if (version >= 1) gbx_i32_list(ar, "u01");
    if (version >= 3) gbx_noderef_list(ar, "u02");
}

/* 028: title id; empty when the ghost has no events (GBX.NET decides from 019/025, whose
 * events duration a skippable chunk cannot see: the chunk's size tells the same). */
static void ctn_ghost_028(rb_ar *ar)
{
    if (!rb_ar_has(ar, "validateTitleId", !rb_ar_at_end(ar))) return;
    gbx_string(ar, "validateTitleId");
    fixed_blob(ar, "validateTitleChecksum", 32);
}

GBX_FIELDS_CHUNK(ctn_ghost_029, {'u', "version"}, {'i', "u01"}, {'s', "u02"}, {'s', "u03"}, {'s', "u04"})

GBX_FIELDS_CHUNK(ctn_ghost_02a, {'i', "u01"}, {'i', "u02"})

/* 01B (race result; GBX.NET skips it): two u16, a list of i32 and one or two i32 around them;
 * the list's u16 count comes first in version 2, after the two u16 in version 1
 * (docs/formats/gbx_ghost.md "CGameCtnGhost 0x03092000") */
static void ctn_ghost_01b(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version < 1 || version > 2) {
        if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "race result version %u is not known (1, 2 are)", version);
        return;
    }
    if (version == 1) rb_ar_i32(ar, "u04");
    rb_slot count = {0};
    if (version == 2) count = rb_ar_slot(ar, "count", RB_U16);
    rb_ar_u16(ar, "u01");
    rb_ar_u16(ar, "u02");
    if (version == 1) count = rb_ar_slot(ar, "count", RB_U16);
    uint64_t k = rb_ar_count_of(ar, "u03", count.value);
    rb_ar_slot_set(ar, &count, k);
    k = rb_ar_list_begin_n(ar, "u03", k, 4);
    RB_AR_LIST(ar, i, k) rb_ar_i32(ar, NULL);
    if (version == 1) return;
    rb_ar_i32(ar, "u04");
    rb_ar_i32(ar, "u05");
}

/* 02B (TM2020; GBX.NET skips it): version 1, four i32, a list of {time, i32}, an i32 */
static void ctn_ghost_02b(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version != 1) {
        if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "ghost 02B version %u is not known (1 is)", version);
        return;
    }
    gbx_fields(ar, GBX_FIELDS({'i', "u01"}, {'i', "u02"}, {'i', "u03"}, {'i', "u04"}));
    gbx_fields_list(ar, "u05", 8, GBX_FIELDS({'i', "time"}, {'i', "u06"}));
    rb_ar_i32(ar, "u07");
}

GBX_FIELDS_CHUNK(ctn_ghost_02c, {'u', "version"}, {'u', "walltimeStartTimestamp"}, {'u', "walltimeEndTimestamp"})

/* 02D: validation (TM2020, inputs stored elsewhere when u01 >= 1). */
static void ctn_ghost_02d(rb_ar *ar)
{
    int32_t inputs_elsewhere = rb_ar_i32(ar, "u01");
    if (inputs_elsewhere >= 1) {
        if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "ghost 02D with inputs (u01 = %d) is not known", inputs_elsewhere);
        return;
    }
    gbx_ghost_validating_build(ar);
    rb_ar_u32(ar, "walltimeStartTimestamp");
    rb_ar_u32(ar, "walltimeEndTimestamp");
    gbx_string(ar, "validateTitleId");
    fixed_blob(ar, "validateTitleChecksum", 32);
    gbx_fields(ar, GBX_FIELDS({'i', "u02"}, {'i', "u03"}, {'i', "validateValidationSeed"}, {'i', "u04"},
                               {'s', "validateRaceSettings"}));
}

static void ctn_ghost_02e(rb_ar *ar) { gbx_string(ar, "u01"); }

/* ---------- CPlugEntRecordData ---------- */

static void ent_record_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version < 5) { /* uncompressed records of early versions: layout not known */
        unsupported_version(ar, "CPlugEntRecordData (uncompressed)", version);
        return;
    }
    zlib_stream(ar, "compressedData", gbx_ent_record_content);
}

static const gbx_chunk_def GHOST_CHUNKS[] = {
    {0x0303F003, 0, "ghost samples (old)", ghost_003},
    {0x0303F004, 0, "saved mobil class", ghost_004},
    {0x0303F005, 0, "ghost samples", ghost_005},
    {0x0303F006, 0, "ghost samples, replaying", ghost_006},
    {0x0303F007, 1, "ghost 007", ghost_007},
    {0x03092000, 1, "ghost appearance", ctn_ghost_000},
    {0x03092003, 0, "ghost player (TM1.0)", ctn_ghost_003},
    {0x03092004, 1, "checkpoints (TMPU)", ctn_ghost_004},
    {0x03092005, 1, "race time", ctn_ghost_005},
    {0x03092006, 0, "ghost player (TMS)", ctn_ghost_006},
    {0x03092007, 0, "old light trail color", ctn_ghost_007},
    {0x03092008, 1, "respawns", ctn_ghost_008},
    {0x03092009, 1, "light trail color", ctn_ghost_007},
    {0x0309200A, 1, "stunt score", ctn_ghost_00a},
    {0x0309200B, 1, "checkpoint times", ctn_ghost_00b},
    {0x0309200C, 0, "ghost 00C", ctn_ghost_00c},
    {0x0309200D, 0, "ghost player (TMU)", ctn_ghost_00d},
    {0x0309200E, 0, "ghost uid", ctn_ghost_00e},
    {0x0309200F, 0, "ghost login", ctn_ghost_00f},
    {0x03092010, 0, "validation map uid", ctn_ghost_010},
    {0x03092011, 0, "validation (TMU)", ctn_ghost_011},
    {0x03092012, 0, "old security key", ctn_ghost_012},
    {0x03092013, 1, "ghost 013", ctn_ghost_013},
    {0x03092014, 1, "ghost version", ctn_ghost_014},
    {0x03092015, 0, "ghost nickname", ctn_ghost_015},
    {0x03092017, 1, "ghost metadata", ctn_ghost_017},
    {0x03092018, 0, "player model", ctn_ghost_018},
    {0x03092019, 0, "validation (TMUF)", ctn_ghost_019},
    {0x0309201A, 1, "checkpoint count", ctn_ghost_01a},
    {0x0309201B, 1, "race result", ctn_ghost_01b},
    {0x0309201C, 0, "security key", ctn_ghost_01c},
    {0x0309201D, 1, "player input data", ctn_ghost_01d},
    {0x0309201F, 1, "old color history", NULL},
    {0x03092021, 1, "old key strokes", NULL},
    {0x03092022, 1, "settings info", ctn_ghost_022},
    {0x03092023, 1, "anticheat data", ctn_ghost_023},
    {0x03092024, 1, "match replay separators", ctn_ghost_024},
    {0x03092025, 1, "validation (TM2)", ctn_ghost_025},
    {0x03092026, 1, "ghost uid 128", ctn_ghost_026},
    {0x03092027, 1, "timed pixel arrays", ctn_ghost_027},
    {0x03092028, 1, "title id", ctn_ghost_028},
    {0x03092029, 1, "ghost 029", ctn_ghost_029},
    {0x0309202A, 1, "ghost 02A", ctn_ghost_02a},
    {0x0309202B, 1, "ghost 02B", ctn_ghost_02b},
    {0x0309202C, 1, "walltime", ctn_ghost_02c},
    {0x0309202D, 1, "validation (TM2020)", ctn_ghost_02d},
    {0x0309202E, 1, "ghost 02E", ctn_ghost_02e},
    {0x0911F000, 0, "entity record data", ent_record_000},
};

const gbx_chunk_table gbx_ghost_chunks = {GHOST_CHUNKS, sizeof GHOST_CHUNKS / sizeof GHOST_CHUNKS[0]};
