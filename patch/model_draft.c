/*
 * Drafts: what the model cannot take the shape of, built from the format's description in place.
 *
 * Most operations are done on the nodes (patch/model_edit.c). One that builds structure no node
 * of the model has the shape of (a new member of a record, the first element of an empty list, a
 * value unlike its neighbours, a new chunk, the whole document), or that changes what the
 * description branches on (a version field), is done on the smallest draft around it that the
 * format's description builds on its own (rb_format.draft_description: a GBX node's chunk; where
 * the format names none, the document). The draft is rendered as JSON once ("opened"); this and
 * every later operation whose path goes into it edit that JSON (RFC 6902, patch/jsonpatch.c), so
 * a patch may pass through states its description would refuse (a version changed before the
 * fields it adds), as RFC 6902 allows. When the stack is done, each open draft is built back
 * through its description, which checks every type, range and version, in place of its node.
 * The cost is the draft, not the file. A draft the description refuses is a final error naming
 * the operation that opened it (docs/usage.md "How apply works").
 */
#include "patch/model_draft.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/json/json.h"
#include "core/model/pointer.h"
#include "patch/jsonpatch.h"
#include "patch/model_select.h"
#include "patch/selector.h"

enum { DRAFT_MAX_AROUND = 64 };

typedef struct open_draft {
    rb_node *node;       /* the model node standing for it: the one it came from, or a placeholder */
    rb_node *list;       /* the list it is an element of; NULL: the document's root */
    rb_describe_fn describe;
    const rb_node *around[DRAFT_MAX_AROUND]; /* list, then the containers above it */
    size_t around_count;
    json_t *json;
    char *path;      /* its plain path when it was opened */
    char *opened_by; /* "patch: operation i" */
} open_draft;

struct rb_drafts {
    open_draft *items;
    size_t count, cap;
    char operation[300];
};

int rb_drafts_begin(rb_doc *doc)
{
    rb_drafts_discard(doc);
    doc->drafts = calloc(1, sizeof(rb_drafts));
    return doc->drafts ? 0 : -1;
}

void rb_drafts_set_operation(rb_doc *doc, const char *patch, size_t index)
{
    if (doc->drafts) snprintf(doc->drafts->operation, sizeof doc->drafts->operation, "%s: operation %zu", patch, index);
}

static void draft_free(open_draft *u)
{
    json_decref(u->json);
    free(u->path);
    free(u->opened_by);
}

void rb_drafts_discard(rb_doc *doc)
{
    rb_drafts *drafts = doc->drafts;
    if (!drafts) return;
    for (size_t i = 0; i < drafts->count; i++) draft_free(&drafts->items[i]);
    free(drafts->items);
    free(drafts);
    doc->drafts = NULL;
}

static open_draft *draft_of(const rb_doc *doc, const rb_node *node)
{
    const rb_drafts *drafts = doc->drafts;
    for (size_t i = 0; drafts && node && i < drafts->count; i++)
        if (drafts->items[i].node == node) return &drafts->items[i];
    return NULL;
}

int rb_drafts_holds(const rb_doc *doc, const rb_node *node) { return draft_of(doc, node) != NULL; }

int rb_drafts_resolve(rb_doc *doc, const rb_node *node, const char *rest, rb_buf *plain, char *why, size_t why_size)
{
    open_draft *u = draft_of(doc, node);
    char *resolved = NULL;
    if (!u || rb_pointer_resolve(u->json, rest, &resolved, why, why_size) != 0) return -1;
    rb_buf_put(plain, resolved, strlen(resolved));
    free(resolved);
    return 0;
}

json_t *rb_drafts_value(const rb_doc *doc, const rb_node *node, const char *rest)
{
    open_draft *u = draft_of(doc, node);
    char *resolved = NULL, why[200];
    if (!u || rb_pointer_resolve(u->json, rest, &resolved, why, sizeof why) != 0) return NULL;
    json_t *v = rb_json_pointer_get(u->json, resolved, NULL, 0);
    free(resolved);
    return v;
}

/* `op` with its path (and from) taken relative to the draft. */
static int apply_in(open_draft *u, const json_t *op, const char *rest, const char *rest_from, char *why, size_t why_size)
{
    json_t *local = json_deep_copy(op);
    json_t *one = local ? json_pack("[o]", local) : NULL;
    if (!one) { snprintf(why, why_size, "out of memory"); return -1; }
    json_object_set_new(local, "path", json_string(rest));
    if (rest_from) json_object_set_new(local, "from", json_string(rest_from));
    char message[600];
    int rc = rb_json_patch_apply_selectors_in_place(&u->json, one, message, sizeof message);
    if (rc != 0) snprintf(why, why_size, "%s: %s", u->path[0] ? u->path : "the document", message);
    json_decref(one);
    return rc;
}

int rb_drafts_apply(rb_doc *doc, const rb_node *node, const json_t *op, const char *rest, char *why, size_t why_size)
{
    open_draft *u = draft_of(doc, node);
    if (!u) { snprintf(why, why_size, "internal: no draft there"); return -1; }
    return apply_in(u, op, rest, NULL, why, why_size);
}

