/*
 * Apply on the original read deferred: the units the operations' paths and selectors reach are
 * expanded in their place (core/archive/archive_unit.c), the others stay their bytes and are
 * written as them (docs/performance.md "An edit costs what it touches, part III").
 *
 * The attempt is only taken where it is sound by construction, and it may still give up:
 * - the operations are "replace" and "test" on paths (no structural edit, whose in-step lists
 *   and followers reach elsewhere; no "each", no asset files: apply_deferred.c, which apply_kept.c
 *   takes too);
 * - units whose description reads nodes outside them (rb_deferred.reads_around) are expanded at
 *   once: their bytes alone do not say what they hold;
 * - the rules say what they read (core/doc/rules.h rb_rule_reads.where), and a rule that reads inside
 *   units is given the facts it reads them against, compared before and after (apply_rules.c);
 * - the write's check compares a unit left deferred with the re-read's by its bytes and its start
 *   (rb_deferred_same: the lookback strings and node indices defined before it), so an edit that
 *   changes what an untouched unit's bytes mean is caught there.
 * Whatever the attempt cannot do (an operation that meets a unit, a start that differs, a
 * refusal of any kind) has apply run again on the full model (apply.c), whose answer stands.
 */
#include <stdlib.h>
#include <string.h>
#include "core/archive/archive_unit.h"
#include "core/model/pointer.h"
#include "patch/apply_deferred.h"
#include "patch/apply_units.h"
#include "patch/model_select.h"

int apply_units_possible(const apply_request *rq, const rb_format *format)
{
    return format && format->read_unit && apply_deferred_candidate(rq, NULL, NULL) > 0;
}

/* ---------- expanding what the operations reach ---------- */

/* Where the walk is: the container and the containers above it, innermost first (what
 * rb_doc_expand_unit_in_place needs). */
typedef struct walk_at {
    rb_node *node;
    const rb_node *above[RB_UNIT_CHAIN];
    size_t depth;
} walk_at;

static int descend(const walk_at *at, rb_node *child, walk_at *into)
{
    if (at->depth + 1 >= RB_UNIT_CHAIN) return 0;
    into->node = child;
    into->above[0] = at->node;
    memcpy(into->above + 1, at->above, at->depth * sizeof at->above[0]);
    into->depth = at->depth + 1;
    return 1;
}

/* Child `i` of the container `at`, made nodes first when it is a deferred unit. */
static rb_node *expanded_child(rb_doc *doc, const walk_at *at, size_t i, rb_error *err)
{
    if (at->node->v.kids.items[i]->kind == RB_K_DEFERRED &&
        !rb_doc_expand_unit_in_place(doc, at->node, i, at->above, at->depth, err))
        return NULL;
    return at->node->v.kids.items[i];
}

static size_t index_of(const rb_node *parent, const rb_node *kid)
{
    for (size_t i = 0; i < parent->v.kids.count; i++)
        if (parent->v.kids.items[i] == kid) return i;
    return parent->v.kids.count;
}

/* A selector "[key=number]" (one condition; the number hexadecimal after 0x, or decimal): its key in
 * `key` and its value; 0 for any other selector. */
static int simple_selector(const char *raw, size_t length, char *key, size_t key_size, uint64_t *value)
{
    apply_selector s;
    char text[32];
    if (!apply_deferred_selector(raw, length, &s) || s.key_length >= key_size || s.value_length >= sizeof text) return 0;
    memcpy(key, s.key, s.key_length);
    key[s.key_length] = 0;
    memcpy(text, s.value, s.value_length);
    text[s.value_length] = 0;
    /* hexadecimal after "0x", or decimal without a leading zero (which strtoull's base 0 would
     * read as octal, and a selector as decimal) */
    int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    if (!hex && (text[0] < '0' || text[0] > '9' || (text[0] == '0' && text[1]))) return 0;
    char *end;
    *value = strtoull(text, &end, hex ? 16 : 10);
    return !*end && end > text + (hex ? 2 : 0);
}

static int walk_rest(rb_doc *doc, const walk_at *at, rb_pointer_walk w, rb_error *err);

/* Does list element `element`'s integer member `key` differ from `value` in every era's spelling
 * (rb_format.era_id)? A deferred element's member is the one its bytes say (rb_format.unit_member).
 * 0 when it may match, when its bytes do not say, or when it is no integer. */
