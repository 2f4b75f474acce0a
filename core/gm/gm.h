/* GameMaker data.win (IFF "FORM" game package). */
#ifndef RB_GM_H
#define RB_GM_H
#include "../doc.h"

extern const rb_format rb_format_datawin;
/* The game rules of data.win files (gm_rules.c; docs/formats/gamemaker.md "Game rules"). */
const struct rb_rule *gm_rules(size_t *count);
/* The assets hooks (gm_assets.c; docs/formats/gamemaker.md "Assets"). */
int gm_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why, size_t why_size);
json_t *gm_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                       size_t why_size);
/* What `rebyte info` says of a data.win: the game's name and its lists counted (gm_summary.c). */
json_t *gm_summary(const rb_doc *doc);
/* The `followers` hook (gm_follow.c; docs/formats/gamemaker.md "STRG"): the references that
 * follow a new text of a STRG string, or a refusal naming those that cannot. */
json_t *gm_string_followers(const rb_doc *doc, const json_t *model, const char *kind, const char *path,
                            const json_t *value, char *why, size_t why_size);
/* A readable listing of a code entry's bytecode (gm_listing.c), appended to `out`; -1 when the
 * entry has no bytecode of its own or memory runs out. */
int gm_code_listing(const rb_doc *doc, const rb_node *entry, rb_buf *out);
#endif
