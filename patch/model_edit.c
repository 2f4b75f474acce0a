/*
 * RFC 6902 operations on the model itself: an edit costs what it touches.
 *
 * A pointer is followed through the nodes (selectors matched on the elements' members, rendered
 * one member at a time). A scalar is set through its wire type, with the conversions the model
 * is built from JSON with (core/json/json.c), so the same values are accepted and refused. A value
 * that brings new structure (a replaced record, a new list element) is built from its JSON after
 * a node of the same shape already in the model: the node it replaces, or a neighbour in its
 * list. That gives every new node its kind and wire type; the writer then walks the description
 * over the edited model (WRITE checks every key and kind), and the caller re-reads what was
 * written and compares it with the model (patch/apply.c). What no node has the shape of (a new
 * record member, the first element of an empty list, an annotation, a version change, the whole
 * document) is built by the format's description on the smallest draft around it
 * (patch/model_draft.c); a path into such a draft edits its JSON until it is built.
 */
#include "patch/model_edit.h"
#include <stdlib.h>
#include <string.h>
#include "core/json/json.h"
#include "core/model/pointer.h"
#include "patch/model_select.h"
#include "patch/model_draft.h"
#include "patch/portable.h"
#include "patch/selector.h"

void rb_model_place_free(rb_model_place *place)
{
    free(place->key);
    memset(place, 0, sizeof(*place));
}

static int is_list(const rb_node *n) { return n->kind == RB_K_LIST || n->kind == RB_K_TABLE; }
static int is_record(const rb_node *n)
{
    return n->kind == RB_K_RECORD || n->kind == RB_K_STREAM || n->kind == RB_K_PACKED;
}

static void put_text(rb_buf *b, const char *s) { rb_buf_put(b, s, strlen(s)); }

/* A list's element named by `token` (decoded): a selector, "-" (the end, last token only) or
 * an index (its end: a new last element). */
static int list_step(rb_doc *doc, rb_node *list, const char *raw, size_t raw_length, int last, const char *path,
                     rb_model_place *place, rb_buf *plain, char *why, size_t why_size)
{
    size_t count = list->v.kids.count, index = 0;
    char number[32];
    if (raw_length >= 2 && raw[0] == '[' && raw[raw_length - 1] == ']') {
        char *selector = strndup(raw + 1, raw_length - 2);
        rb_buf_put_u8(plain, 0); /* the list's plain path, for its index */
        plain->size--;
        int rc = selector ? rb_model_select(doc, list, plain->data ? (const char *)plain->data : "", selector, path,
                                            &index, why, why_size)
                          : -1;
        if (!selector) snprintf(why, why_size, "out of memory");
        free(selector);
        if (rc != 0) return -1;
        snprintf(number, sizeof number, "/%zu", index);
        put_text(plain, number);
    } else if (last && raw_length == 1 && raw[0] == '-') {
        index = count;
        put_text(plain, "/-");
    } else if (rb_pointer_index(raw, raw_length, &index) != 0 || index > count || (index == count && !last)) {
        snprintf(why, why_size, "%s: \"%.*s\" is not an element of a list of %zu", path, (int)(raw_length > 64 ? 64 : raw_length),
                 raw, count);
        return -1;
    } else {
        snprintf(number, sizeof number, "/%zu", index);
        put_text(plain, number);
    }
    place->node = index < count ? list->v.kids.items[index] : NULL;
    place->index = index;
    return 0;
}

/* One step of rb_model_locate: from `cur` through the token raw[0..raw_length) as spelled. */
static int step(rb_doc *doc, rb_node *cur, const char *raw, size_t raw_length, int last, const char *path,
                rb_model_place *place, rb_buf *plain, char *why, size_t why_size)
{
    if (!rb_table_expand(cur)) { snprintf(why, why_size, "out of memory"); return -1; }
    free(place->key);
    place->key = NULL;
    if (is_list(cur)) {
        if (list_step(doc, cur, raw, raw_length, last, path, place, plain, why, why_size) != 0) return -1;
    } else if (is_record(cur)) {
        int bad_escape;
        size_t length, index;
        place->key = rb_pointer_decode_dup(raw, raw_length, &length, &bad_escape);
        if (!place->key) {
            snprintf(why, why_size, bad_escape ? "%s: invalid '~' escape in a token" : "out of memory", path);
            return -1;
        }
        put_text(plain, "/");
        rb_buf_put(plain, raw, raw_length);
        if (place->key[0] == '$') { /* the rest of the path is the annotation's: the draft's JSON */
            put_text(plain, raw + raw_length);
            snprintf(why, why_size, "%s: an annotation is built by the format's description", path);
            return RB_MODEL_BEYOND;
        }
        place->node = rb_model_member(cur, place->key, length, &index);
        place->index = place->node ? index : cur->v.kids.count;
    } else {
        snprintf(why, why_size, "%s: a value, not a container, is on the way", path);
        return -1;
    }
    place->parent = cur;
    return 0;
}

