/*
 * Class payloads of SCN and savegame blocks (docs/formats/tres.md "SCN block classes").
 *
 * A block holds what one object's save function wrote: fields dumped one after another, with no
 * tag saying which class wrote them (the class is in the level's value table, not in the scene).
 * READ therefore decides the class from the block's name (the subsystems have fixed names) and
 * its size, checks what the layout implies (booleans are 0 or 1, counts fit), and keeps a block
 * opaque when no layout takes exactly its bytes. WRITE and FROM_JSON follow the model's keys.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/tres/groff_parts.h"

/* ---------- building blocks ---------- */

static const rb_layout_field VEC3_FIELDS[] = {{"x", RB_K_FLOAT, 4}, {"y", RB_K_FLOAT, 4}, {"z", RB_K_FLOAT, 4}};
static const rb_layout VEC3 = {"vector", VEC3_FIELDS, 3};
static const rb_layout_field QUAT_FIELDS[] = {
    {"w", RB_K_FLOAT, 4}, {"x", RB_K_FLOAT, 4}, {"y", RB_K_FLOAT, 4}, {"z", RB_K_FLOAT, 4}};
static const rb_layout QUAT = {"rotation quaternion", QUAT_FIELDS, 4};
static const rb_layout_field PLACEMENT_FIELDS[] = {{"position", RB_K_RECORD, .record = &VEC3},
                                                   {"rotation", RB_K_RECORD, .record = &QUAT}};
static const rb_layout PLACEMENT = {"placement", PLACEMENT_FIELDS, 2};
static const rb_layout_field PRESENCE_FIELDS[] = {{"position", RB_K_RECORD, .record = &VEC3},
                                                  {"rotation", RB_K_RECORD, .record = &QUAT},
                                                  {"scale", RB_K_FLOAT, 4}};
static const rb_layout PRESENCE = {"presence", PRESENCE_FIELDS, 3};
static const rb_layout_field MATRIX3_FIELDS[] = {
    {"xx", RB_K_FLOAT, 4}, {"xy", RB_K_FLOAT, 4}, {"xz", RB_K_FLOAT, 4}, {"yx", RB_K_FLOAT, 4}, {"yy", RB_K_FLOAT, 4},
    {"yz", RB_K_FLOAT, 4}, {"zx", RB_K_FLOAT, 4}, {"zy", RB_K_FLOAT, 4}, {"zz", RB_K_FLOAT, 4}};
static const rb_layout MATRIX3 = {"3x3 matrix", MATRIX3_FIELDS, 9};
static const rb_layout_field TRANSFORM_FIELDS[] = {{"matrix", RB_K_RECORD, .record = &MATRIX3},
                                                   {"translation", RB_K_RECORD, .record = &VEC3}};
static const rb_layout TRANSFORM = {"joint transform", TRANSFORM_FIELDS, 2};
static const rb_layout_field HANDLE_FIELDS[] = {{NULL, RB_K_INT, RB_X32}};
static const rb_layout HANDLE = {"instance handle", HANDLE_FIELDS, 1};
static const rb_layout_field WORD_FIELDS[] = {{NULL, RB_K_INT, RB_X32}};
static const rb_layout STATE_WORD = {"saved state word", WORD_FIELDS, 1};

/* The game saves a bool as a 4-byte int. READ insists on 0 or 1, so a layout that puts a bool
 * where the bytes hold something else is not taken (the next candidate, or opaque, follows). */
static uint32_t bool4(rb_ar *ar, const char *key)
{
    uint32_t raw = rb_ar_bool(ar, key, 4);
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_READ && raw > 1)
        rb_ar_fail(ar, RB_E_FORMAT, "%s: %u is not a saved bool (0 or 1)", key, raw);
    return raw;
}

/* A bool member of a structure the game copied whole: one byte, then three bytes of padding
 * that hold whatever the memory held (kept). */
static void struct_bool(rb_ar *ar, const char *key, const char *padding_key)
{
    rb_ar_bool(ar, key, 1);
    rb_ar_bytes(ar, padding_key, RB_K_BLOB, 3);
}

/* A bool the game may save uninitialised: the byte it held, widened (kept as read). */
static void loose_bool4(rb_ar *ar, const char *key) { rb_ar_bool(ar, key, 4); }

static void vec3(rb_ar *ar, const char *key) { rb_ar_layout_record(ar, key, &VEC3); }

/* A table of a length the game fixes (16 expression words, 10 animal slots, ...): a model with
 * another length cannot be written. */
static void fixed_table(rb_ar *ar, const char *key, uint64_t n, const rb_layout *layout)
{
    uint64_t got = rb_ar_table_n(ar, key, n, layout);
    if (rb_ar_ok(ar) && got != n)
        rb_ar_fail(ar, RB_E_MODEL, "%s has %llu entries; the game saves exactly %llu", key, (unsigned long long)got,
                   (unsigned long long)n);
}

/* Partition flags follow every saved presence except in save versions 13..16. */
/* CInstance: the presence (position, rotation, scale), then the partition flags. */
static void instance_part(rb_ar *ar, const scn_context *cx)
{
    vec3(ar, "position");
    rb_ar_layout_record(ar, "rotation", &QUAT);
    rb_ar_f32(ar, "scale");
    if (rb_ar_has(ar, "flags", tres_save_has_flags(cx->save_version))) rb_ar_x32(ar, "flags");
}

