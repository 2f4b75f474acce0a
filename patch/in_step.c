/*
 * The data a format keeps beside a list, kept in step by apply (rb_format.in_step): the hook
 * reads the model through a view by JSON pointers (core/model/format.h rb_model_view), so a format's
 * hook does not walk nodes itself.
 */
#include <stdlib.h>
#include <string.h>
#include "patch/in_step.h"
#include "core/json/json.h"

/* The next token of a plain pointer into `token`; 0 at the end or for one too long. */
static int next_token(const char **pointer, char *token, size_t size)
{
    const char *p = *pointer;
    if (*p != '/') return 0;
    const char *end = strchr(p + 1, '/');
    size_t len = end ? (size_t)(end - p - 1) : strlen(p + 1);
    if (len >= size) return 0;
    memcpy(token, p + 1, len);
    token[len] = 0;
    *pointer = p + 1 + len;
    return 1;
}

/* ---------- the view over the model ---------- */

/* Reads through the view that met a unit kept as bytes (per thread: a diff by units asks whether
 * the format's hook saw all it looked for). */
static _Thread_local size_t deferred_met;

size_t in_step_deferred_met(void) { return deferred_met; }

/* The places of the last units met (plain pointers, each once), for a diff by units to read
 * them on both sides and try again (patch/diff_units.c). */
static _Thread_local char met_at[IN_STEP_MET_KEPT][IN_STEP_POINTER_MAX];
static _Thread_local size_t met_places;

size_t in_step_met_places(void) { return met_places; }

const char *in_step_met_place(size_t i)
{
    return i < met_places && i + IN_STEP_MET_KEPT >= met_places ? met_at[i % IN_STEP_MET_KEPT] : NULL;
}

/* A unit kept as bytes met where `rest` is left of `pointer`: counted, and its place kept. */
static void met(const char *pointer, const char *rest)
{
    deferred_met++;
    size_t len = (size_t)(rest - pointer);
    if (len >= IN_STEP_POINTER_MAX) len = 0; /* too long to keep: "" tells the diff by units to give up */
    size_t kept = met_places < IN_STEP_MET_KEPT ? met_places : IN_STEP_MET_KEPT;
    for (size_t i = 0; i < kept; i++) /* a list's elements read one by one meet one unit */
        if (!strncmp(met_at[i], pointer, len) && !met_at[i][len]) return;
    char *at = met_at[met_places++ % IN_STEP_MET_KEPT];
    memcpy(at, pointer, len);
    at[len] = 0;
}

/* The node at `pointer` (plain member names and indexes; tables and packed records read through
 * caller memory `scratch`), or NULL. */
static const rb_node *model_at(const rb_node *n, const char *whole, rb_record_scratch *scratch)
{
    char token[128];
    const char *pointer = whole;
    while (n && *pointer) {
        const char *here = pointer;
        if (!next_token(&pointer, token, sizeof token)) return NULL;
        if (n->kind == RB_K_DEFERRED) {
            /* the member that names the unit is known without reading it (a GBX chunk's id) */
            const rb_node *first = n->deferred->first;
            if (!*pointer && first && first->key && !strcmp(first->key, token)) return first;
            met(whole, here);
            return NULL;
        }
        if (n->kind == RB_K_PACKED) n = rb_record_view(n, scratch);
        if (n->kind == RB_K_RECORD || n->kind == RB_K_STREAM) { /* a stream holds its content's members */
            n = rb_node_get(n, token);
            continue;
        }
        char *stop;
        unsigned long i = strtoul(token, &stop, 10);
        if (*stop || !*token) return NULL;
        if (n->kind == RB_K_TABLE) {
            if (i >= rb_element_count(n)) return NULL;
            n = rb_table_element(n, i, scratch->nodes, scratch->kids);
        } else if (n->kind == RB_K_LIST) {
            n = i < n->v.kids.count ? n->v.kids.items[i] : NULL;
        } else {
            return NULL;
        }
    }
    if (n && n->kind == RB_K_PACKED) n = rb_record_view(n, scratch);
    return n;
}

/* The node at `pointer` for a read of its value: a unit kept as bytes there is counted. */
static const rb_node *value_at(const rb_node *root, const char *pointer, rb_record_scratch *scratch)
{
    const rb_node *n = model_at(root, pointer, scratch);
    if (n && n->kind == RB_K_DEFERRED) met(pointer, pointer + strlen(pointer));
    return n;
}

static size_t model_count(const void *context, const char *pointer, int *present)
{
    rb_record_scratch scratch;
    const rb_node *n = model_at(((const rb_doc *)context)->root, pointer, &scratch);
    /* a list kept as bytes knows its length (rb_element_count); a unit that is no list has none */
    *present = n && (n->kind == RB_K_LIST || n->kind == RB_K_TABLE || (n->kind == RB_K_DEFERRED && n->deferred->elements));
    return *present ? rb_element_count(n) : 0;
}

static int64_t model_integer(const void *context, const char *pointer, int *present)
{
    rb_record_scratch scratch;
    const rb_node *n = value_at(((const rb_doc *)context)->root, pointer, &scratch);
    *present = n && n->kind == RB_K_INT;
    return *present ? rb_node_int(n) : 0;
}

static json_t *model_json(const void *context, const char *pointer)
{
    rb_record_scratch scratch;
    const rb_doc *doc = context;
    const rb_node *n = value_at(doc->root, pointer, &scratch);
    return n ? rb_model_to_json(doc, n, RB_BLOBS_REF) : NULL;
}

rb_model_view in_step_model_view(const rb_doc *doc)
{
    return (rb_model_view){doc, model_count, model_integer, model_json};
}

json_t *in_step_ops_for(const rb_format *format, const rb_model_view *view, const json_t *op, const char *path,
                       const char *from)
{
    if (!format || !format->in_step) return NULL;
    return format->in_step(view, json_string_value(json_object_get(op, "op")), path, from, json_object_get(op, "value"));
}
