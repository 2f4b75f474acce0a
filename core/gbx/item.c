/* Chunk layouts: see the table at the end. (Filled in as classes are typed.) */
#include "gbx_internal.h"

const gbx_chunk_table gbx_item_chunks = {NULL, 0};
/* ---------- header chunks of items and macroblocks (facts §1.2, §9; GBX.NET CGameCtnCollector,
 * CGameItemModel) ---------- */

/* 2E001003 "Desc": ident, catalog page, flags, name. */
static void item_header_desc(rb_ar *ar)
{
    gbx_meta(ar, "ident");
    uint32_t version = rb_ar_u32(ar, "version");
    gbx_string(ar, "pageName");
    if (version == 5) gbx_id(ar, "u01");
    if (version >= 4) gbx_id(ar, "parentCollectorId");
    if (version < 3) return;
    rb_ar_x32(ar, "flags");
    rb_ar_u16(ar, "catalogPosition");
    if (version <= 5) {
        rb_ar_u8(ar, "nbAvailableMin");
        rb_ar_u32(ar, "copperPrice");
        rb_ar_u16(ar, "nbAvailableMax");
    }
    if (version < 7) return;
    gbx_string(ar, "name");
    if (version >= 8) rb_ar_u8(ar, "prodState");
}

/* 2E001004 "Icon": u16 width, u16 height; both with bit 15 set = WebP data follows, else
 * width x height 32-bit pixels. */
static void item_header_icon(rb_ar *ar)
{
    uint16_t width = (uint16_t)rb_ar_uint(ar, "width", RB_U16 | RB_W_HEX);
    uint16_t height = (uint16_t)rb_ar_uint(ar, "height", RB_U16 | RB_W_HEX);
    if ((width & 0x8000) && (height & 0x8000)) {
        rb_ar_u16(ar, "u01");
        rb_slot size = rb_ar_slot(ar, "iconWebP size", RB_U32);
        const rb_node *webp = rb_ar_bytes(ar, "iconWebP", RB_K_BLOB, size.value);
        rb_ar_slot_set(ar, &size, webp ? webp->v.bytes.size : 0);
        return;
    }
    rb_ar_bytes(ar, "icon", RB_K_BLOB, (uint64_t)width * height * 4);
}

/* 2E001006: when the lightmap was computed (a Windows FILETIME). */
static void item_header_lightmap_time(rb_ar *ar) { rb_ar_u64(ar, "lightmapComputeTime"); }

static void item_header_item_type(rb_ar *ar) { rb_ar_u32(ar, "itemType"); }
static void item_header_file_version(rb_ar *ar) { rb_ar_u32(ar, "version"); }

static const gbx_chunk_def ITEM_HEADER_CHUNKS[] = {
    {0x2E001003, 0, "collector description", item_header_desc},
    {0x2E001004, 0, "collector icon", item_header_icon},
    {0x2E001006, 0, "lightmap compute time", item_header_lightmap_time},
    {0x2E002000, 0, "item type", item_header_item_type},
    {0x2E002001, 0, "item file version", item_header_file_version},
};

const gbx_chunk_table gbx_item_header_chunks = {ITEM_HEADER_CHUNKS, sizeof ITEM_HEADER_CHUNKS / sizeof ITEM_HEADER_CHUNKS[0]};
