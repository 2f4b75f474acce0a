/*
 * An edit that reaches no unit (docs/performance.md "An edit that reaches no unit"): apply on the
 * deferred model, its units kept as their bytes from the read to the write.
 *
 * The original is read deferred when the format states what its units' reads take from outside
 * them (rb_format.unit_reads) and the patch is only "replace" and "test" (apply_deferred.c, which
 * apply_units.c takes too) of numbers and booleans.
 * The document stays deferred only when every operation's path leads, through nodes alone, to a
 * number or a boolean of the file's bytes that neither a unit's read (unit_reads) nor a game rule
 * (rb_rule_reads.values) takes; otherwise it is expanded (read again in full) and apply goes on as before.
 * Why that is sound:
 *   - the rules: a rule reads only what it states; nothing it reads changed, so its violations
 *     after are its violations before, and apply refuses only new ones: it is not run at all;
 *   - the selectors: an element kept as its bytes is no match to rb_model_select, so a selector
 *     over a list that has such elements is taken only when the format tells their member
 *     (rb_format.unit_member, the hook apply_units.c passes units by) and none of them matches;
 *   - the check of the write: the written file must equal the original everywhere but inside the
 *     edited values (the same size, and fixed-size values), then a unit of the re-read (read again
 *     deferred, every value checked) has the bytes and the reader state its original had, so equal
 *     bytes at one offset are equal nodes (rb_model_equal_kept_units). A write that is not so
 *     (the format moved bytes) is no failure: apply runs again on the expanded model.
 */
#include "patch/apply_kept.h"
#include <stdlib.h>
#include <string.h>
#include "core/doc/rules.h"
#include "core/model/pointer.h"
#include "patch/apply_deferred.h"

enum { MAX_KEPT_EDITS = 64, MAX_TOKENS = 16, TOKEN_SIZE = 64 };

/* A path as tokens; 0 when it is not one a kept apply takes (an escape, too deep, too long). */
typedef struct tokens {
    char t[MAX_TOKENS][TOKEN_SIZE];
    size_t count;
} tokens;

static int split(const char *path, tokens *out)
{
    out->count = 0;
    if (!path || path[0] != '/' || strchr(path, '~')) return 0;
    for (const char *p = path + 1;; ) {
        const char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (out->count == MAX_TOKENS || n == 0 || n >= TOKEN_SIZE) return 0;
        memcpy(out->t[out->count], p, n);
        out->t[out->count++][n] = 0;
        if (!end) return 1;
        p = end + 1;
    }
}

static int is_word(const char *s, size_t n)
{
    if (!n) return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    return 1;
}

/* A selector of one condition whose value is a word that begins with a letter, `[key=Word]`: a
 * text; 0 for any other token. */
static int word_selector(const char *token, const char **key, size_t *key_length, const char **value, size_t *value_length)
{
    apply_selector s;
    if (!apply_deferred_selector(token, strlen(token), &s)) return 0;
    *key = s.key, *key_length = s.key_length;
    *value = s.value, *value_length = s.value_length;
    int letter = *value_length && ((**value >= 'A' && **value <= 'Z') || (**value >= 'a' && **value <= 'z'));
    return letter && is_word(*value, *value_length);
}

/* Can tokens x and y name the same node? Equal tokens can; two word selectors over one key with
 * different texts cannot, nor two member names or two indices that differ; anything else
 * (an index beside a selector) may. */
static int tokens_may_meet(const char *x, const char *y)
{
    if (!strcmp(x, y)) return 1;
    const char *kx, *vx, *ky, *vy;
    size_t kxn, vxn, kyn, vyn;
    int sx = word_selector(x, &kx, &kxn, &vx, &vxn), sy = word_selector(y, &ky, &kyn, &vy, &vyn);
    if (sx && sy) return kxn != kyn || memcmp(kx, ky, kxn) != 0;
    return x[0] == '[' || y[0] == '[';
}

/* Do the two paths overlap (one at or below the other)? */
static int paths_meet(const tokens *a, const tokens *b)
{
    size_t n = a->count < b->count ? a->count : b->count;
    for (size_t i = 0; i < n; i++)
        if (!tokens_may_meet(a->t[i], b->t[i])) return 0;
    return 1;
}

static int meets_any(const tokens *path, const char *const *reads)
{
    for (size_t i = 0; reads[i]; i++) {
        tokens r;
        if (!split(reads[i], &r) || paths_meet(path, &r)) return 1;
    }
    return 0;
}

/* The element of `list` that word selector `token` names, through nodes alone; NULL when an
 * element kept as its bytes might match, or when not exactly one node does. */
static const rb_node *select_kept(const rb_format *format, const rb_node *list, const char *token)
{
    const char *key, *value;
    size_t key_length, value_length;
    if (!word_selector(token, &key, &key_length, &value, &value_length) || key_length >= TOKEN_SIZE) return NULL;
    char name[TOKEN_SIZE];
    memcpy(name, key, key_length);
    name[key_length] = 0;
    const rb_node *found = NULL;
    for (size_t i = 0; i < list->v.kids.count; i++) {
        const rb_node *e = list->v.kids.items[i];
        rb_node kept;
        const rb_node *m = rb_node_get(e, name);
        if (e->kind == RB_K_DEFERRED) {
            if (!format->unit_member || !format->unit_member(list, e, name, &kept)) return NULL;
            m = &kept;
        }
        if (!m) continue;
        if (m->kind != RB_K_STRING) return NULL; /* compared as its wire type: rb_model_select's */
        if (m->v.bytes.size != value_length || memcmp(m->v.bytes.data, value, value_length) != 0) continue;
        if (found || e->kind == RB_K_DEFERRED) return NULL;
        found = e;
    }
    return found;
}

