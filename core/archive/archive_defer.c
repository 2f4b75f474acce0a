/*
 * Deferred units (docs/performance.md "The deferred model"): in a document read with
 * rb_read_options.defer, a format may keep a unit it has just read and checked (a GBX body
 * chunk) as one RB_K_DEFERRED node holding the unit's bytes, and give the nodes the read built
 * back to the arena. The read is the full read, so it raises the same errors at the same
 * offsets; what is saved is the model's memory, and on write the walk of the unit's nodes (its
 * bytes are copied). Navigating the document expands every unit (core/doc/doc.c).
 */
#include <stdlib.h>
#include <string.h>
#include "core/archive/archive_internal.h"
#include "core/model/coverage.h"
#include "core/model/format.h"

/* Frees the nodes made since `mark`, and what the read cached in them (packed tables' side data,
 * the child buffers' owners at the depths below the top frame). */
static void free_since(rb_ar *ar, const rb_arena_mark *mark, size_t packed_tables)
{
    rb_arena_reset(&ar->doc->arena, mark);
    ar->packed_table_count = packed_tables;
    for (size_t depth = ar->frame_count; depth < ar->kids_depths; depth++) ar->kids_owner[depth] = NULL;
}

/* rb_ar_enclosing calls so far that reached one of the containers at depths [0, depth). */
static uint64_t outside_reads(const rb_ar *ar, size_t depth)
{
    uint64_t n = 0;
    for (size_t i = 0; i < depth && i < AR_MAX_FRAMES; i++) n += ar->enclosing_reads[i];
    return n;
}

