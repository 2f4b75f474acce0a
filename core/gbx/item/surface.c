/*
 * Collision shapes: CPlugSurface (0x0900C000), the main node of .Shape.Gbx files and the shape
 * of block item variants: a surface (sphere, ellipsoid, box, triangle mesh or a compound of
 * surfaces) and the materials its triangles name.
 *
 * Layouts: docs/formats/gbx_item.md "Surface chunks" (from GBX.NET's CPlugSurface.cs and
 * .chunkl, checked on the shapes embedded in the corpus maps).
 */
#include "core/gbx/item/item_shapes.h"

enum { SURF_SPHERE = 0, SURF_ELLIPSOID = 1, SURF_BOX = 6, SURF_MESH = 7, SURF_COMPOUND = 13 };
enum { SURF_MAX_DEPTH = 16 }; /* compounds of compounds: bounded, the input decides the depth */

static const rb_layout_field COOKED_TRIANGLE_FIELDS[] = {
    {"u01", RB_K_FLOAT, 4}, {"u02", RB_K_FLOAT, 4}, {"u03", RB_K_FLOAT, 4}, {"u04", RB_K_FLOAT, 4},
    {"a", RB_K_INT, RB_I32},  {"b", RB_K_INT, RB_I32},  {"c", RB_K_INT, RB_I32},
    {"surfaceIndex", RB_K_INT, RB_I16}, {"u05", RB_K_INT, RB_U8}, {"u06", RB_K_INT, RB_U8},
};
static const rb_layout COOKED_TRIANGLE = {"cooked triangle", COOKED_TRIANGLE_FIELDS, 10};

static const rb_layout_field OCTREE_CELL_FIELDS[] = {
    {"u01", RB_K_INT, RB_I32}, {"u02", RB_K_FLOAT, 4}, {"u03", RB_K_FLOAT, 4}, {"u04", RB_K_FLOAT, 4},
    {"u05", RB_K_FLOAT, 4},    {"u06", RB_K_FLOAT, 4}, {"u07", RB_K_FLOAT, 4}, {"u08", RB_K_INT, RB_I32},
};
static const rb_layout OCTREE_CELL = {"octree cell", OCTREE_CELL_FIELDS, 8};

static const rb_layout_field AABB_CELL_FIELDS[] = {
    {"u01", RB_K_FLOAT, 4}, {"u02", RB_K_FLOAT, 4}, {"u03", RB_K_FLOAT, 4}, {"u04", RB_K_FLOAT, 4},
    {"u05", RB_K_FLOAT, 4}, {"u06", RB_K_FLOAT, 4}, {"u07", RB_K_INT, RB_I32},
};
static const rb_layout AABB_CELL = {"AABB tree cell", AABB_CELL_FIELDS, 7};

/* a triangle of a version 6-7 mesh: three vertex indices, two bytes, the material index */
static const rb_layout_field TRIANGLE_FIELDS[] = {
    {"a", RB_K_INT, RB_I32}, {"b", RB_K_INT, RB_I32}, {"c", RB_K_INT, RB_I32},
    {"u01", RB_K_INT, RB_U8}, {"u02", RB_K_INT, RB_U8}, {"surfaceIndex", RB_K_INT, RB_I16},
};
static const rb_layout TRIANGLE = {"surface triangle", TRIANGLE_FIELDS, 6};

static const rb_layout_field I16_FIELD[] = {{NULL, RB_K_INT, RB_I16}};
static const rb_layout I16_ELEMENT = {"int16", I16_FIELD, 1};

static void surf_mesh(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "meshVersion");
    if (!rb_ar_ok(ar)) return;
    switch (version) {
    case 1: case 2: case 3: {
        item_vec3_table(ar, "vertices");
        rb_ar_table(ar, "cookedTriangles", RB_U32, &COOKED_TRIANGLE);
        int32_t octree = rb_ar_i32(ar, "octreeVersion");
        if (octree == 1) rb_ar_u32(ar, "octreeListVersion");
        rb_ar_table(ar, "octreeCells", RB_U32, &OCTREE_CELL);
        break;
    }
    case 5:
        item_vec3_table(ar, "vertices");
        rb_ar_table(ar, "cookedTriangles", RB_U32, &COOKED_TRIANGLE);
        rb_ar_i32(ar, "u01");
        rb_ar_table(ar, "aabbTreeCells", RB_U32, &AABB_CELL);
        break;
    case 6: case 7:
        item_vec3_table(ar, "vertices");
        rb_ar_table(ar, "triangles", RB_U32, &TRIANGLE);
        break;
    default:
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "surface mesh version %u is not known (1-3, 5-7 are)", version);
        break;
    }
}

