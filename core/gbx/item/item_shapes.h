/*
 * Shapes shared by the item model files (crystal.c, entity_models.c, solid2.c): the "optimized"
 * integers of meshes, whose byte width the file derives from a count (docs/formats/gbx_item.md
 * "Optimized integers"), and small checks. Private to core/gbx/item.
 */
#ifndef RB_GBX_ITEM_SHAPES_H
#define RB_GBX_ITEM_SHAPES_H
#include "core/gbx/engine/gbx_internal.h"

/* Reject a version whose layout is not known: guessing would misread all that follows. */
int item_version_known(rb_ar *ar, uint32_t version, uint32_t max, const char *what);

/* Width of the elements of an optimized array, from the count it is determined by (>= bounds). */
unsigned item_opt_array_width(uint64_t determine_from);
/* Width of a single optimized integer (GBX.NET ReadOptimizedInt: > bounds, unlike arrays). */
unsigned item_opt_single_width(uint64_t determine_from);

/* `count` unsigned integers of `width` bytes each; the model holds them as a table of u32 (the
 * width is derived when writing, and every value must fit it). Returns the element count. */
uint64_t item_opt_uints(rb_ar *ar, const char *key, uint64_t count, unsigned width);
/* One unsigned integer of `width` bytes, held as u32. Returns the value. */
uint32_t item_opt_uint(rb_ar *ar, const char *key, unsigned width);
/* A u32-counted optimized array whose width follows from its own length (GBX.NET
 * ReadArrayOptimizedInt()). */
uint64_t item_opt_uint_list(rb_ar *ar, const char *key);
/* A u32-counted array of index pairs whose packing follows from `determine_from` (the number of
 * what the indices index): 2 bytes per pair below 255, 4 below 65535, else two i32. Held as a
 * table of {a, b} u32. */
uint64_t item_opt_pair_list(rb_ar *ar, const char *key, uint64_t determine_from);

/* A u32-counted list whose count must fit in the bytes left (a misread count fails as a layout
 * mismatch, not as the archive's count limit). */
uint64_t item_list_begin(rb_ar *ar, const char *key, uint64_t min_item_bytes);
/* Such a list of records that are each one field run (gbx_fields); returns its length. */
uint64_t item_fields_list(rb_ar *ar, const char *key, uint64_t min_item_bytes, const gbx_field *fields, size_t count);

/* Counted tables of bare numbers and vectors. */
uint64_t item_vec3_table(rb_ar *ar, const char *key);
uint64_t item_vec2_table(rb_ar *ar, const char *key);
uint64_t item_f32_table(rb_ar *ar, const char *key);
uint64_t item_f32_table_n(rb_ar *ar, const char *key, uint64_t count);
uint64_t item_i32_table_n(rb_ar *ar, const char *key, uint64_t count);
void item_iso4(rb_ar *ar, const char *key);
/* A u32-counted list of lookback ids. */
void item_id_list(rb_ar *ar, const char *key);

/* A count stored before its list: READ returns the stored value, other directions the length
 * of list `key` of the current record, which the slot then receives. */
typedef struct item_count {
    rb_slot slot;
    uint64_t count;
} item_count;
item_count item_count_begin(rb_ar *ar, const char *what, unsigned wire, const char *list_key);
void item_count_end(rb_ar *ar, item_count *c, uint64_t actual);

/* How a solid's lighting was precomputed (`preLightGenerator`): a CPlugSolid2Model's UV groups
 * hold 4 values (int4, kept as bits), an old CPlugSolid's 5 floats. */
void item_pre_light_gen(rb_ar *ar, int uv_group_values);

/* Number of elements of list `key` in the chunk `chunk_id` of the node being described (a
 * chunk describing a mesh needs the material count an earlier chunk holds); 0 when absent. */
uint64_t item_sibling_chunk_count(rb_ar *ar, uint32_t chunk_id, const char *key);
/* Scalar `key` of that chunk (raw bits) in *value; 0 when there is no such chunk or field. */
int item_sibling_chunk_uint(rb_ar *ar, uint32_t chunk_id, const char *key, uint64_t *value);
#endif
