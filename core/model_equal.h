/*
 * Two model subtrees compared node by node, without rendering them (core/model_equal.c): what
 * verifying a patched write, `diff` and the race-record guard (core/records.c) share.
 */
#ifndef RB_MODEL_EQUAL_H
#define RB_MODEL_EQUAL_H
#include "buf.h"
#include "doc_state.h"
#include "model.h"

/* 1 when the two subtrees hold the same content (how values were stored — id storage flags,
 * stream encodings, a table or the list it stands for — does not count). Else 0, and `where`
 * (may be NULL) gets the JSON pointer of the first difference below `path`. */
int rb_model_equal(const rb_node *a, const rb_node *b, const char *path, rb_buf *where);
/* rb_model_equal without the place of the difference (symbol handles by handle: a renamed symbol
 * is one change, of the symbol). */
int rb_model_same(const rb_node *a, const rb_node *b);
#endif
