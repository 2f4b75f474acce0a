/*
 * A new text for a STRG string reaches the game (docs/formats/datawin.md
 * "Links: how a pointer is spelled in the model", its item "Changing a string's text"). The
 * model names every string by its text where it is used (datawin_strg.c), so a `replace` of
 * /chunks/<STRG>/strings/<k> alone would change a slot nothing names: the references would still
 * name the old text and the writer would append it again. This hook gives the operations that
 * make every reference to the slot follow — string operands of the bytecode, resource and layer
 * names, the game's names in GEN8, references inside opaque chunks — or refuses the replace,
 * naming the references that cannot follow: a text that is also a variable's, a function's or a
 * code entry's name (identifiers the runner looks up by name, not shown text), and a text STRG
 * holds twice (a reference then names a copy by its occurrence).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/doc_state.h"
#include "core/datawin/datawin.h"

/* How many references a refusal names before "and N more". */
enum { NAMED_IN_REFUSAL = 4 };

typedef struct text { const uint8_t *data; size_t size; } text;

/* The model's nodes seen through a small tree interface (kind, text, members, elements), so the
 * walks below read as the format's structure rather than node plumbing. */
enum { TREE_OTHER, TREE_RECORD, TREE_LIST, TREE_STRING };
typedef void (*member_visit)(void *context, const char *key, const void *member);
typedef struct tree {
    int (*kind)(const void *n);
    text (*string)(const void *n);
    const void *(*member)(const void *n, const char *key);
    size_t (*count)(const void *n);                  /* a list's elements */
    const void *(*element)(const void *n, size_t i); /* a list's element */
    void (*each_member)(const void *n, member_visit visit, void *context);
} tree;

static int node_kind(const void *p)
{
    const rb_node *n = p;
    return n->kind == RB_K_RECORD ? TREE_RECORD : n->kind == RB_K_LIST ? TREE_LIST : n->kind == RB_K_STRING ? TREE_STRING : TREE_OTHER;
}
static text node_string(const void *p) { const rb_node *n = p; return (text){n->v.bytes.data, n->v.bytes.size}; }
static const void *node_member(const void *p, const char *key) { return rb_node_get(p, key); }
static size_t node_count(const void *p) { return ((const rb_node *)p)->v.kids.count; }
static const void *node_element(const void *p, size_t i) { return ((const rb_node *)p)->v.kids.items[i]; }
static void node_each_member(const void *p, member_visit visit, void *context)
{
    const rb_node *n = p;
    for (uint32_t i = 0; i < n->v.kids.count; i++) visit(context, n->v.kids.items[i]->key, n->v.kids.items[i]);
}
static const tree NODE_TREE = {node_kind, node_string, node_member, node_count, node_element, node_each_member};


typedef struct follow_walk {
    const tree *t;
    text old_text;
    char path[2048];
    json_t *paths;       /* references that follow */
    json_t *identifiers; /* references that are names the runner looks up */
    int overflow;        /* a path longer than `path`: refused rather than cut */
    int in_identifiers;  /* the walk is inside VARI, FUNC or a code entry's name */
} follow_walk;

static int same_text(text a, text b) { return a.size == b.size && (a.size == 0 || memcmp(a.data, b.data, a.size) == 0); }

static int is_string(const tree *t, const void *n, text want) { return n && t->kind(n) == TREE_STRING && same_text(t->string(n), want); }

static int chunk_is(const tree *t, const void *chunk, const char *id)
{
    return is_string(t, t->member(chunk, "id"), (text){(const uint8_t *)id, 4});
}

/* The path with one more token (RFC 6901: "~" and "/" escaped); its old length, or -1. */
static long push_token(follow_walk *w, const char *key, size_t index)
{
    size_t at = strlen(w->path), o = at;
    char number[24];
    if (!key) snprintf(number, sizeof number, "%zu", index);
    if (o + 1 >= sizeof w->path) return w->overflow = 1, -1;
    w->path[o++] = '/';
    for (const char *k = key ? key : number; *k; k++) {
        if (o + 3 >= sizeof w->path) { w->path[at] = 0; return w->overflow = 1, -1; }
        if (*k == '~' || *k == '/') w->path[o++] = '~', w->path[o++] = *k == '~' ? '0' : '1';
        else w->path[o++] = *k;
    }
    w->path[o] = 0;
    return (long)at;
}

