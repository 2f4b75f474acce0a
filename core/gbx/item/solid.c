/*
 * Old solids: CPlugSolid (0x09005000, the main node of TrackMania Sunrise-era .Solid.Gbx files)
 * and the tree of nodes it holds: CPlugTree (0x0904F000), CPlugTreeLight (0x09062000) and
 * CPlugTreeVisualMip (0x09015000). The visuals the trees point to are in solid2.c.
 *
 * Layouts: docs/formats/gbx_solid.md "Solid chunks" and "Tree chunks" (from GBX.NET's
 * CPlugSolid.chunkl, CPlugTree.cs, CPlugTreeLight.chunkl, CPlugTreeVisualMip.cs, checked on the
 * corpus's Ground.Solid.Gbx).
 */
#include "core/gbx/item/item_shapes.h"

/* ---------- CPlugSolid 0x09005000 ---------- */

static void solid_old_000(rb_ar *ar) { rb_ar_i32(ar, "typeAndIndex"); }
static void solid_old_007(rb_ar *ar) { gbx_bool(ar, "u01"); }

/* 00C: ten flags and eight numbers whose meaning GBX.NET does not name */
static void solid_old_00c(rb_ar *ar)
{
    static const char *const bools[] = {"u01", "u02", "u03", "u04", "u05", "u06", "u07", "u08", "u09", "u10"};
    RB_AR_EACH(ar, i, sizeof bools / sizeof bools[0]) gbx_bool(ar, bools[i]);
    gbx_fields(ar, GBX_FIELDS({'f', "u11"}, {'i', "u12"}, {'f', "u13"}, {'f', "u14"}, {'f', "u15"}, {'f', "u16"},
                               {'i', "u17"}, {'i', "u18"}));
}

GBX_FIELDS_CHUNK(solid_old_00d, {'b', "u01"}, {'b', "u02"}, {'n', "tree"})

static void solid_old_00e(rb_ar *ar)
{
    gbx_floats(ar, "u01", 4);
    item_iso4(ar, "u02");
}

static void solid_old_00f(rb_ar *ar) { gbx_floats(ar, "u01", 2); }
static void solid_old_010(rb_ar *ar) { gbx_noderef(ar, "u01"); }

/* 011: the model tree, after a flag and whether a model is set (a third flag then) */
static void solid_old_011(rb_ar *ar)
{
    gbx_bool(ar, "u01");
    if (gbx_bool(ar, "u02")) gbx_bool(ar, "u03");
    gbx_noderef(ar, "tree");
}

static void solid_old_012(rb_ar *ar) { rb_ar_u8(ar, "u01"); }

static const rb_layout_field BOX_FIELDS[] = {{"x1", RB_K_FLOAT, 4}, {"y1", RB_K_FLOAT, 4}, {"z1", RB_K_FLOAT, 4},
                                             {"x2", RB_K_FLOAT, 4}, {"y2", RB_K_FLOAT, 4}, {"z2", RB_K_FLOAT, 4}};
static const rb_layout BOX = {"box", BOX_FIELDS, 6};

/* 017: the precomputed lighting (its form changed at version 3), then the source file's time */
static void solid_old_017(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 3, "solid 0x09005017")) return;
    if (version >= 3) {
        if (gbx_bool(ar, "hasPreLightGenerator")) item_pre_light_gen(ar, 5);
    } else {
        rb_ar_u8(ar, "u02");
        rb_ar_f32(ar, "u03");
        gbx_bool(ar, "u04");
        gbx_floats(ar, "u05", 4);
        gbx_floats(ar, "u06", 4);
        gbx_floats(ar, "u07", 2);
        if (version >= 1) rb_ar_table(ar, "u08", RB_U32, &BOX);
    }
    if (version >= 2) rb_ar_u64(ar, "fileWriteTime");
}

/* 019: sounds, particle emitters and the places they are instanced at */
static void solid_old_019(rb_ar *ar)
{
    static const rb_layout_field LOCATED_FIELDS[] = {
        {"u01", RB_K_INT, RB_I32}, {"xx", RB_K_FLOAT, 4}, {"xy", RB_K_FLOAT, 4}, {"xz", RB_K_FLOAT, 4},
        {"yx", RB_K_FLOAT, 4},     {"yy", RB_K_FLOAT, 4}, {"yz", RB_K_FLOAT, 4}, {"zx", RB_K_FLOAT, 4},
        {"zy", RB_K_FLOAT, 4},     {"zz", RB_K_FLOAT, 4}, {"tx", RB_K_FLOAT, 4}, {"ty", RB_K_FLOAT, 4},
        {"tz", RB_K_FLOAT, 4}};
    static const rb_layout LOCATED = {"located instance", LOCATED_FIELDS, 13};
    static const rb_layout_field ISO4_FIELDS[] = {
        {"xx", RB_K_FLOAT, 4}, {"xy", RB_K_FLOAT, 4}, {"xz", RB_K_FLOAT, 4}, {"yx", RB_K_FLOAT, 4},
        {"yy", RB_K_FLOAT, 4}, {"yz", RB_K_FLOAT, 4}, {"zx", RB_K_FLOAT, 4}, {"zy", RB_K_FLOAT, 4},
        {"zz", RB_K_FLOAT, 4}, {"tx", RB_K_FLOAT, 4}, {"ty", RB_K_FLOAT, 4}, {"tz", RB_K_FLOAT, 4}};
    static const rb_layout ISO4 = {"iso4", ISO4_FIELDS, 12};
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 5, "solid 0x09005019")) return;
    gbx_noderef_deprec_list(ar, "sounds");
    gbx_noderef_deprec_list(ar, "particleEmitters");
    rb_ar_table(ar, "u01", RB_U32, &LOCATED);
    rb_ar_table(ar, "u02", RB_U32, &LOCATED);
    if (version < 1) return;
    rb_ar_i32(ar, "u03");
    if (version < 2) return;
    item_id_list(ar, "u04");
    rb_ar_table(ar, "u05", RB_U32, &ISO4);
    if (version < 3) return;
    gbx_string(ar, "u06");
    if (version < 4) return;
    rb_ar_i32(ar, "u07");
    if (version >= 5) gbx_noderef(ar, "path");
}