/* The path goes on inside open draft `draft` (patch/model_draft.c) from `rest`. */
static int into_draft(rb_doc *doc, rb_node *draft, const char *rest, rb_model_place *place, rb_buf *plain, char *why,
                     size_t why_size)
{
    free(place->key);
    place->key = NULL;
    place->node = draft;
    place->rest = rest;
    if (rb_drafts_resolve(doc, draft, rest, plain, why, why_size) != 0) return -1;
    rb_buf_put_u8(plain, 0);
    if (plain->failed) { snprintf(why, why_size, "out of memory"); return -1; }
    return RB_MODEL_IN_DRAFT;
}

int rb_model_locate(rb_doc *doc, const char *path, rb_model_place *place, rb_buf *plain, char *why, size_t why_size)
{
    memset(place, 0, sizeof(*place));
    place->node = doc->root;
    rb_pointer_walk w;
    if (rb_pointer_walk_begin(&w, path, strlen(path), 1) != 0) {
        snprintf(why, why_size, "path %s must start with '/'", path);
        return -1;
    }
    const char *raw;
    size_t raw_length;
    int next;
    if (doc->drafts && rb_drafts_holds(doc, doc->root)) return into_draft(doc, doc->root, path, place, plain, why, why_size);
    while ((next = rb_pointer_next(&w, &raw, &raw_length)) == 1) {
        rb_node *cur = place->node;
        if (!cur) {
            snprintf(why, why_size, "%s: a part of the path does not exist", path);
            return -1;
        }
        if (doc->drafts && rb_drafts_holds(doc, cur)) return into_draft(doc, cur, raw - 1, place, plain, why, why_size);
        int rc = step(doc, cur, raw, raw_length, rb_pointer_at_end(&w), path, place, plain, why, why_size);
        if (rc != 0) {
            rb_buf_put_u8(plain, 0); /* a BEYOND's plain path is read */
            return rc;
        }
    }
    if (next < 0) { /* a token that runs on after its selector: "[id=1]x" */
        snprintf(why, why_size, "path %s must start with '/'", path);
        return -1;
    }
    rb_buf_put_u8(plain, 0);
    if (plain->failed) { snprintf(why, why_size, "out of memory"); return -1; }
    return 0;
}

json_t *rb_model_json_at(rb_doc *doc, const char *path)
{
    rb_model_place place;
    rb_buf plain;
    rb_buf_init(&plain);
    char why[256];
    json_t *v = NULL;
    int rc = rb_model_locate(doc, path, &place, &plain, why, sizeof why);
    if (rc == RB_MODEL_IN_DRAFT) v = json_incref(rb_drafts_value(doc, place.node, place.rest));
    else if (rc == 0 && place.node && rb_drafts_holds(doc, place.node)) v = json_incref(rb_drafts_value(doc, place.node, ""));
    else if (rc == 0 && place.node) v = rb_model_to_json(doc, place.node, RB_BLOBS_REF);
    rb_model_place_free(&place);
    rb_buf_free(&plain);
    return v;
}

/* ---------- building nodes from JSON after a node of the same shape ---------- */

static rb_node *build_like(rb_doc *doc, const rb_node *like, const json_t *v, const char *path, char *why,
                           size_t why_size, int depth);

/* Room for `count` children; 0 when out of memory. */
static int new_kids(rb_doc *doc, rb_node *n, size_t count)
{
    n->v.kids.count = n->v.kids.cap = (uint32_t)count;
    n->v.kids.items = count ? rb_arena_alloc(&doc->arena, count * sizeof(rb_node *)) : NULL;
    return count == 0 || n->v.kids.items != NULL;
}

static size_t plain_member_count(const json_t *object)
{
    size_t count = 0;
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)object, k, x) count += k[0] != '$';
    return count;
}

