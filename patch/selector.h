/* Identity selectors in patch paths ("/body/chunks/[id=0x0304301F]/mapName"); see selector.c. */
#ifndef RB_SELECTOR_H
#define RB_SELECTOR_H
#include <jansson.h>
#include <stddef.h>

/* One condition of a selector: a relative pointer into an element ("" for the element itself)
 * and the value its member must have ("~0".."~3" unescaped to '~', '/', ',' and ']'). */
typedef struct rb_selector_condition {
    char *pointer;
    char *value;
} rb_selector_condition;
/* The conditions of a selector (the text between the brackets, "k=v,k2=v2"), in order, parsed
 * here for every engine that matches selectors (plain JSON, its indexes, the model's):
 * *conditions malloc'd (rb_selector_conditions_free). 0, or -1 when there is none, a part is no
 * condition (then nothing matches) or out of memory. */
/* A selector that does not match exactly one element, refused: the reason first, then the list
 * (`hint`: what may explain no match, or ""). */
void rb_selector_refuse(char *why, size_t why_size, const char *selector, const char *path, size_t matches,
                        const char *hint);
int rb_selector_parse(const char *selector, rb_selector_condition **conditions, size_t *count);
void rb_selector_conditions_free(rb_selector_condition *c, size_t count);
/* Every element of `array` that `selector` (the text between the brackets) names, ascending
 * (*indexes malloc'd). 0, or -1 when out of memory. */
int rb_json_select_all(json_t *array, const char *selector, size_t **indexes, size_t *count);
/* Resolve the selectors of `path` against `doc` into a plain RFC 6901 pointer (malloc'd). */
int rb_pointer_resolve(json_t *doc, const char *path, char **resolved, char *err, size_t err_size);
/* `op` (a copy, new reference) with the selectors of its path (and of its from, for a move or a
 * copy) resolved against `doc`; NULL with `err` when one does not resolve. */
json_t *rb_json_op_resolve(json_t *doc, const json_t *op, char *err, size_t err_size);
/* Apply a patch whose paths may hold selectors to *doc itself: each operation's selectors are
 * resolved against the document as the previous operations left it. On failure (-1 with `err`)
 * *doc is left part-patched, for a caller that then drops it (an open unit, patch/model_draft.c). */
int rb_json_patch_apply_selectors_in_place(json_t **doc, const json_t *patch, char *err, size_t err_size);
#endif
