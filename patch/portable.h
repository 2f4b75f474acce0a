/* Portable patches: identity diffs, fingerprinted patch files, stacking (see portable.c). */
#ifndef RB_PORTABLE_H
#define RB_PORTABLE_H
#include <jansson.h>
#include <stdio.h>

typedef enum rb_conflict_policy { RB_CONFLICT_STOP, RB_CONFLICT_FIRST_WINS, RB_CONFLICT_LAST_WINS } rb_conflict_policy;

/* Equal as content: storage annotations ($id flags, $stream) and blob spellings do not count. */
int rb_values_equal(const json_t *a, const json_t *b);
/* Key set `index` of the natural keys tried in order (relative pointers into an element, "" the
 * element itself; NULL-terminated), or NULL past the last one. */
const char *const *rb_identity_key_set(size_t index);
/* The selector token ("[id=0x0304301F]") that singles out array[index] by its natural keys;
 * 0 when no key set is unique (then address it by index). */
int rb_identity_selector(json_t *array, size_t index, char *out, size_t size);
/* rb_identity_selector for elements first .. first+count-1 of `array` at once, in n log n for the
 * whole list: `count` tokens (malloc'd), NULL where an element is addressed by index. Free each
 * token and the array. NULL when out of memory. */
char **rb_identity_selectors(json_t *array, size_t first, size_t count);
/* One selector token per element, all under the first key set that is present and unique for
 * every element; NULL when there is none. Free each token and the array. */
char **rb_identity_keys(json_t *array);
/* Strings to their positions (open addressing), to match two lists by identity in linear time.
 * The keys are borrowed and must outlive the index; NULL keys are left out, and of equal keys the
 * first wins. rb_key_index_find gives the position, or -1. */
typedef struct rb_key_index rb_key_index;
rb_key_index *rb_key_index_new(char *const *keys, size_t n);
long rb_key_index_find(const rb_key_index *index, const char *key);
void rb_key_index_free(rb_key_index *index);
/* The RFC 6902 patch (with selectors and "test" pins) that turns a into b. */
json_t *rb_identity_diff(json_t *a, json_t *b);
/* The same for values at `path` (selectors and all) of their documents, appended to `ops`.
 * whole_runs: a changed run of list elements of unchanged length whose identities changed is
 * removed and added whole instead of edited element by element (a re-sort: an edit by identity
 * would address an element renamed by an earlier edit). */
void rb_identity_diff_at(json_t *a, json_t *b, const char *path, json_t *ops, int whole_runs);
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
