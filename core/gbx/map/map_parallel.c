/*
 * Per-object data kept in step with its object (docs/formats/gbx.md "Edits that stay consistent",
 * where blocks and items are one operation). A map keeps, beside its block list (0x0304301F) and
 * its item list (0x03043040), lists with one entry per block or per item and no count of their own
 * — colours (062), animation offsets (063), foreground skins (065), lightmap quality (068),
 * macroblock instances (069), the TM2020 snapping entry of each item (040's snappedOnIndexes), the
 * position of each free block (05F) — and lists of indexes into them (040's blockIndexes,
 * itemIndexes and items-on-item pairs). When a patch removes, inserts, copies or moves a block or
 * an item, this hook gives the operations that do the same to every such list and renumber every
 * index, so the user's edit is one operation. New entries get the game's defaults.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/json/json.h"
#include "core/gbx/map/map.h"
#include "core/gbx/engine/gbx_internal.h"

enum { BLOCK_FLAG_FREE = 0x20000000 };

/* A list that follows the owner's elements one to one. */
typedef struct follower {
    uint32_t chunk; /* map chunk id (current ids) */
    const char *key;
    const char *default_json; /* the game's value for a new element */
} follower;

static const follower ITEM_FOLLOWERS[] = {
    {0x03043040, "snappedOnIndexes", "-1"},  {0x03043062, "items", "0"}, {0x03043068, "items", "0"},
    {0x03043063, "animPhaseOffsets", "0"}, {0x03043065, "items", "{\"hasForegroundPackDesc\": false}"},
    {0x03043069, "items", "-1"},
};
static const follower BLOCK_FOLLOWERS[] = {
    {0x03043062, "blocks", "0"}, {0x03043068, "blocks", "0"}, {0x03043069, "blocks", "-1"},
};

/* An edit of the owner list: element `from` removed and/or `to` inserted (a move is both). */
typedef struct owner_edit {
    const rb_model_view *view;
    size_t chunk_count;
    const char *kind;
    long from, to; /* remove: from; add: to; copy: from, to; move: from, to */
    json_t *ops;
} owner_edit;

