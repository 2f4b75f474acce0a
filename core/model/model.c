#include <pthread.h>
#include <zlib.h>
#include <string.h>
#include "core/bytes.h"
#include "core/model/model.h"

rb_node *rb_node_new(rb_arena *arena, rb_kind kind, const char *key)
{
    rb_node *n = rb_arena_alloc_uninit(arena, sizeof(*n));
    if (!n) return NULL;
    *n = (rb_node){.kind = (uint8_t)kind, .key = key}; /* every other member zero */
    return n;
}

int rb_node_is_container(const rb_node *n)
{
    return n->kind == RB_K_RECORD || n->kind == RB_K_LIST || n->kind == RB_K_STREAM;
}

int rb_node_holds(const rb_node *n, int (*is)(const rb_node *n))
{
    if (is(n)) return 1;
    if (!rb_node_is_container(n)) return 0;
    for (size_t i = 0; i < n->v.kids.count; i++)
        if (rb_node_holds(n->v.kids.items[i], is)) return 1;
    return 0;
}

int rb_node_append(rb_arena *arena, rb_node *parent, rb_node *child)
{
    if (parent->v.kids.count == parent->v.kids.cap) {
        /* Arena growth: the old array is abandoned; doubling keeps the waste bounded. */
        size_t cap = parent->v.kids.cap ? parent->v.kids.cap * 2 : 8;
        rb_node **items = rb_arena_alloc(arena, cap * sizeof(*items));
        if (!items) return 0;
        if (parent->v.kids.count)
            memcpy(items, parent->v.kids.items, parent->v.kids.count * sizeof(*items));
        parent->v.kids.items = items;
        parent->v.kids.cap = cap;
    }
    parent->v.kids.items[parent->v.kids.count++] = child;
    return 1;
}

rb_node *rb_node_get(const rb_node *record, const char *key)
{
    /* a packed record has no nodes to hand out: readers take rb_record_view, editors
     * rb_table_expand it first */
    if (!record || !rb_node_is_container(record)) return NULL;
    for (size_t i = 0; i < record->v.kids.count; i++) {
        rb_node *c = record->v.kids.items[i];
        /* the first letter before the call: most keys differ there (this runs per field looked up) */
        if (c->key && c->key[0] == key[0] && strcmp(c->key, key) == 0) return c;
    }
    return NULL;
}

uint64_t rb_node_uint(const rb_node *n) { return n ? n->v.bits : 0; }

