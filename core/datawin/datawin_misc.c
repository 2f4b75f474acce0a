/*
 * The smaller chunks of newer data.win files (layouts: docs/formats/datawin.md "TGIN" to
 * "PSYS"; checked against UndertaleModTool's models): TGIN (texture groups), EMBI (embedded
 * images), FEAT (feature flags), DAFL (empty), TAGS (asset tags), ACRV (animation curves), SEQN
 * (sequences, described in datawin_sprt.c), FEDS (filter effects), PSEM (particle emitters), PSYS
 * (particle systems).
 *
 * Most of them start with a zero fill to 4 and a u32 1 (docs/formats/datawin.md "Padding").
 * Where a layout changed between GameMaker versions that the file does not name, the variant is
 * a chunk-level model field (e.g. "layoutSince": 202308) that READ decides by trying the
 * variants in turn and keeping the first that reproduces the chunk exactly.
 */
#include <string.h>
#include "core/datawin/datawin_internal.h"

/* ---------- shared pieces ---------- */

/* Zero fill to 4 (normally none: chunk data starts 4-aligned), then u32 1 (docs/formats/datawin.md
 * "Padding"). The version is a constant, not a model field: another value means an unknown layout
 * (opaque). */
static void version_one(rb_ar *ar, datawin_state *st, int aligned)
{
    static const uint8_t one[4] = {1, 0, 0, 0};
    if (aligned) datawin_align(ar, st, 4);
    rb_ar_expect(ar, "version 1", one, sizeof one);
}

/* ---------- TGIN (docs/formats/datawin.md "TGIN") ---------- */

/* Variant bits: a group has directory/extension/load type (2022.9+); a group lists spine
 * sprites (until 2023.1 non-LTS). */
enum { TGIN_DIRECTORY = 1, TGIN_SPINE = 2 };

static void texture_group(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    unsigned variant = *(const unsigned *)ctx;
    datawin_strref(ar, st, "name");
    if (variant & TGIN_DIRECTORY) {
        datawin_strref(ar, st, "directory");
        datawin_strref(ar, st, "extension");
        rb_ar_i32(ar, "loadType");
    }
    const char *lists[5];
    size_t n = 0;
    lists[n++] = "texturePages";
    lists[n++] = "sprites";
    if (variant & TGIN_SPINE) lists[n++] = "spineSprites";
    lists[n++] = "fonts";
    lists[n++] = "tilesets";
    rb_slot at[5];
    for (size_t i = 0; i < n; i++) at[i] = rb_ar_slot(ar, lists[i], RB_U32);
    RB_AR_EACH(ar, i, n) {
        datawin_data_lands_here(ar, st, &at[i], lists[i]);
        datawin_id_list(ar, lists[i], RB_I32);
    }
}

static void tgin_chunk(rb_ar *ar, datawin_state *st, unsigned variant)
{
    version_one(ar, st, 0);
    unsigned directory = (unsigned)rb_ar_uint_detached(ar, "groupDirectory", RB_U8, !!(variant & TGIN_DIRECTORY));
    unsigned spine = (unsigned)rb_ar_uint_detached(ar, "groupSpineSprites", RB_U8, !!(variant & TGIN_SPINE));
    if (rb_ar_ok(ar) && (directory > 1 || spine > 1)) {
        rb_ar_fail(ar, RB_E_MODEL, "groupDirectory and groupSpineSprites must be 0 or 1");
        return;
    }
    variant = (directory ? TGIN_DIRECTORY : 0) | (spine ? TGIN_SPINE : 0);
    datawin_pointer_list(ar, st, "groups", 1, texture_group, &variant);
}

void datawin_chunk_tgin(rb_ar *ar, datawin_state *st)
{
    /* most likely first: FEAT means 2022.8+, PSEM 2023.2+ (no spine sprites)
     * (docs/formats/datawin.md "Version clues") */
    unsigned likely = datawin_find_chunk(st, "FEAT") ? TGIN_DIRECTORY : TGIN_SPINE;
    if (datawin_find_chunk(st, "PSEM")) likely = TGIN_DIRECTORY;
    const unsigned tries[4] = {likely, likely ^ TGIN_SPINE, likely ^ TGIN_DIRECTORY,
                               likely ^ TGIN_DIRECTORY ^ TGIN_SPINE};
    datawin_try_variants(ar, st, tgin_chunk, tries, 4);
}

