/*
 * SPRT (sprites), BGND (backgrounds / GMS2 tilesets) and FONT (fonts): docs/formats/datawin.md
 * "SPRT", "BGND", "FONT", "SEQN"; layout reference UndertaleModTool (UndertaleSprite.cs,
 * UndertaleBackground.cs, UndertaleFont.cs, UndertaleSequence.cs, UndertaleChunks.cs).
 *
 * Fields that GameMaker versions added without saying so in the file (docs/formats/datawin.md
 * "Version clues") are chunk-level model fields ("variant" members). READ tries the plausible
 * variants, most likely first, and keeps the first whose description consumes the chunk exactly;
 * WRITE follows the model.
 */
#include <string.h>
#include "core/datawin/datawin_internal.h"

static const uint8_t zeros[4];

/* The text of the string reference `key` just described in the current record (any direction). */
static const rb_node *strref_text(rb_ar *ar, const char *key)
{
    const rb_node *record = rb_ar_current(ar);
    const rb_node *text = record ? rb_node_get(record, key) : NULL;
    return text && text->kind == RB_K_STRING ? text : NULL;
}

/* A count stored before other fields, for list `key` (READ: the stored value; else the model's). */
static rb_slot count_slot(rb_ar *ar, const char *what, const char *key, uint64_t *count)
{
    rb_slot slot = rb_ar_slot(ar, what, RB_U32);
    *count = rb_ar_count_of(ar, key, slot.value);
    rb_ar_slot_set(ar, &slot, *count);
    return slot;
}

/* SimpleListString (docs/formats/datawin.md "Lists"): u32 count, count string references. */
static void string_list(rb_ar *ar, datawin_state *st, const char *key)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, key, RB_U32, 4)) datawin_strref(ar, st, NULL);
}

/* ---------- animation curves (ACRV's: datawin_misc.c; a sequence's own) ---------- */
/* docs/formats/datawin.md "ACRV" */

/* Variant: points carry 4 Bézier floats (2.3.1+), else one u32 (0 in every known file, kept raw). */
static void curve_point(rb_ar *ar, unsigned bezier)
{
    rb_ar_f32(ar, "x");
    rb_ar_f32(ar, "value");
    if (bezier) {
        rb_ar_f32(ar, "bezierX0");
        rb_ar_f32(ar, "bezierY0");
        rb_ar_f32(ar, "bezierX1");
        rb_ar_f32(ar, "bezierY1");
    } else {
        rb_ar_u32(ar, "unused");
    }
}

static void curve_channel(rb_ar *ar, datawin_state *st, unsigned bezier)
{
    datawin_strref(ar, st, "name");
    rb_ar_u32(ar, "curveType");
    rb_ar_u32(ar, "iterations");
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "points", RB_U32, bezier ? 24 : 12)) curve_point(ar, bezier);
}

/* Also a sequence's owned or embedded curve (datawin_sprt.c; embedded ones have no name). */
void datawin_animation_curve(rb_ar *ar, datawin_state *st, int named, unsigned bezier)
{
    if (named) datawin_strref(ar, st, "name");
    rb_ar_u32(ar, "graphType");
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "channels", RB_U32, 16)) curve_channel(ar, st, bezier);
}

/* ---------- embedded sequences (GMS 2.3+ sprites; also SEQN: datawin_misc.c) ---------- */
/* docs/formats/datawin.md "SEQN" */

typedef void (*keyframe_data_fn)(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *layout);

static void int_data(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *l) { (void)st; (void)l; rb_ar_i32(ar, "value"); }
static void resource_data(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *l) { (void)st; (void)l; rb_ar_i32(ar, "resourceId"); }
static void string_data(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *l) { (void)l; datawin_strref(ar, st, "value"); }
static void messages_data(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *l) { (void)l; string_list(ar, st, "messages"); }
static void events_data(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *l) { (void)l; string_list(ar, st, "events"); }

static void audio_data(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *l)
{
    (void)st; (void)l;
    rb_ar_i32(ar, "soundId");
    rb_ar_expect(ar, "audio keyframe zero", zeros, 4);
    rb_ar_i32(ar, "mode");
}