static uint32_t peek32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* READ: the payload's bytes (the whole range), or NULL. */
static const uint8_t *payload_bytes(rb_ar *ar, uint64_t size)
{
    return rb_ar_direction(ar) == RB_AR_READ ? rb_ar_peek_bytes(ar, size) : NULL;
}

/* ---------- instances with class data ---------- */

/* CGun: the instance, then its ammunition and the time it can shoot again. */
static void gun(rb_ar *ar, const scn_context *cx)
{
    instance_part(ar, cx);
    rb_ar_i32(ar, "ammo");
    rb_ar_f32(ar, "canShoot");
}

/* CAnimate: the instance, hit points (tranquilliser points from animal version 10, maxima and
 * rates from 7), then from save version 8 the joint transforms that keep a body's pose. */
static void animate_part(rb_ar *ar, const scn_context *cx)
{
    instance_part(ar, cx);
    rb_ar_f32(ar, "hitPoints");
    if (cx->animal_version >= 10) rb_ar_f32(ar, "tranqPoints");
    if (cx->animal_version >= 7) {
        static const char *const more[] = {"maxHitPoints", "reallyDead", "regenerationRate", "dieRate",
                                           "tranqPointsAgain", "maxTranqPoints", "tranqRegenerationRate"};
        for (size_t i = 0; i < sizeof more / sizeof *more; i++) rb_ar_f32(ar, more[i]);
    }
    if (cx->save_version >= 8) rb_ar_table(ar, "joints", RB_U32, &TRANSFORM);
}

/* Bytes of the animate part (READ sizing), or 0 when the block is too short. */
static uint64_t animate_bytes(const uint8_t *p, uint64_t size, const scn_context *cx)
{
    uint64_t at = (tres_save_has_flags(cx->save_version) ? 36 : 32) + 4 + (cx->animal_version >= 10 ? 4 : 0) +
                  (cx->animal_version >= 7 ? 28 : 0);
    if (cx->save_version < 8) return at <= size ? at : 0;
    if (at + 4 > size) return 0;
    return at + 4 + 48 * (uint64_t)peek32(p + at);
}

/* A feeling: one rating per emotion (fear, love, anger, curiosity, hunger, thirst, fatigue,
 * pain, solidity). */
static const rb_layout_field FEELING_FIELDS[] = {
    {"fear", RB_K_FLOAT, 4},   {"love", RB_K_FLOAT, 4},    {"anger", RB_K_FLOAT, 4},
    {"curiosity", RB_K_FLOAT, 4}, {"hunger", RB_K_FLOAT, 4}, {"thirst", RB_K_FLOAT, 4},
    {"fatigue", RB_K_FLOAT, 4}, {"pain", RB_K_FLOAT, 4},    {"solidity", RB_K_FLOAT, 4}};
static const rb_layout FEELING = {"feeling", FEELING_FIELDS, 9};
static const rb_layout_field INFLUENCE_FIELDS[] = {{"target", RB_K_INT, RB_X32},
                                                   {"feeling", RB_K_RECORD, .record = &FEELING}};
static const rb_layout INFLUENCE = {"influence", INFLUENCE_FIELDS, 2};

/* Activities 21 and 22 (stay near, stay away) save their target before the common part. */
enum { ACTIVITY_STAY_NEAR = 21, ACTIVITY_STAY_AWAY = 22, BRAIN_ACTIVITIES = 46 };
static int activity_has_target(uint64_t i) { return i == ACTIVITY_STAY_NEAR || i == ACTIVITY_STAY_AWAY; }

static void activity(rb_ar *ar, uint64_t index)
{
    rb_ar_record_begin(ar, NULL);
    if (activity_has_target(index)) rb_ar_x32(ar, "target");
    rb_ar_f32(ar, "threshold");
    rb_ar_x32(ar, "flags");
    rb_ar_f32(ar, "canAct");
    rb_ar_f32(ar, "giveUp");
    rb_ar_record_end(ar);
}

/* CBrain: mental state, world view (influences), the brain's own data, then every activity. */
static void brain(rb_ar *ar)
{
    rb_ar_layout_record(ar, "emotions", &FEELING);
    rb_ar_table(ar, "influences", RB_U32, &INFLUENCE);
    loose_bool4(ar, "lastPathSucceeded");
    rb_ar_f32(ar, "lastSuccessfulPath");
    vec3(ar, "lastWayPoint");
    rb_ar_f32(ar, "lastWayPointTime");
    loose_bool4(ar, "triumph");
    loose_bool4(ar, "startled");
    rb_ar_f32(ar, "allowStartle");
    vec3(ar, "startle");
    loose_bool4(ar, "jumpEnabled");
    loose_bool4(ar, "canJump");
    rb_ar_f32(ar, "lastTime");
    rb_ar_i32(ar, "vocalizingActivity");
    rb_ar_f32(ar, "sampleLength");
    rb_ar_f32(ar, "sampleStart");
    rb_ar_f32(ar, "openMouth");
    rb_ar_f32(ar, "closeMouth");
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "activities", RB_U32, 16)) activity(ar, i);
}

/* The brain as animal versions 5 to 7 saved it: mental state, world view (influences from
 * version 6), the brain's settings and state, every activity in its old 96-byte form (feeling,
 * rating, multiplier, flags, two ints, times, 32 spare bytes), then 128 spare bytes. */
