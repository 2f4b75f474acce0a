/*
 * Models compared node by node, without rendering them (core/model/model_equal.h).
 *
 * After a patch is written, the file is read again and its model compared with the patched one;
 * `diff` walks two models together (patch/model_diff.c) and asks here which subtrees are
 * equal; a race record is written only when it equals the original's (core/doc/record_guard.c). A table
 * and the list of nodes it stands for are the same content, as are a packed record and its
 * spelled-out fields; how an id or a stream was stored is not content (as in the JSON
 * comparisons, core/json/json.c rb_json_strip_storage).
 */
#include "core/model/model_equal.h"
#include <stdio.h>
#include <string.h>

/* One element of a list or of a table (built in `s`, valid while `s` is). */
typedef struct rb_element_scratch {
    rb_node nodes[RB_LAYOUT_MAX_FIELDS + 1];
    rb_node *kids[RB_LAYOUT_MAX_FIELDS];
} rb_element_scratch;

static int rb_model_list_like(const rb_node *n) { return n->kind == RB_K_LIST || n->kind == RB_K_TABLE; }
static int rb_model_record_like(const rb_node *n) { return n->kind == RB_K_RECORD || n->kind == RB_K_PACKED; }

static const rb_node *rb_model_element(const rb_node *list, size_t i, rb_element_scratch *s)
{
    return list->kind == RB_K_TABLE ? rb_table_element(list, i, s->nodes, s->kids) : list->v.kids.items[i];
}

static void rb_pointer_push_token(rb_buf *path, const char *token)
{
    rb_buf_put_u8(path, '/');
    for (const char *t = token; *t; t++) {
        if (*t == '~') rb_buf_put(path, "~0", 2);
        else if (*t == '/') rb_buf_put(path, "~1", 2);
        else rb_buf_put_u8(path, (uint8_t)*t);
    }
}

static void rb_pointer_push_index(rb_buf *path, size_t i)
{
    /* every list element of a compare pushes one: digits by hand, not snprintf */
    char s[32];
    size_t at = sizeof s;
    do s[--at] = (char)('0' + i % 10); while ((i /= 10) != 0);
    s[--at] = '/';
    rb_buf_put(path, s + at, sizeof s - at);
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

/* Symbol handles compare as handles: a renamed symbol is one change, of the symbol table. */
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

static int equal_at(const rb_node *a, const rb_node *b, rb_member_filter ignored, rb_buf *path, rb_buf *where);

static int equal_lists(const rb_node *a, const rb_node *b, rb_member_filter ignored, rb_buf *path, rb_buf *where)
{
    size_t count = rb_element_count(a);
    if (count != rb_element_count(b)) return differs_at(path, where);
    /* equal bytes are equal content, unless a symbol's text changed beside them */
    if (a->kind == RB_K_TABLE && b->kind == RB_K_TABLE && a->table->layout == b->table->layout &&
        a->v.bytes.size == b->v.bytes.size &&
        (!a->v.bytes.size || memcmp(a->v.bytes.data, b->v.bytes.data, a->v.bytes.size) == 0))
        return 1;
    rb_element_scratch sa, sb;
    for (size_t i = 0; i < count; i++) {
        size_t mark = path->size;
        if (where) rb_pointer_push_index(path, i); /* the path is only made for a caller that asks where */
        int same = equal_at(rb_model_element(a, i, &sa), rb_model_element(b, i, &sb), ignored, path, where);
        path->size = mark;
        if (!same) return 0;
    }
    return 1;
}

static int equal_records(const rb_node *a, const rb_node *b, rb_member_filter ignored, rb_buf *path, rb_buf *where)
{
    if (a->kind == RB_K_PACKED && b->kind == RB_K_PACKED && a->table->layout == b->table->layout &&
        same_bytes(a, b))
        return 1;
    rb_record_scratch sa, sb;
    const rb_node *ra = rb_record_view(a, &sa), *rb = rb_record_view(b, &sb);
    if (ra->v.kids.count != rb->v.kids.count) return differs_at(path, where);
    for (size_t i = 0; i < ra->v.kids.count; i++) {
        const rb_node *x = ra->v.kids.items[i], *y = rb->v.kids.items[i];
        if (x->key != y->key && (!x->key || !y->key || strcmp(x->key, y->key) != 0)) return differs_at(path, where);
        if (ignored && ignored(ra, x) && ignored(rb, y)) continue;
        size_t mark = path->size;
        if (where) rb_pointer_push_token(path, x->key);
        int same = equal_at(x, y, ignored, path, where);
        path->size = mark;
        if (!same) return 0;
    }
    return 1;
}

static int equal_at(const rb_node *a, const rb_node *b, rb_member_filter ignored, rb_buf *path, rb_buf *where)
{
    if (a == b) return 1;
    if (rb_model_list_like(a) && rb_model_list_like(b)) return equal_lists(a, b, ignored, path, where);
    if ((rb_model_record_like(a) && rb_model_record_like(b)) || (a->kind == RB_K_STREAM && b->kind == RB_K_STREAM))
        return equal_records(a, b, ignored, path, where);
    return same_scalar(a, b) ? 1 : differs_at(path, where);
}

int rb_model_equal(const rb_node *a, const rb_node *b, const char *path, rb_buf *where)
{
    rb_buf at;
    rb_buf_init(&at);
    rb_buf_put(&at, path, strlen(path));
    int same = equal_at(a, b, NULL, &at, where);
    rb_buf_free(&at);
    if (where) rb_buf_put_u8(where, 0);
    return same;
}

/* Without the place of the difference, so nothing is allocated: what `diff` compares list
 * elements with, many times over (patch/model_diff.c). */
int rb_model_same(const rb_node *a, const rb_node *b)
{
    return rb_model_same_but(a, b, NULL);
}

int rb_model_same_but(const rb_node *a, const rb_node *b, rb_member_filter ignored)
{
    rb_buf path = {0}; /* only written when asked where */
    return equal_at(a, b, ignored, &path, NULL);
}
