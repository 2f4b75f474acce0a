/*
 * A GBX file seen from above (core/model/plan.h, docs/render.md): a map's blocks on their grid
 * by kind, its free blocks and items at their positions; the path of each ghost with its
 * checkpoint times; a replay's map and ghosts together.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "core/model/plan.h"
#include "core/gbx/gbx_assets.h"
#include "core/gbx/engine/gbx_internal.h"
#include "core/gbx/map/environments.h"
#include "core/gbx/map/map_header.h"
#include "core/gbx/gbx.h"

enum { FLAG_FREE = 0x20000000, FLAGS_MARKER = 0xFFFFFFFFu };
enum { CLASS_MAP = 0x03043000, CLASS_GHOST = 0x03092000, CLASS_REPLAY = 0x03093000 };

static uint32_t class_of(const rb_node *record)
{
    const rb_node *id = rb_node_get(record, "classId");
    return id && id->kind == RB_K_INT ? gbx_remap_id((uint32_t)rb_node_uint(id)) & 0xFFFFF000u : 0;
}

/* Does `text` (n bytes) hold `word`? */
static int holds(const uint8_t *text, size_t n, const char *word)
{
    size_t k = strlen(word);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(text + i, word, k)) return 1;
    return 0;
}

/* Does text[0..n) end with `word`? */
static int ends_with(const uint8_t *text, size_t n, const char *word)
{
    size_t k = strlen(word);
    return n >= k && !memcmp(text + n - k, word, k);
}

/* The kind a waypoint tag names, or RB_PLAN_KINDS for none. */
static rb_plan_kind waypoint_kind(const rb_node *waypoint)
{
    size_t n;
    const uint8_t *tag = gbx_waypoint_tag(waypoint, &n);
    if (!tag) return RB_PLAN_KINDS;
    if (holds(tag, n, "StartFinish")) return RB_PLAN_MULTILAP;
    if (holds(tag, n, "Spawn")) return RB_PLAN_START;
    if (holds(tag, n, "Goal") || holds(tag, n, "Finish")) return RB_PLAN_FINISH;
    if (holds(tag, n, "Checkpoint")) return RB_PLAN_CHECKPOINT;
    return RB_PLAN_KINDS;
}

/* Is the name a start line: "...Start" or "...StartLine" (a trailing "Mirror" aside), but not
 * the start of a slope, a loop or a ring ("RoadTechSlopeStart2x1", "PlatformTechLoopStart")? */
static int names_start(const uint8_t *name, size_t n)
{
    if (ends_with(name, n, "Mirror")) n -= 6;
    if (ends_with(name, n, "StartLine")) return 1;
    if (!ends_with(name, n, "Start")) return 0;
    n -= 5;
    static const char *const PIECES[] = {"Slope", "Slope2", "Loop", "LoopOut", "Ring"};
    for (size_t i = 0; i < sizeof PIECES / sizeof PIECES[0]; i++)
        if (ends_with(name, n, PIECES[i])) return 0;
    return 1;
}

/* Scenery, terrain and supports, by the words of the games' block names. */
static int names_decoration(const uint8_t *name, size_t n)
{
    if (n >= 4 && !memcmp(name, "Deco", 4)) return 1;
    if (holds(name, n, "Road") || holds(name, n, "Platform") || holds(name, n, "Circuit")) return 0;
    static const char *const SCENERY[] = {"Grass", "Dirt", "Hill", "Cliff", "Forest", "Lake", "Tree", "Beach", "Sea",
                                          "Land", "Water", "Pool", "Pillar", "Base", "Rock", "Terrain", "Tundra",
                                          "Field", "Ice", "Sand", "Support", "Desert", "Snow"};
    for (size_t i = 0; i < sizeof SCENERY / sizeof SCENERY[0]; i++)
        if (holds(name, n, SCENERY[i])) return 1;
    return 0;
}