static void collect(follow_walk *w, const void *n);

static void collect_member(void *context, const char *key, const void *member)
{
    follow_walk *w = context;
    long was = w->overflow ? -1 : push_token(w, key, 0);
    if (was < 0) return;
    collect(w, member);
    w->path[was] = 0;
}

/* Every string below `n` with the old text (records and lists; tables hold no links). */
static void collect(follow_walk *w, const void *n)
{
    int kind = w->t->kind(n);
    if (kind == TREE_STRING && same_text(w->t->string(n), w->old_text))
        json_array_append_new(w->in_identifiers ? w->identifiers : w->paths, json_string(w->path));
    else if (kind == TREE_RECORD)
        w->t->each_member(n, collect_member, w);
    else if (kind == TREE_LIST)
        for (size_t i = 0; i < w->t->count(n) && !w->overflow; i++) {
            long was = push_token(w, NULL, i);
            if (was < 0) return;
            collect(w, w->t->element(n, i));
            w->path[was] = 0;
        }
}

/* A chunk's members but its "id"; inside CODE an entry's "name" and all of VARI and FUNC are
 * names the runner looks up. */
typedef struct chunk_walk { follow_walk *w; int names_only, code; } chunk_walk;

static void collect_code_entry_member(void *context, const char *key, const void *member)
{
    follow_walk *w = context;
    w->in_identifiers = strcmp(key, "name") == 0;
    collect_member(w, key, member);
    w->in_identifiers = 0;
}

static void collect_chunk_member(void *context, const char *key, const void *member)
{
    chunk_walk *c = context;
    follow_walk *w = c->w;
    if (strcmp(key, "id") == 0 || w->overflow) return; /* the chunk's own four letters */
    long was = push_token(w, key, 0);
    if (was < 0) return;
    if (c->code && strcmp(key, "entries") == 0 && w->t->kind(member) == TREE_LIST) {
        for (size_t e = 0; e < w->t->count(member) && !w->overflow; e++) {
            const void *entry = w->t->element(member, e);
            long entry_was = push_token(w, NULL, e);
            if (entry_was < 0) break;
            if (w->t->kind(entry) == TREE_RECORD) w->t->each_member(entry, collect_code_entry_member, w);
            w->path[entry_was] = 0;
        }
    } else {
        w->in_identifiers = c->names_only;
        collect(w, member);
        w->in_identifiers = 0;
    }
    w->path[was] = 0;
}

static void collect_chunk(follow_walk *w, const void *chunk)
{
    chunk_walk c = {w, chunk_is(w->t, chunk, "VARI") || chunk_is(w->t, chunk, "FUNC"), chunk_is(w->t, chunk, "CODE")};
    w->t->each_member(chunk, collect_chunk_member, &c);
}

/* "/a, /b, /c and 3 more" from the first paths of `list`. */
static void name_paths(const json_t *list, char *out, size_t size)
{
    size_t n = json_array_size(list), o = 0;
    out[0] = 0;
    for (size_t i = 0; i < n && i < NAMED_IN_REFUSAL && o + 1 < size; i++)
        o += (size_t)snprintf(out + o, size - o, "%s%s", i ? ", " : "", json_string_value(json_array_get(list, i)));
    if (n > NAMED_IN_REFUSAL && o + 1 < size) snprintf(out + o, size - o, " and %zu more", n - NAMED_IN_REFUSAL);
}

/* The string list of chunk `chunk_index` when it is STRG's, else NULL. */
static const void *strg_strings(const tree *t, const void *root, size_t chunk_index)
{
    const void *chunks = t->member(root, "chunks");
    if (!chunks || t->kind(chunks) != TREE_LIST || chunk_index >= t->count(chunks)) return NULL;
    const void *chunk = t->element(chunks, chunk_index);
    if (t->kind(chunk) != TREE_RECORD || !chunk_is(t, chunk, "STRG")) return NULL;
    const void *strings = t->member(chunk, "strings");
    return strings && t->kind(strings) == TREE_LIST ? strings : NULL;
}

