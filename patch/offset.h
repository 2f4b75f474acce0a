/* "offset": a number plus a number, through the field's type (see offset.c). */
#ifndef RB_OFFSET_H
#define RB_OFFSET_H
#include <jansson.h>
#include "core/doc/doc.h"

/* The value of model node `node` (at `path`, for messages) plus `by` (a number, or for a list
 * of numbers an array of as many), computed in the field's wire type and spelled as the dump
 * spells it (a new reference). NULL with `why` naming the path and the value when the sum does
 * not fit the field, or the node is no number. */
json_t *rb_offset_node(rb_doc *doc, const rb_node *node, const json_t *by, const char *path, char *why,
                       size_t why_size);
/* The same on a plain JSON value (integers stay integers, in 64 bits; any real makes a double). */
json_t *rb_offset_json(const json_t *value, const json_t *by, const char *path, char *why, size_t why_size);
#endif
