/* GameMaker data.win (IFF "FORM" game package). */
#ifndef RB_GM_H
#define RB_GM_H
#include "../doc.h"

extern const rb_format rb_format_datawin;
/* The game rules of data.win files (gm_rules.c; docs/formats/gamemaker.md "Game rules"). */
const struct rb_rule *gm_rules(size_t *count);
#endif
