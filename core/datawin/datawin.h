/* GameMaker data.win (IFF "FORM" game package). */
#ifndef RB_GM_H
#define RB_GM_H
#include "core/doc/doc.h"

extern const rb_format rb_format_datawin;
/* The game rules of data.win files (datawin_rules.c; docs/formats/datawin.md "Game rules"). */
const struct rb_rule *datawin_rules(size_t *count);
/* The assets hooks (datawin_assets.c; docs/formats/datawin.md "Assets"). */
int datawin_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why, size_t why_size);
int datawin_picture_pixels(const rb_doc *doc, rb_asset_sink sink, void *context, char *why, size_t why_size);
json_t *datawin_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                       size_t why_size);
/* What `rebyte info` says of a data.win: the game's name and its lists counted (datawin_summary.c). */
json_t *datawin_summary(const rb_doc *doc);
/* rb_format.plan (datawin_plan.c): the first room with instances. */
struct rb_plan;
int datawin_plan(const rb_doc *doc, struct rb_plan *plan, char *why, size_t why_size);
/* The `followers` hook (datawin_follow.c; docs/formats/datawin.md "STRG"): the references that
 * follow a new text of a STRG string, or a refusal naming those that cannot. */
json_t *datawin_string_followers(const rb_doc *doc, const char *kind, const char *path,
                            const json_t *value, char *why, size_t why_size);
/* The `written_lists` hook (datawin_strg.c): STRG's strings, which the writer completes. */
json_t *datawin_written_lists(const rb_doc *doc);
/* The listing of root code entry `index` of CODE's `entries` (datawin_listing.c; docs/formats/datawin.md
 * "Code listings"), appended to `out`; -1 when the entry has no bytecode of its own or memory runs out. */
int datawin_code_listing(const rb_doc *doc, const rb_node *entries, size_t index, rb_buf *out);
/* The listing read back (datawin_asm.c): the operations that make root code entry `index` of
 * chunk `chunk` what `text` says, appended to `ops`; -1 with `why` (line and what is wrong). */
int datawin_code_assemble(const rb_doc *doc, long chunk, size_t index, const uint8_t *text, size_t size, json_t *ops,
                          char *why, size_t why_size);
#endif
