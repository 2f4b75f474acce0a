/*
 * Two model subtrees compared node by node, without rendering them (core/model_equal.c): what
 * verifying a patched write, `diff` and the race-record guard (core/records.c) share.
 */
#ifndef RB_MODEL_EQUAL_H
#define RB_MODEL_EQUAL_H
#include "buf.h"
#include "doc_state.h"
#include "model.h"

/* One element of a list or of a table (built in `s`, valid while `s` is). */
typedef struct rb_element_scratch {
    rb_node nodes[RB_LAYOUT_MAX_FIELDS + 1];
    rb_node *kids[RB_LAYOUT_MAX_FIELDS];
} rb_element_scratch;
const rb_node *rb_model_element(const rb_node *list, size_t i, rb_element_scratch *s);
int rb_model_list_like(const rb_node *n);   /* a list, or a table standing for one */
int rb_model_record_like(const rb_node *n); /* a record, or a packed one */

/* "/token" with RFC 6901 escapes, and "/i", appended to `path`. */
void rb_pointer_push_token(rb_buf *path, const char *token);
void rb_pointer_push_index(rb_buf *path, size_t i);

/* 1 when the two subtrees hold the same content (how values were stored — id storage flags,
 * stream encodings, a table or the list it stands for — does not count). Else 0, and `where`
 * (may be NULL) gets the JSON pointer of the first difference below `path`. */
int rb_model_equal(const rb_node *a, const rb_node *b, const char *path, rb_buf *where);
/* The same with the documents the sides belong to (both NULL, or both set: symbol handles then
 * compare by the text they show); `path` is the pointer so far, grown and restored. */
int rb_model_equal_in(const rb_doc *da, const rb_doc *db, const rb_node *a, const rb_node *b, rb_buf *path,
                      rb_buf *where);
#endif
