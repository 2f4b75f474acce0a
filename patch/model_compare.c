/*
 * Two models' difference as a patch, without rendering them: `diff` walks two models together
 * (equality: core/model_equal.c), renders only the subtrees that differ and lets the JSON differ
 * (patch/jsondiff.c) spell the operations for them, so its output is the one the whole
 * renderings would give while an identical file costs a walk.
 */
#include "model_compare.h"
#include <stdlib.h>
#include <string.h>
#include "../core/json.h"
#include "jsondiff.h"
#include "jsonpatch.h"
#include "portable.h"

/* ---------- diff ---------- */

static json_t *content_json(const rb_doc *doc, const rb_node *n)
{
    json_t *j = rb_model_to_json(doc, n, RB_BLOBS_BASE64);
    json_t *wrapped = json_pack("[o]", j); /* a top-level id collapses too */
    rb_json_strip_storage(wrapped);
    json_t *inner = json_incref(json_array_get(wrapped, 0));
    json_decref(wrapped);
    return inner;
}

/* ---------- lists: what the JSON differ would do, without rendering the list ---------- */

/* The node a relative pointer leads to below `n`, viewing packed records and table elements
 * through `scratch` (one per step); NULL when it leads nowhere. */
enum { KEY_DEPTH = 8 };
static const rb_node *walk_view(const rb_node *n, const char *pointer, rb_record_scratch *scratch)
{
    const char *p = pointer;
    for (int depth = 0; n && *p == '/'; depth++) {
        if (depth == KEY_DEPTH) return NULL;
        p++;
        size_t len = strcspn(p, "/");
        char token[128];
        if (len >= sizeof token) return NULL;
        memcpy(token, p, len);
        token[len] = 0;
        p += len;
        if (rb_model_list_like(n)) {
            char *end;
            unsigned long i = strtoul(token, &end, 10);
            if (!*token || *end || i >= rb_element_count(n)) return NULL;
            n = n->kind == RB_K_TABLE ? rb_table_element(n, i, scratch[depth].nodes, scratch[depth].kids)
                                      : n->v.kids.items[i];
        } else if (rb_model_record_like(n) || n->kind == RB_K_STREAM) {
            const rb_node *r = rb_record_view(n, &scratch[depth]), *found = NULL;
            for (size_t k = 0; k < r->v.kids.count && !found; k++)
                if (r->v.kids.items[k]->key && strcmp(r->v.kids.items[k]->key, token) == 0) found = r->v.kids.items[k];
            n = found;
        } else {
            return NULL;
        }
    }
    return *p ? NULL : n;
}

/* Sets `value` at `pointer` in `root`, making the objects and arrays on the way. */
static void put_at(json_t *root, const char *pointer, json_t *value)
{
    json_t *cur = root;
    const char *p = pointer;
    while (*p == '/') {
        p++;
        size_t len = strcspn(p, "/");
        char token[128];
        snprintf(token, sizeof token, "%.*s", (int)len, p);
        p += len;
        int numeric = token[0] >= '0' && token[0] <= '9';
        int next_numeric = *p == '/' && p[1] >= '0' && p[1] <= '9';
        if (numeric && json_is_array(cur)) {
            size_t i = strtoul(token, NULL, 10);
            while (json_array_size(cur) <= i) json_array_append_new(cur, json_null());
            json_t *have = json_array_get(cur, i);
            if (!*p) { json_array_set_new(cur, i, value); return; }
            if (json_is_null(have)) json_array_set_new(cur, i, next_numeric ? json_array() : json_object());
            cur = json_array_get(cur, i);
        } else if (json_is_object(cur)) {
            if (!*p) { json_object_set_new(cur, token, value); return; }
            if (!json_object_get(cur, token)) json_object_set_new(cur, token, next_numeric ? json_array() : json_object());
            cur = json_object_get(cur, token);
        } else {
            json_decref(value);
            return;
        }
    }
    json_decref(value);
}

/* An element as its identity keys see it (patch/portable.c): the members the key sets name,
 * each rendered alone; a scalar element whole. */
static json_t *key_view(const rb_doc *doc, const rb_node *element)
{
    if (rb_model_list_like(element)) return json_array();
    if (!rb_model_record_like(element) && element->kind != RB_K_STREAM) return content_json(doc, element);
    json_t *view = json_object();
    rb_record_scratch scratch[KEY_DEPTH];
    for (size_t s = 0; rb_identity_key_set(s); s++) {
        for (const char *const *key = rb_identity_key_set(s); *key; key++) {
            char pointer[256];
            snprintf(pointer, sizeof pointer, "/%s", *key);
            const rb_node *member = **key ? walk_view(element, pointer, scratch) : NULL;
            if (member) put_at(view, pointer, content_json(doc, member));
        }
    }
    return view;
}

