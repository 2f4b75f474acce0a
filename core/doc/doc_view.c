/*
 * A deferred document as a walk that needs some of its units sees it (core/doc/doc_view.h):
 * `rebyte info`'s summary and `rebyte check`'s rules (docs/performance.md "Info and check on a deferred read").
 */
#include "core/doc/doc_view.h"
#include "core/doc/doc.h"
#include "core/error.h"

/* Building the view: the containers from the root down to the units wanted copied, those units
 * read alone; every other node is the document's own. */
typedef struct view_build {
    const rb_doc *doc;
    rb_unit_wanted wanted;
    void *context;
    rb_arena *arena;
    const rb_node *chain[RB_UNIT_CHAIN]; /* the containers above the node walked, the root first */
    size_t depth;
    rb_error *err;
} view_build;

static int is_walked(const rb_node *n)
{
    return n->kind == RB_K_RECORD || n->kind == RB_K_LIST || n->kind == RB_K_STREAM;
}

/* The deferred child `index` of `parent` as the view has it: read alone when it is wanted. */
static const rb_node *view_unit(view_build *v, const rb_node *parent, size_t index)
{
    const rb_node *unit = parent->v.kids.items[index];
    if (v->wanted && !v->wanted(v->doc, unit, v->context)) return unit;
    const rb_node *above[RB_UNIT_CHAIN]; /* nearest first, as rb_unit_place wants them */
    for (size_t i = 0; i < v->depth; i++) above[i] = v->chain[v->depth - 1 - i];
    rb_unit_place place = {unit, parent, index, above, v->depth};
    return v->doc->expand_unit(v->doc, &place, v->arena, v->err);
}

static const rb_node *out_of_memory(view_build *v)
{
    rb_error_set(v->err, RB_E_NOMEM, v->doc->file_name, NULL, "out of memory");
    return NULL;
}

/* `n` as the view has it: a copy when a unit below it was read, else `n` itself; NULL with
 * the error when a unit does not read. */
static const rb_node *view_of(view_build *v, const rb_node *n)
{
    if (!is_walked(n) || v->depth + 1 >= RB_UNIT_CHAIN) return n;
    rb_node **kids = NULL;
    for (size_t i = 0; i < n->v.kids.count; i++) {
        const rb_node *kid = n->v.kids.items[i], *seen;
        if (kid->kind == RB_K_DEFERRED) {
            seen = view_unit(v, n, i);
        } else {
            v->chain[v->depth++] = n;
            seen = view_of(v, kid);
            v->depth--;
        }
        if (!seen) return NULL;
        if (seen == kid) continue;
        if (!kids) kids = rb_arena_dup(v->arena, n->v.kids.items, n->v.kids.count * sizeof *kids);
        if (!kids) return out_of_memory(v);
        kids[i] = (rb_node *)seen; /* the view's copy holds them; only the view's walk reads it, read only */
    }
    if (!kids) return n;
    rb_node *copy = rb_arena_dup(v->arena, n, sizeof *n);
    if (!copy) return out_of_memory(v);
    copy->v.kids.items = kids;
    return copy;
}

/* A deferred document whose units cannot be read alone (or a deferring build's): a copy of its
 * model expanded as rb_doc_expand expands the document (its file read or built again in full). */
static rb_status walk_expanded_copy(const rb_doc *doc, rb_view_walk walk, void *context, rb_error *err)
{
    rb_doc *copy = rb_doc_copy_model(doc);
    if (!copy) {
        rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory");
        return RB_E_NOMEM;
    }
    rb_status status = rb_doc_expand(copy, err);
    if (status == RB_OK) walk(copy, context);
    rb_doc_free(copy);
    return status;
}

rb_status rb_doc_view_walk(const rb_doc *doc, rb_unit_wanted wanted, void *context, rb_view_walk walk, rb_error *err)
{
    if (!doc->deferred_units) {
        walk(doc, context);
        return RB_OK;
    }
    if (!doc->expand_unit || !rb_doc_units_read_alone(doc)) return walk_expanded_copy(doc, walk, context, err);
    rb_arena arena;
    rb_arena_init(&arena);
    rb_error why;
    rb_error_clear(&why);
    view_build v = {.doc = doc, .wanted = wanted, .context = context, .arena = &arena, .err = &why};
    const rb_node *root = view_of(&v, doc->root);
    rb_status status = root ? RB_OK : why.status ? why.status : RB_E_NOMEM;
    if (!root && err) rb_error_copy(err, &why);
    if (root) {
        rb_doc seen = *doc;
        seen.root = (rb_node *)root; /* the document's fields, the view's nodes: the walk only reads */
        walk(&seen, context);
    }
    rb_arena_free(&arena);
    return status;
}
