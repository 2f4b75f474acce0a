/*
 * Trespasser packed image directory, `<level>-130.pid` (docs/formats/tres.md "PID layout"): a
 * 32-byte header, the palettes, then one 56-byte entry per texture and mip level describing where
 * its texels sit in the matching .swp. Offsets, counts, sizes and palette hashes are derived on
 * write; a stored value that differs from the derived one is kept (`stored...`) so the file still
 * round-trips. The junk the original tool left (the extra colour slot of each palette, the padding
 * before each entry's 64-bit id) is kept verbatim.
 */
#include <stdlib.h>
#include <string.h>
#include "core/tres/tres.h"
#include "core/tres/tres_assets.h"
#include "core/bytes.h"

enum { PID_VERSION = 0x130, PID_HEADER_BYTES = 32, PID_ENTRY_BYTES = 56, PID_PALETTE_FIXED = 16 };


static int pid_detect(const uint8_t *data, size_t size)
{
    /* no magic: a version, a bit depth and a palette offset that must hold, and tables that fit */
    if (size < PID_HEADER_BYTES || rb_le32(data) != PID_VERSION || rb_le32(data + 4) != 16 ||
        rb_le32(data + 16) != PID_HEADER_BYTES)
        return 0;
    uint64_t entries_at = rb_le32(data + 8), entries = rb_le32(data + 12);
    if (entries_at < PID_HEADER_BYTES || entries_at > size || entries > (size - entries_at) / PID_ENTRY_BYTES) return 0;
    return 60;
}

/* A value derived on write; a differing stored one is kept under `key`. */
static void derived(rb_ar *ar, const char *key, rb_slot *slot, uint64_t computed)
{
    uint64_t value = computed;
    if (rb_ar_has(ar, key, slot->value != computed)) value = rb_ar_uint_detached(ar, key, RB_X32, slot->value);
    rb_ar_slot_set(ar, slot, value);
}

static const rb_layout_field PID_COLOUR_FIELDS[] = {{NULL, RB_K_INT, RB_X32}}; /* 0x00RRGGBB */
static const rb_layout PID_COLOUR = {"palette colour", PID_COLOUR_FIELDS, 1};

static void pid_palette(rb_ar *ar)
{
    rb_ar_record_begin(ar, NULL);
    rb_slot size = rb_ar_slot(ar, "palette size", RB_U32);
    rb_slot count = rb_ar_slot(ar, "colour count", RB_U32);
    rb_slot hash = rb_ar_slot(ar, "palette hash", RB_U32);
    if (rb_ar_direction(ar) == RB_AR_READ && size.value != PID_PALETTE_FIXED + 4 * count.value) {
        rb_ar_fail(ar, RB_E_FORMAT, "palette size %llu is not 16 + 4 x %llu colours", (unsigned long long)size.value,
                   (unsigned long long)count.value);
        rb_ar_record_end(ar);
        return;
    }
    uint64_t n = rb_ar_table_n(ar, "colours", count.value, &PID_COLOUR);
    const rb_node *table = rb_node_get(rb_ar_current(ar), "colours");
    uint32_t *colours = calloc(n + 1, sizeof *colours);
    if (!colours) rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu colours", (unsigned long long)n);
    RB_AR_EACH(ar, i, n) colours[i] = (uint32_t)rb_element_uint(table, i, NULL);
    /* the game trusts the stored hash and folds it into mip ids: derive it from the colours */
    uint32_t computed = colours ? rb_tres_palette_hash(colours, (size_t)n) : 0;
    free(colours);
    derived(ar, "storedHash", &hash, computed);
    rb_ar_bytes(ar, "spareSlot", RB_K_BLOB, 4); /* one colour slot more than used: junk */
    rb_ar_slot_set(ar, &count, n);
    rb_ar_slot_set(ar, &size, PID_PALETTE_FIXED + 4 * n);
    rb_ar_record_end(ar);
}

/* One entry per texture and mip level: a table, kept packed (thousands of them in a level). */
static const rb_layout_field PID_ENTRY_FIELDS[] = {
    {"entry size", RB_LAYOUT_CONSTANT, RB_U32, .constant = PID_ENTRY_BYTES},
    {"swpOffset", RB_K_INT, RB_X32},
    {"width", RB_K_INT, RB_U32},
    {"height", RB_K_INT, RB_U32},
    {"stride", RB_K_INT, RB_U32},
    {"bitsPerPixel", RB_K_INT, RB_U32},
    {"constantColour", RB_K_INT, RB_X32},
    {"transparent", RB_K_INT, RB_X32},
    {"bump", RB_K_INT, RB_X32},
    {"occlusion", RB_K_INT, RB_X32},
    {"palette", RB_K_INT, RB_X32},        /* index, 0xFFFFFFFF = none */
    {"padding", RB_K_BLOB, .size = 4},     /* struct padding before the 64-bit id: junk */
    {"textureId", RB_K_INT, RB_X32},
    {"mipInfo", RB_K_INT, RB_X32},         /* 0 at the top level, else width | height << 10 | palette fold << 20 */
};
static const rb_layout PID_ENTRY = {"texture entry", PID_ENTRY_FIELDS, 14};

static void pid_describe(rb_ar *ar)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    uint32_t version = rb_ar_x32(ar, "version");
    if (rb_ar_ok(ar) && reading && version != PID_VERSION)
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "PID version 0x%X (the game accepts only 0x130)", version);
    rb_ar_u32(ar, "bumpBitDepth");
    rb_slot entries_at = rb_ar_slot(ar, "entry offset", RB_U32);
    rb_slot entry_count = rb_ar_slot(ar, "entry count", RB_U32);
    rb_slot palettes_at = rb_ar_slot(ar, "palette offset", RB_U32);
    rb_slot palette_count = rb_ar_slot(ar, "palette count", RB_U32);
    rb_ar_x32(ar, "swpPageableOffset");
    rb_ar_x32(ar, "swpNonPageableUsed");
    if (reading && palettes_at.value != PID_HEADER_BYTES) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "palettes at 0x%llX, not right after the header",
                   (unsigned long long)palettes_at.value);
        return;
    }
    rb_ar_slot_set(ar, &palettes_at, rb_ar_tell(ar));
    uint64_t n = rb_ar_list_begin_n(ar, "palettes", palette_count.value, PID_PALETTE_FIXED);
    RB_AR_LIST(ar, i, n) pid_palette(ar);
    rb_ar_slot_set(ar, &palette_count, n);
    /* bytes between the palettes and the entries (none in known files) are kept */
    uint64_t gap = reading && entries_at.value > rb_ar_tell(ar) ? entries_at.value - rb_ar_tell(ar) : 0;
    if (rb_ar_ok(ar) && reading && entries_at.value < rb_ar_tell(ar)) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "entries at 0x%llX overlap the palettes", (unsigned long long)entries_at.value);
        return;
    }
    if (rb_ar_has(ar, "gap", gap != 0)) rb_ar_bytes(ar, "gap", RB_K_OPAQUE, gap);
    rb_ar_slot_set(ar, &entries_at, rb_ar_tell(ar));
    n = rb_ar_table_n(ar, "entries", entry_count.value, &PID_ENTRY);
    rb_ar_slot_set(ar, &entry_count, n);
    if (rb_ar_has(ar, "trailing", reading && !rb_ar_at_end(ar))) rb_ar_rest(ar, "trailing");
}

const rb_format rb_format_pid = {
    .name = "pid",
    .description = "Trespasser packed image directory (-130.pid)",
    .summary = tres_summary_pid,
    .detect = pid_detect,
    .describe = pid_describe,
    .assets = pid_assets,
};
