/*
 * The difference of two models, as the patch apply takes (docs/usage.md "Diffs").
 *
 * `diff` is the inverse of `apply` and walks the models the way apply edits them: records member
 * by member, and lists element by element after matching them, so that removing one item of
 * 2,778 is one `remove` and changing an item's position one `replace`. Two lists are matched
 * (list_match below) by trimming the common prefix and suffix, then pairing the elements of the
 * rest whose natural keys (identity.c) or, without keys, whose content hashes occur once on each
 * side; the longest increasing run of those pairs stays in place, the other pairs are moves, and
 * between the pairs what is left is paired in place or removed and added. A run whose every
 * element changed its keys where it stands (a mass edit: every block raised) pairs by position
 * instead (keys_all_edited). That is linear apart from sorting the changed part.
 *
 * What the writer or apply derives is never in the patch: the walk's operations are settled
 * against apply (model_diff_settle.c). Sizes, counts, checksums and header copies are not in the
 * model at all.
 */
#include "core/hash64.h"
#include "patch/model_diff.h"
#include <stdlib.h>
#include <string.h>
#include "patch/in_step.h"
#include "patch/identity.h"
#include "core/json/json.h"
#include "core/model/model_equal.h"
#include "patch/model_edit.h"
#include "patch/portable.h"

typedef struct differ {
    const rb_doc *da, *db;
    int by_identity;
    int index_paths; /* by identity, but list elements by index (when a selector does not resolve) */
    int whole_blobs; /* RB_MODEL_DIFF_WHOLE_BLOBS */
    json_t *ops, *plains;
    rb_buf path, plain; /* the current place: as written, and with indexes */
    int symbol_use;     /* the next operation replaces a symbol handle (rb_format.symbol_text) */
    int failed;
} differ;

static int list_like(const rb_node *n) { return n->kind == RB_K_LIST || n->kind == RB_K_TABLE; }
static int object_like(const rb_node *n)
{
    return n->kind == RB_K_RECORD || n->kind == RB_K_PACKED || n->kind == RB_K_STREAM;
}
/* A number (a symbol handle is a name, not a number: rb_format.symbol_text) */
static int number(const rb_node *n)
{
    return (n->kind == RB_K_INT && !RB_WIRE_IS_SYMBOL(n->wire)) || n->kind == RB_K_FLOAT;
}

static const rb_node *element(const rb_node *list, size_t i, rb_record_scratch *s)
{
    return list->kind == RB_K_TABLE ? rb_table_element(list, i, s->nodes, s->kids) : list->v.kids.items[i];
}

/* ---------- paths and operations ---------- */

static const char *text_of(rb_buf *b)
{
    rb_buf_put_u8(b, 0);
    b->size--;
    return (const char *)b->data;
}

/* "/token" with RFC 6901 escapes, on both paths. */
static void push_key(differ *d, const char *key)
{
    for (rb_buf *p = &d->path; p; p = p == &d->path ? &d->plain : NULL) {
        rb_buf_put_u8(p, '/');
        for (const char *t = key; *t; t++) {
            if (*t == '~') rb_buf_put(p, "~0", 2);
            else if (*t == '/') rb_buf_put(p, "~1", 2);
            else rb_buf_put_u8(p, (uint8_t)*t);
        }
    }
}

static void put_index(rb_buf *b, size_t i)
{
    char s[32];
    snprintf(s, sizeof s, "/%zu", i);
    rb_buf_put(b, s, strlen(s));
}

/* A list element: by `selector` when there is one (and elements are named), else by index. */
static void push_element(differ *d, const char *selector, size_t index)
{
    if (selector && d->by_identity && !d->index_paths) {
        rb_buf_put_u8(&d->path, '/');
        rb_buf_put(&d->path, selector, strlen(selector));
    } else {
        put_index(&d->path, index);
    }
    put_index(&d->plain, index);
}

typedef struct mark {
    size_t path, plain;
} mark;
static mark here(const differ *d) { return (mark){d->path.size, d->plain.size}; }
static void back(differ *d, mark m)
{
    d->path.size = m.path;
    d->plain.size = m.plain;
}