static const rb_layout_field OLD_ACTIVITY_FIELDS[] = {
    {"feeling", RB_K_RECORD, .record = &FEELING}, {"threshold", RB_K_FLOAT, 4}, {"multiplier", RB_K_FLOAT, 4},
    {"flags", RB_K_INT, RB_X32},  {"unused1", RB_K_INT, RB_I32}, {"unused2", RB_K_INT, RB_I32},
    {"canAct", RB_K_FLOAT, 4},    {"giveUp", RB_K_FLOAT, 4},     {"spare", RB_K_BLOB, .size = 32}};
static const rb_layout OLD_ACTIVITY = {"activity (animal version 5 to 7)", OLD_ACTIVITY_FIELDS, 9};
enum { OLD_BRAIN_FIXED = 136, OLD_ACTIVITY_BYTES = 96, OLD_BRAIN_SPARE = 128 };

static void old_brain(rb_ar *ar, const scn_context *cx)
{
    rb_ar_layout_record(ar, "emotions", &FEELING);
    if (cx->animal_version >= 6) rb_ar_table(ar, "influences", RB_U32, &INFLUENCE);
    rb_ar_f32(ar, "lastTime");
    rb_ar_f32(ar, "elapsedTime");
    rb_ar_u32(ar, "archetype");
    static const char *const reach[] = {"width", "height", "headReach", "tailReach", "clawReach", "jumpDistanceSqr",
                                        "jumpDistance", "jumpUp", "jumpDown", "walkOver", "walkUnder", "jumpOver",
                                        "crouchUnder", "moveableMass"};
    for (size_t i = 0; i < sizeof reach / sizeof *reach; i++) rb_ar_f32(ar, reach[i]);
    rb_ar_u32(ar, "dinoType");
    rb_ar_i32(ar, "vocalizingActivity");
    rb_ar_f32(ar, "sampleLength");
    rb_ar_f32(ar, "sampleStart");
    rb_ar_x32(ar, "audioId");
    rb_ar_f32(ar, "nodesPerSec");
    rb_ar_i32(ar, "maxNodes");
    rb_ar_f32(ar, "whenToLearn");
    rb_ar_f32(ar, "timeToForget");
    rb_ar_f32(ar, "objectSensoryRange");
    rb_ar_f32(ar, "terrainSensoryRange");
    rb_ar_f32(ar, "maxPathLength");
    rb_ar_f32(ar, "forgetInfluence");
    rb_ar_f32(ar, "wakeDistance");
    rb_ar_f32(ar, "sleepDistance");
    loose_bool4(ar, "lastPathSucceeded");
    rb_ar_f32(ar, "lastSuccessfulPath");
    rb_ar_table(ar, "activities", RB_U32, &OLD_ACTIVITY);
    rb_ar_bytes(ar, "spare", RB_K_BLOB, OLD_BRAIN_SPARE);
}

static void animal(rb_ar *ar, const scn_context *cx)
{
    animate_part(ar, cx);
    rb_ar_record_begin(ar, "brain");
    if (cx->animal_version >= 8) brain(ar);
    else old_brain(ar, cx);
    rb_ar_record_end(ar);
}

/* READ: does an animal with the counts the block holds take exactly its size? (animal versions
 * 5 and later: earlier ones saved a physics request this module does not know) */
static int animal_fits(const uint8_t *p, uint64_t size, const scn_context *cx)
{
    if (cx->animal_version < 5 || cx->animal_version > 10) return 0;
    uint64_t at = animate_bytes(p, size, cx);
    if (!at || at + 40 > size) return 0;
    at += 36;
    if (cx->animal_version >= 6) at += 4 + 40 * (uint64_t)peek32(p + at);
    if (cx->animal_version < 8) {
        at += OLD_BRAIN_FIXED;
        if (at + 4 > size) return 0;
        return at + 4 + OLD_ACTIVITY_BYTES * (uint64_t)peek32(p + at) + OLD_BRAIN_SPARE == size;
    }
    at += 80;
    if (at + 4 > size) return 0;
    uint64_t activities = peek32(p + at);
    at += 4 + 16 * activities + (activities > ACTIVITY_STAY_AWAY ? 8 : activities > ACTIVITY_STAY_NEAR ? 4 : 0);
    return at == size;
}

/* CPlayer: the animate part, then the hand and stowing state (fields by save version). */
static void player(rb_ar *ar, const scn_context *cx)
{
    int v = cx->save_version;
    animate_part(ar, cx);
    rb_ar_u8(ar, "handRotate");
    rb_ar_u8(ar, "physics");
    rb_ar_u8(ar, "substituteRequest");
    rb_ar_u8(ar, "handActivity");
    rb_ar_u8(ar, "handHolding");
    rb_ar_u8(ar, "throwing");
    if (v >= 9) {
        rb_ar_u8(ar, "stowing");
        rb_ar_u8(ar, "stowSlot");
    }
    if (v >= 18) bool4(ar, "control");
    rb_ar_layout_record(ar, "body", &QUAT);
    rb_ar_layout_record(ar, "head", &PLACEMENT);
    rb_ar_layout_record(ar, "hand", &PLACEMENT);
    if (v >= 11) {
        rb_ar_f32(ar, "anglesDrawX");
        rb_ar_f32(ar, "anglesDrawY");
    }
    if (v >= 15) {
        rb_ar_layout_record(ar, "stowed", &PLACEMENT);
        rb_ar_layout_record(ar, "stowingPlacement", &PLACEMENT);
    }
    if (v >= 22) {
        rb_ar_layout_record(ar, "stowedObject0", &PLACEMENT);
        rb_ar_layout_record(ar, "stowedObject1", &PLACEMENT);
    }
    rb_ar_x32(ar, "stowed0");
    if (v >= 10) rb_ar_x32(ar, "stowed1");
    rb_ar_x32(ar, "held");
    bool4(ar, "autoCrouching");
    rb_ar_f32(ar, "throwX");
    rb_ar_f32(ar, "throwY");
    rb_ar_f32(ar, "raiseTime");
    rb_ar_f32(ar, "actionTime");
}

