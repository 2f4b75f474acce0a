/*
 * Shapes shared by the item model files: optimized integers (docs/formats/gbx_item.md
 * "Optimized integers"), counted tables, the material count a mesh chunk reads from an earlier
 * chunk of its node.
 */
#include <string.h>
#include "core/bytes.h"
#include "core/gbx/item/item_shapes.h"

int item_version_known(rb_ar *ar, uint32_t version, uint32_t max, const char *what)
{
    if (rb_ar_ok(ar) && version > max) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "%s version %u is not known (up to %u are)", what, version, max);
        return 0;
    }
    return rb_ar_ok(ar);
}

unsigned item_opt_array_width(uint64_t determine_from)
{
    return determine_from >= 0xFFFF ? 4 : determine_from >= 0xFF ? 2 : 1;
}

unsigned item_opt_single_width(uint64_t determine_from)
{
    return determine_from > 0xFFFF ? 4 : determine_from > 0xFF ? 2 : 1;
}

static const rb_layout_field U32_FIELD[] = {{NULL, RB_K_INT, RB_U32}};
static const rb_layout U32_ELEMENT = {"index", U32_FIELD, 1};
static const rb_layout_field PAIR_FIELDS[] = {{"a", RB_K_INT, RB_U32}, {"b", RB_K_INT, RB_U32}};
static const rb_layout PAIR_ELEMENT = {"index pair", PAIR_FIELDS, 2};

static int fits(uint64_t v, unsigned width) { return width >= 4 ? v <= UINT32_MAX : v < (1ull << (8 * width)); }

/* READ: the detached table covers the bytes it was read from (coverage counts them typed). */
static void cover(rb_ar *ar, const char *key, uint64_t bytes)
{
    rb_node *n = rb_ar_own(ar, rb_node_get(rb_ar_current(ar), key));
    if (n) n->src_size = (uint32_t)bytes;
}

/* The widths the values are stored in; `per` u32 model values make one wire element of `wire` bytes. */
static uint64_t opt_table(rb_ar *ar, const char *key, uint64_t count, unsigned width, const rb_layout *layout)
{
    unsigned per = layout == &PAIR_ELEMENT ? 2 : 1;
    if (rb_ar_direction(ar) == RB_AR_READ) {
        if (!rb_ar_ok(ar)) return 0;
        if (count > rb_ar_remaining(ar) / width) {
            rb_ar_fail(ar, RB_E_FORMAT, "%s: %llu elements of %u bytes cannot fit in the %llu bytes left", key,
                       (unsigned long long)count, width, (unsigned long long)rb_ar_remaining(ar));
            return 0;
        }
        /* an empty table still points somewhere: comparing two tables memcmp()s their bytes */
        static const uint32_t no_values[2];
        const uint8_t *src = count ? rb_ar_take(ar, key, count * width) : NULL;
        uint32_t *values = count ? rb_arena_alloc(rb_ar_arena(ar), count * per * sizeof(uint32_t)) : (uint32_t *)no_values;
        if (count && (!src || !values)) {
            if (src) rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
            return 0;
        }
        for (uint64_t i = 0; i < count; i++) {
            uint32_t v = (uint32_t)rb_load_le(src + i * width, width);
            if (per == 1) values[i] = v;
            else if (width == 2) values[2 * i] = v & 0xFF, values[2 * i + 1] = v >> 8;
            else if (width == 4) values[2 * i] = v & 0xFFFF, values[2 * i + 1] = v >> 16;
            else values[2 * i] = v, values[2 * i + 1] = (uint32_t)rb_load_le(src + i * width + 4, 4);
        }
        uint64_t n = rb_ar_table_detached(ar, key, layout, (const uint8_t *)values, count);
        cover(ar, key, count * width);
        return n;
    }
    uint64_t n = rb_ar_table_detached(ar, key, layout, NULL, 0);
    const rb_node *list = rb_node_get(rb_ar_current(ar), key);
    unsigned part = per == 1 ? width : width / 2; /* bytes per value */
    for (uint64_t i = 0; list && i < n && rb_ar_ok(ar); i++) {
        uint32_t v[2];
        for (unsigned k = 0; k < per; k++) {
            uint64_t x = rb_element_uint(list, i, per == 1 ? NULL : PAIR_FIELDS[k].key);
            if (!fits(x, part)) {
                rb_ar_fail(ar, RB_E_MODEL, "%s[%llu]: %llu does not fit the %u-byte width this list is stored in", key,
                           (unsigned long long)i, (unsigned long long)x, part);
                return 0;
            }
            v[k] = (uint32_t)x;
        }
        if (rb_ar_direction(ar) != RB_AR_WRITE) continue;
        uint8_t out[8];
        if (per == 1) rb_store_le(out, v[0], width);
        else if (width == 8) rb_store_le(out, v[0], 4), rb_store_le(out + 4, v[1], 4);
        else rb_store_le(out, v[0] | (v[1] << (4 * width)), width);
        rb_ar_emit(ar, out, width);
    }
    return n;
}

