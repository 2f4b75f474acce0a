/*
 * ROOM (docs/formats/datawin.md "ROOM"; layout reference UndertaleModTool UndertaleRoom.cs): a
 * PointerList of rooms. A room is a header whose pointers name its sub-lists (backgrounds, views,
 * instances, tiles, [2024.13+ instance creation order], [GMS2: layers, [2.3+: sequence ids]]), laid
 * out right after the header in that order. GMS2 layers carry type data; assets layers have their
 * own pointer lists.
 *
 * The layout changed with GameMaker versions that the file does not state plainly
 * (docs/formats/datawin.md "Version clues"). The variant is part of the model (chunk-level
 * fields, e.g. "instanceImageSpeed"): READ tries the plausible variants, most likely first, and
 * keeps the first whose description reproduces the chunk exactly (every pointer must land where
 * its target is read); WRITE follows the model.
 */
#include <string.h>
#include "core/datawin/datawin_internal.h"

/* What differs between versions (each a chunk-level model field). */
typedef struct room_variant {
    unsigned layers;            /* GMS2: rooms have layers */
    unsigned sequences;         /* 2.3+: rooms list sequence ids; assets layers list sequence instances */
    unsigned creation_order;    /* 2024.13+: rooms list instance ids in creation order */
    datawin_instance_layout instance; /* image speed (2.2.2.302+), pre-create code (bytecode >= 16) */
    unsigned layer_effects;     /* 2022.1+: every layer has effect fields (effect layers no data) */
    unsigned nine_slices;       /* 2.3.0..2.3.1: assets layers list nine-slice sprites */
    unsigned particle_systems;  /* 2023.2+ (not LTS): assets layers list particle systems */
    unsigned text_items;        /* 2024.6+: assets layers list text items */
    unsigned gm2024_14;         /* 2024.14+: particle system instance ids, longer text items */
    unsigned tiles_compressed;  /* 2024.2+: tile layer grids are run-length encoded */
    unsigned tiles_aligned;     /* 2024.4+: each encoded grid is followed by a zero fill to 4 */
} room_variant;

enum layer_type {
    LAYER_PATH = 0, LAYER_BACKGROUND = 1, LAYER_INSTANCES = 2, LAYER_ASSETS = 3,
    LAYER_TILES = 4, LAYER_EFFECT = 6, LAYER_PATH2 = 7
};

/* ---------- GM:S 1.x backgrounds and views, instances, tiles ---------- */

/* Field runs spelled out with the archive's primitives (rb_ar_layout_fields). */
static const rb_layout_field ROOM_BACKGROUND_FIELDS[] = {
    {"enabled", RB_K_BOOL, 4}, {"foreground", RB_K_BOOL, 4}, {"backgroundId", RB_K_INT, RB_I32},
    {"x", RB_K_INT, RB_I32}, {"y", RB_K_INT, RB_I32}, {"tileX", RB_K_INT, RB_I32}, {"tileY", RB_K_INT, RB_I32},
    {"speedX", RB_K_INT, RB_I32}, {"speedY", RB_K_INT, RB_I32}, {"stretch", RB_K_BOOL, 4}};
static const rb_layout ROOM_BACKGROUND = {"room background", ROOM_BACKGROUND_FIELDS, 10};

static void room_background(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)st; (void)index; (void)ctx;
    rb_ar_layout_fields(ar, &ROOM_BACKGROUND, 0);
}

static void room_view(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)st; (void)index; (void)ctx;
    static const char *const geometry[] = {"viewX", "viewY", "viewWidth", "viewHeight",
                                           "portX", "portY", "portWidth", "portHeight"};
    rb_ar_bool(ar, "enabled", 4);
    for (size_t i = 0; i < sizeof geometry / sizeof geometry[0]; i++) rb_ar_i32(ar, geometry[i]);
    rb_ar_u32(ar, "borderX");
    rb_ar_u32(ar, "borderY");
    rb_ar_i32(ar, "speedX");
    rb_ar_i32(ar, "speedY");
    rb_ar_i32(ar, "objectId");
}

