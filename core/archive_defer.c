/*
 * Deferred units (docs/performance.md "The deferred model"): in a document read with
 * rb_read_options.defer, a format may keep a unit it has just read and checked (a GBX body
 * chunk) as one RB_K_DEFERRED node holding the unit's bytes, and give the nodes the read built
 * back to the arena. The read is the full read, so it raises the same errors at the same
 * offsets; what is saved is the model's memory, and on write the walk of the unit's nodes (its
 * bytes are copied). Navigating the document expands every unit (core/doc.c).
 */
#include <string.h>
#include "archive_internal.h"
#include "coverage.h"

/* Frees the nodes made since `mark`, and what the read cached in them (packed tables' side data,
 * the child buffers' owners at the depths below the top frame). */
static void free_since(rb_ar *ar, const rb_arena_mark *mark, size_t packed_tables)
{
    rb_arena_reset(&ar->doc->arena, mark);
    ar->packed_table_count = packed_tables;
    for (size_t depth = ar->frame_count; depth < AR_MAX_FRAMES; depth++) ar->kids_owner[depth] = NULL;
}

rb_ar_unit rb_ar_unit_begin(rb_ar *ar)
{
    rb_ar_unit u = {0};
    if (ar->dir != RB_AR_READ || ar->failed || ar->text || !ar->doc->defer_units) return u;
    const ar_range *r = ar_top_range(ar);
    u.arena = rb_arena_mark_here(&ar->doc->arena);
    u.start = r->base + r->pos;
    u.offset = r->section_base + r->pos;
    u.section = r->section;
    u.range_count = ar->range_count;
    u.frame_count = ar->frame_count;
    u.kids = ar_top_frame(ar)->node->v.kids.count;
    u.sections = ar->doc->section_count;
    u.streams = ar->doc->stream_count;
    u.packed_tables = ar->packed_table_count;
    u.open = 1;
    return u;
}

/* Can the unit read since `u` stand as its bytes? One node appended to the same container, in
 * the same byte range, and nothing registered that points at its nodes (a stream, a section). */
static rb_node *unit_node(rb_ar *ar, const rb_ar_unit *u)
{
    if (!u->open || ar->failed || ar->text || ar->range_count != u->range_count || ar->frame_count != u->frame_count)
        return NULL;
    const rb_node *parent = ar_top_frame(ar)->node;
    if (parent->v.kids.count != u->kids + 1 || ar->doc->section_count != u->sections ||
        ar->doc->stream_count != u->streams)
        return NULL;
    return parent->v.kids.items[u->kids];
}

rb_node *rb_ar_unit_defer(rb_ar *ar, const rb_ar_unit *u, const void *replay, size_t replay_size,
                          uint32_t replay_count, uint32_t flags)
{
    rb_node *unit = unit_node(ar, u);
    if (!unit) return NULL;
    const ar_range *r = ar_top_range(ar);
    rb_deferred facts = {.replay_count = replay_count, .flags = flags};
    facts.coverage = u->dropped_coverage;
    facts.kinds = u->dropped_kinds;
    rb_node_coverage(unit, &facts.coverage);
    rb_node_coverage_kinds(unit, &facts.kinds);
    facts.elements = (uint32_t)(rb_element_count(unit) + u->dropped);
    const char *key = unit->key; /* a description's literal: it survives the nodes */
    free_since(ar, &u->arena, u->packed_tables);
    rb_node *d = rb_node_new(&ar->doc->arena, RB_K_DEFERRED, key);
    rb_deferred *side = rb_arena_alloc(&ar->doc->arena, sizeof *side);
    void *replay_copy = replay_size ? rb_arena_dup(&ar->doc->arena, replay, replay_size) : NULL;
    if (!d || !side || (replay_size && !replay_copy)) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    *side = facts;
    side->replay = replay_copy;
    d->section = u->section;
    d->src_offset = ar_clamp32(u->offset);
    d->deferred = side;
    d->v.bytes.data = u->start;
    d->v.bytes.size = (size_t)(r->base + r->pos - u->start);
    d->src_size = ar_clamp32(d->v.bytes.size);
    ar_top_frame(ar)->node->v.kids.items[u->kids] = d;
    ar->doc->deferred_units++;
    return d;
}

void rb_ar_unit_elements(rb_ar *ar, rb_ar_unit *u)
{
    if (!u->open || ar->failed || ar->frame_count != u->frame_count + 1 || ar_top_frame(ar)->node->kind != RB_K_LIST)
        return;
    u->elements = rb_arena_mark_here(&ar->doc->arena);
    u->element_packed_tables = ar->packed_table_count;
    u->dropping = 1;
}

void rb_ar_unit_drop_elements(rb_ar *ar, rb_ar_unit *u)
{
    if (!u->dropping || ar->failed || ar->frame_count != u->frame_count + 1) return;
    /* a stream or section opened in the list points at its nodes: no more dropping (the caller
     * reads the list again if some were dropped already) */
    if (ar->doc->section_count != u->sections || ar->doc->stream_count != u->streams) {
        u->dropping = 0;
        return;
    }
    ar_frame *f = ar_top_frame(ar);
    rb_node *list = f->node;
    for (size_t i = 0; i < list->v.kids.count; i++) {
        rb_node_coverage(list->v.kids.items[i], &u->dropped_coverage);
        rb_node_coverage_kinds(list->v.kids.items[i], &u->dropped_kinds);
    }
    u->dropped += list->v.kids.count;
    f->dropped += list->v.kids.count;
    list->v.kids.count = 0;
    f->next = 0;
    free_since(ar, &u->elements, u->element_packed_tables);
}

const rb_node *rb_ar_next_deferred(rb_ar *ar)
{
    if (ar->dir != RB_AR_WRITE || ar->failed) return NULL;
    const ar_frame *f = ar_top_frame(ar);
    const rb_node *next = f->next < f->node->v.kids.count ? f->node->v.kids.items[f->next] : NULL;
    return next && next->kind == RB_K_DEFERRED ? next : NULL;
}

void rb_ar_copy_deferred(rb_ar *ar)
{
    const rb_node *d = rb_ar_next_deferred(ar);
    if (!d) return;
    rb_ar_emit(ar, d->v.bytes.data, d->v.bytes.size);
    ar_top_frame(ar)->next++;
}
