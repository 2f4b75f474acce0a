/*
 * Diff by units (docs/usage.md "Diffs"). Two documents read with the deferred model are paired
 * unit by unit before their models are walked: a unit whose bytes are equal in A and B and that
 * begins with the same reader state (rb_deferred_same: GBX lookback strings and node indices)
 * stays bytes on both sides, and the comparisons of the diff find it equal without reading it;
 * every other unit is read alone (rb_doc_expand_unit_in_place) on both sides, so the walk meets
 * nodes wherever the two files differ. Containers whose children do not pair by place (a chunk
 * added) have every unit below them read, and so have the units the caller names: those that
 * apply's in-step lists read (a per-item list beside the edited item list), which must be nodes
 * on both sides for the diff to derive what apply derives. The pairing works on copies of the two models
 * (rb_doc_copy_model), so the caller's documents are not changed.
 */
#include "patch/diff_units.h"
#include <string.h>
#include "core/archive/archive_unit.h"
#include "core/model/model_equal.h"

/* Do containers x and y have their children in the same places (as many, with the same keys)? */
static int same_places(const rb_node *x, const rb_node *y)
{
    if (x->kind != y->kind || x->v.kids.count != y->v.kids.count) return 0;
    for (size_t i = 0; i < x->v.kids.count; i++) {
        const char *kx = x->v.kids.items[i]->key, *ky = y->v.kids.items[i]->key;
        if (kx != ky && (!kx || !ky || strcmp(kx, ky) != 0)) return 0;
    }
    return 1;
}

/* One side of the pairing: a document and the containers above the node being paired. */
typedef struct unit_side {
    rb_doc *doc;
    const rb_node *const *above;
    size_t count;
} unit_side;

/* The units read on both sides whatever their bytes (plain pointers), and the place paired. */
typedef struct unit_reads {
    const char *const *read;
    size_t count;
    char at[RB_DIFF_UNIT_POINTER_MAX];
} unit_reads;

/* Is the unit at `r->at` one of those read whatever its bytes (it or a place inside it named)? */
static int read_anyway(const unit_reads *r)
{
    size_t len = strlen(r->at);
    for (size_t i = 0; i < r->count; i++)
        if (!strncmp(r->read[i], r->at, len) && (r->read[i][len] == '/' || !r->read[i][len])) return 1;
    return 0;
}

/* r->at extended by child `i` of `parent` (its key, or its index in a list); 0 when too long. */
static int step_into(unit_reads *r, const rb_node *parent, size_t i)
{
    size_t len = strlen(r->at);
    const char *key = parent->v.kids.items[i]->key;
    int n = key && parent->kind != RB_K_LIST ? snprintf(r->at + len, sizeof r->at - len, "/%s", key)
                                            : snprintf(r->at + len, sizeof r->at - len, "/%zu", i);
    return n > 0 && (size_t)n < sizeof r->at - len;
}

static int pair_units(unit_side *sa, rb_node *x, unit_side *sb, rb_node *y, unit_reads *r, rb_error *err)
{
    int cx = rb_node_is_container(x), cy = rb_node_is_container(y);
    if (!cx || !cy || !same_places(x, y)) /* not paired by place: every unit below is read */
        return (!cx || rb_doc_expand_units_below(sa->doc, x, sa->above, sa->count, err)) &&
               (!cy || rb_doc_expand_units_below(sb->doc, y, sb->above, sb->count, err));
    if (sa->count + 1 >= RB_UNIT_CHAIN || sb->count + 1 >= RB_UNIT_CHAIN) return 1; /* nothing that deep is deferred */
    const rb_node *chain_a[RB_UNIT_CHAIN], *chain_b[RB_UNIT_CHAIN];
    chain_a[0] = x;
    chain_b[0] = y;
    if (sa->count) memcpy(chain_a + 1, sa->above, sa->count * sizeof *chain_a); /* the root has none above */
    if (sb->count) memcpy(chain_b + 1, sb->above, sb->count * sizeof *chain_b);
    unit_side below_a = {sa->doc, chain_a, sa->count + 1}, below_b = {sb->doc, chain_b, sb->count + 1};
    size_t len = strlen(r->at);
    for (size_t i = 0; i < x->v.kids.count; i++) {
        rb_node *kx = x->v.kids.items[i], *ky = y->v.kids.items[i];
        r->at[len] = 0;
        int placed = step_into(r, x, i);
        if (kx->kind == RB_K_DEFERRED && ky->kind == RB_K_DEFERRED && rb_deferred_same(kx, ky) &&
            !(r->count && (!placed || read_anyway(r))))
            continue;
        if (kx->kind == RB_K_DEFERRED && !rb_doc_expand_unit_in_place(sa->doc, x, i, sa->above, sa->count, err)) return 0;
        if (ky->kind == RB_K_DEFERRED && !rb_doc_expand_unit_in_place(sb->doc, y, i, sb->above, sb->count, err)) return 0;
        if (!pair_units(&below_a, x->v.kids.items[i], &below_b, y->v.kids.items[i], r, err)) return 0;
    }
    r->at[len] = 0;
    return 1;
}

int rb_diff_unit_models(const rb_doc *a, const rb_doc *b, const char *const *read, size_t read_count, rb_doc **ua,
                        rb_doc **ub)
{
    *ua = *ub = NULL;
    if (a->format != b->format || !rb_doc_units_read_alone(a) || !rb_doc_units_read_alone(b)) return 0;
    *ua = rb_doc_copy_model(a);
    *ub = rb_doc_copy_model(b);
    rb_error err;
    unit_side sa = {*ua, NULL, 0}, sb = {*ub, NULL, 0};
    unit_reads r = {read, read_count, ""};
    if (*ua && *ub && pair_units(&sa, (*ua)->root, &sb, (*ub)->root, &r, &err)) return 1;
    rb_doc_free(*ua);
    rb_doc_free(*ub);
    *ua = *ub = NULL;
    return 0;
}
