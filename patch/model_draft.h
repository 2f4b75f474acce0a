/* Drafts of the model built from the format's description in place (see model_draft.c). */
#ifndef RB_MODEL_DRAFT_H
#define RB_MODEL_DRAFT_H
#include <jansson.h>
#include "core/doc/doc.h"

typedef struct rb_drafts rb_drafts;

/* An apply run's drafts (doc->drafts): operations the model cannot take the shape of open drafts
 * from here on. 0, or -1 when out of memory. */
int rb_drafts_begin(rb_doc *doc);
/* Names the operation about to run ("patch.json: operation 3"), for what a draft refuses. */
void rb_drafts_set_operation(rb_doc *doc, const char *patch, size_t index);
/* Is `node` a draft held as JSON (an operation on a path through it edits that JSON)? */
int rb_drafts_holds(const rb_doc *doc, const rb_node *node);
/* The plain form of `rest` (a pointer, selectors allowed) inside open draft `node`, appended to
 * `plain`; 0, or -1 with `why`. */
int rb_drafts_resolve(rb_doc *doc, const rb_node *node, const char *rest, rb_buf *plain, char *why, size_t why_size);
/* The JSON value at `rest` inside open draft `node` (borrowed), NULL when there is none. */
json_t *rb_drafts_value(const rb_doc *doc, const rb_node *node, const char *rest);
/* Applies `op` (add, remove, replace, test) with its path `rest` inside open draft `node`. */
int rb_drafts_apply(rb_doc *doc, const rb_node *node, const json_t *op, const char *rest, char *why, size_t why_size);
/* Opens the smallest draft around plain path `plain` (the place `op` acts on, which the model
 * cannot shape) and applies `op` there. When the draft is the new element itself (an add at its
 * place in a list of drafts, a replace of one), *placeholder gets the node the caller puts at
 * `plain` meanwhile (the add's or the replace's way); else NULL. 0, or -1 with `why`. */
int rb_drafts_open_for(rb_doc *doc, const json_t *op, const char *plain, rb_node **placeholder, char *why,
                      size_t why_size);
/* Builds every open draft through its description, in place of its node, and calls `placed` with
 * each node put in place, its path when opened and the operation that opened it (NULL: none).
 * 0, or -1 with `why` naming the operation that opened the draft the description refused. The
 * drafts are gone either way. */
typedef int (*rb_draft_placed)(void *context, rb_node *node, const char *path, const char *opened_by);
int rb_drafts_end(rb_doc *doc, rb_draft_placed placed, void *context, char *why, size_t why_size);
/* Drops the drafts without building them (a refused patch). */
void rb_drafts_discard(rb_doc *doc);
#endif
