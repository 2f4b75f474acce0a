/*
 * A campaign (`.Campaign.Gbx`, `.ConstructionCampaign.Gbx`): CGameCtnCampaign (0x03090000), its
 * groups of maps, CGameCtnChallengeGroup (0x0308F000), each listing its maps by ident.
 *
 * Layouts: docs/formats/gbx_mapextra.md "Campaign chunks" (GBX.NET's CGameCtnCampaign and
 * CGameCtnChallengeGroup .chunkl files; the body a public campaign maker writes).
 */
#include "core/gbx/engine/gbx_internal.h"

static void i32s(rb_ar *ar, const char *const *keys, size_t n)
{
    RB_AR_EACH(ar, i, n) rb_ar_i32(ar, keys[i]);
}

/* a count GBX.NET knows only as 0 (what would follow has no known layout) */
static void zero_count(rb_ar *ar, const char *what)
{
    int32_t n = rb_ar_i32(ar, "u01");
    if (rb_ar_ok(ar) && n != 0) rb_ar_fail(ar, RB_E_UNSUPPORTED, "%s u01 is %d: only 0 has a known layout", what, n);
}

/* ---------- CGameCtnCampaign 0x03090000 ---------- */

static void campaign_000(rb_ar *ar) { gbx_noderef_deprec_list(ar, "challengeGroups"); }

static void campaign_001(rb_ar *ar)
{
    gbx_id(ar, "collectionId");
    zero_count(ar, "campaign 0x03090001");
}

static void campaign_002(rb_ar *ar)
{
    static const char *const ints[] = {"u01", "u02", "u03", "u04", "u05", "u06"};
    gbx_id(ar, "iconId");
    i32s(ar, ints, sizeof ints / sizeof ints[0]);
}

/* 003 and 004: the name, the type (race, puzzle, ...), whether it is internal, and flags */
GBX_FIELDS_CHUNK(campaign_003, {'s', "name"}, {'i', "type"}, {'b', "isInternal"}, {'b', "u01"})

static void campaign_004(rb_ar *ar)
{
    campaign_003(ar);
    gbx_bool(ar, "u02");
}

static void campaign_005(rb_ar *ar) { gbx_bool(ar, "u01"); }
static void campaign_006(rb_ar *ar) { gbx_id(ar, "campaignId"); }

static void campaign_007(rb_ar *ar)
{
    static const char *const ints[] = {"u01", "u02", "u03"};
    i32s(ar, ints, sizeof ints / sizeof ints[0]);
}

static void campaign_008(rb_ar *ar) { rb_ar_i32(ar, "u01"); }

GBX_FIELDS_CHUNK(campaign_009, {'y', "u01"}, {'I', "collectionId"})

static void campaign_00a(rb_ar *ar) { rb_ar_i32(ar, "index"); }

GBX_FIELDS_CHUNK(campaign_00b, {'s', "unlockedByCampaign"}, {'i', "u01"})

static void campaign_00c(rb_ar *ar) { gbx_id(ar, "iconId"); }
static void campaign_00d(rb_ar *ar) { rb_ar_i32(ar, "unlockType"); }
static void campaign_00e(rb_ar *ar) { rb_ar_i32(ar, "requiredPlayersCount"); }

GBX_FIELDS_CHUNK(campaign_00f, {'s', "name"}, {'i', "u01"}, {'i', "type"})

GBX_FIELDS_CHUNK(campaign_010, {'u', "version"}, {'s', "modeScriptName"})

/* 012: whether the campaign's records are official, and their score context */
static void campaign_012(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version <= 1) {
        gbx_string(ar, "scoreContext");
    } else {
        gbx_fields(ar, GBX_FIELDS({'i', "u01"}, {'s', "u02"}, {'s', "u03"}, {'s', "u04"}));
    }
    gbx_bool(ar, "officialRecordEnabled");
    if (version == 0) {
        gbx_bool(ar, "u05");
        gbx_bool(ar, "u06");
    }
}

/* ---------- CGameCtnChallengeGroup 0x0308F000 ---------- */

static void group_002(rb_ar *ar) { gbx_string(ar, "name"); }

static void group_003(rb_ar *ar)
{
    static const char *const ints[] = {"u01", "u02", "u03"};
    i32s(ar, ints, sizeof ints / sizeof ints[0]);
}

static void group_004(rb_ar *ar) { zero_count(ar, "map group 0x0308F004"); }
static void group_005(rb_ar *ar) { rb_ar_i32(ar, "u01"); }

/* the maps of the group: an ident each, and from version 2 the map's file */
static void map_infos(rb_ar *ar, uint32_t version)
{
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "mapInfos", RB_U32, 12)) {
        gbx_meta(ar, "metadata");
        if (version >= 2) gbx_string(ar, "filePath");
    }
}

static void group_006(rb_ar *ar)
{
    gbx_bool(ar, "u01");
    map_infos(ar, 0);
}

static void group_007(rb_ar *ar)
{
    static const char *const ints[] = {"u01", "u02", "u03", "u04", "u05", "u06"};
    i32s(ar, ints, sizeof ints / sizeof ints[0]);
}

static void group_009(rb_ar *ar) { gbx_id(ar, "u01"); }

/* 00B: a version, then the maps with the layout of that version plus 2 */
static void group_00b(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    map_infos(ar, version + 2);
}

static const gbx_chunk_def CAMPAIGN_CHUNKS[] = {
    {0x03090000, 0, "campaign map groups", campaign_000},
    {0x03090001, 0, "campaign collection", campaign_001},
    {0x03090002, 0, "campaign icon", campaign_002},
    {0x03090003, 0, "campaign name and type", campaign_003},
    {0x03090004, 0, "campaign name, type and flags", campaign_004},
    {0x03090005, 0, "campaign 005", campaign_005},
    {0x03090006, 0, "campaign id", campaign_006},
    {0x03090007, 0, "campaign 007", campaign_007},
    {0x03090008, 0, "campaign 008", campaign_008},
    {0x03090009, 1, "campaign collection id", campaign_009},
    {0x0309000A, 1, "campaign index", campaign_00a},
    {0x0309000B, 1, "campaign unlocked by", campaign_00b},
    {0x0309000C, 1, "campaign icon id", campaign_00c},
    {0x0309000D, 0, "campaign unlock type", campaign_00d},
    {0x0309000E, 0, "campaign required players", campaign_00e},
    {0x0309000F, 1, "campaign name (skippable)", campaign_00f},
    {0x03090010, 0, "campaign mode script", campaign_010},
    {0x03090012, 1, "campaign official mode", campaign_012},
    {0x0308F002, 0, "map group name", group_002},
    {0x0308F003, 0, "map group 003", group_003},
    {0x0308F004, 0, "map group 004", group_004},
    {0x0308F005, 0, "map group 005", group_005},
    {0x0308F006, 0, "map group maps", group_006},
    {0x0308F007, 0, "map group 007", group_007},
    {0x0308F009, 0, "map group 009", group_009},
    {0x0308F00B, 0, "map group maps (versioned)", group_00b},
};

const gbx_chunk_table gbx_campaign_chunks = {CAMPAIGN_CHUNKS, sizeof CAMPAIGN_CHUNKS / sizeof CAMPAIGN_CHUNKS[0]};
