/*
 * The samples of a ghost (CGameGhost's state buffer) as records: position, rotation, velocity
 * and the vehicle state of every sample, for the car classes (CSceneVehicleCar 0x0A02B000 and
 * 0x0A103000) at state versions 8 to 16. Layout and units: docs/formats/gbx_ghost.md "Samples".
 *
 * Each sample stays one packed record (its wire bytes; one node, docs/performance.md): a ghost
 * has hundreds of samples of 30-40 fields. Versions from 11 on end a sample with 0-7 transforms
 * whose count is in bits 2-4 of its u35 byte; version 13 is the network state (17 bytes). Other
 * classes and versions, and a buffer the stored sizes do not cut exactly, stay a blob.
 */
#include "core/gbx/ghost/ghost.h"

/* Here, the lowest file of the folder, because ghost.c, replay.c, ent_record.c and this file
 * all store data this way (no loop among them, docs/formats/adding.md). */
void gbx_data_blob(rb_ar *ar, const char *key)
{
    rb_slot size = rb_ar_slot(ar, "data size", RB_U32);
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_READ && size.value > rb_ar_remaining(ar)) {
        rb_ar_fail(ar, RB_E_FORMAT, "%s: data length %llu exceeds the %llu bytes left", key,
                   (unsigned long long)size.value, (unsigned long long)rb_ar_remaining(ar));
        return;
    }
    const rb_node *n = rb_ar_bytes(ar, key, RB_K_BLOB, size.value);
    if (n) rb_ar_slot_set(ar, &size, n->v.bytes.size);
}

#define F32(key) {key, RB_K_FLOAT, 4, 0, NULL, 0}
#define U8(key) {key, RB_K_INT, RB_U8, 0, NULL, 0}
#define I8(key) {key, RB_K_INT, RB_I8, 0, NULL, 0}
#define U16(key) {key, RB_K_INT, RB_U16, 0, NULL, 0}
#define I16(key) {key, RB_K_INT, RB_I16, 0, NULL, 0}
#define U32(key) {key, RB_K_INT, RB_U32, 0, NULL, 0}
#define RECORD(key, layout) {key, RB_K_RECORD, 0, 0, &layout, 0}
#define COUNT(fields) (uint16_t)(sizeof fields / sizeof fields[0])

static const rb_layout_field VEC3_FIELDS[] = {F32("x"), F32("y"), F32("z")};
static const rb_layout VEC3 = {"vector", VEC3_FIELDS, COUNT(VEC3_FIELDS)};
/* a unit axis as two angles and the rotation angle around it, each quantised */
static const rb_layout_field QUAT6_FIELDS[] = {U16("angle"), I16("axisHeading"), I16("axisPitch")};
static const rb_layout QUAT6 = {"rotation", QUAT6_FIELDS, COUNT(QUAT6_FIELDS)};
/* a magnitude on a log scale and a direction as two quantised angles */
static const rb_layout_field VECTOR4_FIELDS[] = {I16("magnitude"), I8("heading"), U8("pitch")};
static const rb_layout VECTOR4 = {"packed vector", VECTOR4_FIELDS, COUNT(VECTOR4_FIELDS)};

/* Every field of the newest car state (version 16), in wire order; an older version's state is
 * a prefix of it (car_state_layout). */
static const rb_layout_field CAR_STATE[] = {
    RECORD("position", VEC3), RECORD("rotation", QUAT6), RECORD("velocity", VECTOR4),
    RECORD("angularVelocity", VECTOR4),
    U16("speedForward"), U16("speedSideward"), U16("rpm"),
    U16("flWheelRotation"), U16("frWheelRotation"), U16("rrWheelRotation"), U16("rlWheelRotation"),
    U8("steer"), U8("gas"), U8("brake"), U8("u11"), U8("u12"), U8("u13"), U8("u14"), U8("turboStrength"),
    U8("steerFront"),
    U8("flDampenLen"), U8("flGroundContactMaterial"), U8("frDampenLen"), U8("frGroundContactMaterial"),
    U8("rrDampenLen"), U8("rrGroundContactMaterial"), U8("rlDampenLen"), U8("rlGroundContactMaterial"),
    U8("u25"), U8("u26"), U8("u27"),       /* version 8: 31 fields, 60 bytes */
    U8("dirtBlend"),                       /* 9: 32, 61 */
    U32("u28"), U8("u33"), U8("u34"), U8("u35"), /* 10-12: 36, 68 */
    U8("u36"), U8("u37"),                  /* 14: 38, 70 */
    U8("u38"),                             /* 15: 39, 71 */
    U8("u39"), U8("u40"),                  /* 16: 41, 73 */
};
enum { U35_OFFSET = 67 }; /* byte of u35 in a state of version 10 or later */

