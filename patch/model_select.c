/*
 * Selectors ("[key=value]", patch/selector.c) and "test" values matched on the model, the way
 * a person reads them in the dump (docs/usage.md "Paths and selectors").
 *
 * A member's value is compared by what its wire type holds: a float literal is parsed and
 * rounded to the field's width (f32 or f64) and compared as bits, so "1053.7823" names the f32
 * the dump spells 1053.7823 (jansson's own spelling, 1053.7823000000001, is not what anyone
 * sees); an id the format's eras store differently (rb_format.era_id: a TM 2003-2006 chunk id)
 * is compared in its current form; a string exactly; anything else by its dump spelling.
 *
 * A list is searched through an index built the first time a selector names one of its
 * elements: each element's member values, in that canonical form, hashed to the elements that
 * have them. Edits keep it in step (rb_model_select_edited): removing, inserting or changing an
 * element re-reads that element alone and shifts positions, so a patch of k operations naming
 * elements of a list of n renders each element once, plus a lookup and a pass over positions
 * per operation, instead of rendering every element for every operation.
 */
#define _GNU_SOURCE /* asprintf */
#include "core/hash64.h"
#include "patch/model_select.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/json/json.h"
#include "core/model/pointer.h"
#include "patch/portable.h"
#include "patch/selector.h"

static int is_list(const rb_node *n) { return n->kind == RB_K_LIST || n->kind == RB_K_TABLE; }
static int is_record(const rb_node *n)
{
    return n->kind == RB_K_RECORD || n->kind == RB_K_STREAM || n->kind == RB_K_PACKED;
}

rb_node *rb_model_member(const rb_node *record, const char *key, size_t length, size_t *index)
{
    for (size_t i = 0; i < record->v.kids.count; i++) {
        rb_node *c = record->v.kids.items[i];
        if (c->key && strlen(c->key) == length && memcmp(c->key, key, length) == 0) {
            if (index) *index = i;
            return c;
        }
    }
    return NULL;
}

rb_node *rb_model_walk(rb_node *n, const char *pointer, size_t length)
{
    rb_pointer_walk w;
    const char *raw;
    size_t raw_length;
    if (rb_pointer_walk_begin(&w, pointer, length, 0) != 0) return NULL;
    while (n && rb_pointer_next(&w, &raw, &raw_length) == 1) {
        char small[128], *token = raw_length < sizeof small ? small : malloc(raw_length + 1);
        size_t token_length, index;
        int decoded = token && rb_pointer_decode(raw, raw_length, token, &token_length) == 0;
        if (!decoded || !rb_table_expand(n)) n = NULL;
        else if (is_list(n)) n = rb_pointer_index(token, token_length, &index) == 0 && index < n->v.kids.count ? n->v.kids.items[index] : NULL;
        else if (is_record(n)) n = rb_model_member(n, token, token_length, NULL);
        else n = NULL;
        if (token != small) free(token);
    }
    return n;
}

/* ---------- canonical values ---------- */

/* How a member's value is compared; a selector's literal is read the same way. */
enum value_class { CLASS_F32, CLASS_F64, CLASS_ERA_ID, CLASS_STRING, CLASS_SPELLING, CLASS_COUNT };

static enum value_class class_of(const rb_doc *doc, const rb_node *m)
{
    uint64_t current;
    if (m->kind == RB_K_FLOAT) return (m->wire & RB_W_WIDTH) == 4 ? CLASS_F32 : CLASS_F64;
    if (m->kind == RB_K_INT && doc->format->era_id && doc->format->era_id(m, m->v.bits, &current)) return CLASS_ERA_ID;
    return CLASS_STRING; /* refined by the rendering: a string, or another value's spelling */
}

/* The canonical text of the members most selectors name, without rendering them: a plain
 * integer (its JSON spelling: neither a symbol, hex, a character nor above INT64_MAX, which
 * core/json/json.c spells as strings) and an ASCII string, appended to `out` with a NUL. 1 when done. */
