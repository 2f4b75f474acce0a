/*
 * RFC 6902 operations on the model itself: an edit costs what it touches.
 *
 * A pointer is followed through the nodes (selectors matched on the elements' members, rendered
 * one member at a time). A scalar is set through its wire type, with the conversions the model
 * is built from JSON with (core/json.c), so the same values are accepted and refused. A value
 * that brings new structure (a replaced record, a new list element) is built from its JSON after
 * a node of the same shape already in the model: the node it replaces, or a neighbour in its
 * list. That gives every new node its kind and wire type without the format's description;
 * the writer then walks the description over the edited model (WRITE checks every key and
 * kind), and the caller re-reads what was written and compares it with the model
 * (patch/apply.c). What this engine does not do (a new record member, a stream, the document's
 * annotations) it refuses with a reason, and the caller takes the whole-model path.
 */
#include "model_edit.h"
#include <stdlib.h>
#include <string.h>
#include "../core/json.h"
#include "portable.h"
#include "selector.h"

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

/* RFC 6901: "~1" is '/', "~0" is '~'. In place. */
static void unescape_token(char *s)
{
    char *o = s;
    for (char *p = s; *p; p++) {
        if (*p == '~' && (p[1] == '0' || p[1] == '1')) *o++ = *++p == '0' ? '~' : '/';
        else *o++ = *p;
    }
    *o = 0;
}

/* RFC 6901 array index: "0" or digits without a leading zero. */
static int parse_index(const char *t, size_t *index)
{
    if (!*t || (t[0] == '0' && t[1]) || strlen(t) > 18) return 0;
    size_t v = 0;
    for (const char *p = t; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        v = v * 10 + (size_t)(*p - '0');
    }
    *index = v;
    return 1;
}

static rb_node *record_member(const rb_node *record, const char *key, size_t *index)
{
    for (size_t i = 0; i < record->v.kids.count; i++) {
        rb_node *c = record->v.kids.items[i];
        if (c->key && strcmp(c->key, key) == 0) {
            if (index) *index = i;
            return c;
        }
    }
    return NULL;
}

/* A relative pointer (no selectors) from `n`; NULL when it leads nowhere in the model. */
static rb_node *walk_relative(rb_node *n, const char *pointer)
{
    const char *p = pointer;
    while (n && *p == '/') {
        p++;
        size_t len = strcspn(p, "/");
        char token[256];
        if (len >= sizeof token) return NULL;
        memcpy(token, p, len);
        token[len] = 0;
        p += len;
        unescape_token(token);
        if (!rb_table_expand(n)) return NULL;
        size_t index;
        if (is_list(n)) n = parse_index(token, &index) && index < n->v.kids.count ? n->v.kids.items[index] : NULL;
        else if (is_record(n)) n = record_member(n, token, NULL);
        else n = NULL;
    }
    return *p ? NULL : n;
}

typedef struct model_element {
    rb_doc *doc;
    rb_node *node;
} model_element;

/* rb_selector_member_fn over the model: the member rendered alone. */
static json_t *model_member(void *context, const char *pointer)
{
    model_element *e = context;
    rb_node *member = walk_relative(e->node, pointer);
    return member ? rb_model_to_json(e->doc, member, RB_BLOBS_REF) : NULL;
}

static int select_element(rb_doc *doc, rb_node *list, char *selector, const char *path, size_t *index, char *why,
                          size_t why_size)
{
    size_t found = 0;
    for (size_t i = 0; i < list->v.kids.count; i++) {
        model_element e = {doc, list->v.kids.items[i]};
        if (rb_selector_matches(selector, model_member, &e)) {
            if (!found) *index = i;
            found++;
        }
    }
    if (found == 1) return 0;
    snprintf(why, why_size, "selector [%s] in %s matches %zu elements (it must match exactly one)", selector, path,
             found);
    return -1;
}

static void put_text(rb_buf *b, const char *s) { rb_buf_put(b, s, strlen(s)); }

/* One step of rb_model_locate: from `cur` through `token` (raw, as in the path). */
static int step(rb_doc *doc, rb_node *cur, char *token, int last, const char *path, rb_model_place *place,
                rb_buf *plain, char *why, size_t why_size)
{
    if (!rb_table_expand(cur)) { snprintf(why, why_size, "out of memory"); return -1; }
    size_t len = strlen(token), index = 0;
    if (is_list(cur)) {
        size_t count = cur->v.kids.count;
        char number[32];
        if (len >= 2 && token[0] == '[' && token[len - 1] == ']') {
            token[len - 1] = 0;
            if (select_element(doc, cur, token + 1, path, &index, why, why_size) != 0) return -1;
            snprintf(number, sizeof number, "/%zu", index);
            put_text(plain, number);
        } else if (last && strcmp(token, "-") == 0) {
            index = count;
            put_text(plain, "/-");
        } else if (!parse_index(token, &index) || index > count || (index == count && !last)) {
            snprintf(why, why_size, "%s: \"%s\" is not an element of a list of %zu", path, token, count);
            return -1;
        } else {
            put_text(plain, "/");
            put_text(plain, token);
        }
        place->node = index < count ? cur->v.kids.items[index] : NULL;
    } else if (is_record(cur)) {
        put_text(plain, "/");
        put_text(plain, token);
        unescape_token(token);
        if (token[0] == '$') {
            snprintf(why, why_size, "%s: annotations are edited on the whole model", path);
            return -1;
        }
        place->node = record_member(cur, token, &index);
        if (!place->node) index = cur->v.kids.count;
    } else {
        snprintf(why, why_size, "%s: a value, not a container, is on the way", path);
        return -1;
    }
    place->parent = cur;
    place->index = index;
    return 0;
}