/* Also the object nodes of UI layers (datawin_uilr.c): one field list for both. */
void datawin_room_instance(rb_ar *ar, const datawin_instance_layout *layout)
{
    rb_ar_i32(ar, "x");
    rb_ar_i32(ar, "y");
    rb_ar_i32(ar, "objectId");
    rb_ar_u32(ar, "instanceId");
    rb_ar_i32(ar, "creationCodeId");
    rb_ar_f32(ar, "scaleX");
    rb_ar_f32(ar, "scaleY");
    if (layout->image_speed) {
        rb_ar_f32(ar, "imageSpeed");
        rb_ar_i32(ar, "imageIndex");
    }
    rb_ar_x32(ar, "color");
    rb_ar_f32(ar, "rotation");
    if (layout->pre_create) rb_ar_i32(ar, "preCreateCodeId");
}

static void room_instance(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)st; (void)index;
    const room_variant *v = ctx;
    datawin_room_instance(ar, &v->instance);
}

/* A tile names a background in GM:S 1.x and a sprite (tileset) in GMS2 (UMT: spriteMode). */
static void room_tile(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)st; (void)index;
    const room_variant *v = ctx;
    rb_ar_i32(ar, "x");
    rb_ar_i32(ar, "y");
    rb_ar_i32(ar, v->layers ? "spriteId" : "backgroundId");
    rb_ar_i32(ar, "sourceX");
    rb_ar_i32(ar, "sourceY");
    rb_ar_u32(ar, "width");
    rb_ar_u32(ar, "height");
    rb_ar_i32(ar, "depth");
    rb_ar_u32(ar, "instanceId");
    rb_ar_f32(ar, "scaleX");
    rb_ar_f32(ar, "scaleY");
    rb_ar_x32(ar, "color");
}

/* ---------- assets layer elements ---------- */

/* Sprite, nine-slice and sequence instances share one layout, on assets layers and UI layers. */
void datawin_room_placed_asset(rb_ar *ar, datawin_state *st, const char *asset_key)
{
    datawin_strref(ar, st, "name");
    rb_ar_i32(ar, asset_key);
    rb_ar_i32(ar, "x");
    rb_ar_i32(ar, "y");
    rb_ar_f32(ar, "scaleX");
    rb_ar_f32(ar, "scaleY");
    rb_ar_x32(ar, "color");
    rb_ar_f32(ar, "animationSpeed");
    rb_ar_u32(ar, "animationSpeedType");
    rb_ar_f32(ar, "frameIndex");
    rb_ar_f32(ar, "rotation");
}

static void sprite_instance(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    datawin_room_placed_asset(ar, st, "spriteId");
}

static void sequence_instance(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    datawin_room_placed_asset(ar, st, "sequenceId");
}

static void particle_system_instance(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    const room_variant *v = ctx;
    datawin_strref(ar, st, "name");
    if (v->gm2024_14) rb_ar_i32(ar, "instanceId");
    rb_ar_i32(ar, "particleSystemId");
    rb_ar_i32(ar, "x");
    rb_ar_i32(ar, "y");
    rb_ar_f32(ar, "scaleX");
    rb_ar_f32(ar, "scaleY");
    rb_ar_x32(ar, "color");
    rb_ar_f32(ar, "rotation");
}

/* Also the text item nodes of UI layers (datawin_uilr.c). */
void datawin_room_text_item(rb_ar *ar, datawin_state *st, unsigned gm2024_14)
{
    datawin_strref(ar, st, "name");
    rb_ar_i32(ar, "x");
    rb_ar_i32(ar, "y");
    rb_ar_i32(ar, "fontId");
    rb_ar_f32(ar, "scaleX");
    rb_ar_f32(ar, "scaleY");
    rb_ar_f32(ar, "rotation");
    rb_ar_x32(ar, "color");
    rb_ar_f32(ar, "originX");
    rb_ar_f32(ar, "originY");
    datawin_strref(ar, st, "text");
    rb_ar_i32(ar, "alignment");
    rb_ar_f32(ar, "charSpacing");
    rb_ar_f32(ar, "lineSpacing");
    if (gm2024_14) rb_ar_f32(ar, "paragraphSpacing");
    rb_ar_f32(ar, "frameWidth");
    rb_ar_f32(ar, "frameHeight");
    rb_ar_bool(ar, "wrap", 4);
    if (gm2024_14) {
        rb_ar_i32(ar, "wrapMode");
        rb_ar_i32(ar, "origin");
    }
}

