/*
 * Game meshes: CPlugSolid2Model (0x090BB000, the main node of .Mesh.Gbx and the mesh of a
 * CPlugStaticObjectModel) and what it is made of: the visuals CPlugVisual (0x09006000),
 * CPlugVisual3D (0x0902C000), CPlugVisualIndexed (0x0906A000) of a CPlugVisualIndexedTriangles
 * (0x0901E000, no chunks of its own), their vertex streams CPlugVertexStream (0x09056000) and
 * index buffers CPlugIndexBuffer (0x09057000).
 *
 * Layouts: docs/formats/gbx_item.md "Solid chunks", "Visual chunks", "Vertex streams" (from
 * GBX.NET's CPlugSolid2Model.cs, CPlugVisual*.cs, CPlugVertexStream.cs, CPlugIndexBuffer.cs,
 * checked on the corpus). The vertex layout of CPlugVisual3D 004 follows the flags and counts of
 * CPlugVisual 00F in the same node, which the model holds once (there).
 */
#include "core/gbx/item/item_shapes.h"

/* ---------- CPlugSolid2Model 0x090BB000 ---------- */

static void solid_shaded_geoms(rb_ar *ar, uint32_t version)
{
    uint64_t n = item_list_begin(ar, "shadedGeoms", 12);
    RB_AR_RECORDS(ar, i, n) {
        rb_ar_i32(ar, "visualIndex");
        rb_ar_i32(ar, "materialIndex");
        rb_ar_i32(ar, "u01");
        if (version >= 1) rb_ar_i32(ar, "lodMask");
        if (version >= 32) rb_ar_i32(ar, "u02");
    }
}

void item_pre_light_gen(rb_ar *ar, int uv_group_values)
{
    static const char *const floats[] = {"u04", "u05", "u06", "u07", "u08", "u09", "u10", "u11"};
    rb_ar_record_begin(ar, "preLightGenerator");
    int32_t version = rb_ar_i32(ar, "version");
    rb_ar_i32(ar, "u01");
    rb_ar_f32(ar, "u02");
    gbx_bool(ar, "u03");
    RB_AR_EACH(ar, i, sizeof floats / sizeof floats[0]) rb_ar_f32(ar, floats[i]);
    rb_ar_i32(ar, "spriteCountX");
    rb_ar_i32(ar, "spriteCountY");
    uint64_t n = item_list_begin(ar, "boxes", 24);
    RB_AR_LIST(ar, i, n) gbx_floats(ar, NULL, 6);
    if (version >= 1) {
        n = item_list_begin(ar, "uvGroups", 16);
        RB_AR_LIST(ar, i, n) gbx_floats(ar, NULL, uv_group_values);
    }
    rb_ar_record_end(ar);
}

static void solid_lights(rb_ar *ar, uint32_t version)
{
    uint64_t n = item_list_begin(ar, "lights", 40);
    RB_AR_RECORDS(ar, i, n) {
        gbx_id(ar, "u01");
        if (gbx_bool(ar, "u02")) gbx_noderef(ar, "u03");
        else gbx_string(ar, "u04");
        item_iso4(ar, "u05");
        static const char *const ints[] = {"u06", "u07", "u08", "u09", "u10", "u11", "u12", "u13", "u14"};
        RB_AR_EACH(ar, k, (version >= 26 ? 9u : 6u)) rb_ar_i32(ar, ints[k]);
        if (gbx_bool(ar, "u15")) {
            rb_ar_f32(ar, "u16");
            rb_ar_f32(ar, "u17");
            rb_ar_f32(ar, "u18");
        }
    }
}

/* custom materials: a name, or (when empty) a material instance node */
static uint64_t solid_custom_materials(rb_ar *ar, uint64_t count)
{
    uint64_t n = rb_ar_list_begin_n(ar, "customMaterials", count, 4);
    RB_AR_RECORDS(ar, i, n) {
        const rb_node *name = rb_ar_string(ar, "materialName", RB_I32);
        if (name && name->v.bytes.size == 0) gbx_noderef(ar, "materialUserInst");
    }
    return n;
}

/* An i32 GBX.NET knows only as 0 (an array count whose elements have no known layout). */
static int solid_zero(rb_ar *ar, const char *key)
{
    int32_t v = rb_ar_i32(ar, key);
    if (rb_ar_ok(ar) && v != 0) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "solid %s is %d: only 0 has a known layout", key, v);
        return 0;
    }
    return rb_ar_ok(ar);
}

/* The tail of 000 from version 17 (lists of boxes, joints, ...). */
static void solid_000_late(rb_ar *ar, uint32_t v)
{
    static const rb_layout_field INT5_FIELDS[] = {
        {"u01", RB_K_INT, RB_I32}, {"u02", RB_K_INT, RB_I32}, {"u03", RB_K_INT, RB_I32},
        {"u04", RB_K_INT, RB_I32}, {"u05", RB_K_INT, RB_I32}};
    static const rb_layout INT5 = {"five integers", INT5_FIELDS, 5};
    if (v < 21) {
        uint64_t n = item_list_begin(ar, "boxes", 24);
        RB_AR_LIST(ar, i, n) gbx_floats(ar, NULL, 6);
    }
    if (v < 20) return;
    item_id_list(ar, "joints");
    if (v < 22) return;
    gbx_i32_list(ar, "u10");
    if (v < 23 || !solid_zero(ar, "u11")) return;
    gbx_i32_list(ar, "u12");
    if (v < 24) return;
    rb_ar_i32(ar, "u13");
    if (v < 25) return;
    gbx_noderef(ar, "u14");
    rb_ar_f32(ar, "u15");
    rb_ar_f32(ar, "u16");
    if (v < 27) return;
    gbx_id(ar, "u17");
    if (v < 31 || !solid_zero(ar, "u18") || v < 33) return;
    if (v < 34) rb_ar_i32(ar, "u20");
    rb_ar_table(ar, "u19", RB_U32, &INT5);
}

