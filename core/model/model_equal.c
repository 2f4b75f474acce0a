/*
 * Models compared node by node, without rendering them (core/model/model_equal.h).
 *
 * After a patch is written, the file is read again and its model compared with the patched one;
 * `diff` walks two models together (patch/model_diff.c) and asks here which subtrees are
 * equal; a race recording is written only when it equals the original's (core/doc/recording_guard.c). A table
 * and the list of nodes it stands for are the same content, as are a packed record and its
 * spelled-out fields; how an id or a stream was stored is not content (as in the JSON
 * comparisons, core/json/json.c rb_json_strip_storage).
 */
#include "core/model/model_equal.h"
#include "core/error.h"
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

/* One comparison: what is left out, where the walk is and where it found a difference, and for
 * rb_model_equal_units the document whose deferred units `b` meets are read alone. */
typedef struct compare {
    rb_member_filter ignored;
    rb_buf *path, *where;
    const rb_doc *b_doc;   /* NULL: `b` holds no deferred unit to read */
    rb_arena *arena;       /* where a unit read alone goes, given back after its comparison */
    rb_error *err;
    const rb_node *chain[RB_UNIT_CHAIN]; /* b's containers walked into, innermost first */
    size_t depth;
    int kept_units; /* rb_model_equal_kept_units: two units of equal bytes at one offset are equal */
} compare;

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

int rb_deferred_same(const rb_node *a, const rb_node *b)
{
    const rb_deferred *x = a->deferred, *y = b->deferred;
    return a->kind == RB_K_DEFERRED && b->kind == RB_K_DEFERRED && !x->reads_around && !y->reads_around &&
           x->same_start && x->same_start == y->same_start && same_bytes(a, b) && x->same_start(x, y);
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
    case RB_K_DEFERRED: return rb_deferred_same(a, b);
    default: return 0;
    }
}

static int equal_at(const rb_node *a, const rb_node *b, compare *c);

/* Child `i` of `b`'s container `parent` compared with `a`: a deferred unit of `b` read alone
 * first (its container as the read saw it, the containers above it as they are), compared, and
 * its memory given back. */
static int equal_child(const rb_node *a, const rb_node *parent, size_t i, const rb_node *b, compare *c)
{
    if (b->kind != RB_K_DEFERRED || !c->b_doc || a->kind == RB_K_DEFERRED) return equal_at(a, b, c);
    rb_unit_place place = {b, parent, i, c->chain + 1, c->depth - 1}; /* chain[0] is `parent` */
    rb_arena_mark mark = rb_arena_mark_here(c->arena);
    const rb_node *alone = c->b_doc->expand_unit ? c->b_doc->expand_unit(c->b_doc, &place, c->arena, c->err) : NULL;
    int same = alone && equal_at(a, alone, c);
    rb_arena_reset(c->arena, &mark);
    return alone ? same : differs_at(c->path, c->where);
}

/* `b`'s container entered (for the units below it), or 0 when the chain is full. */
static int enter(compare *c, const rb_node *b)
{
    if (!c->b_doc) return 1;
    if (c->depth >= RB_UNIT_CHAIN) return 0;
    memmove(c->chain + 1, c->chain, c->depth * sizeof c->chain[0]);
    c->chain[0] = b;
    c->depth++;
    return 1;
}

static void leave(compare *c)
{
    if (!c->b_doc) return;
    c->depth--;
    memmove(c->chain, c->chain + 1, c->depth * sizeof c->chain[0]);
}

static int equal_lists(const rb_node *a, const rb_node *b, compare *c)
{
    rb_buf *path = c->path, *where = c->where;
    size_t count = rb_element_count(a);
    if (count != rb_element_count(b)) return differs_at(path, where);
    /* equal bytes are equal content, unless a symbol's text changed beside them */
    if (a->kind == RB_K_TABLE && b->kind == RB_K_TABLE && a->table->layout == b->table->layout &&
        a->v.bytes.size == b->v.bytes.size &&
        (!a->v.bytes.size || memcmp(a->v.bytes.data, b->v.bytes.data, a->v.bytes.size) == 0))
        return 1;
    rb_element_scratch sa, sb;
    if (!enter(c, b)) return differs_at(path, where);
    int same = 1;
    for (size_t i = 0; i < count && same; i++) {
        size_t mark = path->size;
        if (where) rb_pointer_push_index(path, i); /* the path is only made for a caller that asks where */
        same = equal_child(rb_model_element(a, i, &sa), b, i, rb_model_element(b, i, &sb), c);
        path->size = mark;
    }
    leave(c);
    return same;
}