rb_ar_unit rb_ar_unit_begin(rb_ar *ar)
{
    rb_ar_unit u = {0};
    int builds = ar->dir == RB_AR_READ || ar->dir == RB_AR_FROM_JSON;
    if (!builds || ar->failed || ar->text || !ar->doc->defer_units) return u;
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
    u.outside_reads = outside_reads(ar, u.frame_count);
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

/* The unit's nodes freed and one RB_K_DEFERRED node standing for them with `bytes` (`size`): a
 * slice of the input (READ), or the unit as written, copied into the arena (`copy`, FROM_JSON). */
static rb_node *defer_as(rb_ar *ar, const rb_ar_unit *u, rb_node *unit, const uint8_t *bytes, size_t size, int copy,
                         const void *replay, size_t replay_size, uint32_t replay_count, uint32_t flags)
{
    rb_deferred facts = {.replay_count = replay_count, .flags = flags};
    facts.reads_around = outside_reads(ar, u->frame_count) != u->outside_reads;
    facts.coverage = u->dropped_coverage;
    facts.kinds = u->dropped_kinds;
    rb_node_coverage_all(unit, &facts.coverage, &facts.kinds);
    facts.elements = (uint32_t)(rb_element_count(unit) + u->dropped);
    const char *key = unit->key; /* a description's literal: it survives the nodes */
    const rb_node *first = unit->kind == RB_K_RECORD && unit->v.kids.count ? unit->v.kids.items[0] : NULL;
    rb_node first_copy = first && first->kind == RB_K_INT ? *first : (rb_node){0}; /* its value is inline */
    free_since(ar, &u->arena, u->packed_tables);
    rb_node *d = rb_node_new(&ar->doc->arena, RB_K_DEFERRED, key);
    rb_deferred *side = rb_arena_alloc(&ar->doc->arena, sizeof *side);
    void *replay_copy = replay_size ? rb_arena_dup(&ar->doc->arena, replay, replay_size) : NULL;
    const uint8_t *kept = copy && size ? rb_arena_dup(&ar->doc->arena, bytes, size) : copy ? (const uint8_t *)"" : bytes;
    if (!d || !side || (replay_size && !replay_copy) || !kept) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    *side = facts;
    side->replay = replay_copy;
    if (first_copy.kind == RB_K_INT) side->first = rb_arena_dup(&ar->doc->arena, &first_copy, sizeof first_copy);
    d->section = u->section;
    d->src_offset = ar_clamp32(u->offset);
    d->deferred = side;
    d->v.bytes.data = kept;
    d->v.bytes.size = size;
    d->src_size = copy ? 0 : ar_clamp32(size); /* a built unit was read from no byte of a file */
    ar_top_frame(ar)->node->v.kids.items[u->kids] = d;
    ar->doc->deferred_units++;
    return d;
}

rb_node *rb_ar_unit_defer(rb_ar *ar, const rb_ar_unit *u, const void *replay, size_t replay_size,
                          uint32_t replay_count, uint32_t flags)
{
    rb_node *unit = ar->dir == RB_AR_READ ? unit_node(ar, u) : NULL;
    if (!unit) return NULL;
    const ar_range *r = ar_top_range(ar);
    size_t size = (size_t)(r->base + r->pos - u->start);
    return defer_as(ar, u, unit, u->start, size, 0, replay, replay_size, replay_count, flags);
}

/* The model's containers from the unit's upwards, for rb_ar_enclosing in the unit's write (as
 * rb_ar_new_draft_from_json takes them); malloc'd. */
static const rb_node **containers_around(rb_ar *ar, size_t *count)
{
    *count = ar->frame_count + ar->around_count;
    const rb_node **around = malloc(*count * sizeof *around);
    if (!around) return NULL;
    for (size_t i = 0; i < ar->frame_count; i++) around[i] = ar->frames[ar->frame_count - 1 - i].node;
    for (size_t i = 0; i < ar->around_count; i++) around[ar->frame_count + i] = ar->around[i];
    return around;
}

/* A race recording stays nodes, whole: the guard of the write compares records by their nodes,
 * so a build's deferred units never need expanding for it (core/doc/doc_write.c). */
static int in_or_around_recording(rb_ar *ar, const rb_node *unit)
{
    const rb_format *format = ar->doc->format;
    if (!format->is_recording) return 0;
    for (size_t i = 0; i < ar->frame_count; i++)
        if (format->is_recording(ar->frames[i].node)) return 1;
    return rb_node_holds(unit, format->is_recording);
}

/* The archive that writes `holder` (standing in for the current container) with `user` as the
 * format's state, the model's containers above reachable; NULL (and the archive failed) when out
 * of memory. */
static rb_ar *writer_in(rb_ar *ar, rb_node *holder, void *user)
{
    size_t around_count;
    const rb_node **around = containers_around(ar, &around_count);
    rb_ar *w = around ? ar_new_write_part(ar->doc, holder) : NULL;
    if (!w) {
        free(around);
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    w->around = around;
    w->around_count = around_count;
    w->user = user;
    return w;
}

static void writer_free(rb_ar *w)
{
    free((void *)w->around);
    rb_ar_free(w);
}

/* `holder` written by `describe` with `user` as the format's state, appended to `out`; a failure
 * is the archive's. */
static int write_in(rb_ar *ar, rb_node *holder, rb_describe_fn describe, void *user, rb_buf *out)
{
    rb_ar *w = writer_in(ar, holder, user);
    if (!w) return 0;
    describe(w);
    int ok = rb_ar_finish(w);
    if (ok) rb_buf_put(out, w->outputs[0].data, w->outputs[0].size);
    if (ok && out->failed) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
    else if (!ok && !ar->failed) ar->err = w->err, ar->failed = 1; /* what the final write would have said */
    writer_free(w);
    return ok && !out->failed;
}

/* Does `holder` written by `describe` give the `size` bytes at `bytes`? A failed write says no
 * and leaves the archive as it was. */
static int writes_as(rb_ar *ar, rb_node *holder, rb_describe_fn describe, void *user, const uint8_t *bytes,
                     size_t size)
{
    rb_ar *w = writer_in(ar, holder, user);
    if (!w) return 0;
    rb_buf_expect(&w->outputs[0], bytes, size); /* compared as it is written, not kept */
    describe(w);
    int same = rb_ar_finish(w) && rb_buf_holds_expected(&w->outputs[0]);
    writer_free(w);
    return same;
}

/* The input read since `from` in the unit's byte range; NULL when the archive left that range. */
static const uint8_t *read_since(rb_ar *ar, const rb_ar_unit *u, const uint8_t *from, size_t *size)
{
    if (ar->range_count != u->range_count) return NULL;
    const ar_range *r = ar_top_range(ar);
    *size = (size_t)(r->base + r->pos - from);
    return from;
}

int rb_ar_checks_units(const rb_ar *ar) { return ar->dir == RB_AR_READ && ar->doc->defer_units && ar->doc->check_units; }

int rb_ar_unit_writes_back(rb_ar *ar, const rb_ar_unit *u, rb_describe_fn describe, void *user)
{
    rb_node *unit = ar->dir == RB_AR_READ ? unit_node(ar, u) : NULL;
    size_t size;
    const uint8_t *bytes = unit ? read_since(ar, u, u->start, &size) : NULL;
    if (!bytes) return 0;
    rb_node holder = *ar_top_frame(ar)->node; /* the unit alone in a copy of its container */
    holder.v.kids.items = &unit;
    holder.v.kids.count = 1;
    return writes_as(ar, &holder, describe, user, bytes, size);
}

int rb_ar_unit_elements_write_back(rb_ar *ar, const rb_ar_unit *u, rb_describe_fn describe, void *user)
{
    if (ar->dir != RB_AR_READ || !u->dropping || ar->failed || ar->frame_count != u->frame_count + 1 ||
        ar->doc->section_count != u->sections || ar->doc->stream_count != u->streams)
        return 0;
    size_t size;
    const uint8_t *bytes = read_since(ar, u, u->elements_start, &size);
    if (!bytes) return 0;
    rb_node holder = *ar_top_frame(ar)->node; /* the elements read since the last drop */
    return writes_as(ar, &holder, describe, user, bytes, size);
}

int rb_ar_unit_write(rb_ar *ar, const rb_ar_unit *u, rb_describe_fn describe, void *user, rb_buf *out)
{
    rb_node *unit = ar->dir == RB_AR_FROM_JSON ? unit_node(ar, u) : NULL;
    if (!unit || in_or_around_recording(ar, unit)) return 0;
    /* the unit alone in a copy of its container: the write walks it as the whole write would */
    rb_node holder = *ar_top_frame(ar)->node;
    holder.v.kids.items = &unit;
    holder.v.kids.count = 1;
    return write_in(ar, &holder, describe, user, out);
}

int rb_ar_unit_write_elements(rb_ar *ar, const rb_ar_unit *u, rb_describe_fn describe, void *user, rb_buf *out)
{
    if (ar->dir != RB_AR_FROM_JSON || !u->dropping || ar->failed || ar->frame_count != u->frame_count + 1 ||
        ar->doc->section_count != u->sections || ar->doc->stream_count != u->streams)
        return 0;
    rb_node *list = ar_top_frame(ar)->node;
    if (in_or_around_recording(ar, list)) return 0;
    rb_node holder = *list; /* the elements built since the last write */
    return write_in(ar, &holder, describe, user, out);
}

rb_node *rb_ar_unit_defer_written(rb_ar *ar, const rb_ar_unit *u, const rb_buf *bytes, const void *replay,
                                  size_t replay_size, uint32_t replay_count, uint32_t flags)
{
    rb_node *unit = ar->dir == RB_AR_FROM_JSON ? unit_node(ar, u) : NULL;
    if (!unit) return NULL;
    return defer_as(ar, u, unit, bytes->data, bytes->size, 1, replay, replay_size, replay_count, flags);
}

void rb_ar_unit_elements(rb_ar *ar, rb_ar_unit *u)
{
    if (!u->open || ar->failed || ar->frame_count != u->frame_count + 1 || ar_top_frame(ar)->node->kind != RB_K_LIST)
        return;
    u->elements = rb_arena_mark_here(&ar->doc->arena);
    u->element_packed_tables = ar->packed_table_count;
    const ar_range *r = ar_top_range(ar);
    u->elements_start = r->base + r->pos;
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
        rb_node_coverage_all(list->v.kids.items[i], &u->dropped_coverage, &u->dropped_kinds);
    }
    u->dropped += list->v.kids.count;
    f->dropped += list->v.kids.count;
    list->v.kids.count = 0;
    f->next = 0;
    free_since(ar, &u->elements, u->element_packed_tables);
    const ar_range *r = ar_top_range(ar);
    u->elements_start = r->base + r->pos;
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

rb_node *ar_unit_node(rb_ar *ar, const rb_ar_unit *u) { return ar->dir == RB_AR_FROM_JSON ? unit_node(ar, u) : NULL; }

void ar_unit_free(rb_ar *ar, const rb_ar_unit *u) { free_since(ar, &u->arena, u->packed_tables); }

/* The deferred unit of `n` or below it (`depth` levels) at `offset` of `section`, or NULL. */
static const rb_node *known_unit_at(const rb_node *n, uint16_t section, uint64_t offset, int depth)
{
    if (n->kind == RB_K_DEFERRED) return n->section == section && n->src_offset == offset ? n : NULL;
    if (!depth || !rb_node_is_container(n)) return NULL;
    for (size_t i = 0; i < n->v.kids.count; i++) {
        const rb_node *found = known_unit_at(n->v.kids.items[i], section, offset, depth - 1);
        if (found) return found;
    }
    return NULL;
}

enum { KNOWN_UNIT_DEPTH = 3 }; /* a unit in a list in a stream's record (GROFF in SZDD) */

const rb_node *rb_ar_unit_known(rb_ar *ar)
{
    const rb_doc *known = ar->doc->units_known;
    if (!known || !known->root || ar->dir != RB_AR_READ || ar->failed || ar->text || !ar->doc->defer_units)
        return NULL;
    const ar_range *r = ar_top_range(ar);
    uint64_t offset = r->section_base + r->pos;
    const rb_node *k = offset < UINT32_MAX ? known_unit_at(known->root, r->section, offset, KNOWN_UNIT_DEPTH) : NULL;
    size_t size = k ? k->v.bytes.size : 0;
    if (!k || !k->src_size || size > r->size - r->pos || memcmp(r->base + r->pos, k->v.bytes.data, size) != 0)
        return NULL;
    rb_node *d = rb_node_new(&ar->doc->arena, RB_K_DEFERRED, k->key);
    if (!d || !ar_append_child(ar, ar_top_frame(ar)->node, d)) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    ar_top_frame(ar)->next = ar_top_frame(ar)->node->v.kids.count;
    d->section = k->section;
    d->src_offset = k->src_offset;
    d->src_size = k->src_size;
    d->deferred = k->deferred;
    d->v.bytes.data = ar_take(ar, "unit", size);
    d->v.bytes.size = size;
    ar->doc->deferred_units++;
    return k;
}