static int64_t integer_at(const owner_edit *e, int *present, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int64_t integer_at(const owner_edit *e, int *present, const char *fmt, ...)
{
    char pointer[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pointer, sizeof pointer, fmt, ap);
    va_end(ap);
    int here = 0;
    int64_t v = e->view->integer(e->view->context, pointer, &here);
    if (present) *present = here;
    return here ? v : 0;
}

static long chunk_index(const owner_edit *e, uint32_t id)
{
    for (size_t i = 0; i < e->chunk_count; i++)
        if (gbx_remap_id((uint32_t)integer_at(e, NULL, "/body/chunks/%zu/id", i)) == id) return (long)i;
    return -1;
}

/* Elements of list `key` of chunk `id`: -1 when the map has no such list; its chunk in *chunk. */
static long list_count(const owner_edit *e, uint32_t id, const char *key, long *chunk)
{
    *chunk = chunk_index(e, id);
    if (*chunk < 0) return -1;
    char pointer[160];
    snprintf(pointer, sizeof pointer, "/body/chunks/%ld/%s", *chunk, key);
    int present = 0;
    size_t n = e->view->count(e->view->context, pointer, &present);
    return present ? (long)n : -1;
}

static void add_op(owner_edit *e, const char *kind, long chunk, const char *key, long at, long from, json_t *value)
{
    char path[160], from_path[160];
    if (at < 0) snprintf(path, sizeof path, "/body/chunks/%ld/%s/-", chunk, key);
    else snprintf(path, sizeof path, "/body/chunks/%ld/%s/%ld", chunk, key, at);
    if (from >= 0) snprintf(from_path, sizeof from_path, "/body/chunks/%ld/%s/%ld", chunk, key, from);
    rb_json_patch_op(e->ops, kind, path, from >= 0 ? from_path : NULL, value);
}

/* The same edit on a follower list that is in step with the owner (`owner_count` elements). */
static void follow(owner_edit *e, const follower *f, long owner_count)
{
    long chunk;
    if (list_count(e, f->chunk, f->key, &chunk) != owner_count) return; /* absent, or out of step already */
    if (!strcmp(e->kind, "remove")) add_op(e, "remove", chunk, f->key, e->from, -1, NULL);
    else if (!strcmp(e->kind, "move")) add_op(e, "move", chunk, f->key, e->to, e->from, NULL);
    else if (!strcmp(e->kind, "copy")) add_op(e, "copy", chunk, f->key, e->to, e->from, NULL);
    else add_op(e, "add", chunk, f->key, e->to, -1, json_loads(f->default_json, JSON_DECODE_ANY, NULL));
}

/* Where an index into the owner list goes after the edit; -1 when its element is gone. */
static long renumber(const owner_edit *e, long v)
{
    if (v < 0) return v;
    if (!strcmp(e->kind, "remove")) return v == e->from ? -1 : v > e->from ? v - 1 : v;
    if (!strcmp(e->kind, "move")) {
        if (v == e->from) return e->to;
        if (e->from < e->to && v > e->from && v <= e->to) return v - 1;
        if (e->to < e->from && v >= e->to && v < e->from) return v + 1;
        return v;
    }
    return v >= e->to ? v + 1 : v; /* add, copy */
}

/* Every element of index list `key` of chunk `id` (a bare i32 each, or member `member` of each). */
static void renumber_list(owner_edit *e, uint32_t id, const char *key, const char *member)
{
    long chunk, n = list_count(e, id, key, &chunk);
    for (long i = 0; i < n; i++) {
        long v = member ? (long)(int32_t)integer_at(e, NULL, "/body/chunks/%ld/%s/%ld/%s", chunk, key, i, member)
                        : (long)(int32_t)integer_at(e, NULL, "/body/chunks/%ld/%s/%ld", chunk, key, i);
        long now = renumber(e, v);
        if (now == v) continue;
        char path[200];
        if (member) snprintf(path, sizeof path, "/body/chunks/%ld/%s/%ld/%s", chunk, key, i, member);
        else snprintf(path, sizeof path, "/body/chunks/%ld/%s/%ld", chunk, key, i);
        rb_json_patch_op(e->ops, "replace", path, NULL, json_integer(now));
    }
}

static void item_edit(owner_edit *e, long count)
{
    for (size_t i = 0; i < sizeof ITEM_FOLLOWERS / sizeof ITEM_FOLLOWERS[0]; i++) follow(e, &ITEM_FOLLOWERS[i], count);
    renumber_list(e, 0x03043040, "itemIndexes", NULL);
    renumber_list(e, 0x03043040, "itemsOnItem", "itemIndex");
    renumber_list(e, 0x03043040, "itemsOnItem", "placedOnItemIndex");
}

/* Free blocks before element `k` of block list `key` of chunk `chunk`. */
static long free_rank(const owner_edit *e, long chunk, const char *key, long k)
{
    long rank = 0;
    for (long i = 0; i < k; i++)
        rank += (integer_at(e, NULL, "/body/chunks/%ld/%s/%ld/flags", chunk, key, i) & BLOCK_FLAG_FREE) != 0;
    return rank;
}

static int value_is_free(const json_t *value)
{
    const json_t *flags = json_object_get(value, "flags");
    uint64_t n = json_is_string(flags) ? strtoull(json_string_value(flags), NULL, 16) : (uint64_t)json_integer_value(flags);
    return (n & BLOCK_FLAG_FREE) != 0;
}

/* 05F: the free block's position follows it (a new free block starts at the origin). 05F holds
 * the free blocks of 01F, then those of the baked blocks (048): the counts of the corpus agree. */
static void free_block_edit(owner_edit *e, long blocks_chunk, long count, const json_t *value)
{
    long chunk, baked_chunk;
    int moved_free = e->from >= 0 && (integer_at(e, NULL, "/body/chunks/%ld/blocks/%ld/flags", blocks_chunk, e->from) & BLOCK_FLAG_FREE);
    /* an edit of a block on the grid leaves the free positions alone: known before counting
     * the free blocks of the whole map (a scan of every block, per edit) */
    if (strcmp(e->kind, "add") ? !moved_free : !value_is_free(value)) return;
    long positions = list_count(e, 0x0304305F, "freeBlocks", &chunk);
    long baked = list_count(e, 0x03043048, "bakedBlocks", &baked_chunk);
    long baked_free = baked > 0 ? free_rank(e, baked_chunk, "bakedBlocks", baked) : 0;
    if (positions < 0 || free_rank(e, blocks_chunk, "blocks", count) + baked_free != positions) return;
    long from_rank = e->from >= 0 ? free_rank(e, blocks_chunk, "blocks", e->from) : -1;
    if (!strcmp(e->kind, "remove") && moved_free) add_op(e, "remove", chunk, "freeBlocks", from_rank, -1, NULL);
    else if (!strcmp(e->kind, "move") && moved_free) {
        int later = e->to > e->from;
        add_op(e, "move", chunk, "freeBlocks", free_rank(e, blocks_chunk, "blocks", e->to + later) - later, from_rank, NULL);
    } else if (!strcmp(e->kind, "copy") && moved_free)
        add_op(e, "copy", chunk, "freeBlocks", free_rank(e, blocks_chunk, "blocks", e->to), from_rank, NULL);
    else if (!strcmp(e->kind, "add") && value_is_free(value))
        add_op(e, "add", chunk, "freeBlocks", free_rank(e, blocks_chunk, "blocks", e->to), -1,
               json_pack("{s:[f,f,f],s:[f,f,f]}", "absolutePositionInMap", 0.0, 0.0, 0.0, "yawPitchRoll", 0.0, 0.0, 0.0));
}

static void block_edit(owner_edit *e, long blocks_chunk, long count, const json_t *value)
{
    for (size_t i = 0; i < sizeof BLOCK_FOLLOWERS / sizeof BLOCK_FOLLOWERS[0]; i++) follow(e, &BLOCK_FOLLOWERS[i], count);
    free_block_edit(e, blocks_chunk, count, value);
    renumber_list(e, 0x03043040, "blockIndexes", NULL);
}

/* "/body/chunks/<c>/<key>/<k>": the chunk index, the key and the element index (-2 for "-"). */
static int parse_element(const char *path, long *chunk, char *key, size_t key_size, long *element)
{
    static const char PREFIX[] = "/body/chunks/";
    if (!path || strncmp(path, PREFIX, sizeof PREFIX - 1)) return 0;
    char *end;
    *chunk = strtol(path + sizeof PREFIX - 1, &end, 10);
    if (*end != '/') return 0;
    const char *k = end + 1, *slash = strchr(k, '/');
    if (!slash || (size_t)(slash - k) >= key_size || strchr(slash + 1, '/')) return 0;
    snprintf(key, key_size, "%.*s", (int)(slash - k), k);
    if (!strcmp(slash + 1, "-")) *element = -2;
    else {
        *element = strtol(slash + 1, &end, 10);
        if (*end || *element < 0) return 0;
    }
    return 1;
}

static int is_list_edit(const char *kind)
{
    return kind && (!strcmp(kind, "remove") || !strcmp(kind, "add") || !strcmp(kind, "move") || !strcmp(kind, "copy"));
}

json_t *gbx_map_in_step_ops(const rb_model_view *view, const char *kind, const char *path, const char *from,
                              const json_t *value)
{
    long chunk, element, from_chunk = -1, from_element = -1;
    char key[32], from_key[32] = "";
    if (!is_list_edit(kind) || !parse_element(path, &chunk, key, sizeof key, &element)) return NULL;
    if (from && (!parse_element(from, &from_chunk, from_key, sizeof from_key, &from_element) || from_chunk != chunk ||
                 strcmp(from_key, key)))
        return NULL; /* the follower lists move with their owner only inside one list */
    int present = 0;
    owner_edit e = {view, view->count(view->context, "/body/chunks", &present), kind, -1, -1, NULL};
    if (!present || chunk >= (long)e.chunk_count) return NULL;
    uint32_t id = gbx_remap_id((uint32_t)integer_at(&e, NULL, "/body/chunks/%ld/id", chunk));
    int items = id == 0x03043040 && !strcmp(key, "anchoredObjects"), blocks = id == 0x0304301F && !strcmp(key, "blocks");
    long owner_chunk, count = items ? list_count(&e, id, key, &owner_chunk) : blocks ? list_count(&e, id, key, &owner_chunk) : -1;
    if (count < 0 || owner_chunk != chunk) return NULL;
    e.ops = json_array();
    if (!strcmp(kind, "remove")) e.from = element;
    else if (!strcmp(kind, "add")) e.to = element == -2 ? count : element;
    else {
        e.from = from_element;
        e.to = element == -2 ? count - (strcmp(kind, "move") ? 0 : 1) : element;
    }
    if (items) item_edit(&e, count);
    else block_edit(&e, chunk, count, value);
    return e.ops;
}
