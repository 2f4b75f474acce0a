#ifndef RB_STREAMER_H
#define RB_STREAMER_H
#include "../doc.h"
/* SA:MP streamer plugin map files ("strmrgrps01"); docs/formats/streamer.md. */
extern const rb_format rb_format_streamer;
#endif
