/*
 * Models compared node by node, without rendering them.
 *
 * After a patch is written, the file is read again and its model compared with the patched one:
 * the two must hold the same content. And `diff` walks two models together, renders only the
 * subtrees that differ and lets the JSON differ (patch/jsondiff.c) spell the operations for them,
 * so its output is the one the whole renderings would give while an identical file costs a walk.
 * A table and the list of nodes it stands for are the same content, as are a packed record and
 * its spelled-out fields; how an id or a stream was stored is not content (as in the JSON
 * comparisons, core/json.c rb_json_strip_storage).
 */
#include "model_compare.h"
#include <string.h>
#include "../core/json.h"
#include "jsondiff.h"

typedef struct element_scratch {
    rb_node nodes[RB_LAYOUT_MAX_FIELDS + 1];
    rb_node *kids[RB_LAYOUT_MAX_FIELDS];
} element_scratch;

static int list_like(const rb_node *n) { return n->kind == RB_K_LIST || n->kind == RB_K_TABLE; }
static int record_like(const rb_node *n) { return n->kind == RB_K_RECORD || n->kind == RB_K_PACKED; }

static const rb_node *element(const rb_node *list, size_t i, element_scratch *s)
{
    return list->kind == RB_K_TABLE ? rb_table_element(list, i, s->nodes, s->kids) : list->v.kids.items[i];
}

/* A record whichever form it has (a packed one viewed through `s`). */
static const rb_node *record(const rb_node *n, rb_record_scratch *s) { return rb_record_view(n, s); }

/* "/token" with RFC 6901 escapes. */
static void push_token(rb_buf *path, const char *token)
{
    rb_buf_put_u8(path, '/');
    for (const char *t = token; *t; t++) {
        if (*t == '~') rb_buf_put(path, "~0", 2);
        else if (*t == '/') rb_buf_put(path, "~1", 2);
        else rb_buf_put_u8(path, (uint8_t)*t);
    }
}

static void push_index(rb_buf *path, size_t i)
{
    char s[32];
    snprintf(s, sizeof s, "/%zu", i);
    rb_buf_put(path, s, strlen(s));
}

static int differs_at(const rb_buf *path, rb_buf *where)
{
    if (where && !where->size) {
        rb_buf_put(where, path->data ? path->data : (const uint8_t *)"", path->size);
        if (!path->size) rb_buf_put_u8(where, '/');
    }
    return 0;
}

static int same_bytes(const rb_node *a, const rb_node *b)
{
    return a->v.bytes.size == b->v.bytes.size &&
           (!a->v.bytes.size || memcmp(a->v.bytes.data, b->v.bytes.data, a->v.bytes.size) == 0);
}

static int same_scalar(const rb_node *a, const rb_node *b)
{
    if (a->kind != b->kind) return 0;
    switch (a->kind) {
    case RB_K_INT:
    case RB_K_FLOAT:
    case RB_K_BOOL: return a->wire == b->wire && a->v.bits == b->v.bits;
    case RB_K_ID:
        if (a->wire != b->wire) return 0;
        return a->wire == RB_ID_EMPTY || (a->wire == RB_ID_NUMBER ? a->v.bits == b->v.bits : same_bytes(a, b));
    case RB_K_STRING:
    case RB_K_BLOB:
    case RB_K_OPAQUE: return same_bytes(a, b);
    default: return 0;
    }
}

static int equal_at(const rb_node *a, const rb_node *b, rb_buf *path, rb_buf *where);

static int equal_lists(const rb_node *a, const rb_node *b, rb_buf *path, rb_buf *where)
{
    size_t count = rb_element_count(a);
    if (count != rb_element_count(b)) return differs_at(path, where);
    if (a->kind == RB_K_TABLE && b->kind == RB_K_TABLE && a->table->layout == b->table->layout &&
        a->v.bytes.size == b->v.bytes.size && memcmp(a->v.bytes.data, b->v.bytes.data, a->v.bytes.size) == 0)
        return 1;
    element_scratch sa, sb;
    for (size_t i = 0; i < count; i++) {
        size_t mark = path->size;
        push_index(path, i);
        int same = equal_at(element(a, i, &sa), element(b, i, &sb), path, where);
        path->size = mark;
        if (!same) return 0;
    }
    return 1;
}