static void solid_000(rb_ar *ar)
{
    uint32_t v = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, v, 34, "solid 0x090BB000")) return;
    gbx_id(ar, "u01");
    solid_shaded_geoms(ar, v);
    if (v >= 6) {
        rb_ar_u32(ar, "visualsListVersion");
        gbx_noderef_list(ar, "visuals");
    }
    item_id_list(ar, "materialIds");
    /* from v29 the custom material count comes first, and materials are listed only without them */
    item_count custom = {{0}, 0};
    if (v >= 29) custom = item_count_begin(ar, "custom material count", RB_U32, "customMaterials");
    if (v < 29 || custom.count == 0) {
        rb_ar_u32(ar, "materialsListVersion");
        gbx_noderef_list(ar, "materials");
    }
    gbx_noderef(ar, "skel");
    if (v < 1) return;
    item_f32_table(ar, "lodMaxDistAtFov90");
    if (v < 2) return;
    rb_ar_i32(ar, "visCstType");
    if (v < 3) return;
    if (gbx_bool(ar, "hasPreLightGenerator")) item_pre_light_gen(ar, 4); /* int4: kept as bits */
    if (v < 4) return;
    rb_ar_u64(ar, "fileWriteTime");
    if (v < 5) return;
    gbx_string(ar, "u03");
    if (v < 7) return;
    gbx_string(ar, "materialsFolderName");
    if (v >= 19) gbx_string(ar, "u04");
    if (v < 8) return;
    solid_lights(ar, v);
    if (v < 16) gbx_noderef_list(ar, "materialInsts");
    if (v < 10) return;
    gbx_noderef_list(ar, "lightUserModels");
    {
        static const rb_layout_field LIGHT_INST_FIELDS[] = {{"modelIndex", RB_K_INT, RB_I32},
                                                            {"socketIndex", RB_K_INT, RB_I32}};
        static const rb_layout LIGHT_INST = {"light instance", LIGHT_INST_FIELDS, 2};
        rb_ar_table(ar, "lightInsts", RB_U32, &LIGHT_INST);
    }
    if (v < 11) return;
    rb_ar_i32(ar, "damageZone");
    if (v < 12) return;
    rb_ar_x32(ar, "flags");
    if (v < 13) return;
    rb_ar_i32(ar, "u05");
    if (v < 14) return;
    gbx_string(ar, "u06");
    if (v < 15) return;
    if (v < 29) custom = item_count_begin(ar, "custom material count", RB_U32, "customMaterials");
    if (v >= 30) rb_ar_i32(ar, "u07");
    item_count_end(ar, &custom, solid_custom_materials(ar, custom.count));
    if (v >= 17) solid_000_late(ar, v);
}

/* ---------- CPlugVisual 0x09006000 ---------- */

static void visual_001(rb_ar *ar) { gbx_id(ar, "u01"); }
static void visual_004(rb_ar *ar) { gbx_noderef(ar, "u01"); }
static void visual_005(rb_ar *ar)
{
    static const rb_layout_field INT3_FIELDS[] = {{"a", RB_K_INT, RB_I32}, {"b", RB_K_INT, RB_I32}, {"c", RB_K_INT, RB_I32}};
    static const rb_layout INT3 = {"sub-visual", INT3_FIELDS, 3};
    rb_ar_table(ar, "subVisuals", RB_U32, &INT3);
}
static void visual_006(rb_ar *ar) { gbx_bool(ar, "hasVertexNormals"); }
static void visual_009(rb_ar *ar) { rb_ar_f32(ar, "u01"); }

static void visual_00b(rb_ar *ar)
{
    uint64_t n = item_list_begin(ar, "splits", 32);
    RB_AR_RECORDS(ar, i, n) {
        rb_ar_i32(ar, "u01");
        rb_ar_i32(ar, "u02");
        gbx_floats(ar, "boundingBox", 6);
    }
}

static void visual_010(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    rb_ar_empty_list(ar, "morphs", RB_I32, "visual morphs");
}

