/* Portable patches: identity diffs, fingerprinted patch files, stacking (see portable.c). */
#ifndef RB_PORTABLE_H
#define RB_PORTABLE_H
#include <jansson.h>
#include <stdio.h>

typedef enum rb_conflict_policy { RB_CONFLICT_STOP, RB_CONFLICT_FIRST_WINS, RB_CONFLICT_LAST_WINS } rb_conflict_policy;

/* Equal as content: storage annotations ($id flags, $stream) and blob spellings do not count. */
int rb_values_equal(const json_t *a, const json_t *b);
/* A patch file is a JSON Patch array, or {"rebytePatch": 1, "base": {...}, "operations": [...]}. */
int rb_patch_parts(const json_t *file, const json_t **ops, const json_t **base);
/* Apply patches in order, all or nothing; overlapping changes by different patches follow the
 * policy. A line per patch (and per skipped conflict) goes to `report` when it is not NULL. */
/* The operations a format adds to keep the data beside a list in step with `op` (plain `path`
 * and `from`), read from `doc` before the operation (patch/companions.c); NULL for none. */
typedef struct rb_stack_companions {
    json_t *(*make)(void *context, const json_t *doc, const json_t *op, const char *path, const char *from);
    void *context;
} rb_stack_companions;
int rb_apply_stack(json_t **doc, const json_t *const *patches, const char *const *names, int count,
                   rb_conflict_policy policy, FILE *report, const rb_stack_companions *companions, char *err,
                   size_t err_size);
/* How many "test" pins of `ops` do not hold on `doc`; each one is reported field by field. */
size_t rb_check_pins(json_t *doc, const json_t *ops, FILE *report);
#endif