/* Colour and real keyframes may follow an animation curve: bool32 embedded, then either -1 and an
 * unnamed curve (the curve lives in the keyframe) or the id of an ACRV curve (UMT CurveData). */
static void curve_link(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *l)
{
    static const uint8_t minus_one[4] = {0xFF, 0xFF, 0xFF, 0xFF};
    if (!rb_ar_bool(ar, "curveEmbedded", 4)) {
        rb_ar_i32(ar, "curveId");
        return;
    }
    rb_ar_expect(ar, "embedded curve marker", minus_one, 4);
    rb_ar_record_begin(ar, "curve");
    datawin_animation_curve(ar, st, 0, l->bezier_points);
    rb_ar_record_end(ar);
}

static void colour_data(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *l)
{
    rb_ar_x32(ar, "value");
    curve_link(ar, st, l);
}

static void real_data(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *l)
{
    rb_ar_f32(ar, "value");
    curve_link(ar, st, l);
}

/* Text keyframes (2022.2+): alignment holds horizontal (bits 0-7) and vertical (bits 8-15);
 * 2024.14 added the wrap mode and origin. */
static void text_data(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *l)
{
    datawin_strref(ar, st, "text");
    rb_ar_bool(ar, "wrap", 4);
    rb_ar_x32(ar, "alignment");
    rb_ar_i32(ar, "fontId");
    if (l->text_layout) {
        rb_ar_i32(ar, "wrapMode");
        rb_ar_i32(ar, "origin");
    }
}

/* SimpleList<Keyframe<T>>: f32 key, f32 length, bool32 stretch, bool32 disabled, then
 * SimpleList<{i32 channel, T}>. */
static void keyframes(rb_ar *ar, datawin_state *st, const char *key, keyframe_data_fn data, const datawin_sequence_layout *l)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, key, RB_U32, 20)) {
        rb_ar_record_begin(ar, NULL);
        rb_ar_f32(ar, "key");
        rb_ar_f32(ar, "length");
        rb_ar_bool(ar, "stretch", 4);
        rb_ar_bool(ar, "disabled", 4);
        uint64_t channels = rb_ar_list_begin(ar, "channels", RB_U32, 4);
        RB_AR_RECORDS(ar, c, channels) {
            rb_ar_i32(ar, "channel");
            data(ar, st, l);
        }
        rb_ar_record_end(ar);
    }
}

/* What follows a track's sub-tracks, by its model name (UMT Track). */
typedef struct track_kind {
    const char *model;
    keyframe_data_fn data;  /* NULL: the track has no keyframes */
    unsigned interpolated;  /* the keyframes are preceded by an i32 interpolation mode */
    unsigned seqn_only;     /* typed with layout->all_tracks only: sprites keep the kinds they had */
} track_kind;

static const track_kind track_kinds[] = {
    {"GMSpriteFramesTrack", int_data, 0, 0}, {"GMBoolTrack", int_data, 0, 0},
    {"GMInstanceTrack", resource_data, 0, 0}, {"GMGraphicTrack", resource_data, 0, 0},
    {"GMSequenceTrack", resource_data, 0, 0}, {"GMStringTrack", string_data, 0, 0},
    {"GMAudioTrack", audio_data, 0, 0}, {"GMAssetTrack", NULL, 0, 0},
    {"GMGroupTrack", NULL, 0, 1}, {"GMClipMaskTrack", NULL, 0, 1},
    {"GMColourTrack", colour_data, 1, 1}, {"GMRealTrack", real_data, 1, 1}, {"GMAudioEffectTrack", real_data, 1, 1},
    {"GMTextTrack", text_data, 0, 1}, {"GMParticleTrack", resource_data, 0, 1},
};

/* NULL: a kind not typed (unknown, or not typed for sprites), which keeps the chunk opaque. */
static const track_kind *find_track_kind(const rb_node *model, const datawin_sequence_layout *l)
{
    for (size_t i = 0; i < sizeof track_kinds / sizeof track_kinds[0]; i++)
        if (rb_node_text_is(model, track_kinds[i].model)) return track_kinds[i].seqn_only && !l->all_tracks ? NULL : &track_kinds[i];
    return NULL;
}