static void surf(rb_ar *ar, const char *key, uint32_t surf_version, int depth);

static void surf_compound(rb_ar *ar, uint32_t surf_version, int depth)
{
    if (depth >= SURF_MAX_DEPTH) {
        rb_ar_fail(ar, RB_E_LIMIT, "compound surfaces nested deeper than %d", SURF_MAX_DEPTH);
        return;
    }
    uint64_t n = item_list_begin(ar, "surfs", 8);
    RB_AR_LIST(ar, i, n) surf(ar, NULL, surf_version, depth + 1);
    /* one location per surface, without a count of its own */
    uint64_t m = rb_ar_list_begin_n(ar, "surfLocs", n, 48);
    if (rb_ar_ok(ar) && m != n) {
        rb_ar_fail(ar, RB_E_MODEL, "surfLocs has %llu locations for %llu surfaces", (unsigned long long)m,
                   (unsigned long long)n);
        return;
    }
    RB_AR_LIST(ar, i, m) item_iso4(ar, NULL);
    if (surf_version >= 1) rb_ar_table(ar, "surfJoints", RB_U32, &I16_ELEMENT);
}

static void surf(rb_ar *ar, const char *key, uint32_t surf_version, int depth)
{
    rb_ar_record_begin(ar, key);
    int32_t type = rb_ar_i32(ar, "type");
    if (!rb_ar_ok(ar)) return;
    switch (type) {
    case SURF_SPHERE: rb_ar_f32(ar, "size"); break;
    case SURF_ELLIPSOID: gbx_vec3(ar, "size"); break;
    case SURF_BOX: gbx_floats(ar, "box", 6); break;
    case SURF_MESH: surf_mesh(ar); break;
    case SURF_COMPOUND: surf_compound(ar, surf_version, depth); break;
    default: rb_ar_fail(ar, RB_E_UNSUPPORTED, "surface type %d has no known layout", type); return;
    }
    if (surf_version >= 1 && (type == SURF_SPHERE || type == SURF_ELLIPSOID || type == SURF_BOX))
        rb_ar_sint(ar, "surfaceIndex", RB_I16);
    if (surf_version >= 2) gbx_vec3(ar, "gameplayMainDir");
    rb_ar_record_end(ar);
}

/* A material: a node, or (when there is none) a surface id. */
static uint64_t surface_materials(rb_ar *ar)
{
    uint64_t n = item_list_begin(ar, "materials", 4);
    RB_AR_RECORDS(ar, i, n) {
        if (gbx_bool(ar, "hasMaterial")) gbx_noderef(ar, "material");
        else rb_ar_sint(ar, "surfaceId", RB_I16);
    }
    return n;
}

static const rb_layout_field U16_FIELD[] = {{NULL, RB_K_INT, RB_U16}};
static const rb_layout U16_ELEMENT = {"uint16", U16_FIELD, 1};

static void surface_003(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, version, 5, "surface 0x0900C003")) return;
    uint32_t surf_version = version >= 2 ? rb_ar_u32(ar, "surfVersion") : version == 1 ? 1 : 0;
    surf(ar, "surf", surf_version, 0);
    uint64_t materials = surface_materials(ar);
    /* GBX.NET: present from version 4 when there are materials, though the game's code lacks it */
    if (version >= 4 && materials > 0) rb_ar_i32(ar, "u05");
    if (version < 3) {
        rb_slot size = rb_ar_slot(ar, "u01 length", RB_U32);
        const rb_node *data = rb_ar_bytes(ar, "u01", RB_K_BLOB, size.value);
        rb_ar_slot_set(ar, &size, data ? data->v.bytes.size : 0);
    } else {
        rb_ar_table(ar, "u02", RB_U32, &U16_ELEMENT);
    }
    if (version >= 1) gbx_noderef(ar, "skel");
    if (version >= 5) item_id_list(ar, "u06");
}

/* ---------- CPlugSkel 0x090BA000 (docs/formats/gbx_item.md "Skeleton chunk") ---------- */

static void skel_data(rb_ar *ar, const char *key)
{
    rb_slot size = rb_ar_slot(ar, "data length", RB_U32);
    const rb_node *data = rb_ar_bytes(ar, key, RB_K_BLOB, size.value);
    rb_ar_slot_set(ar, &size, data ? data->v.bytes.size : 0);
}

