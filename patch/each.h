/* One operation for every match, relative edits and names for what was added (see each.c). */
#ifndef RB_EACH_H
#define RB_EACH_H
#include <jansson.h>
#include <stddef.h>

/* What a document answers while an operation is expanded: the model (patch/apply.c) or plain
 * JSON (patch/portable.c). Paths are plain RFC 6901 pointers. */
typedef struct rb_each_source {
    void *context;
    /* What is at `path`: 1 a list (*length its elements), 0 something else, -1 nothing. */
    int (*list)(void *context, const char *path, size_t *length);
    /* The elements of the list at `path` that `selector` (the text between the brackets) names,
     * ascending (*indexes malloc'd): with `each` any number, else exactly one (the engine's own
     * message when not). 0, or -1 with `why`. */
    int (*select)(void *context, const char *path, const char *selector, int each, size_t **indexes, size_t *count,
                  char *why, size_t why_size);
    /* The value at `path` plus `by`, computed through the value's type and spelled as the
     * document spells it (a new reference); NULL with `why`. */
    json_t *(*offset)(void *context, const char *path, const json_t *by, char *why, size_t why_size);
} rb_each_source;

/* The names "as" gave to elements an operation put in place, across the patches of one stack:
 * each name holds the plain paths of what it named, kept in step as later operations insert and
 * remove list elements. */
typedef struct rb_each_names rb_each_names;
rb_each_names *rb_each_names_new(void);
void rb_each_names_free(rb_each_names *names);
/* Has a name been given (then every later operation is expanded, so names follow it)? */
int rb_each_names_any(const rb_each_names *names);

/* Does `op` use what the expansion gives ("each", "count", "offset", "as", a path from a name)? */
int rb_each_wanted(const json_t *op);
/* Expands `op`, on the document as the operations before it left it, into plain operations
 * (*plain, a new array) in the order they are to be carried out: selectors resolved (with
 * "each" every match, "[*]" every element; their cross product in document order; removals and
 * insertions before a match from the last one back, so no index shifts under another), names
 * replaced by their paths, "offset" turned into "replace" with the computed value, "each",
 * "count" and "as" dropped. *matches: how many operations it made. 0, or -1 with `why` (a count
 * that does not hold names the number found). */
int rb_each_expand(const rb_each_source *source, const rb_each_names *names, const json_t *op, json_t **plain,
                   size_t *matches, char *why, size_t why_size);
/* Plain operation `op` was carried out: the names follow what it removed and inserted. */
void rb_each_names_follow(rb_each_names *names, const rb_each_source *source, const json_t *op);
/* Plain operation number `k` of the expansion of `op` (which has "as") put an element at its
 * path: the name holds it (the first one resets the name; `plain_op` NULL: the expansion made
 * none, the name holds nothing). 0, or -1 when out of memory. */
int rb_each_names_bind(rb_each_names *names, const rb_each_source *source, const json_t *op, const json_t *plain_op,
                       size_t k);
#endif