/* Owned resources (UMT Track.OwnedResources): each a strref "GMAnimCurve" and a named curve. */
static void owned_curves(rb_ar *ar, datawin_state *st, uint64_t n, const datawin_sequence_layout *l)
{
    if (n && !l->all_tracks && rb_ar_ok(ar)) {
        rb_ar_fail(ar, RB_E_FORMAT, "track owns %llu animation curves (not typed)", (unsigned long long)n);
        return;
    }
    /* absent when empty: the model of a track without curves stays what it was */
    if (!rb_ar_has(ar, "ownedResources", n > 0) || !datawin_count_fits(ar, n, 12, "owned resources")) return;
    n = rb_ar_list_begin_n(ar, "ownedResources", n, 12);
    RB_AR_EACH(ar, i, n) {
        rb_ar_record_begin(ar, NULL);
        datawin_strref(ar, st, "resourceModel");
        const rb_node *model = strref_text(ar, "resourceModel");
        if (rb_ar_ok(ar) && !rb_node_text_is(model, "GMAnimCurve")) {
            rb_ar_fail(ar, RB_E_FORMAT, "owned resource is not a GMAnimCurve");
            break;
        }
        datawin_animation_curve(ar, st, 1, l->bezier_points);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
}

static void track(rb_ar *ar, datawin_state *st, unsigned depth, const datawin_sequence_layout *l);

static void sub_tracks(rb_ar *ar, datawin_state *st, uint64_t n, unsigned depth, const datawin_sequence_layout *l)
{
    n = rb_ar_list_begin_n(ar, "tracks", n, 32);
    RB_AR_RECORDS(ar, i, n) track(ar, st, depth + 1, l);
}

static void track_keyframes(rb_ar *ar, datawin_state *st, const rb_node *model, const datawin_sequence_layout *l)
{
    const track_kind *kind = find_track_kind(model, l);
    if (!kind) {
        rb_ar_fail(ar, RB_E_FORMAT, "sequence track model \"%.*s\" not typed", model ? (int)model->v.bytes.size : 0,
                   model ? (const char *)model->v.bytes.data : "");
        return;
    }
    if (!kind->data) return;
    datawin_align(ar, st, 4);
    if (kind->interpolated) rb_ar_i32(ar, "interpolation");
    keyframes(ar, st, "keyframes", kind->data, l);
}

static void track(rb_ar *ar, datawin_state *st, unsigned depth, const datawin_sequence_layout *l)
{
    if (depth > 32) { rb_ar_fail(ar, RB_E_FORMAT, "sequence tracks nested deeper than 32"); return; }
    datawin_strref(ar, st, "modelName");
    const rb_node *model = strref_text(ar, "modelName");
    datawin_strref(ar, st, "name");
    rb_ar_i32(ar, "builtinName");
    rb_ar_i32(ar, "traits");
    rb_ar_bool(ar, "isCreationTrack", 4);
    uint64_t tags, owned, tracks;
    count_slot(ar, "tagCount", "tags", &tags);
    count_slot(ar, "ownedResourceCount", "ownedResources", &owned);
    count_slot(ar, "trackCount", "tracks", &tracks);
    if (!datawin_count_fits(ar, tags, 4, "tags") || !datawin_count_fits(ar, tracks, 32, "tracks")) return;
    tags = rb_ar_list_begin_n(ar, "tags", tags, 4);
    RB_AR_LIST(ar, i, tags) rb_ar_i32(ar, NULL);
    owned_curves(ar, st, owned, l);
    sub_tracks(ar, st, tracks, depth, l);
    if (rb_ar_ok(ar)) track_keyframes(ar, st, model, l);
}

typedef struct sprt_variant {
    unsigned gms2;          /* GEN8 major >= 2: special sprites have playback fields (kept in the model:
                             * GEN8 facts are known only when reading) */
    unsigned bbox_masks;    /* 2024.6+: masks cover the bounding box, not the whole sprite */
    unsigned sequence_size; /* 2024.13+: sequences have a width and height */
} sprt_variant;

/* Sequence{strref name, u32 playback, f32 speed, u32 speed type, f32 length, i32 originX, originY,
 * f32 volume, [2024.13+: f32 width, height], broadcast messages, tracks, function ids, moments}
 * (docs/formats/datawin.md "SEQN"): a sprite's embedded sequence and each element of SEQN. */
void datawin_sequence(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *l)
{
    datawin_strref(ar, st, "name");
    rb_ar_u32(ar, "playback");
    rb_ar_f32(ar, "playbackSpeed");
    rb_ar_u32(ar, "playbackSpeedType");
    rb_ar_f32(ar, "length");
    rb_ar_i32(ar, "originX");
    rb_ar_i32(ar, "originY");
    rb_ar_f32(ar, "volume");
    if (l->has_size) {
        rb_ar_f32(ar, "width");
        rb_ar_f32(ar, "height");
    }
    keyframes(ar, st, "broadcastMessages", messages_data, l);
    uint64_t n = rb_ar_list_begin(ar, "tracks", RB_U32, 32);
    RB_AR_RECORDS(ar, i, n) track(ar, st, 0, l);
    n = rb_ar_list_begin(ar, "functionIds", RB_U32, 8);
    RB_AR_RECORDS(ar, i, n) {
        rb_ar_i32(ar, "id");
        datawin_strref(ar, st, "functionName");
    }
    keyframes(ar, st, "moments", events_data, l);
}

/* ---------- SPRT ---------- */

/* 40 bytes: i32 left, top, right, bottom, bool32 enabled, 5 x i32 tile modes
 * (docs/formats/datawin.md "SPRT"). */
static void nine_slice(rb_ar *ar)
{
    static const char *const sides[] = {"left", "top", "right", "bottom"};
    for (size_t i = 0; i < 4; i++) rb_ar_i32(ar, sides[i]);
    rb_ar_bool(ar, "enabled", 4);
    uint64_t n = rb_ar_list_begin_n(ar, "tileModes", 5, 4);
    RB_AR_LIST(ar, i, n) rb_ar_i32(ar, NULL);
    if (rb_ar_ok(ar) && n != 5) rb_ar_fail(ar, RB_E_MODEL, "tileModes must have 5 entries, not %llu", (unsigned long long)n);
}

/* Bytes of one 1-bit collision mask: rows of ceil(w/8) bytes (docs/formats/datawin.md "SPRT"). */
static uint64_t mask_bytes(int64_t w, int64_t h)
{
    if (w <= 0 || h <= 0) return 0;
    return (uint64_t)((w + 7) / 8) * (uint64_t)h;
}

typedef struct sprite_geometry { uint32_t width, height; int32_t left, right, bottom, top; } sprite_geometry;

/* u32 count, the masks, zero fill of their total to 4. */
static void masks(rb_ar *ar, const sprite_geometry *g, const sprt_variant *v)
{
    uint64_t each = v->bbox_masks ? mask_bytes((int64_t)g->right - g->left + 1, (int64_t)g->bottom - g->top + 1)
                                  : mask_bytes(g->width, g->height);
    uint64_t n;
    count_slot(ar, "maskCount", "masks", &n);
    if (!datawin_count_fits(ar, n, each, "masks")) return;
    n = rb_ar_list_begin_n(ar, "masks", n, each);
    RB_AR_LIST(ar, i, n) {
        const rb_node *mask = rb_ar_bytes(ar, NULL, RB_K_BLOB, each);
        if (mask && mask->v.bytes.size != each && rb_ar_ok(ar))
            rb_ar_fail(ar, RB_E_MODEL, "mask %llu has %zu bytes; the sprite's size needs %llu", (unsigned long long)i,
                       mask->v.bytes.size, (unsigned long long)each);
    }
    uint64_t fill = (4 - n * each % 4) % 4;
    if (fill && rb_ar_direction(ar) != RB_AR_FROM_JSON) rb_ar_expect(ar, "mask zero fill", zeros, (size_t)fill);
}

static void frames_and_masks(rb_ar *ar, datawin_state *st, const sprite_geometry *g, const sprt_variant *v)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "frames", RB_U32, 4)) datawin_tpag_ref(ar, st, NULL);
    masks(ar, g, v);
}

