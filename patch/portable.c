/*
 * Portable patches: patches that address game objects by identity, carry a fingerprint of their
 * base, and stack.
 *
 * An identity patch (`rebyte diff --by-identity`, patch/model_diff.c) names list elements by a
 * selector built from the element's natural keys (patch/identity.c) instead of its index, and
 * pins every value it replaces with a "test" operation. Applied to a base that changed elsewhere
 * (entries added before the edited one, another game version's save of the same map), it edits
 * the same objects, or refuses and says which pinned value differs.
 */
#include "core/hash64.h"
#include "patch/portable.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <pthread.h>
#include "core/doc/doc.h"
#include "core/json/json.h"
#include "patch/jsonpatch.h"
#include "patch/selector.h"
#include "core/model/pointer.h"
#include "patch/offset.h"
#include "patch/stack.h"

/* ---------- patch files: plain arrays or fingerprinted objects ---------- */

int rb_patch_parts(const json_t *file, const json_t **ops, const json_t **base)
{
    *base = NULL;
    if (json_is_array(file)) { *ops = file; return 0; }
    if (json_is_object(file) && json_is_array(json_object_get(file, "operations"))) {
        *ops = json_object_get(file, "operations");
        *base = json_object_get(file, "base");
        return 0;
    }
    return -1;
}

/* ---------- checking a patch against a base that is not its own ---------- */

/* How many "test" pins of `ops` do not hold on `doc`; each one is reported field by field to
 * `report` when it is not NULL. */