/* Identity tokens of every element, or NULL when the list has none (rb_identity_keys). */
static char **list_identities(const rb_doc *doc, const rb_node *list)
{
    json_t *views = json_array();
    rb_element_scratch s;
    for (size_t i = 0; i < rb_element_count(list); i++) json_array_append_new(views, key_view(doc, rb_model_element(list, i, &s)));
    char **keys = rb_identity_keys(views);
    json_decref(views);
    return keys;
}

static void free_identities(char **keys, size_t n)
{
    for (size_t i = 0; keys && i < n; i++) free(keys[i]);
    free(keys);
}

/* Would the JSON differ match this list's elements by identity? (its first element an object or
 * a string, jsondiff.c diff_arrays) */
static int list_of_things(const rb_doc *doc, const rb_node *list)
{
    if (!rb_element_count(list)) return 0;
    rb_element_scratch s;
    const rb_node *first = rb_model_element(list, 0, &s);
    if (rb_model_record_like(first) || first->kind == RB_K_STREAM) return 1;
    if (rb_model_list_like(first)) return 0;
    json_t *j = content_json(doc, first);
    int thing = json_is_object(j) || json_is_string(j);
    json_decref(j);
    return thing;
}

/* One diff: the two documents, the operations so far, plain or by identity. */
typedef struct differ {
    const rb_doc *da, *db;
    json_t *ops;
    int by_identity;
} differ;

static void diff_at(differ *d, const rb_node *a, const rb_node *b, rb_buf *path);

/* Equal content; for a format whose handles show as text, compared by that text (else equal
 * bytes settle equality fast). */
static int equal_here(const differ *d, const rb_node *a, const rb_node *b, rb_buf *path)
{
    int by_text = d->da->format->symbol_text != NULL;
    return rb_model_equal_in(by_text ? d->da : NULL, by_text ? d->db : NULL, a, b, path, NULL);
}


static void add_op(json_t *ops, const char *op, rb_buf *path, const char *tail, json_t *value)
{
    size_t mark = path->size;
    rb_buf_put(path, tail, strlen(tail));
    rb_buf_put_u8(path, 0);
    json_t *o = json_pack("{s:s,s:s}", "op", op, "path", (const char *)path->data);
    if (value) json_object_set_new(o, "value", value);
    json_array_append_new(ops, o);
    path->size = mark;
}

/* Element by element, then removals from the end and additions (jsondiff.c diff_arrays). */
static void diff_by_position(differ *d, const rb_node *a, const rb_node *b, rb_buf *path)
{
    size_t na = rb_element_count(a), nb = rb_element_count(b), common = na < nb ? na : nb;
    rb_element_scratch sa, sb;
    for (size_t i = 0; i < common; i++) {
        size_t mark = path->size;
        rb_pointer_push_index(path, i);
        diff_at(d, rb_model_element(a, i, &sa), rb_model_element(b, i, &sb), path);
        path->size = mark;
    }
    char index[32];
    for (size_t i = na; i > common; i--) {
        snprintf(index, sizeof index, "/%zu", i - 1);
        add_op(d->ops, "remove", path, index, NULL);
    }
    for (size_t i = common; i < nb; i++) add_op(d->ops, "add", path, "/-", content_json(d->db, rb_model_element(b, i, &sb)));
}

/* Lists: when every element keeps its place and its identity, the JSON differ compares them
 * element by element, and so can the walk; otherwise the two lists are rendered for it. */
static int diff_lists(differ *d, const rb_node *a, const rb_node *b, rb_buf *path)
{
    size_t na = rb_element_count(a), nb = rb_element_count(b);
    if (!(na && nb && list_of_things(d->da, a))) {
        diff_by_position(d, a, b, path);
        return 1;
    }
    char **ka = list_identities(d->da, a), **kb = list_identities(d->db, b);
    int by_position = !ka || !kb;
    if (!by_position && na == nb) {
        by_position = 1;
        for (size_t i = 0; i < na && by_position; i++) by_position = strcmp(ka[i], kb[i]) == 0;
    }
    free_identities(ka, na);
    free_identities(kb, nb);
    if (by_position) diff_by_position(d, a, b, path);
    return by_position;
}

/* A record's member by key (records have a few dozen members at most). */
static const rb_node *member_of(const rb_node *record, const char *key)
{
    for (size_t i = 0; i < record->v.kids.count; i++)
        if (record->v.kids.items[i]->key && strcmp(record->v.kids.items[i]->key, key) == 0) return record->v.kids.items[i];
    return NULL;
}