/* texture coordinates: `count` of them per set, the set's version deciding each one's fields */
static void visual_tex_coord_set(rb_ar *ar, uint64_t count)
{
    static const rb_layout_field UV0_FIELDS[] = {{"u", RB_K_FLOAT, 4}, {"v", RB_K_FLOAT, 4}};
    static const rb_layout UV0 = {"texture coordinate", UV0_FIELDS, 2};
    static const rb_layout_field UV1_FIELDS[] = {{"u", RB_K_FLOAT, 4}, {"v", RB_K_FLOAT, 4}, {"u01", RB_K_INT, RB_I32}};
    static const rb_layout UV1 = {"texture coordinate (v1)", UV1_FIELDS, 3};
    static const rb_layout_field UV2_FIELDS[] = {
        {"u", RB_K_FLOAT, 4}, {"v", RB_K_FLOAT, 4}, {"u01", RB_K_INT, RB_I32}, {"u02", RB_K_INT, RB_I32}};
    static const rb_layout UV2 = {"texture coordinate (v2)", UV2_FIELDS, 4};
    rb_ar_record_begin(ar, NULL);
    uint32_t version = rb_ar_u32(ar, "version");
    uint32_t flags = 0;
    if (version >= 3) {
        /* a copy of the visual's vertex count, derived from it */
        rb_slot copy = rb_ar_slot(ar, "texture coordinate count", RB_U32);
        if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_READ && copy.value != count) {
            rb_ar_fail(ar, RB_E_FORMAT, "a texture coordinate set of %llu for %llu vertices",
                       (unsigned long long)copy.value, (unsigned long long)count);
            return;
        }
        rb_ar_slot_set(ar, &copy, count);
        flags = rb_ar_x32(ar, "flags");
        if (rb_ar_ok(ar) && (flags & 0xFF) > 2) {
            rb_ar_fail(ar, RB_E_UNSUPPORTED, "texture coordinate set kind %u is not known (0-2 are)", flags & 0xFF);
            return;
        }
    }
    rb_ar_table_n(ar, "texCoords", count, version == 1 ? &UV1 : version == 2 ? &UV2 : &UV0);
    if (version >= 3) item_f32_table_n(ar, "u01", count * (flags & 0xFF));
    rb_ar_record_end(ar);
}

static void visual_skin_data(rb_ar *ar, uint32_t version)
{
    rb_ar_record_begin(ar, "skinData");
    gbx_bool(ar, "u01");
    rb_ar_i32(ar, "u02");
    if (version >= 5) {
        if (gbx_bool(ar, "u03") && rb_ar_ok(ar)) {
            rb_ar_fail(ar, RB_E_UNSUPPORTED, "skin data with u03 set has no known layout");
            return;
        }
        gbx_bool(ar, "u04");
    }
    item_count bones = item_count_begin(ar, "bone count", RB_U32, "bones");
    if (version == 2) {
        uint64_t n = item_list_begin(ar, "u05", 48);
        RB_AR_LIST(ar, i, n) item_iso4(ar, NULL);
    }
    uint64_t n = rb_ar_list_begin_n(ar, "bones", bones.count, 4);
    RB_AR_LIST(ar, i, n) gbx_id(ar, NULL);
    item_count_end(ar, &bones, n);
    if (version != 3) gbx_i32_list(ar, "u07");
    rb_ar_record_end(ar);
}

/* 00F and 00A alike: the vertex count, the vertex streams (not in 008), then one texture
 * coordinate set per count the chunk gave before (`sets`, derived from the list on write) */
static void visual_streams_and_tex_coords(rb_ar *ar, item_count *sets, int with_streams)
{
    uint32_t count = rb_ar_u32(ar, "count");
    if (with_streams) gbx_noderef_list(ar, "vertexStreams");
    uint64_t n = rb_ar_list_begin_n(ar, "texCoordSets", sets->count, 4);
    RB_AR_LIST(ar, i, n) visual_tex_coord_set(ar, count);
    item_count_end(ar, sets, n);
}

/* 00F: the vertex count, streams, texture coordinates, skin, bounds (docs "Visual chunks") */
static void visual_00f(rb_ar *ar)
{
    static const rb_layout_field ELEM_FIELDS[] = {{"u01", RB_K_INT, RB_I32}, {"u02", RB_K_INT, RB_I32},
                                                  {"u03", RB_K_INT, RB_I32}, {"u04", RB_K_INT, RB_I32},
                                                  {"u05", RB_K_INT, RB_I32}};
    static const rb_layout BITMAP_ELEM = {"bitmap element to pack", ELEM_FIELDS, 5};
    static const rb_layout_field U16_FIELD[] = {{NULL, RB_K_INT, RB_U16}};
    static const rb_layout U16_ELEMENT = {"uint16", U16_FIELD, 1};
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 6, "visual 0x0900600F")) return;
    uint32_t flags = rb_ar_x32(ar, "flags");
    item_count sets = item_count_begin(ar, "tex coord set count", RB_U32, "texCoordSets");
    visual_streams_and_tex_coords(ar, &sets, 1);
    if (flags & 7) visual_skin_data(ar, (2 + version) & 15);
    gbx_floats(ar, "boundingBox", 6);
    rb_ar_table(ar, "bitmapElemToPacks", RB_U32, &BITMAP_ELEM);
    if (version < 5) return;
    rb_ar_table(ar, "uvGroups", RB_U32, &U16_ELEMENT);
    if (version < 6) return;
    rb_ar_i32(ar, "u02");
    /* a size, 4 more than the bytes that follow; 0 or less: none follow. Kept as the file has it
     * (a negative one too), and checked against the bytes when a model is built or edited. */
    int32_t size = rb_ar_i32(ar, "u03");
    if (!rb_ar_ok(ar) || size <= 0) return;
    if (size < 4) {
        rb_ar_fail(ar, RB_E_FORMAT, "visual 0x0900600F: a size of %d cannot count its own 4 bytes", size);
        return;
    }
    const rb_node *tail = rb_ar_bytes(ar, "u04", RB_K_BLOB, (uint64_t)size - 4);
    if (tail && rb_ar_checks_edits(ar) && tail->v.bytes.size != (uint64_t)size - 4)
        rb_ar_fail(ar, RB_E_MODEL, "u04 has %zu bytes, u03 = %d says %d", tail->v.bytes.size, size, size - 4);
}

