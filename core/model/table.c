/* Tables: lists of fixed-layout elements kept as their packed wire bytes (see rb_layout in model.h).
 * The archive reads and writes them whole; everything that wants nodes gets them from here, built
 * from the same layout, so a table and the list of nodes it stands for are indistinguishable in
 * JSON, in the C API and in error paths. */
#include <string.h>
#include "core/bytes.h"
#include "core/model/model.h"

/* A field of `size` bytes kept as they are (a blob, or a fixed-size string). */
static int is_byte_string(const rb_layout_field *f) { return f->kind == RB_K_BLOB || f->kind == RB_K_STRING; }

size_t rb_layout_field_bytes(const rb_layout_field *f)
{
    if (f->kind == RB_K_RECORD) return rb_layout_stride(f->record);
    return is_byte_string(f) ? f->size : (size_t)(f->wire & RB_W_WIDTH);
}

size_t rb_layout_stride(const rb_layout *layout)
{
    size_t stride = 0;
    for (size_t i = 0; i < layout->field_count; i++) stride += rb_layout_field_bytes(&layout->fields[i]);
    return stride;
}

size_t rb_layout_node_count(const rb_layout *layout)
{
    size_t count = 0;
    for (size_t i = 0; i < layout->field_count; i++) {
        const rb_layout_field *f = &layout->fields[i];
        if (f->kind != RB_LAYOUT_CONSTANT) count++;
        if (f->kind == RB_K_RECORD) count += rb_layout_node_count(f->record);
    }
    return count;
}

static size_t model_field_count(const rb_layout *layout)
{
    size_t count = 0;
    for (size_t i = 0; i < layout->field_count; i++) count += layout->fields[i].kind != RB_LAYOUT_CONSTANT;
    return count;
}

static int is_bare_scalar(const rb_layout *layout) { return layout->field_count == 1 && !layout->fields[0].key; }

/* Where the element being built puts its nodes. */
typedef struct element_builder {
    const rb_node *table;
    const uint8_t *row; /* the element's packed bytes */
    uint32_t base;      /* the element's source offset */
    uint32_t offset;    /* bytes of the element consumed so far */
    rb_node *nodes;
    rb_node **kids;
    size_t used_nodes, used_kids;
} element_builder;

static rb_node *new_node(element_builder *b, rb_kind kind, const char *key)
{
    rb_node *n = &b->nodes[b->used_nodes++];
    memset(n, 0, sizeof(*n));
    n->kind = (uint8_t)kind;
    n->key = key;
    n->section = b->table->section;
    n->src_offset = b->base + b->offset;
    return n;
}

/* One scalar or blob: what the primitive it stands for would have made reading these bytes. */
static void fill_leaf(element_builder *b, rb_node *n, const rb_layout_field *f)
{
    const uint8_t *p = b->row + b->offset;
    if (is_byte_string(f)) {
        n->v.bytes.data = p;
        n->v.bytes.size = f->size;
        n->src_size = f->size;
    } else {
        n->wire = f->wire;
        n->src_size = f->wire & RB_W_WIDTH;
        n->v.bits = rb_load_le(p, n->src_size);
    }
    b->offset += n->src_size;
}

/* The fields of `layout` as the children of `record`, which covers their bytes. */
static void fill_record(element_builder *b, rb_node *record, const rb_layout *layout)
{
    size_t fields = model_field_count(layout), k = 0;
    record->v.kids.items = b->kids + b->used_kids;
    record->v.kids.count = record->v.kids.cap = (uint32_t)fields;
    b->used_kids += fields;
    for (size_t i = 0; i < layout->field_count; i++) {
        const rb_layout_field *f = &layout->fields[i];
        if (f->kind == RB_LAYOUT_CONSTANT) { /* on the wire, not in the model */
            b->offset += f->wire & RB_W_WIDTH;
            continue;
        }
        rb_node *n = new_node(b, f->kind, f->key);
        record->v.kids.items[k++] = n;
        if (f->kind == RB_K_RECORD) fill_record(b, n, f->record);
        else fill_leaf(b, n, f);
    }
    record->src_size = b->base + b->offset - record->src_offset;
}

rb_node *rb_table_element(const rb_node *table, size_t index, rb_node *nodes, rb_node **kids)
{
    const rb_table *t = table->table;
    element_builder b = {.table = table, .row = table->v.bytes.data + index * t->stride,
                         .base = table->src_offset + (uint32_t)(index * t->stride), .nodes = nodes, .kids = kids};
    if (is_bare_scalar(t->layout)) {
        rb_node *n = new_node(&b, t->layout->fields[0].kind, NULL);
        fill_leaf(&b, n, &t->layout->fields[0]);
        return n;
    }
    rb_node *element = new_node(&b, RB_K_RECORD, NULL);
    fill_record(&b, element, t->layout);
    return element;
}

rb_node *rb_table_nodes(const rb_node *table, rb_arena *arena)
{
    const rb_table *t = table->table;
    size_t below = rb_layout_node_count(t->layout), per_element = below + 1;
    size_t count = table->kind == RB_K_PACKED ? 1 : t->count;
    rb_node *nodes = rb_arena_alloc(arena, (count ? count : 1) * per_element * sizeof(rb_node));
    rb_node **kids = rb_arena_alloc(arena, (count && below ? count * below : 1) * sizeof(rb_node *));
    if (!nodes || !kids) return NULL;
    if (table->kind == RB_K_PACKED) { /* the record, with the packed node's key and place */
        rb_node *record = rb_table_element(table, 0, nodes, kids);
        record->key = table->key;
        record->section = table->section;
        return record;
    }
    rb_node *list = rb_arena_alloc(arena, sizeof *list);
    rb_node **items = rb_arena_alloc(arena, (count ? count : 1) * sizeof(rb_node *));
    if (!list || !items) return NULL;
    for (size_t i = 0; i < count; i++)
        items[i] = rb_table_element(table, i, nodes + i * per_element, kids + i * below);
    *list = *table;
    list->kind = RB_K_LIST;
    list->table = NULL;
    list->v.kids.items = items;
    list->v.kids.count = (uint32_t)count;
    list->v.kids.cap = (uint32_t)count;
    return list;
}

/* The node becomes what it stands for, in place: it keeps its key and place. */
int rb_table_expand(rb_node *table)
{
    if (table->kind != RB_K_TABLE && table->kind != RB_K_PACKED) return 1;
    const rb_node *nodes = rb_table_nodes(table, table->table->arena);
    if (!nodes) return 0;
    table->kind = nodes->kind;
    table->table = NULL;
    table->v.kids = nodes->v.kids;
    return 1;
}

const rb_node *rb_record_view(const rb_node *record, rb_record_scratch *scratch)
{
    if (!record || record->kind != RB_K_PACKED) return record;
    return rb_table_element(record, 0, scratch->nodes, scratch->kids);
}
