/*
 * Race records are never written changed (docs/usage.md "Race records"): every record node of
 * the patched model (the format's is_record hook: GBX ghosts and replays) must be one of the
 * original's, unchanged. Removing a record is allowed (it forges nothing); adding or changing
 * one is refused. Only files that hold records pay for the check (one more parse of the
 * original, whose model the patches changed in place).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "apply.h"
#include "model_compare.h"

typedef struct record_list {
    const rb_node **nodes;
    char **paths;
    size_t count, cap;
} record_list;

static int add_record(record_list *l, const rb_node *n, const char *path)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        const rb_node **nodes = realloc(l->nodes, cap * sizeof *nodes);
        if (nodes) l->nodes = nodes;
        char **paths = nodes ? realloc(l->paths, cap * sizeof *paths) : NULL;
        if (paths) l->paths = paths;
        if (!nodes || !paths) return 0;
        l->cap = cap;
    }
    l->nodes[l->count] = n;
    l->paths[l->count++] = strdup(path);
    return 1;
}

static void free_records(record_list *l)
{
    for (size_t i = 0; i < l->count; i++) free(l->paths[i]);
    free(l->nodes);
    free(l->paths);
}

/* The outermost record nodes below `n` (a record's own parts are part of it). */
static int collect(const rb_format *format, const rb_node *n, const char *path, record_list *out)
{
    if (format->is_record(n)) return add_record(out, n, path);
    if (n->kind != RB_K_RECORD && n->kind != RB_K_LIST && n->kind != RB_K_STREAM) return 1;
    for (size_t i = 0; i < n->v.kids.count; i++) {
        const rb_node *kid = n->v.kids.items[i];
        char child[1024];
        if (kid->key) snprintf(child, sizeof child, "%s/%s", path, kid->key);
        else snprintf(child, sizeof child, "%s/%zu", path, i);
        if (!collect(format, kid, child, out)) return 0;
    }
    return 1;
}

/* The first record of `patched` that is not, unchanged, one of `original`'s; -1 when none. */
static long forged_record(const record_list *patched, const record_list *original)
{
    char *used = calloc(original->count + 1, 1);
    long forged = -1;
    for (size_t i = 0; used && i < patched->count && forged < 0; i++) {
        size_t j = 0;
        while (j < original->count && (used[j] || !rb_model_equal(original->nodes[j], patched->nodes[i], "", NULL))) j++;
        if (j < original->count) used[j] = 1;
        else forged = (long)i;
    }
    free(used);
    return used ? forged : 0;
}

int apply_records_unchanged(const apply_request *rq, const rb_doc *patched, apply_outcome *out)
{
    const rb_format *format = patched->format;
    if (!format->is_record) return 0;
    record_list now = {0}, before = {0};
    int ok = collect(format, patched->root, "", &now);
    rb_doc *original = NULL;
    long forged = -1;
    if (ok && now.count) {
        rb_read_options ro = {.file_name = rq->name};
        rb_error err;
        original = rb_doc_parse(rq->data, rq->size, &ro, &err);
        ok = original && collect(format, original->root, "", &before);
        if (ok) forged = forged_record(&now, &before);
    }
    if (!ok) apply_fail(out, RB_E_NOMEM, "out of memory checking the race records");
    else if (forged >= 0)
        apply_fail(out, RB_E_UNSUPPORTED,
                   "%s is a race record (a ghost or a replay) and the patch changes it: rebyte reads, dumps and "
                   "verifies records but never writes one changed, since a changed nickname, time or sample passes "
                   "a run off as someone else's (docs/usage.md \"Race records\")",
                   now.paths[forged][0] ? now.paths[forged] : "the file");
    if (!ok || forged >= 0) out->final = 1;
    free_records(&now);
    free_records(&before);
    rb_doc_free(original);
    return ok && forged < 0 ? 0 : -1;
}
