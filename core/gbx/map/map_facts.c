/*
 * Where a map's body keeps each fact its header chunks and header XML copy (docs/formats/gbx.md
 * "Header copies"). Below map_header.c and map_header_xml.c, which both ask it, so neither
 * calls the other for a fact.
 */
#include <string.h>
#include "core/gbx/engine/gbx_internal.h"
#include "core/gbx/map/map_header.h"

/* Found in `chunks` and handed out as the model holds it, as rb_node_get does: a caller with the
 * document to itself (gbx_settle_copies) may change it. */
static rb_node *chunk_in(const rb_node *chunks, uint32_t family, uint32_t legacy, uint32_t low)
{
    for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
        rb_node *c = chunks->v.kids.items[i];
        uint32_t id = (uint32_t)rb_node_uint(rb_node_get(c, "id"));
        if ((id & 0xFFF) == low && ((id >> 12) == family || (id >> 12) == legacy)) return c;
    }
    return NULL;
}

static rb_node *body_chunk(const rb_node *file, uint32_t low)
{
    return chunk_in(rb_node_get(rb_node_get(file, "body"), "chunks"), 0x03043, 0x24003, low);
}

rb_node *gbx_map_params_chunk(const rb_node *file, uint32_t low)
{
    const rb_node *params = rb_node_get(body_chunk(file, 0x011), "challengeParameters");
    return chunk_in(rb_node_get(params, "chunks"), 0x0305B, 0x2400C, low);
}

/* The block data chunk: 01F, TMPU's 013 or TM 1.0's 00F. */
static const rb_node *block_data(const rb_node *file)
{
    const rb_node *c = body_chunk(file, 0x01F);
    if (!c) c = body_chunk(file, 0x013);
    return c ? c : body_chunk(file, 0x00F);
}

/* The collector chunk `id` (current id) of the file's main node. */
static const rb_node *collector_chunk(const rb_node *file, uint32_t id)
{
    const rb_node *chunks = rb_node_get(rb_node_get(file, "body"), "chunks");
    for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
        const rb_node *c = chunks->v.kids.items[i];
        if (gbx_remap_id((uint32_t)rb_node_uint(rb_node_get(c, "id"))) == id) return c;
    }
    return NULL;
}

int gbx_chunk_holds_copied_facts(uint32_t raw_id)
{
    uint32_t id = gbx_remap_id(raw_id);
    if ((id >> 12) == 0x03043) {
        uint32_t low = id & 0xFFF;
        /* 040: its item list counts toward the checkpoints (the list itself may still be deferred) */
        return low == 0x011 || low == 0x01F || low == 0x013 || low == 0x00F || low == 0x042 || low == 0x018 ||
               low == 0x040;
    }
    return id == 0x2E00100B || id == 0x2E001002 || id == 0x2E001009 || id == 0x2E00100C || id == 0x2E001011 ||
           id == 0x03033009 || id == 0x0303300E;
}

const rb_node *gbx_map_fact(const rb_node *file, gbx_fact fact, const char *key)
{
    switch (fact) {
    case GBX_FACT_BLOCK_DATA: return rb_node_get(block_data(file), key);
    case GBX_FACT_MEDALS: return rb_node_get(gbx_map_params_chunk(file, 0x004), key);
    case GBX_FACT_STUNTS: return rb_node_get(gbx_map_params_chunk(file, 0x008), key);
    case GBX_FACT_TIPS: return rb_node_get(gbx_map_params_chunk(file, 0x001), key);
    case GBX_FACT_MAP_TYPE: return rb_node_get(gbx_map_params_chunk(file, 0x00E), key);
    case GBX_FACT_AUTHOR: return rb_node_get(body_chunk(file, 0x042), key);
    case GBX_FACT_LAPS: return rb_node_get(body_chunk(file, 0x018), key);
    case GBX_FACT_COLLECTOR_IDENT: {
        const rb_node *c = collector_chunk(file, 0x2E00100B);
        return rb_node_get(c ? c : collector_chunk(file, 0x2E001002), key);
    }
    case GBX_FACT_COLLECTOR_PAGE: return rb_node_get(collector_chunk(file, 0x2E001009), key);
    case GBX_FACT_COLLECTOR_NAME: return rb_node_get(collector_chunk(file, 0x2E00100C), key);
    case GBX_FACT_COLLECTOR_CATALOG: return rb_node_get(collector_chunk(file, 0x2E001011), key);
    case GBX_FACT_COLLECTION: return rb_node_get(collector_chunk(file, 0x03033009), key);
    case GBX_FACT_COLLECTION_SORT: return rb_node_get(collector_chunk(file, 0x0303300E), key);
    }
    return NULL;
}

