/* What the two ways of an apply on the original read deferred share (apply_units.c: the units
 * the paths reach expanded; apply_kept.c: no unit reached, every unit kept as its bytes): which
 * operations they take, and a selector's parts
 * (docs/performance.md "The two ways of a deferred apply, one declaration"). */
#ifndef RB_APPLY_DEFERRED_H
#define RB_APPLY_DEFERRED_H
#include <stddef.h>
#include <jansson.h>
#include "patch/apply_outcome.h"

/* Is the request a candidate for a deferred read: no resolution, no document handed back, and
 * every operation of every patch a "replace" or a "test" on a path (no other member, no asset
 * file) that `also` (when not NULL) takes too? Its operations' count when it is, else 0. */
size_t apply_deferred_candidate(const apply_request *request, int (*also)(const json_t *op, const void *context),
                                const void *context);

/* A selector of one condition, "[key=value]" (`raw`, `length` bytes, no brackets inside, the key
 * a member's name of letters, digits and '_'): its key and value text (not terminated); 0 for
 * any other token. */
typedef struct apply_selector {
    const char *key, *value;
    size_t key_length, value_length;
} apply_selector;
int apply_deferred_selector(const char *raw, size_t length, apply_selector *out);
#endif