/* Keys present and unique: then the record is the JSON object it renders as. */
static int plain_members(const rb_node *record)
{
    for (size_t i = 0; i < record->v.kids.count; i++) {
        const char *key = record->v.kids.items[i]->key;
        if (!key) return 0;
        for (size_t j = 0; j < i; j++)
            if (strcmp(record->v.kids.items[j]->key, key) == 0) return 0;
    }
    return 1;
}

/* Records member by member, as the JSON differ compares objects: a's members in order (removed
 * or compared), then b's new ones (added). */
static void diff_records(differ *d, const rb_node *a, const rb_node *b, rb_buf *path)
{
    for (size_t i = 0; i < a->v.kids.count; i++) {
        const rb_node *x = a->v.kids.items[i], *y = member_of(b, x->key);
        size_t mark = path->size;
        rb_pointer_push_token(path, x->key);
        if (y) diff_at(d, x, y, path);
        else add_op(d->ops, "remove", path, "", NULL);
        path->size = mark;
    }
    for (size_t i = 0; i < b->v.kids.count; i++) {
        const rb_node *y = b->v.kids.items[i];
        if (member_of(a, y->key)) continue;
        size_t mark = path->size;
        rb_pointer_push_token(path, y->key);
        add_op(d->ops, "add", path, "", content_json(d->db, y));
        path->size = mark;
    }
}

/* ---------- diff by identity (portable.c rb_identity_diff, on the models) ---------- */

/* Equal as the JSON differ sees it (rb_json_equal of the renderings): the same model, or
 * containers whose members are, or values that render the same (a value stored another way).
 * Only values are rendered. */
static int same_content(differ *d, const rb_node *a, const rb_node *b, rb_buf *path)
{
    if (equal_here(d, a, b, path)) return 1;
    int objects_a = rb_model_record_like(a) || a->kind == RB_K_STREAM, objects_b = rb_model_record_like(b) || b->kind == RB_K_STREAM;
    rb_record_scratch sa, sb;
    const rb_node *ra = objects_a ? rb_record_view(a, &sa) : NULL, *rb = objects_b ? rb_record_view(b, &sb) : NULL;
    if (ra && rb && plain_members(ra) && plain_members(rb)) {
        if (ra->v.kids.count != rb->v.kids.count) return 0;
        for (size_t i = 0; i < ra->v.kids.count; i++) {
            const rb_node *y = member_of(rb, ra->v.kids.items[i]->key);
            if (!y || !same_content(d, ra->v.kids.items[i], y, path)) return 0;
        }
        return 1;
    }
    if (rb_model_list_like(a) && rb_model_list_like(b)) {
        size_t n = rb_element_count(a);
        if (n != rb_element_count(b)) return 0;
        rb_element_scratch ea, eb;
        for (size_t i = 0; i < n; i++)
            if (!same_content(d, rb_model_element(a, i, &ea), rb_model_element(b, i, &eb), path)) return 0;
        return 1;
    }
    if (ra || rb || rb_model_list_like(a) || rb_model_list_like(b)) return 0; /* an object or array against a value */
    json_t *ja = content_json(d->da, a), *jb = content_json(d->db, b);
    int same = rb_json_equal(ja, jb);
    json_decref(ja);
    json_decref(jb);
    return same;
}

/* The selectors of list a's elements [first, first + count), from their key members. */
static char **run_selectors(const rb_doc *doc, const rb_node *list, size_t first, size_t count)
{
    json_t *views = json_array();
    rb_element_scratch s;
    for (size_t i = 0; i < rb_element_count(list); i++) json_array_append_new(views, key_view(doc, rb_model_element(list, i, &s)));
    char **tokens = rb_identity_selectors(views, first, count);
    json_decref(views);
    return tokens;
}

/* path + "/" + the element's selector, or its index when it has none. */
static void push_element(rb_buf *path, char **tokens, size_t first, size_t i)
{
    const char *token = tokens ? tokens[i - first] : NULL;
    if (!token) { rb_pointer_push_index(path, i); return; }
    rb_buf_put_u8(path, '/');
    rb_buf_put(path, token, strlen(token));
}

/* Does an element of the run have another identity in b (portable.c identities_change)? */
static int identities_change(differ *d, char **tokens, const rb_node *b, size_t prefix, size_t count, size_t ma)
{
    char **theirs = run_selectors(d->db, b, prefix, count);
    int change = 0;
    for (size_t i = 0; i < ma && !change; i++) {
        const char *mine = tokens ? tokens[i] : NULL, *other = theirs ? theirs[i] : NULL;
        change = (mine == NULL) != (other == NULL) || (mine && strcmp(mine, other) != 0);
    }
    for (size_t i = 0; theirs && i < count; i++) free(theirs[i]);
    free(theirs);
    return change;
}