static void text_item_instance(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    const room_variant *v = ctx;
    datawin_room_text_item(ar, st, v->gm2024_14);
}

/* ---------- layer type data ---------- */

static const rb_layout_field BACKGROUND_LAYER_FIELDS[] = {
    {"backgroundVisible", RB_K_BOOL, 4}, {"foreground", RB_K_BOOL, 4}, {"spriteId", RB_K_INT, RB_I32},
    {"tiledHorizontally", RB_K_BOOL, 4}, {"tiledVertically", RB_K_BOOL, 4}, {"stretch", RB_K_BOOL, 4},
    {"color", RB_K_INT, RB_X32}, {"firstFrame", RB_K_FLOAT, 4}, {"animationSpeed", RB_K_FLOAT, 4},
    {"animationSpeedType", RB_K_INT, RB_U32}};
static const rb_layout BACKGROUND_LAYER = {"background layer", BACKGROUND_LAYER_FIELDS, 10};

static void background_layer(rb_ar *ar) { rb_ar_layout_fields(ar, &BACKGROUND_LAYER, 0); }

/* Uncompressed grid (before 2024.2): tilesX × tilesY cells, row by row. */
static void tile_grid(rb_ar *ar, uint64_t cells)
{
    if (!datawin_count_fits(ar, cells, 4, "tiles")) return;
    uint64_t n = rb_ar_list_begin_n(ar, "tileData", cells, 4);
    if (rb_ar_ok(ar) && n != cells)
        rb_ar_fail(ar, RB_E_MODEL, "tileData has %llu cells, but tilesX × tilesY = %llu", (unsigned long long)n,
                   (unsigned long long)cells);
    RB_AR_LIST(ar, i, n) rb_ar_u32(ar, NULL);
}

/* A repeat run: one byte 0x80 | (repeat - 1), then the tile; the model keeps the repeat count. */
static uint64_t repeat_run(rb_ar *ar)
{
    rb_ar_dir dir = rb_ar_direction(ar);
    const uint8_t *code = dir == RB_AR_READ ? rb_ar_take(ar, "repeat", 1) : NULL;
    uint64_t repeat = rb_ar_uint_detached(ar, "repeat", RB_U8, code ? (uint64_t)(code[0] & 0x7f) + 1 : 0);
    if (rb_ar_ok(ar) && (repeat < 1 || repeat > 128))
        rb_ar_fail(ar, RB_E_MODEL, "a tile run repeats 1 to 128 times, not %llu", (unsigned long long)repeat);
    if (dir == RB_AR_WRITE && rb_ar_ok(ar)) rb_ar_emit_uint(ar, 0x7f + repeat, RB_U8);
    rb_ar_u32(ar, "tile");
    return repeat;
}

/* A verbatim run: one byte (its length, below 128), then the tiles. */
static uint64_t verbatim_run(rb_ar *ar)
{
    uint64_t n = rb_ar_list_begin(ar, "tiles", RB_U8, 4);
    if (rb_ar_ok(ar) && n > 127) rb_ar_fail(ar, RB_E_MODEL, "a verbatim tile run holds at most 127 tiles, not %llu",
                                            (unsigned long long)n);
    RB_AR_LIST(ar, i, n) rb_ar_u32(ar, NULL);
    return n;
}

/* 2024.2+ run-length encoded grid (UMT LayerTilesData, GameMaker's encoder): the runs are the
 * model, so the bytes come back exactly. GameMaker only writes a verbatim run when a repeat run
 * follows, and encodes two -1 cells past the grid's end: the runs end with the first repeat run
 * that reaches the end of the grid (after a verbatim run ending the grid, a repeat of -1 follows). */