/* The scalar `path` leads to through nodes alone, or NULL. */
static const rb_node *walk_kept(const rb_doc *doc, const tokens *path)
{
    const rb_node *n = doc->root;
    for (size_t i = 0; n && i < path->count; i++) {
        const char *token = path->t[i];
        size_t index;
        if (n->kind == RB_K_LIST && token[0] == '[') n = select_kept(doc->format, n, token);
        else if (n->kind == RB_K_LIST && rb_pointer_index(token, strlen(token), &index) == 0)
            n = index < n->v.kids.count ? n->v.kids.items[index] : NULL;
        else if (n->kind == RB_K_RECORD) n = rb_node_get(n, token);
        else n = NULL;
        if (n && n->kind == RB_K_DEFERRED) n = NULL;
    }
    int scalar = n && (n->kind == RB_K_INT || n->kind == RB_K_FLOAT || n->kind == RB_K_BOOL);
    return scalar && n->section == 0 && n->src_size ? n : NULL; /* a value of the file's own bytes */
}

/* Test runs compare the ways (tests/patch/kept_apply.sh): REBYTE_APPLY_EXPAND=1 expands always;
 * =retry keeps the units and then takes no write as proven, so apply runs again expanded. */
static const char *expand_setting(void)
{
    const char *v = getenv("REBYTE_APPLY_EXPAND");
    return v && *v && strcmp(v, "0") != 0 ? v : NULL;
}

static int expansion_forced(void) { return expand_setting() && strcmp(expand_setting(), "retry") != 0; }

static int retry_forced(void) { return expand_setting() && !strcmp(expand_setting(), "retry"); }

static int rules_untouched(const rb_format *format, const tokens *path)
{
    size_t count = 0;
    const rb_rule *rules = format->rules ? format->rules(&count) : NULL;
    for (size_t i = 0; i < count; i++)
        if (!rules[i].reads.values || meets_any(path, rules[i].reads.values)) return 0;
    return 1;
}

static int is_test(const json_t *op) { return !strcmp(json_string_value(json_object_get(op, "op")), "test"); }

/* What a plain operation (apply_deferred.c) alone says: a test (which changes nothing, so it may
 * read what units and rules read), or a replace by a number or a boolean of a value no unit's read
 * and no rule takes. */
static int kept_operation(const json_t *op, const void *context)
{
    const rb_format *format = context;
    const json_t *value = json_object_get(op, "value");
    tokens path;
    if (!split(json_string_value(json_object_get(op, "path")), &path)) return 0;
    if (is_test(op)) return 1;
    return (json_is_number(value) || json_is_boolean(value)) && !meets_any(&path, format->unit_reads) &&
           rules_untouched(format, &path);
}

int apply_kept_wanted(const apply_request *rq, const rb_format *format)
{
    if (!format || !format->unit_reads || expansion_forced()) return 0;
    for (size_t p = 0; p < rq->count; p++)
        if (rq->patches[p]->base) return 0; /* pins read values anywhere */
    size_t count = apply_deferred_candidate(rq, kept_operation, format);
    return count > 0 && count <= MAX_KEPT_EDITS;
}

int apply_kept_check(const apply_request *rq, const rb_doc *doc, apply_kept *kept)
{
    kept->count = 0;
    if (!doc->deferred_units) return 0;
    for (size_t p = 0; p < rq->count; p++) {
        const json_t *ops = rq->patches[p]->ops;
        for (size_t i = 0; i < json_array_size(ops); i++) {
            tokens path;
            const json_t *op = json_array_get(ops, i);
            const rb_node *n = split(json_string_value(json_object_get(op, "path")), &path) ? walk_kept(doc, &path) : NULL;
            if (!n || kept->count == APPLY_KEPT_MAX) return 0;
            if (is_test(op)) continue;
            kept->at[kept->count] = n->src_offset;
            kept->size[kept->count++] = n->src_size;
        }
    }
    return 1;
}

static int by_offset(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

int apply_kept_same_bytes(const apply_kept *kept, const uint8_t *original, size_t original_size,
                          const uint8_t *written, size_t written_size)
{
    if (original_size != written_size || retry_forced()) return 0;
    uint64_t ranges[APPLY_KEPT_MAX];
    for (size_t i = 0; i < kept->count; i++) ranges[i] = (uint64_t)kept->at[i] << 32 | kept->size[i];
    qsort(ranges, kept->count, sizeof ranges[0], by_offset);
    size_t from = 0;
    for (size_t i = 0; i <= kept->count; i++) {
        size_t to = i < kept->count ? (size_t)(ranges[i] >> 32) : original_size;
        if (to > original_size) return 0;
        if (to > from && memcmp(original + from, written + from, to - from) != 0) return 0;
        size_t end = i < kept->count ? to + (uint32_t)ranges[i] : original_size;
        if (end > from) from = end;
    }
    return 1;
}
