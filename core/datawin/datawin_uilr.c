/*
 * UILR (GameMaker 2024.13+, docs/formats/datawin.md "UILR"; layout reference UndertaleModTool
 * UndertaleUINode.cs): the UI layers, a PointerList of root nodes. Every node is
 *
 *   i32 type, u32 pointer to its data, PointerList<node> children (containers; others a u32 0),
 *   then its data, which the pointer names.
 *
 * so a container's whole subtree is laid out between its child pointers and its own data. Containers
 * are UI layers (0) and flex panels (1); the other nodes are the room elements placed on a UI layer:
 * object instances (3), sequences (4), sprites (5), text items (6), and effect layers (7). Elements
 * carry their room description (datawin_room.c; instances at 2024.13+: image speed and index, pre-create
 * code) followed by their flex placement. Text items changed in 2024.14, which the file does not
 * name: the layout is a chunk-level model field ("textItemLayoutSince") that READ decides by trying both.
 */
#include "core/datawin/datawin_internal.h"

enum ui_node_type {
    UI_LAYER = 0, UI_FLEX_PANEL = 1, UI_OBJECT = 3, UI_SEQUENCE = 4, UI_SPRITE = 5, UI_TEXT_ITEM = 6,
    UI_EFFECT_LAYER = 7
};

static const unsigned text_layouts[] = {202414, 202413};

static void flags4(rb_ar *ar, const char *const *keys, size_t n)
{
    RB_AR_EACH(ar, i, n) rb_ar_bool(ar, keys[i], 4);
}

/* A flex value: f32 amount and its unit (0 undefined, 1 points, 2 percent, 3 auto). */
static void flex_value(rb_ar *ar, const char *key)
{
    rb_ar_record_begin(ar, key);
    rb_ar_f32(ar, "value");
    rb_ar_i32(ar, "unit");
    rb_ar_record_end(ar);
}

static void flex_values(rb_ar *ar, const char *const *keys, size_t n)
{
    RB_AR_EACH(ar, i, n) flex_value(ar, keys[i]);
}

/* How a container lays out its children (CSS flexbox names), the last fields of both containers. */
static void flex_container(rb_ar *ar)
{
    static const char *const padding[] = {"paddingLeft", "paddingRight", "paddingTop", "paddingBottom"};
    rb_ar_i32(ar, "alignItems");
    rb_ar_i32(ar, "flexDirection");
    rb_ar_i32(ar, "flexWrap");
    rb_ar_i32(ar, "alignContent");
    rb_ar_f32(ar, "gapRow");
    rb_ar_f32(ar, "gapColumn");
    flex_values(ar, padding, 4);
    rb_ar_i32(ar, "justifyContent");
    rb_ar_i32(ar, "layoutDirection");
}

static void ui_layer(rb_ar *ar, datawin_state *st)
{
    datawin_strref(ar, st, "name");
    rb_ar_i32(ar, "drawSpace");
    rb_ar_bool(ar, "visible", 4);
    flex_container(ar);
}

static void flex_panel(rb_ar *ar, datawin_state *st)
{
    static const char *const box[] = {"width", "height", "minWidth", "minHeight", "maxWidth", "maxHeight",
                                      "offsetLeft", "offsetRight", "offsetTop", "offsetBottom"};
    static const char *const margin[] = {"marginLeft", "marginRight", "marginTop", "marginBottom"};
    datawin_strref(ar, st, "name");
    flex_values(ar, box, 10);
    rb_ar_bool(ar, "clipsContents", 4);
    rb_ar_i32(ar, "positionType");
    rb_ar_i32(ar, "alignSelf");
    flex_values(ar, margin, 4);
    rb_ar_f32(ar, "flexGrow");
    rb_ar_f32(ar, "flexShrink");
    flex_container(ar);
}

/* How an element sits in its container, after the element's own fields. */
static void flex_placement(rb_ar *ar)
{
    static const char *const stretch[] = {"stretchWidth", "stretchHeight", "tileH", "tileV", "keepAspect"};
    rb_ar_bool(ar, "visible", 4);
    rb_ar_i32(ar, "anchor");
    flags4(ar, stretch, 5);
}

static void effect_property(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    datawin_room_effect_property(ar, st);
}

/* Unlike a room layer's SimpleList, a UI effect layer's properties are a PointerList. */
static void effect_layer(rb_ar *ar, datawin_state *st)
{
    rb_ar_bool(ar, "enabled", 4);
    datawin_strref(ar, st, "effectType");
    datawin_pointer_list(ar, st, "properties", 1, effect_property, NULL);
}

/* The data the node's pointer names; `type` is already known to be one of enum ui_node_type.
 * The elements are the room's (datawin_room.c), as a 2024.13+ room writes them, then their placement. */
static void node_data(rb_ar *ar, datawin_state *st, int32_t type, unsigned text_since)
{
    static const datawin_instance_layout instance_2024_13 = {.image_speed = 1, .pre_create = 1};
    switch (type) {
    case UI_LAYER: ui_layer(ar, st); break;
    case UI_FLEX_PANEL: flex_panel(ar, st); break;
    case UI_OBJECT: datawin_room_instance(ar, &instance_2024_13); flex_placement(ar); break;
    case UI_SEQUENCE: datawin_room_placed_asset(ar, st, "sequenceId"); flex_placement(ar); break;
    case UI_SPRITE: datawin_room_placed_asset(ar, st, "spriteId"); flex_placement(ar); break;
    case UI_TEXT_ITEM: datawin_room_text_item(ar, st, text_since >= 202414); flex_placement(ar); break;
    default: effect_layer(ar, st); break;
    }
}

static int known_type(int32_t type)
{
    return type == UI_LAYER || type == UI_FLEX_PANEL || (type >= UI_OBJECT && type <= UI_EFFECT_LAYER);
}

static void ui_node(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    const unsigned *text_since = ctx; /* 202413 or 202414 (text items' layout) */
    static const uint8_t no_children[4] = {0};
    int32_t type = rb_ar_i32(ar, "type");
    if (!rb_ar_ok(ar)) return;
    if (!known_type(type)) {
        rb_ar_fail(ar, rb_ar_direction(ar) == RB_AR_READ ? RB_E_FORMAT : RB_E_MODEL,
                   "type %d is not a known UI node type", type);
        return;
    }
    rb_slot data = rb_ar_slot(ar, "data pointer", RB_U32);
    if (type == UI_LAYER || type == UI_FLEX_PANEL) {
        /* recursion: the archive's nesting limit (max_depth) bounds it on hostile input */
        datawin_pointer_list(ar, st, "children", 1, ui_node, ctx);
    } else {
        rb_ar_expect(ar, "empty child list", no_children, sizeof no_children);
    }
    datawin_data_lands_here(ar, st, &data, "node data");
    node_data(ar, st, type, *text_since);
}

static void uilr_chunk(rb_ar *ar, datawin_state *st, unsigned text_since)
{
    text_since = datawin_layout_field(ar, "textItemLayoutSince", text_since, text_layouts, 2);
    datawin_pointer_list(ar, st, "nodes", 1, ui_node, &text_since);
}

/* Newest first; without text items both layouts read the same and the newest is kept. */
void datawin_chunk_uilr(rb_ar *ar, datawin_state *st)
{
    datawin_try_variants(ar, st, uilr_chunk, text_layouts, 2);
}
