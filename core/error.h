/*
 * Errors (rb_error, include/rebyte.h): filling one and spelling it. A leaf of the engine: the
 * archive, the document and the patch engine all report through it, so none of them depends on
 * another for its error text (tests/structure/symbol_cycles.py).
 */
#ifndef RB_ERROR_H
#define RB_ERROR_H
#include "rebyte.h"

/* Clears `err` (when not NULL) and sets its status, file, structure path (NULL: none) and
 * message; the byte offset is left unset. */
void rb_error_set(rb_error *err, rb_status status, const char *file, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
#endif
