/* Diff by units (patch/diff_units.c; docs/usage.md "Diffs"). */
#ifndef RB_DIFF_UNITS_H
#define RB_DIFF_UNITS_H
#include "core/doc/doc.h"

/* Copies of the models of `a` and `b` (read with the deferred model) in *ua and *ub, in which
 * every unit that is not equal in both (rb_deferred_same) is read alone and put in its place,
 * in both: the walk then meets nodes wherever the files differ, and equal units elsewhere. 1
 * when made (the caller frees both; they must not outlive `a` and `b`), 0 when the formats
 * cannot read their units alone or a unit did not read (nothing to free then). */
int rb_diff_unit_models(const rb_doc *a, const rb_doc *b, rb_doc **ua, rb_doc **ub);
#endif
