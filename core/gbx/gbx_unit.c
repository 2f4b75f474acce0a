/*
 * GBX deferred units read again alone (the generic part: core/archive/archive_unit.c;
 * docs/performance.md "Issue 31, session 11: one unit at a time").
 *
 * A body chunk or a long list kept as its bytes is read again with the reader state it began
 * with: the strings of its lookback scope and whether the scope's version word was read, and the
 * node indices defined before it (a reference to one of those is a back-reference, else the node
 * follows in place). The body scope and the node indices only grow while a file is read, except
 * that a speculative read that fails takes back what it added, together with any unit it held:
 * so their state when the read ends holds each surviving unit's start as a prefix, and is kept
 * once per document. A nested scope (an encapsulation) is started afresh each time: a unit in
 * one keeps a copy of the strings it began with (none, in every file seen: the items list of a
 * map begins its encapsulation).
 *
 * Two units with equal bytes hold equal nodes when they begin with the same state (what
 * gbx_read_unit restores): the same strings in their scope, in order, the same scope depth and
 * version word, the same node indices defined before them and the same reference table, and the
 * same list description. A unit whose bytes are equal but whose start differs (an earlier unit
 * defined other strings) may mean other values (docs/usage.md "Diffs").
 */
#include <stdlib.h>
#include <string.h>
#include "core/gbx/engine/gbx_internal.h"

void gbx_read_end_begin(rb_ar *ar)
{
    gbx_ctx *ctx = gbx_ctx_of(ar);
    /* allocated before anything else is read: no speculative read can take it back */
    if (ctx->deferring) ctx->read_end = rb_arena_alloc(rb_ar_arena(ar), sizeof *ctx->read_end);
    if (ctx->read_end) ctx->read_end->classes = ctx->classes;
}

void gbx_read_end_fill(rb_ar *ar)
{
    gbx_ctx *ctx = gbx_ctx_of(ar);
    gbx_read_end *end = ctx->read_end;
    if (!end || !rb_ar_ok(ar) || !rb_ar_doc(ar)->deferred_units) return;
    rb_arena *arena = rb_ar_arena(ar);
    const gbx_id_scope *body = &ctx->scopes[0];
    end->body_id_count = body->count;
    end->node_log_count = ctx->node_log_count;
    end->external_count = ctx->external_count;
    end->body_ids = body->count ? rb_arena_dup(arena, body->entries, body->count * sizeof *body->entries) : NULL;
    end->node_log = ctx->node_log_count ? rb_arena_dup(arena, ctx->node_log, ctx->node_log_count * sizeof *ctx->node_log)
                                        : NULL;
    end->external_nodes = ctx->external_count ? rb_arena_dup(arena, ctx->external_nodes,
                                                             ctx->external_count * sizeof *ctx->external_nodes)
                                              : NULL;
    end->complete = (end->body_ids || !body->count) && (end->node_log || !ctx->node_log_count) &&
                    (end->external_nodes || !ctx->external_count);
}

int gbx_read_unit(rb_ar *ar, const rb_node *unit)
{
    const gbx_unit_start *start = unit->deferred->start;
    if (!start || !start->read_end->complete) return 0;
    gbx_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return 1; }
    ctx->classes = start->read_end->classes;
    ctx->scope_count = start->scope_depth;
    ctx->external_nodes = start->read_end->external_nodes;
    ctx->external_count = start->read_end->external_count;
    ctx->file = rb_ar_doc(ar)->root;
    rb_ar_set_user(ar, ctx);
    if (gbx_restore_scope(ar, start) && gbx_restore_nodes(ar, start)) {
        if (start->list) gbx_counted_list(ar, start->list);
        else gbx_describe_chunk(ar);
    }
    rb_ar_set_user(ar, NULL);
    ctx->external_nodes = NULL; /* the document's */
    gbx_ctx_free(ctx);
    return 1;
}

static int same_strings(const gbx_id_entry *a, const gbx_id_entry *b, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (a[i].size != b[i].size || (a[i].size && memcmp(a[i].data, b[i].data, a[i].size) != 0)) return 0;
    return 1;
}

static int same_words(const uint32_t *a, const uint32_t *b, size_t count)
{
    return !count || memcmp(a, b, count * sizeof *a) == 0;
}

int gbx_same_unit_start(const rb_deferred *x, const rb_deferred *y)
{
    const gbx_unit_start *a = x->start, *b = y->start;
    if (!a || !b || !a->read_end->complete || !b->read_end->complete) return 0;
    const gbx_read_end *ea = a->read_end, *eb = b->read_end;
    if (ea->classes != eb->classes || a->scope_depth != b->scope_depth || a->version_seen != b->version_seen ||
        a->id_count != b->id_count || a->node_log != b->node_log || ea->external_count != eb->external_count)
        return 0;
    /* a list unit's description is a copy of one static description: equal copies are the same one */
    if (!a->list != !b->list || (a->list && memcmp(a->list, b->list, sizeof *a->list) != 0)) return 0;
    const gbx_id_entry *ids_a = a->scope_depth == 1 ? ea->body_ids : a->scope_ids;
    const gbx_id_entry *ids_b = b->scope_depth == 1 ? eb->body_ids : b->scope_ids;
    return same_strings(ids_a, ids_b, a->id_count) && same_words(ea->node_log, eb->node_log, a->node_log) &&
           same_words(ea->external_nodes, eb->external_nodes, ea->external_count);
}