uint64_t item_opt_uints(rb_ar *ar, const char *key, uint64_t count, unsigned width)
{
    return opt_table(ar, key, count, width, &U32_ELEMENT);
}

uint32_t item_opt_uint(rb_ar *ar, const char *key, unsigned width)
{
    if (!rb_ar_ok(ar)) return 0;
    if (rb_ar_direction(ar) == RB_AR_READ) {
        const uint8_t *src = rb_ar_take(ar, key, width);
        if (!src) return 0;
        uint32_t v = (uint32_t)rb_ar_uint_detached(ar, key, RB_U32, (uint32_t)rb_load_le(src, width));
        cover(ar, key, width);
        return v;
    }
    uint64_t v = rb_ar_uint_detached(ar, key, RB_U32, 0);
    if (rb_ar_ok(ar) && !fits(v, width)) {
        rb_ar_fail(ar, RB_E_MODEL, "%s: %llu does not fit the %u-byte width it is stored in", key, (unsigned long long)v,
                   width);
        return 0;
    }
    if (rb_ar_direction(ar) == RB_AR_WRITE && rb_ar_ok(ar)) {
        uint8_t out[4];
        rb_store_le(out, (uint32_t)v, width);
        rb_ar_emit(ar, out, width);
    }
    return (uint32_t)v;
}

item_count item_count_begin(rb_ar *ar, const char *what, unsigned wire, const char *list_key)
{
    item_count c = {.slot = rb_ar_slot(ar, what, wire)};
    c.count = rb_ar_count_of(ar, list_key, c.slot.value);
    return c;
}

void item_count_end(rb_ar *ar, item_count *c, uint64_t actual) { rb_ar_slot_set(ar, &c->slot, actual); }

uint64_t item_opt_uint_list(rb_ar *ar, const char *key)
{
    item_count c = item_count_begin(ar, "count", RB_U32, key);
    uint64_t n = opt_table(ar, key, c.count, item_opt_array_width(c.count), &U32_ELEMENT);
    item_count_end(ar, &c, n);
    return n;
}

uint64_t item_opt_pair_list(rb_ar *ar, const char *key, uint64_t determine_from)
{
    item_count c = item_count_begin(ar, "count", RB_U32, key);
    unsigned width = determine_from >= 0xFFFF ? 8 : determine_from >= 0xFF ? 4 : 2;
    uint64_t n = opt_table(ar, key, c.count, width, &PAIR_ELEMENT);
    item_count_end(ar, &c, n);
    return n;
}

/* READ: a count that cannot fit in the bytes left is a layout mismatch, so a misread chunk falls
 * back to opaque bytes; the archive checks max_count first, and a count of garbage above that
 * limit would be a final error that fails the whole file. */