/* Appends {"op", "from"?, "path", "value"?} at the current place; `value` is taken. */
static void emit(differ *d, const char *kind, const char *from, const char *plain_from, json_t *value)
{
    json_t *o = json_pack("{s:s}", "op", kind);
    if (!o) { d->failed = 1; json_decref(value); return; }
    if (from) json_object_set_new(o, "from", json_string(from));
    json_object_set_new(o, "path", json_string(text_of(&d->path)));
    if (value) json_object_set_new(o, "value", value);
    if (json_array_append_new(d->ops, o) != 0) d->failed = 1;
    if (d->plains)
        json_array_append_new(d->plains, json_pack("{s:s,s:s?,s:b}", "path", text_of(&d->plain), "from", plain_from,
                                                   "symbol", d->symbol_use));
}

static size_t mutations_since(const differ *d, size_t first)
{
    size_t n = 0;
    for (size_t i = first; i < json_array_size(d->ops); i++)
        n += strcmp(json_string_value(json_object_get(json_array_get(d->ops, i), "op")), "test") != 0;
    return n;
}

static void drop_since(differ *d, size_t first)
{
    while (json_array_size(d->ops) > first) json_array_remove(d->ops, json_array_size(d->ops) - 1);
    while (d->plains && json_array_size(d->plains) > first) json_array_remove(d->plains, json_array_size(d->plains) - 1);
}

/* ---------- records and values ---------- */

static void diff_node(differ *d, const rb_node *a, const rb_node *b);

/* A large blob changed in a small part of it (a texture in a swap image): the part, as a byte
 * range {"$splice": {"at", "size", "$base64"}} (patch/model_select.h), or NULL. */
enum { SPLICE_MIN = 1024 };
static json_t *changed_range(const rb_node *a, const rb_node *b)
{
    int blobs = (a->kind == RB_K_BLOB || a->kind == RB_K_OPAQUE) && a->kind == b->kind;
    size_t na = blobs ? a->v.bytes.size : 0, nb = blobs ? b->v.bytes.size : 0, least = na < nb ? na : nb;
    if (!blobs || na < SPLICE_MIN || nb < SPLICE_MIN) return NULL;
    const uint8_t *x = a->v.bytes.data, *y = b->v.bytes.data;
    size_t head = 0, tail = 0;
    while (head < least && x[head] == y[head]) head++;
    while (tail < least - head && x[na - 1 - tail] == y[nb - 1 - tail]) tail++;
    size_t length = nb - head - tail;
    if (length * 2 > nb) return NULL; /* most of it: the blob is its bytes */
    char *text = malloc(4 * ((length + 2) / 3) + 1);
    if (!text) return NULL;
    size_t n = rb_base64_encode(y + head, length, text);
    json_t *v = json_pack("{s:{s:I,s:I,s:s%}}", "$splice", "at", (json_int_t)head, "size", (json_int_t)(na - head - tail),
                          "$base64", text, n);
    free(text);
    return v;
}

/* A's value pinned (by identity; a blob is pinned by its place, not its bytes), B's put there. */
static void replace_value(differ *d, const rb_node *a, const rb_node *b)
{
    if (d->by_identity && a->kind != RB_K_BLOB && a->kind != RB_K_OPAQUE) emit(d, "test", NULL, NULL, rb_content_json(d->da, a));
    d->symbol_use = a->kind == RB_K_INT && RB_WIRE_IS_SYMBOL(a->wire);
    json_t *range = d->whole_blobs ? NULL : changed_range(a, b);
    emit(d, "replace", NULL, NULL, range ? range : rb_value_json(d->db, b));
    d->symbol_use = 0;
}

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

/* A's members in order (compared, or removed), then B's new ones (added). */
static void diff_records(differ *d, const rb_node *ra, const rb_node *rb)
{
    for (size_t i = 0; i < ra->v.kids.count; i++) {
        const rb_node *x = ra->v.kids.items[i], *y = member_of(rb, x->key);
        mark m = here(d);
        push_key(d, x->key);
        if (y) diff_node(d, x, y);
        else emit(d, "remove", NULL, NULL, NULL);
        back(d, m);
    }
    for (size_t i = 0; i < rb->v.kids.count; i++) {
        const rb_node *y = rb->v.kids.items[i];
        if (member_of(ra, y->key)) continue;
        mark m = here(d);
        push_key(d, y->key);
        emit(d, "add", NULL, NULL, rb_value_json(d->db, y));
        back(d, m);
    }
}

/* A short list of numbers of unchanged length (a position, a colour): one value, replaced whole
 * ("moving an item is one replace of its position"). */
enum { VECTOR_MAX = 4 };
static int short_vector(const rb_node *a, const rb_node *b)
{
    size_t n = rb_element_count(a);
    if (n != rb_element_count(b) || n > VECTOR_MAX) return 0;
    rb_record_scratch sa, sb;
    for (size_t i = 0; i < n; i++)
        if (!number(element(a, i, &sa)) || !number(element(b, i, &sb))) return 0;
    return 1;
}