static void skel_joints(rb_ar *ar, uint32_t v)
{
    /* the joint count is an i16 */
    item_count c = item_count_begin(ar, "joint count", RB_U16, "joints");
    uint64_t n = rb_ar_list_begin_n(ar, "joints", c.count, 6);
    RB_AR_RECORDS(ar, i, n) {
        gbx_id(ar, "name");
        rb_ar_sint(ar, "parentIndex", RB_I16);
        if (v <= 14) {
            gbx_floats(ar, "globalJoint", 4);
            gbx_vec3(ar, "u01");
        }
        if (v >= 1) item_iso4(ar, "u02");
    }
    if (n > 0x7FFF) rb_ar_fail(ar, RB_E_MODEL, "a skeleton stores at most 32767 joints, has %llu", (unsigned long long)n);
    item_count_end(ar, &c, n);
}

/* A flag GBX.NET knows only as false: what follows a true one is not known. */
static int skel_flag_false(rb_ar *ar, const char *key)
{
    if (gbx_bool(ar, key) && rb_ar_ok(ar)) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "skeleton %s set: what follows has no known layout", key);
        return 0;
    }
    return rb_ar_ok(ar);
}

static void skel_000(rb_ar *ar)
{
    uint32_t v = rb_ar_u32(ar, "version");
    if (!item_version_known(ar, v, 20, "skeleton 0x090BA000")) return;
    gbx_id(ar, "name");
    skel_joints(ar, v);
    if (v < 2 || !skel_flag_false(ar, "u01") || v < 6) return;
    uint64_t n = item_list_begin(ar, "sockets", 54);
    RB_AR_RECORDS(ar, i, n) {
        gbx_id(ar, "name");
        rb_ar_sint(ar, "u01", RB_I16);
        item_iso4(ar, "u02");
    }
    if (v < 9 || !skel_flag_false(ar, "u02") || v < 10) return;
    if (v >= 16) {
        skel_data(ar, "u04");
        if (v >= 18) skel_data(ar, "u04b");
    } else {
        gbx_i32_list(ar, "u03");
    }
    if (v >= 13) {
        if (v < 16) skel_data(ar, "u04");
        if (v == 14) {
            rb_ar_i32(ar, "u09");
            if (!rb_ar_empty_list(ar, "jointExpressions", RB_U32, "skeleton joint expressions")) return;
        }
        if (v >= 19) skel_data(ar, "u07");
    }
    if (v >= 17) {
        if (v >= 20) item_vec3_table(ar, "u08");
        rb_ar_u8(ar, "u05");
        rb_ar_i32(ar, "u06");
    }
}

/* ---------- old surface geometry 0x0900D000 (docs/formats/gbx_solid.md "Old surface chunks") ---------- */

/* Chunk 0x0900C000 is an id in the old surface geometry (TrackMania Sunrise) but a geometry and its
 * materials in TrackMania United's CPlugSurface: the class of the node decides. */
static void surface_old_000(rb_ar *ar)
{
    const rb_node *node = rb_ar_enclosing(ar, 2), *cls = node ? rb_node_get(node, "classId") : NULL;
    uint32_t id = cls ? gbx_remap_id((uint32_t)rb_node_uint(cls)) : 0;
    if (id == 0x0900C000) {
        gbx_noderef(ar, "geom");
        surface_materials(ar);
        return;
    }
    if (id != 0x0900D000 && id != 0x0900F000) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "surface 0x0900C000 in a node of class 0x%08X has no known layout", id);
        return;
    }
    gbx_id(ar, "u01");
}

static void surface_old_001(rb_ar *ar) { gbx_bool(ar, "u01"); }
static void surface_geom_old_002(rb_ar *ar) { surf_mesh(ar); }

/* CPlugSurfaceGeom 002 and 004 (TMF): a surface of surf version 0 and its surface id; 004 with
 * an id and a bounding box in front */
static void surface_geom_002(rb_ar *ar)
{
    surf(ar, "surf", 0, 0);
    rb_ar_sint(ar, "surfaceId", RB_I16);
}

static void surface_geom_004(rb_ar *ar)
{
    gbx_id(ar, "u01");
    gbx_floats(ar, "u02", 6);
    surface_geom_002(ar);
}

static const gbx_chunk_def SURFACE_CHUNKS[] = {
    {0x0900C000, 0, "surface geometry and materials (TMF), or id (old)", surface_old_000},
    {0x0900C001, 0, "surface 001 (old)", surface_old_001},
    {0x0900C003, 0, "surface", surface_003},
    {0x0900D002, 0, "surface geometry mesh (old)", surface_geom_old_002},
    {0x0900F002, 0, "surface geometry", surface_geom_002},
    {0x0900F004, 0, "surface geometry with its box", surface_geom_004},
    {0x090BA000, 0, "skeleton", skel_000},
};

const gbx_chunk_table gbx_surface_chunks = {SURFACE_CHUNKS, sizeof SURFACE_CHUNKS / sizeof SURFACE_CHUNKS[0]};
