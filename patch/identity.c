/*
 * Natural keys of list elements, read on the model.
 *
 * A chunk is known by its id, a block by its name and coordinates, an item by its model and
 * position, a named thing by its name, a string by its text (see
 * docs/usage.md "Portable patches: identity, fingerprints, stacking").
 * The generic key sets are here; each format declares its own (rb_format.identity_keys) and its
 * rank places it among them. `diff` matches two lists by these keys, and `diff --by-identity`
 * names elements by them ("[id=0x0304301F]"), spelled as the dump shows the values: a float in
 * the shortest form that reads back to the stored value (docs/usage.md "Diffs").
 * Only the key members of an element are rendered, never the element.
 */
#include "patch/identity.h"
#include "core/hash64.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "core/json/json.h"
#include "core/model/model_equal.h"
#include "core/registry/registry.h"

/* ---------- the key sets ---------- */

static const rb_key_set GENERIC_KEY_SETS[] = {
    {0, {"id", NULL}},    /* chunks (GBX, data.win, streamer) */
    {50, {"name", NULL}}, /* named things (sprites, instances, ...) */
    {100, {"", NULL}},    /* strings and numbers in lists */
};

enum { MAX_KEY_SETS = 64 };
static const char *const *KEY_SETS[MAX_KEY_SETS];
static size_t key_set_count;
static pthread_once_t key_sets_once = PTHREAD_ONCE_INIT;

static void add_key_sets(const rb_key_set *sets, size_t count, int *ranks)
{
    for (size_t i = 0; i < count && key_set_count < MAX_KEY_SETS; i++) {
        size_t at = key_set_count++;
        while (at > 0 && ranks[at - 1] > sets[i].rank) { /* stable: equal ranks keep registry order */
            KEY_SETS[at] = KEY_SETS[at - 1];
            ranks[at] = ranks[at - 1];
            at--;
        }
        KEY_SETS[at] = sets[i].keys;
        ranks[at] = sets[i].rank;
    }
}

static void gather_key_sets(void)
{
    int ranks[MAX_KEY_SETS];
    add_key_sets(GENERIC_KEY_SETS, sizeof GENERIC_KEY_SETS / sizeof GENERIC_KEY_SETS[0], ranks);
    size_t n = 0;
    const rb_format *const *formats = rb_formats(&n);
    for (size_t f = 0; f < n; f++) add_key_sets(formats[f]->identity_keys, formats[f]->identity_key_count, ranks);
}

static size_t key_sets(void)
{
    pthread_once(&key_sets_once, gather_key_sets);
    return key_set_count;
}

const char *const *rb_identity_key_set(size_t index)
{
    return index < key_sets() ? KEY_SETS[index] : NULL;
}

/* ---------- members and values ---------- */

static int list_like(const rb_node *n) { return n->kind == RB_K_LIST || n->kind == RB_K_TABLE; }
static int object_like(const rb_node *n)
{
    return n->kind == RB_K_RECORD || n->kind == RB_K_PACKED || n->kind == RB_K_STREAM;
}