/* A block's kind: its waypoint's tag when it has one (ManiaPlanet, TM2020), else its name. */
static rb_plan_kind block_kind(const rb_node *block, const uint8_t *name, size_t n)
{
    rb_plan_kind kind = waypoint_kind(rb_node_get(block, "waypointSpecialProperty"));
    if (kind != RB_PLAN_KINDS) return kind;
    if (holds(name, n, "Checkpoint") || holds(name, n, "CheckPoint")) return RB_PLAN_CHECKPOINT;
    if (holds(name, n, "Multilap") || holds(name, n, "MultiLap") || holds(name, n, "StartFinish"))
        return RB_PLAN_MULTILAP;
    if (names_start(name, n)) return RB_PLAN_START;
    if (ends_with(name, n, "Finish") || ends_with(name, n, "FinishLine") || ends_with(name, n, "FinishMirror"))
        return RB_PLAN_FINISH;
    return names_decoration(name, n) ? RB_PLAN_DECORATION : RB_PLAN_ROAD;
}

/* Number `index` of a list or table of numbers (f32 in a table: GBX vectors). */
static double number_at(const rb_node *list, size_t index)
{
    if (list && list->kind == RB_K_LIST) {
        const rb_node *n = rb_list_element(list, index);
        return n && n->kind == RB_K_FLOAT ? rb_node_float(n) : (double)rb_node_int(n);
    }
    if (!list || list->kind != RB_K_TABLE) return NAN;
    uint64_t bits = rb_element_uint(list, index, NULL);
    if (list->table->layout->fields[0].kind != RB_K_FLOAT) return (double)(int32_t)(uint32_t)bits;
    uint32_t b32 = (uint32_t)bits;
    float f;
    memcpy(&f, &b32, sizeof f);
    return f;
}

/* The chunk of body `chunks` whose current id has low bits `low`, and its index. */
static const rb_node *map_chunk(const rb_node *chunks, uint32_t low, size_t *index)
{
    for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
        const rb_node *c = chunks->v.kids.items[i];
        uint32_t id = gbx_remap_id((uint32_t)rb_node_uint(rb_node_get(c, "id")));
        if ((id & 0xFFFFF000u) == CLASS_MAP && (id & 0xFFF) == low && !rb_node_get(c, "data")) {
            *index = i;
            return c;
        }
    }
    return NULL;
}

typedef struct map_frame {
    rb_plan *plan;
    const char *prefix; /* JSON pointer of the map's file record */
    float y_origin;     /* cells below the world's zero (TM2020 grounds its grid at 8) */
} map_frame;

/* The TM 1.0 block node's data (chunk 002): its model's name and its coordinates. */
static const rb_node *block_data(const rb_node *block)
{
    if (rb_node_get(block, "coord")) return block;
    const rb_node *chunks = rb_node_get(block, "chunks");
    for (size_t i = 0; chunks && chunks->kind == RB_K_LIST && i < chunks->v.kids.count; i++)
        if (rb_node_get(chunks->v.kids.items[i], "coord")) return chunks->v.kids.items[i];
    return NULL;
}

static const uint8_t *id_text(const rb_node *id, size_t *n)
{
    if (id && id->kind == RB_K_RECORD) id = rb_node_get(id, "id"); /* a TM 1.0 block model: ident */
    const uint8_t *text = rb_node_bytes(id, n);
    if (!text) *n = 0;
    return text ? text : (const uint8_t *)"";
}