static int plain_canonical(const rb_node *m, enum value_class *class, rb_buf *out)
{
    unsigned wire = m->wire;
    char text[48];
    if (m->kind == RB_K_INT && !RB_WIRE_IS_SYMBOL(wire) && !(wire & (RB_W_HEX | RB_W_CHAR))) {
        *class = wire & RB_W_SIGNED || m->v.bits <= (uint64_t)INT64_MAX ? CLASS_SPELLING : CLASS_STRING;
        if (wire & RB_W_SIGNED) snprintf(text, sizeof text, "%d:%" PRId64, (int)*class, rb_node_int(m));
        else snprintf(text, sizeof text, "%d:%" PRIu64, (int)*class, m->v.bits);
        rb_buf_put(out, text, strlen(text) + 1);
        return 1;
    }
    if (m->kind != RB_K_STRING) return 0;
    for (size_t i = 0; i < m->v.bytes.size; i++)
        if (m->v.bytes.data[i] < 0x20 || m->v.bytes.data[i] >= 0x7f) return 0;
    *class = CLASS_STRING;
    snprintf(text, sizeof text, "%d:", (int)CLASS_STRING);
    rb_buf_put(out, text, strlen(text));
    rb_buf_put(out, m->v.bytes.data, m->v.bytes.size);
    rb_buf_put_u8(out, 0);
    return 1;
}

/* The canonical text of member `m`, appended to `out` with a NUL; its class in *class. */
static void member_canonical(rb_doc *doc, const rb_node *m, enum value_class *class, rb_buf *out)
{
    char text[48];
    uint64_t current;
    *class = class_of(doc, m);
    if (*class == CLASS_F32 || *class == CLASS_F64 || *class == CLASS_ERA_ID) {
        if (*class == CLASS_ERA_ID) doc->format->era_id(m, m->v.bits, &current);
        snprintf(text, sizeof text, "%d:%" PRIx64, (int)*class, *class == CLASS_ERA_ID ? current : m->v.bits);
        rb_buf_put(out, text, strlen(text) + 1);
        return;
    }
    if (plain_canonical(m, class, out)) return;
    json_t *j = rb_model_to_json(doc, m, RB_BLOBS_REF);
    if (!json_is_string(j)) *class = CLASS_SPELLING;
    char *spelled = json_is_string(j) ? NULL : j ? rb_json_compact_text(j) : NULL;
    const char *value = json_is_string(j) ? json_string_value(j) : spelled ? spelled : "";
    snprintf(text, sizeof text, "%d:", (int)*class);
    rb_buf_put(out, text, strlen(text));
    rb_buf_put(out, value, strlen(value) + 1);
    if (!j || (!json_is_string(j) && !spelled)) out->failed = 1;
    free(spelled);
    json_decref(j);
}

/* rb_model_walk for reading: a packed record or table element on the way is viewed in scratch
 * (one per level) instead of turned into nodes for good, so indexing a list of packed blocks
 * costs no expansion. NULL when the pointer leads nowhere (or deeper than the scratch). */
enum { VIEW_LEVELS = 4 };
static const rb_node *walk_view(const rb_node *n, const char *pointer, rb_record_scratch *scratch)
{
    rb_pointer_walk w;
    const char *raw;
    size_t raw_length, level = 0;
    if (rb_pointer_walk_begin(&w, pointer, strlen(pointer), 0) != 0) return NULL;
    while (n && rb_pointer_next(&w, &raw, &raw_length) == 1) {
        char token[128];
        size_t length, index;
        if (raw_length >= sizeof token || rb_pointer_decode(raw, raw_length, token, &length) != 0) return NULL;
        if (n->kind == RB_K_PACKED) {
            if (level == VIEW_LEVELS) return NULL;
            n = rb_record_view(n, &scratch[level++]);
        }
        if (n->kind == RB_K_TABLE) {
            if (level == VIEW_LEVELS || rb_pointer_index(token, length, &index) != 0 || index >= rb_element_count(n))
                return NULL;
            n = rb_table_element(n, index, scratch[level].nodes, scratch[level].kids);
            level++;
        } else if (is_list(n)) {
            n = rb_pointer_index(token, length, &index) == 0 && index < n->v.kids.count ? n->v.kids.items[index] : NULL;
        } else if (is_record(n)) {
            n = rb_model_member(n, token, length, NULL);
        } else {
            n = NULL;
        }
    }
    return n;
}

