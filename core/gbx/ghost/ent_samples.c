/*
 * The samples of an entity record from CPlugEntRecordData version 11 on: the sample count, the
 * size every sample has, one time step per sample, then the sample bytes transposed (byte 0 of
 * every sample, then byte 1, ...), each byte stored as its difference from the same byte of the
 * sample before (modulo 256). Layout and field meanings: docs/formats/gbx_ghost.md "Entity records".
 *
 * The model keeps what a reader wants: `samples`, one record per sample with its time in
 * milliseconds from the start (the running sum of the steps) and its state, typed for the car
 * (CSceneVehicleVis) and kept as bytes for other entities. The transposition, the differences,
 * the count and the steps are derived on write; `sampleSize` is stored as read and must be the
 * size of every sample written.
 */
#include <string.h>
#include "core/gbx/ghost/ghost.h"

#define F32(key) {key, RB_K_FLOAT, 4, 0, NULL, 0}
#define U8(key) {key, RB_K_INT, RB_U8, 0, NULL, 0}
#define I8(key) {key, RB_K_INT, RB_I8, 0, NULL, 0}
#define U16(key) {key, RB_K_INT, RB_U16, 0, NULL, 0}
#define I16(key) {key, RB_K_INT, RB_I16, 0, NULL, 0}
#define I32(key) {key, RB_K_INT, RB_I32, 0, NULL, 0}
#define BYTES(key, n) {key, RB_K_BLOB, 0, n, NULL, 0}
#define RECORD(key, layout) {key, RB_K_RECORD, 0, 0, &layout, 0}
#define COUNT(fields) (uint16_t)(sizeof fields / sizeof fields[0])

enum { VEHICLE_VIS_CLASS = 0x0A018000u };

static const rb_layout_field VEC3_FIELDS[] = {F32("x"), F32("y"), F32("z")};
static const rb_layout VEC3 = {"vector", VEC3_FIELDS, COUNT(VEC3_FIELDS)};
static const rb_layout_field QUAT6_FIELDS[] = {U16("angle"), I16("axisHeading"), I16("axisPitch")};
static const rb_layout QUAT6 = {"rotation", QUAT6_FIELDS, COUNT(QUAT6_FIELDS)};
static const rb_layout_field VELOCITY_FIELDS[] = {I16("magnitude"), I8("heading"), I8("pitch")};
static const rb_layout VELOCITY = {"packed velocity", VELOCITY_FIELDS, COUNT(VELOCITY_FIELDS)};

/* The car's state (CSceneVehicleVis), its first 103 bytes: names and offsets are GBX.NET's
 * (CSceneVehicleVis.EntRecordDelta); bytes it does not read are `uNN` (NN the offset) runs. */
static const rb_layout_field VEHICLE_FIELDS[] = {
    I32("time"),
    BYTES("u00", 2), U16("sideSpeed"), U8("u04"), U8("rpm"),
    U8("flWheelRot"), U8("flWheelRotCount"), U8("frWheelRot"), U8("frWheelRotCount"),
    U8("rrWheelRot"), U8("rrWheelRotCount"), U8("rlWheelRot"), U8("rlWheelRotCount"),
    U8("steer"), U8("gas"), BYTES("u16", 2), U8("brake"), BYTES("u19", 2), U8("turboTime"), U8("u22"),
    U8("flDampenLen"), U8("flGroundContactMaterial"), U8("frDampenLen"), U8("frGroundContactMaterial"),
    U8("rrDampenLen"), U8("rrGroundContactMaterial"), U8("rlDampenLen"), U8("rlGroundContactMaterial"),
    U8("isTurbo"), U8("slipCoef1"), U8("slipCoef2"), BYTES("u34", 13),
    RECORD("position", VEC3), RECORD("rotation", QUAT6), RECORD("velocity", VELOCITY), BYTES("u69", 7),
    U8("vehicleState"), BYTES("u77", 4), U8("flIce"), U8("frIce"), U8("rrIce"), U8("rlIce"), BYTES("u85", 4),
    U8("groundMode"), U8("boosterAirControl"), U8("gear"),
    U16("flDirt"), U16("frDirt"), U16("rrDirt"), U16("rlDirt"), U8("u100"),
    U8("wetnessValue"), U8("simulationTimeCoef"),
};
enum { VEHICLE_TYPED_BYTES = 103, MAX_SAMPLE_SIZE = 0xFFFF };
/* the same fields without the time, for the samples of the versions before 11 */
static const rb_layout CAR_STATE = {"car state", VEHICLE_FIELDS + 1, COUNT(VEHICLE_FIELDS) - 1};