static void map_blocks(map_frame *f, const rb_node *chunks, const rb_node *data, size_t data_index)
{
    const rb_node *list = rb_node_get(data, "blocks");
    size_t free_index;
    const rb_node *free_chunk = map_chunk(chunks, 0x05F, &free_index);
    const rb_node *positions = rb_node_get(free_chunk, "freeBlocks");
    char pointer[600];
    snprintf(pointer, sizeof pointer, "%s/body/chunks/%zu/blocks", f->prefix, data_index);
    size_t free_rank = 0, count = rb_element_count(list);
    uint32_t list_id = rb_plan_list(f->plan, pointer, count);
    for (size_t i = 0; list && list->kind == RB_K_LIST && i < count; i++) {
        const rb_node *block = rb_list_element(list, i), *d = block_data(block);
        uint32_t flags = (uint32_t)rb_node_uint(rb_node_get(d, "flags"));
        if (!d || flags == FLAGS_MARKER) { f->plan->skipped_blocks++; continue; }
        size_t n;
        const uint8_t *name = id_text(rb_node_get(d, d == block ? "name" : "blockModel"), &n);
        const rb_node *coord = rb_node_get(d, "coord");
        rb_plan_element e = {(float)number_at(coord, 0), (float)number_at(coord, 1), (float)number_at(coord, 2),
                             (uint8_t)block_kind(block, name, n), 0, 1, list_id, (uint32_t)i};
        if ((flags & FLAG_FREE) && d == block) {
            const rb_node *at = rb_list_element(positions, free_rank++);
            rb_record_scratch scratch;
            const rb_node *place = rb_node_get(at ? rb_record_view(at, &scratch) : NULL, "absolutePositionInMap");
            if (!place) { f->plan->skipped_blocks++; continue; }
            e.placed = 1;
            e.x = (float)(number_at(place, 0) / f->plan->cell_metres[0]);
            e.y = (float)(number_at(place, 1) / f->plan->cell_metres[1]) + f->y_origin;
            e.z = (float)(number_at(place, 2) / f->plan->cell_metres[2]);
        }
        rb_plan_add(f->plan, &e);
    }
}

/* An item's kind: a waypoint's (a start, a checkpoint item), else an item. */
static rb_plan_kind item_kind(const rb_node *placement)
{
    rb_plan_kind kind = waypoint_kind(rb_node_get(placement, "waypointSpecialProperty"));
    return kind == RB_PLAN_KINDS ? RB_PLAN_ITEM : kind;
}

static void map_items(map_frame *f, const rb_node *items, size_t items_index)
{
    const rb_node *list = rb_node_get(items, "anchoredObjects");
    char pointer[600];
    snprintf(pointer, sizeof pointer, "%s/body/chunks/%zu/anchoredObjects", f->prefix, items_index);
    uint32_t list_id = rb_plan_list(f->plan, pointer, rb_element_count(list));
    for (size_t i = 0; list && list->kind == RB_K_LIST && i < list->v.kids.count; i++) {
        const rb_node *chunks = rb_node_get(list->v.kids.items[i], "chunks"), *placement = NULL;
        for (size_t c = 0; chunks && chunks->kind == RB_K_LIST && c < chunks->v.kids.count && !placement; c++)
            if (rb_node_get(chunks->v.kids.items[c], "absolutePositionInMap")) placement = chunks->v.kids.items[c];
        const rb_node *place = rb_node_get(placement, "absolutePositionInMap");
        if (!place) { f->plan->skipped_items++; continue; }
        rb_plan_element e = {(float)(number_at(place, 0) / f->plan->cell_metres[0]),
                             (float)(number_at(place, 1) / f->plan->cell_metres[1]) + f->y_origin,
                             (float)(number_at(place, 2) / f->plan->cell_metres[2]),
                             (uint8_t)item_kind(placement), 1, 0, list_id, (uint32_t)i};
        rb_plan_add(f->plan, &e);
    }
}

/* The environment's name, whether the map stores it or its number. */
static const char *environment_of(const rb_node *collection, char *buffer, size_t size)
{
    if (collection && collection->kind == RB_K_ID && collection->wire == RB_ID_NUMBER)
        return gbx_collection_name((uint32_t)collection->v.bits);
    size_t n;
    const uint8_t *text = rb_node_bytes(collection, &n);
    if (!text) return NULL;
    snprintf(buffer, size, "%.*s", (int)n, (const char *)text);
    return buffer;
}