static int member_differs(const rb_doc *doc, const rb_node *list, const rb_node *element, const char *key,
                          uint64_t value)
{
    rb_node kept;
    const rb_node *m = element->kind != RB_K_DEFERRED                        ? rb_node_get(element, key)
                       : doc->format->unit_member(list, element, key, &kept) ? &kept
                                                                              : NULL;
    if (!m || m->kind != RB_K_INT || m->v.bits == value) return 0;
    uint64_t now, asked;
    if (doc->format->era_id && doc->format->era_id(m, m->v.bits, &now) && doc->format->era_id(m, value, &asked))
        return now != asked;
    return 1;
}

/* A selector "[key=number]" over a list: the deferred elements whose bytes say they differ
 * (rb_format.unit_member) are passed by, the others made nodes and walked into. */
static int walk_matches(rb_doc *doc, const walk_at *at, const char *key, uint64_t value, rb_pointer_walk w,
                        rb_error *err)
{
    rb_node *list = at->node;
    for (size_t i = 0; i < list->v.kids.count; i++) {
        const rb_node *kid = list->v.kids.items[i];
        if (member_differs(doc, list, kid, key, value)) continue;
        rb_node *element = expanded_child(doc, at, i, err);
        walk_at into;
        if (!element) return 0;
        if (!descend(at, element, &into)) return rb_doc_expand_units_below(doc, list, at->above, at->depth, err);
        if (!walk_rest(doc, &into, w, err)) return 0;
    }
    return 1;
}

/* The rest of the pointer from `at`: each deferred unit it goes through made nodes; a selector
 * other than "[key=number]" over a list, and the place the pointer ends at, have every unit
 * below them made nodes (the operation, its test and the rules may read all of it). */
static int walk_rest(rb_doc *doc, const walk_at *at, rb_pointer_walk w, rb_error *err)
{
    const char *raw;
    size_t length;
    int next = rb_pointer_next(&w, &raw, &length);
    if (next <= 0 || !rb_node_is_container(at->node))
        return rb_doc_expand_units_below(doc, at->node, at->above, at->depth, err);
    char key[64];
    uint64_t value;
    if (length && raw[0] == '[') {
        if (at->node->kind == RB_K_LIST && doc->format->unit_member &&
            simple_selector(raw, length, key, sizeof key, &value))
            return walk_matches(doc, at, key, value, w, err);
        return rb_doc_expand_units_below(doc, at->node, at->above, at->depth, err);
    }
    rb_node *child = rb_model_walk(at->node, raw - 1, length + 1); /* "/token" */
    if (!child) return rb_doc_expand_units_below(doc, at->node, at->above, at->depth, err);
    if (child->kind == RB_K_DEFERRED && !(child = expanded_child(doc, at, index_of(at->node, child), err))) return 0;
    walk_at into;
    if (!descend(at, child, &into)) return rb_doc_expand_units_below(doc, at->node, at->above, at->depth, err);
    return walk_rest(doc, &into, w, err);
}

static int expand_along(rb_doc *doc, const char *path, rb_error *err)
{
    rb_pointer_walk w;
    walk_at root = {doc->root, {0}, 0};
    if (rb_pointer_walk_begin(&w, path, strlen(path), 1) != 0) return 1; /* the stack says why */
    return walk_rest(doc, &root, w, err);
}

/* Units whose description read nodes outside them: made nodes wherever they are. */
static int expand_reading_around(rb_doc *doc, const walk_at *at, rb_error *err)
{
    rb_node *n = at->node;
    for (size_t i = 0; i < n->v.kids.count; i++) {
        rb_node *kid = n->v.kids.items[i];
        if (kid->kind == RB_K_DEFERRED && kid->deferred->reads_around && !(kid = expanded_child(doc, at, i, err)))
            return 0;
        walk_at into;
        if (rb_node_is_container(kid) && descend(at, kid, &into) && !expand_reading_around(doc, &into, err)) return 0;
    }
    return 1;
}

int apply_units_expand_reached(rb_doc *doc, const apply_request *rq, rb_error *err)
{
    if (!rb_doc_units_read_alone(doc)) return -1;
    walk_at root = {doc->root, {0}, 0};
    if (!expand_reading_around(doc, &root, err)) return -1;
    for (size_t p = 0; p < rq->count; p++) {
        const json_t *ops = rq->patches[p]->ops;
        for (size_t i = 0; i < json_array_size(ops); i++)
            if (!expand_along(doc, json_string_value(json_object_get(json_array_get(ops, i), "path")), err)) return -1;
    }
    return 0;
}