/* ---------- EMBI, FEAT, DAFL, TAGS, FEDS (docs/formats/datawin.md, one section each) ---------- */

void datawin_chunk_embi(rb_ar *ar, datawin_state *st)
{
    version_one(ar, st, 0);
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "images", RB_U32, 8)) {
        datawin_strref(ar, st, "name");
        datawin_tpag_ref(ar, st, "texture");
    }
    datawin_content_ends_here(ar);
}

void datawin_chunk_feat(rb_ar *ar, datawin_state *st)
{
    datawin_align(ar, st, 4); /* FEAT has the leading fill but no version (docs/formats/datawin.md "Padding") */
    datawin_string_list(ar, st, "features");
    datawin_content_ends_here(ar);
}

/* DAFL: a placeholder with no content; its padding (if any) is the chunk padding. */
void datawin_chunk_dafl(rb_ar *ar, datawin_state *st)
{
    (void)st;
    datawin_content_ends_here(ar);
}

static void asset_tags(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    rb_ar_i32(ar, "assetId");
    datawin_string_list(ar, st, "tags");
}

void datawin_chunk_tags(rb_ar *ar, datawin_state *st)
{
    version_one(ar, st, 1);
    datawin_string_list(ar, st, "tags");
    datawin_pointer_list(ar, st, "assetTags", 1, asset_tags, NULL);
    datawin_content_ends_here(ar);
}

static void filter_effect(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    datawin_strref(ar, st, "name");
    datawin_strref(ar, st, "value");
}

void datawin_chunk_feds(rb_ar *ar, datawin_state *st)
{
    version_one(ar, st, 1);
    datawin_pointer_list(ar, st, "effects", 1, filter_effect, NULL);
    datawin_content_ends_here(ar);
}

/* ---------- ACRV (docs/formats/datawin.md "ACRV") ---------- */

static void animation_curve(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    datawin_animation_curve(ar, st, 1, *(const unsigned *)ctx);
}

static void acrv_chunk(rb_ar *ar, datawin_state *st, unsigned bezier)
{
    version_one(ar, st, 1);
    static const unsigned flags[] = {0, 1};
    bezier = datawin_layout_field(ar, "bezierPoints", bezier, flags, 2);
    datawin_pointer_list(ar, st, "curves", 1, animation_curve, &bezier);
}

void datawin_chunk_acrv(rb_ar *ar, datawin_state *st)
{
    static const unsigned tries[] = {1, 0};
    datawin_try_variants(ar, st, acrv_chunk, tries, 2);
}

/* ---------- SEQN (docs/formats/datawin.md "SEQN") ---------- */

/* Sequences are described with the sprites' embedded ones (datawin_sequence, datawin_sprt.c), with every
 * track kind. What the file does not say is a chunk-level model field each, decided in READ by
 * trying the variants: width/height (2024.13+), text wrap mode/origin (2024.14+), Bezier curve
 * points (2.3.1+). SEQN may also have no content at all (len 0). */
enum { SEQN_SIZE = 1, SEQN_TEXT_LAYOUT = 2, SEQN_BEZIER = 4 };

static void sequence_element(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    datawin_sequence(ar, st, ctx);
}

static void seqn_chunk(rb_ar *ar, datawin_state *st, unsigned variant)
{
    static const unsigned flags[] = {0, 1};
    version_one(ar, st, 1);
    datawin_sequence_layout layout = {0};
    layout.all_tracks = 1;
    layout.has_size = datawin_layout_field(ar, "sequenceHasSize", !!(variant & SEQN_SIZE), flags, 2);
    layout.text_layout = datawin_layout_field(ar, "textHasLayout", !!(variant & SEQN_TEXT_LAYOUT), flags, 2);
    layout.bezier_points = datawin_layout_field(ar, "bezierPoints", !!(variant & SEQN_BEZIER), flags, 2);
    datawin_pointer_list(ar, st, "sequences", 1, sequence_element, &layout);
}

