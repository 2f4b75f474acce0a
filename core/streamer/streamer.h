#ifndef RB_STREAMER_H
#define RB_STREAMER_H
#include "core/doc/doc.h"
/* SA:MP streamer plugin map files ("strmrgrps01"); docs/formats/streamer.md. */
extern const rb_format rb_format_streamer;
/* Its game rules (streamer_rules.c; docs/formats/streamer.md "Game rules"). */
const struct rb_rule *streamer_rules(size_t *count);
#endif
