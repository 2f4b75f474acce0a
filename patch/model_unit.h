/* Units of the model built from the format's description in place (see model_unit.c). */
#ifndef RB_MODEL_UNIT_H
#define RB_MODEL_UNIT_H
#include <jansson.h>
#include "core/doc/doc.h"

typedef struct rb_units rb_units;

/* An apply run's units (doc->units): operations the model cannot take the shape of open units
 * from here on. 0, or -1 when out of memory. */
int rb_units_begin(rb_doc *doc);
/* Names the operation about to run ("patch.json: operation 3"), for what a unit refuses. */
void rb_units_set_operation(rb_doc *doc, const char *patch, size_t index);
/* Is `node` a unit held as JSON (an operation on a path through it edits that JSON)? */
int rb_units_holds(const rb_doc *doc, const rb_node *node);
/* The plain form of `rest` (a pointer, selectors allowed) inside open unit `node`, appended to
 * `plain`; 0, or -1 with `why`. */
int rb_units_resolve(rb_doc *doc, const rb_node *node, const char *rest, rb_buf *plain, char *why, size_t why_size);
/* The JSON value at `rest` inside open unit `node` (borrowed), NULL when there is none. */
json_t *rb_units_value(const rb_doc *doc, const rb_node *node, const char *rest);
/* Applies `op` (add, remove, replace, test) with its path `rest` inside open unit `node`. */
int rb_units_apply(rb_doc *doc, const rb_node *node, const json_t *op, const char *rest, char *why, size_t why_size);
/* Opens the smallest unit around plain path `plain` (the place `op` acts on, which the model
 * cannot shape) and applies `op` there. When the unit is the new element itself (an add at its
 * place in a list of units, a replace of one), *placeholder gets the node the caller puts at
 * `plain` meanwhile (the add's or the replace's way); else NULL. 0, or -1 with `why`. */
int rb_units_open_for(rb_doc *doc, const json_t *op, const char *plain, rb_node **placeholder, char *why,
                      size_t why_size);
/* Builds every open unit through its description, in place of its node, and calls `placed` with
 * each node put in place, its path when opened and the operation that opened it (NULL: none).
 * 0, or -1 with `why` naming the operation that opened the unit the description refused. The
 * units are gone either way. */
typedef int (*rb_unit_placed)(void *context, rb_node *node, const char *path, const char *opened_by);
int rb_units_end(rb_doc *doc, rb_unit_placed placed, void *context, char *why, size_t why_size);
/* Drops the units without building them (a refused patch). */
void rb_units_discard(rb_doc *doc);
#endif