/* 00D and 00E (TMF): 00F without a version: the flags, texture coordinate sets, skin (data of
 * version 1) and bounds; 00E adds the bitmap elements
 * (docs/formats/gbx_solid.md "Old visual chunks") */
static void visual_00d(rb_ar *ar)
{
    uint32_t flags = rb_ar_x32(ar, "flags");
    item_count sets = item_count_begin(ar, "tex coord set count", RB_U32, "texCoordSets");
    visual_streams_and_tex_coords(ar, &sets, 1);
    if (flags & 7) visual_skin_data(ar, 1);
    gbx_floats(ar, "boundingBox", 6);
}

static void visual_00e(rb_ar *ar)
{
    static const rb_layout_field ELEM_FIELDS[] = {{"u01", RB_K_INT, RB_I32}, {"u02", RB_K_INT, RB_I32},
                                                  {"u03", RB_K_INT, RB_I32}, {"u04", RB_K_INT, RB_I32},
                                                  {"u05", RB_K_INT, RB_I32}};
    static const rb_layout BITMAP_ELEM = {"bitmap element to pack", ELEM_FIELDS, 5};
    visual_00d(ar);
    rb_ar_table(ar, "bitmapElemToPacks", RB_U32, &BITMAP_ELEM);
}

/* 00C (TMNESWC): two booleans, the skin flags on their own, then as 00D with skin data of
 * version 0 and a flag before the bounds */
static void visual_00c(rb_ar *ar)
{
    gbx_bool(ar, "isGeometryStatic");
    gbx_bool(ar, "isIndexationStatic");
    item_count sets = item_count_begin(ar, "tex coord set count", RB_U32, "texCoordSets");
    uint32_t skin = rb_ar_x32(ar, "skinFlags");
    visual_streams_and_tex_coords(ar, &sets, 1);
    if (skin & 7) visual_skin_data(ar, 0);
    gbx_bool(ar, "u01");
    gbx_floats(ar, "boundingBox", 6);
}

/* 00A (TrackMania Sunrise): the older form of 00F, with two flags as booleans in front and a list
 * of locations after; 008 (TM 1.0) is 00A without vertex streams
 * (docs/formats/gbx_solid.md "Old visual chunks") */
static void visual_unskinned(rb_ar *ar, uint32_t chunk_id, int with_streams)
{
    static const rb_layout_field ISO4_FIELDS[] = {
        {"xx", RB_K_FLOAT, 4}, {"xy", RB_K_FLOAT, 4}, {"xz", RB_K_FLOAT, 4}, {"yx", RB_K_FLOAT, 4},
        {"yy", RB_K_FLOAT, 4}, {"yz", RB_K_FLOAT, 4}, {"zx", RB_K_FLOAT, 4}, {"zy", RB_K_FLOAT, 4},
        {"zz", RB_K_FLOAT, 4}, {"tx", RB_K_FLOAT, 4}, {"ty", RB_K_FLOAT, 4}, {"tz", RB_K_FLOAT, 4}};
    static const rb_layout ISO4 = {"iso4", ISO4_FIELDS, 12};
    gbx_bool(ar, "isGeometryStatic");
    gbx_bool(ar, "isIndexationStatic");
    item_count sets = item_count_begin(ar, "tex coord set count", RB_U32, "texCoordSets");
    uint32_t skin = rb_ar_x32(ar, "skinFlags");
    if (rb_ar_ok(ar) && (skin & 7)) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "visual 0x%08X with skin flags 0x%X has no known layout", chunk_id, skin);
        return;
    }
    visual_streams_and_tex_coords(ar, &sets, with_streams);
    gbx_bool(ar, "u01");
    rb_ar_table(ar, "u02", RB_U32, &ISO4);
}

static void visual_008(rb_ar *ar) { visual_unskinned(ar, 0x09006008, 0); }
static void visual_00a(rb_ar *ar) { visual_unskinned(ar, 0x0900600A, 1); }

static void visual_007(rb_ar *ar) { gbx_bool(ar, "u01"); }

/* ---------- CPlugVisual3D 0x0902C000 ---------- */

static void visual3d_002(rb_ar *ar) { gbx_noderef(ar, "u01"); }

/* CPlugVisual's flags from the bits 00F stores (GBX.NET ConvertChunkFlagsToFlags). */
static uint32_t visual_flags(uint32_t stored)
{
    return (stored & 15) | ((stored << 1) & 0x20) | ((stored << 2) & 0x80) | ((stored << 2) & 0x100) |
           ((stored << 13) & 0x100000) | ((stored << 13) & 0x200000) | ((stored << 13) & 0x400000);
}