static rb_node *build_record(rb_doc *doc, const rb_node *like, const json_t *v, const char *path, char *why,
                             size_t why_size, int depth)
{
    if (!json_is_object(v)) { snprintf(why, why_size, "%s: must be a JSON object", path); return NULL; }
    size_t count = like->v.kids.count;
    if (plain_member_count(v) != count) {
        snprintf(why, why_size, "%s: has other members than the record it takes the place of", path);
        return NULL;
    }
    rb_node *n = rb_node_new(&doc->arena, RB_K_RECORD, like->key);
    if (!n || !new_kids(doc, n, count)) { snprintf(why, why_size, "out of memory"); return NULL; }
    for (size_t i = 0; i < count; i++) {
        const rb_node *field = like->v.kids.items[i];
        const json_t *member = field->key ? json_object_get(v, field->key) : NULL;
        if (!member) { snprintf(why, why_size, "%s: member \"%s\" is missing", path, field->key ? field->key : "?"); return NULL; }
        rb_node *kid = build_like(doc, field, member, path, why, why_size, depth + 1);
        if (!kid) return NULL;
        kid->key = field->key;
        n->v.kids.items[i] = kid;
    }
    return n;
}

/* A list after a list: element i after element i of `like` (its last one past its end). */
static rb_node *build_list(rb_doc *doc, const rb_node *like, const json_t *v, const char *path, char *why,
                           size_t why_size, int depth)
{
    if (!json_is_array(v)) { snprintf(why, why_size, "%s: must be a JSON array", path); return NULL; }
    size_t count = json_array_size(v), have = rb_element_count(like);
    if (count && !have) { snprintf(why, why_size, "%s: no element to take the shape of", path); return NULL; }
    rb_node *n = rb_node_new(&doc->arena, RB_K_LIST, like->key);
    if (!n || !new_kids(doc, n, count)) { snprintf(why, why_size, "out of memory"); return NULL; }
    rb_node scratch[RB_LAYOUT_MAX_FIELDS + 1];
    rb_node *scratch_kids[RB_LAYOUT_MAX_FIELDS];
    for (size_t i = 0; i < count; i++) {
        size_t model_index = i < have ? i : have - 1;
        const rb_node *element = like->kind == RB_K_TABLE ? rb_table_element(like, model_index, scratch, scratch_kids)
                                                          : like->v.kids.items[model_index];
        rb_node *kid = build_like(doc, element, json_array_get(v, i), path, why, why_size, depth + 1);
        if (!kid) return NULL;
        kid->key = NULL;
        n->v.kids.items[i] = kid;
    }
    return n;
}

/* An integer from JSON; a symbol handle may be spelled as its text (a new text gets a new symbol). */
static int int_value(rb_doc *doc, unsigned wire, const json_t *v, uint64_t *bits, char *why, size_t why_size)
{
    if (RB_WIRE_IS_SYMBOL(wire) && json_is_string(v) && strncmp(json_string_value(v), "0x", 2) != 0 &&
        doc->format->symbol_handle) {
        uint32_t handle;
        if (doc->format->symbol_handle(doc, json_string_value(v), json_string_length(v), 1, &handle) != 0) {
            snprintf(why, why_size, "no handle can be given to the name \"%.80s\"", json_string_value(v));
            return 0;
        }
        *bits = handle;
        return 1;
    }
    return rb_json_to_int(v, wire, bits, why, why_size);
}

/* The bytes of blob `like` with the byte range of a {"$splice"} value replaced (in the arena):
 * 1, or 0 with `why`. */
static int spliced(rb_doc *doc, const rb_node *like, const json_t *v, uint8_t **data, size_t *size, char *why,
                   size_t why_size)
{
    rb_splice range;
    if (rb_splice_of(like, v, &range, why, why_size) <= 0) return 0;
    *size = like->v.bytes.size - range.size + range.length;
    *data = rb_arena_alloc(&doc->arena, *size ? *size : 1);
    size_t after = like->v.bytes.size - range.at - range.size;
    if (*data) {
        if (range.at) memcpy(*data, like->v.bytes.data, range.at);
        if (range.length) memcpy(*data + range.at, range.bytes, range.length);
        if (after) memcpy(*data + range.at + range.length, like->v.bytes.data + range.at + range.size, after);
    } else {
        snprintf(why, why_size, "out of memory");
    }
    free(range.bytes);
    return *data != NULL;
}