int rb_model_locate(rb_doc *doc, const char *path, rb_model_place *place, rb_buf *plain, char *why, size_t why_size)
{
    memset(place, 0, sizeof(*place));
    place->node = doc->root;
    if (*path && *path != '/') {
        snprintf(why, why_size, "path %s must start with '/'", path);
        return -1;
    }
    const char *p = path;
    while (*p == '/') {
        p++;
        size_t len = rb_pointer_token_length(p);
        rb_node *cur = place->node;
        if (!cur) {
            snprintf(why, why_size, "%s: a part of the path does not exist", path);
            return -1;
        }
        free(place->key);
        place->key = malloc(len + 1);
        if (!place->key) { snprintf(why, why_size, "out of memory"); return -1; }
        memcpy(place->key, p, len);
        place->key[len] = 0;
        p += len;
        if (step(doc, cur, place->key, *p == 0, path, place, plain, why, why_size) != 0) return -1;
    }
    if (*p) { /* a token that runs on after its selector: "[id=1]x" */
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
    if (rb_model_locate(doc, path, &place, &plain, why, sizeof why) == 0 && place.node)
        v = rb_model_to_json(doc, place.node, RB_BLOBS_REF);
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
        snprintf(why, why_size, "%s: a compressed stream is rebuilt on the whole model", path);
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
    if (!place->parent) { snprintf(why, why_size, "%s: the whole document is replaced on the whole model", path); return -1; }
    if (is_list(place->parent)) {
        node->key = NULL;
        if (insert_kid(doc, place->parent, place->index, node) != 0) { snprintf(why, why_size, "out of memory"); return -1; }
        return 0;
    }
    if (!place->node) {
        snprintf(why, why_size, "%s: a new member takes its place on the whole model", path);
        return -1;
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
    json_t *actual = rb_model_to_json(c->doc, c->place.node, RB_BLOBS_REF);
    int same = rb_values_equal(actual, json_object_get(c->op, "value"));
    json_decref(actual);
    if (!same) snprintf(c->why, c->why_size, "test failed at %s", c->path);
    return same ? 0 : -1;
}

static int op_add_or_replace(op_context *c, int replace)
{
    const json_t *value = json_object_get(c->op, "value");
    if (!value) { snprintf(c->why, c->why_size, "%s: the operation has no value", c->path); return -1; }
    if (replace && !c->place.node) { snprintf(c->why, c->why_size, "%s does not exist", c->path); return -1; }
    const rb_node *shape = shape_for(&c->place);
    if (!shape) { snprintf(c->why, c->why_size, "%s: nothing to take the shape of", c->path); return -1; }
    rb_node *node = build_like(c->doc, shape, value, c->path, c->why, c->why_size, 0);
    if (!node) return -1;
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
    rb_model_place source;
    rb_buf ignored;
    rb_buf_init(&ignored);
    int rc = rb_model_locate(c->doc, from, &source, &ignored, c->why, c->why_size);
    rb_buf_free(&ignored);
    rb_node *node = rc == 0 ? source.node : NULL;
    if (node && !source.parent) node = NULL;
    if (node && move) remove_kid(source.parent, source.index);
    else if (node) node = clone_tree(c->doc, node, 0);
    rb_model_place_free(&source);
    if (!node) {
        if (rc == 0) snprintf(c->why, c->why_size, "%s: from %s cannot be taken on the model", c->path, from);
        return -1;
    }
    rb_model_place_free(&c->place);
    rb_buf_free(&c->plain);
    rb_buf_init(&c->plain);
    if (rb_model_locate(c->doc, c->path, &c->place, &c->plain, c->why, c->why_size) != 0) return -1;
    return put_node(c->doc, &c->place, node, c->path, c->why, c->why_size);
}

int rb_model_apply_op(rb_doc *doc, const json_t *op, char **resolved, char *why, size_t why_size)
{
    *resolved = NULL;
    const char *name = json_string_value(json_object_get(op, "op"));
    op_context c = {.doc = doc, .op = op, .path = json_string_value(json_object_get(op, "path")), .why = why,
                    .why_size = why_size};
    if (!name || !c.path) { snprintf(why, why_size, "an operation needs \"op\" and \"path\""); return -1; }
    rb_buf_init(&c.plain);
    int moves = strcmp(name, "move") == 0 || strcmp(name, "copy") == 0;
    int rc = moves ? 0 : rb_model_locate(doc, c.path, &c.place, &c.plain, why, why_size);
    if (rc == 0) {
        if (strcmp(name, "test") == 0) rc = op_test(&c);
        else if (strcmp(name, "replace") == 0) rc = op_add_or_replace(&c, 1);
        else if (strcmp(name, "add") == 0) rc = op_add_or_replace(&c, 0);
        else if (strcmp(name, "remove") == 0) rc = op_remove(&c);
        else if (moves) rc = op_move_or_copy(&c, name[0] == 'm');
        else { snprintf(why, why_size, "unknown operation \"%s\"", name); rc = -1; }
    }
    if (rc == 0 && c.plain.data) *resolved = strdup((const char *)c.plain.data);
    if (rc == 0 && strcmp(name, "test") != 0 && doc->format->after_edit) doc->format->after_edit(doc);
    rb_model_place_free(&c.place);
    rb_buf_free(&c.plain);
    return rc;
}
