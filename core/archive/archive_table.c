/* The archive: tables (packed elements) and packed records (archive_internal.h). */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "core/archive/archive_internal.h"

/* FROM_JSON of a deferring build (at the end of this file): the table just built element by
 * element since `unit` (the current container's last child) becomes the packed table a read
 * makes of it, its elements' wire bytes in one node (a table of samples is a few bytes an
 * element, not a record of nodes); it stays a list when an element does not have the layout's
 * fields. The same for one packed record (RB_K_PACKED, as a read makes it). */
static void pack_built_table(rb_ar *ar, const rb_ar_unit *unit, const rb_layout *layout, size_t stride);
static void pack_built_record(rb_ar *ar, const rb_ar_unit *unit, const rb_layout *layout);
static rb_table *packed_table(rb_ar *ar, const rb_layout *layout);

/* ---------- tables ---------- */

/* A value the format fixes: READ checks it, WRITE emits it; never a model field. */
static void layout_constant(rb_ar *ar, const rb_layout_field *f)
{
    rb_slot slot = rb_ar_slot(ar, f->key, f->wire);
    if (ar->dir == RB_AR_READ && !ar->failed && slot.value != f->constant)
        rb_ar_fail(ar, RB_E_FORMAT, "%s is %" PRIu64 ", the format fixes it at %" PRIu32, f->key, slot.value, f->constant);
    rb_ar_slot_set(ar, &slot, f->constant);
}

/* The fields of a layout spelled out with the primitives they stand for. */
static void layout_fields(rb_ar *ar, const rb_layout *layout)
{
    for (size_t i = 0; i < layout->field_count && !ar->failed; i++) {
        const rb_layout_field *f = &layout->fields[i];
        switch (f->kind) {
        case RB_K_RECORD: rb_ar_layout_record(ar, f->key, f->record); break;
        case RB_K_INT: rb_ar_uint(ar, f->key, f->wire); break;
        case RB_K_FLOAT: ar_float_field(ar, f->key, f->wire & RB_W_WIDTH); break;
        case RB_K_BOOL: rb_ar_bool(ar, f->key, f->wire & RB_W_WIDTH); break;
        case RB_K_BLOB: rb_ar_bytes(ar, f->key, RB_K_BLOB, f->size); break;
        case RB_K_STRING: rb_ar_fixed_string(ar, f->key, f->size); break;
        case RB_LAYOUT_CONSTANT: layout_constant(ar, f); break;
        }
    }
}

void rb_ar_layout_record(rb_ar *ar, const char *key, const rb_layout *layout)
{
    rb_ar_record_begin(ar, key);
    layout_fields(ar, layout);
    rb_ar_record_end(ar);
}

void rb_ar_layout_fields(rb_ar *ar, const rb_layout *layout, size_t first)
{
    if (first > layout->field_count) first = layout->field_count;
    rb_layout rest = {layout->name, layout->fields + first, (uint16_t)(layout->field_count - first)};
    layout_fields(ar, &rest);
}

/* One element of a table spelled out (text, FROM_JSON, and WRITE of a table turned into nodes). */
static void layout_element(rb_ar *ar, const rb_layout *layout)
{
    if (layout->field_count == 1 && !layout->fields[0].key) layout_fields(ar, layout); /* a bare scalar */
    else rb_ar_layout_record(ar, NULL, layout);
}

/* The model's next node when it is a table (WRITE), else NULL. */
static rb_node *next_table(rb_ar *ar)
{
    ar_frame *f = ar_top_frame(ar);
    if (ar->dir != RB_AR_WRITE || f->next >= f->node->v.kids.count) return NULL;
    rb_node *n = f->node->v.kids.items[f->next];
    return n->kind == RB_K_TABLE ? n : NULL;
}

