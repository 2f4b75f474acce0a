/*
 * What `rebyte info` says about a GBX file beyond its header: for maps the name, uid, author,
 * environment, mood, medals, block and item counts, read from the typed model.
 */
#include <inttypes.h>
#include <string.h>
#include "core/json/json.h"
#include "core/gbx/gbx.h"
#include "core/gbx/map/map.h"
#include "core/gbx/engine/gbx_internal.h"
#include "core/gbx/map/environments.h"

static const struct {
    uint32_t id;
    const char *name;
} CLASS_NAMES[] = {
    {0x03043000, "CGameCtnChallenge"},      {0x03093000, "CGameCtnReplayRecord"},
    {0x03092000, "CGameCtnGhost"},          {0x03079000, "CGameCtnMediaClip"},
    {0x0310D000, "CGameCtnMacroBlockInfo"}, {0x2E002000, "CGameItemModel"},
    {0x0B005000, "CSystemConfig"},          {0x03033000, "CGameCtnCollection"},
    {0x0304E000, "CGameCtnBlockInfo"},      {0x03051000, "CGameCtnBlockInfoClassic"},
    {0x09005000, "CPlugSolid"},
};

static const char *class_name(uint32_t raw)
{
    uint32_t id = gbx_remap_id(raw);
    for (size_t i = 0; i < sizeof CLASS_NAMES / sizeof CLASS_NAMES[0]; i++)
        if (CLASS_NAMES[i].id == id) return CLASS_NAMES[i].name;
    return NULL;
}

/* The typed chunk `id` (current id; legacy ids match too) of a node's chunk list. */
static const rb_node *find_chunk(const rb_node *node, uint32_t id)
{
    const rb_node *chunks = rb_node_get(node, "chunks");
    for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
        const rb_node *c = chunks->v.kids.items[i];
        if (gbx_remap_id((uint32_t)rb_node_uint(rb_node_get(c, "id"))) == id && !rb_node_get(c, "data")) return c;
    }
    return NULL;
}

static void set_from(json_t *out, const char *key, const rb_doc *doc, const rb_node *n)
{
    if (!n) return;
    json_t *v = rb_model_to_json(doc, n, RB_BLOBS_OMIT);
    json_t *plain = json_is_object(v) ? json_object_get(v, "$id") : NULL;
    /* an id as the name people know; how it was stored is `rebyte dump`'s business */
    json_object_set(out, key, plain ? plain : v);
    json_decref(v);
}

/* The environment by name; a number stored for it is shown beside (environmentId). */
static void set_environment(json_t *map, const rb_doc *doc, const rb_node *collection)
{
    set_from(map, "environment", doc, collection);
    if (!collection || collection->kind != RB_K_ID || collection->wire != RB_ID_NUMBER) return;
    const char *name = gbx_collection_name((uint32_t)collection->v.bits);
    if (!name) return;
    json_object_set_new(map, "environment", json_string(name));
    json_object_set_new(map, "environmentId", json_integer((json_int_t)collection->v.bits));
}

static void map_block_data(json_t *map, const rb_doc *doc, const rb_node *body)
{
    const rb_node *blocks = find_chunk(body, 0x0304301F);
    if (!blocks) blocks = find_chunk(body, 0x03043013);
    if (!blocks) blocks = find_chunk(body, 0x0304300F);
    if (!blocks) return;
    const rb_node *info = rb_node_get(blocks, "mapInfo");
    set_from(map, "uid", doc, rb_node_get(info, "id"));
    set_environment(map, doc, rb_node_get(info, "collection"));
    set_from(map, "author", doc, rb_node_get(info, "author"));
    set_from(map, "name", doc, rb_node_get(blocks, "mapName"));
    set_from(map, "decoration", doc, rb_node_get(rb_node_get(blocks, "decoration"), "id"));
    set_from(map, "size", doc, rb_node_get(blocks, "size"));
    const rb_node *list = rb_node_get(blocks, "blocks");
    if (list) json_object_set_new(map, "block_count", json_integer((json_int_t)list->v.kids.count));
}

static void map_medals(json_t *map, const rb_doc *doc, const rb_node *body)
{
    const rb_node *params = rb_node_get(find_chunk(body, 0x03043011), "challengeParameters");
    const rb_node *medals = find_chunk(params, 0x0305B004);
    if (!medals) return;
    json_t *m = json_object();
    set_from(m, "bronze", doc, rb_node_get(medals, "bronzeTime"));
    set_from(m, "silver", doc, rb_node_get(medals, "silverTime"));
    set_from(m, "gold", doc, rb_node_get(medals, "goldTime"));
    set_from(m, "author", doc, rb_node_get(medals, "authorTime"));
    json_object_set_new(map, "medals_ms", m);
}

static void map_items(json_t *map, const rb_node *body)
{
    const rb_node *items = find_chunk(body, 0x03043040);
    if (!items) return;
    const rb_node *objects = rb_node_get(items, "anchoredObjects");
    json_object_set_new(map, "items", json_pack("{s:I,s:I}", "chunk_version", (json_int_t)rb_node_uint(rb_node_get(items, "version")),
                                                "count", (json_int_t)(objects ? objects->v.kids.count : 0)));
}

/* Bytes a header chunk's payload spans in the file (its fields after "id" and "heavy"). */
static uint64_t header_chunk_size(const rb_node *chunk)
{
    uint64_t start = UINT64_MAX, end = 0;
    for (size_t i = 0; i < chunk->v.kids.count; i++) {
        const rb_node *c = chunk->v.kids.items[i];
        if (!c->key || strcmp(c->key, "id") == 0 || strcmp(c->key, "heavy") == 0) continue;
        if (c->src_offset < start) start = c->src_offset;
        if ((uint64_t)c->src_offset + c->src_size > end) end = (uint64_t)c->src_offset + c->src_size;
    }
    return start == UINT64_MAX ? 0 : end - start;
}