static rb_node *build_scalar(rb_doc *doc, const rb_node *like, const json_t *v, const char *path, char *why,
                             size_t why_size)
{
    rb_node *n = rb_node_new(&doc->arena, (rb_kind)like->kind, like->key);
    if (!n) { snprintf(why, why_size, "out of memory"); return NULL; }
    n->wire = like->wire;
    unsigned width = like->wire & RB_W_WIDTH;
    char reason[200];
    int ok = 0;
    switch (like->kind) {
    case RB_K_INT: ok = int_value(doc, like->wire, v, &n->v.bits, reason, sizeof reason); break;
    case RB_K_FLOAT: ok = rb_json_to_float_bits(v, width, &n->v.bits, reason, sizeof reason); break;
    case RB_K_BOOL: ok = rb_json_to_bool(v, width, &n->v.bits, reason, sizeof reason); break;
    case RB_K_ID: ok = rb_json_to_id(&doc->arena, v, n, reason, sizeof reason); break;
    case RB_K_STRING:
    case RB_K_BLOB:
    case RB_K_OPAQUE: {
        uint8_t *data;
        size_t size;
        if (like->kind != RB_K_STRING && json_object_get(v, "$splice")) {
            ok = spliced(doc, like, v, &data, &size, reason, sizeof reason);
            n->v.bytes.data = data;
            n->v.bytes.size = size;
            break;
        }
        ok = rb_json_to_bytes(doc, v, like->kind == RB_K_STRING, &data, &size, reason, sizeof reason);
        n->v.bytes.data = data;
        n->v.bytes.size = size;
        break;
    }
    default: snprintf(reason, sizeof reason, "not a value this engine builds");
    }
    if (!ok) { snprintf(why, why_size, "%s: %s", path, reason); return NULL; }
    return n;
}

static rb_node *build_like(rb_doc *doc, const rb_node *like, const json_t *v, const char *path, char *why,
                           size_t why_size, int depth)
{
    if (depth > (int)doc->limits.max_depth) { snprintf(why, why_size, "%s: nested too deeply", path); return NULL; }
    switch (like->kind) {
    case RB_K_PACKED: {
        rb_record_scratch scratch;
        rb_node *n = build_record(doc, rb_record_view(like, &scratch), v, path, why, why_size, depth);
        if (n) n->key = like->key;
        return n;
    }
    case RB_K_RECORD: return build_record(doc, like, v, path, why, why_size, depth);
    case RB_K_LIST:
    case RB_K_TABLE: return build_list(doc, like, v, path, why, why_size, depth);
    case RB_K_STREAM:
        snprintf(why, why_size, "%s: a compressed stream is built by the format's description", path);
        return NULL;
    default: return build_scalar(doc, like, v, path, why, why_size);
    }
}

/* ---------- moving nodes ---------- */

static int insert_kid(rb_doc *doc, rb_node *parent, size_t index, rb_node *kid)
{
    size_t count = parent->v.kids.count;
    rb_node **items = parent->v.kids.items;
    if (count == parent->v.kids.cap) {
        size_t cap = count ? count * 2 : 4;
        items = rb_arena_alloc(&doc->arena, cap * sizeof(rb_node *));
        if (!items) return -1;
        if (count) memcpy(items, parent->v.kids.items, count * sizeof(rb_node *));
        parent->v.kids.cap = (uint32_t)cap;
    }
    memmove(items + index + 1, items + index, (count - index) * sizeof(rb_node *));
    items[index] = kid;
    parent->v.kids.items = items;
    parent->v.kids.count = (uint32_t)(count + 1);
    return 0;
}

static void remove_kid(rb_node *parent, size_t index)
{
    rb_node **items = parent->v.kids.items;
    memmove(items + index, items + index + 1, (parent->v.kids.count - index - 1) * sizeof(rb_node *));
    parent->v.kids.count--;
}

static rb_node *clone_tree(rb_doc *doc, const rb_node *n, int depth)
{
    if (n->kind == RB_K_STREAM || depth > (int)doc->limits.max_depth) return NULL;
    rb_node *c = rb_arena_dup(&doc->arena, n, sizeof(*n));
    if (!c || !rb_node_is_container(n)) return c;
    if (!new_kids(doc, c, n->v.kids.count)) return NULL;
    for (size_t i = 0; i < n->v.kids.count; i++)
        if (!(c->v.kids.items[i] = clone_tree(doc, n->v.kids.items[i], depth + 1))) return NULL;
    return c;
}

