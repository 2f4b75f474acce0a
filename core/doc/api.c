/* The public model and JSON API (include/rebyte.h) over the internal model. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/doc.h"
#include "core/error.h"
#include "core/model/pointer.h"
#include "core/json/json.h"
#include "core/json/json_emit.h"

/* A table (packed elements, model.h) is a list to API users, and a packed record a record. The
 * nodes the API hands out come from rb_doc_root, which made every table nodes; a table met here
 * all the same (a node an internal caller kept) has its count, but no child pointer to give. */
rb_node_kind rb_node_kind_of(const rb_node *n)
{
    if (n->kind == RB_K_TABLE) return RB_NODE_LIST;
    return n->kind == RB_K_PACKED ? RB_NODE_RECORD : (rb_node_kind)n->kind;
}
const char *rb_node_key(const rb_node *n) { return n->key; }

size_t rb_node_child_count(const rb_node *n)
{
    if (n->kind == RB_K_TABLE) return n->table->count;
    return rb_node_is_container(n) ? n->v.kids.count : 0;
}

/* The child or member a const and a mutable parent both reach: the navigation is one, the
 * const calls give it as const, the _edit calls (a mutable parent) as mutable. */
static rb_node *child_of(const rb_node *n, size_t i)
{
    if (i >= rb_node_child_count(n) || !rb_node_is_container(n)) return NULL;
    return n->v.kids.items[i];
}
const rb_node *rb_node_child(const rb_node *n, size_t i) { return child_of(n, i); }
rb_node *rb_node_child_edit(rb_node *n, size_t i) { return child_of(n, i); }
const rb_node *rb_node_member(const rb_node *record, const char *key) { return rb_node_get(record, key); }
rb_node *rb_node_member_edit(rb_node *record, const char *key) { return rb_node_get(record, key); }

/* RFC 6901, read as every other place reads pointers (core/model/pointer.c): a bad '~' escape, an
 * index such as "01" or "+1", a pointer not starting with '/' lead nowhere. The node below `root`
 * the pointer names; *whole set for "" (the root itself, which the callers give back as they
 * hold it). */
static rb_node *node_below(const rb_node *root, const char *pointer, int *whole)
{
    const rb_node *n = root;
    rb_node *found = NULL;
    rb_pointer_walk w;
    const char *raw;
    size_t raw_length;
    *whole = 0;
    if (rb_pointer_walk_begin(&w, pointer, strlen(pointer), 0) != 0) return NULL;
    *whole = 1;
    while (n && rb_pointer_next(&w, &raw, &raw_length) == 1) {
        *whole = 0;
        int bad_escape;
        size_t length, index;
        char *token = rb_pointer_decode_dup(raw, raw_length, &length, &bad_escape);
        if (!token) return NULL;
        if (n->kind == RB_K_LIST || n->kind == RB_K_TABLE)
            found = rb_pointer_index(token, length, &index) == 0 ? child_of(n, index) : NULL;
        else
            found = strlen(token) == length ? rb_node_get(n, token) : NULL; /* member names hold no NUL */
        free(token);
        n = found;
    }
    return found;
}

const rb_node *rb_node_at(const rb_node *root, const char *pointer)
{
    int whole;
    rb_node *below = root ? node_below(root, pointer, &whole) : NULL;
    return root && whole ? root : below;
}

rb_node *rb_node_at_edit(rb_node *root, const char *pointer)
{
    int whole;
    rb_node *below = root ? node_below(root, pointer, &whole) : NULL;
    return root && whole ? root : below;
}

/* ---------- checked getters: the kind first, then whether the value fits ---------- */

static int holds_integer(const rb_node *n) { return n->kind == RB_K_INT || n->kind == RB_K_BOOL; }

/* A negative value of a signed wire type (sign-extended by rb_node_int). */
static int is_negative(const rb_node *n) { return (n->wire & RB_W_SIGNED) && rb_node_int(n) < 0; }

rb_status rb_node_get_int(const rb_node *n, int64_t *value)
{
    if (!n || !value) return RB_E_USAGE;
    if (!holds_integer(n)) return RB_E_MODEL;
    /* an unsigned 64-bit value above INT64_MAX has no int64_t */
    if (!(n->wire & RB_W_SIGNED) && n->v.bits > (uint64_t)INT64_MAX) return RB_E_MODEL;
    *value = rb_node_int(n);
    return RB_OK;
}

rb_status rb_node_get_uint(const rb_node *n, uint64_t *value)
{
    if (!n || !value) return RB_E_USAGE;
    if (!holds_integer(n) || is_negative(n)) return RB_E_MODEL;
    *value = (uint64_t)rb_node_int(n);
    return RB_OK;
}

rb_status rb_node_get_float(const rb_node *n, double *value)
{
    if (!n || !value) return RB_E_USAGE;
    if (n->kind != RB_K_FLOAT) return RB_E_MODEL;
    *value = rb_node_float(n);
    return RB_OK;
}

void rb_doc_set_original(rb_doc *doc, const rb_doc *original) { doc->original = original; }
void rb_doc_author_recordings(rb_doc *doc) { doc->authored_recordings = 1; }
void rb_doc_author_records(rb_doc *doc) { rb_doc_author_recordings(doc); }

rb_status rb_node_set_uint(rb_node *n, uint64_t v)
{
    if (!n) return RB_E_USAGE;
    unsigned width = n->wire & RB_W_WIDTH;
    if ((n->kind != RB_K_INT && n->kind != RB_K_BOOL) || (width < 8 && v >> (8 * width))) return RB_E_MODEL;
    if ((n->wire & RB_W_SIGNED) && width < 8 && v >> (8 * width - 1)) return RB_E_MODEL;
    n->v.bits = v;
    return RB_OK;
}

