/* The view of a model for rb_format.in_step, and the hook's call (in_step.c). */
#ifndef RB_IN_STEP_H
#define RB_IN_STEP_H
#include <jansson.h>
#include "core/doc/doc.h"

rb_model_view in_step_model_view(const rb_doc *doc);
/* How many reads through such views on this thread met a unit kept as bytes (RB_K_DEFERRED),
 * where the hook then saw nothing: a diff by units that sees this count grow cannot trust what
 * the hook derived, and diffs the whole models instead. */
size_t in_step_deferred_met(void);
enum { IN_STEP_MET_KEPT = 16, IN_STEP_POINTER_MAX = 256 };
/* The places (plain pointers) of the units such reads met, each counted once: how many so far,
 * and the `i`th while it is among the last IN_STEP_MET_KEPT (NULL otherwise; "" when too long to
 * keep). A diff by units reads those units on both sides and tries again. */
size_t in_step_met_places(void);
const char *in_step_met_place(size_t i);
/* The format's operations that go with `op` (resolved to plain `path` and `from`), or NULL. */
json_t *in_step_ops_for(const rb_format *format, const rb_model_view *view, const json_t *op, const char *path,
                       const char *from);
#endif
