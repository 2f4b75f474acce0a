/* Two models compared node by node (see model_compare.c). */
#ifndef RB_MODEL_COMPARE_H
#define RB_MODEL_COMPARE_H
#include <jansson.h>
#include "../core/buf.h"
#include "../core/doc.h"

/* 1 when the two subtrees hold the same content (how values were stored — id storage flags,
 * stream encodings, a table or the list it stands for — does not count). Else 0, and `where`
 * (may be NULL) gets the JSON pointer of the first difference below `path`. */
int rb_model_equal(const rb_node *a, const rb_node *b, const char *path, rb_buf *where);

/* rb_model_equal without the place of the difference: what `diff` compares elements with
 * (symbol handles by handle: a renamed symbol is one change, of the symbol). */
int rb_model_same(const rb_node *a, const rb_node *b);
#endif
