/* The public model and JSON API (include/rebyte.h) over the internal model. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>
#include "doc.h"
#include "pointer.h"
#include "json.h"

/* A table (packed elements, model.h) is a list to API users, and a packed record a record: asking
 * for a child turns them into the nodes they stand for, once, so a child can be read and edited
 * like any other node. */
rb_node_kind rb_node_kind_of(const rb_node *n)
{
    if (n->kind == RB_K_TABLE) return RB_NODE_LIST;
    return n->kind == RB_K_PACKED ? RB_NODE_RECORD : (rb_node_kind)n->kind;
}
const char *rb_node_key(const rb_node *n) { return n->key; }

size_t rb_node_child_count(const rb_node *n)
{
    if (n->kind == RB_K_TABLE) return n->table->count;
    if (n->kind == RB_K_PACKED && !rb_table_expand((rb_node *)n)) return 0; /* logically const, as below */
    return rb_node_is_container(n) ? n->v.kids.count : 0;
}

rb_node *rb_node_child(const rb_node *n, size_t i)
{
    if (i >= rb_node_child_count(n)) return NULL;
    /* expanding changes the representation, not the value: the node stays logically const */
    if (n->kind == RB_K_TABLE && !rb_table_expand((rb_node *)n)) return NULL;
    return n->v.kids.items[i];
}
rb_node *rb_node_member(const rb_node *record, const char *key) { return rb_node_get(record, key); }

/* RFC 6901, read as every other place reads pointers (core/pointer.c): a bad '~' escape, an
 * index such as "01" or "+1", a pointer not starting with '/' lead nowhere. */
rb_node *rb_node_at(rb_node *root, const char *pointer)
{
    rb_node *n = root;
    rb_pointer_walk w;
    const char *raw;
    size_t raw_length;
    if (rb_pointer_walk_begin(&w, pointer, strlen(pointer), 0) != 0) return NULL;
    while (n && rb_pointer_next(&w, &raw, &raw_length) == 1) {
        int bad_escape;
        size_t length, index;
        char *token = rb_pointer_decode_dup(raw, raw_length, &length, &bad_escape);
        if (!token) return NULL;
        if (n->kind == RB_K_LIST || n->kind == RB_K_TABLE)
            n = rb_pointer_index(token, length, &index) == 0 ? rb_node_child(n, index) : NULL;
        else
            n = strlen(token) == length ? rb_node_get(n, token) : NULL; /* member names hold no NUL */
        free(token);
    }
    return n;
}

int64_t rb_node_get_int(const rb_node *n) { return rb_node_int(n); }
uint64_t rb_node_get_uint(const rb_node *n) { return n->v.bits; }

double rb_node_get_float(const rb_node *n)
{
    if ((n->wire & RB_W_WIDTH) == 4) {
        float f;
        uint32_t b = (uint32_t)n->v.bits;
        memcpy(&f, &b, 4);
        return f;
    }
    double d;
    memcpy(&d, &n->v.bits, 8);
    return d;
}

rb_status rb_node_set_uint(rb_node *n, uint64_t v)
{
    unsigned width = n->wire & RB_W_WIDTH;
    if ((n->kind != RB_K_INT && n->kind != RB_K_BOOL) || (width < 8 && v >> (8 * width))) return RB_E_MODEL;
    if ((n->wire & RB_W_SIGNED) && width < 8 && v >> (8 * width - 1)) return RB_E_MODEL;
    n->v.bits = v;
    return RB_OK;
}

rb_status rb_node_set_int(rb_node *n, int64_t v)
{
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

const uint8_t *rb_node_get_bytes(const rb_node *n, size_t *size)
{
    int has_bytes = n->kind == RB_K_STRING || n->kind == RB_K_BLOB || n->kind == RB_K_OPAQUE ||
                    (n->kind == RB_K_ID && n->wire == RB_ID_STRING);
    *size = has_bytes ? n->v.bytes.size : 0;
    return has_bytes ? n->v.bytes.data : NULL;
}

rb_status rb_node_set_bytes(rb_doc *doc, rb_node *n, const void *bytes, size_t size)
{
    if (n->kind != RB_K_STRING && n->kind != RB_K_BLOB && n->kind != RB_K_OPAQUE && n->kind != RB_K_ID) return RB_E_MODEL;
    uint8_t *copy = rb_arena_dup(&doc->arena, bytes, size ? size : 1);
    if (!copy) return RB_E_NOMEM;
    n->v.bytes.data = copy;
    n->v.bytes.size = size;
    if (n->kind == RB_K_ID) n->wire = RB_ID_STRING;
    return RB_OK;
}

static char *dump_unlocked(const rb_doc *doc, rb_blob_mode blobs, const char *source_name)
{
    json_t *body = rb_model_to_json(doc, doc->root, blobs);
    json_t *out = json_object();
    json_object_set_new(out, "$format", json_string(doc->format->name));
    const rb_section *file = doc->section_count ? &doc->sections[0] : NULL;
    if (source_name && blobs == RB_BLOBS_REF && file && file->data) {
        char crc[16];
        snprintf(crc, sizeof crc, "0x%08" PRIx32, (uint32_t)crc32(0, file->data, (uInt)file->size));
        json_object_set_new(out, "$source", json_pack("{s:s,s:I,s:s}", "file", source_name, "size",
                                                      (json_int_t)file->size, "crc32", crc));
    }
    json_object_update(out, body);
    json_decref(body);
    char *text = rb_json_print_text(out);
    json_decref(out);
    return text;
}

char *rb_doc_dump(const rb_doc *doc, rb_blob_mode blobs, const char *source_name)
{
    rb_doc_read_begin(doc);
    char *text = dump_unlocked(doc, blobs, source_name);
    rb_doc_read_end(doc);
    return text;
}

static char *to_json_unlocked(const rb_doc *doc, int blobs_base64)
{
    return rb_doc_dump(doc, blobs_base64 ? RB_BLOBS_BASE64 : RB_BLOBS_REF, NULL);
}

char *rb_doc_to_json(const rb_doc *doc, int blobs_base64)
{
    rb_doc_read_begin(doc);
    char *text = to_json_unlocked(doc, blobs_base64);
    rb_doc_read_end(doc);
    return text;
}

rb_doc *rb_doc_build(const char *json_text, size_t size, const char *name, const rb_doc *blob_source, rb_error *err)
{
    json_error_t jerr;
    json_t *j = json_loadb(json_text, size, JSON_ALLOW_NUL, &jerr);
    if (err) memset(err, 0, sizeof(*err));
    if (!j) {
        if (err) {
            err->status = RB_E_USAGE;
            snprintf(err->file, sizeof err->file, "%s", name ? name : "");
            snprintf(err->message, sizeof err->message, "not JSON: %d:%d: %s", jerr.line, jerr.column, jerr.text);
        }
        return NULL;
    }
    const char *format_name = json_string_value(json_object_get(j, "$format"));
    const rb_format *format = format_name ? rb_format_by_name(format_name) : blob_source ? blob_source->format : NULL;
    rb_doc *doc = NULL;
    if (!format) {
        if (err) {
            err->status = RB_E_USAGE;
            snprintf(err->file, sizeof err->file, "%s", name ? name : "");
            snprintf(err->message, sizeof err->message, "\"$format\" is missing or names no known format");
        }
    } else {
        rb_json_resolve_files(j, name);
        doc = rb_doc_from_json(format, j, blob_source, name, err);
    }
    json_decref(j);
    return doc;
}