uint64_t item_list_begin(rb_ar *ar, const char *key, uint64_t min_item_bytes)
{
    uint32_t count = 0;
    if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_ok(ar) && rb_ar_peek_u32(ar, &count) && min_item_bytes &&
        count > (rb_ar_remaining(ar) - 4) / min_item_bytes) {
        rb_ar_fail(ar, RB_E_FORMAT, "%s: count %u cannot fit in the %llu bytes left", key ? key : "list", count,
                   (unsigned long long)(rb_ar_remaining(ar) - 4));
        return 0;
    }
    return rb_ar_list_begin(ar, key, RB_U32, min_item_bytes);
}

uint64_t item_fields_list(rb_ar *ar, const char *key, uint64_t min_item_bytes, const gbx_field *fields, size_t count)
{
    uint64_t n = item_list_begin(ar, key, min_item_bytes);
    RB_AR_RECORDS(ar, i, n) gbx_fields(ar, fields, count);
    return n;
}

static const rb_layout_field F32_FIELD[] = {{NULL, RB_K_FLOAT, 4}};
static const rb_layout F32_ELEMENT = {"float", F32_FIELD, 1};
static const rb_layout_field I32_FIELD[] = {{NULL, RB_K_INT, RB_I32}};
static const rb_layout I32_ELEMENT = {"int32", I32_FIELD, 1};
static const rb_layout_field VEC3_FIELDS[] = {{"x", RB_K_FLOAT, 4}, {"y", RB_K_FLOAT, 4}, {"z", RB_K_FLOAT, 4}};
static const rb_layout VEC3_ELEMENT = {"vec3", VEC3_FIELDS, 3};
static const rb_layout_field VEC2_FIELDS[] = {{"x", RB_K_FLOAT, 4}, {"y", RB_K_FLOAT, 4}};
static const rb_layout VEC2_ELEMENT = {"vec2", VEC2_FIELDS, 2};

uint64_t item_vec3_table(rb_ar *ar, const char *key) { return rb_ar_table(ar, key, RB_U32, &VEC3_ELEMENT); }
uint64_t item_vec2_table(rb_ar *ar, const char *key) { return rb_ar_table(ar, key, RB_U32, &VEC2_ELEMENT); }
uint64_t item_f32_table(rb_ar *ar, const char *key) { return rb_ar_table(ar, key, RB_U32, &F32_ELEMENT); }
uint64_t item_f32_table_n(rb_ar *ar, const char *key, uint64_t count)
{
    return rb_ar_table_n(ar, key, count, &F32_ELEMENT);
}
uint64_t item_i32_table_n(rb_ar *ar, const char *key, uint64_t count)
{
    return rb_ar_table_n(ar, key, count, &I32_ELEMENT);
}
void item_iso4(rb_ar *ar, const char *key) { gbx_floats(ar, key, 12); }

void item_id_list(rb_ar *ar, const char *key)
{
    uint64_t n = item_list_begin(ar, key, 4);
    RB_AR_LIST(ar, i, n) gbx_id(ar, NULL);
}

/* The field `key` of the chunk `chunk_id` among the chunks of the node being described. */
static const rb_node *sibling_chunk_field(rb_ar *ar, uint32_t chunk_id, const char *key)
{
    const rb_node *chunks = rb_ar_enclosing(ar, 1);
    for (size_t i = 0; chunks && rb_node_is_container(chunks) && i < chunks->v.kids.count; i++) {
        const rb_node *chunk = chunks->v.kids.items[i];
        const rb_node *id = rb_node_get(chunk, "id");
        if (id && gbx_remap_id((uint32_t)rb_node_uint(id)) == chunk_id) return rb_node_get(chunk, key);
    }
    return NULL;
}

uint64_t item_sibling_chunk_count(rb_ar *ar, uint32_t chunk_id, const char *key)
{
    const rb_node *list = sibling_chunk_field(ar, chunk_id, key);
    return list ? rb_element_count(list) : 0;
}

int item_sibling_chunk_uint(rb_ar *ar, uint32_t chunk_id, const char *key, uint64_t *value)
{
    const rb_node *n = sibling_chunk_field(ar, chunk_id, key);
    if (!n || rb_node_is_container(n)) return 0;
    *value = rb_node_uint(n);
    return 1;
}