/* Most likely first: Bezier points (all but 2.3.0), width/height and text layout when UILR
 * (2024.13+) is there; then one flag changed at a time, ... */
void datawin_chunk_seqn(rb_ar *ar, datawin_state *st)
{
    if (!rb_ar_has(ar, "sequences", rb_ar_remaining(ar) > 0)) return;
    unsigned likely = SEQN_BEZIER | (datawin_find_chunk(st, "UILR") ? SEQN_SIZE | SEQN_TEXT_LAYOUT : 0);
    static const unsigned flips[8] = {0, SEQN_TEXT_LAYOUT, SEQN_SIZE, SEQN_SIZE | SEQN_TEXT_LAYOUT, SEQN_BEZIER,
                                      SEQN_BEZIER | SEQN_TEXT_LAYOUT, SEQN_BEZIER | SEQN_SIZE, 7};
    unsigned tries[8];
    for (size_t i = 0; i < 8; i++) tries[i] = likely ^ flips[i];
    datawin_try_variants(ar, st, seqn_chunk, tries, 8);
}

/* ---------- PSEM, PSYS (docs/formats/datawin.md "PSEM", "PSYS") ---------- */

/* A bool32 of a particle record. READ: GameMaker writes 0 or 1; another value means the layout
 * tried is not the file's (a 2023.2 emitter read as 2023.4 would take colours for flags), so the
 * next variant is tried (and the chunk stays opaque if none fits). */
static void particle_flag(rb_ar *ar, const char *key)
{
    uint32_t raw = rb_ar_bool(ar, key, 4);
    if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_ok(ar) && raw > 1)
        rb_ar_fail(ar, RB_E_FORMAT, "%s: %u is not a boolean", key, raw);
}

/* The emitter layout is named by the GameMaker version that introduced it. */
static const unsigned emitter_layouts[] = {202308, 202306, 202304, 202302};

static void emitter_timing(rb_ar *ar, unsigned since)
{
    if (since < 202308) {
        rb_ar_i32(ar, "emitCount");
        return;
    }
    rb_ar_f32(ar, "emitCount");
    particle_flag(ar, "emitRelative");
    rb_ar_f32(ar, "delayMin");
    rb_ar_f32(ar, "delayMax");
    rb_ar_i32(ar, "delayUnit");
    rb_ar_f32(ar, "intervalMin");
    rb_ar_f32(ar, "intervalMax");
    rb_ar_i32(ar, "intervalUnit");
}

static void f32_fields(rb_ar *ar, const char *const *keys, size_t n)
{
    RB_AR_EACH(ar, i, n) rb_ar_f32(ar, keys[i]);
}

static void emitter_size(rb_ar *ar, unsigned since)
{
    static const char *const per_axis[] = {"sizeMinX", "sizeMaxX", "sizeMinY", "sizeMaxY",
                                           "sizeIncreaseX", "sizeIncreaseY", "sizeWiggleX", "sizeWiggleY"};
    static const char *const both_axes[] = {"sizeMin", "sizeMax", "sizeIncrease", "sizeWiggle"};
    if (since >= 202308) f32_fields(ar, per_axis, 8);
    else f32_fields(ar, both_axes, 4);
}

