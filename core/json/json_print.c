/*
 * The stable JSON layout, written once: keys in model order, two-space indent, small arrays of
 * scalars on one line, reals in their shortest exact spelling. The text emitter prints as it is
 * walked (a jansson tree here, the model in json_model.c), so a dump is never a tree of the whole
 * file; the tree emitter builds jansson values from the same walks.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "core/json/json.h"
#include "core/json/json_emit.h"

/* A sink gets the text in pieces of about this size. */
enum { SINK_PIECE = 64 * 1024 };

/* ---------- levels (both emitters) ---------- */

static rb_json_level *push_level(rb_json_emitter *e, int object, int flat)
{
    if (e->depth == e->cap) {
        size_t cap = e->cap * 2;
        rb_json_level *bigger = e->levels == e->inline_levels ? malloc(cap * sizeof *bigger)
                                                               : realloc(e->levels, cap * sizeof *bigger);
        if (!bigger) { e->failed = 1; return NULL; }
        if (e->levels == e->inline_levels) memcpy(bigger, e->inline_levels, sizeof e->inline_levels);
        e->levels = bigger;
        e->cap = cap;
    }
    rb_json_level *l = &e->levels[e->depth++];
    *l = (rb_json_level){.object = (unsigned char)object, .flat = (unsigned char)flat};
    return l;
}

static rb_json_level *top_level(rb_json_emitter *e) { return e->depth ? &e->levels[e->depth - 1] : NULL; }

static void init_levels(rb_json_emitter *e)
{
    e->levels = e->inline_levels;
    e->cap = sizeof e->inline_levels / sizeof e->inline_levels[0];
    e->depth = 0;
    e->failed = 0;
}

static void free_levels(rb_json_emitter *e)
{
    if (e->levels != e->inline_levels) free(e->levels);
    e->levels = e->inline_levels;
}

/* ---------- text ---------- */

static void put_str(rb_buf *out, const char *s) { rb_buf_put(out, s, strlen(s)); }

static void put_json_string(rb_buf *out, const char *s, size_t n)
{
    rb_buf_put_u8(out, '"');
    size_t plain = 0; /* a run of bytes that need no escape, put at once */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f) continue;
        rb_buf_put(out, s + plain, i - plain);
        plain = i + 1;
        char esc[8];
        switch (c) {
        case '"': put_str(out, "\\\""); break;
        case '\\': put_str(out, "\\\\"); break;
        case '\n': put_str(out, "\\n"); break;
        case '\r': put_str(out, "\\r"); break;
        case '\t': put_str(out, "\\t"); break;
        default:
            snprintf(esc, sizeof esc, "\\u%04x", c);
            put_str(out, esc);
        }
    }
    rb_buf_put(out, s + plain, n - plain);
    rb_buf_put_u8(out, '"');
}

/* A new line at `depth` levels of indent (none on one line). */
static void indent(rb_json_emitter *e, size_t depth)
{
    if (e->compact) return;
    rb_buf_put_u8(e->out, '\n');
    for (size_t i = 0; i < depth; i++) put_str(e->out, "  ");
}

static void text_flush_if_full(rb_json_emitter *e)
{
    if (!e->sink || e->out->size < SINK_PIECE) return;
    if (e->out->failed || e->sink(e->sink_context, (const char *)e->out->data, e->out->size) != 0) e->failed = 1;
    e->out->size = 0;
}

/* What comes before a value: an array's separator and line (an object's came with its key). */
static void before_value(rb_json_emitter *e)
{
    text_flush_if_full(e);
    rb_json_level *l = top_level(e);
    if (!l || l->object) return;
    if (l->index++) put_str(e->out, l->flat && !e->compact ? ", " : ",");
    if (!l->flat) indent(e, e->depth);
}

static int text_begin(rb_json_emitter *e, int object, size_t count, int flat)
{
    before_value(e);
    if (count == 0) {
        put_str(e->out, object ? "{}" : "[]");
        return 0;
    }
    rb_buf_put_u8(e->out, object ? '{' : '[');
    return push_level(e, object, !object && flat) != NULL;
}

static void text_key(rb_json_emitter *e, const char *key)
{
    text_flush_if_full(e);
    rb_json_level *l = top_level(e);
    if (l->index++) rb_buf_put_u8(e->out, ',');
    indent(e, e->depth);
    put_json_string(e->out, key, strlen(key));
    put_str(e->out, e->compact ? ":" : ": ");
}

static void text_end(rb_json_emitter *e)
{
    rb_json_level *l = top_level(e);
    int object = l->object, flat = l->flat;
    e->depth--;
    if (object || !flat) indent(e, e->depth);
    rb_buf_put_u8(e->out, object ? '}' : ']');
    text_flush_if_full(e);
}

static void text_string(rb_json_emitter *e, const char *s, size_t n)
{
    before_value(e);
    put_json_string(e->out, s, n);
}

static void text_integer(rb_json_emitter *e, json_int_t v)
{
    char tmp[32];
    before_value(e);
    snprintf(tmp, sizeof tmp, "%" JSON_INTEGER_FORMAT, v);
    put_str(e->out, tmp);
}

static void text_real(rb_json_emitter *e, double d)
{
    char tmp[64];
    uint64_t bits;
    memcpy(&bits, &d, 8);
    before_value(e);
    rb_format_f64(bits, tmp, sizeof tmp);
    put_str(e->out, tmp);
}