/* The changed run of two lists: element by element when it kept its length, else removed and
 * added, every element named by its identity (portable.c diff_array). */
static void identity_lists(differ *d, const rb_node *a, const rb_node *b, rb_buf *path)
{
    size_t na = rb_element_count(a), nb = rb_element_count(b), prefix = 0, suffix = 0;
    rb_element_scratch sa, sb;
    while (prefix < na && prefix < nb && same_content(d, rb_model_element(a, prefix, &sa), rb_model_element(b, prefix, &sb), path)) prefix++;
    while (suffix < na - prefix && suffix < nb - prefix &&
           same_content(d, rb_model_element(a, na - 1 - suffix, &sa), rb_model_element(b, nb - 1 - suffix, &sb), path))
        suffix++;
    size_t ma = na - prefix - suffix, mb = nb - prefix - suffix, count = ma + 1;
    if (count > na - prefix) count = na - prefix;
    char **tokens = (ma || suffix) ? run_selectors(d->da, a, prefix, count) : NULL;
    int in_place = ma == mb && !(d->by_identity == RB_MODEL_DIFF_WHOLE_RUNS &&
                                 identities_change(d, tokens, b, prefix, count, ma));
    for (size_t i = prefix; in_place && i < prefix + ma; i++) {
        size_t mark = path->size;
        push_element(path, tokens, prefix, i);
        diff_at(d, rb_model_element(a, i, &sa), rb_model_element(b, i, &sb), path);
        path->size = mark;
    }
    for (size_t i = prefix + ma; !in_place && i > prefix; i--) {
        size_t mark = path->size;
        push_element(path, tokens, prefix, i - 1);
        add_op(d->ops, "remove", path, "", NULL);
        path->size = mark;
    }
    const char *next = suffix && tokens ? tokens[ma] : NULL;
    for (size_t i = prefix; !in_place && i < prefix + mb; i++) {
        size_t mark = path->size;
        if (!suffix) rb_buf_put(path, "/-", 2);
        else if (next) { rb_buf_put_u8(path, '/'); rb_buf_put(path, next, strlen(next)); }
        else rb_pointer_push_index(path, i);
        add_op(d->ops, "add", path, "", content_json(d->db, rb_model_element(b, i, &sb)));
        path->size = mark;
    }
    for (size_t i = 0; tokens && i < count; i++) free(tokens[i]);
    free(tokens);
}

/* ---------- the walk ---------- */

/* Values the walk does not descend into: rendered and handed to the JSON differ. */
static void diff_rendered(differ *d, const rb_node *a, const rb_node *b, rb_buf *path)
{
    json_t *ja = content_json(d->da, a), *jb = content_json(d->db, b);
    rb_buf_put_u8(path, 0);
    const char *at = path->data ? (const char *)path->data : "";
    if (d->by_identity) rb_identity_diff_at(ja, jb, at, d->ops, d->by_identity == RB_MODEL_DIFF_WHOLE_RUNS);
    else rb_json_diff(ja, jb, d->ops, at);
    path->size--;
    json_decref(ja);
    json_decref(jb);
}

static void diff_at(differ *d, const rb_node *a, const rb_node *b, rb_buf *path)
{
    if (equal_here(d, a, b, path)) return;
    int objects_a = rb_model_record_like(a) || a->kind == RB_K_STREAM, objects_b = rb_model_record_like(b) || b->kind == RB_K_STREAM;
    rb_record_scratch sa, sb;
    const rb_node *ra = objects_a ? rb_record_view(a, &sa) : NULL, *rb = objects_b ? rb_record_view(b, &sb) : NULL;
    if (ra && rb && plain_members(ra) && plain_members(rb)) {
        diff_records(d, ra, rb, path);
        return;
    }
    if (rb_model_list_like(a) && rb_model_list_like(b)) {
        if (d->by_identity) {
            identity_lists(d, a, b, path);
            return;
        }
        if (diff_lists(d, a, b, path)) return;
    }
    diff_rendered(d, a, b, path);
}

void rb_model_diff(const rb_doc *da, const rb_node *a, const rb_doc *db, const rb_node *b, json_t *ops,
                   const char *path, int by_identity)
{
    differ d = {da, db, ops, by_identity};
    rb_buf at;
    rb_buf_init(&at);
    rb_buf_put(&at, path, strlen(path));
    diff_at(&d, a, b, &at);
    rb_buf_free(&at);
}
