/* Portable patches: identity diffs, fingerprinted patch files, stacking (see portable.c). */
#ifndef RB_PORTABLE_H
#define RB_PORTABLE_H
#include <jansson.h>
#include <stdio.h>
#include "patch/pins.h"
#include "rebyte.h"


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