/* A body chunk's id node; a chunk left deferred (gbx_summary_reads) is named by the copy of
 * its id the deferred read keeps. */
static const rb_node *chunk_id(const rb_node *chunk)
{
    if (chunk->kind == RB_K_DEFERRED) return chunk->deferred->first;
    return rb_node_get(chunk, "id");
}

/* The body's chunk ids, and the header chunks with their sizes. */
static void list_chunks(const rb_node *root, json_t *out)
{
    const rb_node *chunks = rb_node_get(rb_node_get(root, "body"), "chunks");
    json_t *ids = json_array();
    for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
        char id[16];
        snprintf(id, sizeof id, "0x%08" PRIX64, rb_node_uint(chunk_id(chunks->v.kids.items[i])));
        json_array_append_new(ids, json_string(id));
    }
    json_object_set_new(out, "body_chunks", ids);
    json_t *headers = json_array();
    const rb_node *hc = rb_node_get(root, "headerChunks");
    for (size_t i = 0; hc && i < hc->v.kids.count; i++) {
        const rb_node *c = hc->v.kids.items[i];
        char id[16];
        snprintf(id, sizeof id, "0x%08" PRIX64, rb_node_uint(rb_node_get(c, "id")));
        json_array_append_new(headers, json_pack("{s:s,s:I,s:b}", "id", id, "size", (json_int_t)header_chunk_size(c),
                                                 "heavy", (int)rb_node_uint(rb_node_get(c, "heavy"))));
    }
    json_object_set_new(out, "header_chunks", headers);
}

json_t *gbx_summary(const rb_doc *doc)
{
    json_t *out = json_object();
    list_chunks(doc->root, out);
    uint32_t class_id = (uint32_t)rb_node_uint(rb_node_get(doc->root, "classId"));
    const char *name = class_name(class_id);
    if (name) json_object_set_new(out, "class", json_string(name));
    json_object_set_new(out, "origin", gbx_origin(doc));
    json_t *contents = gbx_contents(doc);
    if (contents) json_object_set_new(out, "contents", contents);
    const rb_node *body = rb_node_get(doc->root, "body");
    if (gbx_remap_id(class_id) == 0x03043000 && body) {
        json_t *map = json_object();
        map_block_data(map, doc, body);
        map_medals(map, doc, body);
        map_items(map, body);
        set_from(map, "vehicle", doc, rb_node_get(rb_node_get(find_chunk(body, 0x0304300D), "playerModel"), "id"));
        set_from(map, "music", doc, rb_node_get(rb_node_get(find_chunk(body, 0x03043024), "customMusicPackDesc"), "filePath"));
        json_object_set_new(out, "map", map);
    }
    json_object_set_new(out, "typed_to_end", json_boolean(body && !rb_node_get(body, "opaqueTail")));
    return out;
}

/* Map chunks the summary never reads, the largest a map has beside its blocks and items (the
 * names of core/gbx/map/map_extra.c): info on a deferred read leaves them deferred. */
static const uint32_t UNREAD_CHUNKS[] = {0x03043043, 0x03043061, 0x03043062,
                                          0x03043063, 0x03043065, 0x03043068};

/* Does gbx_summary read this deferred unit (rb_format.summary_reads)? Every chunk and list but
 * those above and the baked blocks (which neither the plan nor the counts read). */
int gbx_summary_reads(const rb_doc *doc, const rb_node *unit)
{
    (void)doc;
    const rb_node *id = unit->deferred->first;
    if (!id) return !unit->key || strcmp(unit->key, "bakedBlocks") != 0;
    uint32_t chunk = gbx_remap_id((uint32_t)id->v.bits);
    for (size_t i = 0; i < sizeof UNREAD_CHUNKS / sizeof UNREAD_CHUNKS[0]; i++)
        if (UNREAD_CHUNKS[i] == chunk) return 0;
    return 1;
}

/* ---------- encodings: binary and text GBX (docs/formats/gbx_text.md) ---------- */

/* A GBX file header in the model: a record with the format byte and the compression bytes. */
static int is_gbx_header(const rb_node *record)
{
    const rb_node *format = rb_node_get(record, "format");
    return format && format->kind == RB_K_INT && rb_node_get(record, "refTableCompression") &&
           rb_node_get(record, "bodyCompression");
}

/* Sets the format byte of every GBX file in the model (embedded ones too); how many there were. */
static size_t set_formats(rb_node *n, uint8_t format, unsigned depth)
{
    if (!n || !rb_node_is_container(n) || depth > 1000) return 0;
    size_t count = 0;
    if (n->kind == RB_K_RECORD && is_gbx_header(n)) {
        rb_node_get(n, "format")->v.bits = format;
        count++;
    }
    for (size_t i = 0; i < n->v.kids.count; i++) count += set_formats(n->v.kids.items[i], format, depth + 1);
    return count;
}

const char *gbx_encoding(const rb_doc *doc)
{
    const rb_node *format = rb_node_get(doc->root, "format");
    return format && format->v.bits == 'T' ? "text" : "binary";
}

int gbx_set_encoding(rb_doc *doc, const char *encoding)
{
    int text = strcmp(encoding, "text") == 0;
    if (!text && strcmp(encoding, "binary") != 0) return -1;
    return set_formats(doc->root, text ? 'T' : 'B', 0) ? 0 : -1;
}