/* The sequence or nine-slice of a special sprite, laid out where its pointer (0 = none) says. */
static void pointed_part(rb_ar *ar, datawin_state *st, rb_slot *at, int stored, const char *key, const sprt_variant *v)
{
    static const uint8_t one[4] = {1, 0, 0, 0};
    int present = rb_ar_has(ar, key, at->value != 0);
    if (!stored) {
        if (present && rb_ar_ok(ar))
            rb_ar_fail(ar, RB_E_MODEL, "%s needs GMS2 and specialVersion %d or more", key, key[0] == 's' ? 2 : 3);
        return;
    }
    if (!present) { rb_ar_slot_set(ar, at, 0); return; }
    datawin_data_lands_here(ar, st, at, key);
    rb_ar_record_begin(ar, key);
    if (key[0] == 's') {
        /* sprites type the track kinds they had before SEQN was typed (no curves) */
        const datawin_sequence_layout layout = {v->sequence_size, 0, 0, 0};
        rb_ar_expect(ar, "sequence version", one, 4);
        datawin_sequence(ar, st, &layout);
    } else {
        nine_slice(ar);
    }
    rb_ar_record_end(ar);
}

/* Special sprites (first word -1): version, type, [GMS2: playback speed and type, [v2+: sequence
 * pointer, [v3+: nine-slice pointer]]], the type's payload, then the sequence and nine-slice. */
