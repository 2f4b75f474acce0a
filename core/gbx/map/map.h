/* What the map folder gives the GBX format above it (core/gbx/gbx.c, gbx_in_step.c): the
 * hooks of rb_format_gbx that are the map's. */
#ifndef RB_GBX_MAP_H
#define RB_GBX_MAP_H
#include "core/doc/doc.h"

/* rb_format.in_step' part for the map's per-block and per-item lists (map_parallel.c). */
json_t *gbx_map_in_step_ops(const rb_model_view *view, const char *kind, const char *path, const char *from,
                              const json_t *value);
/* rb_format.followers: the header's XML that follows the body's facts (map_header_xml.c). */
json_t *gbx_xml_followers(const rb_doc *doc, const char *kind, const char *path,
                          const json_t *value, char *why, size_t why_size);
/* rb_format.rules: the game rules of maps (map_rules.c). */
struct rb_rule;
const struct rb_rule *gbx_rules(size_t *count);
/* rb_format.transform: "downgrade-items" (items_downgrade.c). */
int gbx_transform(const rb_doc *doc, const char *name, const json_t *options, json_t **patch, json_t **report,
                  char *why, size_t why_size);
#endif
