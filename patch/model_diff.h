/* The difference of two models as the patch apply takes (see model_diff.c). */
#ifndef RB_MODEL_DIFF_H
#define RB_MODEL_DIFF_H
#include <jansson.h>
#include "../core/doc.h"

/* How list elements are addressed: by index, or by their natural keys with a "test" pin before
 * every replaced value (`diff --by-identity`). */
enum { RB_MODEL_DIFF_PLAIN = 0, RB_MODEL_DIFF_IDENTITY = 1 };

/* Appends to `ops` the operations that turn the subtree `a` (of document da) into `b` (of db), at
 * `path` of their documents: records member by member; lists matched element by element (by
 * their natural keys when every changed element has them, else by their content), so a removal,
 * an insertion or a move is one operation; values rendered only for the operations. The walk
 * alone: what apply derives from an operation (the data a format keeps beside a list) is not
 * taken out (rb_model_diff_docs does that). `plains` (may be NULL) gets each operation's path
 * with list positions as indexes, in step with `ops`. 0, or -1 when out of memory. */
int rb_model_diff(const rb_doc *da, const rb_node *a, const rb_doc *db, const rb_node *b, json_t *ops,
                  json_t *plains, const char *path, int mode);

/* The patch (RFC 6902 array in *ops) that turns document `a` into `b` when applied to `a`'s file
 * (`a_bytes`): the walk of rb_model_diff, without what apply derives (companion lists, renumbered
 * indexes: rb_format.companions), settled by applying it to a fresh read of A. 0, or -1 with
 * `why`. */
int rb_model_diff_docs(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, int mode, json_t **ops,
                       char *why, size_t why_size);
#endif
