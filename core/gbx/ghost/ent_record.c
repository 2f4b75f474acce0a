/*
 * The decoded content of CPlugEntRecordData (0x0911F000, the TM2020-era ghost record): the
 * recorded entities, each a run of timed samples, then the events and trailing lists of later
 * versions. Layout: docs/formats/gbx_ghost.md "Entity records".
 *
 * Lists here end with a marker byte: 1 before each element, 0 after the last. The markers are
 * derived on write. A sample's state is the car's fields for the car (ent_samples.c), else its
 * bytes; from version 11 on the samples are stored transposed and delta-coded (ent_samples.c).
 * Content that the layout does not read to its last byte stays whole as opaque "data".
 */
#include <stdio.h>
#include "core/gbx/ghost/ghost.h"

#define I32(key) {key, RB_K_INT, RB_I32, 0, NULL, 0}
#define X32(key) {key, RB_K_INT, RB_X32, 0, NULL, 0}

static const rb_layout_field OBJECT_FIELDS[] = {X32("nodeId"), I32("u01"), I32("u02"), I32("u03"), I32("mwbuffer"),
                                                I32("u05")};
static const rb_layout OBJECT = {"recorded object", OBJECT_FIELDS, 6};
static const rb_layout_field OBJECT2_FIELDS[] = {I32("u02"), I32("u03"), X32("classId")};
static const rb_layout OBJECT2_V2 = {"recorded object (2)", OBJECT2_FIELDS, 2};
static const rb_layout OBJECT2_V4 = {"recorded object (2)", OBJECT2_FIELDS, 3};

/* an element of a marked list; `arg` is the version, or for samples the entity's class */
typedef void (*element_fn)(rb_ar *ar, uint32_t arg);

/* The marker before an element: 1 while one follows, 0 at the end. READ refuses other values
 * (the content then stays opaque); WRITE derives it from whether `more`. */
static int marker(rb_ar *ar, int more)
{
    rb_slot slot = rb_ar_slot(ar, "marker", RB_U8);
    if (rb_ar_direction(ar) == RB_AR_READ) {
        if (rb_ar_ok(ar) && slot.value > 1) rb_ar_fail(ar, RB_E_UNSUPPORTED, "a list marker is %llu, not 0 or 1",
                                                     (unsigned long long)slot.value);
        return rb_ar_ok(ar) && slot.value == 1;
    }
    rb_ar_slot_set(ar, &slot, more != 0);
    return more;
}

