#ifndef RB_GBX_H
#define RB_GBX_H
#include "core/doc/doc.h"
extern const rb_format rb_format_gbx;
json_t *gbx_summary(const rb_doc *doc);
/* Does gbx_summary read this deferred unit (rb_format.summary_reads)? */
int gbx_summary_reads(const rb_doc *doc, const rb_node *unit);
/* Which game and era made the file, and from what that was told (origin.c). */
json_t *gbx_origin(const rb_doc *doc);
/* rb_format.in_step (gbx_in_step.c): the map's per-block and per-item lists
 * (map/map_parallel.c: gbx_map_in_step_ops, map/map.h) and the node indices of what an edit adds. */
/* A node definition's index: a copy gets a fresh one (gbx_in_step.c, rb_format.given_to_copies). */
int gbx_given_to_copies(const rb_node *record, const rb_node *member);
json_t *gbx_in_step_ops(const rb_model_view *view, const char *kind, const char *path, const char *from,
                          const json_t *value);
const char *gbx_encoding(const rb_doc *doc);
int gbx_set_encoding(rb_doc *doc, const char *encoding);
/* rb_format.plan (gbx_plan.c): a map, a ghost's path, a replay's map and ghosts. */
struct rb_plan;
int gbx_plan(const rb_doc *doc, struct rb_plan *plan, char *why, size_t why_size);
/* What a modder counts first (gbx_plan.c): a map's blocks and items by kind, its free
 * blocks and embedded items; a replay's ghosts. NULL for other files. */
json_t *gbx_contents(const rb_doc *doc);
#endif