/* Lists the constants of `layout` (starting `offset` bytes into an element) in wire order. */
static size_t list_constants(ar_layout_facts *facts, const rb_layout *layout, size_t offset)
{
    for (size_t i = 0; i < layout->field_count; i++) {
        const rb_layout_field *f = &layout->fields[i];
        if (f->kind == RB_K_RECORD) list_constants(facts, f->record, offset);
        if (f->kind == RB_LAYOUT_CONSTANT) {
            if (facts->constant_count < AR_LAYOUT_CONSTANTS) {
                facts->constants[facts->constant_count].offset = offset;
                facts->constants[facts->constant_count].field = f;
            }
            facts->constant_count++;
        }
        offset += rb_layout_field_bytes(f);
    }
    return offset;
}

static const ar_layout_facts *layout_facts(rb_ar *ar, const rb_layout *layout)
{
    uint32_t hash = (uint32_t)((uintptr_t)layout >> 3) * UINT32_C(0x9E3779B1); /* Fibonacci hashing */
    size_t i = (hash >> 16) % AR_LAYOUT_CACHE;
    ar_layout_facts *c = &ar->layout_facts[i];
    /* layouts are static (model.h); the fields are compared too so that one built in memory that
     * is later reused for another cannot be taken for it */
    if (!(ar->layout_facts_set >> i & 1) || c->layout != layout || c->fields != layout->fields ||
        c->field_count != layout->field_count) {
        ar->layout_facts_set |= UINT32_C(1) << i;
        *c = (ar_layout_facts){.layout = layout, .fields = layout->fields, .field_count = layout->field_count,
                               .stride = rb_layout_stride(layout), .nodes = rb_layout_node_count(layout)};
        list_constants(c, layout, 0);
    }
    return c;
}

static int constants_hold(rb_ar *ar, const char *key, uint64_t count, const rb_layout *layout, size_t stride,
                          size_t offset);

/* READ, binary: constants_hold through the listed constants; the layout is walked only to report a
 * constant that does not hold (or when there are too many to list). */
static int facts_hold(rb_ar *ar, const char *key, uint64_t count, const ar_layout_facts *facts)
{
    if (!facts->constant_count) return 1;
    if (facts->constant_count <= AR_LAYOUT_CONSTANTS) {
        const ar_range *r = ar_top_range(ar);
        const uint8_t *base = r->base + r->pos;
        int hold = 1;
        for (size_t c = 0; c < facts->constant_count && hold; c++) {
            const rb_layout_field *f = facts->constants[c].field;
            const uint8_t *p = base + facts->constants[c].offset;
            for (uint64_t e = 0; e < count && hold; e++, p += facts->stride) hold = ar_decode_int(p, f->wire) == f->constant;
        }
        if (hold) return 1;
    }
    return constants_hold(ar, key, count, facts->layout, facts->stride, 0);
}

/* READ, binary: every element's constants (RB_LAYOUT_CONSTANT, nested records included) are what
 * the format fixes; the first that is not fails at its own offset, its element named. `offset` is
 * where `layout` starts inside an element. */
static int constants_hold(rb_ar *ar, const char *key, uint64_t count, const rb_layout *layout, size_t stride,
                          size_t offset)
{
    ar_range *r = ar_top_range(ar);
    for (size_t i = 0; i < layout->field_count; i++) {
        const rb_layout_field *f = &layout->fields[i];
        if (f->kind == RB_K_RECORD && !constants_hold(ar, key, count, f->record, stride, offset)) return 0;
        for (uint64_t e = 0; f->kind == RB_LAYOUT_CONSTANT && e < count; e++) {
            uint64_t value = ar_decode_int(r->base + r->pos + e * stride + offset, f->wire);
            if (value == f->constant) continue;
            r->pos += e * stride + offset;
            ar_fail_at(ar, RB_E_FORMAT, key, "element %" PRIu64 ": %s is %" PRIu64 ", the format fixes it at %" PRIu32, e,
                    f->key, value, f->constant);
            return 0;
        }
        offset += rb_layout_field_bytes(f);
    }
    return 1;
}

