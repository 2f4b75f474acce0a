/* Selectors and "test" values matched on the model itself, values as the dump shows them
 * (see model_select.c). */
#ifndef RB_MODEL_SELECT_H
#define RB_MODEL_SELECT_H
#include <jansson.h>
#include "core/doc/doc.h"

/* Member `key` (key[0..length)) of a record, and its position in *index (when not NULL). */
rb_node *rb_model_member(const rb_node *record, const char *key, size_t length, size_t *index);
/* The node `pointer` (an RFC 6901 pointer without selectors, "" for `n` itself) leads to from
 * `n`, NULL when there is none. Tables and packed records on the way become nodes. */
rb_node *rb_model_walk(rb_node *n, const char *pointer, size_t length);

/* The one element of `list` that `selector` (the text between the brackets) names, through an
 * index of the list built once and kept while no edit touches the list (`list_path` is its plain
 * path). 0 with *index, or -1 with `why` (`path` is the operation's, for the message). */
int rb_model_select(rb_doc *doc, rb_node *list, const char *list_path, const char *selector, const char *path,
                    size_t *index, char *why, size_t why_size);
/* Every element of `list` that `selector` names, ascending (*indexes malloc'd, *count of them,
 * none included). 0, or -1 with `why`. */
int rb_model_select_all(rb_doc *doc, rb_node *list, const char *list_path, const char *selector, size_t **indexes,
                        size_t *count, char *why, size_t why_size);
/* An edit changed the model at `plain_path` (kind 'r': removed what was there, 'a': inserted a
 * list element there, else changed it): the indexes of lists it is below follow it (an element
 * removed, inserted or changed costs one pass over positions, not a new index); those at or
 * below it are dropped. */
void rb_model_select_edited(rb_doc *doc, const char *plain_path, int kind);
/* Drops every index of the document (the end of an apply). */
void rb_model_select_free(rb_doc *doc);

/* Does `node` hold `value`, compared as the dump shows values? A float is compared after the
 * value is rounded to the field's wire type (f32 or f64), so any spelling that reads back to the
 * stored bits matches; the rest as content (rb_values_equal). */
int rb_model_value_matches(rb_doc *doc, rb_node *node, const json_t *value);

/* A byte range of a blob, {"$splice": {"at": offset, "size": bytes replaced, "$base64": the
 * bytes}} (docs/usage.md "Diffs"): in a replace, the blob's `size` bytes at `at` become the
 * given ones; in a test, the blob holds them there. The range (its bytes decoded in *bytes,
 * malloc'd) of `value`: 1; 0 when `value` is no splice; -1 with `why` when it does not fit `blob`. */
typedef struct rb_splice {
    size_t at, size, length;
    uint8_t *bytes;
} rb_splice;
int rb_splice_of(const rb_node *blob, const json_t *value, rb_splice *splice, char *why, size_t why_size);
#endif