/* ---------- opening ---------- */

/* The smallest draft around `plain`: found walking the model along it. */
typedef struct draft_place {
    rb_node *list;  /* NULL: the document */
    size_t index;   /* in list: the element's, or where a new one goes */
    size_t length;  /* of the part of `plain` that names the draft */
    rb_describe_fn describe;
    const rb_node *around[DRAFT_MAX_AROUND];
    size_t around_count;
} draft_place;

/* The containers from `list` up to the root, the chain the walk went down (`chain`, depth `n`). */
static void note_around(draft_place *p, rb_node *const *chain, size_t n)
{
    p->around_count = 0;
    for (size_t i = n; i-- > 0 && p->around_count < DRAFT_MAX_AROUND;) p->around[p->around_count++] = chain[i];
}

static int find_draft(rb_doc *doc, const char *plain, draft_place *p, char *why, size_t why_size)
{
    memset(p, 0, sizeof(*p));
    p->describe = doc->format->describe;
    rb_node *chain[DRAFT_MAX_AROUND], *cur = doc->root;
    size_t depth = 0;
    rb_pointer_walk w;
    const char *raw;
    size_t raw_length;
    if (rb_pointer_walk_begin(&w, plain, strlen(plain), 0) != 0) { snprintf(why, why_size, "bad path %s", plain); return -1; }
    while (cur && depth < DRAFT_MAX_AROUND && rb_pointer_next(&w, &raw, &raw_length) == 1) {
        if (!rb_table_expand(cur)) { snprintf(why, why_size, "out of memory"); return -1; }
        chain[depth++] = cur;
        rb_describe_fn d = cur->kind == RB_K_LIST && doc->format->draft_description ? doc->format->draft_description(cur) : NULL;
        size_t index = cur->v.kids.count;
        if (d && (rb_pointer_index(raw, raw_length, &index) == 0 || (raw_length == 1 && raw[0] == '-')) &&
            index <= cur->v.kids.count) {
            p->list = cur;
            p->index = index;
            p->length = (size_t)(raw + raw_length - plain);
            p->describe = d;
            note_around(p, chain, depth);
        }
        cur = rb_node_is_container(cur) ? rb_model_walk(cur, raw - 1, raw_length + 1) : NULL;
    }
    return 0;
}

static open_draft *draft_add(rb_doc *doc, const draft_place *p, rb_node *node, json_t *json, const char *plain)
{
    rb_drafts *drafts = doc->drafts;
    if (drafts->count == drafts->cap) {
        size_t cap = drafts->cap ? 2 * drafts->cap : 4;
        open_draft *items = realloc(drafts->items, cap * sizeof(*items));
        if (!items) return NULL;
        drafts->items = items;
        drafts->cap = cap;
    }
    open_draft *u = &drafts->items[drafts->count];
    memset(u, 0, sizeof(*u));
    u->node = node;
    u->list = p->list;
    u->describe = p->describe;
    memcpy(u->around, p->around, p->around_count * sizeof(p->around[0]));
    u->around_count = p->around_count;
    u->json = json;
    u->path = strndup(plain, p->length);
    u->opened_by = strdup(drafts->operation[0] ? drafts->operation : "the patch");
    if (!u->path || !u->opened_by) { draft_free(u); return NULL; }
    drafts->count++;
    return u;
}

/* A new element of a list of drafts (an add at its place, or a replace of one), held as the
 * operation's value until the end: *placeholder stands in the list meanwhile (the caller puts it). */