static void special_sprite(rb_ar *ar, datawin_state *st, const sprite_geometry *g, const sprt_variant *v)
{
    static const uint8_t minus_one[4] = {0xFF, 0xFF, 0xFF, 0xFF};
    rb_ar_expect(ar, "special sprite marker", minus_one, 4);
    uint32_t version = rb_ar_u32(ar, "specialVersion");
    uint32_t type = rb_ar_u32(ar, "spriteType");
    rb_slot sequence_at = {0}, nine_slice_at = {0};
    if (v->gms2) {
        rb_ar_f32(ar, "playbackSpeed");
        rb_ar_u32(ar, "playbackSpeedType");
        if (version >= 2) sequence_at = rb_ar_slot(ar, "sequence pointer", RB_U32);
        if (version >= 3) nine_slice_at = rb_ar_slot(ar, "nine-slice pointer", RB_U32);
    }
    if (type != 0 && rb_ar_ok(ar)) {
        rb_ar_fail(ar, RB_E_FORMAT, "sprite type %u (SWF, Spine or vector) not typed", type);
        return;
    }
    frames_and_masks(ar, st, g, v);
    pointed_part(ar, st, &sequence_at, v->gms2 && version >= 2, "sequence", v);
    pointed_part(ar, st, &nine_slice_at, v->gms2 && version >= 3, "nineSlice", v);
}

/* A field run spelled out with the archive's primitives (rb_ar_layout_fields). */
static const rb_layout_field SPRITE_FLAGS_FIELDS[] = {
    {"transparent", RB_K_BOOL, 4}, {"smooth", RB_K_BOOL, 4}, {"preload", RB_K_BOOL, 4}, {"bboxMode", RB_K_INT, RB_U32},
    {"sepMasks", RB_K_INT, RB_U32}, {"originX", RB_K_INT, RB_I32}, {"originY", RB_K_INT, RB_I32}};
static const rb_layout SPRITE_FLAGS = {"sprite flags", SPRITE_FLAGS_FIELDS, 7};

static void sprite(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    const sprt_variant *v = ctx;
    sprite_geometry g;
    datawin_strref(ar, st, "name");
    g.width = rb_ar_u32(ar, "width");
    g.height = rb_ar_u32(ar, "height");
    g.left = rb_ar_i32(ar, "marginLeft");
    g.right = rb_ar_i32(ar, "marginRight");
    g.bottom = rb_ar_i32(ar, "marginBottom");
    g.top = rb_ar_i32(ar, "marginTop");
    rb_ar_layout_fields(ar, &SPRITE_FLAGS, 0);
    uint32_t next = 0;
    int special = rb_ar_direction(ar) == RB_AR_READ && rb_ar_peek_u32(ar, &next) && next == 0xFFFFFFFFu;
    if (rb_ar_has(ar, "specialVersion", special)) special_sprite(ar, st, &g, v);
    else frames_and_masks(ar, st, &g, v);
}