static size_t check_pins(json_t *doc, const json_t *ops, FILE *report)
{
    size_t failing = 0;
    for (size_t i = 0; i < json_array_size(ops); i++) {
        json_t *op = json_array_get(ops, i);
        if (!json_is_string(json_object_get(op, "op")) || strcmp(json_string_value(json_object_get(op, "op")), "test") != 0)
            continue;
        const char *path = json_string_value(json_object_get(op, "path"));
        char *plain = NULL, why[600];
        json_t *actual = NULL;
        if (path && rb_pointer_resolve(doc, path, &plain, why, sizeof why) == 0)
            actual = rb_json_pointer_get(doc, plain, NULL, 0);
        if (!actual || !rb_values_equal(actual, json_object_get(op, "value"))) {
            failing++;
            if (report) {
                char *want = json_dumps(json_object_get(op, "value"), JSON_ENCODE_ANY | JSON_COMPACT);
                char *got = actual ? json_dumps(actual, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
                fprintf(report, "  %s: the patch expects %.120s, this file has %.120s\n", path, want ? want : "?",
                        got ? got : (plain ? "nothing" : why));
                free(want);
                free(got);
            }
        }
        free(plain);
    }
    return failing;
}

/* ---------- selectors resolved through indexes ---------- */

/* rb_pointer_resolve finds a selector's element by testing every element of the list, so a patch
 * of n operations that name elements of a list of n by identity cost n² (an identity patch is
 * proven by applying it). While a stack is applied, each list that a selector searched keeps an
 * index instead: its elements' key values as the selector compares them (a string as it is, any
 * other value in compact JSON) -> the elements that have them, plus a balanced tree over the
 * elements in list order that gives an element's position in log time while operations add and
 * remove elements. The changes made in place keep the indexes current; any other change drops
 * them. Where the index finds no element or several, rb_pointer_resolve runs and says why. */

typedef struct sel_group sel_group;

typedef struct sel_node { /* an element of an indexed list */
    struct sel_node *left, *right, *up;
    uint32_t priority;
    size_t size; /* of the subtree */
    sel_group *group;
    struct sel_node *prev, *next; /* in its group */
} sel_node;

struct sel_group { /* the elements whose key values are `tuple` (each value and a NUL) */
    char *tuple;
    size_t len;
    uint64_t hash;
    size_t count;
    sel_node *members;
    sel_group *chain;
};

typedef struct sel_cache {
    json_t *array; /* referenced, so its address names no other list while the index lives */
    char *keys;    /* the conditions' pointers ("" the element itself), each with a NUL */
    size_t keys_len;
    int nkeys;
    sel_node *root;
    sel_group **buckets;
    size_t nbuckets, ngroups;
    int broken; /* out of memory while kept current: built again when next asked */
    struct sel_cache *chain;
} sel_cache;

typedef struct sel_caches {
    sel_cache **buckets;
    size_t nbuckets, count;
    uint32_t random;
} sel_caches;

static size_t node_size(const sel_node *t) { return t ? t->size : 0; }

static void node_pull(sel_node *t)
{
    t->size = 1 + node_size(t->left) + node_size(t->right);
    if (t->left) t->left->up = t;
    if (t->right) t->right->up = t;
}

/* the first k nodes of t in *l, the rest in *r */
static void node_split(sel_node *t, size_t k, sel_node **l, sel_node **r)
{
    if (!t) { *l = *r = NULL; return; }
    if (node_size(t->left) < k) {
        node_split(t->right, k - node_size(t->left) - 1, &t->right, r);
        node_pull(t);
        *l = t;
    } else {
        node_split(t->left, k, l, &t->left);
        node_pull(t);
        *r = t;
    }
}

static sel_node *node_merge(sel_node *a, sel_node *b)
{
    if (!a) return b;
    if (!b) return a;
    if (a->priority > b->priority) {
        a->right = node_merge(a->right, b);
        node_pull(a);
        return a;
    }
    b->left = node_merge(a, b->left);
    node_pull(b);
    return b;
}

static sel_node *node_at(sel_node *t, size_t k)
{
    while (t) {
        size_t l = node_size(t->left);
        if (k < l) t = t->left;
        else if (k == l) return t;
        else { k -= l + 1; t = t->right; }
    }
    return NULL;
}

static size_t node_rank(const sel_node *t)
{
    size_t r = node_size(t->left);
    for (; t->up; t = t->up)
        if (t->up->right == t) r += node_size(t->up->left) + 1;
    return r;
}

static void node_free_all(sel_node *t)
{
    if (!t) return;
    node_free_all(t->left);
    node_free_all(t->right);
    free(t);
}

/* The key values of `element` as the conditions compare them, or NULL when one is absent. */
static char *element_tuple(const sel_cache *c, json_t *element, size_t *len)
{
    size_t n = 0, cap = 64;
    char *out = malloc(cap);
    const char *key = c->keys;
    for (int k = 0; out && k < c->nkeys; k++, key += strlen(key) + 1) {
        json_t *found = *key ? rb_json_pointer_get(element, key, NULL, 0) : element;
        char *dumped = found && !json_is_string(found) ? json_dumps(found, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
        const char *text = !found ? NULL : json_is_string(found) ? json_string_value(found) : dumped;
        size_t m = text ? strlen(text) : 0;
        if (text && n + m + 1 > cap) {
            while (n + m + 1 > cap) cap *= 2;
            char *grown = realloc(out, cap);
            if (!grown) text = NULL;
            else out = grown;
        }
        if (!text) { free(dumped); free(out); return NULL; }
        memcpy(out + n, text, m + 1);
        n += m + 1;
        free(dumped);
    }
    *len = n;
    return out;
}

static sel_group *group_find(const sel_cache *c, const char *tuple, size_t len, uint64_t hash)
{
    for (sel_group *g = c->buckets[hash & (c->nbuckets - 1)]; g; g = g->chain)
        if (g->hash == hash && g->len == len && memcmp(g->tuple, tuple, len) == 0) return g;
    return NULL;
}

static void group_leave(sel_cache *c, sel_node *node)
{
    sel_group *g = node->group;
    if (!g) return;
    if (node->prev) node->prev->next = node->next;
    else g->members = node->next;
    if (node->next) node->next->prev = node->prev;
    node->group = NULL;
    node->prev = node->next = NULL;
    if (--g->count) return;
    sel_group **at = &c->buckets[g->hash & (c->nbuckets - 1)];
    while (*at != g) at = &(*at)->chain;
    *at = g->chain;
    free(g->tuple);
    free(g);
    c->ngroups--;
}

/* Files the node under its element's key values (taking `tuple`); 0 when out of memory. */
static int group_join(sel_cache *c, sel_node *node, char *tuple, size_t len)
{
    if (!tuple) return 1; /* a key is absent: no selector of these keys names it */
    uint64_t hash = rb_hash_bytes(tuple, len);
    sel_group *g = group_find(c, tuple, len, hash);
    if (g) {
        free(tuple);
    } else {
        if (c->ngroups >= c->nbuckets) { /* grow */
            size_t n = c->nbuckets * 2;
            sel_group **b = calloc(n, sizeof *b);
            if (!b) { free(tuple); return 0; }
            for (size_t i = 0; i < c->nbuckets; i++)
                for (sel_group *x = c->buckets[i], *next; x; x = next) {
                    next = x->chain;
                    x->chain = b[x->hash & (n - 1)];
                    b[x->hash & (n - 1)] = x;
                }
            free(c->buckets);
            c->buckets = b;
            c->nbuckets = n;
        }
        if (!(g = calloc(1, sizeof *g))) { free(tuple); return 0; }
        g->tuple = tuple;
        g->len = len;
        g->hash = hash;
        g->chain = c->buckets[hash & (c->nbuckets - 1)];
        c->buckets[hash & (c->nbuckets - 1)] = g;
        c->ngroups++;
    }
    node->group = g;
    node->prev = NULL;
    node->next = g->members;
    if (g->members) g->members->prev = node;
    g->members = node;
    g->count++;
    return 1;
}

static int node_file(sel_cache *c, sel_node *node, json_t *element)
{
    size_t len = 0;
    char *tuple = element_tuple(c, element, &len);
    return group_join(c, node, tuple, len);
}

static sel_node *node_new(sel_caches *all)
{
    sel_node *node = calloc(1, sizeof *node);
    if (!node) return NULL;
    all->random ^= all->random << 13;
    all->random ^= all->random >> 17;
    all->random ^= all->random << 5;
    node->priority = all->random;
    node->size = 1;
    return node;
}

static void cache_free(sel_cache *c)
{
    if (!c) return;
    for (size_t i = 0; c->buckets && i < c->nbuckets; i++)
        for (sel_group *g = c->buckets[i], *next; g; g = next) {
            next = g->chain;
            free(g->tuple);
            free(g);
        }
    free(c->buckets);
    node_free_all(c->root);
    json_decref(c->array);
    free(c->keys);
    free(c);
}

static void caches_clear(sel_caches *all)
{
    for (size_t i = 0; all->buckets && i < all->nbuckets; i++)
        for (sel_cache *c = all->buckets[i], *next; c; c = next) {
            next = c->chain;
            cache_free(c);
        }
    free(all->buckets);
    all->buckets = NULL;
    all->nbuckets = all->count = 0;
}

static size_t cache_bucket(const sel_caches *all, const json_t *array)
{
    return (size_t)rb_mix64((uint64_t)(uintptr_t)array) & (all->nbuckets - 1);
}

/* The index of `array` under `keys`, built when there is none (or it lost count); NULL when out
 * of memory. */
static sel_cache *cache_get(sel_caches *all, json_t *array, const char *keys, size_t keys_len, int nkeys)
{
    if (!all->buckets) {
        if (!(all->buckets = calloc(64, sizeof(sel_cache *)))) return NULL;
        all->nbuckets = 64;
    }
    sel_cache **at = &all->buckets[cache_bucket(all, array)];
    for (sel_cache **x = at; *x; x = &(*x)->chain) {
        sel_cache *c = *x;
        if (c->array != array || c->keys_len != keys_len || memcmp(c->keys, keys, keys_len) != 0) continue;
        if (!c->broken && node_size(c->root) == json_array_size(array)) return c;
        *x = c->chain; /* out of step: index the list again */
        cache_free(c);
        all->count--;
        break;
    }
    sel_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->keys = malloc(keys_len + 1);
    c->nbuckets = 16;
    c->buckets = calloc(c->nbuckets, sizeof *c->buckets);
    if (!c->keys || !c->buckets) { free(c->keys); free(c->buckets); free(c); return NULL; }
    memcpy(c->keys, keys, keys_len);
    c->keys_len = keys_len;
    c->nkeys = nkeys;
    c->array = json_incref(array);
    for (size_t i = 0; i < json_array_size(array); i++) {
        sel_node *node = node_new(all);
        if (!node) { cache_free(c); return NULL; }
        c->root = node_merge(c->root, node);
        c->root->up = NULL;
        if (!node_file(c, node, json_array_get(array, i))) { cache_free(c); return NULL; }
    }
    c->chain = *at;
    *at = c;
    all->count++;
    return c;
}

/* Element `index` of `array` changed inside (or was replaced): file it again. */
static void caches_changed(sel_caches *all, json_t *array, size_t index)
{
    if (!all->count) return;
    for (sel_cache *c = all->buckets[cache_bucket(all, array)]; c; c = c->chain) {
        if (c->array != array) continue;
        sel_node *node = node_at(c->root, index);
        if (!node) { c->broken = 1; continue; }
        group_leave(c, node);
        if (!node_file(c, node, json_array_get(array, index))) c->broken = 1;
    }
}

static void caches_inserted(sel_caches *all, json_t *array, size_t index)
{
    if (!all->count) return;
    for (sel_cache *c = all->buckets[cache_bucket(all, array)]; c; c = c->chain) {
        if (c->array != array) continue;
        sel_node *node = node_new(all), *l, *r;
        if (!node) { c->broken = 1; continue; }
        node_split(c->root, index, &l, &r);
        if (l) l->up = NULL;
        if (r) r->up = NULL;
        c->root = node_merge(node_merge(l, node), r);
        c->root->up = NULL;
        if (!node_file(c, node, json_array_get(array, index))) c->broken = 1;
    }
}

static void caches_removed(sel_caches *all, json_t *array, size_t index)
{
    if (!all->count) return;
    for (sel_cache *c = all->buckets[cache_bucket(all, array)]; c; c = c->chain) {
        if (c->array != array) continue;
        sel_node *l, *m, *r;
        node_split(c->root, index, &l, &r);
        if (r) r->up = NULL;
        node_split(r, 1, &m, &r);
        if (l) l->up = NULL;
        if (r) r->up = NULL;
        c->root = node_merge(l, r);
        if (c->root) c->root->up = NULL;
        if (m) {
            group_leave(c, m);
            free(m);
        }
    }
}

/* The element of `array` that `selector` (the text between the brackets) names, as
 * rb_pointer_resolve would find it; 0 when there is not exactly one (or out of memory). */
static int select_indexed(sel_caches *all, json_t *array, const char *selector, size_t *index)
{
    rb_selector_condition *c;
    size_t count;
    if (rb_selector_parse(selector, &c, &count) != 0) return 0; /* no condition: nothing matches */
    /* the conditions' pointers, then their values, each followed by a NUL */
    char *keys = malloc(strlen(selector) + 2 * count + 2), *tuple = malloc(strlen(selector) + count + 2);
    size_t keys_len = 0, tuple_len = 0;
    for (size_t k = 0; keys && tuple && k < count; k++) {
        size_t n = strlen(c[k].pointer) + 1;
        memcpy(keys + keys_len, c[k].pointer, n);
        keys_len += n;
        n = strlen(c[k].value) + 1;
        memcpy(tuple + tuple_len, c[k].value, n);
        tuple_len += n;
    }
    sel_cache *cache = keys && tuple ? cache_get(all, array, keys, keys_len, (int)count) : NULL;
    sel_group *g = cache ? group_find(cache, tuple, tuple_len, rb_hash_bytes(tuple, tuple_len)) : NULL;
    int ok = g && g->count == 1;
    if (ok) *index = node_rank(g->members);
    rb_selector_conditions_free(c, count);
    free(keys);
    free(tuple);
    return ok;
}

/* rb_pointer_resolve through the indexes: 1 with the plain pointer in *plain (malloc'd), or 0
 * when the path does not resolve this way (then rb_pointer_resolve says why). */
static int resolve_indexed(sel_caches *all, json_t *doc, const char *path, char **plain)
{
    size_t len = 0, cap = strlen(path) + 64;
    char *out = malloc(cap);
    json_t *cur = doc;
    const char *p = path;
    *plain = NULL;
    if (!out) return 0;
    out[0] = 0;
    while (*p == '/') {
        p++;
        size_t n = rb_pointer_token_length(p);
        char token[1024];
        if (n >= sizeof token) { free(out); return 0; }
        memcpy(token, p, n);
        token[n] = 0;
        p += n;
        char piece[1100];
        if (token[0] == '[' && token[n - 1] == ']' && json_is_array(cur)) {
            size_t index;
            token[n - 1] = 0;
            if (!select_indexed(all, cur, token + 1, &index)) { free(out); return 0; }
            snprintf(piece, sizeof piece, "/%zu", index);
            cur = json_array_get(cur, index);
        } else {
            snprintf(piece, sizeof piece, "/%s", token);
            /* plain tokens pass through; follow them while the document has them */
            if (cur) cur = rb_json_pointer_get(cur, piece, NULL, 0);
        }
        size_t m = strlen(piece);
        if (len + m + 1 > cap) {
            while (len + m + 1 > cap) cap *= 2;
            char *grown = realloc(out, cap);
            if (!grown) { free(out); return 0; }
            out = grown;
        }
        memcpy(out + len, piece, m + 1);
        len += m;
    }
    if (*p) { free(out); return 0; }
    *plain = out;
    return 1;
}

/* ---------- applying an operation in place ---------- */

/* An "add", "remove" or "replace" that rb_json_patch_apply would carry out: where it acts, so it
 * can be done on the document itself instead of on a copy of it (a copy per operation made a
 * patch of n operations on a large model cost n copies of the model). Anything else, and any
 * operation that would fail, takes the general path, which says why. */
typedef struct in_place {
    char *plain;    /* the path with its selectors resolved */
    int kind;       /* 'a'dd, 'r'emove, re'p'lace */
    json_t *parent; /* NULL: the whole document */
    char *key;      /* the last token, decoded */
    size_t key_len, index;
    json_t *value;
    /* the lists the path goes through above the parent, and the element it takes in each */
    json_t **lists;
    size_t *taken, depth;
} in_place;

/* An RFC 6901 token, decoded (core/model/pointer.c); NULL when it has an escape other than ~0 or ~1. */
static char *decode_token(const char *p, size_t n, size_t *len)
{
    int bad_escape;
    return rb_pointer_decode_dup(p, n, len, &bad_escape);
}

/* An RFC 6901 array index (core/model/pointer.c) below `limit`. */
static int array_index(const char *token, size_t len, size_t limit, size_t *index)
{
    return rb_pointer_index(token, len, index) == 0 && *index < limit;
}

static int plain_key(const char *key, size_t len) /* ASCII without NUL: a valid member name as is */
{
    for (size_t i = 0; i < len; i++)
        if (!key[i] || (unsigned char)key[i] >= 0x80) return 0;
    return 1;
}

static void in_place_free(in_place *ip)
{
    free(ip->plain);
    free(ip->key);
    free(ip->lists);
    free(ip->taken);
}

/* 1 when `op` is an add, remove or replace that will succeed on `work`, described in `ip`. */
static int in_place_prepare(sel_caches *all, json_t *work, const json_t *op, in_place *ip)
{
    memset(ip, 0, sizeof *ip);
    json_t *name = json_object_get(op, "op"), *path = json_object_get(op, "path");
    if (!json_is_string(name) || !json_is_string(path) || json_object_get(op, "from")) return 0;
    const char *kind = json_string_value(name);
    if (strlen(kind) != json_string_length(name)) return 0;
    if (strcmp(kind, "add") == 0) ip->kind = 'a';
    else if (strcmp(kind, "remove") == 0) ip->kind = 'r';
    else if (strcmp(kind, "replace") == 0) ip->kind = 'p';
    else return 0;
    ip->value = json_object_get(op, "value");
    if (ip->kind != 'r' && !ip->value) return 0;
    char why[600];
    if (!resolve_indexed(all, work, json_string_value(path), &ip->plain) &&
        rb_pointer_resolve(work, json_string_value(path), &ip->plain, why, sizeof why) != 0) {
        ip->plain = NULL;
        return 0;
    }
    const char *p = ip->plain;
    if (!*p && ip->kind != 'r') return 1; /* the whole document: replaced */
    if (*p != '/') goto no;
    /* down to the parent, as RFC 6901 walks: members that exist, indexes in range */
    json_t *cur = work;
    const char *last = strrchr(p, '/');
    size_t slashes = 0;
    for (const char *s = p; s < last; s++) slashes += *s == '/';
    if (slashes && (!(ip->lists = malloc(slashes * sizeof(json_t *))) || !(ip->taken = malloc(slashes * sizeof(size_t)))))
        goto no;
    while (p < last) {
        const char *end = strchr(p + 1, '/');
        size_t len;
        char *token = decode_token(p + 1, (size_t)(end - p - 1), &len);
        if (!token) goto no;
        size_t index;
        json_t *next = NULL;
        if (json_is_object(cur)) {
            next = json_object_getn(cur, token, len);
        } else if (json_is_array(cur) && array_index(token, len, json_array_size(cur), &index)) {
            next = json_array_get(cur, index);
            ip->lists[ip->depth] = cur;
            ip->taken[ip->depth++] = index;
        }
        free(token);
        if (!next) goto no;
        cur = next;
        p = end;
    }
    if (!json_is_object(cur) && !json_is_array(cur)) goto no;
    ip->parent = cur;
    if (!(ip->key = decode_token(last + 1, strlen(last + 1), &ip->key_len))) goto no;
    if (json_is_object(cur)) {
        if (!plain_key(ip->key, ip->key_len)) goto no;
        if (ip->kind != 'a' && !json_object_getn(cur, ip->key, ip->key_len)) goto no;
        return 1;
    }
    size_t size = json_array_size(cur);
    if (ip->kind == 'a' && ip->key_len == 1 && ip->key[0] == '-') { ip->index = size; return 1; }
    if (array_index(ip->key, ip->key_len, ip->kind == 'a' ? size + 1 : size, &ip->index)) return 1;
no:
    in_place_free(ip);
    memset(ip, 0, sizeof *ip);
    return 0;
}

/* Carries out a prepared operation, keeping the selector indexes current; -1 (nothing changed)
 * when out of memory. */
static int in_place_commit(sel_caches *all, json_t **work, const in_place *ip)
{
    json_t *v = NULL;
    int rc;
    if (ip->kind != 'r' && !(v = json_deep_copy(ip->value))) return -1;
    if (!ip->parent) {
        json_decref(*work);
        *work = v;
        caches_clear(all);
        return 0;
    }
    if (json_is_object(ip->parent))
        rc = ip->kind == 'r' ? json_object_deln(ip->parent, ip->key, ip->key_len)
                             : json_object_setn_new(ip->parent, ip->key, ip->key_len, v);
    else if (ip->kind == 'r') rc = json_array_remove(ip->parent, ip->index);
    else if (ip->kind == 'a') rc = json_array_insert_new(ip->parent, ip->index, v);
    else rc = json_array_set_new(ip->parent, ip->index, v);
    if (rc != 0) return -1;
    for (size_t d = 0; d < ip->depth; d++) caches_changed(all, ip->lists[d], ip->taken[d]);
    if (json_is_array(ip->parent)) {
        if (ip->kind == 'r') caches_removed(all, ip->parent, ip->index);
        else if (ip->kind == 'a') caches_inserted(all, ip->parent, ip->index);
        else caches_changed(all, ip->parent, ip->index);
    }
    return 0;
}

/* Does the "test" `op` hold on `doc`? check_pins of the one operation, its path resolved
 * through the indexes when they can. */
static int pin_fails(sel_caches *all, json_t *doc, json_t *op)
{
    const char *path = json_string_value(json_object_get(op, "path"));
    char *plain;
    if (path && resolve_indexed(all, doc, path, &plain)) {
        json_t *actual = rb_json_pointer_get(doc, plain, NULL, 0);
        free(plain);
        return !actual || !rb_values_equal(actual, json_object_get(op, "value"));
    }
    json_t *pin = json_pack("[O]", op);
    size_t failed = check_pins(doc, pin, NULL);
    json_decref(pin);
    return failed != 0;
}

/* Why a "test" failed: the value the document has there, or why there is none. */
static void test_failure(json_t *doc, const json_t *op, const char *patch, size_t index, char *err, size_t err_size)
{
    const char *path = json_string_value(json_object_get(op, "path"));
    char *want = json_dumps(json_object_get(op, "value"), JSON_ENCODE_ANY | JSON_COMPACT);
    char *plain = NULL, why[600] = "";
    json_t *actual = NULL;
    if (path && rb_pointer_resolve(doc, path, &plain, why, sizeof why) == 0)
        actual = rb_json_pointer_get(doc, plain, why, sizeof why);
    char *got = actual ? json_dumps(actual, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    if (got)
        snprintf(err, err_size, "%s: operation %zu: test failed: %s is %.200s, not %.200s", patch, index,
                 path ? path : "?", got, want ? want : "?");
    else
        snprintf(err, err_size, "%s: operation %zu: test failed: %s does not exist (%s)", patch, index,
                 path ? path : "?", why[0] ? why : "no such place");
    free(want);
    free(got);
    free(plain);
}

/* ---------- the stack on plain JSON (patch/stack.c) ---------- */

/* The document and what locating the current operation prepared: a change in place, or the
 * document with the operation applied (a probe) and the operation with plain paths. */
typedef struct json_stack {
    json_t *work;
    sel_caches indexes;
    in_place ip;
    int in_place;
    json_t *probe, *resolved;
    FILE *report;
} json_stack;

static void forget_plan(json_stack *js)
{
    if (js->in_place) in_place_free(&js->ip);
    js->in_place = 0;
    json_decref(js->probe);
    json_decref(js->resolved);
    js->probe = js->resolved = NULL;
}

static int test_on_json(void *context, const char *patch, size_t i, const json_t *op, char *why, size_t why_size)
{
    json_stack *js = context;
    if (!pin_fails(&js->indexes, js->work, (json_t *)op)) return 0;
    test_failure(js->work, op, patch, i, why, why_size);
    return -1;
}

static int locate_on_json(void *context, const json_t *op, char **plain, char *why, size_t why_size)
{
    json_stack *js = context;
    forget_plan(js);
    if ((js->in_place = in_place_prepare(&js->indexes, js->work, op, &js->ip))) {
        *plain = strdup(js->ip.plain);
    } else {
        json_t *one = json_pack("[O]", op);
        js->probe = json_deep_copy(js->work); /* resolved against the document as it is */
        int rc = rb_json_patch_apply_selectors(&js->probe, one, &js->resolved, why, why_size);
        json_decref(one);
        if (rc != 0) return -1;
        *plain = strdup(json_string_value(json_object_get(json_array_get(js->resolved, 0), "path")));
    }
    if (!*plain) { snprintf(why, why_size, "out of memory"); return -1; }
    return 0;
}

static int change_on_json(void *context, const char *patch, size_t i, const json_t *op, const char *plain, char *why,
                          size_t why_size)
{
    (void)op;
    (void)plain;
    json_stack *js = context;
    if (js->in_place) {
        if (in_place_commit(&js->indexes, &js->work, &js->ip) != 0) {
            snprintf(why, why_size, "%s: operation %zu: out of memory", patch, i);
            return -1;
        }
    } else {
        json_decref(js->work);
        js->work = js->probe;
        js->probe = NULL;
        caches_clear(&js->indexes); /* a new document: the indexes name the old one's lists */
    }
    forget_plan(js);
    return 0;
}

/* ---------- plain JSON as the expansion of "each" and "offset" sees it (patch/each.c) ---------- */

static int list_on_json(void *context, const char *path, size_t *length)
{
    json_t *v = rb_json_pointer_get(((json_stack *)context)->work, path, NULL, 0);
    if (json_is_array(v)) *length = json_array_size(v);
    return json_is_array(v) ? 1 : v ? 0 : -1;
}

static int select_on_json(void *context, const char *path, const char *selector, int each, size_t **indexes,
                          size_t *count, char *why, size_t why_size)
{
    json_t *list = rb_json_pointer_get(((json_stack *)context)->work, path, NULL, 0);
    if (rb_json_select_all(list, selector, indexes, count) != 0) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (each || *count == 1) return 0;
    snprintf(why, why_size, "selector [%s] in %s matches %zu elements (it must match exactly one)", selector, path,
             *count);
    free(*indexes);
    *indexes = NULL;
    return -1;
}

static json_t *offset_on_json(void *context, const char *path, const json_t *by, char *why, size_t why_size)
{
    json_t *v = rb_json_pointer_get(((json_stack *)context)->work, path, why, why_size);
    return v ? rb_offset_json(v, by, path, why, why_size) : NULL;
}

static void line_on_json(void *context, const char *text) { fprintf(((json_stack *)context)->report, "%s\n", text); }

static int apply_stack(json_t **doc, const json_t *const *patches, const char *const *names, int count,
                       rb_conflicts policy, FILE *report, char *err, size_t err_size)
{
    const json_t **ops = calloc(count > 0 ? (size_t)count : 1, sizeof(json_t *));
    if (!ops) { snprintf(err, err_size, "out of memory"); return -1; }
    for (int p = 0; p < count; p++) {
        const json_t *base;
        if (rb_patch_parts(patches[p], &ops[p], &base) != 0) {
            snprintf(err, err_size, "%s is neither a JSON Patch array nor a rebyte patch object", names[p]);
            free(ops);
            return -1;
        }
    }
    json_stack js = {.work = json_deep_copy(*doc), .indexes = {.random = 2463534242u}, .report = report};
    rb_each_source each = {&js, list_on_json, select_on_json, offset_on_json};
    rb_stack_target target = {&js, test_on_json, locate_on_json, change_on_json, report ? line_on_json : NULL, &each,
                              NULL};
    int rc = js.work ? 0 : -1;
    if (rc != 0) snprintf(err, err_size, "out of memory");
    if (rc == 0) rc = rb_stack_apply(&target, ops, names, (size_t)count, policy, NULL, err, err_size);
    forget_plan(&js);
    caches_clear(&js.indexes);
    free(ops);
    if (rc != 0) { json_decref(js.work); return -1; }
    json_decref(*doc);
    *doc = js.work;
    return 0;
}

/* Does `op` name an element by a selector ("/[key=value]"), which the RFC engine would read as an
 * index or a member name? */
static int uses_selector(const json_t *op)
{
    const char *path = json_string_value(json_object_get(op, "path"));
    const char *from = json_string_value(json_object_get(op, "from"));
    return (path && strstr(path, "/[")) || (from && strstr(from, "/["));
}

int rb_json_patch_apply_extended(json_t **doc, const json_t *const *patches, const char *const *names, int count,
                                 rb_conflicts policy, FILE *report, char *err, size_t err_size)
{
    int extended = count != 1 || !json_is_array(patches[0]);
    for (size_t i = 0; !extended && i < json_array_size(patches[0]); i++)
        extended = rb_each_wanted(json_array_get(patches[0], i)) || uses_selector(json_array_get(patches[0], i));
    if (!extended) return rb_json_patch_apply(doc, patches[0], err, err_size);
    return apply_stack(doc, patches, names, count, policy, report, err, err_size);
}
