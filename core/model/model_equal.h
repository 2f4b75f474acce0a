/*
 * Two model subtrees compared node by node, without rendering them (core/model/model_equal.c): what
 * verifying a patched write, `diff` and the race-recording guard (core/doc/recording_guard.c) share.
 */
#ifndef RB_MODEL_EQUAL_H
#define RB_MODEL_EQUAL_H
#include "core/buf.h"
#include "core/model/doc_state.h"
#include "core/model/model.h"

/* 1 when the two subtrees hold the same content (how values were stored — id storage flags,
 * stream encodings, a table or the list it stands for — does not count). Else 0, and `where`
 * (may be NULL) gets the JSON pointer of the first difference below `path`. */
int rb_model_equal(const rb_node *a, const rb_node *b, const char *path, rb_buf *where);
/* rb_model_equal of a model without deferred units (`a`) and a document read with the deferred
 * model: each of `b_doc`'s units is read alone when the walk meets it (rb_doc.expand_unit),
 * compared, and its memory given back, so the comparison holds one unit's nodes at a time and
 * `b_doc` is not changed. A unit that cannot be read alone is a difference (`err` says why). */
int rb_model_equal_units(const rb_node *a, const rb_doc *b_doc, rb_buf *where, rb_error *err);
/* rb_model_equal of two deferred models whose units were read from files that are the same bytes
 * everywhere but in values outside every unit, values no unit's read takes (rb_format.unit_reads):
 * two units of equal bytes at the same offset are then the same nodes. The caller proves that
 * of the files (patch/apply_kept.c: apply's edit that reaches no unit). */
int rb_model_equal_kept_units(const rb_node *a, const rb_node *b, rb_buf *where);
/* Two deferred units (RB_K_DEFERRED) that hold the same nodes without reading them: equal bytes,
 * read from the same reader state (rb_deferred.same_start), neither reading nodes outside it
 * (docs/usage.md "Diffs": units whose bytes are equal). 0 when that is not known. */
int rb_deferred_same(const rb_node *a, const rb_node *b);
/* rb_model_equal without the place of the difference (symbol handles by handle: a renamed symbol
 * is one change, of the symbol). */
int rb_model_same(const rb_node *a, const rb_node *b);
/* Is `member` of `record` (a record as rb_record_view shows it) left out of a comparison? */
typedef int (*rb_member_filter)(const rb_node *record, const rb_node *member);
/* rb_model_same without the members `ignored` names in both (NULL: none): an element and its
 * copy before apply gave the copy what it gives every copy (patch/model_diff.c copy_source). */
int rb_model_same_but(const rb_node *a, const rb_node *b, rb_member_filter ignored);
#endif
