/*
 * Stacking patches: their operations in order, all or nothing, and what happens when two patches
 * change one place (docs/usage.md "Portable patches: identity, fingerprints, stacking"). Written
 * once, over a small interface (stack.h): apply runs it on the model (patch/apply.c),
 * `rebyte json-patch` on plain JSON (patch/portable.c), so both find the same conflicts and say the
 * same things.
 */
#include "patch/stack.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- the places earlier patches changed ---------- */

/* Paths (resolved) changed by earlier patches of the stack. */
typedef struct touched {
    char **paths;
    int *owner;
    size_t count, cap;
    /* the paths of the earlier patches (the first `indexed` entries), sorted, each with the first
     * entry that has it, and a range-minimum table over those entries: a conflict is found in
     * log time where a scan would make a stack of n changes cost n² */
    size_t indexed, distinct, levels;
    size_t *sorted;    /* distinct paths: the entry that has it first */
    size_t **minimum;  /* minimum[k][i]: the first entry among sorted[i .. i + 2^k - 1] */
} touched;

static void forget_index(touched *t);

static int touch(touched *t, const char *path, int owner)
{
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        char **paths = realloc(t->paths, cap * sizeof(char *));
        if (paths) t->paths = paths;
        int *owners = paths ? realloc(t->owner, cap * sizeof(int)) : NULL;
        if (!owners) return -1;
        t->owner = owners;
        t->cap = cap;
    }
    if (!(t->paths[t->count] = strdup(path))) return -1;
    t->owner[t->count++] = owner;
    return 0;
}

static void touched_free(touched *t)
{
    for (size_t i = 0; i < t->count; i++) free(t->paths[i]);
    free(t->paths);
    free(t->owner);
    forget_index(t);
}

static void forget_index(touched *t)
{
    for (size_t k = 0; k < t->levels; k++) free(t->minimum[k]);
    free(t->minimum);
    free(t->sorted);
    t->minimum = NULL;
    t->sorted = NULL;
    t->indexed = t->distinct = t->levels = 0;
}

static char *const *sort_paths; /* qsort has no context argument */
static int compare_entries(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    int c = strcmp(sort_paths[a], sort_paths[b]);
    return c ? c : (a > b) - (a < b);
}

/* Index every entry so far: called when a patch starts, the entries then being the earlier ones. */
static int index_touched(touched *t)
{
    forget_index(t);
    size_t n = t->count;
    if (!n) return 0;
    size_t *order = malloc(n * sizeof(size_t));
    if (!order) return -1;
    for (size_t i = 0; i < n; i++) order[i] = i;
    sort_paths = t->paths;
    qsort(order, n, sizeof(size_t), compare_entries);
    size_t d = 0;
    for (size_t i = 0; i < n; i++) /* equal paths are adjacent, the first entry first */
        if (!d || strcmp(t->paths[order[d - 1]], t->paths[order[i]]) != 0) order[d++] = order[i];
    size_t levels = 1;
    while (((size_t)1 << levels) <= d) levels++;
    t->minimum = calloc(levels, sizeof(size_t *));
    if (!t->minimum) { free(order); return -1; }
    t->sorted = order;
    t->distinct = d;
    t->levels = levels;
    for (size_t k = 0; k < levels; k++) {
        size_t span = (size_t)1 << k;
        if (!(t->minimum[k] = malloc(d * sizeof(size_t)))) { forget_index(t); return -1; }
        for (size_t i = 0; i + span <= d; i++) {
            if (!k) { t->minimum[k][i] = order[i]; continue; }
            size_t x = t->minimum[k - 1][i], y = t->minimum[k - 1][i + span / 2];
            t->minimum[k][i] = x < y ? x : y;
        }
    }
    t->indexed = n;
    return 0;
}

/* strcmp of an indexed path with the first `len` bytes of `key` (then, when `slash`, a '/') */
static int compare_prefix(const char *path, const char *key, size_t len, int slash)
{
    int c = strncmp(path, key, len);
    if (c || !slash) return c ? c : path[len] != 0;
    return (unsigned char)path[len] - '/' ? ((unsigned char)path[len] < '/' ? -1 : 1) : path[len + 1] != 0;
}