static void sprt_chunk(rb_ar *ar, datawin_state *st, sprt_variant v)
{
    v.gms2 = (unsigned)rb_ar_uint_detached(ar, "gms2", RB_U8, v.gms2);
    v.bbox_masks = (unsigned)rb_ar_uint_detached(ar, "maskBboxSized", RB_U8, v.bbox_masks);
    v.sequence_size = (unsigned)rb_ar_uint_detached(ar, "sequenceHasSize", RB_U8, v.sequence_size);
    datawin_pointer_list(ar, st, "sprites", 4, sprite, &v);
}

/* 2024.6 sized masks to the bounding box and lengthened SOND entries from 36 to 40 bytes
 * (docs/formats/datawin.md "Version clues"): the stride of the first two sounds; without two
 * sounds, particles (2023.2+). */
static int likely_bbox_masks(const datawin_state *st)
{
    const datawin_chunk_span *c = datawin_find_chunk(st, "SOND");
    if (c && c->size >= 12 && datawin_le32(st->file + c->data) >= 2) {
        uint32_t first = datawin_le32(st->file + c->data + 4), second = datawin_le32(st->file + c->data + 8);
        return first && second && second - first == 40;
    }
    return datawin_find_chunk(st, "PSEM") != NULL;
}

void datawin_chunk_sprt(rb_ar *ar, datawin_state *st)
{
    sprt_variant likely = {st->major >= 2, 0, datawin_find_chunk(st, "UILR") != NULL};
    if (rb_ar_direction(ar) == RB_AR_READ) likely.bbox_masks = (unsigned)likely_bbox_masks(st);
    if (rb_ar_direction(ar) != RB_AR_READ) { sprt_chunk(ar, st, likely); return; }
    for (unsigned bits = 0; bits < 4; bits++) {
        sprt_variant v = {likely.gms2, likely.bbox_masks ^ (bits & 1), likely.sequence_size ^ (bits >> 1)};
        rb_ar_mark mark = rb_ar_mark_here(ar);
        sprt_chunk(ar, st, v);
        if (datawin_variant_fits(ar, &mark, "sprites")) return;
    }
    sprt_chunk(ar, st, likely);
    datawin_content_ends_after(ar, "sprites");
}

/* ---------- BGND ---------- */

typedef struct bgnd_variant {
    unsigned gms2;            /* GEN8 major >= 2: backgrounds are tilesets */
    unsigned tile_separation; /* 2024.14.1+ */
} bgnd_variant;

static void tile_ids(rb_ar *ar, uint64_t tiles, uint64_t per_tile)
{
    uint64_t expected = tiles * per_tile;
    uint64_t n = rb_ar_count_of(ar, "tileIds", expected);
    if (rb_ar_ok(ar) && n != expected) {
        rb_ar_fail(ar, RB_E_MODEL, "tileIds has %llu entries; tileCount x framesPerTile = %llu", (unsigned long long)n,
                   (unsigned long long)expected);
        return;
    }
    if (!datawin_count_fits(ar, n, 4, "tile ids")) return;
    n = rb_ar_list_begin_n(ar, "tileIds", n, 4);
    RB_AR_LIST(ar, i, n) rb_ar_u32(ar, NULL);
}

/* GMS2 tileset fields (docs/formats/datawin.md "BGND"). */
static void tileset(rb_ar *ar, const bgnd_variant *v)
{
    rb_ar_u32(ar, "tilesetVersion");
    rb_ar_u32(ar, "tileWidth");
    rb_ar_u32(ar, "tileHeight");
    if (v->tile_separation) {
        rb_ar_u32(ar, "tileSeparationX");
        rb_ar_u32(ar, "tileSeparationY");
    }
    rb_ar_u32(ar, "outputBorderX");
    rb_ar_u32(ar, "outputBorderY");
    rb_ar_u32(ar, "tileColumns");
    uint32_t per_tile = rb_ar_u32(ar, "framesPerTile");
    uint32_t tiles = rb_ar_u32(ar, "tileCount");
    rb_ar_i32(ar, "exportedSpriteId");
    rb_ar_sint(ar, "frameLength", RB_I64);
    tile_ids(ar, tiles, per_tile);
}