static void diff_list(differ *d, const rb_node *a, const rb_node *b);

static void diff_node(differ *d, const rb_node *a, const rb_node *b)
{
    if (d->failed || rb_model_same(a, b)) return;
    if (object_like(a) && object_like(b)) {
        rb_record_scratch sa, sb;
        const rb_node *ra = rb_record_view(a, &sa), *rb = rb_record_view(b, &sb);
        if (plain_members(ra) && plain_members(rb)) {
            diff_records(d, ra, rb);
            return;
        }
    } else if (list_like(a) && list_like(b) && !short_vector(a, b)) {
        diff_list(d, a, b);
        return;
    }
    replace_value(d, a, b);
}

/* ---------- matching two lists ---------- */

/* A hash that agrees with rb_model_same_but(`ignored`): equal content, equal hash, whatever the
 * form (a table and the list it stands for, a packed record and its fields). */
static uint64_t content_hash(const rb_node *n, rb_member_filter ignored)
{
    rb_record_scratch s;
    uint64_t h;
    if (list_like(n)) {
        h = 0x6c697374ULL;
        for (size_t i = 0; i < rb_element_count(n); i++) h = rb_mix64(h * 31 + content_hash(element(n, i, &s), ignored));
        return h;
    }
    if (object_like(n)) {
        const rb_node *r = rb_record_view(n, &s);
        h = 0x7265636fULL;
        for (size_t i = 0; i < r->v.kids.count; i++) {
            const rb_node *k = r->v.kids.items[i];
            if (ignored && ignored(r, k)) continue;
            h = rb_mix64(h * 31 + (k->key ? rb_hash_bytes(k->key, strlen(k->key)) : 0) * 3 + content_hash(k, ignored));
        }
        return h;
    }
    h = rb_mix64(((uint64_t)n->kind << 8 | n->wire) * 0x9e3779b97f4a7c15ULL);
    switch (n->kind) {
    case RB_K_STRING:
    case RB_K_BLOB:
    case RB_K_OPAQUE:
    case RB_K_DEFERRED: return rb_mix64(h ^ rb_hash_bytes(n->v.bytes.data, n->v.bytes.size));
    case RB_K_ID: return n->wire == RB_ID_STRING ? rb_mix64(h ^ rb_hash_bytes(n->v.bytes.data, n->v.bytes.size))
                                                 : rb_mix64(h ^ (n->wire == RB_ID_NUMBER ? n->v.bits : 0));
    default: return rb_mix64(h ^ n->v.bits);
    }
}

/* One side of a list diff. */
typedef struct side {
    const rb_doc *doc;
    const rb_node *list;
    size_t n;
    rb_list_keys *keys; /* made when first needed */
} side;

static rb_list_keys *keys_of(side *s)
{
    if (!s->keys) s->keys = rb_list_keys_new(s->doc, s->list);
    return s->keys;
}

static const char *selector_of(differ *d, side *s, size_t i)
{
    if (!d->by_identity || d->index_paths) return NULL;
    rb_list_keys *k = keys_of(s);
    return k ? rb_list_keys_selector(k, i) : NULL;
}

/* The changed run [first, first + ma) of A against [first, first + mb) of B, and how its
 * elements pair up (local indexes; -1: removed or added). */
typedef struct run {
    size_t first, ma, mb;
    long *a_to_b, *b_to_a;
    unsigned char *moved; /* per B element: paired, but not in A's order */
} run;

typedef struct entry {
    uint64_t hash;
    int side;
    size_t index;
} entry;