/* A float literal rounded to `width` bytes, as bits; 0 when it is no number. */
static int literal_float(const char *literal, unsigned width, uint64_t *bits)
{
    char *end, why[96];
    double d = strtod(literal, &end);
    json_t *v = *literal && !*end ? json_real(d) : json_string(literal); /* "NaN", "-0.0", ... */
    int ok = v && rb_json_to_float_bits(v, width, bits, why, sizeof why);
    json_decref(v);
    return ok;
}

/* The literal's canonical text for members of `class` (malloc'd), NULL when it cannot be one
 * (a float member and a literal that is no number). `shape` is a member of that class. */
static char *literal_canonical(rb_doc *doc, const rb_node *shape, enum value_class class, const char *literal)
{
    char *text = NULL, *end;
    uint64_t bits;
    int ok = 1;
    if (class == CLASS_F32 || class == CLASS_F64) {
        ok = literal_float(literal, class == CLASS_F32 ? 4 : 8, &bits);
    } else if (class == CLASS_ERA_ID) {
        uint64_t v = strtoull(literal, &end, 0);
        ok = *literal && !*end && doc->format->era_id(shape, v, &bits);
    } else {
        ok = asprintf(&text, "%d:%s", (int)class, literal) >= 0;
        return ok ? text : NULL;
    }
    if (!ok || asprintf(&text, "%d:%" PRIx64, (int)class, bits) < 0) return NULL;
    return text;
}

/* ---------- the index of a list ---------- */

typedef struct condition {
    char *pointer; /* relative pointer into an element ("" for the element itself) */
    char *literal; /* the value, unescaped */
    unsigned classes; /* bit per value_class the list's elements have for it */
    rb_node shape[CLASS_COUNT]; /* a member of each class (era ids are recognised by it) */
} condition;

typedef struct entry {
    char *tuple; /* the canonical values, each followed by a NUL */
    size_t length;
    size_t first, count;
} entry;

typedef struct list_index {
    struct list_index *next;
    rb_node *list;
    char *list_path;
    char *keys; /* the conditions' pointers, each followed by a NUL */
    size_t keys_length;
    uint32_t element_count;
    entry **element_entry; /* each element's entry (NULL: it lacks a member), kept in step by edits */
    entry *slots;
    size_t slot_count; /* a power of two, at least twice the entries */
    condition *conditions;
    size_t condition_count;
    rb_buf tuple; /* an element's tuple while it is entered */
} list_index;

typedef struct select_state {
    list_index *lists;
} select_state;

static entry *slot_for(list_index *x, const char *tuple, size_t length)
{
    size_t mask = x->slot_count - 1;
    for (size_t i = rb_hash_bytes(tuple, length) & mask;; i = (i + 1) & mask) {
        entry *e = &x->slots[i];
        if (!e->tuple || (e->length == length && memcmp(e->tuple, tuple, length) == 0)) return e;
    }
}

static void conditions_free(condition *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(c[i].pointer);
        free(c[i].literal);
    }
    free(c);
}

static void index_free(list_index *x)
{
    for (size_t i = 0; i < x->slot_count; i++) free(x->slots[i].tuple);
    free(x->slots);
    free(x->element_entry);
    rb_buf_free(&x->tuple);
    free(x->list_path);
    free(x->keys);
    conditions_free(x->conditions, x->condition_count);
    free(x);
}

/* The conditions of a selector ("k=v,k2=v2", rb_selector_parse). NULL when a part is no
 * condition (then nothing matches) or out of memory. */
static condition *parse_conditions(const char *selector, size_t *count)
{
    rb_selector_condition *parsed;
    size_t n;
    if (rb_selector_parse(selector, &parsed, &n) != 0) return NULL;
    condition *c = calloc(n, sizeof(condition));
    for (size_t k = 0; c && k < n; k++) {
        c[k].pointer = parsed[k].pointer;
        c[k].literal = parsed[k].value;
        parsed[k].pointer = parsed[k].value = NULL;
    }
    rb_selector_conditions_free(parsed, n);
    if (c) *count = n;
    return c;
}

/* Element i's tuple in x->tuple (its canonical values, each with a NUL); 0 when the element
 * lacks a member (it matches nothing) or out of memory. */