/* ---------- the checkpoints the header counts ---------- */

static int bytes_hold(const rb_node *n, const char *text)
{
    size_t k = strlen(text);
    if (!n || (n->kind != RB_K_STRING && n->kind != RB_K_ID) || (n->kind == RB_K_ID && n->wire == RB_ID_NUMBER)) return 0;
    for (size_t i = 0; i + k <= n->v.bytes.size; i++)
        if (!memcmp(n->v.bytes.data + i, text, k)) return 1;
    return 0;
}

const uint8_t *gbx_waypoint_tag(const rb_node *waypoint, size_t *size)
{
    const rb_node *chunks = rb_node_get(waypoint, "chunks");
    for (size_t i = 0; chunks && chunks->kind == RB_K_LIST && i < chunks->v.kids.count; i++) {
        const rb_node *tag = rb_node_get(chunks->v.kids.items[i], "tag");
        if (tag && tag->kind == RB_K_STRING) {
            *size = tag->v.bytes.size;
            return tag->v.bytes.data;
        }
    }
    *size = 0;
    return NULL;
}

/* Is a waypoint property a checkpoint (its tag)? */
static int waypoint_is_checkpoint(const rb_node *waypoint)
{
    size_t size;
    const uint8_t *tag = gbx_waypoint_tag(waypoint, &size);
    return tag && size == 10 && !memcmp(tag, "Checkpoint", 10);
}

int gbx_block_is_checkpoint(const rb_node *block)
{
    return waypoint_is_checkpoint(rb_node_get(block, "waypointSpecialProperty")) ||
           bytes_hold(rb_node_get(block, "name"), "Checkpoint");
}

int gbx_item_is_checkpoint(const rb_node *item)
{
    const rb_node *chunks = rb_node_get(item, "chunks");
    for (size_t i = 0; chunks && chunks->kind == RB_K_LIST && i < chunks->v.kids.count; i++) {
        const rb_node *waypoint = rb_node_get(chunks->v.kids.items[i], "waypointSpecialProperty");
        if (waypoint) return waypoint_is_checkpoint(waypoint);
    }
    return 0;
}

/* The elements of `list` that `counts` counts: a deferred list kept the count when it was read. */
static int count_in(const rb_node *list, int (*counts)(const rb_node *), uint32_t *count)
{
    if (!list) return 1; /* no such list: none */
    if (list->kind == RB_K_DEFERRED) {
        if (!list->deferred) return 0;
        *count += list->deferred->flags >> GBX_UNIT_COUNTED_SHIFT;
        return 1;
    }
    if (list->kind != RB_K_LIST) return 0;
    for (size_t i = 0; i < list->v.kids.count; i++) *count += counts(list->v.kids.items[i]) != 0;
    return 1;
}

int gbx_map_checkpoints(const rb_node *file, uint32_t *count)
{
    const rb_node *blocks = body_chunk(file, 0x01F), *items = body_chunk(file, 0x040);
    *count = 1; /* the finish, or a lap race's lap */
    if (!rb_node_get(blocks, "blocks") || (items && !rb_node_get(items, "version"))) return 0; /* not typed: unknown */
    return count_in(rb_node_get(blocks, "blocks"), gbx_block_is_checkpoint, count) &&
           count_in(rb_node_get(items, "anchoredObjects"), gbx_item_is_checkpoint, count);
}
