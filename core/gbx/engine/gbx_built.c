/*
 * Units of a deferring build (rebyte build;
 * docs/performance.md "Build within 3x"). A deferred read keeps a unit as the bytes it was read from; a build has no bytes,
 * so it makes them: once a unit (a body chunk, a long list) is built and checked from its JSON,
 * it is written at once, as the final write would write it, and kept as those bytes with the
 * lookback ids it defined as its replay (gbx_replay_ids), its nodes freed. The final write copies
 * the bytes, as for a deferred read.
 *
 * What the write of a unit depends on besides its nodes is the id scope at the unit (which
 * strings are defined, whether the version word was written): the build tracks it as it builds
 * ids (gbx_id.c track_written_id), and each unit's write starts from a copy of it. The write
 * must define exactly the ids the build tracked; it is checked. Node references need nothing:
 * the writer takes them from the model. The ids a unit defined name strings of its nodes, which
 * are freed: they move to memory that stays (the list's side arena, then the document's).
 */
#include <stdlib.h>
#include <string.h>
#include "core/gbx/engine/gbx_internal.h"

/* The writer's state at the unit: a fresh context whose scope holds what the build's held before
 * the unit. */
static gbx_ctx *writer_of(rb_ar *ar, gbx_built *b)
{
    if (b->writer) return b->writer;
    gbx_ctx *w = calloc(1, sizeof *w);
    if (!w) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return NULL; }
    w->classes = gbx_ctx_of(ar)->classes;
    w->scope_count = 1;
    w->unit_list = b->list;
    const gbx_id_scope *s = gbx_scope(ar);
    if (s->count == b->ids_before) {
        gbx_scope_copy(ar, &w->scopes[0], s); /* at the unit's start: the table copied, not rebuilt */
    } else {
        RB_AR_EACH(ar, i, b->ids_before) gbx_scope_add(ar, &w->scopes[0], s->entries[i].data, s->entries[i].size);
    }
    w->scopes[0].version_seen = b->version_seen;
    b->writer = w;
    return w;
}

void gbx_built_begin(rb_ar *ar, gbx_built *b, const gbx_list *list)
{
    memset(b, 0, sizeof *b);
    b->ids_before = gbx_id_count(ar, &b->version_seen);
    b->ids_kept = b->ids_before;
    b->list = list;
    b->unit = rb_ar_unit_begin(ar);
    b->checking = rb_ar_direction(ar) == RB_AR_READ && gbx_ctx_of(ar)->checking;
    rb_buf_init(&b->bytes);
    rb_arena_init(&b->strings);
    /* a checked unit will be written from the scope as it is now: taken while it is that */
    if (b->checking && b->unit.open) writer_of(ar, b);
}

/* The write defined the ids the build tracked (else the bytes would not be the final write's). */
static int writer_in_step(rb_ar *ar, const gbx_built *b)
{
    if (b->writer->scopes[0].count == gbx_scope(ar)->count) return 1;
    rb_ar_fail(ar, RB_E_MODEL, "internal: the unit's write defined other lookback ids than its build");
    return 0;
}

/* The strings of the ids defined since the last move copied to `arena`; the build's scope and
 * the writer's (which hold the same ids, in step) point at the copies. */
static int move_strings(rb_ar *ar, gbx_built *b, rb_arena *arena)
{
    gbx_id_scope *s = gbx_scope(ar);
    gbx_id_entry *writer_entries = b->writer ? b->writer->scopes[0].entries : NULL;
    for (size_t i = b->ids_kept; i < s->count; i++) {
        uint8_t *copy = rb_arena_dup(arena, s->entries[i].data, s->entries[i].size + 1);
        if (!copy) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return 0; }
        s->entries[i].data = copy;
        if (writer_entries) writer_entries[i].data = copy;
    }
    b->ids_kept = s->count;
    return 1;
}

void gbx_built_flush(rb_ar *ar, gbx_built *b, void (*describe_elements)(rb_ar *ar))
{
    gbx_ctx *w = b->unit.dropping && rb_ar_ok(ar) ? writer_of(ar, b) : NULL;
    if (!w || !rb_ar_unit_write_elements(ar, &b->unit, describe_elements, w, &b->bytes)) return;
    if (writer_in_step(ar, b) && move_strings(ar, b, &b->strings)) rb_ar_unit_drop_elements(ar, &b->unit);
}

