/* Stacking patches and their conflicts, written once (see stack.c). */
#ifndef RB_STACK_H
#define RB_STACK_H
#include <jansson.h>
#include "rebyte.h"
#include "patch/each.h"

enum { RB_STACK_UNCHANGED = 1 };

/* What a document does for the stack: the model (patch/apply.c) or plain JSON (portable.c). */
typedef struct rb_stack_target {
    void *context;
    /* "test" operation `index` of patch `patch`: 0 when it holds, else -1 with the whole message */
    int (*test)(void *context, const char *patch, size_t index, const json_t *op, char *why, size_t why_size);
    /* where operation `op` acts: its plain path (malloc'd), or -1 with why (the patch and the
     * operation index are put before it) */
    int (*locate)(void *context, const json_t *op, char **plain, char *why, size_t why_size);
    /* carries out `op` (and what the format keeps in step with it) at `plain`: 0, or
     * RB_STACK_UNCHANGED when it left the document as it was (a replace by the same value: not
     * counted as a change), or -1 with the whole message */
    int (*apply)(void *context, const char *patch, size_t index, const json_t *op, const char *plain, char *why,
                 size_t why_size);
    /* a line of the report (a patch's count of changes, a skipped conflict), or NULL */
    void (*line)(void *context, const char *text);
    /* the document as the expansion of "each", "offset", "count", "as" and names sees it
     * (patch/each.c); NULL: operations are taken as written */
    const rb_each_source *each;
    /* when not NULL, every operation carried out is appended to it as a plain operation (every
     * operation is expanded then): `rebyte resolve` */
    json_t *carried_out;
} rb_stack_target;

/* Applies the patches' operations in order (an operation that uses the extensions of each.h
 * expanded first, on the document as the ones before it left it, and its plain operations
 * carried out one by one). Two patches that change one place (the same path,
 * or one inside the other) follow `policy`: stop (refused, naming both), the first wins (the
 * later change is skipped and reported) or the last wins. *changed gets the changes made (tests,
 * skipped ones and those that left the document as it was excluded). 0, or -1 with `why`. */
int rb_stack_apply(const rb_stack_target *target, const json_t *const *ops, const char *const *names, size_t count,
                   rb_conflicts policy, size_t *changed, char *why, size_t why_size);
#endif