static int compare_entries(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
    if (a->side != b->side) return a->side - b->side;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* The first key set that names every element of the run on both sides alone in its list, or -1
 * (then content decides: chunks that share their id, lists of values). */
static long common_key_set(side *A, side *B, const run *r)
{
    if (!r->ma || !r->mb) return -1;
    rb_list_keys *ka = keys_of(A), *kb = keys_of(B);
    if (!ka || !kb) return -1;
    uint64_t h;
    for (size_t s = 0; rb_identity_key_set(s); s++) {
        if (!*rb_identity_key_set(s)[0]) continue;
        int all = 1;
        for (size_t i = 0; i < r->ma && all; i++) all = rb_list_keys_hash(ka, s, r->first + i, &h);
        for (size_t j = 0; j < r->mb && all; j++) all = rb_list_keys_hash(kb, s, r->first + j, &h);
        for (size_t i = 0; i < r->ma && all; i++) all = rb_list_keys_unique(ka, s, r->first + i);
        for (size_t j = 0; j < r->mb && all; j++) all = rb_list_keys_unique(kb, s, r->first + j);
        if (all) return (long)s;
    }
    return -1;
}

static uint64_t match_hash(side *s, long set, size_t i)
{
    if (set >= 0) {
        uint64_t h = 0;
        rb_list_keys_hash(keys_of(s), (size_t)set, i, &h);
        return h;
    }
    rb_record_scratch sc;
    return content_hash(element(s->list, i, &sc), NULL);
}

static int same_element(side *A, size_t i, side *B, size_t j)
{
    rb_record_scratch sa, sb;
    return rb_model_same(element(A->list, i, &sa), element(B->list, j, &sb));
}

static int match_confirmed(side *A, side *B, long set, size_t i, size_t j)
{
    if (set < 0) return same_element(A, i, B, j);
    return match_hash(A, set, i) == match_hash(B, set, j); /* keys compared by their hash (identity.c) */
}

/* Pairs of elements whose key (or content) occurs once on each side, in B's order: `pairs`
 * gets their A indexes. Returns how many. */
static size_t unique_pairs(side *A, side *B, run *r, long set, size_t *pair_a, size_t *pair_b)
{
    size_t m = r->ma + r->mb, count = 0;
    entry *e = malloc((m + 1) * sizeof *e);
    if (!e) return 0;
    for (size_t i = 0; i < r->ma; i++) e[i] = (entry){match_hash(A, set, r->first + i), 0, i};
    for (size_t j = 0; j < r->mb; j++) e[r->ma + j] = (entry){match_hash(B, set, r->first + j), 1, j};
    qsort(e, m, sizeof *e, compare_entries);
    for (size_t k = 0; k + 1 < m;) {
        size_t end = k + 1;
        while (end < m && e[end].hash == e[k].hash) end++;
        if (end == k + 2 && e[k].side == 0 && e[k + 1].side == 1 &&
            match_confirmed(A, B, set, r->first + e[k].index, r->first + e[k + 1].index)) {
            pair_a[count] = e[k].index;
            pair_b[count++] = e[k + 1].index;
        }
        k = end;
    }
    free(e);
    /* in B's order (an insertion sort would be n² on a re-sorted list) */
    entry *order = malloc((count + 1) * sizeof *order);
    if (!order) return 0;
    for (size_t k = 0; k < count; k++) order[k] = (entry){pair_b[k], 0, pair_a[k]};
    qsort(order, count, sizeof *order, compare_entries);
    for (size_t k = 0; k < count; k++) {
        pair_b[k] = (size_t)order[k].hash;
        pair_a[k] = order[k].index;
    }
    free(order);
    return count;
}

/* Which pairs (in B's order) form the longest run increasing in A: they stay where they are.
 * Patience sorting, n log n. */
static void longest_increasing(const size_t *pair_a, size_t count, unsigned char *in_run)
{
    size_t *tails = malloc((count + 1) * sizeof(size_t)), *prev = malloc((count + 1) * sizeof(size_t));
    if (!tails || !prev) {
        free(tails);
        free(prev);
        return;
    }
    size_t length = 0;
    for (size_t k = 0; k < count; k++) {
        size_t lo = 0, hi = length;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (pair_a[tails[mid]] < pair_a[k]) lo = mid + 1;
            else hi = mid;
        }
        prev[k] = lo ? tails[lo - 1] : (size_t)-1;
        tails[lo] = k;
        if (lo == length) length++;
    }
    for (size_t k = length ? tails[length - 1] : (size_t)-1; k != (size_t)-1; k = prev[k]) in_run[k] = 1;
    free(tails);
    free(prev);
}

/* The unpaired elements of [a0, a1) and [b0, b1) paired in order. */
static void pair_in_place(run *r, size_t a0, size_t a1, size_t b0, size_t b1)
{
    size_t i = a0, j = b0;
    for (;;) {
        while (i < a1 && r->a_to_b[i] >= 0) i++;
        while (j < b1 && r->b_to_a[j] >= 0) j++;
        if (i >= a1 || j >= b1) break;
        r->a_to_b[i] = (long)j;
        r->b_to_a[j] = (long)i;
    }
}

/* Do A's element i and B's element j share their first key (1), differ in it (0), or have none
 * (-1)? Keys that occur more than once count too: two chunks of one id are still that chunk. */
