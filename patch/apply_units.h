/* Apply on the original read deferred, its units expanded where the operations reach
 * (apply_units.c). */
#ifndef RB_APPLY_UNITS_H
#define RB_APPLY_UNITS_H
#include "core/model/format.h"
#include "patch/apply_outcome.h"
/* Can the request be tried on the original read deferred? (Plain "replace" and "test"
 * operations on `format`, the file's, when it reads its units alone.) */
int apply_units_possible(const apply_request *request, const rb_format *format);
/* Makes nodes of the units the request's operations reach, and of those whose bytes alone do not
 * say what they hold: 0, or -1 when the document must be expanded whole instead. */
int apply_units_expand_reached(rb_doc *doc, const apply_request *request, rb_error *err);
#endif
