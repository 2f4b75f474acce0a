/* Where the diff's sequential list paths were in A (patch/model_diff_origins.c). */
#ifndef RB_MODEL_DIFF_ORIGINS_H
#define RB_MODEL_DIFF_ORIGINS_H
#include <stddef.h>
#include "core/model/format.h"

typedef struct origin_list origin_list;
typedef struct diff_origins {
    origin_list *lists;
    size_t count, cap;
} diff_origins;

/* `path` (a plain pointer of an operation, after the operations before it) spelled at A's
 * positions in `out`: each index into a list the operations edited is the index of that element
 * in A. 0 when it names an element A does not have (one the operations added) or does not fit. */
int diff_origins_in_a(const diff_origins *o, const char *path, char *out, size_t size);
/* Takes list edit `kind` (remove, add, move, copy at plain `path`, from `from`) into account;
 * `view` is A's, for the lengths of the lists. */
void diff_origins_edit(diff_origins *o, const rb_model_view *view, const char *kind, const char *path,
                       const char *from);
void diff_origins_free(diff_origins *o);
#endif