/* A list of elements each behind a marker byte, ended by a 0 marker. */
static void marked_list(rb_ar *ar, const char *key, element_fn element, uint32_t version)
{
    rb_ar_list_begin_open(ar, key);
    while (rb_ar_ok(ar) && marker(ar, rb_ar_list_has_more(ar))) {
        rb_ar_record_begin(ar, NULL);
        element(ar, version);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
}

/* A sample before version 11: its time and its state, typed for the car (when long enough). */
static void sample(rb_ar *ar, uint32_t entity_class)
{
    rb_ar_i32(ar, "time");
    uint32_t length = 0;
    int car = rb_ar_peek_u32(ar, &length) && gbx_ent_is_car_state(entity_class, length);
    if (rb_ar_has(ar, "state", rb_ar_direction(ar) == RB_AR_READ ? car : 0)) gbx_ent_car_state(ar);
    else gbx_data_blob(ar, "data");
}

static void event(rb_ar *ar, uint32_t version)
{
    (void)version;
    rb_ar_i32(ar, "type");
    rb_ar_i32(ar, "time");
    gbx_data_blob(ar, "data");
}

/* The class of the object an entity records: its bufferType indexes `objects` (0: unknown). */
static uint32_t entity_class(rb_ar *ar, uint32_t buffer_type)
{
    const rb_node *content = rb_ar_enclosing(ar, 2); /* entity record < entities < content */
    const rb_node *objects = content ? rb_node_get(content, "objects") : NULL;
    return buffer_type < rb_element_count(objects) ? (uint32_t)rb_element_uint(objects, buffer_type, "nodeId") : 0;
}

/* An entity: its header and samples; then the marker saying whether another entity follows (it
 * comes before this entity's events); then, from version 2, its events. */
static int entity(rb_ar *ar, uint32_t version, int another)
{
    rb_ar_record_begin(ar, NULL);
    int32_t buffer_type = rb_ar_i32(ar, "bufferType");
    rb_ar_i32(ar, "u06");
    rb_ar_i32(ar, "u07");
    rb_ar_i32(ar, "lengthMs");
    if (version >= 6) rb_ar_i32(ar, "u08");
    if (version >= 11) gbx_ent_encoded_samples(ar, entity_class(ar, (uint32_t)buffer_type));
    else marked_list(ar, "samples", sample, entity_class(ar, (uint32_t)buffer_type));
    int more = marker(ar, another);
    if (version >= 2) marked_list(ar, "events", event, version);
    rb_ar_record_end(ar);
    return more;
}

static void entities(rb_ar *ar, uint32_t version)
{
    rb_ar_list_begin_open(ar, "entities");
    uint64_t total = rb_ar_list_length(ar), index = 0;
    int more = marker(ar, rb_ar_list_has_more(ar));
    while (more && rb_ar_ok(ar)) {
        index++;
        more = entity(ar, version, rb_ar_direction(ar) != RB_AR_READ && index < total);
    }
    rb_ar_list_end(ar);
}

static void tail_19(rb_ar *ar, uint32_t version)
{
    (void)version;
    rb_ar_i32(ar, "u19");
    rb_ar_i32(ar, "u20");
    gbx_data_blob(ar, "data");
}

static void tail_one(rb_ar *ar, uint32_t version)
{
    (void)version;
    rb_ar_i32(ar, "u01");
    gbx_data_blob(ar, "data");
}

static void tail_two(rb_ar *ar, uint32_t version)
{
    (void)version;
    rb_ar_i32(ar, "u01");
    gbx_data_blob(ar, "data");
    gbx_data_blob(ar, "data2");
}

static void typed_content(rb_ar *ar, uint32_t version)
{
    rb_ar_i32(ar, "u01");
    rb_ar_i32(ar, "lengthMs");
    rb_ar_table(ar, "objects", RB_U32, &OBJECT);
    if (version >= 2) rb_ar_table(ar, "objects2", RB_U32, version >= 4 ? &OBJECT2_V4 : &OBJECT2_V2);
    entities(ar, version);
    if (version < 3) return;
    marked_list(ar, "u19s", tail_19, version);
    if (version == 7) marked_list(ar, "u23s", tail_one, version);
    if (version < 8) return;
    int32_t u23 = rb_ar_i32(ar, "u23");
    if (u23 == 0) return;
    marked_list(ar, version == 8 ? "u25s" : "u28s", version == 8 ? tail_one : tail_two, version);
    if (version >= 10) rb_ar_i32(ar, "period");
}

void gbx_ent_record_content(rb_ar *ar)
{
    const rb_node *chunk = rb_ar_enclosing(ar, 1);
    uint32_t version = (uint32_t)rb_node_uint(chunk ? rb_node_get(chunk, "version") : NULL);
    if (rb_ar_direction(ar) == RB_AR_READ) {
        gbx_mark mark = gbx_mark_here(ar);
        typed_content(ar, version);
        if (rb_ar_ok(ar) && rb_ar_at_end(ar)) return;
        char why[300] = "", left[80] = "";
        if (rb_ar_ok(ar)) snprintf(left, sizeof left, "%llu bytes left after its last list",
                                   (unsigned long long)rb_ar_remaining(ar));
        gbx_rewind(ar, &mark, why, sizeof why);
        rb_ar_note(ar, "entity records kept opaque: %s", left[0] ? left : why);
    } else if (!rb_ar_has(ar, "data", 0)) {
        typed_content(ar, version);
        return;
    }
    rb_ar_rest(ar, "data");
}