/* What the vertices of CPlugVisual3D follow from: the vertex count, the visual's flags and
 * whether it has vertex streams, from whichever form of the vertex chunk the node has (00F, or
 * TMF's 00E/00D storing the same bits; the older 00C, 00A, 008 keep only the skin flags and bit 8
 * as a bool). 0 when the node has none. */
typedef struct visual_vertices {
    uint64_t count, streams;
    uint32_t flags;
} visual_vertices;

static int visual_vertices_of(rb_ar *ar, visual_vertices *v)
{
    static const uint32_t STORED_FLAGS[] = {0x0900600F, 0x0900600E, 0x0900600D};
    static const uint32_t SKIN_FLAGS[] = {0x0900600C, 0x0900600A, 0x09006008};
    uint64_t stored = 0, bit8 = 0;
    for (size_t i = 0; i < sizeof STORED_FLAGS / sizeof STORED_FLAGS[0]; i++)
        if (item_sibling_chunk_uint(ar, STORED_FLAGS[i], "flags", &stored) &&
            item_sibling_chunk_uint(ar, STORED_FLAGS[i], "count", &v->count)) {
            v->flags = visual_flags((uint32_t)stored);
            v->streams = item_sibling_chunk_count(ar, STORED_FLAGS[i], "vertexStreams");
            return 1;
        }
    for (size_t i = 0; i < sizeof SKIN_FLAGS / sizeof SKIN_FLAGS[0]; i++)
        if (item_sibling_chunk_uint(ar, SKIN_FLAGS[i], "skinFlags", &stored) &&
            item_sibling_chunk_uint(ar, SKIN_FLAGS[i], "count", &v->count)) {
            item_sibling_chunk_uint(ar, SKIN_FLAGS[i], "u01", &bit8);
            v->flags = ((uint32_t)stored & 7) | (bit8 ? 0x100 : 0);
            v->streams = item_sibling_chunk_count(ar, SKIN_FLAGS[i], "vertexStreams");
            return 1;
        }
    return 0;
}

/* 003 (TrackMania Sunrise): one vertex of 40 bytes per vertex of the visual's 00A, then two
 * counted vec3 arrays (docs/formats/gbx_solid.md "Old visual chunks") */
static void visual3d_003(rb_ar *ar)
{
    static const rb_layout_field VTX_FIELDS[] = {
        {"positionX", RB_K_FLOAT, 4}, {"positionY", RB_K_FLOAT, 4}, {"positionZ", RB_K_FLOAT, 4},
        {"normalX", RB_K_FLOAT, 4},   {"normalY", RB_K_FLOAT, 4},   {"normalZ", RB_K_FLOAT, 4},
        {"u01X", RB_K_FLOAT, 4},      {"u01Y", RB_K_FLOAT, 4},      {"u01Z", RB_K_FLOAT, 4},
        {"u02", RB_K_FLOAT, 4}};
    static const rb_layout VTX = {"vertex", VTX_FIELDS, 10};
    visual_vertices v = {0};
    if (!visual_vertices_of(ar, &v)) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "visual 3D 0x0902C003 without a visual vertex chunk before it has no known layout");
        return;
    }
    uint64_t count = v.count;
    uint64_t n = rb_ar_table_n(ar, "vertices", count, &VTX);
    if (rb_ar_ok(ar) && n != count)
        rb_ar_fail(ar, RB_E_MODEL, "vertices has %llu vertices, the visual's count is %llu", (unsigned long long)n,
                   (unsigned long long)count);
    item_vec3_table(ar, "tangents");
    item_vec3_table(ar, "biTangents");
}

/* vertex layouts of 004: position, then a normal (none, 3 f32, or packed 10-10-10 in a u32) and a
 * colour (none, 4 f32, or a packed ARGB u32) as the visual's flags say */
#define V3(k) {k "X", RB_K_FLOAT, 4}, {k "Y", RB_K_FLOAT, 4}, {k "Z", RB_K_FLOAT, 4}
static const rb_layout_field VTX_P[] = {V3("position")};
static const rb_layout_field VTX_PN[] = {V3("position"), V3("normal")};
static const rb_layout_field VTX_PNP[] = {V3("position"), {"normal", RB_K_INT, RB_X32}};
static const rb_layout_field VTX_PC[] = {V3("position"), {"colorR", RB_K_FLOAT, 4}, {"colorG", RB_K_FLOAT, 4}, {"colorB", RB_K_FLOAT, 4}, {"colorA", RB_K_FLOAT, 4}};
static const rb_layout_field VTX_PCP[] = {V3("position"), {"color", RB_K_INT, RB_X32}};
static const rb_layout_field VTX_PNC[] = {V3("position"), V3("normal"), {"colorR", RB_K_FLOAT, 4}, {"colorG", RB_K_FLOAT, 4}, {"colorB", RB_K_FLOAT, 4}, {"colorA", RB_K_FLOAT, 4}};
static const rb_layout_field VTX_PNCP[] = {V3("position"), V3("normal"), {"color", RB_K_INT, RB_X32}};
static const rb_layout_field VTX_PNPC[] = {V3("position"), {"normal", RB_K_INT, RB_X32}, {"colorR", RB_K_FLOAT, 4}, {"colorG", RB_K_FLOAT, 4}, {"colorB", RB_K_FLOAT, 4}, {"colorA", RB_K_FLOAT, 4}};
static const rb_layout_field VTX_PNPCP[] = {V3("position"), {"normal", RB_K_INT, RB_X32}, {"color", RB_K_INT, RB_X32}};
static const rb_layout VERTEX_LAYOUTS[3][3] = {
    /* normal: none */ {{"vertex", VTX_P, 3}, {"vertex", VTX_PC, 7}, {"vertex", VTX_PCP, 4}},
    /* normal: f32 */ {{"vertex", VTX_PN, 6}, {"vertex", VTX_PNC, 10}, {"vertex", VTX_PNCP, 7}},
    /* normal: packed */ {{"vertex", VTX_PNP, 4}, {"vertex", VTX_PNPC, 8}, {"vertex", VTX_PNPCP, 5}},
};