static const rb_layout CAR_STATES[] = {
    {"car state (version 8)", CAR_STATE, 31},  {"car state (version 9)", CAR_STATE, 32},
    {"car state (version 10-12)", CAR_STATE, 36}, {"car state (version 14)", CAR_STATE, 38},
    {"car state (version 15)", CAR_STATE, 39}, {"car state (version 16)", CAR_STATE, 41},
};

/* Version 13, the network state: a position of three 24-bit fixed-point values, a rotation and
 * 16 bits of flags and engine speed. */
static const rb_layout_field NET_STATE_FIELDS[] = {
    {"position9", RB_K_BLOB, 0, 9, NULL, 0}, RECORD("rotation", QUAT6), U16("netData")};
static const rb_layout NET_STATE = {"car network state (version 13)", NET_STATE_FIELDS, COUNT(NET_STATE_FIELDS)};

/* the transforms that end a sample from version 11 on */
static const rb_layout_field TRANSFORM_FIELDS[] = {RECORD("position", VEC3), RECORD("rotation", QUAT6), U8("u01")};
static const rb_layout TRANSFORM = {"sample transform", TRANSFORM_FIELDS, COUNT(TRANSFORM_FIELDS)};

static const rb_layout *car_state_layout(int32_t version)
{
    switch (version) {
    case 8: return &CAR_STATES[0];
    case 9: return &CAR_STATES[1];
    case 10: case 11: case 12: return &CAR_STATES[2];
    case 13: return &NET_STATE;
    case 14: return &CAR_STATES[3];
    case 15: return &CAR_STATES[4];
    case 16: return &CAR_STATES[5];
    default: return NULL;
    }
}

static int gbx_ghost_samples_known(uint32_t mobil_class, int32_t version)
{
    return (mobil_class == 0x0A02B000u || mobil_class == 0x0A103000u) && car_state_layout(version);
}

/* u35 of the sample's state: from its bytes when it is packed, else from its field. */
static unsigned state_u35(rb_ar *ar, const rb_node *packed)
{
    if (packed) return packed->v.bytes.size > U35_OFFSET ? packed->v.bytes.data[U35_OFFSET] : 0;
    /* a deferring build packs the record it has just built (core/archive/archive_table.c) */
    rb_record_scratch scratch;
    const rb_node *state = rb_node_get(rb_ar_current(ar), "state");
    return (unsigned)rb_node_uint(state ? rb_node_get(rb_record_view(state, &scratch), "u35") : NULL) & 0xFFu;
}

/* One sample: the state, then from version 11 on (13 apart) its transforms. */
static void sample(rb_ar *ar, int32_t version, const rb_layout *layout)
{
    rb_ar_record_begin(ar, NULL);
    const rb_node *packed = rb_ar_packed_record(ar, "state", layout);
    if (version >= 11 && version != 13 && rb_ar_ok(ar)) {
        uint64_t count = (state_u35(ar, packed) >> 2) & 7;
        if (version == 11 && count > 4) count = 4; /* the game stores more bits than it reads */
        uint64_t n = rb_ar_table_n(ar, "transforms", count, &TRANSFORM);
        if (rb_ar_ok(ar) && n != count)
            rb_ar_fail(ar, RB_E_MODEL, "the state's u35 says %llu transforms, the sample has %llu",
                       (unsigned long long)count, (unsigned long long)n);
    }
    rb_ar_record_end(ar);
}

/* READ: the samples the stored sizes cut the buffer into, or 0 when they do not cut it exactly
 * (then the buffer stays a blob). The sizes follow the buffer: numSamples, firstSampleOffset,
 * sizePerSample (-1: sampleSizes, one per sample but the last, which takes the rest). */