static void tile_runs(rb_ar *ar, uint64_t cells)
{
    rb_ar_dir dir = rb_ar_direction(ar);
    uint64_t covered = 0;
    int after_repeat = 1;
    rb_ar_list_begin_open(ar, "tileRuns");
    while (rb_ar_ok(ar) && rb_ar_list_has_more(ar)) {
        if (covered >= cells && after_repeat) {
            if (dir != RB_AR_READ)
                rb_ar_fail(ar, RB_E_MODEL, "tileRuns go on after covering the %llu cells with a repeat run",
                           (unsigned long long)cells);
            break;
        }
        const uint8_t *code = dir == RB_AR_READ ? rb_ar_peek_bytes(ar, 1) : NULL;
        if (dir == RB_AR_READ && !code) {
            rb_ar_fail(ar, RB_E_FORMAT, "tile runs cover %llu of %llu cells", (unsigned long long)covered,
                       (unsigned long long)cells);
            break;
        }
        rb_ar_record_begin(ar, NULL);
        after_repeat = rb_ar_has(ar, "repeat", code && code[0] >= 0x80);
        covered += after_repeat ? repeat_run(ar) : verbatim_run(ar);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
    if (rb_ar_ok(ar) && (covered < cells || !after_repeat))
        rb_ar_fail(ar, RB_E_MODEL, "tileRuns cover %llu of %llu cells and must end with a repeat run",
                   (unsigned long long)covered, (unsigned long long)cells);
}

static void tiles_layer(rb_ar *ar, datawin_state *st, const room_variant *v)
{
    rb_ar_i32(ar, "backgroundId");
    uint64_t columns = rb_ar_u32(ar, "tilesX");
    uint64_t rows = rb_ar_u32(ar, "tilesY");
    if (!v->tiles_compressed) {
        tile_grid(ar, columns * rows);
        return;
    }
    tile_runs(ar, columns * rows);
    if (v->tiles_aligned) datawin_align(ar, st, 4);
}

/* A room layer lists its effect properties as records of a SimpleList, a UI effect layer as a
 * PointerList (datawin_uilr.c): the fields are the same. */
void datawin_room_effect_property(rb_ar *ar, datawin_state *st)
{
    rb_ar_i32(ar, "kind");
    datawin_strref(ar, st, "name");
    datawin_strref(ar, st, "value");
}

/* Effect type and properties: in every layer since 2022.1, in effect layers' data before. */
static void effect_fields(rb_ar *ar, datawin_state *st)
{
    datawin_strref(ar, st, "effectType");
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "effectProperties", RB_U32, 12)) datawin_room_effect_property(ar, st);
}

/* Which pointer lists an assets layer has, in file order. */
typedef struct asset_list { const char *key; datawin_element_fn element; } asset_list;

static size_t asset_lists(const room_variant *v, asset_list *out)
{
    size_t n = 0;
    out[n++] = (asset_list){"legacyTiles", room_tile};
    out[n++] = (asset_list){"sprites", sprite_instance};
    if (!v->sequences) return n;
    out[n++] = (asset_list){"sequences", sequence_instance};
    if (v->nine_slices) out[n++] = (asset_list){"nineSlices", sprite_instance};
    if (v->particle_systems) out[n++] = (asset_list){"particleSystems", particle_system_instance};
    if (v->text_items) out[n++] = (asset_list){"textItems", text_item_instance};
    return n;
}

static void assets_layer(rb_ar *ar, datawin_state *st, room_variant *v)
{
    asset_list lists[6];
    rb_slot pointers[6];
    size_t n = asset_lists(v, lists);
    for (size_t i = 0; i < n; i++) pointers[i] = rb_ar_slot(ar, lists[i].key, RB_U32);
    RB_AR_EACH(ar, i, n) {
        datawin_data_lands_here(ar, st, &pointers[i], lists[i].key);
        datawin_pointer_list(ar, st, lists[i].key, 1, lists[i].element, v);
    }
}