static int same_key(side *A, size_t i, side *B, size_t j)
{
    rb_list_keys *ka = keys_of(A), *kb = keys_of(B);
    for (size_t s = 0; ka && kb && rb_identity_key_set(s); s++) {
        if (!*rb_identity_key_set(s)[0]) return -1; /* values: content decides */
        uint64_t ha, hb;
        int in_a = rb_list_keys_hash(ka, s, i, &ha), in_b = rb_list_keys_hash(kb, s, j, &hb);
        if (in_a && in_b) return ha == hb;
        if (in_a || in_b) return 0;
    }
    return -1;
}

/* In a gap, elements with the same key pair up in order (a second copy of a chunk beside the
 * first: the copy is added, not the first turned into the next chunk by replacing its id), so
 * that only what is left pairs in place. Bounded: a larger gap pairs in place. */
enum { KEYED_GAP_MAX = 1 << 16 };
static void pair_by_key(side *A, side *B, run *r, size_t a0, size_t a1, size_t b0, size_t b1)
{
    if (a1 <= a0 || b1 <= b0 || (a1 - a0) * (b1 - b0) > KEYED_GAP_MAX) return;
    size_t next_b = b0;
    for (size_t i = a0; i < a1; i++) {
        if (r->a_to_b[i] >= 0) continue;
        for (size_t j = next_b; j < b1; j++) {
            if (r->b_to_a[j] >= 0) continue;
            int same = same_key(A, r->first + i, B, r->first + j);
            if (same < 0) return;
            if (!same) continue;
            r->a_to_b[i] = (long)j;
            r->b_to_a[j] = (long)i;
            next_b = j + 1;
            break;
        }
    }
}

/* Between two kept pairs: equal elements at either end pair up, the rest pair in place by
 * position (an element whose key changed, or one edited among equal ones), the surplus is
 * removed or added. */
static void pair_gap(side *A, side *B, run *r, size_t a0, size_t a1, size_t b0, size_t b1)
{
    while (a0 < a1 && r->a_to_b[a0] >= 0) a0++;
    while (b0 < b1 && r->b_to_a[b0] >= 0) b0++;
    for (;;) { /* common prefix of the unpaired */
        size_t i = a0, j = b0;
        while (i < a1 && r->a_to_b[i] >= 0) i++;
        while (j < b1 && r->b_to_a[j] >= 0) j++;
        if (i == a1 || j == b1 || !same_element(A, r->first + i, B, r->first + j)) break;
        r->a_to_b[i] = (long)j;
        r->b_to_a[j] = (long)i;
        a0 = i + 1;
        b0 = j + 1;
    }
    for (;;) { /* common suffix */
        size_t i = a1, j = b1;
        while (i > a0 && r->a_to_b[i - 1] >= 0) i--;
        while (j > b0 && r->b_to_a[j - 1] >= 0) j--;
        if (i == a0 || j == b0 || !same_element(A, r->first + i - 1, B, r->first + j - 1)) break;
        r->a_to_b[i - 1] = (long)(j - 1);
        r->b_to_a[j - 1] = (long)(i - 1);
        a1 = i - 1;
        b1 = j - 1;
    }
    pair_by_key(A, B, r, a0, a1, b0, b1);
    /* what is left pairs in place between the pairs made, so that no two pairs cross */
    size_t sa = a0, sb = b0;
    for (size_t i = a0; i < a1; i++) {
        if (r->a_to_b[i] < 0) continue;
        pair_in_place(r, sa, i, sb, (size_t)r->a_to_b[i]);
        sa = i + 1;
        sb = (size_t)r->a_to_b[i] + 1;
    }
    pair_in_place(r, sa, a1, sb, b1);
}

/* The first key set (not the values themselves) that A's element i has, or -1. */
static long first_key_set(side *A, size_t i)
{
    rb_list_keys *ka = keys_of(A);
    uint64_t h;
    for (size_t s = 0; ka && rb_identity_key_set(s); s++) {
        if (!*rb_identity_key_set(s)[0]) return -1;
        if (rb_list_keys_hash(ka, s, i, &h)) return (long)s;
    }
    return -1;
}

/* A run of equal length whose every element changed its key where it stands, most of them
 * keeping part of it (a block its name): an edit of every element's keys (every block raised),
 * not a reordering. Then the elements pair by position, as a person writes it (a replace of each
 * one's keys): matching by keys would pair an element with its neighbour that now has its old
 * keys (a block with the one stacked below it), and by content with the neighbour it now equals. */
