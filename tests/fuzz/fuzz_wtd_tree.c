/*
 * libFuzzer harness for the WTD zero-tree coder (core/tres/wtd_tree.c), both ways:
 *  - the input as a .wtd file: when the scan accepts it, decode, and encoding the content must
 *    give the input back bit for bit (what the reader's typed path promises), and its height
 *    grid must build;
 *  - the input after its first byte as decoded content: when the encoder accepts it, decoding
 *    the result must give the content back.
 * A refusal must say why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/tres/wtd_tree.h"

static void as_file(const uint8_t *data, size_t size)
{
    rb_wtd_summary s;
    char why[300] = "";
    if (rb_wtd_scan(data, size, 1u << 24, &s, why, sizeof why) != 0) {
        if (!why[0]) abort();
        return;
    }
    size_t content_size = rb_wtd_content_size(s.significant);
    uint8_t *content = malloc(content_size);
    if (!content) return;
    if (rb_codec_wtd_tree.decode(data, size, content, content_size, why, sizeof why) != 0) abort();
    rb_buf again;
    rb_buf_init(&again);
    if (rb_codec_wtd_tree.encode(content, content_size, &again, why, sizeof why) != 0) abort();
    if (again.size != size || memcmp(again.data, data, size) != 0) abort();
    int32_t *heights = NULL;
    uint32_t side = 0, root = rb_wtd_root_size(content);
    uint32_t spacing = root > 64 ? root / 64 : 1; /* a 64 x 64 grid keeps each run cheap */
    if (rb_wtd_heights(content, content_size, spacing, UINT64_MAX, &heights, &side, why, sizeof why) != 0) abort();
    free(heights);
    rb_buf_free(&again);
    free(content);
}

static void as_content(const uint8_t *data, size_t size)
{
    rb_buf file;
    rb_buf_init(&file);
    char why[300] = "";
    if (rb_codec_wtd_tree.encode(data, size, &file, why, sizeof why) != 0) {
        if (!why[0]) abort();
        rb_buf_free(&file);
        return;
    }
    uint8_t *back = malloc(size);
    if (!back) abort();
    if (rb_codec_wtd_tree.decode(file.data, file.size, back, size, why, sizeof why) != 0) abort();
    if (memcmp(back, data, size) != 0) abort();
    free(back);
    rb_buf_free(&file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    if (data[0] & 1) as_content(data + 1, size - 1);
    else as_file(data + 1, size - 1);
    return 0;
}