static int equal_records(const rb_node *a, const rb_node *b, compare *c)
{
    rb_buf *path = c->path, *where = c->where;
    if (a->kind == RB_K_PACKED && b->kind == RB_K_PACKED && a->table->layout == b->table->layout &&
        same_bytes(a, b))
        return 1;
    rb_record_scratch sa, sb;
    const rb_node *ra = rb_record_view(a, &sa), *rb = rb_record_view(b, &sb);
    if (ra->v.kids.count != rb->v.kids.count || !enter(c, rb)) return differs_at(path, where);
    int same = 1;
    for (size_t i = 0; i < ra->v.kids.count && same; i++) {
        const rb_node *x = ra->v.kids.items[i], *y = rb->v.kids.items[i];
        if (x->key != y->key && (!x->key || !y->key || strcmp(x->key, y->key) != 0)) {
            same = differs_at(path, where);
            break;
        }
        if (c->ignored && c->ignored(ra, x) && c->ignored(rb, y)) continue;
        size_t mark = path->size;
        if (where) rb_pointer_push_token(path, x->key);
        same = equal_child(x, rb, i, y, c);
        path->size = mark;
    }
    leave(c);
    return same;
}

static int equal_at(const rb_node *a, const rb_node *b, compare *c)
{
    if (a == b) return 1;
    if (c->kept_units && a->kind == RB_K_DEFERRED && b->kind == RB_K_DEFERRED)
        return a->section == b->section && a->src_offset == b->src_offset && same_bytes(a, b) ? 1
                                                                                            : differs_at(c->path, c->where);
    if (rb_model_list_like(a) && rb_model_list_like(b)) return equal_lists(a, b, c);
    if ((rb_model_record_like(a) && rb_model_record_like(b)) || (a->kind == RB_K_STREAM && b->kind == RB_K_STREAM))
        return equal_records(a, b, c);
    return same_scalar(a, b) ? 1 : differs_at(c->path, c->where);
}

/* The comparison from `path`. The place of a difference is spelled only when there is one: a
 * first walk without it (spelling every member's path costs as much as comparing it), then,
 * for a caller that asks where, a second walk that spells it. */
static int equal_from(const rb_node *a, const rb_node *b, const char *path, rb_buf *where, compare *c)
{
    rb_buf at;
    rb_buf_init(&at);
    rb_buf_put(&at, path, strlen(path));
    c->path = &at;
    int same = equal_at(a, b, c);
    if (!same && where) {
        c->where = where;
        at.size = strlen(path);
        equal_at(a, b, c);
    }
    rb_buf_free(&at);
    if (where) rb_buf_put_u8(where, 0);
    return same;
}

int rb_model_equal(const rb_node *a, const rb_node *b, const char *path, rb_buf *where)
{
    compare c = {0};
    return equal_from(a, b, path, where, &c);
}

int rb_model_equal_units(const rb_node *a, const rb_doc *b_doc, rb_buf *where, rb_error *err)
{
    rb_arena arena;
    rb_arena_init(&arena);
    rb_error unit_err = {0};
    compare c = {.b_doc = b_doc, .arena = &arena, .err = &unit_err};
    int same = equal_from(a, b_doc->root, "", where, &c);
    rb_arena_free(&arena);
    if (err) rb_error_copy(err, &unit_err);
    return same;
}

int rb_model_equal_kept_units(const rb_node *a, const rb_node *b, rb_buf *where)
{
    compare c = {.kept_units = 1};
    return equal_from(a, b, "", where, &c);
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
    compare c = {.ignored = ignored, .path = &path};
    return equal_at(a, b, &c);
}