void gbx_built_end(gbx_built *b)
{
    gbx_ctx_free(b->writer);
    b->writer = NULL;
    rb_buf_free(&b->bytes);
    rb_arena_free(&b->strings);
}

/* READ: the write defined the ids the read did (a quiet writer_in_step: a difference is an answer). */
static int writer_defined_as_read(rb_ar *ar, const gbx_built *b)
{
    return b->writer->scopes[0].count == gbx_scope(ar)->count;
}

int gbx_built_writes_back(rb_ar *ar, gbx_built *b, void (*describe)(rb_ar *ar))
{
    if (!b->checking) return 1;
    if (b->differs) return 0;
    gbx_ctx *w = writer_of(ar, b);
    b->differs = !w || !rb_ar_unit_writes_back(ar, &b->unit, describe, w) || !writer_defined_as_read(ar, b);
    return !b->differs;
}

int gbx_built_elements_write_back(rb_ar *ar, gbx_built *b, void (*describe_elements)(rb_ar *ar))
{
    if (!b->checking) return 1;
    if (b->differs) return 0;
    gbx_ctx *w = writer_of(ar, b);
    b->differs = !w || !rb_ar_unit_elements_write_back(ar, &b->unit, describe_elements, w) ||
                 !writer_defined_as_read(ar, b);
    if (b->differs) b->unit.dropping = 0; /* the rest stays nodes: the list is read again whole */
    return !b->differs;
}

/* The unit's bytes: a list's count and the elements flushed; else the unit written whole. */
static int unit_bytes(rb_ar *ar, gbx_built *b, void (*describe)(rb_ar *ar), rb_buf *out)
{
    if (!b->unit.dropped) {
        gbx_ctx *w = writer_of(ar, b);
        return w && rb_ar_unit_write(ar, &b->unit, describe, w, out);
    }
    const rb_node *container = rb_ar_current(ar);
    const rb_node *list = container->v.kids.count ? container->v.kids.items[container->v.kids.count - 1] : NULL;
    if (!list || list->v.kids.count) {
        /* elements were let go of, but the rest could not be written (a stream opened in one) */
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "internal: list %s cannot be built deferred (rb_doc_build_file builds it)",
                   list && list->key ? list->key : "?");
        return 0;
    }
    uint32_t count = (uint32_t)b->unit.dropped;
    uint8_t le[4] = {(uint8_t)count, (uint8_t)(count >> 8), (uint8_t)(count >> 16), (uint8_t)(count >> 24)};
    rb_buf_put(out, le, 4); /* the list's u32 count (gbx_deferrable_list's lists) */
    rb_buf_put(out, b->bytes.data, b->bytes.size);
    if (out->failed) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
    return !out->failed;
}

rb_node *gbx_built_defer(rb_ar *ar, gbx_built *b, void (*describe)(rb_ar *ar))
{
    rb_node *d = NULL;
    rb_buf bytes;
    rb_buf_init(&bytes);
    rb_arena moved;
    rb_arena_init(&moved);
    /* the strings move out of the unit's nodes before they are freed, then into the document */
    if (b->unit.open && rb_ar_ok(ar) && unit_bytes(ar, b, describe, &bytes) && writer_in_step(ar, b) &&
        move_strings(ar, b, &moved)) {
        gbx_id_scope *s = gbx_scope(ar);
        size_t defined = s->count - b->ids_before;
        uint32_t flags = !b->version_seen && s->version_seen ? GBX_UNIT_READ_ID_VERSION : 0;
        d = rb_ar_unit_defer_written(ar, &b->unit, &bytes, s->entries + b->ids_before, defined * sizeof *s->entries,
                                     (uint32_t)defined, flags);
        b->ids_kept = b->ids_before;
        if (d && move_strings(ar, b, rb_ar_arena(ar))) {
            gbx_id_entry *replay = (gbx_id_entry *)d->deferred->replay;
            for (size_t i = 0; i < defined; i++) replay[i].data = s->entries[b->ids_before + i].data;
        }
    }
    rb_buf_free(&bytes);
    rb_arena_free(&moved);
    gbx_built_end(b);
    return rb_ar_ok(ar) ? d : NULL;
}