/* Did the list shift (an element removed before the run's others, another added after)? Then
 * most of B's run is A's run moved by a few places, element for element, and keys pair it; an
 * edit of every element's keys leaves few elements equal to a neighbour's old self (a block
 * stacked on one of its name, listed beside it). */
static int list_shifted(side *A, side *B, const run *r)
{
    for (size_t d = 1; d <= 3 && d < r->ma; d++) {
        size_t later = 0, earlier = 0;
        for (size_t k = 0; k + d < r->ma; k++) {
            rb_record_scratch s1, s2, s3, s4;
            later += rb_model_same(element(B->list, r->first + k, &s1), element(A->list, r->first + k + d, &s2));
            earlier += rb_model_same(element(A->list, r->first + k, &s3), element(B->list, r->first + k + d, &s4));
        }
        if (later * 10 >= (r->ma - d) * 9 || earlier * 10 >= (r->ma - d) * 9) return 1;
    }
    return 0;
}

static int keys_all_edited(side *A, side *B, const run *r)
{
    if (r->ma != r->mb || r->ma < 2) return 0;
    long set = first_key_set(A, r->first);
    if (set < 0) return 0;
    size_t kin = 0;
    for (size_t k = 0; k < r->ma; k++) {
        if (same_key(A, r->first + k, B, r->first + k) != 0) return 0;
        rb_record_scratch sa, sb;
        kin += rb_identity_share_key_member(element(A->list, r->first + k, &sa), element(B->list, r->first + k, &sb),
                                            (size_t)set);
    }
    return kin * 2 > r->ma && !list_shifted(A, B, r);
}

static int list_match(side *A, side *B, run *r)
{
    if (keys_all_edited(A, B, r)) {
        pair_in_place(r, 0, r->ma, 0, r->mb);
        return 1;
    }
    size_t *pair_a = malloc((r->ma + 1) * sizeof(size_t)), *pair_b = malloc((r->ma + 1) * sizeof(size_t));
    unsigned char *in_run = calloc(r->ma + 1, 1);
    int ok = pair_a && pair_b && in_run;
    size_t count = ok ? unique_pairs(A, B, r, common_key_set(A, B, r), pair_a, pair_b) : 0;
    if (ok) longest_increasing(pair_a, count, in_run);
    for (size_t k = 0; ok && k < count; k++) {
        r->a_to_b[pair_a[k]] = (long)pair_b[k];
        r->b_to_a[pair_b[k]] = (long)pair_a[k];
        r->moved[pair_b[k]] = !in_run[k];
    }
    /* the gaps between the kept pairs (in both orders at once) */
    size_t a0 = 0, b0 = 0;
    for (size_t k = 0; ok && k <= count; k++) {
        if (k < count && !in_run[k]) continue;
        size_t a1 = k < count ? pair_a[k] : r->ma, b1 = k < count ? pair_b[k] : r->mb;
        pair_gap(A, B, r, a0, a1, b0, b1);
        a0 = a1 + 1;
        b0 = b1 + 1;
    }
    free(pair_a);
    free(pair_b);
    free(in_run);
    return ok;
}

/* ---------- a list's operations ---------- */

/* An element kept in place: its changes, addressed by A's name for it. When they change its
 * own keys in more than one operation, its name would not survive the first: by index then. */
static void diff_kept(differ *d, side *A, size_t i, size_t now, side *B, size_t j)
{
    rb_record_scratch sa, sb;
    const rb_node *x = element(A->list, i, &sa), *y = element(B->list, j, &sb);
    if (rb_model_same(x, y)) return;
    size_t first = json_array_size(d->ops);
    const char *name = selector_of(d, A, i);
    mark m = here(d);
    push_element(d, name, now);
    diff_node(d, x, y);
    back(d, m);
    if (!name || mutations_since(d, first) < 2) return;
    const char *renamed = selector_of(d, B, j);
    if (renamed && strcmp(renamed, name) == 0) return;
    drop_since(d, first);
    push_element(d, NULL, now);
    diff_node(d, x, y);
    back(d, m);
}

/* Kept elements not in A's order, moved one by one right after the element B has before them
 * (RFC 6902 "move": the target index counts after the removal). `order` holds the B indexes of
 * the kept elements in their current order. */
