/* Structural difference of two JSON documents as an RFC 6902 patch. */
#include "jsondiff.h"
#include <stdlib.h>
#include <string.h>
#include "jsonpatch.h"
#include "portable.h"

/* RFC 6901: '~' -> "~0", '/' -> "~1". */
static char *child_pointer(const char *parent, const char *token)
{
    size_t n = strlen(parent) + 2 * strlen(token) + 2;
    char *p = malloc(n);
    if (!p) return NULL;
    char *o = p + strlen(parent);
    memcpy(p, parent, strlen(parent));
    *o++ = '/';
    for (const char *t = token; *t; t++) {
        if (*t == '~') { *o++ = '~'; *o++ = '0'; }
        else if (*t == '/') { *o++ = '~'; *o++ = '1'; }
        else *o++ = *t;
    }
    *o = 0;
    return p;
}

static void add_op(json_t *ops, const char *op, const char *path, const json_t *value)
{
    json_t *o = json_pack("{s:s,s:s}", "op", op, "path", path);
    if (value) json_object_set(o, "value", (json_t *)value);
    json_array_append_new(ops, o);
}

static void diff_objects(const json_t *a, const json_t *b, json_t *ops, const char *path)
{
    const char *k;
    json_t *va;
    json_object_foreach((json_t *)a, k, va) {
        char *p = child_pointer(path, k);
        json_t *vb = json_object_get(b, k);
        if (!vb) add_op(ops, "remove", p, NULL);
        else rb_json_diff(va, vb, ops, p);
        free(p);
    }
    json_t *vb;
    json_object_foreach((json_t *)b, k, vb) {
        if (json_object_get(a, k)) continue;
        char *p = child_pointer(path, k);
        add_op(ops, "add", p, vb);
        free(p);
    }
}

/* Every element's identity token (its selector), or NULL when some element has none or two
 * share one: then the list is compared by position. */
static char **identities(const json_t *array) { return rb_identity_keys((json_t *)array); }

static void free_keys(char **keys, size_t n)
{
    for (size_t i = 0; keys && i < n; i++) free(keys[i]);
    free(keys);
}

static char *index_pointer(const char *path, size_t i)
{
    char index[32];
    snprintf(index, sizeof index, "%zu", i);
    return child_pointer(path, index);
}

/* Fenwick tree over positions: how many of the first i positions are still counted. */
static void fenwick_add(long *tree, size_t n, size_t i, long delta)
{
    for (i++; i <= n; i += i & (~i + 1)) tree[i - 1] += delta;
}

static long fenwick_prefix(const long *tree, size_t i) /* sum over positions 0 .. i-1 */
{
    long sum = 0;
    for (; i > 0; i -= i & (~i + 1)) sum += tree[i - 1];
    return sum;
}

/* Lists whose elements have identities (chunks, blocks, names, ...): matched by identity, so an
 * insertion, a deletion or a re-sort shows as that, not as every later element changing.
 * Order of operations: removals, moves into B's order, additions, then changes inside.
 * Identities are matched through hash indexes and the moves' source positions come from a
 * Fenwick tree, so a list of n elements costs n log n, not n². */
static int diff_arrays_by_identity(const json_t *a, const json_t *b, json_t *ops, const char *path)
{
    size_t na = json_array_size(a), nb = json_array_size(b);
    char **ka = identities(a), **kb = identities(b);
    if (!ka || !kb) { free_keys(ka, na); free_keys(kb, nb); return 0; }
    rb_key_index *ia = rb_key_index_new(ka, na), *ib = rb_key_index_new(kb, nb);
    long *in_b = malloc((na + 1) * sizeof(long)), *in_a = malloc((nb + 1) * sizeof(long));
    long *unplaced = calloc(na + 1, sizeof(long)); /* A's kept elements not yet moved into place */
    if (!ia || !ib || !in_b || !in_a || !unplaced) {
        rb_key_index_free(ia);
        rb_key_index_free(ib);
        free(in_b);
        free(in_a);
        free(unplaced);
        free_keys(ka, na);
        free_keys(kb, nb);
        return 0;
    }
    for (size_t i = 0; i < na; i++) in_b[i] = rb_key_index_find(ib, ka[i]);
    for (size_t j = 0; j < nb; j++) in_a[j] = rb_key_index_find(ia, kb[j]);
    for (size_t i = na; i > 0; i--) {
        if (in_b[i - 1] >= 0) continue;
        char *p = index_pointer(path, i - 1);
        add_op(ops, "remove", p, NULL);
        free(p);
    }
    /* After the removals the list is A's kept elements in A's order. Moving B's elements to the
     * front one by one keeps the rest in that order, so an element's position is the count of
     * elements already placed plus the unplaced kept ones before it in A. */
    for (size_t i = 0; i < na; i++)
        if (in_b[i] >= 0) fenwick_add(unplaced, na, i, 1);
    size_t pos = 0;
    for (size_t j = 0; j < nb; j++) {
        long i = in_a[j];
        if (i < 0) continue;
        size_t at = pos + (size_t)fenwick_prefix(unplaced, (size_t)i);
        if (at != pos) {
            char *from = index_pointer(path, at), *to = index_pointer(path, pos);
            json_t *o = json_pack("{s:s,s:s,s:s}", "op", "move", "from", from, "path", to);
            json_array_append_new(ops, o);
            free(from);
            free(to);
        }
        fenwick_add(unplaced, na, (size_t)i, -1);
        pos++;
    }
    for (size_t j = 0; j < nb; j++) {
        if (in_a[j] >= 0) continue;
        char *p = index_pointer(path, j);
        add_op(ops, "add", p, json_array_get(b, j));
        free(p);
    }
    for (size_t j = 0; j < nb; j++) {
        long i = in_a[j];
        if (i < 0) continue;
        char *p = index_pointer(path, j);
        rb_json_diff(json_array_get(a, (size_t)i), json_array_get(b, j), ops, p);
        free(p);
    }
    rb_key_index_free(ia);
    rb_key_index_free(ib);
    free(in_b);
    free(in_a);
    free(unplaced);
    free_keys(ka, na);
    free_keys(kb, nb);
    return 1;
}

static void diff_arrays(const json_t *a, const json_t *b, json_t *ops, const char *path)
{
    size_t na = json_array_size(a), nb = json_array_size(b);
    int lists_of_things = na && nb && (json_is_object(json_array_get(a, 0)) || json_is_string(json_array_get(a, 0)));
    if (lists_of_things && diff_arrays_by_identity(a, b, ops, path)) return;
    size_t common = na < nb ? na : nb;
    char index[32];
    for (size_t i = 0; i < common; i++) {
        snprintf(index, sizeof index, "%zu", i);
        char *p = child_pointer(path, index);
        rb_json_diff(json_array_get(a, i), json_array_get(b, i), ops, p);
        free(p);
    }
    for (size_t i = na; i > common; i--) { /* remove from the end so indices stay valid */
        snprintf(index, sizeof index, "%zu", i - 1);
        char *p = child_pointer(path, index);
        add_op(ops, "remove", p, NULL);
        free(p);
    }
    for (size_t i = common; i < nb; i++) {
        char *p = child_pointer(path, "-");
        add_op(ops, "add", p, json_array_get(b, i));
        free(p);
    }
}

void rb_json_diff(const json_t *a, const json_t *b, json_t *ops, const char *path)
{
    if (json_is_object(a) && json_is_object(b)) diff_objects(a, b, ops, path);
    else if (json_is_array(a) && json_is_array(b)) diff_arrays(a, b, ops, path);
    else if (!rb_json_equal(a, b)) add_op(ops, "replace", path, b);
}