/* READ, binary: `count` elements stay in the input as one node. */
static void read_packed_table(rb_ar *ar, const char *key, uint64_t count, const rb_layout *layout, size_t stride,
                              const ar_layout_facts *facts)
{
    rb_node *n = ar_field(ar, key, RB_K_TABLE, 0, NULL);
    rb_table *t = n ? rb_arena_alloc(&ar->doc->arena, sizeof(*t)) : NULL;
    if (n && !t) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
    if (!t) return;
    if (!facts_hold(ar, key, count, facts)) return;
    const uint8_t *p = ar_take(ar, key, count * stride);
    if (!p) return;
    *t = (rb_table){.layout = layout, .arena = &ar->doc->arena, .count = (uint32_t)count, .stride = (uint32_t)stride};
    n->table = t;
    n->v.bytes.data = p;
    n->v.bytes.size = count * stride;
    ar_note_size(ar, n);
}

/* The list spelled out element by element. */
static uint64_t spelled_table(rb_ar *ar, const char *key, uint64_t count, int counted, unsigned count_wire,
                              const rb_layout *layout, size_t stride)
{
    /* a deferring build packs it as a read would (pack_built_table) */
    rb_ar_unit unit = ar->dir == RB_AR_FROM_JSON ? rb_ar_unit_begin(ar) : (rb_ar_unit){0};
    uint64_t n = counted ? rb_ar_list_begin(ar, key, count_wire, stride) : ar_list_begin(ar, key, count, stride);
    for (uint64_t i = 0; i < n && !ar->failed; i++) layout_element(ar, layout);
    rb_ar_list_end(ar);
    if (unit.open && !ar->failed) pack_built_table(ar, &unit, layout, stride);
    return n;
}

static uint64_t table(rb_ar *ar, const char *key, uint64_t count, int counted, unsigned count_wire,
                      const rb_layout *layout)
{
    if (ar->failed) return 0;
    const ar_layout_facts *facts = layout_facts(ar, layout);
    size_t stride = facts->stride;
    if (facts->nodes > RB_LAYOUT_MAX_FIELDS || !stride) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "layout \"%s\" has no bytes or more than %d fields", layout->name,
                   RB_LAYOUT_MAX_FIELDS);
        return 0;
    }
    if (ar->dir == RB_AR_READ && !ar->text) {
        if (counted) count = ar_read_binary_count(ar, key, count_wire, stride);
        else if (!ar_count_is_plausible(ar, key, count, stride, 0)) return 0;
        if (!ar->failed && count > UINT32_MAX / stride) {
            ar_fail_at(ar, RB_E_LIMIT, key, "table of %" PRIu64 " elements is beyond 4 GiB", count);
            return 0;
        }
        if (!ar->failed) read_packed_table(ar, key, count, layout, stride, facts);
        return ar->failed ? 0 : count;
    }
    rb_node *packed = next_table(ar);
    /* a text write spells it out: its nodes made in the write's memory (ar_field) */
    if (!packed || ar->text) return spelled_table(ar, key, count, counted, count_wire, layout, stride);
    if (packed->table->layout != layout) {
        ar_fail_at(ar, RB_E_MODEL, key, "model has a table of %s where %s was expected", packed->table->layout->name,
                layout->name);
        return 0;
    }
    if (counted) ar_emit_int(ar, packed->table->count, count_wire);
    if (!ar_field(ar, key, RB_K_TABLE, 0, NULL)) return 0;
    rb_buf_put(ar_out(ar), packed->v.bytes.data, packed->v.bytes.size);
    return packed->table->count;
}

uint64_t rb_ar_table_detached(rb_ar *ar, const char *key, const rb_layout *layout, const uint8_t *read_bytes,
                              uint64_t read_count)
{
    if (ar->failed) return 0;
    size_t stride = rb_layout_stride(layout);
    if (ar->dir == RB_AR_FROM_JSON) return spelled_table(ar, key, 0, 0, 0, layout, stride);
    if (ar->dir == RB_AR_WRITE) { /* the model's list, in either form; nothing is emitted */
        rb_node *next = next_table(ar);
        rb_node *n = ar_field(ar, key, next ? RB_K_TABLE : RB_K_LIST, 0, NULL);
        return n ? rb_element_count(n) : 0;
    }
    if (read_count > UINT32_MAX / (stride ? stride : 1)) {
        ar_fail_at(ar, RB_E_LIMIT, key, "table of %" PRIu64 " elements is beyond 4 GiB", read_count);
        return 0;
    }
    rb_node *n = ar_field(ar, key, RB_K_TABLE, 0, NULL);
    rb_table *t = n ? rb_arena_alloc(&ar->doc->arena, sizeof(*t)) : NULL;
    if (!t) {
        if (n) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return 0;
    }
    *t = (rb_table){.layout = layout, .arena = &ar->doc->arena, .count = (uint32_t)read_count, .stride = (uint32_t)stride};
    n->table = t;
    n->v.bytes.data = read_bytes;
    n->v.bytes.size = read_count * stride;
    n->src_size = 0; /* not at the cursor: it covers no input bytes */
    return read_count;
}

