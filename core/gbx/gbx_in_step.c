/*
 * What apply keeps in step with a list edit in a GBX file (rb_format.in_step): the map's
 * per-block and per-item lists (core/gbx/map/map_parallel.c), and the node indices of what an
 * edit adds (docs/formats/gbx.md "Node references").
 *
 * A node reference outside encapsulation defines its node under an index no other node of the
 * file has (an index seen before is a back-reference). An element a `copy` or an `add` puts in
 * a list may define nodes (a ManiaPlanet or TM2020 checkpoint block's waypoint property, a
 * block's skin): written with its original's indices, the second definition would read as a
 * back-reference and the rest of the body as garbage. So each definition the new element holds
 * whose index the file may already use (below the file's numNodes) gets the next free index from
 * numNodes up, a back-reference inside the element to a node it defines follows it, and
 * numNodes grows by as many: the game sizes its node table by numNodes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/json/json.h"
#include "core/gbx/gbx.h"
#include "core/gbx/map/map.h"

/* The node references a new element holds: where each index is (relative pointer) and its value. */
typedef struct node_ref {
    char *pointer;
    long index;
    int defines;
} node_ref;

typedef struct new_nodes {
    node_ref *refs;
    size_t count, cap;
    int failed; /* out of memory, or a pointer too long */
} new_nodes;

/* `base` + "/" + `token` escaped (RFC 6901) into `out`; 0 when it does not fit. */
static int pointer_append(char *out, size_t size, const char *base, const char *token)
{
    size_t n = (size_t)snprintf(out, size, "%s/", base);
    for (const char *t = token; *t && n + 3 < size; t++) {
        if (*t == '~' || *t == '/') {
            out[n++] = '~';
            out[n++] = *t == '~' ? '0' : '1';
        } else {
            out[n++] = *t;
        }
    }
    if (n + 3 >= size) return 0;
    out[n] = 0;
    return 1;
}

static void add_ref(new_nodes *nodes, const char *pointer, long index, int defines)
{
    if (nodes->count == nodes->cap) {
        size_t cap = nodes->cap ? nodes->cap * 2 : 8;
        node_ref *more = realloc(nodes->refs, cap * sizeof *more);
        if (!more) {
            nodes->failed = 1;
            return;
        }
        nodes->refs = more;
        nodes->cap = cap;
    }
    node_ref *r = &nodes->refs[nodes->count];
    if (!(r->pointer = strdup(pointer))) {
        nodes->failed = 1;
        return;
    }
    r->index = index;
    r->defines = defines;
    nodes->count++;
}

/* Every node reference in `v` ({"index": n} with n >= 0; one with a "classId" defines its node).
 * An embedded file (it has its own "numNodes") numbers its nodes apart: not entered. */
static void collect_refs(new_nodes *nodes, const json_t *v, const char *at)
{
    char below[512];
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v) && !nodes->failed; i++) {
            char token[24];
            snprintf(token, sizeof token, "%zu", i);
            if (!pointer_append(below, sizeof below, at, token)) nodes->failed = 1;
            else collect_refs(nodes, json_array_get(v, i), below);
        }
        return;
    }
    if (!json_is_object(v) || json_object_get(v, "numNodes")) return;
    const json_t *index = json_object_get(v, "index");
    if (json_is_integer(index) && json_integer_value(index) >= 0) {
        if (!pointer_append(below, sizeof below, at, "index")) nodes->failed = 1;
        else add_ref(nodes, below, (long)json_integer_value(index), json_object_get(v, "classId") != NULL);
    }
    const char *key;
    json_t *member;
    json_object_foreach((json_t *)v, key, member) {
        if (nodes->failed) return;
        if (!json_is_object(member) && !json_is_array(member)) continue;
        if (!pointer_append(below, sizeof below, at, key)) nodes->failed = 1;
        else collect_refs(nodes, member, below);
    }
}

/* The pointer of the numNodes of the file `path` lies in: the deepest "<prefix>/numNodes" before
 * a "/body" of the path (a replay's map is a file of its own); 0 when there is none. */
static int numnodes_pointer(const rb_model_view *view, const char *path, char *out, size_t size, long *value)
{
    int found = 0;
    for (const char *p = path; (p = strstr(p, "/body")) != NULL; p += 5) {
        if (p[5] != '/' && p[5] != 0) continue;
        char candidate[512];
        snprintf(candidate, sizeof candidate, "%.*s/numNodes", (int)(p - path), path);
        int present = 0;
        int64_t n = view->integer(view->context, candidate, &present);
        if (!present) continue;
        snprintf(out, size, "%s", candidate);
        *value = (long)n;
        found = 1;
    }
    return found;
}