static void particle_emitter(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    unsigned since = *(const unsigned *)ctx;
    static const char *const region[] = {"regionX", "regionY", "regionWidth", "regionHeight", "rotation"};
    static const char *const look[] = {"lifetimeMin", "lifetimeMax", "scaleX", "scaleY"};
    static const char *const motion[] = {"speedMin", "speedMax", "speedIncrease", "speedWiggle",
                                         "gravityForce", "gravityDirection", "directionMin", "directionMax",
                                         "directionIncrease", "directionWiggle", "orientationMin",
                                         "orientationMax", "orientationIncrease", "orientationWiggle"};
    datawin_strref(ar, st, "name");
    if (since >= 202306) particle_flag(ar, "enabled");
    rb_ar_i32(ar, "mode");
    emitter_timing(ar, since);
    rb_ar_i32(ar, "distribution");
    rb_ar_i32(ar, "shape");
    f32_fields(ar, region, 5);
    rb_ar_i32(ar, "spriteId");
    rb_ar_i32(ar, "texture");
    rb_ar_f32(ar, "frameIndex");
    if (since >= 202304) {
        particle_flag(ar, "animate");
        particle_flag(ar, "stretch");
        particle_flag(ar, "isRandom");
    }
    rb_ar_x32(ar, "startColor");
    rb_ar_x32(ar, "midColor");
    rb_ar_x32(ar, "endColor");
    particle_flag(ar, "additiveBlend");
    f32_fields(ar, look, 4);
    emitter_size(ar, since);
    f32_fields(ar, motion, 14);
    particle_flag(ar, "orientationRelative");
    rb_ar_i32(ar, "spawnOnDeath");
    rb_ar_i32(ar, "spawnOnDeathCount");
    rb_ar_i32(ar, "spawnOnUpdate");
    rb_ar_i32(ar, "spawnOnUpdateCount");
}

static void psem_chunk(rb_ar *ar, datawin_state *st, unsigned since)
{
    version_one(ar, st, 1);
    since = datawin_layout_field(ar, "layoutSince", since, emitter_layouts, 4);
    datawin_pointer_list(ar, st, "emitters", 1, particle_emitter, &since);
}

/* Newest first; an empty list says nothing about the layout: the newest is assumed (kept in
 * the model). One 2023.2 emitter alone also fits the 2023.4 layout byte for byte but for its
 * flags, which then hold colours: particle_flag tells them apart. */
void datawin_chunk_psem(rb_ar *ar, datawin_state *st)
{
    datawin_try_variants(ar, st, psem_chunk, emitter_layouts, 4);
}

static const unsigned system_layouts[] = {202308, 202302};

static void particle_system(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    unsigned since = *(const unsigned *)ctx;
    datawin_strref(ar, st, "name");
    rb_ar_i32(ar, "originX");
    rb_ar_i32(ar, "originY");
    rb_ar_i32(ar, "drawOrder");
    if (since >= 202308) particle_flag(ar, "globalSpaceParticles");
    datawin_id_list(ar, "emitters", RB_I32);
}

static void psys_chunk(rb_ar *ar, datawin_state *st, unsigned since)
{
    version_one(ar, st, 1);
    since = datawin_layout_field(ar, "layoutSince", since, system_layouts, 2);
    datawin_pointer_list(ar, st, "systems", 1, particle_system, &since);
}

/* READ: the PSEM emitters are 2023.8 records (0xEC bytes): -1 unknown (no emitter).
 * docs/formats/datawin.md "Version clues" */
static int emitters_are_2023_8(const datawin_state *st)
{
    const datawin_chunk_span *c = datawin_find_chunk(st, "PSEM");
    if (!c || c->size < 12) return -1;
    const uint8_t *p = st->file + c->data;
    uint32_t count = datawin_le32(p + 4);
    if (count == 0) return -1;
    if (count == 1) return c->size - 12 >= 0xEC;
    return c->size >= 16 && datawin_le32(p + 12) - datawin_le32(p + 8) == 0xEC;
}

/* A system has globalSpaceParticles from 2023.8, like the emitters' newest layout: when PSEM
 * tells, that variant is tried first (one system alone could be read either way). */
void datawin_chunk_psys(rb_ar *ar, datawin_state *st)
{
    static const unsigned older_first[] = {202302, 202308};
    int newest = rb_ar_direction(ar) == RB_AR_READ ? emitters_are_2023_8(st) : -1;
    datawin_try_variants(ar, st, psys_chunk, newest == 0 ? older_first : system_layouts, 2);
}