rb_status rb_node_set_int(rb_node *n, int64_t v)
{
    if (!n) return RB_E_USAGE;
    unsigned width = n->wire & RB_W_WIDTH;
    if (n->kind != RB_K_INT) return RB_E_MODEL;
    if (!(n->wire & RB_W_SIGNED)) return v < 0 ? RB_E_MODEL : rb_node_set_uint(n, (uint64_t)v);
    if (width < 8) {
        int64_t lo = -((int64_t)1 << (8 * width - 1)), hi = ((int64_t)1 << (8 * width - 1)) - 1;
        if (v < lo || v > hi) return RB_E_MODEL;
        n->v.bits = (uint64_t)v & (((uint64_t)1 << (8 * width)) - 1);
    } else {
        n->v.bits = (uint64_t)v;
    }
    return RB_OK;
}

rb_status rb_node_set_float(rb_node *n, double v)
{
    if (!n) return RB_E_USAGE;
    if (n->kind != RB_K_FLOAT) return RB_E_MODEL;
    if ((n->wire & RB_W_WIDTH) == 4) {
        float f = (float)v;
        if (isinf(f) && !isinf(v)) return RB_E_MODEL;
        uint32_t b;
        memcpy(&b, &f, 4);
        n->v.bits = b;
    } else {
        memcpy(&n->v.bits, &v, 8);
    }
    return RB_OK;
}

rb_status rb_node_get_bytes(const rb_node *n, const uint8_t **bytes, size_t *size)
{
    if (!n || !bytes || !size) return RB_E_USAGE;
    size_t data_size;
    const uint8_t *data = rb_node_bytes(n, &data_size);
    if (!data) return RB_E_MODEL;
    *bytes = data;
    *size = data_size;
    return RB_OK;
}

rb_status rb_node_set_bytes(rb_doc *doc, rb_node *n, const void *bytes, size_t size)
{
    if (!doc || !n || (!bytes && size)) return RB_E_USAGE;
    if (n->kind != RB_K_STRING && n->kind != RB_K_BLOB && n->kind != RB_K_OPAQUE && n->kind != RB_K_ID) return RB_E_MODEL;
    uint8_t *copy = rb_arena_dup(&doc->arena, bytes, size ? size : 1);
    if (!copy) return RB_E_NOMEM;
    n->v.bytes.data = copy;
    n->v.bytes.size = size;
    if (n->kind == RB_K_ID) n->wire = RB_ID_STRING;
    return RB_OK;
}

static int dump_usage_ok(const rb_doc *doc, rb_blob_mode blobs, rb_error *err)
{
    if (doc && blobs >= RB_BLOBS_REF && blobs <= RB_BLOBS_OMIT) return 1;
    rb_error_set(err, RB_E_USAGE, doc ? doc->file_name : NULL, NULL, "rb_doc_dump: no document, or no such blob mode");
    return 0;
}

/* The text is printed while the model is walked (json_emit.h): no tree of the whole file. */
rb_status rb_doc_dump_to(const rb_doc *doc, rb_blob_mode blobs, const char *source_name, rb_text_sink sink,
                         void *context, rb_error *err)
{
    if (!sink) return RB_E_USAGE;
    if (!dump_usage_ok(doc, blobs, err)) return RB_E_USAGE;
    rb_json_emitter e;
    rb_json_text_emitter(&e, NULL, 0, sink, context);
    rb_error unit_err;
    int unit_failed = rb_doc_emit(&e, doc, blobs, source_name, NULL, NULL, &unit_err) != 0;
    int nomem = e.own.failed;
    const char *newline = "\n";
    int failed = e.failed;
    if (unit_failed) {
        rb_json_emitter_finish(&e);
        if (err) rb_error_copy(err, &unit_err);
        return unit_err.status;
    }
    if (rb_json_emitter_finish(&e) != 0 || failed || sink(context, newline, 1) != 0) {
        rb_status st = nomem ? RB_E_NOMEM : RB_E_IO;
        rb_error_set(err, st, doc->file_name, NULL, nomem ? "out of memory while printing the model"
                                                          : "the dump's text could not be written");
        return st;
    }
    return RB_OK;
}


rb_status rb_doc_dump(const rb_doc *doc, rb_blob_mode blobs, const char *source_name, char **json_text,
                      rb_error *err)
{
    if (!json_text) return RB_E_USAGE;
    *json_text = NULL;
    rb_buf b;
    rb_buf_init(&b);
    rb_status st = rb_doc_dump_to(doc, blobs, source_name, rb_buf_sink, &b, err);
    rb_buf_put_u8(&b, 0);
    if (b.failed) {
        st = RB_E_NOMEM;
        rb_error_set(err, st, doc->file_name, NULL, "out of memory while printing the model");
    }
    size_t size;
    if (st == RB_OK) *json_text = (char *)rb_buf_take(&b, &size);
    else rb_buf_free(&b);
    return st;
}

/* ---------- the library itself ---------- */

unsigned rb_version_number(void) { return REBYTE_VERSION_NUMBER; }
const char *rb_version(void) { return REBYTE_VERSION_STRING; }

/* The caller's free() may be another C runtime's (a DLL, a static runtime): what the library
 * allocated goes back through the library. */
void rb_free(void *p) { free(p); }