/* The plain pointer of the element an add or copy to `path` creates ("-": the list's end). */
static int new_element_pointer(const rb_model_view *view, const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return 0;
    if (strcmp(slash + 1, "-") != 0) {
        snprintf(out, size, "%s", path);
        return 1;
    }
    char list[480];
    if ((size_t)(slash - path) >= sizeof list) return 0;
    snprintf(list, sizeof list, "%.*s", (int)(slash - path), path);
    int present = 0;
    size_t n = view->count(view->context, list, &present);
    if (!present) return 0;
    snprintf(out, size, "%s/%zu", list, n);
    return 1;
}

/* The operations that give the nodes `nodes` defines (in the element at `element`) indices of
 * their own from `num_nodes` up, and the file's new numNodes (at `count_at`). */
static json_t *renumber_ops(new_nodes *nodes, const char *element, const char *count_at, long num_nodes)
{
    json_t *ops = NULL;
    long next = num_nodes; /* an index at or above numNodes the element brings along stays its own */
    for (size_t i = 0; i < nodes->count; i++)
        if (nodes->refs[i].defines && nodes->refs[i].index >= next) next = nodes->refs[i].index + 1;
    for (size_t i = 0; i < nodes->count; i++) {
        node_ref *d = &nodes->refs[i];
        if (!d->defines || d->index >= num_nodes) continue;
        long fresh = next++, old = d->index;
        for (size_t k = 0; k < nodes->count; k++) { /* the definition, and the references to it inside */
            node_ref *r = &nodes->refs[k];
            if (r->index != old || (k != i && r->defines)) continue;
            char at[1100];
            snprintf(at, sizeof at, "%s%s", element, r->pointer);
            if (!ops) ops = json_array();
            rb_json_patch_op(ops, "replace", at, NULL, json_integer(fresh));
            r->index = -1; /* renumbered once */
        }
    }
    if (next > num_nodes) {
        if (!ops) ops = json_array();
        rb_json_patch_op(ops, "replace", count_at, NULL, json_integer(next));
    }
    return ops;
}

/* The operations that give the nodes the new element defines indices of their own. */
static json_t *node_index_ops(const rb_model_view *view, const char *kind, const char *path, const char *from,
                              const json_t *value)
{
    char count_at[512], element[512];
    long num_nodes = 0;
    int copy = !strcmp(kind, "copy");
    if ((!copy && strcmp(kind, "add") != 0) || !path || !view->json || (copy && !from) ||
        !numnodes_pointer(view, path, count_at, sizeof count_at, &num_nodes) ||
        !new_element_pointer(view, path, element, sizeof element))
        return NULL;
    json_t *copied = copy ? view->json(view->context, from) : NULL;
    new_nodes nodes = {0};
    collect_refs(&nodes, copy ? copied : value, "");
    /* an element too deep to renumber is written as it is: the re-read refuses what that breaks */
    json_t *ops = nodes.failed ? NULL : renumber_ops(&nodes, element, count_at, num_nodes);
    for (size_t i = 0; i < nodes.count; i++) free(nodes.refs[i].pointer);
    free(nodes.refs);
    json_decref(copied);
    return ops;
}

/* The index of a node reference that defines its node (it has a "classId", as collect_refs
 * reads it): renumber_ops gives it a fresh value in a copy whose original's index the file
 * uses. */
int gbx_given_to_copies(const rb_node *record, const rb_node *member)
{
    if (!member->key || strcmp(member->key, "index") != 0 || member->kind != RB_K_INT) return 0;
    for (size_t i = 0; i < record->v.kids.count; i++) {
        const char *key = record->v.kids.items[i]->key;
        if (key && strcmp(key, "classId") == 0) return 1;
    }
    return 0;
}

json_t *gbx_in_step_ops(const rb_model_view *view, const char *kind, const char *path, const char *from,
                          const json_t *value)
{
    json_t *ops = gbx_map_in_step_ops(view, kind, path, from, value);
    json_t *nodes = kind ? node_index_ops(view, kind, path, from, value) : NULL;
    if (!nodes) return ops;
    if (!ops) return nodes;
    json_array_extend(ops, nodes);
    json_decref(nodes);
    return ops;
}