uint64_t rb_ar_table(rb_ar *ar, const char *key, unsigned count_wire, const rb_layout *layout)
{
    return table(ar, key, 0, 1, count_wire, layout);
}

uint64_t rb_ar_table_n(rb_ar *ar, const char *key, uint64_t count, const rb_layout *layout)
{
    return table(ar, key, count, 0, 0, layout);
}

/* ---------- packed records ---------- */

const rb_layout *rb_ar_next_packed(rb_ar *ar)
{
    if (ar->failed || ar->dir != RB_AR_WRITE || ar->text) return NULL;
    ar_frame *f = ar_top_frame(ar);
    if (f->next >= f->node->v.kids.count) return NULL;
    const rb_node *n = f->node->v.kids.items[f->next];
    return n->kind == RB_K_PACKED ? n->table->layout : NULL;
}

/* READ: the layout's checked shared side data (one per layout and document: a packed record then
 * costs its node alone); NULL after an error. */
static rb_table *packed_table(rb_ar *ar, const rb_layout *layout)
{
    for (size_t i = 0; i < ar->packed_table_count; i++)
        if (ar->packed_tables[i].layout == layout) return ar->packed_tables[i].table;
    size_t stride = rb_layout_stride(layout);
    if (rb_layout_node_count(layout) > RB_LAYOUT_MAX_FIELDS || !stride) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "layout \"%s\" has no bytes or more than %d fields", layout->name,
                   RB_LAYOUT_MAX_FIELDS);
        return NULL;
    }
    rb_table *t = rb_arena_alloc(&ar->doc->arena, sizeof(*t));
    if (!t) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    *t = (rb_table){.layout = layout, .arena = &ar->doc->arena, .count = 1, .stride = (uint32_t)stride};
    if (ar->packed_table_count < AR_MAX_PACKED_LAYOUTS)
        ar->packed_tables[ar->packed_table_count++] = (ar_packed_table){layout, t};
    return t;
}

/* READ, binary: the record's bytes stay in the input as one node. */
static const rb_node *read_packed_record(rb_ar *ar, const char *key, const rb_layout *layout)
{
    rb_table *t = packed_table(ar, layout);
    /* the bytes are there before the constants are looked at */
    if (!t || !ar_bytes_left(ar, key, t->stride) || !facts_hold(ar, key, 1, layout_facts(ar, layout))) return NULL;
    rb_node *n = ar_field(ar, key, RB_K_PACKED, 0, NULL);
    const uint8_t *p = n ? ar_take(ar, key, t->stride) : NULL;
    if (!p) return NULL;
    n->table = t;
    n->v.bytes.data = p;
    n->v.bytes.size = t->stride;
    ar_note_size(ar, n);
    return n;
}

const rb_node *rb_ar_packed_record(rb_ar *ar, const char *key, const rb_layout *layout)
{
    if (ar->failed) return NULL;
    if (ar->dir == RB_AR_READ && !ar->text) return read_packed_record(ar, key, layout);
    const rb_layout *packed = rb_ar_next_packed(ar);
    if (!packed) { /* FROM_JSON, text, or a record an edit turned into nodes */
        rb_ar_unit unit = ar->dir == RB_AR_FROM_JSON ? rb_ar_unit_begin(ar) : (rb_ar_unit){0};
        rb_ar_layout_record(ar, key, layout);
        if (unit.open && !ar->failed) pack_built_record(ar, &unit, layout); /* a deferring build */
        return NULL;
    }
    if (packed != layout) {
        ar_fail_at(ar, RB_E_MODEL, key, "model has a packed %s where %s was expected", packed->name, layout->name);
        return NULL;
    }
    rb_node *n = ar_field(ar, key, RB_K_PACKED, 0, NULL);
    if (n) rb_buf_put(ar_out(ar), n->v.bytes.data, n->v.bytes.size);
    return n;
}