static void background(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    datawin_strref(ar, st, "name");
    rb_ar_bool(ar, "transparent", 4);
    rb_ar_bool(ar, "smooth", 4);
    rb_ar_bool(ar, "preload", 4);
    datawin_tpag_ref(ar, st, "texture");
    const bgnd_variant *v = ctx;
    if (v->gms2) tileset(ar, v);
}

/* BGND elements are aligned to 8 when every pointer is a multiple of 8 (GM:S 1.4 files are not;
 * docs/formats/datawin.md "Padding"); an empty list says nothing: 8, what GMS2 writes. */
static unsigned bgnd_read_alignment(rb_ar *ar)
{
    uint32_t count = 0, pointer = 0;
    if (!rb_ar_peek_u32(ar, &count)) return 8;
    for (uint32_t i = 0; i < count; i++) {
        if (!rb_ar_peek_u32_at(ar, 4 + 4ull * i, &pointer)) return 8;
        if (pointer % 8) return 1;
    }
    return 8;
}

static void bgnd_chunk(rb_ar *ar, datawin_state *st, bgnd_variant v, unsigned alignment)
{
    alignment = (unsigned)rb_ar_uint_detached(ar, "elementAlignment", RB_U8, alignment);
    if (rb_ar_ok(ar) && alignment != 1 && alignment != 8) {
        rb_ar_fail(ar, RB_E_MODEL, "elementAlignment must be 1 or 8, not %u", alignment);
        return;
    }
    v.gms2 = (unsigned)rb_ar_uint_detached(ar, "gms2", RB_U8, v.gms2);
    v.tile_separation = (unsigned)rb_ar_uint_detached(ar, "tileSeparation", RB_U8, v.tile_separation);
    datawin_pointer_list(ar, st, "backgrounds", alignment, background, &v);
}

void datawin_chunk_bgnd(rb_ar *ar, datawin_state *st)
{
    bgnd_variant likely = {st->major >= 2, 0};
    if (rb_ar_direction(ar) != RB_AR_READ) { bgnd_chunk(ar, st, likely, 8); return; }
    unsigned alignment = bgnd_read_alignment(ar);
    for (unsigned bits = 0; bits < (st->major >= 2 ? 2u : 1u); bits++) {
        bgnd_variant v = {likely.gms2, bits};
        rb_ar_mark mark = rb_ar_mark_here(ar);
        bgnd_chunk(ar, st, v, alignment);
        if (datawin_variant_fits(ar, &mark, "backgrounds")) return;
    }
    bgnd_chunk(ar, st, likely, alignment);
    datawin_content_ends_after(ar, "backgrounds");
}

/* ---------- FONT ---------- */

typedef struct font_variant {
    unsigned ascender_offset; /* bytecode 17+ */
    unsigned ascender;        /* 2022.2+ */
    unsigned sdf_spread;      /* 2023.2+ (not LTS) */
    unsigned line_height;     /* 2023.6+ */
    unsigned glyph_unknown;   /* 2024.11+: an i16 before the kerning count */
    unsigned record_align;    /* 2024.14+: each font ends with align 4 (and the 512-byte tail is gone) */
} font_variant;

static void glyph(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)st; (void)index;
    const font_variant *v = ctx;
    static const char *const fields[] = {"character", "sourceX", "sourceY", "sourceWidth", "sourceHeight"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) rb_ar_u16(ar, fields[i]);
    rb_ar_sint(ar, "shift", RB_I16);
    rb_ar_sint(ar, "offset", RB_I16);
    if (v->glyph_unknown) rb_ar_sint(ar, "unknown", RB_I16);
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "kerning", RB_U16, 4)) {
        rb_ar_sint(ar, "character", RB_I16);
        rb_ar_sint(ar, "shiftModifier", RB_I16);
    }
}

