/* The format table: adding a format touches its folder and one line here (docs/formats/adding.md).
 * Order breaks detection ties: the first of equal confidence wins. */
#include <string.h>
#include "core/doc/doc.h"

#define RB_REGISTERED_FORMATS(X)                                                                          \
    X(rb_format_gbx)                                                                                      \
    X(rb_format_datawin)                                                                                  \
    X(rb_format_streamer)                                                                                 \
    X(rb_format_groff)                                                                                    \
    X(rb_format_pid)                                                                                      \
    X(rb_format_tpa)                                                                                      \
    X(rb_format_wtd)                                                                                      \
    X(rb_format_spz)

#define DECLARE_FORMAT(entry) extern const rb_format entry;
#define LIST_FORMAT(entry) &entry,
RB_REGISTERED_FORMATS(DECLARE_FORMAT)

static const rb_format *const FORMATS[] = {RB_REGISTERED_FORMATS(LIST_FORMAT)};

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