static int cut_samples(rb_ar *ar, ghost_sample_sizes *cut)
{
    uint32_t length, count, first, per_sample;
    if (!rb_ar_peek_u32(ar, &length) || !rb_ar_peek_u32_at(ar, 4 + (uint64_t)length, &count)) return 0;
    if ((int32_t)count <= 0 || count > length || count > GHOST_MAX_SAMPLES) return 0;
    if (!rb_ar_peek_u32_at(ar, 8 + (uint64_t)length, &first) || first != 0) return 0;
    cut->size_of = rb_arena_alloc(rb_ar_scratch_arena(ar), count * sizeof *cut->size_of);
    if (!cut->size_of) return 0;
    cut->count = count;
    if (count == 1) {
        cut->size_of[0] = length;
        return 1;
    }
    if (!rb_ar_peek_u32_at(ar, 12 + (uint64_t)length, &per_sample)) return 0;
    uint64_t used = 0;
    for (uint32_t i = 0; i + 1 < count; i++) {
        uint32_t size = per_sample;
        if (per_sample == 0xFFFFFFFFu && !rb_ar_peek_u32_at(ar, 16 + (uint64_t)length + 4 * (uint64_t)i, &size))
            return 0;
        cut->size_of[i] = size;
        used += size;
        if (used > length) return 0;
    }
    cut->size_of[count - 1] = (uint32_t)(length - used);
    return per_sample == 0xFFFFFFFFu || cut->size_of[count - 1] == per_sample;
}

/* The state buffer (u32 byte length + samples) with its samples typed. WRITE notes the size of
 * each sample written in `cut`, for the stored sizes after it to be checked against. */
static void typed_samples(rb_ar *ar, int32_t version, ghost_sample_sizes *cut)
{
    const rb_layout *layout = car_state_layout(version);
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    /* binary: the stored sizes cut the buffer (READ) and are checked (WRITE); text spells every
     * field as a line, so its sizes are text sizes and the samples simply run to the buffer's end */
    int binary = !rb_ar_is_text(ar);
    rb_ar_sized_begin(ar, "stateBuffer size", RB_U32);
    uint64_t n = 0;
    if (reading && !binary) rb_ar_list_begin_open(ar, "samples");
    else n = rb_ar_list_begin_n(ar, "samples", reading ? cut->count : 0, 1);
    if (!reading && binary) {
        cut->count = n <= GHOST_MAX_SAMPLES ? (uint32_t)n : 0;
        cut->size_of = n ? rb_arena_alloc(rb_ar_scratch_arena(ar), cut->count * sizeof *cut->size_of) : NULL;
        if (n > GHOST_MAX_SAMPLES)
            rb_ar_fail(ar, RB_E_LIMIT, "%llu samples; at most %d are written", (unsigned long long)n, GHOST_MAX_SAMPLES);
        else if (n && !cut->size_of)
            rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
    }
    for (uint64_t i = 0; rb_ar_ok(ar) && (reading && !binary ? !rb_ar_at_end(ar) : i < n); i++) {
        uint64_t start = rb_ar_tell(ar);
        if (reading && binary) rb_ar_range_begin(ar, "sample", cut->size_of[i]);
        sample(ar, version, layout);
        if (reading && binary) rb_ar_range_end(ar);
        else if (binary && cut->size_of) cut->size_of[i] = (uint32_t)(rb_ar_tell(ar) - start);
    }
    rb_ar_list_end(ar);
    rb_ar_sized_end(ar);
}

void gbx_ghost_state_buffer(rb_ar *ar, uint32_t mobil_class, int32_t version, ghost_sample_sizes *cut)
{
    cut->typed = 0;
    if (rb_ar_direction(ar) != RB_AR_READ) {
        if (rb_ar_has(ar, "samples", 0) && gbx_ghost_samples_known(mobil_class, version)) {
            cut->typed = !rb_ar_is_text(ar);
            typed_samples(ar, version, cut);
        } else {
            gbx_data_blob(ar, "stateBuffer");
        }
        return;
    }
    if (gbx_ghost_samples_known(mobil_class, version) && (rb_ar_is_text(ar) || cut_samples(ar, cut))) {
        gbx_mark mark = gbx_mark_here(ar);
        typed_samples(ar, version, cut);
        if (rb_ar_ok(ar)) {
            cut->typed = !rb_ar_is_text(ar); /* text: no binary sizes to check the stored ones against */
            return;
        }
        char why[300];
        gbx_rewind(ar, &mark, why, sizeof why);
        rb_ar_note(ar, "ghost samples kept as a blob: %s", why);
    }
    gbx_data_blob(ar, "stateBuffer");
}