static void layer_data(rb_ar *ar, datawin_state *st, room_variant *v, uint32_t type)
{
    switch (type) {
    case LAYER_PATH: case LAYER_PATH2: break;
    case LAYER_BACKGROUND: background_layer(ar); break;
    case LAYER_INSTANCES: datawin_id_list(ar, "instanceIds", RB_U32); break;
    case LAYER_ASSETS: assets_layer(ar, st, v); break;
    case LAYER_TILES: tiles_layer(ar, st, v); break;
    case LAYER_EFFECT: if (!v->layer_effects) effect_fields(ar, st); break;
    default: rb_ar_fail(ar, RB_E_FORMAT, "layer type %u is not known", type);
    }
}

static void room_layer(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    room_variant *v = ctx;
    datawin_strref(ar, st, "name");
    rb_ar_u32(ar, "id");
    uint32_t type = rb_ar_u32(ar, "type");
    rb_ar_i32(ar, "depth");
    rb_ar_f32(ar, "xOffset");
    rb_ar_f32(ar, "yOffset");
    rb_ar_f32(ar, "hSpeed");
    rb_ar_f32(ar, "vSpeed");
    rb_ar_bool(ar, "visible", 4);
    if (v->layer_effects) {
        rb_ar_bool(ar, "effectEnabled", 4);
        effect_fields(ar, st);
    }
    layer_data(ar, st, v, type);
}

/* ---------- the room ---------- */

enum { LIST_BACKGROUNDS, LIST_VIEWS, LIST_INSTANCES, LIST_TILES, LIST_CREATION_ORDER, LIST_LAYERS,
       LIST_SEQUENCES, LIST_COUNT };

static void room_lists(rb_ar *ar, datawin_state *st, room_variant *v, rb_slot *at)
{
    datawin_data_lands_here(ar, st, &at[LIST_BACKGROUNDS], "backgrounds");
    datawin_pointer_list(ar, st, "backgrounds", 1, room_background, v);
    datawin_data_lands_here(ar, st, &at[LIST_VIEWS], "views");
    datawin_pointer_list(ar, st, "views", 1, room_view, v);
    datawin_data_lands_here(ar, st, &at[LIST_INSTANCES], "instances");
    datawin_pointer_list(ar, st, "instances", 1, room_instance, v);
    datawin_data_lands_here(ar, st, &at[LIST_TILES], "tiles");
    datawin_pointer_list(ar, st, "tiles", 1, room_tile, v);
    if (v->creation_order) {
        datawin_data_lands_here(ar, st, &at[LIST_CREATION_ORDER], "creationOrder");
        datawin_id_list(ar, "creationOrder", RB_U32);
    }
    if (!v->layers) return;
    datawin_data_lands_here(ar, st, &at[LIST_LAYERS], "layers");
    datawin_pointer_list(ar, st, "layers", 1, room_layer, v);
    if (!v->sequences) return;
    datawin_data_lands_here(ar, st, &at[LIST_SEQUENCES], "sequences");
    datawin_id_list(ar, "sequences", RB_I32);
}

static void room(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    room_variant *v = ctx;
    rb_slot at[LIST_COUNT];
    memset(at, 0, sizeof at);
    datawin_strref(ar, st, "name");
    datawin_strref(ar, st, "caption");
    rb_ar_u32(ar, "width");
    rb_ar_u32(ar, "height");
    rb_ar_u32(ar, "speed");
    rb_ar_bool(ar, "persistent", 4);
    rb_ar_x32(ar, "backgroundColor"); /* stored without alpha: kept as stored */
    rb_ar_bool(ar, "drawBackgroundColor", 4);
    rb_ar_i32(ar, "creationCodeId");
    rb_ar_x32(ar, "flags");
    at[LIST_BACKGROUNDS] = rb_ar_slot(ar, "backgrounds", RB_U32);
    at[LIST_VIEWS] = rb_ar_slot(ar, "views", RB_U32);
    at[LIST_INSTANCES] = rb_ar_slot(ar, "instances", RB_U32);
    at[LIST_TILES] = rb_ar_slot(ar, "tiles", RB_U32);
    if (v->creation_order) at[LIST_CREATION_ORDER] = rb_ar_slot(ar, "creationOrder", RB_U32);
    rb_ar_bool(ar, "world", 4);
    rb_ar_u32(ar, "top");
    rb_ar_u32(ar, "left");
    rb_ar_u32(ar, "right");
    rb_ar_u32(ar, "bottom");
    rb_ar_f32(ar, "gravityX");
    rb_ar_f32(ar, "gravityY");
    rb_ar_f32(ar, "metersPerPixel");
    if (v->layers) at[LIST_LAYERS] = rb_ar_slot(ar, "layers", RB_U32);
    if (v->layers && v->sequences) at[LIST_SEQUENCES] = rb_ar_slot(ar, "sequences", RB_U32);
    room_lists(ar, st, v, at);
}