/* ---------- triggers ---------- */

/* A trigger's block: [the fire expression's 16 state words], the CTrigger fields, what its
 * class adds (location: creature counts and 16 contained instances; timer: remaining time and
 * state; start: fired), then a word per action that keeps state (hide/show, hint, substitute). */
enum { EXPRESSION_WORDS = 16, TRIGGER_BASE = 28, CONTAINMENT = 16 };
typedef enum { TAIL_NONE, TAIL_LOCATION, TAIL_TIMER, TAIL_START, TAIL_COUNT } trigger_tail;
static const unsigned TAIL_BYTES[TAIL_COUNT] = {0, 8 + 4 * CONTAINMENT, 8, 4};
static const char *const TAIL_KEYS[TAIL_COUNT] = {NULL, "location", "timer", "start"};

typedef struct trigger_shape {
    int sequence; /* a sequence trigger: its current order of triggers comes first */
    int expression;
    trigger_tail tail;
    uint64_t actions;
} trigger_shape;

static int is_bool_at(const uint8_t *p, uint64_t at) { return peek32(p + at) <= 1; }

/* READ: the first shape (fewest action words, no expression before one, the class tails in a
 * fixed order, a sequence trigger last) whose booleans hold 0 or 1. The class itself is not in
 * the scene: a size several shapes fit is told apart by the booleans only. */
static int trigger_shape_at(const uint8_t *p, uint64_t size, int sequence, trigger_shape *out)
{
    for (uint64_t actions = 0; actions <= 8; actions++)
        for (int e = 0; e <= 1; e++)
            for (int t = TAIL_LOCATION; t <= TAIL_COUNT; t++) {
                trigger_tail tail = t == TAIL_COUNT ? TAIL_NONE : (trigger_tail)t;
                if (sequence && tail != TAIL_NONE) continue;
                uint64_t base = e ? 4 * EXPRESSION_WORDS : 0;
                if (size != base + TRIGGER_BASE + TAIL_BYTES[tail] + 4 * actions) continue;
                if (!is_bool_at(p, base + 16)) continue;
                if (tail == TAIL_TIMER && !is_bool_at(p, base + TRIGGER_BASE + 4)) continue;
                if (tail == TAIL_START && !is_bool_at(p, base + TRIGGER_BASE)) continue;
                *out = (trigger_shape){sequence, e, tail, actions};
                return 1;
            }
    return 0;
}

static int trigger_shape_of(const uint8_t *p, uint64_t size, trigger_shape *out)
{
    if (trigger_shape_at(p, size, 0, out)) return 1;
    uint64_t order = size >= 4 ? peek32(p) : UINT64_MAX;
    if (order > (size - 4) / 4) return 0;
    return trigger_shape_at(p + 4 + 4 * order, size - 4 - 4 * order, 1, out);
}

static void trigger(rb_ar *ar, const scn_context *cx, const trigger_shape *shape)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    if (rb_ar_has(ar, "sequenceOrder", reading && shape->sequence)) rb_ar_table(ar, "sequenceOrder", RB_U32, &HANDLE);
    if (rb_ar_has(ar, "expressionStates", reading && shape->expression))
        fixed_table(ar, "expressionStates", EXPRESSION_WORDS, &STATE_WORD);
    rb_ar_u32(ar, "nextAction");
    rb_ar_u32(ar, "life");
    rb_ar_x32(ar, "probability");
    rb_ar_f32(ar, "fireTime");
    bool4(ar, "sequenceActions");
    rb_ar_f32(ar, "nextActionTime");
    rb_ar_f32(ar, "nextFireTime");
    for (int t = TAIL_LOCATION; t < TAIL_COUNT; t++) {
        if (!rb_ar_has(ar, TAIL_KEYS[t], reading && shape->tail == (trigger_tail)t)) continue;
        rb_ar_record_begin(ar, TAIL_KEYS[t]);
        if (t == TAIL_LOCATION) {
            rb_ar_u32(ar, "creatureEnterCount");
            rb_ar_u32(ar, "creatureLeaveCount");
            fixed_table(ar, "contained", CONTAINMENT, &HANDLE);
        } else if (t == TAIL_TIMER) {
            rb_ar_f32(ar, "stateRemain");
            bool4(ar, "state");
        } else {
            bool4(ar, "fired");
        }
        rb_ar_record_end(ar);
        break;
    }
    if (rb_ar_has(ar, "actionStates", reading && shape->actions > 0))
        rb_ar_table_n(ar, "actionStates", shape->actions, &STATE_WORD);
}

/* ---------- subsystems ---------- */

/* The active camera (block `80A9DC71`): its presence, the properties version tag 'VER1', then
 * its properties structure copied whole (1-byte bools with their padding). */
