/* Structs across library versions: option structs and the structs the library fills (include/rebyte.h,
 * docs/api.md "Structs that grow"). */
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
/* Readies a struct the library fills for the caller (rb_coverage, rb_apply_result, ...): its
 * `size` read as an option struct's (0 stands for `first_size`; smaller is refused), the bytes
 * both know zeroed and no byte beyond them touched, the caller's size kept. Returns the bytes the
 * library may fill, or 0 with a sentence in `why`. */
size_t rb_result_take(void *out, size_t known, size_t first_size, const char *what, char *why, size_t why_size);
/* rb_result_take, then the fields it may fill copied from `value` (a struct of this library's
 * layout), the caller's size kept. 0, or -1 with a sentence in `why`. */
int rb_result_fill(void *out, const void *value, size_t known, size_t first_size, const char *what, char *why,
                   size_t why_size);
#endif