/* The first sorted position whose path is not below key[0..len) (+ '/') */
static size_t lower_bound(const touched *t, const char *key, size_t len, int slash)
{
    size_t lo = 0, hi = t->distinct;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (compare_prefix(t->paths[t->sorted[mid]], key, len, slash) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static size_t range_minimum(const touched *t, size_t from, size_t to) /* over sorted[from .. to-1] */
{
    size_t k = 0;
    while (((size_t)2 << k) <= to - from) k++;
    size_t x = t->minimum[k][from], y = t->minimum[k][to - ((size_t)1 << k)];
    return x < y ? x : y;
}

/* The owner of the first entry of an earlier patch whose path overlaps `path` (is it, is above
 * it or below it), as a scan of the entries in order would find it; -1 when there is none. */
static int conflict_with(const touched *t, const char *path, int owner)
{
    size_t best = (size_t)-1, n = strlen(path);
    for (size_t len = 0; len <= n; len++) { /* the path and the paths above it */
        if (len < n && path[len] != '/') continue;
        size_t at = lower_bound(t, path, len, 0);
        if (at < t->distinct && compare_prefix(t->paths[t->sorted[at]], path, len, 0) == 0 && t->sorted[at] < best)
            best = t->sorted[at];
    }
    /* the paths below it: those that start with path + '/', a run of the sorted list */
    size_t from = lower_bound(t, path, n, 1), to = from;
    size_t lo = from, hi = t->distinct;
    while (lo < hi) { /* the end of the run: the first path that does not start with path + '/' */
        size_t mid = lo + (hi - lo) / 2;
        const char *p = t->paths[t->sorted[mid]];
        if (strncmp(p, path, n) == 0 && p[n] == '/') lo = mid + 1;
        else hi = mid;
    }
    to = lo;
    if (from < to) {
        size_t m = range_minimum(t, from, to);
        if (m < best) best = m;
    }
    (void)owner; /* the indexed entries are the earlier patches', never the current one's */
    return best == (size_t)-1 ? -1 : t->owner[best];
}


/* ---------- the stack ---------- */

typedef struct stack_run {
    const rb_stack_target *target;
    const char *const *names;
    rb_conflicts policy;
    touched places;
    size_t changed, skipped;
    int last_skipped;      /* the last change was skipped as a conflict */
    rb_each_names *given;  /* the names "as" gave (patch/each.c), across the stack */
} stack_run;

static void say(const stack_run *run, const char *fmt, const char *a, const char *b, const char *c, const char *d)
{
    if (!run->target->line) return;
    char text[1400];
    snprintf(text, sizeof text, fmt, a, b, c, d);
    run->target->line(run->target->context, text);
}

/* One operation (not a test) of patch p: its place checked against the earlier patches'. */
static int change(stack_run *run, int p, size_t i, const json_t *op, char *why, size_t why_size)
{
    const char *name = run->names[p], *kind = json_string_value(json_object_get(op, "op"));
    char *plain = NULL, reason[1200];
    if (run->target->locate(run->target->context, op, &plain, reason, sizeof reason) != 0) {
        snprintf(why, why_size, "%s: operation %zu: %s", name, i, reason);
        return -1;
    }
    int other = run->places.indexed ? conflict_with(&run->places, plain, p) : -1;
    int rc = 0;
    run->last_skipped = 0;
    if (other >= 0 && run->policy == RB_CONFLICTS_STOP) {
        snprintf(why, why_size, "%s and %s both change %s (use --conflicts=first-wins or last-wins)", run->names[other],
                 name, plain);
        rc = -1;
    } else if (other >= 0 && run->policy == RB_CONFLICTS_FIRST_WINS) {
        run->skipped++;
        run->last_skipped = 1;
        say(run, "  %s: %s %s skipped (%s changed it first)", name, kind ? kind : "?", plain, run->names[other]);
    } else if ((rc = run->target->apply(run->target->context, name, i, op, plain, why, why_size)) >= 0) {
        run->changed += rc != RB_STACK_UNCHANGED;
        rc = 0;
        if (touch(&run->places, plain, p) != 0) {
            snprintf(why, why_size, "out of memory");
            rc = -1;
        }
    }
    free(plain);
    return rc;
}

/* Is operation `op` expanded (patch/each.c) before it is carried out? */
static int expands(const stack_run *run, const json_t *op)
{
    const rb_stack_target *t = run->target;
    return t->each && (t->carried_out || rb_each_wanted(op) || rb_each_names_any(run->given));
}

/* An operation expanded into plain ones, each carried out as one written by hand; the names
 * follow what each one inserts and removes, and "as" names what it put in place. */
static int expanded(stack_run *run, int p, size_t i, const json_t *op, char *why, size_t why_size)
{
    const rb_stack_target *t = run->target;
    json_t *ops;
    size_t matches;
    char reason[1200];
    if (rb_each_expand(t->each, run->given, op, &ops, &matches, reason, sizeof reason) != 0) {
        snprintf(why, why_size, "%s: operation %zu: %s", run->names[p], i, reason);
        return -1;
    }
    if (json_is_true(json_object_get(op, "each"))) {
        char text[600];
        snprintf(text, sizeof text, "  %s: operation %zu: each: %zu match%s", run->names[p], i, matches,
                 matches == 1 ? "" : "es");
        say(run, "%s%s%s%s", text, "", "", "");
    }
    int rc = 0;
    for (size_t k = 0; k < matches && rc == 0; k++) {
        const json_t *plain = json_array_get(ops, k);
        const char *kind = json_string_value(json_object_get(plain, "op"));
        rc = strcmp(kind, "test") == 0 ? t->test(t->context, run->names[p], i, plain, why, why_size)
                                       : change(run, p, i, plain, why, why_size);
        if (rc != 0 || run->last_skipped) continue;
        rb_each_names_follow(run->given, t->each, plain);
        if (rb_each_names_bind(run->given, t->each, op, plain, k) != 0 ||
            (t->carried_out && json_array_append(t->carried_out, (json_t *)plain) != 0)) {
            snprintf(why, why_size, "out of memory");
            rc = -1;
        }
    }
    if (rc == 0 && !matches && rb_each_names_bind(run->given, t->each, op, NULL, 0) != 0) {
        snprintf(why, why_size, "out of memory");
        rc = -1;
    }
    json_decref(ops);
    return rc;
}

static int one_patch(stack_run *run, int p, const json_t *ops, int reported, char *why, size_t why_size)
{
    if (index_touched(&run->places) != 0) { snprintf(why, why_size, "out of memory"); return -1; }
    run->skipped = 0;
    size_t before = run->changed;
    for (size_t i = 0; i < json_array_size(ops); i++) {
        const json_t *op = json_array_get(ops, i);
        const char *kind = json_string_value(json_object_get(op, "op"));
        int rc = expands(run, op) ? expanded(run, p, i, op, why, why_size)
                 : kind && strcmp(kind, "test") == 0
                     ? run->target->test(run->target->context, run->names[p], i, op, why, why_size)
                     : change(run, p, i, op, why, why_size);
        if (rc != 0) return -1;
    }
    size_t n = run->changed - before;
    char count[32];
    snprintf(count, sizeof count, "%zu", n);
    if (reported)
        say(run, "  %s: %s change%s%s", run->names[p], count, n == 1 ? "" : "s",
            run->skipped ? " (some skipped as conflicts)" : "");
    return 0;
}

int rb_stack_apply(const rb_stack_target *target, const json_t *const *ops, const char *const *names, size_t count,
                   rb_conflicts policy, size_t *changed, char *why, size_t why_size)
{
    stack_run run = {.target = target, .names = names, .policy = policy, .given = rb_each_names_new()};
    int rc = run.given ? 0 : -1;
    if (rc != 0) snprintf(why, why_size, "out of memory");
    for (size_t p = 0; p < count && rc == 0; p++) rc = one_patch(&run, (int)p, ops[p], count > 1, why, why_size);
    touched_free(&run.places);
    rb_each_names_free(run.given);
    if (changed) *changed = run.changed;
    return rc;
}