static void emit_moves(differ *d, side *B, const run *r, long *order, size_t kept)
{
    for (size_t j = 0; j < r->mb; j++) {
        if (r->b_to_a[j] < 0 || !r->moved[j]) continue;
        size_t at = 0, to = 0;
        while (order[at] != (long)j) at++;
        memmove(order + at, order + at + 1, (kept - at - 1) * sizeof *order);
        long before = -1;
        for (size_t k = 0; k + 1 < kept; k++)
            if (order[k] < (long)j && order[k] > before) { before = order[k]; to = k + 1; }
        memmove(order + to + 1, order + to, (kept - 1 - to) * sizeof *order);
        order[to] = (long)j;
        const char *name = selector_of(d, B, r->first + j);
        mark m = here(d);
        push_element(d, name, r->first + at);
        char *from_path = strdup(text_of(&d->path));
        char *from_plain = strdup(text_of(&d->plain));
        back(d, m);
        push_element(d, NULL, r->first + to);
        if (from_path && from_plain) emit(d, "move", from_path, from_plain, NULL);
        else d->failed = 1;
        back(d, m);
        free(from_path);
        free(from_plain);
    }
}

/* Is `n` an element copied rather than added when the list already holds its equal: a record
 * (a block, an item, a chunk: duplicating one is how it is made, and the copy carries what the
 * format keeps beside it), or bytes whose stored form a rendering as JSON does not carry (a
 * compressed stream, blobs that may be). A value of a list of values is added: that is what a
 * person writes. */
static int copied_when_equal(const rb_node *n, int depth)
{
    if (n->kind == RB_K_STREAM || n->kind == RB_K_BLOB || n->kind == RB_K_OPAQUE || object_like(n)) return 1;
    if (depth > 32 || n->kind != RB_K_LIST) return 0;
    for (size_t i = 0; i < n->v.kids.count; i++)
        if (copied_when_equal(n->v.kids.items[i], depth + 1)) return 1;
    return 0;
}

/* The content hashes of B's elements, computed when an addition first asks (NULL when out of
 * memory: then nothing is copied). */
typedef struct copy_finder {
    uint64_t *hashes;
    int tried;
    size_t comparisons; /* left: equal hashes of unequal elements stop the search */
} copy_finder;

enum { COPY_COMPARISONS = 1 << 16 };

/* An element B adds that equals one the list already holds when it is added (a block or item
 * duplicated, a chunk with a lightmap copied): that element's index then, or -1. The additions
 * come in B's order after the removals and moves, so B's elements before it are in place, and a
 * kept one after it sits as many places earlier as additions are still to come up to it (this
 * one included). The first equal element is the source: equal elements are matched by their
 * order among equals. */
static long copy_source(side *B, const run *r, size_t j, copy_finder *f)
{
    size_t at = r->first + j, pending = 1; /* the element itself is not there yet */
    rb_record_scratch sb;
    if (!copied_when_equal(element(B->list, at, &sb), 0)) return -1;
    /* what apply gives every copy anew (a node's index) does not tell a copy from its original */
    rb_member_filter given = B->doc->format->given_to_copies;
    if (!f->tried) {
        f->tried = 1;
        f->hashes = malloc((B->n + 1) * sizeof *f->hashes);
        for (size_t k = 0; f->hashes && k < B->n; k++) f->hashes[k] = content_hash(element(B->list, k, &sb), given);
    }
    if (!f->hashes) return -1;
    for (size_t k = 0; k < B->n && f->comparisons; k++) {
        if (k == at) continue;
        int in_run = k >= r->first && k < r->first + r->mb;
        if (k > at && in_run && r->b_to_a[k - r->first] < 0) { pending++; continue; }
        if (f->hashes[k] != f->hashes[at]) continue;
        f->comparisons--;
        rb_record_scratch sk;
        if (rb_model_same_but(element(B->list, k, &sk), element(B->list, at, &sb), given))
            return (long)(k < at ? k : k - pending);
    }
    return -1;
}

/* Removals (from the end, by A's names), changes of the kept elements, moves, then additions
 * (before the element that follows them in B, by its name; appended when nothing follows). */