static int element_tuple(rb_doc *doc, list_index *x, size_t i)
{
    rb_record_scratch scratch[VIEW_LEVELS];
    x->tuple.size = 0;
    for (size_t k = 0; k < x->condition_count; k++) {
        condition *c = &x->conditions[k];
        const rb_node *m = walk_view(x->list->v.kids.items[i], c->pointer, scratch);
        if (!m) return 0;
        enum value_class class;
        member_canonical(doc, m, &class, &x->tuple);
        if (!(c->classes & (1u << class))) c->shape[class] = *m;
        c->classes |= 1u << class;
    }
    return !x->tuple.failed;
}

/* Element i's tuple counted in its entry (a new one, or one it shares); the entry, NULL when
 * the element lacks a member. */
static entry *enter_element(rb_doc *doc, list_index *x, size_t i)
{
    if (!element_tuple(doc, x, i)) return NULL;
    size_t length = x->tuple.size;
    entry *e = slot_for(x, (const char *)x->tuple.data, length);
    if (e->tuple) {
        if (!e->count || i < e->first) e->first = i;
        e->count++;
    } else {
        char *tuple = malloc(length);
        if (!tuple) return NULL;
        memcpy(tuple, x->tuple.data, length);
        *e = (entry){tuple, length, i, 1};
    }
    return e;
}

static list_index *index_build(rb_doc *doc, rb_node *list, const char *list_path, condition *conditions, size_t count,
                               const char *keys, size_t keys_length)
{
    list_index *x = calloc(1, sizeof(*x));
    if (x) rb_buf_init(&x->tuple);
    if (!x) return NULL;
    x->list = list;
    x->element_count = list->v.kids.count;
    x->conditions = conditions;
    x->condition_count = count;
    x->list_path = strdup(list_path);
    x->keys = malloc(keys_length);
    for (x->slot_count = 16; x->slot_count < 2 * (size_t)x->element_count + 2; x->slot_count *= 2) {}
    x->slots = calloc(x->slot_count, sizeof(entry));
    x->element_entry = calloc((size_t)x->element_count + 1, sizeof(entry *));
    if (!x->list_path || !x->keys || !x->slots || !x->element_entry) { index_free(x); return NULL; }
    memcpy(x->keys, keys, keys_length);
    x->keys_length = keys_length;
    for (size_t i = 0; i < x->element_count; i++) x->element_entry[i] = enter_element(doc, x, i);
    return x;
}

static select_state *new_state(rb_doc *doc)
{
    select_state *st = calloc(1, sizeof(select_state));
    doc->select_index = st;
    if (st) doc->select_index_free = rb_model_select_free;
    return st;
}

/* The index of `list` under these keys: kept, or built now (conditions are taken over by it). */
static list_index *index_for(rb_doc *doc, rb_node *list, const char *list_path, condition *conditions, size_t count)
{
    rb_buf keys;
    rb_buf_init(&keys);
    for (size_t k = 0; k < count; k++) rb_buf_put(&keys, conditions[k].pointer, strlen(conditions[k].pointer) + 1);
    select_state *st = doc->select_index;
    list_index *found = NULL;
    for (list_index *x = st ? st->lists : NULL; x && !found; x = x->next)
        if (x->list == list && x->element_count == list->v.kids.count && x->keys_length == keys.size &&
            memcmp(x->keys, keys.data, keys.size) == 0 && strcmp(x->list_path, list_path) == 0)
            found = x;
    if (found) {
        for (size_t k = 0; k < count; k++) { /* the literals are this selector's */
            free(found->conditions[k].literal);
            found->conditions[k].literal = conditions[k].literal;
            conditions[k].literal = NULL;
        }
        conditions_free(conditions, count);
    } else if (!keys.failed && (st || (st = new_state(doc)))) {
        found = index_build(doc, list, list_path, conditions, count, (const char *)keys.data, keys.size);
        if (found) {
            found->next = st->lists;
            st->lists = found;
        }
    } else {
        conditions_free(conditions, count);
    }
    rb_buf_free(&keys);
    return found;
}