static void camera(rb_ar *ar, const scn_context *cx)
{
    rb_ar_layout_record(ar, "presence", &PRESENCE);
    static const uint8_t ver1[4] = {'1', 'R', 'E', 'V'};
    rb_ar_expect(ar, "camera properties version 'VER1'", ver1, 4);
    rb_ar_record_begin(ar, "viewport");
    static const char *const view[] = {"screenWidth", "screenHeight", "screenX", "screenY",
                                       "virtualWidth", "virtualHeight", "virtualOriginX", "virtualOriginY"};
    for (size_t i = 0; i < sizeof view / sizeof *view; i++) rb_ar_f32(ar, view[i]);
    struct_bool(ar, "squareScale", "squareScalePadding");
    rb_ar_f32(ar, "scaleX");
    rb_ar_f32(ar, "offsetX");
    rb_ar_f32(ar, "scaleY");
    rb_ar_f32(ar, "offsetY");
    rb_ar_record_end(ar);
    struct_bool(ar, "perspective", "perspectivePadding");
    rb_ar_f32(ar, "nearClip");
    rb_ar_f32(ar, "farClip");
    rb_ar_f32(ar, "desiredFarClip");
    struct_bool(ar, "clipNearFar", "clipNearFarPadding");
    rb_ar_f32(ar, "viewWidth");
    rb_ar_f32(ar, "aspectRatio");
    rb_ar_f32(ar, "zoomFactor");
    rb_ar_f32(ar, "viewWidthRatio");
}

/* The AI system: sleep flag (save version 13 on), random seed, clocks, 10 active-animal slots,
 * then the inactive animals. */
static void ai_system(rb_ar *ar, const scn_context *cx)
{
    if (cx->save_version >= 13) bool4(ar, "sleep");
    rb_ar_x32(ar, "randomSeed");
    rb_ar_f32(ar, "now");
    rb_ar_f32(ar, "lastExecution");
    rb_ar_f32(ar, "timeTaken");
    fixed_table(ar, "activeAnimals", 10, &HANDLE);
    rb_ar_table(ar, "inactiveAnimals", RB_U32, &HANDLE);
}

/* A playing sound: its id in the .tpa, how it is placed (0 stereo, 1 pseudo 3D, 2 spatial 3D),
 * the instance it is attached to (0: none), and its volumes and ranges. */
static void audio_sample(rb_ar *ar)
{
    static const char *const floats[] = {"volume", "attenuation", "frustumAngle", "outsideVolume",
                                         "maxVolumeDistance", "masterVolume"};
    rb_ar_x32(ar, "sound");
    rb_ar_u32(ar, "spatialType");
    rb_ar_x32(ar, "parent");
    RB_AR_EACH(ar, i, sizeof floats / sizeof floats[0]) rb_ar_f32(ar, floats[i]);
}

/* The ambient sounds playing (version 6): each a sound, whether it loops and how often (-1:
 * for ever), how far it is heard, its flags and the volume a mute restores. */
static void audio_ambients(rb_ar *ar)
{
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "ambients", RB_U32, 56)) {
        audio_sample(ar);
        bool4(ar, "looped");
        rb_ar_i32(ar, "loopCount");
        rb_ar_f32(ar, "maxDistance");
        rb_ar_x32(ar, "flags");
        rb_ar_f32(ar, "restoreVolume");
    }
}

/* The audio daemon (versions 1 to 6; 4 was never written): output format, speaker set-up and
 * features; before version 6 three words the loader skips; from version 3 the voice-over and the
 * music playing, each then saved as a playing sound; from version 6 the ambient mute state and the
 * ambient sounds playing (docs/formats/tres.md "SCN block classes"). */
static void audio_daemon(rb_ar *ar, const scn_context *cx)
{
    (void)cx;
    uint32_t version = rb_ar_u32(ar, "version");
    if (rb_ar_ok(ar) && (version < 1 || version > 6))
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "audio daemon version %u (known: 1 to 6)", version);
    rb_ar_x32(ar, "format");
    rb_ar_u32(ar, "speakerConfig");
    rb_ar_x32(ar, "featuresEnabled");
    if (version < 6) {
        rb_ar_x32(ar, "oldFlag1");
        rb_ar_x32(ar, "oldFlag2");
        rb_ar_x32(ar, "oldValue");
    }
    if (version >= 3) {
        uint32_t voice = bool4(ar, "voiceOverPlaying");
        uint32_t music = bool4(ar, "musicPlaying");
        if (voice) {
            rb_ar_record_begin(ar, "voiceOver");
            audio_sample(ar);
            rb_ar_record_end(ar);
        }
        if (music) {
            rb_ar_record_begin(ar, "music");
            audio_sample(ar);
            rb_ar_record_end(ar);
        }
    }
    if (version >= 6) {
        bool4(ar, "ambientMuted");
        rb_ar_f32(ar, "ambientRestore");
        audio_ambients(ar);
    }
}

