/*
 * Coverage of a document or of a model: the bytes its nodes type and the bytes they keep opaque, and those
 * payloads by kind (include/rebyte.h rb_coverage, rb_coverage_kinds). A deferred unit counts
 * what its check-only read saw (docs/performance.md "The deferred model"), so coverage never
 * expands one.
 */
#include <string.h>
#include "coverage.h"
#include "doc_state.h"

void rb_node_coverage(const rb_node *n, rb_coverage *c)
{
    switch (n->kind) {
    case RB_K_RECORD:
    case RB_K_LIST:
    case RB_K_STREAM:
        for (size_t i = 0; i < n->v.kids.count; i++) rb_node_coverage(n->v.kids.items[i], c);
        return;
    case RB_K_OPAQUE:
        c->opaque_bytes += n->v.bytes.size;
        if (n->key && strcmp(n->key, "opaqueTail") == 0) c->opaque_tail = 1;
        return;
    case RB_K_DEFERRED:
        c->typed_bytes += n->deferred->coverage.typed_bytes;
        c->opaque_bytes += n->deferred->coverage.opaque_bytes;
        c->opaque_tail |= n->deferred->coverage.opaque_tail; /* an embedded file's */
        return;
    default:
        c->typed_bytes += n->src_size;
    }
}

void rb_node_coverage_kinds(const rb_node *n, rb_coverage_kinds *k)
{
    switch (n->kind) {
    case RB_K_RECORD:
    case RB_K_LIST:
    case RB_K_STREAM:
        for (size_t i = 0; i < n->v.kids.count; i++) rb_node_coverage_kinds(n->v.kids.items[i], k);
        return;
    case RB_K_OPAQUE:
        k->opaque[rb_payload_kind_of(n->v.bytes.data, n->v.bytes.size)] += n->v.bytes.size;
        return;
    case RB_K_BLOB:
        k->blob[rb_payload_kind_of(n->v.bytes.data, n->v.bytes.size)] += n->v.bytes.size;
        return;
    case RB_K_DEFERRED:
        for (size_t i = 0; i < RB_PAYLOAD_KINDS; i++) {
            k->opaque[i] += n->deferred->kinds.opaque[i];
            k->blob[i] += n->deferred->kinds.blob[i];
        }
        return;
    default:
        return;
    }
}

void rb_doc_coverage(const rb_doc *doc, rb_coverage *coverage)
{
    memset(coverage, 0, sizeof(*coverage));
    rb_node_coverage(doc->root, coverage); /* deferred units count what their read saw */
}

void rb_doc_coverage_kinds(const rb_doc *doc, rb_coverage_kinds *kinds)
{
    memset(kinds, 0, sizeof(*kinds));
    rb_node_coverage_kinds(doc->root, kinds); /* deferred units count what their read saw */
}
