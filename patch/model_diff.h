/* The difference of two models as the patch apply takes (see model_diff.c). */
#ifndef RB_MODEL_DIFF_H
#define RB_MODEL_DIFF_H
#include <jansson.h>
#include "core/doc/doc.h"

/* How list elements are addressed: by index, or by their natural keys with a "test" pin before
 * every replaced value (`diff --by-identity`). */
enum { RB_MODEL_DIFF_PLAIN = 0, RB_MODEL_DIFF_IDENTITY = 1 };

/* The patch (RFC 6902 array in *ops) that turns document `a` into `b` when applied to `a`'s file
 * (`a_bytes`): the walk of two models (model_diff.c), without what apply derives (companion lists, renumbered
 * indexes: rb_format.companions), settled by applying it to a fresh read of A. `a` is a full
 * model (not deferred). `spare` (or NULL): a full read of A's file the diff may change, possibly
 * `a` itself, which the caller frees afterwards: the settling replay runs on it instead of reading
 * A again (and A is read again should `a` be walked once more). With `pinned`, *pinned gets what
 * rb_model_diff_pin would make of *ops when the replay that settled it gave the pins already (the
 * model engine took every operation at once), else NULL. 0, or -1 with `why`. */
int rb_model_diff_docs(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, int mode,
                       rb_doc *spare, json_t **ops, json_t **pinned, char *why, size_t why_size);
/* `ops` (a diff of `a`) with the pins a shared diff carries
 * (docs/usage.md "Portable patches: identity, fingerprints, stacking"): before each operation,
 * a "test" of what it touches as it is when the operation runs - the value replaced or removed,
 * the element copied or moved, the element an addition goes before - spelled out, or by digest
 * when large. The diff's own pins are replaced; the operations after one that cannot be replayed
 * alone (valid only once the whole patch ran) are not pinned. 0, or -1 with `why`. */
int rb_model_diff_pin(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const json_t *ops, json_t **pinned,
                      char *why, size_t why_size);
#endif
