/*
 * libFuzzer harness for data.win texture pages (docs/formats/datawin.md "Texture encodings"):
 * the input is a page blob (PNG, GameMaker QOI, bzip2 + QOI). When it decodes, it is encoded
 * again in its own form and must decode to the same pixels; a TPAG item made from the pixels'
 * first bytes is cut from it and drawn back (docs/formats/datawin.md "TPAG"). A refusal must
 * say why. Pictures are capped at 4 MiB of pixels to keep each run cheap.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/datawin/datawin_pictures.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    datawin_picture page, again;
    char why[200] = "";
    if (datawin_page_decode(data, size, 4u << 20, &page, why, sizeof why) != 0) {
        if (!why[0]) abort();
        return 0;
    }
    datawin_page_form form = datawin_page_form_of(data, size);
    rb_buf out;
    rb_buf_init(&out);
    if (datawin_page_encode(&page, form, &out, why, sizeof why) != 0) abort();
    if (datawin_page_decode(out.data, out.size, 4u << 20, &again, why, sizeof why) != 0) abort();
    if (!datawin_picture_equal(&page, &again)) abort();
    rb_buf_free(&out);
    datawin_picture_free(&again);
    /* an item whose fields come from the picture's first pixels */
    uint8_t f[22] = {0};
    memcpy(f, page.rgba, (size_t)page.width * page.height * 4 < sizeof f ? (size_t)page.width * page.height * 4 : sizeof f);
    datawin_item item = {f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], 0};
    datawin_picture cut;
    if (datawin_item_cut(&page, &item, 4u << 20, &cut, why, sizeof why) == 0) {
        if (datawin_item_fits(&item, &cut)) datawin_item_draw(&page, &item, &cut);
        datawin_picture_free(&cut);
    } else if (!why[0]) {
        abort();
    }
    datawin_picture_free(&page);
    return 0;
}