/* The map whose file record is `file` (at pointer `prefix`); 0, or -1 when it has no typed block data. */
static int plan_map(rb_plan *plan, const rb_node *file, const char *prefix)
{
    const rb_node *chunks = rb_node_get(rb_node_get(file, "body"), "chunks");
    size_t data_index = 0, items_index = 0;
    const rb_node *data = map_chunk(chunks, 0x01F, &data_index);
    if (!data) data = map_chunk(chunks, 0x013, &data_index);
    if (!data) data = map_chunk(chunks, 0x00F, &data_index);
    if (!rb_node_get(data, "blocks")) return -1;
    char environment[64];
    gbx_environment_cell(environment_of(rb_node_get(rb_node_get(data, "mapInfo"), "collection"), environment,
                                        sizeof environment),
                         plan->cell_metres);
    const rb_node *size = rb_node_get(data, "size");
    for (int k = 0; k < 3; k++) plan->size[k] = (float)number_at(size, (size_t)k);
    size_t n;
    const uint8_t *name = rb_node_bytes(rb_node_get(data, "mapName"), &n);
    if (name) snprintf(plan->title, sizeof plan->title, "%.*s", (int)n, (const char *)name);
    map_frame f = {plan, prefix, rb_node_uint(rb_node_get(data, "blockVersion")) >= 6 ? 8.0f : 0.0f};
    map_blocks(&f, chunks, data, data_index);
    const rb_node *items = map_chunk(chunks, 0x040, &items_index);
    if (items) map_items(&f, items, items_index);
    return 0;
}

/* ---------- ghosts ---------- */

typedef struct path_context {
    rb_plan *plan;
    rb_plan_path *path;
} path_context;

/* Positions stay in metres: the map a path is drawn over gives the cell (render.c). */

static void add_sample(void *context, double time_ms, const double position[3], double speed_kmh)
{
    path_context *p = context;
    rb_plan_point point = {(float)position[0], (float)position[1], (float)position[2], (float)speed_kmh,
                           isnan(time_ms) ? -1 : (int32_t)time_ms};
    if (isfinite(point.x) && isfinite(point.z)) rb_plan_path_point(p->plan, p->path, &point);
}

/* A ghost (CGameCtnGhost): its samples and the times of its checkpoints (chunk 004 or 00B). */
static void plan_ghost(rb_plan *plan, const rb_doc *doc, const rb_node *ghost)
{
    rb_plan_path *path = rb_plan_add_path(plan);
    if (!path) return;
    path_context p = {plan, path};
    gbx_ghost_samples(doc, ghost, add_sample, &p);
    const rb_node *chunks = rb_node_get(ghost, "chunks");
    for (size_t i = 0; chunks && chunks->kind == RB_K_LIST && i < chunks->v.kids.count; i++) {
        const rb_node *times = rb_node_get(chunks->v.kids.items[i], "checkpoints");
        for (size_t k = 0; times && times->kind == RB_K_LIST && k < times->v.kids.count; k++)
            rb_plan_path_checkpoint(plan, path, (int32_t)rb_node_int(rb_node_get(times->v.kids.items[k], "time")));
    }
    if (!path->count) plan->path_count--; /* a ghost without decoded samples draws nothing */
}

/* Every ghost below `n`, and the first map a replay holds (at pointer `at`). */
static void plan_recordings(rb_plan *plan, const rb_doc *doc, const rb_node *n, char *at, size_t at_size, int *maps,
                         unsigned depth)
{
    if (!n || !rb_node_is_container(n) || depth > 64) return;
    uint32_t cls = class_of(n);
    if (cls == CLASS_GHOST) { plan_ghost(plan, doc, n); return; }
    if (cls == CLASS_MAP && rb_node_get(n, "body") && depth > 0) {
        if (!*maps && plan_map(plan, n, at) == 0) (*maps)++;
        return;
    }
    size_t length = strlen(at);
    for (size_t i = 0; i < n->v.kids.count; i++) {
        const rb_node *child = n->v.kids.items[i];
        if (n->kind == RB_K_LIST) snprintf(at + length, at_size - length, "/%zu", i);
        else snprintf(at + length, at_size - length, "/%s", child->key ? child->key : "");
        plan_recordings(plan, doc, child, at, at_size, maps, depth + 1);
    }
    at[length] = 0;
}