/* The terrain settings, version 1. */
static void terrain(rb_ar *ar, const scn_context *cx)
{
    static const uint8_t one[4] = {1, 0, 0, 0};
    rb_ar_expect(ar, "terrain version 1", one, 4);
    static const char *const settings[] = {"pixelTolerance", "pixelToleranceFar", "deferMultiplier", "maxDistRatio",
                                           "minDistRatioNodeSize", "sigNodeDiffShift", "texelScale", "texelScaleFar",
                                           "disableShadowDistance", "disableDynamicTextureDistance",
                                           "disableTextureDistance"};
    for (size_t i = 0; i < sizeof settings / sizeof *settings; i++) rb_ar_f32(ar, settings[i]);
    bool4(ar, "enableShadows");
    bool4(ar, "enableMovingShadows");
    bool4(ar, "disableTextures");
    bool4(ar, "showWireframe");
    bool4(ar, "showQuadtree");
    rb_ar_f32(ar, "wireZoom");
}

/* Blood splats and streaks: a placement and a dimension each. */
static const rb_layout_field SPLAT_FIELDS[] = {{"placement", RB_K_RECORD, .record = &PLACEMENT},
                                               {"dimension", RB_K_FLOAT, 4}};
static const rb_layout SPLAT = {"blood splat", SPLAT_FIELDS, 2};

static void blood_splats(rb_ar *ar, const scn_context *cx, uint64_t size)
{
    rb_ar_table_n(ar, "splats", size / 32, &SPLAT);
}

/* The physics system ("Joe"): version byte, magnet pairs, two flags, then the moving objects up
 * to a zero handle; a skeleton (activity 100) may be followed by its bio-model fields. */
static const rb_layout_field MAGNET_FIELDS[] = {
    {"master", RB_K_INT, RB_X32},          {"slave", RB_K_INT, RB_X32},
    {"flags", RB_K_INT, RB_X32},           {"breakStrength", RB_K_FLOAT, 4},
    {"substituteMesh", RB_K_INT, RB_U8},   {"padding", RB_K_BLOB, .size = 3},
    {"restore", RB_K_FLOAT, 4},            {"friction", RB_K_FLOAT, 4},
    {"drive", RB_K_FLOAT, 4},              {"angleMin", RB_K_FLOAT, 4},
    {"angleMax", RB_K_FLOAT, 4},           {"masterPresence", RB_K_RECORD, .record = &PRESENCE},
    {"hingeRotation", RB_K_RECORD, .record = &QUAT}};
static const rb_layout MAGNET = {"magnet pair", MAGNET_FIELDS, 13};
enum { JOE_OBJECT = 36, BIO_FIELD = 30 * 9 * 4, SKELETON_ACTIVITY = 100, MAX_BIO_FIELDS = 2 };

/* READ: how many bio fields follow each object so that the list ends with its zero handle exactly
 * at the end (the game writes them only for skeletons that have bio models). From the end
 * backwards, `ends[at]` says whether a list read from `at` ends right; then the objects are
 * walked forwards taking the first count (0, 2, 1) that still ends right. Linear in the size,
 * whatever the bytes. `fields` gets one count per object; returns the object count, or -1. */
static long joe_objects(const uint8_t *p, uint64_t size, uint8_t *fields, long cap)
{
    static const int tries[] = {0, 2, 1};
    if (size < 4) return -1;
    uint8_t *ends = calloc(size + 1, 1);
    if (!ends) return -1;
    for (uint64_t at = size - 4 + 1; at-- > 0;) {
        if (peek32(p + at) == 0) {
            ends[at] = at + 4 == size;
            continue;
        }
        if (at + JOE_OBJECT > size) continue;
        int skeleton = peek32(p + at + 4) == SKELETON_ACTIVITY;
        for (int k = 0; k < (skeleton ? 3 : 1) && !ends[at]; k++) {
            uint64_t next = at + JOE_OBJECT + (uint64_t)BIO_FIELD * tries[k];
            ends[at] = next < size && ends[next];
        }
    }
    long n = -1;
    if (ends[0]) {
        uint64_t at = 0;
        for (n = 0; peek32(p + at) != 0 && n < cap; n++) {
            int skeleton = peek32(p + at + 4) == SKELETON_ACTIVITY;
            for (int k = 0; k < (skeleton ? 3 : 1); k++) {
                uint64_t next = at + JOE_OBJECT + (uint64_t)BIO_FIELD * tries[k];
                if (next < size && ends[next]) {
                    fields[n] = (uint8_t)tries[k];
                    at = next;
                    break;
                }
            }
        }
    }
    free(ends);
    return n;
}

static void physics_system(rb_ar *ar, const scn_context *cx, uint64_t size)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    uint8_t *fields = NULL;
    long objects = 0;
    rb_ar_u8(ar, "version");
    rb_ar_table(ar, "magnets", RB_U32, &MAGNET);
    bool4(ar, "active");
    bool4(ar, "allowSleep");
    if (reading && rb_ar_ok(ar)) {
        uint64_t left = rb_ar_remaining(ar), cap = left / JOE_OBJECT + 1;
        const uint8_t *p = rb_ar_peek_bytes(ar, left);
        fields = calloc(cap, 1);
        objects = p && fields ? joe_objects(p, left, fields, (long)cap) : -1;
        if (objects < 0) rb_ar_fail(ar, RB_E_FORMAT, "the moving objects do not end with a zero handle at the end");
    }
    RB_AR_RECORDS(ar, i, rb_ar_list_begin_n(ar, "objects", objects > 0 ? (uint64_t)objects : 0, JOE_OBJECT)) {
        rb_ar_x32(ar, "instance");
        rb_ar_i32(ar, "activity");
        rb_ar_layout_record(ar, "velocity", &PLACEMENT);
        /* each bio-model field is 30 cells of a 3x3 matrix; a skeleton has 0, 1 or 2 fields */
        if (rb_ar_has(ar, "bioCells", reading && fields[i] > 0)) {
            uint64_t cells = rb_ar_table_n(ar, "bioCells", reading ? 30 * (uint64_t)fields[i] : 0, &MATRIX3);
            if (rb_ar_ok(ar) && cells % 30 != 0)
                rb_ar_fail(ar, RB_E_MODEL, "bioCells has %llu cells, not a multiple of 30", (unsigned long long)cells);
        }
    }
    static const uint8_t end[4] = {0, 0, 0, 0};
    rb_ar_expect(ar, "end of the moving objects (zero handle)", end, 4);
    free(fields);
}