/* ---------- the variant ---------- */

static unsigned variant_flag(rb_ar *ar, const char *key, unsigned read_value)
{
    unsigned value = (unsigned)rb_ar_uint_detached(ar, key, RB_U8, read_value);
    if (rb_ar_ok(ar) && value > 1) rb_ar_fail(ar, RB_E_MODEL, "%s must be 0 or 1, not %u", key, value);
    return value;
}

static void variant_fields(rb_ar *ar, room_variant *v)
{
    v->layers = variant_flag(ar, "roomLayers", v->layers);
    v->sequences = variant_flag(ar, "roomSequences", v->sequences);
    v->creation_order = variant_flag(ar, "roomCreationOrder", v->creation_order);
    v->instance.image_speed = variant_flag(ar, "instanceImageSpeed", v->instance.image_speed);
    v->instance.pre_create = variant_flag(ar, "instancePreCreate", v->instance.pre_create);
    v->layer_effects = variant_flag(ar, "layerEffects", v->layer_effects);
    v->nine_slices = variant_flag(ar, "assetNineSlices", v->nine_slices);
    v->particle_systems = variant_flag(ar, "assetParticleSystems", v->particle_systems);
    v->text_items = variant_flag(ar, "assetTextItems", v->text_items);
    v->gm2024_14 = variant_flag(ar, "gm2024_14", v->gm2024_14);
    v->tiles_compressed = variant_flag(ar, "tilesCompressed", v->tiles_compressed);
    v->tiles_aligned = variant_flag(ar, "tilesAligned", v->tiles_aligned);
}

static void room_chunk(rb_ar *ar, datawin_state *st, room_variant v)
{
    variant_fields(ar, &v);
    datawin_pointer_list(ar, st, "rooms", 1, room, &v);
}

/* READ: the header words of the first room (its first sub-list follows the header), or 0. */
static unsigned first_header_words(rb_ar *ar, const datawin_state *st)
{
    uint32_t count = 0, room_at = 0, lists_at = 0;
    if (!rb_ar_peek_u32(ar, &count)) return 0;
    for (uint32_t i = 0; i < count && i < rb_ar_remaining(ar) / 4 && !room_at; i++)
        if (!rb_ar_peek_u32_at(ar, 4 + 4ull * i, &room_at)) return 0;
    uint64_t base = datawin_abs(ar, st);
    if (room_at < base || room_at - base + 44 > rb_ar_remaining(ar)) return 0;
    if (!rb_ar_peek_u32_at(ar, room_at - base + 40, &lists_at) || lists_at < room_at) return 0;
    return (lists_at - room_at) % 4 ? 0 : (lists_at - room_at) / 4;
}

/* A null entry in a pointer-list chunk: GMAC unused-asset removal, 2024.11+
 * (docs/formats/datawin.md "Lists"). */
static int chunk_list_has_null(const datawin_state *st, const char *id)
{
    const datawin_chunk_span *c = datawin_find_chunk(st, id);
    if (!c || c->size < 4) return 0;
    uint32_t n = datawin_le32(st->file + c->data);
    for (uint32_t i = 0; i < n && i < (c->size - 4) / 4; i++)
        if (!datawin_le32(st->file + c->data + 4 + 4ull * i)) return 1;
    return 0;
}

