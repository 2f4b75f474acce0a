/*
 * Items in maps: CGameCtnChallenge chunk 0x03043040 (the anchored-object list, versions 0-7)
 * and CGameCtnAnchoredObject (0x03101000). Layouts: docs/formats/gbx.md "Items in maps".
 *
 * Version rules of 0x03043040, inside its encapsulation:
 *   all:            deprecated list of anchored objects (encapsulated nodes, no index)
 *   1-4, 6, 7:      itemsOnItem: (item index, placed-on item index) pairs (not in 8)
 *   5+:             blockIndexes; snapItemGroups (5, 6: here; 7, 8: after itemIndexes);
 *                   itemIndexes (6+); an array of -1 (not in 6); snappedOnIndexes
 */
#include "core/gbx/engine/gbx_internal.h"
#include "core/gbx/map/map_header.h"

static void items_on_item(rb_ar *ar)
{
    gbx_fields_list(ar, "itemsOnItem", 8, GBX_FIELDS({'i', "itemIndex"}, {'i', "placedOnItemIndex"}));
}

static uint64_t int_list_length(rb_ar *ar, const char *key)
{
    uint64_t n = rb_ar_list_begin(ar, key, RB_U32, 4);
    RB_AR_LIST(ar, i, n) rb_ar_i32(ar, NULL);
    return n;
}

/* Snapping data of TM2020 (versions 5 to 7). snappedOnIndexes holds one entry per anchored
 * object: an edit that adds or removes objects without it would break the map, so a model built
 * from JSON must keep them in step. */
static void snap_arrays(rb_ar *ar, uint32_t version, uint64_t objects)
{
    gbx_i32_list(ar, "blockIndexes");
    if (version < 7) gbx_i32_list(ar, "snapItemGroups");
    if (version >= 6) gbx_i32_list(ar, "itemIndexes");
    if (version >= 7) gbx_i32_list(ar, "snapItemGroups");
    if (version != 6) gbx_i32_list(ar, "u01");
    uint64_t snapped = int_list_length(ar, "snappedOnIndexes");
    if (rb_ar_ok(ar) && rb_ar_checks_edits(ar) && snapped != objects)
        rb_ar_fail(ar, RB_E_MODEL,
                   "snappedOnIndexes has %llu entries for %llu anchored objects: adding or removing items in a "
                   "version %u items chunk breaks its snapping data; remove or add items with one operation on "
                   "anchoredObjects (apply keeps snappedOnIndexes in step), or keep it in step",
                   (unsigned long long)snapped, (unsigned long long)objects, version);
}

static void anchored_object(rb_ar *ar, uint32_t unused)
{
    (void)unused;
    gbx_noderef_encapsulated(ar, NULL);
}

static void chunk_040_items(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (rb_ar_ok(ar) && version > 8) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "items chunk version %u is not known (0 to 8 are)", version);
        return;
    }
    gbx_encapsulation_begin(ar);
    rb_ar_u32(ar, "listVersion");
    gbx_list objects = {"anchoredObjects", 4, anchored_object, 0, gbx_item_is_checkpoint};
    gbx_deferrable_list(ar, &objects);
    uint64_t n = rb_element_count(rb_node_get(rb_ar_current(ar), "anchoredObjects"));
    if (version >= 1 && version != 5 && version < 8) items_on_item(ar);
    if (version >= 5) snap_arrays(ar, version, n);
    gbx_encapsulation_end(ar);
}

/* CGameCtnAnchoredObject 002: one placed item. */
static void anchored_002(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (rb_ar_ok(ar) && (version < 3 || version > 8)) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "anchored object version %u is not known (3 to 8 are)", version);
        return;
    }
    gbx_meta(ar, "itemModel");
    gbx_vec3(ar, "yawPitchRoll");
    RB_AR_LIST(ar, i, rb_ar_list_begin_n(ar, "blockUnitCoord", 3, 1)) rb_ar_u8(ar, NULL);
    gbx_id(ar, "anchorTreeId");
    gbx_vec3(ar, "absolutePositionInMap");
    gbx_noderef_encapsulated(ar, "waypointSpecialProperty");
    /* GBX.NET reads both at exactly version 4 (no sample to confirm; docs/formats/gbx.md "Items in maps") */
    if (version <= 4) rb_ar_u32(ar, "u01");
    uint32_t flags = version >= 4 ? (uint32_t)rb_ar_uint(ar, "flags", RB_U16 | RB_W_HEX) : 0;
    if (version >= 5) gbx_vec3(ar, "pivotPosition");
    if (version >= 6) rb_ar_f32(ar, "scale");
    if (version >= 7 && (flags & 4)) gbx_fileref(ar, "packDesc");
    if (version >= 8) {
        gbx_vec3(ar, "u02");
        gbx_vec3(ar, "u03");
    }
}

GBX_FIELDS_CHUNK(anchored_004, {'u', "version"}, {'i', "u01"})

/* 005: no reference names these fields; every corpus object (13 156, TM2020) stores 1, 4, 0
 * (docs/formats/gbx.md "Items in maps") */
GBX_FIELDS_CHUNK(anchored_005, {'u', "version"}, {'u', "u01"}, {'y', "u02"})

static const gbx_chunk_def ANCHORED_CHUNKS[] = {
    {0x03043040, 1, "items", chunk_040_items},
    {0x03101002, 0, "anchored object", anchored_002},
    {0x03101004, 1, "anchored object 004", anchored_004},
    {0x03101005, 1, "anchored object 005", anchored_005},
};

const gbx_chunk_table gbx_anchored_chunks = {ANCHORED_CHUNKS, sizeof ANCHORED_CHUNKS / sizeof ANCHORED_CHUNKS[0]};