/* Matches of the literals, over every combination of the classes each condition's members have
 * (one in practice): adds to *matches, sets *first to the lowest matching element and, when
 * `found` is not NULL, adds each matching entry to it. */
static void lookup(rb_doc *doc, list_index *x, size_t k, rb_buf *tuple, size_t *matches, size_t *first, rb_buf *found)
{
    if (k == x->condition_count) {
        entry *e = slot_for(x, (const char *)tuple->data, tuple->size);
        if (e->tuple && e->count) {
            if (!*matches || e->first < *first) *first = e->first;
            *matches += e->count;
            if (found) rb_buf_put(found, &e, sizeof e);
        }
        return;
    }
    condition *c = &x->conditions[k];
    for (int class = 0; class < CLASS_COUNT; class++) {
        if (!(c->classes & (1u << class))) continue;
        char *text = literal_canonical(doc, &c->shape[class], (enum value_class)class, c->literal);
        if (!text) continue;
        size_t mark = tuple->size;
        rb_buf_put(tuple, text, strlen(text) + 1);
        free(text);
        if (!tuple->failed) lookup(doc, x, k + 1, tuple, matches, first, found);
        tuple->size = mark;
    }
}

/* For a selector on an era id that matches nothing: every spelling of it, for the message. */
static void era_hint(rb_doc *doc, const list_index *x, char *out, size_t size)
{
    out[0] = 0;
    for (size_t k = 0; k < x->condition_count && doc->format->era_spellings; k++) {
        const condition *c = &x->conditions[k];
        uint64_t current, others[8];
        char *end;
        uint64_t v = strtoull(c->literal, &end, 0);
        if (!(c->classes & (1u << CLASS_ERA_ID)) || *end || !doc->format->era_id(&c->shape[CLASS_ERA_ID], v, &current))
            continue;
        size_t n = doc->format->era_spellings(current, others, 8);
        size_t used = (size_t)snprintf(out, size, "; ids of every era match: 0x%08" PRIX64, current);
        for (size_t i = 0; i < n && used < size; i++)
            used += (size_t)snprintf(out + used, size - used, ", 0x%08" PRIX64, others[i]);
        return;
    }
}

/* The index of `list` for `selector` and the matches of its literals (see lookup). */
static list_index *select_matches(rb_doc *doc, rb_node *list, const char *list_path, const char *selector,
                                  size_t *matches, size_t *first, rb_buf *found)
{
    size_t count = 0;
    *matches = *first = 0;
    condition *conditions = parse_conditions(selector, &count);
    list_index *x = conditions ? index_for(doc, list, list_path, conditions, count) : NULL;
    if (x) {
        rb_buf tuple;
        rb_buf_init(&tuple);
        lookup(doc, x, 0, &tuple, matches, first, found);
        rb_buf_free(&tuple);
    }
    return x;
}

int rb_model_select(rb_doc *doc, rb_node *list, const char *list_path, const char *selector, const char *path,
                    size_t *index, char *why, size_t why_size)
{
    size_t matches, first;
    list_index *x = select_matches(doc, list, list_path, selector, &matches, &first, NULL);
    char hint[160] = "";
    if (x && !matches) era_hint(doc, x, hint, sizeof hint);
    if (matches == 1) {
        *index = first;
        return 0;
    }
    rb_selector_refuse(why, why_size, selector, list_path && *list_path ? list_path : path, matches, hint);
    return -1;
}

int rb_model_select_all(rb_doc *doc, rb_node *list, const char *list_path, const char *selector, size_t **indexes,
                        size_t *count, char *why, size_t why_size)
{
    size_t matches, first;
    rb_buf found;
    rb_buf_init(&found);
    list_index *x = select_matches(doc, list, list_path, selector, &matches, &first, &found);
    *count = 0;
    *indexes = malloc((matches ? matches : 1) * sizeof(size_t));
    int ok = *indexes && !found.failed;
    size_t entries = found.size / sizeof(entry *);
    for (size_t i = first; ok && x && matches && i < x->element_count && *count < matches; i++)
        for (size_t k = 0; k < entries; k++) {
            entry *e;
            memcpy(&e, found.data + k * sizeof e, sizeof e);
            if (x->element_entry[i] == e) { (*indexes)[(*count)++] = i; break; }
        }
    rb_buf_free(&found);
    if (!ok || *count != matches) {
        free(*indexes);
        *indexes = NULL;
        *count = 0;
        if (ok) snprintf(why, why_size, "selector [%s]: the list's index is out of step", selector);
        else snprintf(why, why_size, "out of memory");
        return -1;
    }
    return 0;
}