static int equal_records(const rb_node *a, const rb_node *b, rb_buf *path, rb_buf *where)
{
    if (a->kind == RB_K_PACKED && b->kind == RB_K_PACKED && a->table->layout == b->table->layout &&
        same_bytes(a, b))
        return 1;
    rb_record_scratch sa, sb;
    const rb_node *ra = record(a, &sa), *rb = record(b, &sb);
    if (ra->v.kids.count != rb->v.kids.count) return differs_at(path, where);
    for (size_t i = 0; i < ra->v.kids.count; i++) {
        const rb_node *x = ra->v.kids.items[i], *y = rb->v.kids.items[i];
        if (!x->key || !y->key || strcmp(x->key, y->key) != 0) return differs_at(path, where);
        size_t mark = path->size;
        push_token(path, x->key);
        int same = equal_at(x, y, path, where);
        path->size = mark;
        if (!same) return 0;
    }
    return 1;
}

static int equal_at(const rb_node *a, const rb_node *b, rb_buf *path, rb_buf *where)
{
    if (a == b) return 1;
    if (list_like(a) && list_like(b)) return equal_lists(a, b, path, where);
    if ((record_like(a) && record_like(b)) || (a->kind == RB_K_STREAM && b->kind == RB_K_STREAM))
        return equal_records(a, b, path, where);
    return same_scalar(a, b) ? 1 : differs_at(path, where);
}

int rb_model_equal(const rb_node *a, const rb_node *b, const char *path, rb_buf *where)
{
    rb_buf at;
    rb_buf_init(&at);
    rb_buf_put(&at, path, strlen(path));
    int same = equal_at(a, b, &at, where);
    rb_buf_free(&at);
    if (where) rb_buf_put_u8(where, 0);
    return same;
}

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

/* Records with the same members in the same order are compared member by member, as the JSON
 * differ does; everything else that differs is rendered and handed to it. */
static int same_members(const rb_node *a, const rb_node *b)
{
    if (a->v.kids.count != b->v.kids.count) return 0;
    for (size_t i = 0; i < a->v.kids.count; i++) {
        const char *x = a->v.kids.items[i]->key, *y = b->v.kids.items[i]->key;
        if (!x || !y || strcmp(x, y) != 0) return 0;
    }
    return 1;
}

static void diff_at(const rb_doc *da, const rb_node *a, const rb_doc *db, const rb_node *b, json_t *ops, rb_buf *path)
{
    if (equal_at(a, b, path, NULL)) return;
    int objects_a = record_like(a) || a->kind == RB_K_STREAM, objects_b = record_like(b) || b->kind == RB_K_STREAM;
    rb_record_scratch sa, sb;
    const rb_node *ra = objects_a ? record(a, &sa) : NULL, *rb = objects_b ? record(b, &sb) : NULL;
    if (ra && rb && same_members(ra, rb)) {
        for (size_t i = 0; i < ra->v.kids.count; i++) {
            size_t mark = path->size;
            push_token(path, ra->v.kids.items[i]->key);
            diff_at(da, ra->v.kids.items[i], db, rb->v.kids.items[i], ops, path);
            path->size = mark;
        }
        return;
    }
    json_t *ja = content_json(da, a), *jb = content_json(db, b);
    rb_buf_put_u8(path, 0);
    rb_json_diff(ja, jb, ops, path->data ? (const char *)path->data : "");
    path->size--;
    json_decref(ja);
    json_decref(jb);
}

void rb_model_diff(const rb_doc *da, const rb_node *a, const rb_doc *db, const rb_node *b, json_t *ops,
                   const char *path)
{
    rb_buf at;
    rb_buf_init(&at);
    rb_buf_put(&at, path, strlen(path));
    diff_at(da, a, db, b, ops, &at);
    rb_buf_free(&at);
}