/* The layout of one sample of `size` bytes: the car's fields and the bytes after them as `u103`,
 * or for another entity (or a car state too short) its time and the state as `data`. Built in
 * the document's arena: sizes differ per entity. */
static const rb_layout *sample_layout(rb_ar *ar, uint32_t entity_class, uint32_t size)
{
    int vehicle = gbx_ent_is_car_state(entity_class, size);
    size_t typed = vehicle ? COUNT(VEHICLE_FIELDS) : 1;
    int tail = vehicle ? size > VEHICLE_TYPED_BYTES : 1;
    rb_layout_field *fields = rb_arena_alloc(rb_ar_arena(ar), (typed + 1) * sizeof *fields);
    rb_layout *layout = rb_arena_alloc(rb_ar_arena(ar), sizeof *layout);
    if (!fields || !layout) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    memcpy(fields, VEHICLE_FIELDS, typed * sizeof *fields);
    if (tail) fields[typed] = (rb_layout_field)BYTES(vehicle ? "u103" : "data", (uint16_t)(vehicle ? size - VEHICLE_TYPED_BYTES : size));
    *layout = (rb_layout){vehicle ? "car sample" : "entity sample", fields, (uint16_t)(typed + (size_t)tail)};
    return layout;
}

static uint32_t load_u32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void store_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* READ: the stored steps and transposed differences as packed samples (time, then the state). */
static uint8_t *decode_samples(rb_ar *ar, const uint8_t *stored, uint32_t count, uint32_t size)
{
    size_t stride = 4 + (size_t)size;
    uint8_t *packed = rb_arena_alloc(rb_ar_arena(ar), count * stride);
    if (!packed) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    uint32_t time = 0;
    for (uint32_t i = 0; i < count; i++) {
        time += load_u32(stored + 4 * (size_t)i);
        store_u32(packed + i * stride, time);
    }
    const uint8_t *column = stored + 4 * (size_t)count;
    for (uint32_t b = 0; b < size; b++, column += count) {
        uint8_t value = 0;
        for (uint32_t i = 0; i < count; i++) {
            value = (uint8_t)(value + column[i]);
            packed[i * stride + 4 + b] = value;
        }
    }
    return packed;
}

/* WRITE: the samples of the model, packed, as the stored steps and transposed differences. */
static void encode_samples(rb_ar *ar, const rb_node *samples, const rb_layout *layout, uint32_t count, uint32_t size)
{
    size_t stride = 4 + (size_t)size;
    uint8_t *packed = rb_arena_alloc(rb_ar_scratch_arena(ar), count * stride);
    uint8_t *stored = rb_arena_alloc(rb_ar_scratch_arena(ar), count * stride);
    if (!packed || !stored) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return;
    }
    for (uint32_t i = 0; i < count; i++)
        if (!rb_element_pack(samples, i, layout, packed + i * stride)) {
            rb_ar_fail(ar, RB_E_MODEL, "samples[%u] is not a sample of %u bytes (sampleSize)", i, size);
            return;
        }
    uint32_t previous = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t time = load_u32(packed + i * stride);
        store_u32(stored + 4 * (size_t)i, time - previous);
        previous = time;
    }
    uint8_t *column = stored + 4 * (size_t)count;
    for (uint32_t b = 0; b < size; b++, column += count) {
        uint8_t before = 0;
        for (uint32_t i = 0; i < count; i++) {
            uint8_t value = packed[i * stride + 4 + b];
            column[i] = (uint8_t)(value - before);
            before = value;
        }
    }
    rb_ar_emit(ar, stored, count * stride);
}

