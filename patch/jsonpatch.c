/* RFC 6901 JSON Pointer and RFC 6902 JSON Patch over jansson.
 *
 * The engine edits model nodes (patch/model_edit.c); this is the JSON edge, kept for what has no
 * model to edit: a draft the model cannot take the shape of, open as JSON until its description
 * builds it back (patch/model_draft.c), and a plain JSON document (`rebyte json-patch`,
 * patch/portable.c). Tokens are read by the one pointer module (core/model/pointer.c) and values
 * compared by the one JSON comparison (rb_values_equal, pins.h), as on the model.
 *
 * Pointers are handled as (pointer, length) pairs and tokens carry explicit
 * lengths so that "\u0000" inside member names survives; jansson's *n
 * functions (getn/setn/deln) take lengths for the same reason. */
#include "patch/jsonpatch.h"
#include "core/model/pointer.h"
#include "patch/pins.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define RB_PRINTF(fmt_arg, first_arg) __attribute__((format(printf, fmt_arg, first_arg)))
#else
#define RB_PRINTF(fmt_arg, first_arg)
#endif

/* Room for one operation's failure reason before the "patch[i] (op path): "
   prefix is added; pointers and tokens are shown truncated, so this is enough. */
#define REASON_MAX 512

/* Tokens echoed in messages are cut to this many bytes to keep messages short. */
#define SHOW_MAX 64
#define SHOW_LEN(n) ((n) > SHOW_MAX ? SHOW_MAX : (int)(n))

/* Writes a formatted message, tolerating callers that pass no buffer. */
static void RB_PRINTF(3, 4) set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "object";
    case JSON_ARRAY: return "array";
    case JSON_STRING: return "string";
    case JSON_INTEGER:
    case JSON_REAL: return "number";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    default: return "null";
    }
}

/* ---- JSON Pointer (RFC 6901) ------------------------------------------- */

/* A decoded reference token; owns buf (NUL-terminated for convenience). */
struct token {
    char *buf;
    size_t len;
};

/* Decodes src[0..n) per RFC 6901 section 4 (core/model/pointer.c: "~01" is "~1", not "/"). Any other
   '~' is a syntax error rather than a literal, so malformed pointers fail loudly. */
