/*
 * RFC 6901 JSON Pointers: the one place a pointer's text is read. The C API (rb_node_at), the
 * patch engine (patch/model_edit.c, patch/selector.c, patch/portable.c) and the JSON Patch suite
 * (patch/jsonpatch.c) all split, decode and index through these functions, so every place accepts
 * and refuses the same pointers (docs/usage.md "Paths and selectors").
 */
#ifndef RB_POINTER_H
#define RB_POINTER_H
#include <stddef.h>

/* A walk over a pointer's tokens. With `selectors`, a token that starts with '[' runs to its ']'
 * (an identity selector, patch/selector.c), so a selector's keys may hold '/'. */
typedef struct rb_pointer_walk {
    const char *path;
    size_t length;
    size_t at; /* offset of the next '/' (or of the end) */
    int selectors;
} rb_pointer_walk;

/* Starts a walk over path[0..length); -1 when the pointer is neither "" nor starts with '/'. */
int rb_pointer_walk_begin(rb_pointer_walk *walk, const char *path, size_t length, int selectors);
/* The next token as spelled (escapes kept): 1 with raw/raw_length set, 0 at the end of the
 * pointer, -1 when something other than '/' follows a selector ("[id=1]x"). */
int rb_pointer_next(rb_pointer_walk *walk, const char **raw, size_t *raw_length);
/* Is the token rb_pointer_next gave last the pointer's last one? */
int rb_pointer_at_end(const rb_pointer_walk *walk);

/* Decodes raw[0..n) in one pass ("~0" is '~', "~1" is '/', so "~01" is "~1"); any other '~' is
 * refused. `out` has room for n + 1 bytes and gets a NUL after the *length decoded bytes (a
 * decoded token may hold NULs). 0, or -1 for a bad escape. */
int rb_pointer_decode(const char *raw, size_t n, char *out, size_t *length);
/* rb_pointer_decode into a new string (malloc'd); NULL for a bad escape or out of memory
 * (*bad_escape says which). */
char *rb_pointer_decode_dup(const char *raw, size_t n, size_t *length, int *bad_escape);
/* Escapes s[0..n) as a token ('~' -> "~0", '/' -> "~1") into out (room for 2n + 1 bytes, or
 * NULL to count); returns the escaped length. */
size_t rb_pointer_escape(const char *s, size_t n, char *out);
/* An array index: "0" or digits without a leading zero ("01", "+1", "1e0" are not indexes).
 * Values past SIZE_MAX saturate, so they read as out of range rather than wrapping. 0, or -1 when
 * the token is not an index. */
int rb_pointer_index(const char *token, size_t n, size_t *index);
#endif
