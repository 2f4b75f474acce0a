#ifndef RB_JSONDIFF_H
#define RB_JSONDIFF_H
#include <jansson.h>
/* Appends to `ops` the RFC 6902 operations that turn `a` into `b`; `path` is the pointer of a
 * and b inside their documents ("" at the top). Arrays are compared element by element. */
void rb_json_diff(const json_t *a, const json_t *b, json_t *ops, const char *path);
#endif