/* Puts `node` at `place` (add semantics): into a list at its index; over an existing member. */
static int put_node(rb_doc *doc, rb_model_place *place, rb_node *node, const char *path, char *why, size_t why_size)
{
    if (!place->parent) {
        snprintf(why, why_size, "%s: the whole document is built by the format's description", path);
        return RB_MODEL_BEYOND;
    }
    if (is_list(place->parent)) {
        node->key = NULL;
        if (insert_kid(doc, place->parent, place->index, node) != 0) { snprintf(why, why_size, "out of memory"); return -1; }
        return 0;
    }
    if (!place->node) {
        snprintf(why, why_size, "%s: a new member is built by the format's description", path);
        return RB_MODEL_BEYOND;
    }
    node->key = place->node->key;
    place->parent->v.kids.items[place->index] = node;
    return 0;
}

/* The node a new value at `place` takes its shape from. */
static const rb_node *shape_for(const rb_model_place *place)
{
    if (place->node) return place->node;
    if (!place->parent || !is_list(place->parent) || !place->parent->v.kids.count) return NULL;
    size_t i = place->index < place->parent->v.kids.count ? place->index : place->parent->v.kids.count - 1;
    return place->parent->v.kids.items[i];
}

/* Does record `n` have exactly the plain members of JSON object `v`? */
static int same_members(const rb_node *n, const json_t *v)
{
    if (n->kind != RB_K_RECORD || n->v.kids.count != plain_member_count(v)) return 0;
    for (size_t i = 0; i < n->v.kids.count; i++)
        if (!n->v.kids.items[i]->key || !json_object_get(v, n->v.kids.items[i]->key)) return 0;
    return 1;
}

/* A new list element unlike its neighbour, built after another element of the list that has its
 * members (a checkpoint block among plain blocks: a block with a waypoint); NULL when none has. */
static rb_node *build_like_sibling(rb_doc *doc, const rb_model_place *place, const json_t *value, const char *path,
                                   char *why, size_t why_size)
{
    if (!place->parent || place->parent->kind != RB_K_LIST || !json_is_object(value)) return NULL;
    for (size_t i = 0; i < place->parent->v.kids.count; i++) {
        const rb_node *sibling = place->parent->v.kids.items[i];
        if (!same_members(sibling, value)) continue;
        char sibling_why[512];
        rb_node *node = build_like(doc, sibling, value, path, sibling_why, sizeof sibling_why, 0);
        if (node) return node;
        snprintf(why, why_size, "%s", sibling_why);
    }
    return NULL;
}

/* ---------- operations ---------- */

typedef struct op_context {
    rb_doc *doc;
    const json_t *op;
    const char *path;
    rb_model_place place;
    rb_buf plain;
    char *why;
    size_t why_size;
} op_context;

static int op_test(op_context *c)
{
    if (!c->place.node) { snprintf(c->why, c->why_size, "test failed: %s does not exist", c->path); return -1; }
    const json_t *value = json_object_get(c->op, "value");
    int same = c->doc->drafts && rb_drafts_holds(c->doc, c->place.node)
                   ? rb_values_equal(rb_drafts_value(c->doc, c->place.node, ""), value)
                   : rb_model_value_matches(c->doc, c->place.node, value);
    if (!same) snprintf(c->why, c->why_size, "test failed at %s", c->path);
    return same ? 0 : -1;
}

/* A version field: the description decides which fields go with it, so the draft around it is
 * built again (patch/model_draft.c) once the patch's other operations are done. */
static int changes_version(const rb_doc *doc, const rb_node *node)
{
    return doc->drafts && node->kind == RB_K_INT && node->key && strcmp(node->key, "version") == 0;
}

