/*
 * One deferred unit read again alone: the nodes a full read gives it, made without reading the
 * rest of the file (docs/performance.md "One unit at a time").
 */
#ifndef RB_ARCHIVE_UNIT_H
#define RB_ARCHIVE_UNIT_H
#include "core/model/doc_state.h"

/* Reads the unit at `place` (doc_state.h) again alone, with the reader state it began with, its nodes in
 * `arena` (the caller's: the document's own model is not touched, so any number of threads may
 * do this at once under the shared lock). Returns the unit's node, equal to what a full read of
 * the file gives at that place; NULL with `err` set when it cannot be read alone or memory ran
 * out. The document's `expand_unit` (set by the parse: walks that print units call it through
 * the document, not this module). */
rb_node *rb_doc_expand_unit(const rb_doc *doc, const rb_unit_place *place, rb_arena *arena, rb_error *err);
/* Every deferred unit of the document read alone into its own arena and put in its place, in
 * document order (each unit then sees the ones before it as nodes, as the full read saw them):
 * expansion unit by unit, for a document whose units can all be read alone
 * (rb_doc_units_read_alone). 0 with `err` when a unit does not read (its bytes changed, out of
 * memory): the units before it are nodes then, the rest still deferred, the model whole. */
int rb_doc_expand_units_alone(rb_doc *doc, rb_error *err);
/* The deferred unit child `index` of `parent` (whose containers above are above[0..count),
 * nearest first) read alone and put in its place; 0 with `err` when it does not read. */
int rb_doc_expand_unit_in_place(rb_doc *doc, rb_node *parent, size_t index, const rb_node *const *above,
                                size_t count, rb_error *err);
/* Every deferred unit below `parent` so (rb_doc_expand_units_alone of one subtree). */
int rb_doc_expand_units_below(rb_doc *doc, rb_node *parent, const rb_node *const *above, size_t count, rb_error *err);
/* The deferred units below `parent` that `wanted` (given each and its parent) says yes to, so; the others stay bytes (a
 * model partly expanded is whole: rb_doc_expand makes the rest nodes). */
int rb_doc_expand_units_where(rb_doc *doc, rb_node *parent, const rb_node *const *above, size_t count,
                              int (*wanted)(const rb_node *unit, const rb_node *parent), rb_error *err);
#endif
