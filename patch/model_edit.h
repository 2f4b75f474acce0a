/* RFC 6902 operations applied to a document's model, without a JSON copy of the document
 * (see model_edit.c). */
#ifndef RB_MODEL_EDIT_H
#define RB_MODEL_EDIT_H
#include <jansson.h>
#include "core/buf.h"
#include "core/doc/doc.h"
#include "patch/each.h"

/* Where a pointer leads in the model. */
typedef struct rb_model_place {
    rb_node *parent; /* the container holding the place (NULL: the root itself) */
    size_t index;    /* position in parent: of the node, or where a new list element goes */
    rb_node *node;   /* what is there, NULL for a place that does not exist yet */
    char *key;       /* the last token, unescaped (malloc'd; free with rb_model_place_free) */
    const char *rest; /* RB_MODEL_IN_DRAFT: the rest of the path (inside `path`) below draft `node` */
} rb_model_place;
void rb_model_place_free(rb_model_place *place);

/* Follows `path` (RFC 6901 tokens and "[key=value]" selectors, patch/selector.c) through the
 * model. The last token may name a place that does not exist yet (a new member, "-" or the end
 * index of a list). `plain` receives the path with selectors replaced by indices. Tables and
 * packed records on the way become nodes. 0 on success; RB_MODEL_IN_DRAFT when the path goes
 * into a draft held as JSON (patch/model_draft.c: place->node is the draft, place->rest the rest of
 * the path, `plain` the whole path resolved); else -1 (or RB_MODEL_BEYOND) and `why`. */
int rb_model_locate(rb_doc *doc, const char *path, rb_model_place *place, rb_buf *plain, char *why, size_t why_size);

/* The JSON value at `path` (a new reference; blobs as references), NULL when there is none. */
json_t *rb_model_json_at(rb_doc *doc, const char *path);

/* Applies one operation to the model. Scalars go through their wire types; a new or replaced
 * structure is built from its JSON after the node it replaces or a sibling (same keys, same wire
 * types), and the writer checks it against the description. Structure no node has the shape of
 * (a new record member, the first element of an empty list, an annotation, a version change, the
 * whole document) is built by the format's description: with drafts begun (rb_drafts_begin), the
 * smallest draft around it is opened (patch/model_draft.c); without, the operation is refused
 * (RB_MODEL_BEYOND). 0 on success, else -1 (or RB_MODEL_BEYOND) with `why`. *resolved gets the
 * operation's plain path (malloc'd). */
int rb_model_apply_op(rb_doc *doc, const json_t *op, char **resolved, char *why, size_t why_size);
/* rb_model_apply_op's and rb_model_locate's results besides 0 and -1 (a refusal: a selector
 * that matches no element, an index out of range, a failed test, a value its wire type cannot
 * hold): RB_MODEL_BEYOND the operation builds structure the model cannot take the shape of and no
 * drafts were begun; RB_MODEL_IN_DRAFT (rb_model_locate) the path goes into a draft held as JSON. */
enum { RB_MODEL_BEYOND = -2, RB_MODEL_IN_DRAFT = 1 };

/* The model as the expansion of "each", "offset" and names sees it (patch/each_model.c). */
rb_each_source rb_each_model_source(rb_doc *doc);

#endif
