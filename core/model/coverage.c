/*
 * Coverage of a document or of a model: the bytes its nodes type and the bytes they keep opaque, and those
 * payloads by kind (include/rebyte.h rb_coverage, rb_coverage_kinds). A deferred unit counts
 * what its check-only read saw (docs/performance.md "The deferred model"), so coverage never
 * expands one.
 */
#include <string.h>
#include "core/model/coverage.h"
#include "core/options.h"
#include "core/model/doc_state.h"

/* A node that counts its own bytes as typed and has nothing below it (the default case below). */
static int is_typed_leaf(rb_kind kind)
{
    return kind != RB_K_RECORD && kind != RB_K_LIST && kind != RB_K_STREAM && kind != RB_K_OPAQUE &&
           kind != RB_K_BLOB && kind != RB_K_DEFERRED;
}

void rb_node_coverage_all(const rb_node *n, rb_coverage *c, rb_coverage_kinds *k)
{
    switch (n->kind) {
    case RB_K_RECORD:
    case RB_K_LIST:
    case RB_K_STREAM:
        /* most children are scalars: counted here, without a call each (this walk runs over
         * every unit a deferred read keeps, docs/performance.md) */
        for (size_t i = 0; i < n->v.kids.count; i++) {
            const rb_node *kid = n->v.kids.items[i];
            if (is_typed_leaf(kid->kind)) c->typed_bytes += kid->src_size;
            else rb_node_coverage_all(kid, c, k);
        }
        return;
    case RB_K_OPAQUE:
        c->opaque_bytes += n->v.bytes.size;
        if (n->key && strcmp(n->key, "opaqueTail") == 0) c->opaque_tail = 1;
        k->opaque[rb_payload_kind_of(n->v.bytes.data, n->v.bytes.size)] += n->v.bytes.size;
        return;
    case RB_K_BLOB:
        c->typed_bytes += n->src_size;
        k->blob[rb_payload_kind_of(n->v.bytes.data, n->v.bytes.size)] += n->v.bytes.size;
        return;
    case RB_K_DEFERRED:
        c->typed_bytes += n->deferred->coverage.typed_bytes;
        c->opaque_bytes += n->deferred->coverage.opaque_bytes;
        c->opaque_tail |= n->deferred->coverage.opaque_tail; /* an embedded file's */
        for (size_t i = 0; i < RB_PAYLOAD_KINDS; i++) {
            k->opaque[i] += n->deferred->kinds.opaque[i];
            k->blob[i] += n->deferred->kinds.blob[i];
        }
        return;
    default:
        c->typed_bytes += n->src_size;
    }
}

/* The document's coverage into the caller's `coverage`, `kinds` or both (the walk counts
 * both), each filled as far as its size says (core/options.c). Deferred units count what their
 * read saw. */
static rb_status coverage_for_caller(const rb_doc *doc, rb_coverage *coverage, rb_coverage_kinds *kinds)
{
    if (!doc || (!coverage && !kinds)) return RB_E_USAGE;
    rb_coverage c;
    rb_coverage_kinds k;
    memset(&c, 0, sizeof c);
    memset(&k, 0, sizeof k);
    rb_node_coverage_all(doc->root, &c, &k);
    char why[160];
    int rc = coverage ? rb_result_fill(coverage, &c, sizeof c, sizeof c, "rb_coverage", why, sizeof why) : 0;
    if (!rc && kinds) rc = rb_result_fill(kinds, &k, sizeof k, sizeof k, "rb_coverage_kinds", why, sizeof why);
    return rc ? RB_E_USAGE : RB_OK;
}

rb_status rb_doc_coverage(const rb_doc *doc, rb_coverage *coverage)
{
    return coverage ? coverage_for_caller(doc, coverage, NULL) : RB_E_USAGE;
}

rb_status rb_doc_coverage_kinds(const rb_doc *doc, rb_coverage_kinds *kinds)
{
    return kinds ? coverage_for_caller(doc, NULL, kinds) : RB_E_USAGE;
}

rb_status rb_doc_coverage_both(const rb_doc *doc, rb_coverage *coverage, rb_coverage_kinds *kinds)
{
    return coverage && kinds ? coverage_for_caller(doc, coverage, kinds) : RB_E_USAGE;
}