/* The render database's settings: depth sorting, perspective correction, image caches, fog,
 * culling, mip-mapping, the sky, the camera, filtering, then one record per animating mesh. */
static void expect_u32(rb_ar *ar, const char *what, uint32_t value)
{
    const uint8_t bytes[4] = {(uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16), (uint8_t)(value >> 24)};
    rb_ar_expect(ar, what, bytes, 4);
}

static void floats(rb_ar *ar, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < n; i++) rb_ar_f32(ar, keys[i]);
}

static const rb_layout_field ANIMATING_MESH_FIELDS[] = {
    {"timeStep", RB_K_FLOAT, 4},  {"timeToChange", RB_K_FLOAT, 4}, {"currentIndex", RB_K_INT, RB_I32},
    {"texCoordDeltaU", RB_K_FLOAT, 4}, {"texCoordDeltaV", RB_K_FLOAT, 4}, {"trackTwo", RB_K_INT, RB_I32},
    {"freezeFrame", RB_K_INT, RB_I32}};
static const rb_layout ANIMATING_MESH = {"animating mesh", ANIMATING_MESH_FIELDS, 7};

static void render_db(rb_ar *ar, const scn_context *cx, uint64_t size)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    expect_u32(ar, "render database version 3", 3);
    rb_ar_record_begin(ar, "depthSort");
    expect_u32(ar, "depth sort settings version 1", 1);
    static const char *const sort[] = {"nearZScale", "farZScale", "nearZ", "farZ", "farZNoDepthSort", "pixelBuffer",
                                       "nearZScaleTerrain", "farZScaleTerrain", "nearZTerrain", "farZTerrain"};
    floats(ar, sort, sizeof sort / sizeof *sort);
    rb_ar_i32(ar, "maxToDepthsort");
    rb_ar_i32(ar, "binaryPartitionAt");
    rb_ar_i32(ar, "quadPartitionAt");
    bool4(ar, "useSeparateTolerances");
    rb_ar_u32(ar, "scale");
    rb_ar_record_end(ar);
    rb_ar_record_begin(ar, "perspective");
    expect_u32(ar, "perspective settings version 1", 1);
    rb_ar_f32(ar, "pixelError");
    rb_ar_f32(ar, "altPixelError");
    rb_ar_i32(ar, "minSubdivision");
    rb_ar_i32(ar, "altMinSubdivision");
    rb_ar_f32(ar, "minZ");
    rb_ar_record_end(ar);
    rb_ar_record_begin(ar, "imageCache");
    expect_u32(ar, "image cache settings version 2", 2);
    rb_ar_i32(ar, "maxAcceptAngleCylinder");
    static const char *const cache[] = {"detailReduceFactor", "pixelsPerArea", "pixelsPerLine", "minPolygonMesh"};
    floats(ar, cache, 4);
    bool4(ar, "useCameraPrediction");
    bool4(ar, "fasterPhysics");
    rb_ar_i32(ar, "maxObjectsPerCache");
    rb_ar_f32(ar, "efficiencyArea");
    rb_ar_f32(ar, "distortionWeight");
    rb_ar_record_end(ar);
    static const char *const rest[] = {"fogHalfY", "fogPower", "cullMaxAtDistance", "cullMaxRadius",
                                       "cullMaxAtDistanceShadow", "cullMaxRadiusShadow", "mipmapThreshold"};
    floats(ar, rest, sizeof rest / sizeof *rest);
    /* the sky: version 1 and its settings, or 0 when the level has none */
    rb_slot sky_version = rb_ar_slot(ar, "sky version (1, or 0: no sky)", RB_U32);
    int has_sky = rb_ar_has(ar, "sky", reading && sky_version.value == 1);
    if (rb_ar_ok(ar) && reading && sky_version.value > 1)
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "sky version %llu (known: 0, 1)", (unsigned long long)sky_version.value);
    rb_ar_slot_set(ar, &sky_version, has_sky ? 1 : 0);
    if (has_sky) {
        rb_ar_record_begin(ar, "sky");
        rb_ar_u32(ar, "divisionLength");
        static const char *const sky[] = {"pixelsPerMeter", "fogFar", "fogNear", "height",
                                          "offsetU", "offsetV", "offsetdU", "offsetdV"};
        floats(ar, sky, sizeof sky / sizeof *sky);
        bool4(ar, "unused");
        bool4(ar, "fill");
        rb_ar_record_end(ar);
    }
    static const char *const camera_keys[] = {"cameraZoom", "cameraAngleOfView", "cameraNearClip", "cameraFarClip"};
    floats(ar, camera_keys, 4);
    rb_ar_i32(ar, "filter");
    rb_ar_table_n(ar, "animatingMeshes", reading ? rb_ar_remaining(ar) / 28 : 0, &ANIMATING_MESH);
}

