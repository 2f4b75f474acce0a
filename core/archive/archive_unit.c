/*
 * One deferred unit read again alone (archive_unit.h;
 * docs/performance.md "One unit at a time"). The unit's bytes are
 * described again by the format (rb_format.read_unit), which first puts back the reader state
 * the unit began with (GBX: the scope's lookback strings, the node references defined before
 * it). The archive reads into a private document state whose arena is the caller's, so the
 * shared model is only read; the unit's container is seen as the read saw it (its children
 * before the unit), and the containers above it as they are.
 */
#include <stdlib.h>
#include <string.h>
#include "core/archive/archive_internal.h"
#include "core/archive/archive_unit.h"
#include "core/error.h"

/* The document state a unit is read into: the document's limits, name and byte spaces (a copy
 * of the array: the read registers nothing, but must not grow the shared one if it did), the
 * caller's arena, no deferring. */
static int unit_state_init(rb_doc *state, const rb_doc *doc, rb_arena *arena)
{
    memset(state, 0, sizeof *state);
    state->arena = *arena;
    state->format = doc->format;
    state->root = doc->root;
    memcpy(state->file_name, doc->file_name, sizeof state->file_name);
    state->limits = doc->limits;
    state->sections = malloc((doc->section_count ? doc->section_count : 1) * sizeof *state->sections);
    if (!state->sections) return 0;
    memcpy(state->sections, doc->sections, doc->section_count * sizeof *state->sections);
    state->section_count = state->section_cap = doc->section_count;
    return 1;
}

/* What the read made besides nodes (notes of limits hit in speculative reads, and what a
 * misbehaving description might register) goes; the arena goes back to the caller. */
static void unit_state_done(rb_doc *state, rb_arena *arena)
{
    rb_doc_free_read_products(state);
    *arena = state->arena;
}

/* The archive over the unit's bytes, at their place in their byte space (offsets and blob
 * references come out as in a full read), its root a fresh container of the parent's kind. */
static rb_ar *unit_archive(rb_doc *state, const rb_unit_place *place, const rb_node *const *around, size_t count)
{
    const rb_node *unit = place->unit;
    rb_kind kind = place->parent->kind == RB_K_LIST ? RB_K_LIST : RB_K_RECORD;
    rb_node *root = rb_node_new(&state->arena, kind, place->parent->key);
    rb_ar *ar = root ? rb_ar_new_read(state, unit->v.bytes.data, unit->v.bytes.size, root) : NULL;
    if (!ar) return NULL;
    ar->ranges[0].section = unit->section;
    ar->ranges[0].section_base = unit->src_offset;
    ar->ranges[0].what = "unit";
    ar->around = around;
    ar->around_count = count;
    return ar;
}

/* A unit read alone made its tables in the reading state's arena: they belong to the document's
 * (where rb_table_expand puts their nodes) once the unit is put in place. */
static void adopt_tables(rb_node *n, rb_arena *arena)
{
    if (n->kind == RB_K_TABLE || n->kind == RB_K_PACKED) n->table->arena = arena;
    if (!rb_node_is_container(n)) return;
    for (size_t i = 0; i < n->v.kids.count; i++) adopt_tables(n->v.kids.items[i], arena);
}

int rb_doc_expand_unit_in_place(rb_doc *doc, rb_node *parent, size_t index, const rb_node *const *above,
                                size_t count, rb_error *err)
{
    rb_unit_place place = {parent->v.kids.items[index], parent, index, above, count};
    rb_node *nodes = rb_doc_expand_unit(doc, &place, &doc->arena, err);
    if (!nodes) return 0;
    adopt_tables(nodes, &doc->arena);
    parent->v.kids.items[index] = nodes;
    doc->deferred_units--;
    return 1;
}

int rb_doc_expand_units_where(rb_doc *doc, rb_node *parent, const rb_node *const *above, size_t count,
                              int (*wanted)(const rb_node *unit, const rb_node *parent), rb_error *err)
{
    if (!rb_node_is_container(parent)) return 1;
    for (size_t i = 0; i < parent->v.kids.count; i++) {
        rb_node *kid = parent->v.kids.items[i];
        if (kid->kind == RB_K_DEFERRED) {
            if (wanted && !wanted(kid, parent)) continue;
            if (!rb_doc_expand_unit_in_place(doc, parent, i, above, count, err)) return 0;
        } else if (rb_node_is_container(kid)) {
            if (count + 1 >= RB_UNIT_CHAIN) continue; /* nothing that deep was deferred */
            const rb_node *chain[RB_UNIT_CHAIN];
            chain[0] = parent;
            if (count) memcpy(chain + 1, above, count * sizeof *above); /* the root has none above: NULL */
            if (!rb_doc_expand_units_where(doc, kid, chain, count + 1, wanted, err)) return 0;
        }
    }
    return 1;
}

int rb_doc_expand_units_below(rb_doc *doc, rb_node *parent, const rb_node *const *above, size_t count, rb_error *err)
{
    return rb_doc_expand_units_where(doc, parent, above, count, NULL, err);
}

int rb_doc_expand_units_alone(rb_doc *doc, rb_error *err)
{
    return rb_doc_expand_units_below(doc, doc->root, NULL, 0, err);
}

rb_node *rb_doc_expand_unit(const rb_doc *doc, const rb_unit_place *place, rb_arena *arena, rb_error *err)
{
    const rb_node *unit = place->unit;
    if (unit->kind != RB_K_DEFERRED || !unit->deferred->start || !doc->format->read_unit ||
        place->above_count + 1 > RB_UNIT_CHAIN) {
        rb_error_set(err, RB_E_UNSUPPORTED, doc->file_name, NULL, "this deferred unit cannot be read alone");
        return NULL;
    }
    /* the parent as the read saw it when the unit began: the children before it */
    rb_node before = *place->parent;
    before.v.kids.count = place->index;
    const rb_node *around[RB_UNIT_CHAIN] = {&before};
    for (size_t i = 0; i < place->above_count; i++) around[i + 1] = place->above[i];
    rb_doc state;
    rb_node *expanded = NULL;
    if (!unit_state_init(&state, doc, arena)) {
        rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory");
        unit_state_done(&state, arena);
        return NULL;
    }
    rb_ar *ar = unit_archive(&state, place, around, place->above_count + 1);
    if (!ar) {
        rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory");
    } else if (doc->format->read_unit(ar, unit) && rb_ar_finish(ar) && ar->frames[0].node->v.kids.count == 1) {
        expanded = ar->frames[0].node->v.kids.items[0];
    } else if (!rb_ar_ok(ar)) {
        if (err) rb_error_copy(err, rb_ar_error(ar));
    } else {
        rb_error_set(err, RB_E_UNSUPPORTED, doc->file_name, NULL, "this deferred unit cannot be read alone");
    }
    rb_ar_free(ar);
    unit_state_done(&state, arena);
    return expanded;
}
