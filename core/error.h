/*
 * Errors (rb_error, include/rebyte.h): filling one and spelling it. A leaf of the engine: the
 * archive, the document and the patch engine all report through it, so none of them depends on
 * another for its error text (tests/structure/symbol_cycles.py).
 */
#ifndef RB_ERROR_H
#define RB_ERROR_H
#include "rebyte.h"

/* Clears `err` (when not NULL), keeping the `size` its caller gave it: a caller's rb_error is
 * never cleared or copied over whole (docs/api.md "Structs that grow"). */
void rb_error_clear(rb_error *err);
/* `*err = *from` (when `err` is not NULL), keeping err's `size`. */
void rb_error_copy(rb_error *err, const rb_error *from);
/* Clears `err` (when not NULL) and sets its status, file, structure path (NULL: none) and
 * message; the byte offset is left unset. */
void rb_error_set(rb_error *err, rb_status status, const char *file, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
#endif
