/* Diff by units (patch/diff_units.c; docs/usage.md "Diffs"). */
#ifndef RB_DIFF_UNITS_H
#define RB_DIFF_UNITS_H
#include "core/doc/doc.h"

enum { RB_DIFF_UNIT_POINTER_MAX = 256 };

/* Copies of the models of `a` and `b` (read with the deferred model) in *ua and *ub, in which
 * every unit that is not equal in both (rb_deferred_same) is read alone and put in its place,
 * in both: the walk then meets nodes wherever the files differ, and equal units elsewhere. 1
 * when made (the caller frees both; they must not outlive `a` and `b`), 0 when the formats
 * cannot read their units alone or a unit did not read (nothing to free then). The units at or
 * above the plain pointers `read` (read_count of them) are read on both sides even when equal. */
int rb_diff_unit_models(const rb_doc *a, const rb_doc *b, const char *const *read, size_t read_count, rb_doc **ua,
                        rb_doc **ub);
#endif