/* ---------- CPlugTree 0x0904F000 ---------- */

static void tree_006(rb_ar *ar) { gbx_noderef_deprec_list(ar, "children"); }

/* 00C: a count GBX.NET knows only as 0 (what would follow has no known layout) */
static void tree_00c(rb_ar *ar)
{
    int32_t n = rb_ar_i32(ar, "u01");
    if (rb_ar_ok(ar) && n != 0) rb_ar_fail(ar, RB_E_UNSUPPORTED, "tree 0x0904F00C u01 is %d: only 0 has a known layout", n);
}

GBX_FIELDS_CHUNK(tree_00d, {'I', "name"}, {'I', "u01"})

static void tree_011(rb_ar *ar) { gbx_noderef(ar, "funcTree"); }

GBX_FIELDS_CHUNK(tree_016, {'n', "visual"}, {'n', "shader"}, {'n', "surface"}, {'n', "generator"})

/* 019: flags, and a location when bit 2 of them is set */
static void tree_019(rb_ar *ar)
{
    uint32_t flags = rb_ar_x32(ar, "flags");
    if (flags & 4) item_iso4(ar, "location");
}

/* 018: the same with 64-bit flags (bit 2 still says a location follows) */
static void tree_018(rb_ar *ar)
{
    uint64_t flags = rb_ar_uint(ar, "flags", RB_U64 | RB_W_HEX);
    if (flags & 4) item_iso4(ar, "location");
}

static void tree_017(rb_ar *ar) { gbx_noderef(ar, "visual"); }

/* ---------- CPlugTreeLight 0x09062000, CPlugTreeVisualMip 0x09015000 ---------- */

static void tree_light_004(rb_ar *ar) { gbx_noderef(ar, "plugLight"); }

static void tree_visual_mip_002(rb_ar *ar)
{
    item_fields_list(ar, "levels", 8, GBX_FIELDS({'f', "farZ"}, {'n', "tree"}));
}

static const gbx_chunk_def OLD_SOLID_CHUNKS[] = {
    {0x09005000, 0, "solid type and index", solid_old_000},
    {0x09005007, 0, "solid 007", solid_old_007},
    {0x0900500C, 0, "solid 00C", solid_old_00c},
    {0x0900500D, 0, "solid tree", solid_old_00d},
    {0x0900500E, 0, "solid 00E", solid_old_00e},
    {0x0900500F, 0, "solid 00F", solid_old_00f},
    {0x09005010, 0, "solid 010", solid_old_010},
    {0x09005011, 0, "solid model tree", solid_old_011},
    {0x09005012, 0, "solid 012", solid_old_012},
    {0x09005017, 0, "solid precomputed lighting", solid_old_017},
    {0x09005019, 0, "solid sounds and emitters", solid_old_019},
    {0x0904F006, 0, "tree children", tree_006},
    {0x0904F00C, 0, "tree 00C", tree_00c},
    {0x0904F00D, 0, "tree name", tree_00d},
    {0x0904F011, 0, "tree function", tree_011},
    {0x0904F016, 0, "tree properties", tree_016},
    {0x0904F015, 0, "tree flags and location (TM 1.0)", tree_019},
    {0x0904F017, 0, "tree visual", tree_017},
    {0x0904F018, 0, "tree flags and location (64-bit)", tree_018},
    {0x0904F019, 0, "tree flags and location", tree_019},
    {0x0904F01A, 0, "tree flags and location (TMNESWC on)", tree_019},
    {0x09062004, 0, "tree light", tree_light_004},
    {0x09015002, 0, "tree visual mip levels", tree_visual_mip_002},
};

const gbx_chunk_table gbx_old_solid_chunks = {OLD_SOLID_CHUNKS, sizeof OLD_SOLID_CHUNKS / sizeof OLD_SOLID_CHUNKS[0]};