static void visual3d_tangents(rb_ar *ar, const char *key, uint64_t count, uint32_t flags)
{
    static const rb_layout_field PACKED_FIELD[] = {{NULL, RB_K_INT, RB_X32}};
    static const rb_layout PACKED = {"packed tangent", PACKED_FIELD, 1};
    static const rb_layout_field VEC3_FIELDS[] = {{"x", RB_K_FLOAT, 4}, {"y", RB_K_FLOAT, 4}, {"z", RB_K_FLOAT, 4}};
    static const rb_layout VEC3 = {"tangent", VEC3_FIELDS, 3};
    /* either none or one per vertex */
    item_count c = item_count_begin(ar, "tangent count", RB_U32, key);
    if (rb_ar_ok(ar) && c.count != 0 && c.count != count) {
        rb_ar_fail(ar, RB_E_FORMAT, "%s: %llu tangents for %llu vertices (0 or one per vertex)", key,
                   (unsigned long long)c.count, (unsigned long long)count);
        return;
    }
    uint64_t n = rb_ar_table_n(ar, key, c.count, (flags & 0x100000) ? &PACKED : &VEC3);
    item_count_end(ar, &c, n);
}

static void visual3d_004(rb_ar *ar)
{
    /* a sprite's vertices have two more fields, whose use is not known: refused, not misread */
    const rb_node *node = rb_ar_enclosing(ar, 2), *cls = node ? rb_node_get(node, "classId") : NULL;
    if (cls && gbx_remap_id((uint32_t)rb_node_uint(cls)) == 0x09010000) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "the vertices of a sprite (CPlugVisualSprite) have no known layout");
        return;
    }
    visual_vertices v = {0};
    if (!visual_vertices_of(ar, &v)) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "visual 3D 0x0902C004 without a visual vertex chunk before it has no known layout");
        return;
    }
    uint64_t count = v.count;
    uint32_t flags = v.flags;
    uint64_t normals6 = 0;
    int has_normals = (flags & 0x80) || (item_sibling_chunk_uint(ar, 0x09006006, "hasVertexNormals", &normals6) && normals6);
    int normal = !(flags & 0x400000) || has_normals ? ((flags & 0x100000) ? 2 : 1) : 0;
    int color = !(flags & 0x400000) || (flags & 0x100) ? ((flags & 0x200000) ? 2 : 1) : 0;
    if (v.streams == 0) {
        uint64_t n = rb_ar_table_n(ar, "vertices", count, &VERTEX_LAYOUTS[normal][color]);
        if (rb_ar_ok(ar) && n != count)
            rb_ar_fail(ar, RB_E_MODEL, "vertices has %llu vertices, the visual's count is %llu", (unsigned long long)n,
                       (unsigned long long)count);
    }
    visual3d_tangents(ar, "tangentsU", count, flags);
    visual3d_tangents(ar, "tangentsV", count, flags);
}

/* ---------- CPlugVisualIndexed 0x0906A000, CPlugIndexBuffer 0x09057000 ---------- */

/* 000 (TM 1.0): the triangle indices in place, u16 each */
static void visual_indexed_000(rb_ar *ar)
{
    static const rb_layout_field U16_FIELD[] = {{NULL, RB_K_INT, RB_U16}};
    static const rb_layout U16_INDEX = {"index", U16_FIELD, 1};
    rb_ar_table(ar, "indices", RB_U32, &U16_INDEX);
}

static void visual_indexed_001(rb_ar *ar)
{
    if (gbx_bool(ar, "hasIndexBuffer")) gbx_node_direct(ar, "indexBuffer");
}

static void index_buffer_000(rb_ar *ar)
{
    static const rb_layout_field U16_FIELD[] = {{NULL, RB_K_INT, RB_U16}};
    static const rb_layout U16_ELEMENT = {"index", U16_FIELD, 1};
    rb_ar_i32(ar, "flags");
    rb_ar_table(ar, "indices", RB_U32, &U16_ELEMENT);
}

/* 001: each index stored as the i16 difference from the one before */
static void index_buffer_001(rb_ar *ar)
{
    static const rb_layout_field I16_FIELD[] = {{NULL, RB_K_INT, RB_I16}};
    static const rb_layout I16_ELEMENT = {"index delta", I16_FIELD, 1};
    rb_ar_i32(ar, "flags");
    rb_ar_table(ar, "indexDeltas", RB_U32, &I16_ELEMENT);
}

