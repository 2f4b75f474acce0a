/* Coverage of a model below a node, deferred units included (core/model/coverage.c). */
#ifndef RB_COVERAGE_H
#define RB_COVERAGE_H
#include "core/model/model.h"

/* Adds the typed and opaque bytes below `n` to `coverage` (and whether an opaque tail is there),
 * and the opaque and blob bytes, by payload kind, to `kinds`: one walk. */
void rb_node_coverage_all(const rb_node *n, rb_coverage *coverage, rb_coverage_kinds *kinds);
#endif