static int op_add_or_replace(op_context *c, int replace)
{
    const json_t *value = json_object_get(c->op, "value");
    if (!value) { snprintf(c->why, c->why_size, "%s: the operation has no value", c->path); return -1; }
    if (replace && !c->place.node) { snprintf(c->why, c->why_size, "%s does not exist", c->path); return -1; }
    if (replace && changes_version(c->doc, c->place.node)) {
        snprintf(c->why, c->why_size, "%s: a version is changed by the format's description", c->path);
        return RB_MODEL_BEYOND;
    }
    const rb_node *shape = shape_for(&c->place);
    if (!shape) { snprintf(c->why, c->why_size, "%s: nothing to take the shape of", c->path); return RB_MODEL_BEYOND; }
    rb_node *node = build_like(c->doc, shape, value, c->path, c->why, c->why_size, 0);
    if (!node && !replace && !c->place.node) node = build_like_sibling(c->doc, &c->place, value, c->path, c->why, c->why_size);
    /* a scalar replaced in place is refused for good (its wire type says so); a structure built
     * after a neighbour may be one the format's description builds otherwise */
    int in_place = replace && shape == c->place.node && !rb_node_is_container(shape) && shape->kind != RB_K_STREAM &&
                   shape->kind != RB_K_PACKED && shape->kind != RB_K_TABLE;
    if (!node) return in_place ? -1 : RB_MODEL_BEYOND;
    if (replace && c->place.parent && is_list(c->place.parent)) {
        c->place.parent->v.kids.items[c->place.index] = node;
        return 0;
    }
    return put_node(c->doc, &c->place, node, c->path, c->why, c->why_size);
}

static int op_remove(op_context *c)
{
    if (!c->place.node || !c->place.parent) {
        snprintf(c->why, c->why_size, "%s: nothing to remove there", c->path);
        return -1;
    }
    remove_kid(c->place.parent, c->place.index);
    return 0;
}

static int apply_one(rb_doc *doc, const json_t *op, rb_buf *plain, char *why, size_t why_size);

/* move and copy as "remove from" (a move) and "add path" with the value found at "from": where
 * either side is in a draft held as JSON, or the node cannot be taken over (a stream, the root). */
static int move_by_value(op_context *c, const char *from, int move)
{
    json_t *value = rb_model_json_at(c->doc, from);
    if (!value) { snprintf(c->why, c->why_size, "%s: from %s does not exist", c->path, from); return -1; }
    json_t *remove = json_pack("{s:s,s:s}", "op", "remove", "path", from);
    json_t *add = json_pack("{s:s,s:s,s:o}", "op", "add", "path", c->path, "value", value);
    rb_buf ignored;
    rb_buf_init(&ignored);
    int rc = remove && add ? 0 : -1;
    if (rc != 0) snprintf(c->why, c->why_size, "out of memory");
    if (rc == 0 && move) rc = apply_one(c->doc, remove, &ignored, c->why, c->why_size);
    rb_buf_free(&c->plain);
    rb_buf_init(&c->plain);
    if (rc == 0) rc = apply_one(c->doc, add, &c->plain, c->why, c->why_size);
    rb_buf_free(&ignored);
    json_decref(remove);
    json_decref(add);
    return rc;
}

/* move and copy: the node at "from" goes (or its copy goes) where "path" says. */
static int op_move_or_copy(op_context *c, int move)
{
    const char *from = json_string_value(json_object_get(c->op, "from"));
    if (!from) { snprintf(c->why, c->why_size, "%s: the operation has no from", c->path); return -1; }
    size_t from_len = strlen(from);
    if (move && strncmp(c->path, from, from_len) == 0 && c->path[from_len] == '/') {
        snprintf(c->why, c->why_size, "%s: cannot move a value into itself", c->path);
        return -1;
    }
    rb_model_place source, target;
    rb_buf from_plain, target_plain;
    rb_buf_init(&from_plain);
    rb_buf_init(&target_plain);
    int rc = rb_model_locate(c->doc, from, &source, &from_plain, c->why, c->why_size);
    int target_rc = rc == 0 ? rb_model_locate(c->doc, c->path, &target, &target_plain, c->why, c->why_size) : 0;
    if (rc == 0) rb_model_place_free(&target);
    rb_buf_free(&target_plain);
    int by_value = rc == RB_MODEL_IN_DRAFT || target_rc == RB_MODEL_IN_DRAFT || target_rc == RB_MODEL_BEYOND ||
                   (rc == 0 && source.node && (!source.parent || source.node->kind == RB_K_STREAM ||
                                               (c->doc->drafts && rb_drafts_holds(c->doc, source.node))));
    rb_node *node = rc == 0 && !by_value ? source.node : NULL;
    if (node && move) {
        remove_kid(source.parent, source.index);
        rb_model_select_edited(c->doc, (const char *)from_plain.data, 'r');
    } else if (node) {
        node = clone_tree(c->doc, node, 0);
    }
    rb_buf_free(&from_plain);
    rb_model_place_free(&source);
    if (by_value && c->doc->drafts) return move_by_value(c, from, move);
    if (rc != 0 && rc != RB_MODEL_IN_DRAFT) return rc;
    if (!node) {
        snprintf(c->why, c->why_size, "%s: from %s cannot be taken on the model", c->path, from);
        return RB_MODEL_BEYOND;
    }
    rb_model_place_free(&c->place);
    rb_buf_free(&c->plain);
    rb_buf_init(&c->plain);
    rc = rb_model_locate(c->doc, c->path, &c->place, &c->plain, c->why, c->why_size);
    if (rc != 0) return rc;
    return put_node(c->doc, &c->place, node, c->path, c->why, c->why_size);
}