const rb_node *rb_ar_current(rb_ar *ar) { return ar_top_frame(ar)->node; }

rb_node *rb_ar_own(rb_ar *ar, const rb_node *n)
{
    rb_node *container = ar_top_frame(ar)->node;
    if (!n || !rb_node_is_container(container)) return NULL;
    for (size_t i = container->v.kids.count; i-- > 0;) /* the one just made is last */
        if (container->v.kids.items[i] == n) return container->v.kids.items[i];
    return NULL;
}

const rb_node *rb_ar_enclosing(rb_ar *ar, size_t up)
{
    int in_frames = up + 1 < ar->frame_count || (up + 1 == ar->frame_count && !ar->around_count);
    ar->enclosing_reads[in_frames ? ar->frame_count - 1 - up : 0]++;
    if (in_frames) return ar->frames[ar->frame_count - 1 - up].node;
    size_t beyond = up + 1 - ar->frame_count; /* 0: the container the root stands in for */
    return beyond < ar->around_count ? ar->around[beyond] : NULL;
}

/* ---------- a deferring build packs what it built (archive_internal.h) ---------- */

static void pack_built_table(rb_ar *ar, const rb_ar_unit *u, const rb_layout *layout, size_t stride)
{
    rb_node *list = ar_unit_node(ar, u);
    size_t count = list && list->kind == RB_K_LIST ? list->v.kids.count : 0;
    if (!count || !stride || count > UINT32_MAX / stride) return;
    uint8_t *bytes = malloc(count * stride);
    for (size_t i = 0; bytes && i < count; i++)
        if (!rb_element_pack(list, i, layout, bytes + i * stride)) {
            free(bytes); /* not the layout's fields: the list stays as built */
            return;
        }
    if (!bytes) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    const char *key = list->key; /* a description's literal: it survives the nodes */
    ar_unit_free(ar, u);
    rb_node *t = rb_node_new(&ar->doc->arena, RB_K_TABLE, key);
    rb_table *side = rb_arena_alloc(&ar->doc->arena, sizeof *side);
    uint8_t *kept = rb_arena_dup(&ar->doc->arena, bytes, count * stride);
    free(bytes);
    if (!t || !side || !kept) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    *side = (rb_table){.layout = layout, .arena = &ar->doc->arena, .count = (uint32_t)count, .stride = (uint32_t)stride};
    t->table = side;
    t->v.bytes.data = kept;
    t->v.bytes.size = count * stride;
    ar_top_frame(ar)->node->v.kids.items[u->kids] = t;
}

static void pack_built_record(rb_ar *ar, const rb_ar_unit *u, const rb_layout *layout)
{
    rb_node *record = ar_unit_node(ar, u);
    if (!record) return;
    size_t stride = rb_layout_stride(layout);
    uint8_t *bytes = stride ? malloc(stride) : NULL;
    rb_node holder = {.kind = RB_K_LIST};
    holder.v.kids.items = &record;
    holder.v.kids.count = 1;
    if (!bytes || !rb_element_pack(&holder, 0, layout, bytes)) { /* stays as built */
        free(bytes);
        return;
    }
    const char *key = record->key;
    ar_unit_free(ar, u);
    rb_table *shared = packed_table(ar, layout);
    rb_node *n = shared ? rb_node_new(&ar->doc->arena, RB_K_PACKED, key) : NULL;
    uint8_t *kept = n ? rb_arena_dup(&ar->doc->arena, bytes, stride) : NULL;
    free(bytes);
    if (!kept) {
        if (!ar->failed) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return;
    }
    n->table = shared;
    n->v.bytes.data = kept;
    n->v.bytes.size = stride;
    ar_top_frame(ar)->node->v.kids.items[u->kids] = n;
}