/* Another string of the list with this text, or -1. */
static long other_with_text(const tree *t, const void *strings, size_t except, text want)
{
    for (size_t i = 0; i < t->count(strings); i++)
        if (i != except && is_string(t, t->element(strings, i), want)) return (long)i;
    return -1;
}

static json_t *refuse(char *why, size_t why_size, json_t *a, json_t *b, const char *format, ...)
    __attribute__((format(printf, 5, 6)));
static json_t *refuse(char *why, size_t why_size, json_t *a, json_t *b, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vsnprintf(why, why_size, format, ap);
    va_end(ap);
    json_decref(a);
    json_decref(b);
    return NULL;
}

json_t *datawin_string_followers(const rb_doc *doc, const char *kind, const char *path,
                            const json_t *value, char *why, size_t why_size)
{
    why[0] = 0;
    const tree *t = &NODE_TREE;
    const void *root = doc ? (const void *)doc->root : NULL;
    size_t chunk_index, string_index;
    int consumed = 0;
    if (!root || !kind || strcmp(kind, "replace") != 0 || !json_is_string(value) ||
        sscanf(path, "/chunks/%zu/strings/%zu%n", &chunk_index, &string_index, &consumed) != 2 || path[consumed])
        return NULL;
    const void *strings = strg_strings(t, root, chunk_index);
    if (!strings || string_index >= t->count(strings)) return NULL; /* the operation itself says why */
    const void *slot = t->element(strings, string_index);
    if (t->kind(slot) != TREE_STRING) return NULL;
    text old_text = t->string(slot);
    text new_text = {(const uint8_t *)json_string_value(value), json_string_length(value)};
    int shown_old = old_text.size > 80 ? 80 : (int)old_text.size, shown_new = new_text.size > 80 ? 80 : (int)new_text.size;
    if (same_text(old_text, new_text)) return NULL;
    long twin = other_with_text(t, strings, string_index, old_text);
    if (twin >= 0)
        return refuse(why, why_size, NULL, NULL,
                      "string %zu \"%.*s\" is also string %ld: a reference names one copy by its occurrence, and "
                      "changing one copy's text would move the others' occurrences; replace the references instead",
                      string_index, shown_old, (const char *)old_text.data, twin);
    twin = other_with_text(t, strings, string_index, new_text);
    if (twin >= 0)
        return refuse(why, why_size, NULL, NULL,
                      "STRG already has \"%.*s\" (string %ld): the references of string %zu would name that one; "
                      "replace the references themselves with it",
                      shown_new, (const char *)new_text.data, twin, string_index);
    follow_walk *w = calloc(1, sizeof *w);
    if (!w) return refuse(why, why_size, NULL, NULL, "out of memory");
    *w = (follow_walk){.t = t, .old_text = old_text, .paths = json_array(), .identifiers = json_array()};
    const void *chunks = t->member(root, "chunks");
    strcpy(w->path, "/chunks");
    for (size_t c = 0; c < t->count(chunks) && !w->overflow; c++) {
        const void *chunk = t->element(chunks, c);
        if (c == chunk_index || t->kind(chunk) != TREE_RECORD) continue;
        long was = push_token(w, NULL, c);
        if (was < 0) break;
        collect_chunk(w, chunk);
        w->path[was] = 0;
    }
    json_t *paths = w->paths, *identifiers = w->identifiers;
    int overflow = w->overflow;
    free(w);
    if (overflow) return refuse(why, why_size, paths, identifiers, "a reference's path is too long to name");
    if (json_array_size(identifiers)) {
        char named[600];
        name_paths(identifiers, named, sizeof named);
        return refuse(why, why_size, paths, identifiers,
                      "string %zu \"%.*s\" is also a name the runner looks up (%s): a new text would rename "
                      "that too; to change the text where it is shown, replace those references (a code entry's "
                      "stringOperands/<k>/string) instead",
                      string_index, shown_old, (const char *)old_text.data, named);
    }
    json_decref(identifiers);
    json_t *ops = json_array();
    for (size_t i = 0; i < json_array_size(paths); i++)
        json_array_append_new(ops, json_pack("{s:s,s:O,s:O}", "op", "replace", "path", json_array_get(paths, i), "value",
                                             value));
    json_decref(paths);
    if (!json_array_size(ops)) { json_decref(ops); return NULL; }
    return ops;
}