/* The em size is a u32, or (2.3+, bit 31 set) a negated f32: kept as stored. */
static void em_size(rb_ar *ar)
{
    uint32_t raw = 0;
    int negated_float = rb_ar_direction(ar) == RB_AR_READ && rb_ar_peek_u32(ar, &raw) && (raw & 0x80000000u);
    if (rb_ar_has(ar, "emSizeNegated", negated_float)) rb_ar_f32(ar, "emSizeNegated");
    else rb_ar_u32(ar, "emSize");
}

static const rb_layout_field FONT_STYLE_FIELDS[] = {
    {"bold", RB_K_BOOL, 4}, {"italic", RB_K_BOOL, 4}, {"rangeStart", RB_K_INT, RB_U16}, {"charset", RB_K_INT, RB_U8},
    {"antiAliasing", RB_K_INT, RB_U8}, {"rangeEnd", RB_K_INT, RB_U32}};
static const rb_layout FONT_STYLE = {"font style", FONT_STYLE_FIELDS, 6};

static void font(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    const font_variant *v = ctx;
    datawin_strref(ar, st, "name");
    datawin_strref(ar, st, "displayName");
    em_size(ar);
    rb_ar_layout_fields(ar, &FONT_STYLE, 0);
    datawin_tpag_ref(ar, st, "texture");
    rb_ar_f32(ar, "scaleX");
    rb_ar_f32(ar, "scaleY");
    if (v->ascender_offset) rb_ar_i32(ar, "ascenderOffset");
    if (v->ascender) rb_ar_u32(ar, "ascender");
    if (v->sdf_spread) rb_ar_u32(ar, "sdfSpread");
    if (v->line_height) rb_ar_u32(ar, "lineHeight");
    datawin_pointer_list(ar, st, "glyphs", 1, glyph, ctx);
    if (v->record_align) datawin_align(ar, st, 4);
}

static const char *const font_flag_keys[] = {"ascenderOffset", "ascender", "sdfSpread", "lineHeight",
                                             "glyphUnknown", "recordAlign"};

static unsigned *font_flag(font_variant *v, size_t i)
{
    unsigned *flags[] = {&v->ascender_offset, &v->ascender, &v->sdf_spread, &v->line_height, &v->glyph_unknown,
                         &v->record_align};
    return flags[i];
}

static void font_chunk(rb_ar *ar, datawin_state *st, font_variant v)
{
    rb_ar_record_begin(ar, "variant");
    for (size_t i = 0; i < 6; i++)
        *font_flag(&v, i) = (unsigned)rb_ar_uint_detached(ar, font_flag_keys[i], RB_U8, *font_flag(&v, i));
    rb_ar_record_end(ar);
    datawin_pointer_list(ar, st, "fonts", 1, font, &v);
    /* before 2024.14: 128 x u16 0..127 then 128 x u16 0x3F, kept as read
     * (docs/formats/datawin.md "Padding") */
    if (rb_ar_has(ar, "tail", rb_ar_remaining(ar) >= 512)) rb_ar_bytes(ar, "tail", RB_K_BLOB, 512);
}

/* The most likely variant from GEN8 and the chunks present
 * (docs/formats/datawin.md "Version clues"). */
static font_variant likely_font_variant(const datawin_state *st)
{
    font_variant v = {0};
    v.ascender_offset = st->bytecode >= 17;
    v.ascender = datawin_find_chunk(st, "FEAT") != NULL;
    v.sdf_spread = v.line_height = datawin_find_chunk(st, "PSEM") != NULL;
    v.record_align = 0;
    return v;
}

void datawin_chunk_font(rb_ar *ar, datawin_state *st)
{
    font_variant likely = likely_font_variant(st);
    if (rb_ar_direction(ar) != RB_AR_READ) { font_chunk(ar, st, likely); return; }
    for (unsigned bits = 0; bits < 64; bits++) {
        font_variant v = likely;
        for (size_t i = 0; i < 6; i++) *font_flag(&v, i) ^= (bits >> i) & 1;
        rb_ar_mark mark = rb_ar_mark_here(ar);
        font_chunk(ar, st, v);
        if (datawin_variant_fits(ar, &mark, "fonts")) return;
    }
    font_chunk(ar, st, likely);
    datawin_content_ends_after(ar, "fonts");
}
