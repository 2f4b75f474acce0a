/* Option structs across library versions (include/rebyte.h, docs/api.md "Option structs"). */
#ifndef RB_OPTIONS_H
#define RB_OPTIONS_H
#include <stddef.h>

/* Copies the caller's option struct `in` (NULL: all defaults) into `out`, this library's layout of
 * `known` bytes, by the size the caller's struct starts with: 0 stands for `first_size` (the
 * struct as the first release with a size field had it), the rest of `out` is zeroed (a field's
 * default), and bytes beyond `known` must be 0 (a newer caller asking for something this library
 * cannot do is refused, not ignored). Returns 0, or -1 with a sentence in `why`. */
int rb_options_take(void *out, size_t known, const void *in, size_t first_size, const char *what, char *why,
                    size_t why_size);
#endif