double rb_node_float(const rb_node *n)
{
    if (!n) return 0;
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

const uint8_t *rb_node_bytes(const rb_node *n, size_t *size)
{
    int has_bytes = n && (n->kind == RB_K_STRING || n->kind == RB_K_BLOB || n->kind == RB_K_OPAQUE ||
                          (n->kind == RB_K_ID && n->wire == RB_ID_STRING));
    *size = has_bytes ? n->v.bytes.size : 0;
    return has_bytes ? n->v.bytes.data : NULL;
}

int64_t rb_node_int(const rb_node *n)
{
    if (!n) return 0;
    unsigned width = n->wire & RB_W_WIDTH;
    if (!(n->wire & RB_W_SIGNED) || width >= 8 || width == 0) return (int64_t)n->v.bits;
    unsigned shift = 64 - 8 * width;
    return (int64_t)(n->v.bits << shift) >> shift;
}

/* Element access over both list kinds: a list of nodes, or a table read from its packed bytes
 * without turning it into nodes (the table's layout is in model.h). */
size_t rb_element_count(const rb_node *list)
{
    if (!list) return 0;
    if (list->kind == RB_K_TABLE) return list->table->count;
    if (list->kind == RB_K_DEFERRED) return list->deferred->elements; /* a list kept as its bytes */
    return list->kind == RB_K_LIST ? list->v.kids.count : 0;
}

uint64_t rb_element_uint(const rb_node *list, size_t index, const char *key)
{
    if (index >= rb_element_count(list)) return 0;
    if (list->kind == RB_K_LIST) {
        const rb_node *element = list->v.kids.items[index];
        return rb_node_uint(key ? rb_node_get(element, key) : element);
    }
    const rb_layout *layout = list->table->layout;
    size_t offset = 0;
    for (size_t i = 0; i < layout->field_count; i++) {
        const rb_layout_field *f = &layout->fields[i];
        int scalar = f->kind == RB_K_INT || f->kind == RB_K_FLOAT || f->kind == RB_K_BOOL;
        if (scalar && (key ? f->key && strcmp(f->key, key) == 0 : !f->key))
            return rb_load_le(list->v.bytes.data + index * list->table->stride + offset, f->wire & RB_W_WIDTH);
        offset += rb_layout_field_bytes(f);
    }
    return 0;
}

/* The fields of `layout` from the nodes of `record`, packed at `out`; returns the bytes packed, 0
 * when a field is missing or of another size. */
static size_t pack_record(const rb_node *record, const rb_layout *layout, uint8_t *out)
{
    size_t offset = 0;
    for (size_t i = 0; i < layout->field_count; i++) {
        const rb_layout_field *f = &layout->fields[i];
        size_t width = rb_layout_field_bytes(f);
        if (f->kind == RB_LAYOUT_CONSTANT) {
            for (size_t k = 0; k < width; k++) out[offset + k] = (uint8_t)(f->constant >> (8 * k));
            offset += width;
            continue;
        }
        const rb_node *n = f->key ? rb_node_get(record, f->key) : record;
        if (!n) return 0;
        if (f->kind == RB_K_RECORD) {
            if (pack_record(n, f->record, out + offset) != width) return 0;
        } else if ((f->kind == RB_K_BLOB || f->kind == RB_K_STRING)) {
            if (n->v.bytes.size != width) return 0;
            if (width) memcpy(out + offset, n->v.bytes.data, width);
        } else {
            for (size_t k = 0; k < width; k++) out[offset + k] = (uint8_t)(n->v.bits >> (8 * k));
        }
        offset += width;
    }
    return offset;
}

int rb_element_pack(const rb_node *list, size_t index, const rb_layout *layout, uint8_t *out)
{
    size_t stride = rb_layout_stride(layout);
    if (index >= rb_element_count(list)) return 0;
    if (list->kind == RB_K_TABLE) {
        if (list->table->stride != stride) return 0;
        memcpy(out, list->v.bytes.data + index * stride, stride);
        return 1;
    }
    const rb_node *element = list->v.kids.items[index];
    if (element->kind == RB_K_PACKED) {
        if (element->v.bytes.size != stride) return 0;
        memcpy(out, element->v.bytes.data, stride);
        return 1;
    }
    return pack_record(element, layout, out) == stride;
}

const rb_node *rb_list_element(const rb_node *list, size_t index)
{
    return list && list->kind == RB_K_LIST && index < list->v.kids.count ? list->v.kids.items[index] : NULL;
}

const rb_node *rb_record_member(const rb_node *record, const char *key)
{
    return record && record->kind == RB_K_RECORD ? rb_node_get(record, key) : NULL;
}

const rb_node *rb_child_view(const rb_node *n, size_t index, rb_record_scratch *scratch)
{
    if (n->kind == RB_K_TABLE)
        return index < n->table->count ? rb_table_element(n, index, scratch->nodes, scratch->kids) : NULL;
    if (!rb_node_is_container(n) || index >= n->v.kids.count) return NULL;
    const rb_node *kid = n->v.kids.items[index];
    if (kid->kind != RB_K_PACKED) return kid;
    rb_node *record = rb_table_element(kid, 0, scratch->nodes, scratch->kids);
    record->key = kid->key; /* the member it is, and its place, as rb_table_nodes gives them */
    record->section = kid->section;
    return record;
}

int rb_node_text_equals(const rb_node *n, const void *text, size_t length)
{
    return n && n->kind == RB_K_STRING && n->v.bytes.size == length && memcmp(n->v.bytes.data, text, length) == 0;
}

int rb_node_text_is(const rb_node *n, const char *text) { return rb_node_text_equals(n, text, strlen(text)); }

/* Memoised on first use: the digests of a stream are a cache beside the model, not part of its
 * value, and several threads reading one document may ask at once. So they are computed under
 * one lock for all documents and published with a release store of the flag, which the
 * unlocked acquire load pairs with. The law test_concurrent_reads checks (under ThreadSanitizer
 * too, tests/api/tsan.sh): every thread's JSON and written bytes are those one reader alone gets. */
static pthread_mutex_t digests_lock = PTHREAD_MUTEX_INITIALIZER;

const rb_stream_info *rb_stream_digests(const rb_stream_info *s)
{
    if (__atomic_load_n(&s->digests_known, __ATOMIC_ACQUIRE) || !s->content) return s;
    pthread_mutex_lock(&digests_lock);
    if (!s->digests_known) {
        rb_stream_info *memo = (rb_stream_info *)s; /* memoised: logically const */
        memo->content_crc32 = (uint32_t)crc32(0, s->content, (uInt)s->content_size);
        memo->content_adler32 = (uint32_t)adler32(1, s->content, (uInt)s->content_size);
        __atomic_store_n(&memo->digests_known, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&digests_lock);
    return s;
}