/* READ: the node covers the bytes its samples were decoded from (coverage counts them typed). */
static void cover(rb_ar *ar, const char *key, uint64_t bytes)
{
    rb_node *n = rb_ar_own(ar, rb_node_get(rb_ar_current(ar), key));
    if (n) n->src_size = (uint32_t)bytes;
}

void gbx_ent_encoded_samples(rb_ar *ar, uint32_t entity_class)
{
    rb_slot count_slot = rb_ar_slot(ar, "numSamples", RB_I32);
    uint64_t count = rb_ar_count_of(ar, "samples", count_slot.value);
    if (!rb_ar_ok(ar)) return;
    if (count > INT32_MAX) {
        rb_ar_fail(ar, RB_E_FORMAT, "numSamples %lld is negative", (long long)(int32_t)count);
        return;
    }
    rb_ar_slot_set(ar, &count_slot, count);
    if (count == 0) { /* nothing else is stored */
        rb_ar_table_detached(ar, "samples", sample_layout(ar, 0, 0), NULL, 0);
        return;
    }
    uint32_t size = rb_ar_u32(ar, "sampleSize");
    if (rb_ar_ok(ar) && size > MAX_SAMPLE_SIZE)
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "sampleSize %u is beyond the %u bytes a sample may have here", size,
                   MAX_SAMPLE_SIZE);
    const rb_layout *layout = rb_ar_ok(ar) ? sample_layout(ar, entity_class, size) : NULL;
    if (!layout) return;
    uint64_t bytes = count * (4 + (uint64_t)size);
    if (rb_ar_direction(ar) == RB_AR_READ) {
        if (bytes > rb_ar_remaining(ar)) {
            rb_ar_fail(ar, RB_E_FORMAT, "%llu samples of %u bytes cannot fit in the %llu bytes left",
                       (unsigned long long)count, size, (unsigned long long)rb_ar_remaining(ar));
            return;
        }
        const uint8_t *stored = rb_ar_take(ar, "samples", bytes);
        uint8_t *packed = stored ? decode_samples(ar, stored, (uint32_t)count, size) : NULL;
        if (!packed) return;
        rb_ar_table_detached(ar, "samples", layout, packed, count);
        cover(ar, "samples", bytes);
        return;
    }
    uint64_t n = rb_ar_table_detached(ar, "samples", layout, NULL, 0);
    if (rb_ar_direction(ar) == RB_AR_WRITE && rb_ar_ok(ar) && n == count)
        encode_samples(ar, rb_node_get(rb_ar_current(ar), "samples"), layout, (uint32_t)count, size);
}

int gbx_ent_is_car_state(uint32_t entity_class, uint32_t size)
{
    return entity_class == VEHICLE_VIS_CLASS && size >= VEHICLE_TYPED_BYTES;
}

void gbx_ent_car_state(rb_ar *ar)
{
    rb_slot size = rb_ar_slot(ar, "data size", RB_U32);
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_READ &&
        (size.value < VEHICLE_TYPED_BYTES || size.value > rb_ar_remaining(ar))) {
        rb_ar_fail(ar, RB_E_FORMAT, "a car state of %llu bytes, not between %u and the %llu bytes left",
                   (unsigned long long)size.value, VEHICLE_TYPED_BYTES, (unsigned long long)rb_ar_remaining(ar));
        return;
    }
    rb_ar_packed_record(ar, "state", &CAR_STATE);
    const rb_node *tail = rb_ar_bytes(ar, "u103", RB_K_BLOB, size.value - VEHICLE_TYPED_BYTES);
    if (tail) rb_ar_slot_set(ar, &size, VEHICLE_TYPED_BYTES + tail->v.bytes.size);
}
