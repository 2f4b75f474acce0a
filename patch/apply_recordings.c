/*
 * Race recordings are never written changed (docs/usage.md "Race recordings"): every recording node of
 * the patched model (the format's is_recording hook: GBX ghosts and replays) must be one of the
 * original's, unchanged. Removing a recording is allowed (it forges nothing); adding or changing
 * one is refused. Only recordings an edit reached pay for the check (one more parse of the
 * original, whose model the patches changed in place): the model path notes the nodes each
 * operation went through and the ones it put in place (edited_nodes), and a recording that is
 * neither, nor below one put in place, is the original's node, untouched. The comparison is the library's, which
 * every write takes too (core/doc/recording_guard.c); here it comes before the write, so the message
 * names the patch.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/pointer.h"
#include "core/doc/recording_guard.h"
#include "patch/apply.h"
#include "patch/model_select.h"

/* ---------- the nodes edits reached ---------- */

typedef struct node_set {
    const rb_node **slots;
    size_t cap, count; /* cap: a power of two, or 0 */
} node_set;

struct edited_nodes {
    node_set passed; /* nodes an operation's path went through */
    node_set placed; /* nodes an operation put in place: everything below them is new */
};

static size_t slot_of(const node_set *s, const rb_node *n)
{
    size_t mask = s->cap - 1, i = (size_t)(((uintptr_t)n >> 4) * 0x9E3779B97F4A7C15ull) & mask;
    while (s->slots[i] && s->slots[i] != n) i = (i + 1) & mask;
    return i;
}

static int set_has(const node_set *s, const rb_node *n) { return s->cap && s->slots[slot_of(s, n)] == n; }

static int set_add(node_set *s, const rb_node *n)
{
    if (2 * (s->count + 1) > s->cap) {
        node_set grown = {calloc(s->cap ? 2 * s->cap : 64, sizeof(rb_node *)), s->cap ? 2 * s->cap : 64, 0};
        if (!grown.slots) return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i]) { grown.slots[slot_of(&grown, s->slots[i])] = s->slots[i]; grown.count++; }
        free(s->slots);
        *s = grown;
    }
    size_t i = slot_of(s, n);
    if (!s->slots[i]) { s->slots[i] = n; s->count++; }
    return 0;
}

edited_nodes *edited_nodes_new(void) { return calloc(1, sizeof(edited_nodes)); }

void edited_nodes_free(edited_nodes *e)
{
    if (!e) return;
    free(e->passed.slots);
    free(e->placed.slots);
    free(e);
}

int edited_nodes_note(edited_nodes *e, rb_doc *doc, const char *plain_path, int removed)
{
    rb_node *n = doc->root, *last = n;
    rb_pointer_walk w;
    const char *raw;
    size_t length;
    int rc = rb_pointer_walk_begin(&w, plain_path, strlen(plain_path), 0);
    while (rc == 0 && n && rb_pointer_next(&w, &raw, &length) == 1) {
        rc = set_add(&e->passed, n);
        last = n;
        if (length == 1 && raw[0] == '-' && rb_pointer_at_end(&w) && n->kind == RB_K_LIST) { /* appended */
            n = n->v.kids.count ? n->v.kids.items[n->v.kids.count - 1] : NULL;
            break;
        }
        n = rb_model_walk(n, raw - 1, length + 1); /* "/token" of the path */
    }
    /* a removal leaves the place to the next element, which it did not change; a place the path no
     * longer reaches counts as put in place from the last node reached */
    if (rc == 0 && !removed) rc = set_add(&e->placed, n ? n : last);
    return rc;
}

int edited_nodes_place(edited_nodes *e, const rb_node *node) { return set_add(&e->placed, node); }

/* Is a recording at or below `n` one an edit reached? */
static int record_reached(const rb_format *format, const edited_nodes *e, const rb_node *n, int below_placed)
{
    below_placed = below_placed || set_has(&e->placed, n);
    if (format->is_recording(n)) return below_placed || set_has(&e->passed, n);
    if (n->kind != RB_K_RECORD && n->kind != RB_K_LIST && n->kind != RB_K_STREAM) return 0;
    /* an untouched subtree below no placed node holds the original's recordings as they were */
    if (!below_placed && !set_has(&e->passed, n)) return 0;
    for (size_t i = 0; i < n->v.kids.count; i++)
        if (record_reached(format, e, n->v.kids.items[i], below_placed)) return 1;
    return 0;
}

int apply_recordings_unchanged(const apply_request *rq, const rb_doc *patched, apply_outcome *out)
{
    if (!rb_doc_holds_recording(patched)) return 0;
    if (out->edited && !record_reached(patched->format, out->edited, patched->root, 0)) return 0;
    if (patched->deferred_units) { /* compared on the full model (apply.c runs it again) */
        apply_fail(out, RB_E_DEFERRED, "the race recordings are compared on the full model");
        return -1;
    }
    rb_read_options ro = {.file_name = rq->name};
    rb_error err;
    rb_doc *original = rb_doc_parse(rq->data, rq->size, &ro, &err);
    char path[1024] = "";
    int same = original ? rb_records_unchanged(patched, original, path, sizeof path) : -2;
    rb_doc_free(original);
    if (same == -2) apply_fail(out, RB_E_NOMEM, "out of memory checking the race recordings");
    else if (same < 0)
        apply_fail(out, RB_E_UNSUPPORTED,
                   "%s is a race recording (a ghost or a replay) and the patch changes it: rebyte reads, dumps and "
                   "verifies recordings but never writes one changed, since a changed nickname, time or sample passes "
                   "a run off as someone else's (docs/usage.md \"Race recordings\")",
                   path[0] ? path : "the file");
    return same ? -1 : 0;
}
