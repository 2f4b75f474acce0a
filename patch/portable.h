/* Portable patches: identity diffs, fingerprinted patch files, stacking (see portable.c). */
#ifndef RB_PORTABLE_H
#define RB_PORTABLE_H
#include <jansson.h>
#include <stdio.h>
#include "rebyte.h"


/* Equal as content: storage annotations ($id flags, $stream) and blob spellings do not count. A
 * pin {"$digest": "..."} (rb_pin_value) equals the values whose content has that digest. */
int rb_values_equal(const json_t *a, const json_t *b);
/* What a pin holds for `value` (taken): the value itself, or {"$digest": "16 hex digits"} of its
 * content when its compact JSON is longer than RB_PIN_SPELLED_MAX (a chunk, a blob). */
enum { RB_PIN_SPELLED_MAX = 400 };
json_t *rb_pin_value(json_t *value);
/* Is `pin` a {"$digest": ...} pin (compared with a rendering of the value, not the model)? */
int rb_pin_is_digest(const json_t *pin);
/* A patch file is a JSON Patch array, or {"rebytePatch": 1, "base": {...}, "operations": [...]}. */
int rb_patch_parts(const json_t *file, const json_t **ops, const json_t **base);
/* The operations a format adds to keep the data beside a list in step with `op` (plain `path`
 * and `from`), read from `doc` before the operation; NULL for none. */
typedef struct rb_stack_companions {
    json_t *(*make)(void *context, const json_t *doc, const json_t *op, const char *path, const char *from);
    void *context;
} rb_stack_companions;
/* Apply patches to plain JSON in order, all or nothing, stacked as apply stacks them on the model
 * (patch/stack.c: overlapping changes by different patches follow the policy). A line per patch
 * (and per skipped conflict) goes to `report` when it is not NULL. */
int rb_apply_stack(json_t **doc, const json_t *const *patches, const char *const *names, int count,
                   rb_conflicts policy, FILE *report, const rb_stack_companions *companions, char *err,
                   size_t err_size);
/* An RFC 6902 patch on plain JSON (rb_json_patch_apply), or, when an operation uses "each",
 * "offset", "count" or names (patch/each.c), the patch run by rb_apply_stack (selectors too;
 * its lines to `report` when not NULL). All or nothing: 0, or -1 with `err`. */
int rb_json_patch_apply_extended(json_t **doc, const json_t *patch, FILE *report, char *err, size_t err_size);
/* How many "test" pins of `ops` do not hold on `doc`; each one is reported field by field. */
size_t rb_check_pins(json_t *doc, const json_t *ops, FILE *report);
#endif