/* The draft around the operation's place opened (patch/model_draft.c); a new element of a list of
 * drafts has a placeholder put at its place meanwhile. */
static int open_draft(op_context *c, int replace)
{
    rb_node *placeholder = NULL;
    int rc = rb_drafts_open_for(c->doc, c->op, (const char *)c->plain.data, &placeholder, c->why, c->why_size);
    if (rc != 0 || !placeholder) return rc;
    if (replace) {
        c->place.parent->v.kids.items[c->place.index] = placeholder;
        return 0;
    }
    if (insert_kid(c->doc, c->place.parent, c->place.index, placeholder) != 0) {
        snprintf(c->why, c->why_size, "out of memory");
        return -1;
    }
    return 0;
}

/* Which selector index follows an operation (rb_model_select_edited). */
static int edit_kind(const char *name) { return name[0] == 'r' && name[2] == 'm' ? 'r' : name[0] == 'r' ? 'p' : 'a'; }

/* One operation; `plain` gets its plain path. */
static int apply_one(rb_doc *doc, const json_t *op, rb_buf *plain, char *why, size_t why_size)
{
    const char *name = json_string_value(json_object_get(op, "op"));
    op_context c = {.doc = doc, .op = op, .path = json_string_value(json_object_get(op, "path")), .why = why,
                    .why_size = why_size};
    if (!name || !c.path) { snprintf(why, why_size, "an operation needs \"op\" and \"path\""); return -1; }
    rb_buf_init(&c.plain);
    int moves = strcmp(name, "move") == 0 || strcmp(name, "copy") == 0;
    int rc = moves ? 0 : rb_model_locate(doc, c.path, &c.place, &c.plain, why, why_size);
    if (rc == RB_MODEL_IN_DRAFT) {
        rc = rb_drafts_apply(doc, c.place.node, op, c.place.rest, why, why_size);
    } else if (rc == 0) {
        if (strcmp(name, "test") == 0) rc = op_test(&c);
        else if (strcmp(name, "replace") == 0) rc = op_add_or_replace(&c, 1);
        else if (strcmp(name, "add") == 0) rc = op_add_or_replace(&c, 0);
        else if (strcmp(name, "remove") == 0) rc = op_remove(&c);
        else if (moves) rc = op_move_or_copy(&c, name[0] == 'm');
        else { snprintf(why, why_size, "unknown operation \"%s\"", name); rc = -1; }
        /* what no node has the shape of: the format's description builds it */
        if (rc == RB_MODEL_BEYOND && doc->drafts && !moves && c.plain.data) rc = open_draft(&c, name[0] == 'r');
    } else if (rc == RB_MODEL_BEYOND && doc->drafts && c.plain.data) {
        rc = open_draft(&c, 0);
    }
    if (rc == 0 && c.plain.data) rb_buf_put(plain, c.plain.data, strlen((const char *)c.plain.data) + 1);
    if (rc == 0 && strcmp(name, "test") != 0 && c.plain.data) /* selector indexes follow the edit */
        rb_model_select_edited(doc, (const char *)c.plain.data, edit_kind(name));
    if (rc == 0 && strcmp(name, "test") != 0 && doc->format->after_edit) doc->format->after_edit(doc);
    rb_model_place_free(&c.place);
    rb_buf_free(&c.plain);
    return rc;
}

int rb_model_apply_op(rb_doc *doc, const json_t *op, char **resolved, char *why, size_t why_size)
{
    *resolved = NULL;
    rb_buf plain;
    rb_buf_init(&plain);
    int rc = apply_one(doc, op, &plain, why, why_size);
    if (rc == 0 && plain.data && !(*resolved = strdup((const char *)plain.data))) {
        snprintf(why, why_size, "out of memory");
        rc = -1;
    }
    rb_buf_free(&plain);
    return rc;
}