int gbx_plan(const rb_doc *doc, rb_plan *plan, char *why, size_t why_size)
{
    uint32_t cls = class_of(doc->root);
    if (cls == CLASS_MAP) {
        if (plan_map(plan, doc->root, "") == 0) return 0;
        snprintf(why, why_size, "the map's block data is not typed");
        return -1;
    }
    if (cls != CLASS_GHOST && cls != CLASS_REPLAY) {
        snprintf(why, why_size, "a GBX file of class 0x%08X holds no map or ghost to draw", (unsigned)cls);
        return -1;
    }
    char at[4096] = "";
    int maps = 0;
    gbx_environment_cell(NULL, plan->cell_metres); /* a ghost alone: the usual cell, for the scale */
    plan_recordings(plan, doc, doc->root, at, sizeof at, &maps, 0);
    if (!plan->path_count && !maps) {
        snprintf(why, why_size, "the %s holds no decoded samples and no map", cls == CLASS_GHOST ? "ghost" : "replay");
        return -1;
    }
    return 0;
}

/* ---------- the counts `info` gives (docs/formats/gbx.md "Games and eras") ---------- */

static size_t count_ghosts(const rb_node *n, unsigned depth)
{
    if (!n || !rb_node_is_container(n) || depth > 64) return 0;
    if (class_of(n) == CLASS_GHOST) return 1;
    size_t count = 0;
    for (size_t i = 0; i < n->v.kids.count; i++) count += count_ghosts(n->v.kids.items[i], depth + 1);
    return count;
}

static json_t *kinds_json(const rb_plan *plan, int blocks)
{
    size_t counts[RB_PLAN_KINDS] = {0};
    for (size_t i = 0; i < plan->element_count; i++)
        if (plan->elements[i].block == blocks) counts[plan->elements[i].kind]++;
    json_t *out = json_object();
    for (int k = 0; k < RB_PLAN_KINDS; k++)
        if (counts[k]) json_object_set_new(out, rb_plan_kind_name((rb_plan_kind)k), json_integer((json_int_t)counts[k]));
    return out;
}

json_t *gbx_contents(const rb_doc *doc)
{
    json_t *out = json_object();
    uint32_t cls = class_of(doc->root);
    if (cls == CLASS_MAP) {
        rb_plan plan;
        rb_plan_init(&plan);
        if (plan_map(&plan, doc->root, "") == 0 && !plan.failed) {
            size_t counts[RB_PLAN_KINDS], blocks, placed, items;
            rb_plan_counts(&plan, counts, &blocks, &placed, &items);
            json_object_set_new(out, "blocks", json_integer((json_int_t)blocks));
            json_object_set_new(out, "blocks_by_kind", kinds_json(&plan, 1));
            json_object_set_new(out, "free_blocks", json_integer((json_int_t)placed));
            json_object_set_new(out, "items", json_integer((json_int_t)items));
            json_object_set_new(out, "items_by_kind", kinds_json(&plan, 0));
        }
        rb_plan_free(&plan);
        size_t index;
        const rb_node *embedded = map_chunk(rb_node_get(rb_node_get(doc->root, "body"), "chunks"), 0x054, &index);
        const rb_node *files = rb_node_get(rb_node_get(embedded, "embeddedZipData"), "files");
        json_object_set_new(out, "embedded_items", json_integer((json_int_t)rb_element_count(files)));
    }
    if (cls == CLASS_REPLAY || cls == CLASS_GHOST)
        json_object_set_new(out, "ghosts", json_integer((json_int_t)count_ghosts(doc->root, 0)));
    if (!json_object_size(out)) {
        json_decref(out);
        return NULL;
    }
    return out;
}
