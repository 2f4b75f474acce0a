/*
 * A new text for a STRG string reaches the game (docs/formats/gamemaker.md "Links: how a pointer
 * is spelled in the model", "Changing a string's text"). The model names every string by its text where it is used (gm_strg.c), so a
 * `replace` of /chunks/<STRG>/strings/<k> alone would change a slot nothing names: the references
 * would still name the old text and the writer would append it again. This hook gives the
 * operations that make every reference to the slot follow — string operands of the bytecode,
 * resource and layer names, the game's names in GEN8, references inside opaque chunks — or
 * refuses the replace, naming the references that cannot follow: a text that is also a variable's,
 * a function's or a code entry's name (identifiers the runner looks up by name, not shown text),
 * and a text STRG holds twice (a reference then names a copy by its occurrence).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../doc_state.h"
#include "gm.h"

/* How many references a refusal names before "and N more". */
enum { NAMED_IN_REFUSAL = 4 };

typedef struct text { const uint8_t *data; size_t size; } text;

typedef struct follow_walk {
    text old_text;
    char path[2048];
    json_t *paths;       /* references that follow */
    json_t *identifiers; /* references that are names the runner looks up */
    int overflow;        /* a path longer than `path`: refused rather than cut */
} follow_walk;

static int same(const rb_node *n, text t)
{
    return n->kind == RB_K_STRING && n->v.bytes.size == t.size && (t.size == 0 || memcmp(n->v.bytes.data, t.data, t.size) == 0);
}

static int chunk_is(const rb_node *chunk, const char *id)
{
    const rb_node *n = rb_node_get(chunk, "id");
    return n && n->kind == RB_K_STRING && n->v.bytes.size == 4 && memcmp(n->v.bytes.data, id, 4) == 0;
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

/* Every string node below `n` with the old text (records and lists; tables hold no links). */
static void collect(follow_walk *w, const rb_node *n, int identifiers)
{
    if (same(n, w->old_text)) {
        json_array_append_new(identifiers ? w->identifiers : w->paths, json_string(w->path));
        return;
    }
    if (n->kind != RB_K_RECORD && n->kind != RB_K_LIST) return;
    for (uint32_t i = 0; i < n->v.kids.count && !w->overflow; i++) {
        const rb_node *kid = n->v.kids.items[i];
        long was = push_token(w, n->kind == RB_K_RECORD ? kid->key : NULL, i);
        if (was < 0) return;
        collect(w, kid, identifiers);
        w->path[was] = 0;
    }
}

/* A code entry's name: /chunks/<CODE>/entries/<i>/name. */
static int is_code_entry_name(const rb_node *entry, const rb_node *member)
{
    return entry->kind == RB_K_RECORD && member->key && strcmp(member->key, "name") == 0;
}

static void collect_chunk(follow_walk *w, const rb_node *chunk)
{
    int names_only = chunk_is(chunk, "VARI") || chunk_is(chunk, "FUNC");
    int code = chunk_is(chunk, "CODE");
    for (uint32_t i = 0; i < chunk->v.kids.count && !w->overflow; i++) {
        const rb_node *member = chunk->v.kids.items[i];
        if (!member->key || strcmp(member->key, "id") == 0) continue; /* the chunk's own four letters */
        long was = push_token(w, member->key, 0);
        if (was < 0) return;
        if (code && strcmp(member->key, "entries") == 0 && member->kind == RB_K_LIST) {
            for (uint32_t e = 0; e < member->v.kids.count && !w->overflow; e++) {
                const rb_node *entry = member->v.kids.items[e];
                long entry_was = push_token(w, NULL, e);
                for (uint32_t k = 0; entry_was >= 0 && entry->kind == RB_K_RECORD && k < entry->v.kids.count; k++) {
                    const rb_node *field = entry->v.kids.items[k];
                    long field_was = push_token(w, field->key, 0);
                    if (field_was < 0) break;
                    collect(w, field, is_code_entry_name(entry, field));
                    w->path[field_was] = 0;
                }
                if (entry_was >= 0) w->path[entry_was] = 0;
            }
        } else {
            collect(w, member, names_only);
        }
        w->path[was] = 0;
    }
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
static const rb_node *strg_strings(const rb_doc *doc, size_t chunk_index)
{
    const rb_node *chunks = rb_node_get(doc->root, "chunks");
    if (!chunks || chunks->kind != RB_K_LIST || chunk_index >= chunks->v.kids.count) return NULL;
    const rb_node *chunk = chunks->v.kids.items[chunk_index];
    if (chunk->kind != RB_K_RECORD || !chunk_is(chunk, "STRG")) return NULL;
    const rb_node *strings = rb_node_get(chunk, "strings");
    return strings && strings->kind == RB_K_LIST ? strings : NULL;
}

/* Another string of the list with this text, or -1. */
static long other_with_text(const rb_node *strings, size_t except, text t)
{
    for (uint32_t i = 0; i < strings->v.kids.count; i++)
        if (i != except && same(strings->v.kids.items[i], t)) return (long)i;
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

json_t *gm_string_followers(const rb_doc *doc, const char *kind, const char *path, const json_t *value, char *why,
                            size_t why_size)
{
    why[0] = 0;
    size_t chunk_index, string_index;
    int consumed = 0;
    if (!kind || strcmp(kind, "replace") != 0 || !json_is_string(value) ||
        sscanf(path, "/chunks/%zu/strings/%zu%n", &chunk_index, &string_index, &consumed) != 2 || path[consumed])
        return NULL;
    const rb_node *strings = strg_strings(doc, chunk_index);
    if (!strings || string_index >= strings->v.kids.count) return NULL; /* the operation itself says why */
    const rb_node *slot = strings->v.kids.items[string_index];
    if (slot->kind != RB_K_STRING) return NULL;
    text old_text = {slot->v.bytes.data, slot->v.bytes.size};
    text new_text = {(const uint8_t *)json_string_value(value), json_string_length(value)};
    int shown_old = old_text.size > 80 ? 80 : (int)old_text.size, shown_new = new_text.size > 80 ? 80 : (int)new_text.size;
    if (new_text.size == old_text.size && memcmp(new_text.data, old_text.data, old_text.size) == 0) return NULL;
    long twin = other_with_text(strings, string_index, old_text);
    if (twin >= 0)
        return refuse(why, why_size, NULL, NULL,
                      "string %zu \"%.*s\" is also string %ld: a reference names one copy by its occurrence, and "
                      "changing one copy's text would move the others' occurrences; replace the references instead",
                      string_index, shown_old, (const char *)old_text.data, twin);
    twin = other_with_text(strings, string_index, new_text);
    if (twin >= 0)
        return refuse(why, why_size, NULL, NULL,
                      "STRG already has \"%.*s\" (string %ld): the references of string %zu would name that one; "
                      "replace the references themselves with it",
                      shown_new, (const char *)new_text.data, twin, string_index);
    follow_walk *w = calloc(1, sizeof *w);
    if (!w) return refuse(why, why_size, NULL, NULL, "out of memory");
    w->old_text = old_text;
    w->paths = json_array();
    w->identifiers = json_array();
    const rb_node *chunks = rb_node_get(doc->root, "chunks");
    strcpy(w->path, "/chunks");
    for (uint32_t c = 0; c < chunks->v.kids.count && !w->overflow; c++) {
        const rb_node *chunk = chunks->v.kids.items[c];
        if (c == chunk_index || chunk->kind != RB_K_RECORD) continue;
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