/* ---------- dispatch ---------- */

typedef enum {
    C_GUN, C_ANIMAL, C_TRIGGER, C_TELEPORT, C_CAMERA, C_PLAYER, C_AI_SYSTEM, C_AUDIO, C_TERRAIN, C_BLOOD,
    C_PHYSICS, C_RENDER, C_COUNT
} scn_class;

static const char *const CLASS_KEYS[C_COUNT] = {
    [C_GUN] = "gun", [C_ANIMAL] = "animal", [C_TRIGGER] = "trigger", [C_TELEPORT] = "teleport",
    [C_CAMERA] = "camera", [C_PLAYER] = "player", [C_AI_SYSTEM] = "aiSystem", [C_AUDIO] = "audioDaemon",
    [C_TERRAIN] = "terrain", [C_BLOOD] = "bloodSplats", [C_PHYSICS] = "physicsSystem", [C_RENDER] = "renderDb"};

/* The subsystems' blocks are named by the hash of fixed names (docs/formats/tres.md
 * "Hashes and ids"). */
static int named(const scn_context *cx, const char *name) { return strcmp(cx->block_name, name) == 0; }

static int is_hex_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 8) return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'A' && s[i] <= 'F'))) return 0;
    return 1;
}

static int read_class(rb_ar *ar, const scn_context *cx, uint64_t size, trigger_shape *shape)
{
    const uint8_t *p = payload_bytes(ar, size);
    if (!p) return -1;
    unsigned base = tres_save_has_flags(cx->save_version) ? 36 : 32;
    if (named(cx, "80A9DC71")) return size == 124 ? C_CAMERA : -1;
    if (named(cx, "9FB57F53")) return C_PLAYER;
    if (named(cx, "A9AC56AE")) return C_AI_SYSTEM;
    if (named(cx, "85DFA9CD")) return C_AUDIO;
    if (named(cx, "7CB6A2D")) return size == 72 ? C_TERRAIN : -1;
    if (named(cx, "454D9C65")) return size % 32 == 0 ? C_BLOOD : -1;
    if (named(cx, "5DF133BB")) return C_PHYSICS;
    if (named(cx, "4C56C6CC")) return C_RENDER;
    if (!is_hex_name(cx->block_name)) return -1;
    if (size == base + 8) return C_GUN;
    if (size == 4) return C_TELEPORT;
    if (animal_fits(p, size, cx)) return C_ANIMAL;
    if (trigger_shape_of(p, size, shape)) return C_TRIGGER;
    return -1;
}

static int model_class(rb_ar *ar)
{
    for (int c = 0; c < C_COUNT; c++)
        if (rb_ar_has(ar, CLASS_KEYS[c], 0)) return c;
    return -1;
}

static void describe_class(rb_ar *ar, const scn_context *cx, int c, uint64_t size, const trigger_shape *shape)
{
    rb_ar_record_begin(ar, CLASS_KEYS[c]);
    switch (c) {
    case C_GUN: gun(ar, cx); break;
    case C_ANIMAL: animal(ar, cx); break;
    case C_TRIGGER: trigger(ar, cx, shape); break;
    /* the teleporter saves the address of its sequence number instead of the number (junk) */
    case C_TELEPORT: rb_ar_x32(ar, "sequenceAddress"); break;
    case C_CAMERA: camera(ar, cx); break;
    case C_PLAYER: player(ar, cx); break;
    case C_AI_SYSTEM: ai_system(ar, cx); break;
    case C_AUDIO: audio_daemon(ar, cx); break;
    case C_TERRAIN: terrain(ar, cx); break;
    case C_BLOOD: blood_splats(ar, cx, size); break;
    case C_PHYSICS: physics_system(ar, cx, size); break;
    case C_RENDER: render_db(ar, cx, size); break;
    }
    rb_ar_record_end(ar);
}

int scn_block(rb_ar *ar, const scn_context *cx, uint64_t size)
{
    if (rb_ar_direction(ar) != RB_AR_READ) {
        int c = model_class(ar);
        if (c < 0) return 0;
        trigger_shape none = {0};
        describe_class(ar, cx, c, size, &none);
        return 1;
    }
    trigger_shape shape = {0};
    if (cx->save_version < 0) return 0; /* before the Header: the versions are unknown */
    int c = read_class(ar, cx, size, &shape);
    if (c < 0) {
        rb_ar_note(ar, "block %s (%llu bytes) kept opaque: no class layout takes exactly its bytes", cx->block_name,
                   (unsigned long long)size);
        return 0;
    }
    rb_ar_mark mark = rb_ar_mark_here(ar);
    describe_class(ar, cx, c, size, &shape);
    if (rb_ar_ok(ar) && rb_ar_at_end(ar)) return 1;
    if (mark.failed) return 1;
    char why[300] = "";
    if (rb_ar_ok(ar)) snprintf(why, sizeof why, "%llu bytes left over", (unsigned long long)rb_ar_remaining(ar));
    rb_ar_rewind(ar, &mark, rb_ar_ok(ar) ? NULL : why, rb_ar_ok(ar) ? 0 : sizeof why);
    rb_ar_note(ar, "block %s kept opaque: not a %s (%s)", cx->block_name, CLASS_KEYS[c], why);
    return 0;
}