/* ---------- CPlugVertexStream 0x09056000 (docs "Vertex streams") ---------- */

enum { DECL_MAX = 64 };

/* The array a declaration stands for: its key and element layout, or NULL when not known. */
static const rb_layout *stream_layout(uint32_t flags1, const char **key)
{
    static const rb_layout_field VEC2_FIELDS[] = {{"x", RB_K_FLOAT, 4}, {"y", RB_K_FLOAT, 4}};
    static const rb_layout VEC2 = {"vec2", VEC2_FIELDS, 2};
    static const rb_layout_field VEC3_FIELDS[] = {{"x", RB_K_FLOAT, 4}, {"y", RB_K_FLOAT, 4}, {"z", RB_K_FLOAT, 4}};
    static const rb_layout VEC3 = {"vec3", VEC3_FIELDS, 3};
    static const rb_layout_field U32_FIELD[] = {{NULL, RB_K_INT, RB_X32}};
    static const rb_layout PACKED = {"packed value", U32_FIELD, 1};
    uint32_t usage = flags1 & 0x1FF, type = (flags1 >> 9) & 0x1FF;
    switch (type) {
    case 1: /* 2 floats */
        if (usage >= 10 && usage <= 17) return *key = "uvs", &VEC2;
        if (usage == 3) return *key = "blendWeights", &VEC2;
        return NULL;
    case 2: /* 3 floats; normals packed 10-10-10 */
        if (usage == 0 || usage == 1) return *key = usage ? "positions1" : "positions", &VEC3;
        if (usage == 5 || usage == 6) return *key = usage == 5 ? "normals" : "normals1", &PACKED;
        return NULL;
    case 4: /* colour */
        if (usage == 8 || usage == 9 || usage == 22) return *key = "colors", &PACKED;
        return NULL;
    case 5: /* i32 */
        if (usage == 4) return *key = "blendIndices", &PACKED;
        return NULL;
    case 14: /* packed 10-10-10 */
        if (usage == 5) return *key = "normals", &PACKED;
        if (usage == 18) return *key = "tangentsU", &PACKED;
        if (usage == 20) return *key = "tangentsV", &PACKED;
        return NULL;
    default: return NULL;
    }
}

/* Everything after the vertex count; 1 when it described arrays (at least one), whose length is
 * then the count. */
static int vertex_stream_body(rb_ar *ar, uint32_t version, uint64_t count)
{
    rb_ar_x32(ar, "flags");
    gbx_noderef(ar, "streamModel");
    const rb_node *model = rb_node_get(rb_ar_current(ar), "streamModel");
    const rb_node *index = model ? rb_node_get(model, "index") : NULL;
    if (count == 0 || (index && rb_node_int(index) != -1)) return 0;
    uint32_t decl_flags[DECL_MAX];
    uint64_t n = item_list_begin(ar, "dataDecls", 8);
    if (rb_ar_ok(ar) && n > DECL_MAX) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "%llu vertex declarations: at most %d are read", (unsigned long long)n, DECL_MAX);
        return 0;
    }
    RB_AR_RECORDS(ar, i, n) {
        uint32_t flags1 = decl_flags[i] = rb_ar_x32(ar, "flags1");
        uint32_t flags2 = rb_ar_x32(ar, "flags2");
        if ((flags2 & 0xFFC) == 0) {
            if (version == 0) rb_ar_bytes(ar, "u01", RB_K_BLOB, (uint64_t)((flags1 >> 18) & 0x3FF) * count);
        } else {
            rb_ar_u16(ar, "u02");
            rb_ar_u16(ar, "offset");
        }
    }
    if (version == 0 || !rb_ar_ok(ar)) return 0;
    gbx_bool(ar, "u01");
    /* one array of `count` elements per declaration, in their order */
    uint64_t m = rb_ar_list_begin_n(ar, "arrays", n, 4);
    if (rb_ar_ok(ar) && m != n) {
        rb_ar_fail(ar, RB_E_MODEL, "arrays has %llu arrays for %llu declarations", (unsigned long long)m,
                   (unsigned long long)n);
        return 0;
    }
    RB_AR_EACH(ar, i, m) {
        const char *key = NULL;
        const rb_layout *layout = stream_layout(decl_flags[i], &key);
        if (!layout) {
            rb_ar_fail(ar, RB_E_UNSUPPORTED, "vertex declaration 0x%08X (usage %u, type %u) has no known layout",
                       decl_flags[i], decl_flags[i] & 0x1FF, (decl_flags[i] >> 9) & 0x1FF);
            break;
        }
        rb_ar_record_begin(ar, NULL);
        uint64_t got = rb_ar_table_n(ar, key, count, layout);
        if (rb_ar_ok(ar) && got != count)
            rb_ar_fail(ar, RB_E_MODEL, "%s has %llu elements, the first array (the stream's count) has %llu", key,
                       (unsigned long long)got, (unsigned long long)count);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
    return m > 0;
}

/* WRITE / FROM_JSON: the length of the stream's first array (the only member of arrays[0]), or
 * -1 when the stream has no array. */
