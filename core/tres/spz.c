/*
 * Trespasser packed swap file, `<level>-130.spz` (docs/formats/tres.md "SPZ (spz)"): the
 * uncompressed size as u32, then one continuous LZSS stream (writers/lzss.h) over the whole .swp
 * texel image. The original stream is kept and written back while the texels are unchanged; edited
 * texels are re-encoded with Okumura's encoder (the one lzencode.exe is built from).
 */
#include <stdlib.h>
#include "core/tres/tres.h"
#include "core/tres/tres_assets.h"
#include "writers/lzss.h"

enum { SPZ_MAX_DETECT = 1u << 30 };

static int spz_detect(const uint8_t *data, size_t size)
{
    /* no magic: the whole stream must decode to exactly the declared size (at most 144 bytes
     * come out of 17 going in) without reading the window's uninitialised tail */
    if (size < 5) return 0;
    uint64_t declared = data[0] | data[1] << 8 | data[2] << 16 | (uint64_t)data[3] << 24;
    if (declared == 0 || declared > SPZ_MAX_DETECT || declared > (uint64_t)(size - 4) * 9) return 0;
    uint8_t *out = malloc((size_t)declared);
    if (!out) return 0;
    char why[160];
    int ok = rb_lzss_decode(&rb_lzss_spz_params, data + 4, size - 4, out, (size_t)declared, why, sizeof why) == 0;
    free(out);
    return ok ? 40 : 0;
}

static void spz_describe(rb_ar *ar)
{
    rb_slot size = rb_ar_slot(ar, "uncompressed size", RB_U32);
    rb_ar_stream_begin(ar, "swap", &rb_codec_lzss_spz, size.value, rb_ar_remaining(ar));
    rb_ar_bytes(ar, "texels", RB_K_BLOB, rb_ar_remaining(ar)); /* the .swp image, addressed by the .pid */
    rb_slot none = {0};
    rb_ar_stream_end(ar, &size, &none);
}

const rb_format rb_format_spz = {
    .name = "spz",
    .description = "Trespasser LZSS-packed texture swap file (-130.spz)",
    .summary = tres_summary_spz,
    .detect = spz_detect,
    .describe = spz_describe,
    .assets = spz_assets,
    .asset_patch = spz_asset_patch,
};