/* Evidence of 2024.6+ (assets layers list text items): SOND entries grew from 36 to 40 bytes
 * in 2024.6, and 2024.11 leaves null entries in pointer lists (docs/formats/datawin.md
 * "Version clues"). */
static int evidence_of_2024_6(const datawin_state *st)
{
    const datawin_chunk_span *c = datawin_find_chunk(st, "SOND");
    if (c && c->size >= 12 && datawin_le32(st->file + c->data) >= 2 &&
        datawin_le32(st->file + c->data + 8) - datawin_le32(st->file + c->data + 4) == 40)
        return 1;
    static const char *const lists[] = {"SOND", "AGRP", "SPRT", "BGND", "SCPT", "SHDR", "FONT", "OBJT", "ROOM"};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        if (chunk_list_has_null(st, lists[i])) return 1;
    return 0;
}

/* The most likely variant from GEN8 and the chunks present ("Version clues"), then the first room's
 * header size (22 words in GM:S 1.x, +layers, +sequences, +creation order). */
static room_variant likely_variant(rb_ar *ar, const datawin_state *st)
{
    room_variant v;
    memset(&v, 0, sizeof v);
    v.layers = st->major >= 2;
    v.sequences = datawin_find_chunk(st, "SEQN") != NULL;
    v.creation_order = datawin_find_chunk(st, "UILR") != NULL;
    switch (first_header_words(ar, st)) {
    case 22: v.layers = v.sequences = v.creation_order = 0; break;
    case 23: v.layers = 1; v.sequences = v.creation_order = 0; break;
    case 24: v.layers = v.sequences = 1; v.creation_order = 0; break;
    case 25: v.layers = v.sequences = v.creation_order = 1; break;
    }
    v.instance.pre_create = st->bytecode >= 16;
    v.instance.image_speed = v.layers && st->bytecode >= 17;
    v.layer_effects = v.sequences && datawin_find_chunk(st, "FEAT") != NULL;
    v.particle_systems = datawin_find_chunk(st, "PSEM") != NULL;
    v.text_items = v.sequences && evidence_of_2024_6(st);
    v.tiles_compressed = v.tiles_aligned = v.text_items || v.creation_order;
    return v;
}

/* The layout choices that the bytes decide, tried in turn (bit i flips choice i). */
static room_variant flipped(room_variant v, unsigned bits)
{
    if (bits & 1) v.instance.image_speed ^= 1;
    if (bits & 2) v.layer_effects ^= 1;
    if (bits & 4) v.text_items ^= 1;
    if (bits & 8) v.nine_slices ^= 1;
    if (bits & 16) v.gm2024_14 ^= 1;
    if (bits & 32) v.tiles_compressed ^= 1;
    if (bits & 64) v.tiles_aligned ^= 1;
    return v;
}

static int plausible(const room_variant *v)
{
    if (!v->sequences && (v->nine_slices || v->particle_systems || v->text_items || v->layer_effects)) return 0;
    if (v->tiles_aligned && !v->tiles_compressed) return 0;
    if (v->tiles_compressed && !v->layer_effects) return 0;
    return v->layers || !v->instance.image_speed;
}

/* READ: keep the first variant that reproduces the chunk; when none does, the error is the
 * most likely variant's (the chunk is then kept opaque with that reason). */
static void read_room_chunk(rb_ar *ar, datawin_state *st)
{
    room_variant likely = likely_variant(ar, st);
    for (unsigned bits = 0; bits < 128; bits++) {
        room_variant v = flipped(likely, bits);
        if (!plausible(&v)) continue;
        rb_ar_mark mark = rb_ar_mark_here(ar);
        room_chunk(ar, st, v);
        if (datawin_variant_fits(ar, &mark, "rooms")) return;
    }
    room_chunk(ar, st, likely);
    datawin_content_ends_after(ar, "rooms");
}

void datawin_chunk_room(rb_ar *ar, datawin_state *st)
{
    if (rb_ar_direction(ar) == RB_AR_READ) read_room_chunk(ar, st);
    else room_chunk(ar, st, (room_variant){0});
}
