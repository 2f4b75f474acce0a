/* Two models' difference as a patch (see model_compare.c); their equality: core/model_equal.h. */
#ifndef RB_MODEL_COMPARE_H
#define RB_MODEL_COMPARE_H
#include <jansson.h>
#include "../core/buf.h"
#include "../core/doc.h"
#include "../core/model_equal.h"

/* Appends to `ops` the RFC 6902 operations that turn model `a` into model `b` — the same ones
 * rb_json_diff (by identity: rb_identity_diff) gives for their JSON renderings (blobs as
 * content), at the cost of walking the two models plus rendering the subtrees that differ. */
enum { RB_MODEL_DIFF_PLAIN = 0, RB_MODEL_DIFF_IDENTITY = 1, RB_MODEL_DIFF_WHOLE_RUNS = 2 };
/* mode: plain, by identity, or by identity with changed runs removed and added whole
 * (rb_identity_diff_at's whole_runs). */
void rb_model_diff(const rb_doc *da, const rb_node *a, const rb_doc *db, const rb_node *b, json_t *ops,
                   const char *path, int mode);
#endif
