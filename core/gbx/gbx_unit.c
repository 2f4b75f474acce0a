/*
 * GBX deferred units read again alone (the generic part: core/archive/archive_unit.c;
 * docs/performance.md "One unit at a time").
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
 * What makes two units' starts the same (their equal bytes then equal nodes) is
 * gbx_same_unit_start (engine/gbx_id.c, beside the start it compares).
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
