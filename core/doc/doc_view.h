/*
 * A deferred document seen with some of its units read (core/doc/doc_view.c): what `rebyte info`
 * and `rebyte check` walk instead of the whole model (docs/performance.md "Info and check on a deferred read").
 */
#ifndef RB_DOC_VIEW_H
#define RB_DOC_VIEW_H
#include "core/model/doc_state.h"

/* Does the walk read this deferred unit? */
typedef int (*rb_unit_wanted)(const rb_doc *doc, const rb_node *unit, void *context);
/* The walk, given the document as it sees it (read only; valid during the call). */
typedef void (*rb_view_walk)(const rb_doc *view, void *context);

/* Calls `walk` on `doc` as a full read gives it as far as the walk looks: the document itself when
 * no unit is deferred; else a view whose containers down to the units `wanted` says (NULL: every
 * unit) are copies, those units read alone (rb_doc_expand_unit) into memory of the call's own; or,
 * when the units cannot be read alone, a copy of the model expanded as rb_doc_expand would. The
 * document is not changed (several threads may walk it at once). A unit that does not read: its
 * error, `walk` not called. */
rb_status rb_doc_view_walk(const rb_doc *doc, rb_unit_wanted wanted, void *context, rb_view_walk walk, rb_error *err);
#endif