const rb_node *rb_identity_walk(const rb_node *n, const char *pointer, rb_record_scratch *scratch)
{
    const char *p = pointer;
    for (int depth = 0; n && *p == '/'; depth++) {
        if (depth == RB_IDENTITY_DEPTH) return NULL;
        p++;
        size_t len = strcspn(p, "/");
        char token[128];
        if (len >= sizeof token) return NULL;
        memcpy(token, p, len);
        token[len] = 0;
        p += len;
        if (list_like(n)) {
            char *end;
            unsigned long i = strtoul(token, &end, 10);
            if (!*token || *end || i >= rb_element_count(n)) return NULL;
            n = n->kind == RB_K_TABLE ? rb_table_element(n, i, scratch[depth].nodes, scratch[depth].kids)
                                      : n->v.kids.items[i];
        } else if (object_like(n)) {
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

json_t *rb_value_json(const rb_doc *doc, const rb_node *n)
{
    json_t *j = rb_model_to_json(doc, n, RB_BLOBS_BASE64);
    rb_json_strip_streams(j);
    return j;
}

json_t *rb_content_json(const rb_doc *doc, const rb_node *n)
{
    json_t *j = rb_model_to_json(doc, n, RB_BLOBS_BASE64);
    json_t *wrapped = json_pack("[o]", j); /* a top-level id collapses too */
    rb_json_strip_storage(wrapped);
    json_t *inner = json_incref(json_array_get(wrapped, 0));
    json_decref(wrapped);
    return inner;
}

static void put_escaped(rb_buf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        const char *esc = c == '~' ? "~0" : c == '/' ? "~1" : c == ',' ? "~2" : c == ']' ? "~3" : NULL;
        if (esc) rb_buf_put(out, esc, 2);
        else rb_buf_put_u8(out, (uint8_t)c);
    }
}

/* A key value as a selector spells it: strings raw with ~ / , ] escaped; reals in the dump's
 * shortest spelling (core/json/json.c rb_format_f64: the real the model renders for an f32 is the
 * double of its shortest decimal, so this is that decimal); others in compact JSON. */
static void spell_value(rb_buf *out, const json_t *v)
{
    char number[40];
    char *text = NULL;
    const char *s;
    if (json_is_string(v)) {
        s = json_string_value(v);
    } else if (json_is_real(v)) {
        double d = json_real_value(v);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        rb_format_f64(bits, number, sizeof number);
        s = number;
    } else {
        s = text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    }
    put_escaped(out, s ? s : "", s ? strlen(s) : 0);
    free(text);
}

/* The common key values spelled straight from the node, as spell_value spells their JSON
 * (core/json/json.c rb_model_to_json): numbers, floats, ids, text. 0 for the others (and symbol
 * handles, which show as their text), which go through the JSON. Keys are read for every
 * element of a list, so this is what a diff's keys cost. */
static int spell_node(rb_buf *out, const rb_node *n)
{
    char text[48];
    if (n->kind == RB_K_FLOAT) {
        if ((n->wire & RB_W_WIDTH) == 4) rb_format_f32((uint32_t)n->v.bits, text, sizeof text);
        else rb_format_f64(n->v.bits, text, sizeof text);
    } else if (n->kind == RB_K_INT && !(n->wire & RB_W_CHAR)) {
        if (n->wire & RB_W_HEX) snprintf(text, sizeof text, "0x%0*llX", (int)(n->wire & RB_W_WIDTH) * 2, (unsigned long long)n->v.bits);
        else if (n->wire & RB_W_SIGNED) snprintf(text, sizeof text, "%lld", (long long)rb_node_int(n));
        else snprintf(text, sizeof text, "%llu", (unsigned long long)n->v.bits);
    } else if (n->kind == RB_K_ID && n->wire != RB_ID_STRING) {
        if (n->wire == RB_ID_EMPTY) snprintf(text, sizeof text, "null");
        else snprintf(text, sizeof text, "%llu", (unsigned long long)n->v.bits);
    } else if ((n->kind == RB_K_ID || n->kind == RB_K_STRING) && n->v.bytes.size &&
               !memchr(n->v.bytes.data, 0, n->v.bytes.size)) {
        json_t *valid = json_stringn((const char *)n->v.bytes.data, n->v.bytes.size); /* UTF-8, else $hex */
        if (!valid) return 0;
        json_decref(valid);
        put_escaped(out, (const char *)n->v.bytes.data, n->v.bytes.size);
        return 1;
    } else {
        return 0;
    }
    put_escaped(out, text, strlen(text));
    return 1;
}

/* "[k=v,...]" of `element` under `keys`, or NULL when it lacks one (malloc'd). */
/* The value of `element` a key names ("" the element itself, when it is a value), or NULL. */
static const rb_node *key_member(const rb_node *element, const char *key, rb_record_scratch *scratch)
{
    if (!*key) return list_like(element) || object_like(element) ? NULL : element;
    char pointer[256];
    snprintf(pointer, sizeof pointer, "/%s", key);
    return object_like(element) ? rb_identity_walk(element, pointer, scratch) : NULL;
}

static char *element_token(const rb_doc *doc, const rb_node *element, const char *const *keys)
{
    rb_buf out;
    rb_buf_init(&out);
    rb_buf_put_u8(&out, '[');
    for (int k = 0; keys[k]; k++) {
        rb_record_scratch scratch[RB_IDENTITY_DEPTH];
        const rb_node *member = key_member(element, keys[k], scratch);
        if (!member || list_like(member) || object_like(member)) {
            rb_buf_free(&out);
            return NULL;
        }
        if (k) rb_buf_put_u8(&out, ',');
        rb_buf_put(&out, keys[k], strlen(keys[k]));
        rb_buf_put_u8(&out, '=');
        if (spell_node(&out, member)) continue;
        json_t *v = rb_content_json(doc, member);
        if (!v || json_is_object(v) || json_is_array(v)) {
            json_decref(v);
            rb_buf_free(&out);
            return NULL;
        }
        spell_value(&out, v);
        json_decref(v);
    }
    rb_buf_put(&out, "]", 2);
    return (char *)out.data;
}

/* The key values of `element` under `keys` as a hash, read from the nodes without spelling
 * them: 0 when it lacks one. Equal tokens give equal hashes (a number is hashed by its value
 * whatever its base; what spell_node does not spell is spelled and hashed as text), so an
 * element whose hash no other element shares has a token no other element shares: this is
 * what ranking a whole list costs, instead of spelling every float of it. */
static int element_key_hash(const rb_doc *doc, const rb_node *element, const char *const *keys, uint64_t *hash)
{
    uint64_t h = 0x6b657973ULL;
    for (int k = 0; keys[k]; k++) {
        rb_record_scratch scratch[RB_IDENTITY_DEPTH];
        const rb_node *member = key_member(element, keys[k], scratch);
        if (!member || list_like(member) || object_like(member)) return 0;
        uint64_t v;
        if (member->kind == RB_K_FLOAT) {
            v = rb_mix64(member->v.bits ^ ((uint64_t)(member->wire & RB_W_WIDTH) << 59));
        } else if (member->kind == RB_K_INT && !(member->wire & RB_W_CHAR)) {
            v = rb_mix64((uint64_t)((member->wire & RB_W_SIGNED) ? (uint64_t)rb_node_int(member) : member->v.bits) ^ 0x1ULL);
        } else if (member->kind == RB_K_ID && member->wire != RB_ID_STRING) {
            v = rb_mix64(member->wire == RB_ID_EMPTY ? 0x2ULL : member->v.bits ^ 0x3ULL);
        } else if ((member->kind == RB_K_ID || member->kind == RB_K_STRING) && member->v.bytes.size) {
            v = rb_hash_bytes(member->v.bytes.data, member->v.bytes.size);
        } else { /* symbol handles (their text), booleans, empty texts: as spelled */
            json_t *j = rb_content_json(doc, member);
            if (!j || json_is_object(j) || json_is_array(j)) {
                json_decref(j);
                return 0;
            }
            rb_buf text;
            rb_buf_init(&text);
            spell_value(&text, j);
            json_decref(j);
            v = rb_hash_bytes(text.data, text.size);
            rb_buf_free(&text);
        }
        h = rb_mix64(h * 31 + v);
    }
    *hash = h;
    return 1;
}

/* ---------- the keys of one list ---------- */

enum { TOKEN_UNKNOWN = 0, TOKEN_ABSENT, TOKEN_PRESENT };

typedef struct key_column {
    char **tokens;
    unsigned char *state;  /* TOKEN_* per element */
    uint64_t *hashes;      /* element_key_hash per element, ... */
    unsigned char *hashed; /* ... known when TOKEN_PRESENT or TOKEN_ABSENT here */
    unsigned char *unique; /* per element, once `ranked` */
    int ranked;
} key_column;

struct rb_list_keys {
    const rb_doc *doc;
    const rb_node *list;
    size_t count;
    key_column columns[MAX_KEY_SETS];
};

rb_list_keys *rb_list_keys_new(const rb_doc *doc, const rb_node *list)
{
    rb_list_keys *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    k->doc = doc;
    k->list = list;
    k->count = rb_element_count(list);
    return k;
}

void rb_list_keys_free(rb_list_keys *keys)
{
    if (!keys) return;
    for (size_t s = 0; s < MAX_KEY_SETS; s++) {
        key_column *c = &keys->columns[s];
        for (size_t i = 0; c->tokens && i < keys->count; i++) free(c->tokens[i]);
        free(c->tokens);
        free(c->state);
        free(c->hashes);
        free(c->hashed);
        free(c->unique);
    }
    free(keys);
}

/* The token of element `index` under key set `set` (NULL when it lacks a key): "[k=v,...]", as
 * a selector names it. Owned by `keys`. */
static const char *rb_list_keys_token(rb_list_keys *keys, size_t set, size_t index)
{
    if (set >= key_sets() || index >= keys->count) return NULL;
    key_column *c = &keys->columns[set];
    if (!c->tokens) {
        c->tokens = calloc(keys->count + 1, sizeof(char *));
        c->state = calloc(keys->count + 1, 1);
        if (!c->tokens || !c->state) {
            free(c->tokens);
            free(c->state);
            c->tokens = NULL;
            c->state = NULL;
            return NULL;
        }
    }
    if (c->state[index] == TOKEN_UNKNOWN) {
        rb_record_scratch scratch;
        const rb_node *element = keys->list->kind == RB_K_TABLE
                                     ? rb_table_element(keys->list, index, scratch.nodes, scratch.kids)
                                     : keys->list->v.kids.items[index];
        c->tokens[index] = element_token(keys->doc, element, KEY_SETS[set]);
        c->state[index] = c->tokens[index] ? TOKEN_PRESENT : TOKEN_ABSENT;
    }
    return c->tokens[index];
}

static int compare_hashes(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

int rb_list_keys_hash(rb_list_keys *keys, size_t set, size_t index, uint64_t *hash)
{
    if (set >= key_sets() || index >= keys->count) return 0;
    key_column *c = &keys->columns[set];
    if (!c->hashes) {
        c->hashes = calloc(keys->count + 1, sizeof *c->hashes);
        c->hashed = calloc(keys->count + 1, 1);
        if (!c->hashes || !c->hashed) {
            free(c->hashes);
            free(c->hashed);
            c->hashes = NULL;
            c->hashed = NULL;
            return 0;
        }
    }
    if (c->hashed[index] == TOKEN_UNKNOWN) {
        rb_record_scratch scratch;
        const rb_node *element = keys->list->kind == RB_K_TABLE
                                     ? rb_table_element(keys->list, index, scratch.nodes, scratch.kids)
                                     : keys->list->v.kids.items[index];
        c->hashed[index] = element_key_hash(keys->doc, element, KEY_SETS[set], &c->hashes[index]) ? TOKEN_PRESENT
                                                                                                  : TOKEN_ABSENT;
    }
    *hash = c->hashes[index];
    return c->hashed[index] == TOKEN_PRESENT;
}

/* Which elements' keys under `set` no other element shares: their hashes (element_key_hash)
 * sorted, n log n; an element is unique when its hash is. */
static int rank_column(rb_list_keys *keys, size_t set)
{
    key_column *c = &keys->columns[set];
    if (c->ranked) return c->unique != NULL;
    c->ranked = 1;
    uint64_t *sorted = malloc((keys->count + 1) * sizeof *sorted), h;
    c->unique = calloc(keys->count + 1, 1);
    if (!sorted || !c->unique) {
        free(sorted);
        free(c->unique);
        c->unique = NULL;
        return 0;
    }
    size_t m = 0;
    for (size_t i = 0; i < keys->count; i++)
        if (rb_list_keys_hash(keys, set, i, &h)) sorted[m++] = h;
    qsort(sorted, m, sizeof *sorted, compare_hashes);
    for (size_t i = 0; i < keys->count; i++) {
        if (!rb_list_keys_hash(keys, set, i, &h)) continue;
        /* equal hashes sit together: find this one's run */
        uint64_t *hit = bsearch(&h, sorted, m, sizeof *sorted, compare_hashes);
        size_t at = (size_t)(hit - sorted);
        c->unique[i] = !((at > 0 && sorted[at - 1] == h) || (at + 1 < m && sorted[at + 1] == h));
    }
    free(sorted);
    return 1;
}

int rb_list_keys_unique(rb_list_keys *keys, size_t set, size_t index)
{
    uint64_t h;
    return rb_list_keys_hash(keys, set, index, &h) && rank_column(keys, set) && keys->columns[set].unique[index];
}

const char *rb_list_keys_selector(rb_list_keys *keys, size_t index)
{
    for (size_t s = 0; s < key_sets(); s++)
        if (rb_list_keys_unique(keys, s, index)) return rb_list_keys_token(keys, s, index);
    return NULL;
}

int rb_identity_share_key_member(const rb_node *x, const rb_node *y, size_t set)
{
    if (set >= key_sets()) return 0;
    for (int k = 0; KEY_SETS[set][k]; k++) {
        rb_record_scratch sx[RB_IDENTITY_DEPTH], sy[RB_IDENTITY_DEPTH];
        const rb_node *mx = key_member(x, KEY_SETS[set][k], sx), *my = key_member(y, KEY_SETS[set][k], sy);
        if (mx && my && rb_model_same(mx, my)) return 1;
    }
    return 0;
}
