/*
 * What a patch changes, placed on two plans (render_diff.c): the elements it adds, removes,
 * moves or changes, and the other facts it changes (a map's name, its medals), from the plain
 * RFC 6902 operations a diff gives.
 */
#ifndef RB_RENDER_DIFF_H
#define RB_RENDER_DIFF_H
#include <jansson.h>
#include "core/model/plan.h"

typedef enum rb_change_kind { RB_CHANGE_ADDED, RB_CHANGE_REMOVED, RB_CHANGE_MOVED, RB_CHANGE_CHANGED } rb_change_kind;

typedef struct rb_change {
    rb_change_kind kind;
    const rb_plan_element *before; /* in the first plan (NULL: added, or not drawn) */
    const rb_plan_element *after;  /* in the second plan (NULL: removed, or not drawn) */
    char *path;                    /* the element's pointer: the second file's, the first's for a
                                      removed one */
    long was;                      /* a moved or changed element's index in the first file */
} rb_change;

typedef struct rb_changes {
    rb_change *items;
    size_t count, cap;
    json_t *facts; /* [{"op", "path", "value"?}]: operations on no element of a plan */
    int failed;
} rb_changes;

/* The changes the plain operations `ops` (turning the first file into the second) make, on the
 * plans of the two files. 0, or -1 when out of memory. */
int rb_changes_find(rb_changes *changes, const json_t *ops, const rb_plan *before, const rb_plan *after);
void rb_changes_free(rb_changes *changes);
const char *rb_change_kind_name(rb_change_kind kind);
#endif