static int open_new_element(rb_doc *doc, const draft_place *p, const json_t *op, const char *plain,
                            rb_node **placeholder, char *why, size_t why_size)
{
    const char *kind = json_string_value(json_object_get(op, "op"));
    const json_t *value = json_object_get(op, "value");
    if (!value || !kind || (strcmp(kind, "replace") != 0 && strcmp(kind, "add") != 0)) {
        snprintf(why, why_size, "%s: nothing to build there", plain);
        return -1;
    }
    rb_node *node = rb_node_new(&doc->arena, RB_K_RECORD, NULL);
    json_t *json = json_deep_copy(value);
    if (!node || !json || !draft_add(doc, p, node, json, plain)) {
        json_decref(json);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    *placeholder = node;
    return 0;
}

/* An open draft below `node` (which would be rendered with that draft's old nodes), or NULL. */
static const open_draft *draft_inside(const rb_doc *doc, const rb_node *node)
{
    const rb_drafts *drafts = doc->drafts;
    for (size_t i = 0; node && i < drafts->count; i++)
        for (size_t k = 0; k < drafts->items[i].around_count; k++)
            if (drafts->items[i].around[k] == node) return &drafts->items[i];
    return NULL;
}

int rb_drafts_open_for(rb_doc *doc, const json_t *op, const char *plain, rb_node **placeholder, char *why,
                      size_t why_size)
{
    *placeholder = NULL;
    if (!doc->drafts) { snprintf(why, why_size, "%s: not a shape the model can take here", plain); return -1; }
    draft_place p;
    if (find_draft(doc, plain, &p, why, why_size) != 0) return -1;
    const char *rest = plain + p.length;
    rb_node *node = p.list ? (p.index < p.list->v.kids.count ? p.list->v.kids.items[p.index] : NULL) : doc->root;
    open_draft *u = draft_of(doc, node);
    if (u) return apply_in(u, op, rest, NULL, why, why_size);
    const open_draft *inner = draft_inside(doc, node);
    if (inner) {
        snprintf(why, why_size, "%s: holds %s, opened by %s: a draft inside another is not built twice", plain,
                 inner->path, inner->opened_by);
        return -1;
    }
    if (p.list && !rest[0]) return open_new_element(doc, &p, op, plain, placeholder, why, why_size);
    json_t *json = rb_model_to_json(doc, node, RB_BLOBS_REF);
    if (!json || !(u = draft_add(doc, &p, node, json, plain))) {
        json_decref(json);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    return apply_in(u, op, rest, NULL, why, why_size);
}

/* ---------- building ---------- */

/* The description's error, its path spelled from the draft's place in the document. */
static void draft_refused(const open_draft *u, const rb_error *err, char *why, size_t why_size)
{
    const char *inner = err->path;
    if (u->list && inner[0] == '/') inner += 1 + strspn(inner + 1, "0123456789"); /* the wrapper's "/0" */
    snprintf(why, why_size, "%s: %s%s: %s", u->opened_by, u->path, inner, err->message);
}

static rb_node *build_element(rb_doc *doc, open_draft *u, char *why, size_t why_size)
{
    rb_node *wrapper = rb_node_new(&doc->arena, RB_K_LIST, u->list->key);
    json_t *array = json_pack("[O]", u->json);
    rb_ar *ar = wrapper && array ? rb_ar_new_draft_from_json(doc, array, wrapper, u->around, u->around_count) : NULL;
    rb_node *built = NULL;
    if (!ar) {
        snprintf(why, why_size, "out of memory");
    } else {
        u->describe(ar);
        if (rb_ar_finish(ar) && wrapper->v.kids.count == 1) built = wrapper->v.kids.items[0];
        else draft_refused(u, rb_ar_error(ar), why, why_size);
    }
    rb_ar_free(ar);
    json_decref(array);
    return built;
}

static rb_node *build_document(rb_doc *doc, open_draft *u, char *why, size_t why_size)
{
    rb_node *root = rb_node_new(&doc->arena, RB_K_RECORD, NULL);
    rb_ar *ar = root ? rb_ar_new_from_json(doc, u->json, root) : NULL;
    rb_node *built = NULL;
    if (!ar) {
        snprintf(why, why_size, "out of memory");
    } else {
        u->describe(ar);
        if (rb_ar_finish(ar)) built = root;
        else draft_refused(u, rb_ar_error(ar), why, why_size);
    }
    rb_ar_free(ar);
    return built;
}

/* Where the draft's node is now (other operations may have moved it); 0 when it left the model. */
static int draft_index(const rb_doc *doc, const open_draft *u, size_t *index)
{
    if (!u->list) return doc->root == u->node;
    for (size_t i = 0; i < u->list->v.kids.count; i++)
        if (u->list->v.kids.items[i] == u->node) { *index = i; return 1; }
    return 0;
}

static int build_draft(rb_doc *doc, open_draft *u, rb_node **placed, char *why, size_t why_size)
{
    size_t index = 0;
    *placed = NULL;
    if (!draft_index(doc, u, &index)) return 0; /* removed or replaced by a later operation */
    if (!u->list) {
        rb_node *root = build_document(doc, u, why, why_size);
        if (!root) return -1;
        doc->root = root;
        if (doc->format->after_read) doc->format->after_read(doc);
        *placed = root;
        return 0;
    }
    rb_node *element = build_element(doc, u, why, why_size);
    if (!element) return -1;
    element->key = NULL;
    u->list->v.kids.items[index] = element;
    *placed = element;
    return 0;
}

int rb_drafts_end(rb_doc *doc, rb_draft_placed placed, void *context, char *why, size_t why_size)
{
    rb_drafts *drafts = doc->drafts;
    int rc = 0;
    for (size_t i = 0; drafts && i < drafts->count && rc == 0; i++) {
        rb_node *node;
        rc = build_draft(doc, &drafts->items[i], &node, why, why_size);
        const open_draft *u = &drafts->items[i];
        if (rc == 0 && node && placed && placed(context, node, u->path[0] ? u->path : "/", u->opened_by) != 0) {
            snprintf(why, why_size, "out of memory");
            rc = -1;
        }
    }
    int built = drafts && drafts->count;
    rb_drafts_discard(doc);
    if (built) {
        rb_model_select_free(doc); /* the indexes name nodes the drafts replaced */
        if (doc->format->after_edit) doc->format->after_edit(doc);
    }
    return rc;
}