static int64_t first_array_length(rb_ar *ar)
{
    if (rb_ar_direction(ar) == RB_AR_WRITE) {
        const rb_node *first = rb_list_element(rb_node_get(rb_ar_current(ar), "arrays"), 0);
        const rb_node *array = first && first->kind == RB_K_RECORD && first->v.kids.count ? first->v.kids.items[0] : NULL;
        return array ? (int64_t)rb_element_count(array) : -1;
    }
    json_t *first = json_array_get(rb_ar_json_member(ar, "arrays"), 0);
    if (!json_is_object(first) || json_object_size(first) == 0) return -1;
    json_t *array = json_object_iter_value(json_object_iter(first));
    return json_is_array(array) ? (int64_t)json_array_size(array) : -1;
}

/* WRITE / FROM_JSON: the field `count` of a stream without arrays, before its place (the end). */
static uint64_t count_field(rb_ar *ar)
{
    if (rb_ar_direction(ar) == RB_AR_WRITE) return rb_node_uint(rb_node_get(rb_ar_current(ar), "count"));
    const json_t *field = rb_ar_json_member(ar, "count");
    return json_is_integer(field) && json_integer_value(field) > 0 ? (uint64_t)json_integer_value(field) : 0;
}

/* The vertex count is one fact: the length of the arrays when the stream has them (derived,
 * docs/formats/gbx_item.md "Vertex streams"); a stream without arrays (count 0, a stream model,
 * version 0, no declaration) keeps it as the field `count`, last. */
static void vertex_stream_000(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    rb_slot slot = rb_ar_slot(ar, "vertex count", RB_U32);
    int64_t derived = rb_ar_direction(ar) == RB_AR_READ ? -1 : first_array_length(ar);
    uint64_t count = rb_ar_direction(ar) == RB_AR_READ ? slot.value : derived >= 0 ? (uint64_t)derived : count_field(ar);
    if (!vertex_stream_body(ar, version, count)) count = rb_ar_uint_detached(ar, "count", RB_U32, slot.value);
    rb_ar_slot_set(ar, &slot, count);
}

/* 002 (skippable): fake occlusion, an image and its projections */
static void solid_002(rb_ar *ar)
{
    static const rb_layout_field PROJ_FIELDS[] = {
        {"u01", RB_K_INT, RB_I32}, {"u02", RB_K_INT, RB_I32}, {"u03", RB_K_INT, RB_I32},
        {"qx", RB_K_FLOAT, 4},     {"qy", RB_K_FLOAT, 4},     {"qz", RB_K_FLOAT, 4},     {"qw", RB_K_FLOAT, 4},
        {"u04", RB_K_FLOAT, 4},    {"u05", RB_K_FLOAT, 4},    {"u06", RB_K_FLOAT, 4},    {"u07", RB_K_FLOAT, 4},
        {"u08", RB_K_FLOAT, 4},    {"u09", RB_K_FLOAT, 4},    {"u10", RB_K_FLOAT, 4}};
    static const rb_layout PROJ = {"fake occlusion projection", PROJ_FIELDS, 14};
    rb_slot size = rb_ar_slot(ar, "image length", RB_U32);
    const rb_node *image = rb_ar_bytes(ar, "fileImageBytes", RB_K_BLOB, size.value);
    rb_ar_slot_set(ar, &size, image ? image->v.bytes.size : 0);
    rb_ar_table(ar, "fakeOccProjs", RB_U32, &PROJ);
}

static const gbx_chunk_def SOLID_CHUNKS[] = {
    {0x090BB000, 0, "solid", solid_000},
    {0x090BB002, 1, "solid fake occlusion", solid_002},
    {0x09006001, 0, "visual id", visual_001},
    {0x09006004, 0, "visual node", visual_004},
    {0x09006005, 0, "visual sub-visuals", visual_005},
    {0x09006006, 0, "visual normals", visual_006},
    {0x09006007, 0, "visual 007", visual_007},
    {0x09006009, 0, "visual 009", visual_009},
    {0x09006008, 0, "visual vertices and UVs (TM 1.0)", visual_008},
    {0x0900600A, 0, "visual vertices and UVs (old)", visual_00a},
    {0x0900600C, 0, "visual vertices and UVs (TMNESWC)", visual_00c},
    {0x0900600D, 0, "visual vertices and UVs (TMF, 00D)", visual_00d},
    {0x0900600E, 0, "visual vertices and UVs (TMF)", visual_00e},
    {0x0900600B, 0, "visual splits", visual_00b},
    {0x0900600F, 0, "visual vertices and UVs", visual_00f},
    {0x09006010, 0, "visual morphs", visual_010},
    {0x0906A000, 0, "visual indices (TM 1.0)", visual_indexed_000},
    {0x0902C002, 0, "visual 3D node", visual3d_002},
    {0x0902C003, 0, "visual 3D vertices (old)", visual3d_003},
    {0x0902C004, 0, "visual 3D vertices", visual3d_004},
    {0x0906A001, 0, "visual index buffer", visual_indexed_001},
    {0x09057000, 0, "index buffer", index_buffer_000},
    {0x09057001, 0, "index buffer (deltas)", index_buffer_001},
    {0x09056000, 0, "vertex stream", vertex_stream_000},
};

const gbx_chunk_table gbx_solid_chunks = {SOLID_CHUNKS, sizeof SOLID_CHUNKS / sizeof SOLID_CHUNKS[0]};