static void emit_list(differ *d, side *A, side *B, run *r)
{
    for (size_t i = r->ma; i-- > 0;) {
        if (r->a_to_b[i] >= 0) continue;
        mark m = here(d);
        push_element(d, selector_of(d, A, r->first + i), r->first + i);
        emit(d, "remove", NULL, NULL, NULL);
        back(d, m);
    }
    long *order = malloc((r->ma + 1) * sizeof(long));
    if (!order) { d->failed = 1; return; }
    size_t kept = 0;
    for (size_t i = 0; i < r->ma; i++) {
        if (r->a_to_b[i] < 0) continue;
        diff_kept(d, A, r->first + i, r->first + kept, B, r->first + (size_t)r->a_to_b[i]);
        order[kept++] = r->a_to_b[i];
    }
    emit_moves(d, B, r, order, kept);
    free(order);
    long next = r->first + r->mb < B->n ? (long)(r->first + r->mb) : -1; /* the element after j in B */
    long *follower = malloc((r->mb + 1) * sizeof(long));
    if (!follower) { d->failed = 1; return; }
    for (size_t j = r->mb; j-- > 0;) {
        follower[j] = next;
        if (r->b_to_a[j] >= 0) next = (long)(r->first + j);
    }
    copy_finder copies = {NULL, 0, COPY_COMPARISONS};
    for (size_t j = 0; j < r->mb; j++) {
        if (r->b_to_a[j] >= 0) continue;
        rb_record_scratch sb;
        const char *name = follower[j] >= 0 ? selector_of(d, B, (size_t)follower[j]) : NULL;
        mark m = here(d);
        if (d->by_identity && !d->index_paths && follower[j] < 0) {
            rb_buf_put(&d->path, "/-", 2);
            put_index(&d->plain, r->first + j);
        } else {
            push_element(d, name, r->first + j);
        }
        long source = copy_source(B, r, j, &copies);
        if (source >= 0) { /* a copy of what the list holds: apply clones it, stored form and all */
            char *from_path = malloc(m.path + 32), *from_plain = malloc(m.plain + 32);
            if (from_path && from_plain) {
                snprintf(from_path, m.path + 32, "%.*s/%ld", (int)m.path, (const char *)d->path.data, source);
                snprintf(from_plain, m.plain + 32, "%.*s/%ld", (int)m.plain, (const char *)d->plain.data, source);
            }
            if (from_path && from_plain) emit(d, "copy", from_path, from_plain, NULL);
            else d->failed = 1;
            free(from_path);
            free(from_plain);
        } else {
            emit(d, "add", NULL, NULL, rb_value_json(B->doc, element(B->list, r->first + j, &sb)));
        }
        back(d, m);
    }
    free(follower);
    free(copies.hashes);
}

static void diff_list(differ *d, const rb_node *a, const rb_node *b)
{
    side A = {d->da, a, rb_element_count(a), NULL}, B = {d->db, b, rb_element_count(b), NULL};
    size_t prefix = 0, suffix = 0;
    while (prefix < A.n && prefix < B.n && same_element(&A, prefix, &B, prefix)) prefix++;
    while (suffix < A.n - prefix && suffix < B.n - prefix && same_element(&A, A.n - 1 - suffix, &B, B.n - 1 - suffix))
        suffix++;
    run r = {prefix, A.n - prefix - suffix, B.n - prefix - suffix, NULL, NULL, NULL};
    r.a_to_b = malloc((r.ma + 1) * sizeof(long));
    r.b_to_a = malloc((r.mb + 1) * sizeof(long));
    r.moved = calloc(r.mb + 1, 1);
    if (!r.a_to_b || !r.b_to_a || !r.moved) {
        d->failed = 1;
    } else {
        for (size_t i = 0; i < r.ma; i++) r.a_to_b[i] = -1;
        for (size_t j = 0; j < r.mb; j++) r.b_to_a[j] = -1;
        if (r.ma == r.mb && r.ma == 1) { /* one element changed: in place */
            r.a_to_b[0] = r.b_to_a[0] = 0;
        } else if (r.ma && r.mb && !list_match(&A, &B, &r)) {
            d->failed = 1;
        }
        if (!d->failed) emit_list(d, &A, &B, &r);
    }
    free(r.a_to_b);
    free(r.b_to_a);
    free(r.moved);
    rb_list_keys_free(A.keys);
    rb_list_keys_free(B.keys);
}

int rb_model_diff_walk(const rb_doc *da, const rb_node *a, const rb_doc *db, const rb_node *b, json_t *ops,
                       json_t *plains, const char *path, int mode, int index_paths)
{
    differ d = {da, db, (mode & RB_MODEL_DIFF_IDENTITY) != 0, index_paths, (mode & RB_MODEL_DIFF_WHOLE_BLOBS) != 0,
                ops, plains, {0}, {0}, 0, 0};
    rb_buf_init(&d.path);
    rb_buf_init(&d.plain);
    rb_buf_put(&d.path, path, strlen(path));
    rb_buf_put(&d.plain, path, strlen(path));
    diff_node(&d, a, b);
    rb_buf_free(&d.path);
    rb_buf_free(&d.plain);
    return d.failed ? -1 : 0;
}