static int decode_token(const char *src, size_t n, struct token *tok, char *err, size_t errlen)
{
    int bad_escape;

    tok->buf = rb_pointer_decode_dup(src, n, &tok->len, &bad_escape);
    if (tok->buf == NULL) {
        if (bad_escape)
            set_err(err, errlen, "invalid '~' escape in token '%.*s'", SHOW_LEN(n), src);
        else
            set_err(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

/* RFC 6901 array-index (core/model/pointer.c): "01", "1e0", "-1", "+1" are rejected rather than
   coerced, since lenient parsing would let several spellings address one element. */
static int parse_index(const struct token *tok, size_t *out)
{
    return rb_pointer_index(tok->buf, tok->len, out);
}

/* Maps a token to an array position. allow_end is set only for "add", the
   one operation where "-" and index == size (append) are meaningful. */
static int array_slot(const json_t *arr, const struct token *tok, int allow_end, size_t *out, char *err,
                      size_t errlen)
{
    size_t size = json_array_size(arr);

    if (tok->len == 1 && tok->buf[0] == '-') {
        if (!allow_end) {
            set_err(err, errlen, "'-' names the nonexistent element after the end of the array");
            return -1;
        }
        *out = size;
        return 0;
    }
    if (parse_index(tok, out) != 0) {
        set_err(err, errlen, "invalid array index '%.*s'", SHOW_LEN(tok->len), tok->buf);
        return -1;
    }
    if (*out > size || (*out == size && !allow_end)) {
        set_err(err, errlen, "array index %.*s out of range (size %zu)", SHOW_LEN(tok->len), tok->buf, size);
        return -1;
    }
    return 0;
}

/* Descends one level. Scalars have no children, and arrays have no named
   members, so those lookups are errors rather than misses. */
static json_t *child(json_t *node, const struct token *tok, char *err, size_t errlen)
{
    size_t idx;
    json_t *c;

    if (json_is_object(node)) {
        c = json_object_getn(node, tok->buf, tok->len);
        if (c == NULL)
            set_err(err, errlen, "member '%.*s' not found", SHOW_LEN(tok->len), tok->buf);
        return c;
    }
    if (json_is_array(node)) {
        if (array_slot(node, tok, 0, &idx, err, errlen) != 0)
            return NULL;
        return json_array_get(node, idx);
    }
    set_err(err, errlen, "cannot look up '%.*s' in a %s", SHOW_LEN(tok->len), tok->buf, type_name(node));
    return NULL;
}

/* Resolves ptr[0..len). Taking a length lets callers resolve the parent of a
   path (a prefix) without copying it. */
static json_t *walk(json_t *doc, const char *ptr, size_t len, char *err, size_t errlen)
{
    json_t *cur = doc;
    rb_pointer_walk w;
    const char *raw;
    size_t n;

    if (rb_pointer_walk_begin(&w, ptr, len, 0) != 0) {
        set_err(err, errlen, "pointer must be empty or start with '/'");
        return NULL;
    }
    while (cur != NULL && rb_pointer_next(&w, &raw, &n) == 1) {
        struct token tok;

        if (decode_token(raw, n, &tok, err, errlen) != 0)
            return NULL;
        cur = child(cur, &tok, err, errlen);
        free(tok.buf);
    }
    return cur;
}

json_t *rb_json_pointer_get(json_t *doc, const char *pointer, char *err, size_t errlen)
{
    if (doc == NULL || pointer == NULL) {
        set_err(err, errlen, "no document or pointer given");
        return NULL;
    }
    return walk(doc, pointer, strlen(pointer), err, errlen);
}

/* ---- JSON Patch (RFC 6902) --------------------------------------------- */

/* Where a mutating operation acts: an existing container plus the final
   token, which may name a member or element that does not exist yet. */
struct location {
    json_t *parent;
    struct token last;
};

/* Splits a non-empty pointer at its last '/'. Escapes never yield a raw '/',
   so the split is exact. The parent must already exist: RFC 6902 4.1 never
   creates intermediate containers. On success the caller frees last.buf. */
static int locate(json_t *doc, const char *ptr, size_t len, struct location *loc, char *err, size_t errlen)
{
    size_t cut;

    if (len == 0 || ptr[0] != '/') {
        set_err(err, errlen, "pointer must be empty or start with '/'");
        return -1;
    }
    for (cut = len - 1; ptr[cut] != '/'; cut--)
        ; /* stops at ptr[0] at the latest */
    loc->parent = walk(doc, ptr, cut, err, errlen);
    if (loc->parent == NULL)
        return -1;
    if (!json_is_object(loc->parent) && !json_is_array(loc->parent)) {
        set_err(err, errlen, "parent is a %s, not an object or array", type_name(loc->parent));
        return -1;
    }
    return decode_token(ptr + cut + 1, len - cut - 1, &loc->last, err, errlen);
}

/* A parsed operation. Strings are borrowed from the patch document. */
struct op {
    const char *name;
    size_t name_len;
    const char *path;
    size_t path_len;
    const char *from;
    size_t from_len;
    const json_t *value;
};

/* Inserts value (stolen, even on failure) at ptr: the core of "add", also
   used by "move" and "copy". Path "" replaces the whole document. */
static int put(json_t **work, const char *ptr, size_t len, json_t *value, char *err, size_t errlen)
{
    struct location loc;
    size_t idx;
    int rc = -1;

    if (len == 0) {
        json_decref(*work);
        *work = value;
        return 0;
    }
    if (locate(*work, ptr, len, &loc, err, errlen) != 0) {
        json_decref(value);
        return -1;
    }
    if (json_is_object(loc.parent)) {
        rc = json_object_setn_new(loc.parent, loc.last.buf, loc.last.len, value);
        if (rc != 0)
            set_err(err, errlen, "cannot set member (invalid UTF-8 key or out of memory)");
    } else if (array_slot(loc.parent, &loc.last, 1, &idx, err, errlen) == 0) {
        rc = json_array_insert_new(loc.parent, idx, value);
        if (rc != 0)
            set_err(err, errlen, "cannot insert element (out of memory)");
    } else {
        json_decref(value);
    }
    free(loc.last.buf);
    return rc == 0 ? 0 : -1;
}

/* Detaches the value at ptr: the core of "remove", also used by "move".
   Removing the root is refused because no JSON value represents "nothing". */
static int take(json_t *work, const char *ptr, size_t len, char *err, size_t errlen)
{
    struct location loc;
    size_t idx;
    int rc = -1;

    if (len == 0) {
        set_err(err, errlen, "cannot remove the whole document");
        return -1;
    }
    if (locate(work, ptr, len, &loc, err, errlen) != 0)
        return -1;
    if (json_is_object(loc.parent)) {
        rc = json_object_deln(loc.parent, loc.last.buf, loc.last.len);
        if (rc != 0)
            set_err(err, errlen, "member '%.*s' not found", SHOW_LEN(loc.last.len), loc.last.buf);
    } else if (array_slot(loc.parent, &loc.last, 0, &idx, err, errlen) == 0) {
        rc = json_array_remove(loc.parent, idx);
    }
    free(loc.last.buf);
    return rc == 0 ? 0 : -1;
}

/* Overwrites an existing value with value (stolen, even on failure). Unlike
   put, the target must exist (RFC 6902 4.3), and "-" is never valid. */
static int overwrite(json_t **work, const char *ptr, size_t len, json_t *value, char *err, size_t errlen)
{
    struct location loc;
    size_t idx;
    int rc = -1;

    if (len == 0)
        return put(work, ptr, len, value, err, errlen);
    if (locate(*work, ptr, len, &loc, err, errlen) != 0) {
        json_decref(value);
        return -1;
    }
    /* Objects are set in place rather than delete + add, keeping member order. */
    if (json_is_object(loc.parent)) {
        if (json_object_getn(loc.parent, loc.last.buf, loc.last.len) == NULL) {
            set_err(err, errlen, "member '%.*s' not found", SHOW_LEN(loc.last.len), loc.last.buf);
            json_decref(value);
        } else if ((rc = json_object_setn_new(loc.parent, loc.last.buf, loc.last.len, value)) != 0) {
            set_err(err, errlen, "cannot set member (out of memory)");
        }
    } else if (array_slot(loc.parent, &loc.last, 0, &idx, err, errlen) == 0) {
        rc = json_array_set_new(loc.parent, idx, value);
        if (rc != 0)
            set_err(err, errlen, "cannot set element (out of memory)");
    } else {
        json_decref(value);
    }
    free(loc.last.buf);
    return rc == 0 ? 0 : -1;
}

/* Values are copied out of the patch: the patch is const, and sharing its
   nodes would let later operations modify it through the document. */
static json_t *copy_value(const json_t *v, char *err, size_t errlen)
{
    json_t *c = json_deep_copy(v);

    if (c == NULL)
        set_err(err, errlen, "out of memory");
    return c;
}

/* Resolves "from", prefixing the reason so it is not mistaken for "path". */
static json_t *resolve_from(json_t *work, const struct op *op, char *err, size_t errlen)
{
    char why[REASON_MAX];
    json_t *v = walk(work, op->from, op->from_len, why, sizeof why);

    if (v == NULL)
        set_err(err, errlen, "from '%.*s': %s", SHOW_LEN(op->from_len), op->from, why);
    return v;
}

static int op_add(json_t **work, const struct op *op, char *err, size_t errlen)
{
    json_t *v = copy_value(op->value, err, errlen);

    return v ? put(work, op->path, op->path_len, v, err, errlen) : -1;
}

static int op_remove(json_t **work, const struct op *op, char *err, size_t errlen)
{
    return take(*work, op->path, op->path_len, err, errlen);
}

static int op_replace(json_t **work, const struct op *op, char *err, size_t errlen)
{
    json_t *v = copy_value(op->value, err, errlen);

    return v ? overwrite(work, op->path, op->path_len, v, err, errlen) : -1;
}

/* RFC 6902 4.4: a location cannot be moved into one of its own children.
   Comparing raw text is exact because the prefix must end at a '/'. */
static int is_proper_prefix(const struct op *op)
{
    return op->from_len < op->path_len && memcmp(op->path, op->from, op->from_len) == 0 &&
           op->path[op->from_len] == '/';
}

static int op_move(json_t **work, const struct op *op, char *err, size_t errlen)
{
    json_t *v;

    if (is_proper_prefix(op)) {
        set_err(err, errlen, "'from' is a proper prefix of 'path' (cannot move a value into itself)");
        return -1;
    }
    v = resolve_from(*work, op, err, errlen);
    if (v == NULL)
        return -1;
    /* Same location: remove + add would be a no-op, and skipping it also
       avoids touching the array index arithmetic. */
    if (op->from_len == op->path_len && memcmp(op->from, op->path, op->from_len) == 0)
        return 0;
    json_incref(v); /* keep it alive while detached */
    if (take(*work, op->from, op->from_len, err, errlen) != 0) {
        json_decref(v);
        return -1;
    }
    return put(work, op->path, op->path_len, v, err, errlen);
}

static int op_copy(json_t **work, const struct op *op, char *err, size_t errlen)
{
    json_t *v = resolve_from(*work, op, err, errlen);

    if (v == NULL)
        return -1;
    /* Deep copy so later edits to either location stay independent. */
    v = copy_value(v, err, errlen);
    return v ? put(work, op->path, op->path_len, v, err, errlen) : -1;
}

/* "test" compares as every "test" of a patch does, on JSON or on the model: by content (pins.h:
   numbers by value as RFC 6902 4.6 says, storage annotations and blob spellings aside). */
static int op_test(json_t **work, const struct op *op, char *err, size_t errlen)
{
    json_t *target = walk(*work, op->path, op->path_len, err, errlen);

    if (target == NULL)
        return -1;
    if (!rb_values_equal(target, op->value)) {
        set_err(err, errlen, "test failed: value differs");
        return -1;
    }
    return 0;
}

enum { NEED_VALUE = 1, NEED_FROM = 2 };

typedef int (*op_fn)(json_t **work, const struct op *op, char *err, size_t errlen);

static const struct op_def {
    const char *name;
    op_fn fn;
    int needs;
} OP_DEFS[] = {
    {"add", op_add, NEED_VALUE},   {"remove", op_remove, 0},      {"replace", op_replace, NEED_VALUE},
    {"move", op_move, NEED_FROM},  {"copy", op_copy, NEED_FROM},  {"test", op_test, NEED_VALUE},
};

static const struct op_def *find_op(const struct op *op)
{
    size_t i;

    for (i = 0; i < sizeof OP_DEFS / sizeof OP_DEFS[0]; i++)
        if (strlen(OP_DEFS[i].name) == op->name_len && memcmp(OP_DEFS[i].name, op->name, op->name_len) == 0)
            return &OP_DEFS[i];
    return NULL;
}

/* Reads a string member; 1 if present and a string, 0 if absent, -1 if it
   has another type (e.g. "path": null, which must not count as absent-ok). */
static int string_member(const json_t *obj, const char *key, const char **s, size_t *len)
{
    const json_t *m = json_object_get(obj, key);

    if (m == NULL)
        return 0;
    if (!json_is_string(m))
        return -1;
    *s = json_string_value(m);
    *len = json_string_length(m);
    return 1;
}

/* Parses the members every operation has: "op" and "path". */
static int read_op(const json_t *item, struct op *op, char *err, size_t errlen)
{
    int rc;

    memset(op, 0, sizeof *op);
    if (!json_is_object(item)) {
        set_err(err, errlen, "operation is a %s, not an object", type_name(item));
        return -1;
    }
    rc = string_member(item, "op", &op->name, &op->name_len);
    if (rc != 1) {
        set_err(err, errlen, rc == 0 ? "missing 'op' member" : "'op' must be a string");
        return -1;
    }
    rc = string_member(item, "path", &op->path, &op->path_len);
    if (rc != 1) {
        set_err(err, errlen, rc == 0 ? "missing 'path' member" : "'path' must be a string");
        return -1;
    }
    return 0;
}

/* Parses the members only some operations have. Members an operation does
   not use are ignored (RFC 6902 section 4), whatever their type. */
static int read_extra(const json_t *item, const struct op_def *def, struct op *op, char *err, size_t errlen)
{
    int rc;

    if (def->needs & NEED_VALUE) {
        op->value = json_object_get(item, "value");
        if (op->value == NULL) {
            set_err(err, errlen, "missing 'value' member");
            return -1;
        }
    }
    if (def->needs & NEED_FROM) {
        rc = string_member(item, "from", &op->from, &op->from_len);
        if (rc != 1) {
            set_err(err, errlen, rc == 0 ? "missing 'from' member" : "'from' must be a string");
            return -1;
        }
    }
    return 0;
}

/* Parses and runs one operation, leaving the bare reason in why on failure. */
static int run_op(json_t **work, const json_t *item, struct op *op, char *why, size_t whylen)
{
    const struct op_def *def;

    if (read_op(item, op, why, whylen) != 0)
        return -1;
    def = find_op(op);
    if (def == NULL) {
        set_err(why, whylen, "unknown op '%.*s'", SHOW_LEN(op->name_len), op->name);
        return -1;
    }
    if (read_extra(item, def, op, why, whylen) != 0)
        return -1;
    return def->fn(work, op, why, whylen);
}

/* Applies one operation, turning a failure reason into the full message.
   The op and path shown are read straight from the item so they appear even
   when parsing failed; "" is quoted so an empty path stays visible. */
static int apply_one(json_t **work, const json_t *item, size_t index, char *err, size_t errlen)
{
    char why[REASON_MAX] = "";
    struct op op;
    const char *name, *path;

    if (run_op(work, item, &op, why, sizeof why) == 0)
        return 0;
    name = json_string_value(json_object_get(item, "op"));
    path = json_string_value(json_object_get(item, "path"));
    if (path != NULL && path[0] == '\0')
        path = "\"\"";
    set_err(err, errlen, "patch[%zu] (%s %s): %s", index, name ? name : "?", path ? path : "?", why);
    return -1;
}

int rb_json_patch_apply_in_place(json_t **work, const json_t *patch, char *err, size_t errlen)
{
    for (size_t i = 0; i < json_array_size(patch); i++)
        if (apply_one(work, json_array_get(patch, i), i, err, errlen) != 0) return -1;
    return 0;
}

int rb_json_patch_apply(json_t **doc, const json_t *patch, char *err, size_t errlen)
{
    json_t *work;

    if (doc == NULL || *doc == NULL) {
        set_err(err, errlen, "no document given");
        return -1;
    }
    if (!json_is_array(patch)) {
        set_err(err, errlen, "patch must be a JSON array of operations");
        return -1;
    }
    /* Work on a copy so a failure halfway leaves *doc untouched. */
    work = json_deep_copy(*doc);
    if (work == NULL) {
        set_err(err, errlen, "out of memory");
        return -1;
    }
    if (rb_json_patch_apply_in_place(&work, patch, err, errlen) != 0) {
        json_decref(work);
        return -1;
    }
    json_decref(*doc);
    *doc = work;
    return 0;
}