static void text_literal(rb_json_emitter *e, json_type type)
{
    before_value(e);
    put_str(e->out, type == JSON_TRUE ? "true" : type == JSON_FALSE ? "false" : "null");
}

static const rb_json_emitter_ops TEXT_OPS = {text_begin, text_key, text_end, text_string,
                                             text_integer, text_real, text_literal};

void rb_json_text_emitter(rb_json_emitter *e, rb_buf *out, int compact, rb_json_sink sink, void *context)
{
    memset(e, 0, sizeof *e);
    init_levels(e);
    e->ops = &TEXT_OPS;
    e->compact = compact;
    e->sink = sink;
    e->sink_context = context;
    rb_buf_init(&e->own);
    e->out = sink ? &e->own : out;
}

int rb_json_emitter_finish(rb_json_emitter *e)
{
    if (e->sink && !e->failed && e->out->size &&
        (e->out->failed || e->sink(e->sink_context, (const char *)e->out->data, e->out->size) != 0))
        e->failed = 1;
    int failed = e->failed || e->out->failed;
    rb_buf_free(&e->own);
    free_levels(e);
    return failed ? -1 : 0;
}

/* ---------- tree ---------- */

/* A finished value goes into the open container, or is the result. */
static void tree_put(rb_json_emitter *e, json_t *v)
{
    rb_json_level *l = top_level(e);
    int failed = v == NULL;
    if (!l) e->result = v;
    else if (l->object) failed |= json_object_set_new(l->tree, e->pending_key, v) != 0;
    else failed |= json_array_append_new(l->tree, v) != 0;
    if (failed) e->failed = 1;
}

static int tree_begin(rb_json_emitter *e, int object, size_t count, int flat)
{
    (void)flat;
    json_t *c = object ? json_object() : json_array();
    tree_put(e, c);
    if (!c || count == 0) return 0;
    rb_json_level *l = push_level(e, object, 0);
    if (l) l->tree = c;
    return l != NULL;
}

static void tree_key(rb_json_emitter *e, const char *key) { e->pending_key = key; }
static void tree_end(rb_json_emitter *e) { e->depth--; }
static void tree_string(rb_json_emitter *e, const char *s, size_t n) { tree_put(e, json_stringn(s, n)); }
static void tree_integer(rb_json_emitter *e, json_int_t v) { tree_put(e, json_integer(v)); }
static void tree_real(rb_json_emitter *e, double v) { tree_put(e, json_real(v)); }

static void tree_literal(rb_json_emitter *e, json_type type)
{
    tree_put(e, type == JSON_TRUE ? json_true() : type == JSON_FALSE ? json_false() : json_null());
}

static const rb_json_emitter_ops TREE_OPS = {tree_begin, tree_key, tree_end, tree_string,
                                             tree_integer, tree_real, tree_literal};

void rb_json_tree_emitter(rb_json_emitter *e)
{
    memset(e, 0, sizeof *e);
    init_levels(e);
    e->ops = &TREE_OPS;
}

json_t *rb_json_tree_result(rb_json_emitter *e)
{
    json_t *result = e->result;
    if (e->failed) {
        json_decref(result);
        result = NULL;
    }
    free_levels(e);
    return result;
}

/* ---------- a jansson value walked ---------- */

/* Small arrays of scalars stay on one line: vectors and coordinates read better that way. */
static int is_flat_small(const json_t *j)
{
    size_t n = json_array_size(j);
    if (n == 0 || n > 4) return n == 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *c = json_array_get(j, i);
        if (json_is_object(c) || json_is_array(c)) return 0;
    }
    return 1;
}

static void emit_value(rb_json_emitter *e, const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT: {
        if (!e->ops->begin(e, 1, json_object_size(j), 0)) return;
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v) {
            e->ops->key(e, k);
            emit_value(e, v);
        }
        e->ops->end(e);
        return;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(j);
        if (!e->ops->begin(e, 0, n, is_flat_small(j))) return;
        for (size_t i = 0; i < n; i++) emit_value(e, json_array_get(j, i));
        e->ops->end(e);
        return;
    }
    case JSON_STRING: e->ops->string(e, json_string_value(j), json_string_length(j)); return;
    case JSON_INTEGER: e->ops->integer(e, json_integer_value(j)); return;
    case JSON_REAL: e->ops->real(e, json_real_value(j)); return;
    default: e->ops->literal(e, json_typeof(j)); return;
    }
}

/* ---------- the printing entry points ---------- */

void rb_json_print(const json_t *json, rb_buf *out)
{
    rb_json_emitter e;
    rb_json_text_emitter(&e, out, 0, NULL, NULL);
    emit_value(&e, json);
    if (rb_json_emitter_finish(&e) != 0) out->failed = 1;
    rb_buf_put_u8(out, '\n');
}

static char *take_text(rb_buf *b)
{
    rb_buf_put_u8(b, 0);
    if (b->failed) {
        rb_buf_free(b);
        return NULL;
    }
    size_t size;
    return (char *)rb_buf_take(b, &size);
}

char *rb_json_print_text(const json_t *json)
{
    rb_buf b;
    rb_buf_init(&b);
    rb_json_print(json, &b);
    return take_text(&b);
}

char *rb_json_compact_text(const json_t *json)
{
    rb_buf b;
    rb_buf_init(&b);
    rb_json_emitter e;
    rb_json_text_emitter(&e, &b, 1, NULL, NULL);
    emit_value(&e, json);
    if (rb_json_emitter_finish(&e) != 0) b.failed = 1;
    return take_text(&b);
}
