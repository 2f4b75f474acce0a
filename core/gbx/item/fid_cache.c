/*
 * A game's file index: a `.FidCache.Gbx` (TMF dedicated servers keep `GameData/Game.FidCache.Gbx`)
 * is a CMwRefBuffer (0x01026000) of CPlugFileFidCache nodes (0x09049000), one per folder tree the
 * game scanned: the folders, the files in them with their size and class, the times the folders
 * were scanned, and the header of every file, so the game can list maps without opening them.
 * It lives beside the item files for their list and version helpers.
 *
 * Layouts: docs/formats/gbx.md "File index (FidCache)" (CMwRefBuffer from GBX.NET's .chunkl; the
 * fid cache node has no public description and was read from a public file).
 */
#include "core/gbx/item/item_shapes.h"

/* 000: the class of the nodes held, whether the buffer counts references, the nodes */
static void ref_buffer_000(rb_ar *ar)
{
    rb_ar_x32(ar, "nodClassId");
    gbx_bool(ar, "useAddRefRelease");
    gbx_noderef_deprec_list(ar, "nods");
}

static void ref_buffer_001(rb_ar *ar) { gbx_id(ar, "bufferId"); }

static void fid_cache_files(rb_ar *ar)
{
    uint64_t n = item_list_begin(ar, "files", 36);
    RB_AR_RECORDS(ar, i, n) {
        rb_ar_i32(ar, "folder");
        gbx_string(ar, "name");
        rb_ar_u32(ar, "headerOffset"); /* where its header starts in `headers` */
        gbx_fields(ar, GBX_FIELDS({'u', "size"}, {'u', "u01"}, {'i', "u02"}, {'X', "classId"}, {'u', "u03"},
                                   {'u', "u04"}));
    }
}

/* CPlugFileFidCache (0x09049000): one scanned folder tree; its nodes are this archive alone */
static void fid_cache(rb_ar *ar)
{
    static const rb_layout_field TIME_FIELD[] = {{NULL, RB_K_INT, RB_U64}};
    static const rb_layout TIME = {"file time", TIME_FIELD, 1};
    uint32_t version = rb_ar_u32(ar, "version");
    if (rb_ar_ok(ar) && version != 5) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "file index 0x09049000 version %u has no known layout (5 has)", version);
        return;
    }
    rb_ar_x32(ar, "u01");
    gbx_string(ar, "root");
    uint64_t folders = item_fields_list(ar, "folders", 8, GBX_FIELDS({'i', "parent"}, {'s', "name"}));
    fid_cache_files(ar);
    /* one scan time for the root and one per folder */
    uint64_t times = rb_ar_table_n(ar, "folderTimes", folders + 1, &TIME);
    if (rb_ar_ok(ar) && times != folders + 1)
        rb_ar_fail(ar, RB_E_MODEL, "folderTimes has %llu times for %llu folders (one more than the folders)",
                   (unsigned long long)times, (unsigned long long)folders);
    rb_slot size = rb_ar_slot(ar, "headers size", RB_U32);
    const rb_node *headers = rb_ar_bytes(ar, "headers", RB_K_BLOB, size.value);
    rb_ar_slot_set(ar, &size, headers ? headers->v.bytes.size : 0);
}

static const gbx_chunk_def FID_CACHE_CHUNKS[] = {
    {0x01026000, 0, "reference buffer nodes", ref_buffer_000},
    {0x01026001, 0, "reference buffer id", ref_buffer_001},
    {0x09049000, GBX_WHOLE_NODE, "file index", fid_cache},
};

const gbx_chunk_table gbx_fid_cache_chunks = {FID_CACHE_CHUNKS, sizeof FID_CACHE_CHUNKS / sizeof FID_CACHE_CHUNKS[0]};