static int paths_overlap(const char *x, const char *y)
{
    size_t nx = strlen(x), ny = strlen(y), n = nx < ny ? nx : ny;
    return strncmp(x, y, n) == 0 && (nx == ny || (nx < ny ? y[nx] : x[ny]) == '/');
}

/* Element i no longer counts in its entry. */
static void leave_element(list_index *x, size_t i)
{
    entry *e = x->element_entry[i];
    x->element_entry[i] = NULL;
    if (!e || --e->count == 0 || e->first != i) return;
    for (size_t j = i + 1; j < x->element_count; j++) /* the entry's next element is its first now */
        if (x->element_entry[j] == e) { e->first = j; return; }
}

/* Positions from `at` on moved by `by` (+1: an element was inserted, -1: one removed). */
static void shift_firsts(list_index *x, size_t at, int by)
{
    for (size_t s = 0; s < x->slot_count; s++)
        if (x->slots[s].tuple && x->slots[s].count && x->slots[s].first >= at) x->slots[s].first += (size_t)(long)by;
}

/* Keeps index `x` in step with an edit of element i of its list (kind: 'r' removed, 'a' inserted,
 * else changed); 0, or -1 when it cannot (then it is dropped). */
static int follow_edit(rb_doc *doc, list_index *x, size_t i, int kind)
{
    rb_node *list = x->list;
    if (kind == 'r') {
        if (i >= x->element_count) return -1;
        leave_element(x, i);
        memmove(x->element_entry + i, x->element_entry + i + 1, (x->element_count - i - 1) * sizeof(entry *));
        x->element_count--;
        shift_firsts(x, i + 1, -1);
    } else if (kind == 'a') {
        entry **grown = realloc(x->element_entry, ((size_t)x->element_count + 2) * sizeof(entry *));
        if (!grown || i > x->element_count || 2 * ((size_t)x->element_count + 2) > x->slot_count) {
            if (grown) x->element_entry = grown;
            return -1;
        }
        x->element_entry = grown;
        memmove(grown + i + 1, grown + i, (x->element_count - i) * sizeof(entry *));
        grown[i] = NULL;
        x->element_count++;
        shift_firsts(x, i, +1);
        if (list->v.kids.count != x->element_count) return -1;
        x->element_entry[i] = enter_element(doc, x, i);
    } else {
        if (i >= x->element_count || list->v.kids.count != x->element_count) return -1;
        leave_element(x, i);
        x->element_entry[i] = enter_element(doc, x, i);
    }
    return list->v.kids.count == x->element_count ? 0 : -1;
}

/* Which element of x's list `plain_path` names, when it is below the list: 1 with *index and
 * *whole (the path is the element itself); 0 when the path is not below the list. */
static int element_of(const list_index *x, const char *plain_path, size_t *index, int *whole)
{
    size_t n = strlen(x->list_path);
    if (strncmp(plain_path, x->list_path, n) != 0 || plain_path[n] != '/') return 0;
    const char *token = plain_path + n + 1, *end = strchr(token, '/');
    size_t length = end ? (size_t)(end - token) : strlen(token);
    *whole = !end;
    if (length == 1 && token[0] == '-') {
        *index = x->element_count; /* appended: after the elements the index knows */
        return 1;
    }
    return rb_pointer_index(token, length, index) == 0;
}

void rb_model_select_edited(rb_doc *doc, const char *plain_path, int kind)
{
    select_state *st = doc->select_index;
    for (list_index **p = st ? &st->lists : NULL; p && *p;) {
        list_index *x = *p;
        size_t i;
        int whole, keep = !paths_overlap(x->list_path, plain_path);
        if (!keep && element_of(x, plain_path, &i, &whole))
            keep = follow_edit(doc, x, i, whole ? kind : 'p') == 0;
        if (keep) {
            p = &x->next;
        } else {
            *p = x->next;
            index_free(x);
        }
    }
}

