/* The difference of two models as the patch apply takes (see model_diff.c). */
#ifndef RB_MODEL_DIFF_H
#define RB_MODEL_DIFF_H
#include <jansson.h>
#include "core/doc/doc.h"

/* How list elements are addressed: by index, or by their natural keys with a "test" pin before
 * every replaced value (`diff --by-identity`). */
enum { RB_MODEL_DIFF_PLAIN = 0, RB_MODEL_DIFF_IDENTITY = 1 };
/* A flag of the walk's `mode`: a blob changed in part is replaced whole, not as the byte range
 * that changed ({"$splice"}: what a draft held as JSON cannot take). */
enum { RB_MODEL_DIFF_WHOLE_BLOBS = 2 };

/* The walk of two models (model_diff.c): the operations that turn node `a` of `da` into node `b`
 * of `db` at `path`, appended to `ops`, and to `plains` (when not NULL) each one's plain paths
 * ({"path", "from", "symbol": whether it replaces a symbol handle}). 0, or -1 when out of memory. */
int rb_model_diff_walk(const rb_doc *da, const rb_node *a, const rb_doc *db, const rb_node *b, json_t *ops,
                       json_t *plains, const char *path, int mode, int index_paths);
/* The patch (RFC 6902 array in *ops) that turns document `a` into `b` when applied to `a`'s file
 * (`a_bytes`): the walk of two models, without what apply derives (in-step lists, renumbered
 * indexes: rb_format.in_step) or the writer completes (rb_format.written_lists), settled by
 * applying it to a copy of A's model (model_diff_settle.c). With `pinned` (may be NULL), also the
 * patch as rb_model_diff_pin pins it, taken while the settling replayed it, when it did (else
 * *pinned is NULL). 0, or -1 with `why`. */
/* `own`: A's model itself (`a`), the caller's to give up: the settling replays on it instead of a
 * copy, so there is one try only, and -1 when the pins or the pictures would need A as it was
 * (NULL: the settling copies `a`, and tries every way). */
int rb_model_diff_docs(const rb_doc *a, rb_doc *own, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, int mode,
                       json_t **ops, json_t **pinned, char *why, size_t why_size);
/* The model apply makes of A's file with `ops` (model_diff_proof.c), read back, its bytes in
 * *bytes (they outlive it); NULL when apply refuses the operations (why in *refusal, may be NULL). */
rb_doc *rb_model_diff_applied(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const json_t *ops,
                              uint8_t **bytes, rb_error *refusal);
/* Does apply, the way it runs a patch (rb_apply; model_diff_proof.c), turn A's file into B with `ops`? For what the
 * model engine alone could not replay, and what only apply reads (a picture put back). */
int rb_model_diff_proven(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, const json_t *ops);
/* `ops` (a diff of `a`, taken) with each picture whose page the diff replaces whole spelled as
 * the picture ({"$png": ...} at the frame's path, model_diff_pictures.c) where apply proves it
 * gives B; else `ops` as they were. */
json_t *rb_model_diff_pictures(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, int mode,
                               json_t *ops);
/* Does an operation of `ops` replace a blob (the case rb_model_diff_pictures spells as pictures)? */
int rb_model_diff_replaces_blob(const json_t *ops);
/* `ops` (a diff of `a`) with the pins a shared diff carries
 * (docs/usage.md "Portable patches: identity, fingerprints, stacking"): before each operation,
 * a "test" of what it touches as it is when the operation runs - the value replaced or removed,
 * the element copied or moved, the element an addition goes before - spelled out, or by digest
 * when large. The diff's own pins are replaced; the operations after one that cannot be replayed
 * alone (valid only once the whole patch ran) are not pinned. 0, or -1 with `why`. */
int rb_model_diff_pin(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const json_t *ops, json_t **pinned,
                      char *why, size_t why_size);
#endif
