/* GameMaker data.win (IFF "FORM" game package). */
#ifndef RB_GM_H
#define RB_GM_H
#include "../doc.h"

extern const rb_format rb_format_datawin;
#endif