void rb_model_select_free(rb_doc *doc)
{
    select_state *st = doc->select_index;
    if (!st) return;
    while (st->lists) {
        list_index *x = st->lists;
        st->lists = x->next;
        index_free(x);
    }
    free(st);
    doc->select_index = NULL;
}

/* ---------- values of "test" ---------- */

int rb_splice_of(const rb_node *blob, const json_t *value, rb_splice *splice, char *why, size_t why_size)
{
    const json_t *range = json_object_get(value, "$splice");
    memset(splice, 0, sizeof *splice);
    if (!range || json_object_size(value) != 1) return 0;
    const json_t *at = json_object_get(range, "at"), *size = json_object_get(range, "size");
    const char *text = json_string_value(json_object_get(range, "$base64"));
    size_t have = blob && (blob->kind == RB_K_BLOB || blob->kind == RB_K_OPAQUE) ? blob->v.bytes.size : 0;
    if (!blob || (blob->kind != RB_K_BLOB && blob->kind != RB_K_OPAQUE) || !json_is_integer(at) ||
        !json_is_integer(size) || !text || json_integer_value(at) < 0 || json_integer_value(size) < 0 ||
        (uint64_t)json_integer_value(at) > have || (uint64_t)json_integer_value(size) > have - (uint64_t)json_integer_value(at)) {
        snprintf(why, why_size, "a $splice (at, size, $base64) goes within a blob (here %s of %zu bytes)",
                 blob && (blob->kind == RB_K_BLOB || blob->kind == RB_K_OPAQUE) ? "one" : "not one", have);
        return -1;
    }
    size_t length = strlen(text);
    splice->at = (size_t)json_integer_value(at);
    splice->size = (size_t)json_integer_value(size);
    splice->bytes = malloc(length / 4 * 3 + 3);
    splice->length = splice->bytes ? rb_base64_decode(text, length, splice->bytes) : 0;
    if (!splice->bytes || (length && !splice->length)) {
        free(splice->bytes);
        splice->bytes = NULL;
        snprintf(why, why_size, "a $splice's $base64 is no base64");
        return -1;
    }
    return 1;
}

int rb_model_value_matches(rb_doc *doc, rb_node *node, const json_t *value)
{
    rb_splice range;
    char why[160];
    int splice = rb_splice_of(node, value, &range, why, sizeof why);
    if (splice) { /* a pinned byte range: the blob holds those bytes there */
        int same = splice > 0 && range.size == range.length &&
                   (!range.size || !memcmp(node->v.bytes.data + range.at, range.bytes, range.size));
        free(range.bytes);
        return same;
    }
    if (node->kind == RB_K_FLOAT) {
        uint64_t bits;
        char why[96];
        return rb_json_to_float_bits(value, node->wire & RB_W_WIDTH, &bits, why, sizeof why) && bits == node->v.bits;
    }
    if ((node->kind == RB_K_RECORD || node->kind == RB_K_PACKED) && json_is_object(value) && rb_table_expand(node)) {
        size_t plain = 0;
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)value, k, v) plain += k[0] != '$';
        int lined_up = plain == node->v.kids.count; /* else the content comparison says why not */
        for (size_t i = 0; i < node->v.kids.count && lined_up; i++) {
            rb_node *kid = node->v.kids.items[i];
            const json_t *member = kid->key ? json_object_get(value, kid->key) : NULL;
            if (!member || kid->key[0] == '$') lined_up = 0;
            else if (!rb_model_value_matches(doc, kid, member)) return 0;
        }
        if (lined_up) return 1;
    }
    if (is_list(node) && json_is_array(value) && rb_table_expand(node)) {
        if (json_array_size(value) != node->v.kids.count) return 0;
        for (size_t i = 0; i < node->v.kids.count; i++)
            if (!rb_model_value_matches(doc, node->v.kids.items[i], json_array_get(value, i))) return 0;
        return 1;
    }
    json_t *actual = rb_model_to_json(doc, node, RB_BLOBS_REF);
    int same = actual && rb_values_equal(actual, value);
    json_decref(actual);
    return same;
}
