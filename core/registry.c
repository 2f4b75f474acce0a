/* The format table: adding a format touches its folder and one line here. */
#include <string.h>
#include "doc.h"
#include "gbx/gbx.h"
#include "gm/gm.h"
#include "streamer/streamer.h"
#include "tres/tres.h"

static const rb_format *const FORMATS[] = {
    &rb_format_gbx,
    &rb_format_datawin,
    &rb_format_streamer,
    &rb_format_groff, &rb_format_tres_pid, &rb_format_tres_tpa, &rb_format_tres_wtd, &rb_format_tres_spz,
};

const rb_format *const *rb_formats(size_t *count)
{
    *count = sizeof FORMATS / sizeof FORMATS[0];
    return FORMATS;
}

const rb_format *rb_format_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof FORMATS / sizeof FORMATS[0]; i++)
        if (strcmp(FORMATS[i]->name, name) == 0) return FORMATS[i];
    return NULL;
}

const rb_format *rb_format_detect(const uint8_t *data, size_t size)
{
    const rb_format *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < sizeof FORMATS / sizeof FORMATS[0]; i++) {
        int score = FORMATS[i]->detect(data, size);
        if (score > best_score) {
            best_score = score;
            best = FORMATS[i];
        }
    }
    return best;
}

size_t rb_format_count(void)
{
    size_t n;
    rb_formats(&n);
    return n;
}

const char *rb_format_name(size_t index)
{
    size_t n;
    const rb_format *const *formats = rb_formats(&n);
    return index < n ? formats[index]->name : NULL;
}

const char *rb_format_description(size_t index)
{
    size_t n;
    const rb_format *const *formats = rb_formats(&n);
    return index < n ? formats[index]->description : NULL;
}
