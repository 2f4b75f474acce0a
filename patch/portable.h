/* Portable patches: identity diffs, fingerprinted patch files, stacking (see portable.c). */
#ifndef RB_PORTABLE_H
#define RB_PORTABLE_H
#include <jansson.h>
#include <stdio.h>
#include "patch/pins.h"
#include "rebyte.h"


/* A patch file is a JSON Patch array, or {"rebytePatch": 1, "base": {...}, "operations": [...]}. */
int rb_patch_parts(const json_t *file, const json_t **ops, const json_t **base);
/* Patches applied to a plain JSON document (`rebyte json-patch`), in order, all or nothing: 0,
 * or -1 with `err`. One patch that uses no extension is RFC 6902 alone (rb_json_patch_apply);
 * otherwise they run through apply's stack on the JSON (patch/stack.c, as on the model: selectors,
 * "each", "offset", "count", names; overlapping changes by different patches follow the policy),
 * a line per patch (and per skipped conflict) to `report` when it is not NULL. */
int rb_json_patch_apply_extended(json_t **doc, const json_t *const *patches, const char *const *names, int count,
                                 rb_conflicts policy, FILE *report, char *err, size_t err_size);
#endif
