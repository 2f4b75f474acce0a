/*
 * The items downgrade of TM2020 maps (the gbx format's "downgrade-items" transform): the items
 * chunk 0x03043040 of versions 5-7 rewritten at version 4 (or 0..4), so that item lists can be
 * edited without breaking the snapping data those versions keep per item; optionally every
 * anchored object's chunk 0x03101002 at an older version too. The transform is an RFC 6902 patch
 * over the map's model (docs/usage.md, "Items downgrade"), applied like any other patch, so it
 * is validated, written, re-read and compared; `rebyte downgrade-items --print-patch` shows it.
 * Only the items chunk is rendered as JSON to build it.
 */
#include <stdlib.h>
#include <string.h>
#include "core/json/json.h"
#include "core/gbx/map/map.h"
#include "core/gbx/engine/gbx_internal.h"

enum { ITEMS_CHUNK = 0x03043040, ANCHORED_OBJECT_CHUNK = 0x03101002 };

/* What a downgrade drops, for the report. */
typedef struct loss_report {
    int from_version;
    size_t objects, block_links, item_links, groups, snapped;
    size_t objects_rewritten;
} loss_report;

static uint32_t chunk_id(const json_t *chunk)
{
    const char *id = json_string_value(json_object_get(chunk, "id"));
    return id ? (uint32_t)strtoul(id, NULL, 16) : 0;
}

/* Index of the typed chunk `id` in a chunks array, -1 if absent. */
static long find_chunk(const json_t *chunks, uint32_t id)
{
    for (size_t i = 0; i < json_array_size(chunks); i++)
        if (chunk_id(json_array_get(chunks, i)) == id) return (long)i;
    return -1;
}

static size_t count_not_minus_one(const json_t *list)
{
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(list); i++)
        if (json_integer_value(json_array_get(list, i)) != -1) n++;
    return n;
}

/* Fields of the items chunk that the target version does not have. */
static void drop_items_fields(json_t *ops, const char *base, const json_t *items, int target, loss_report *loss)
{
    static const char *const SNAP_FIELDS[] = {"blockIndexes", "snapItemGroups", "itemIndexes", "u01", "snappedOnIndexes"};
    char path[256];
    loss->block_links = count_not_minus_one(json_object_get(items, "blockIndexes"));
    loss->item_links = count_not_minus_one(json_object_get(items, "itemIndexes"));
    loss->groups = count_not_minus_one(json_object_get(items, "snapItemGroups"));
    loss->snapped = count_not_minus_one(json_object_get(items, "snappedOnIndexes"));
    for (size_t i = 0; i < sizeof SNAP_FIELDS / sizeof SNAP_FIELDS[0]; i++) {
        if (!json_object_get(items, SNAP_FIELDS[i])) continue;
        snprintf(path, sizeof path, "%s/%s", base, SNAP_FIELDS[i]);
        rb_json_patch_op(ops, "remove", path, NULL, NULL);
    }
    int has_pairs = json_object_get(items, "itemsOnItem") != NULL;
    snprintf(path, sizeof path, "%s/itemsOnItem", base);
    /* version 5 has no items-on-item list: version 4's is written empty (see docs: the v5 snap
     * arrays link items to blocks and groups, not the "placed on item" pairs it holds) */
    if (target >= 1 && !has_pairs) rb_json_patch_op(ops, "add", path, NULL, json_array());
    if (target == 0 && has_pairs) rb_json_patch_op(ops, "remove", path, NULL, NULL);
    snprintf(path, sizeof path, "%s/version", base);
    rb_json_patch_op(ops, "replace", path, NULL, json_integer(target));
}

/* One anchored object's chunk 002 from its version down to `target`
 * (docs/usage.md "Items downgrade (TM2020)"). */
static void downgrade_object(json_t *ops, const char *base, const json_t *chunk, int target)
{
    char path[320];
    int version = (int)json_integer_value(json_object_get(chunk, "version"));
    const char *flags_text = json_string_value(json_object_get(chunk, "flags"));
    unsigned long flags = flags_text ? strtoul(flags_text, NULL, 16) : 0;
#define DROP(field)                                                               \
    do {                                                                          \
        if (json_object_get(chunk, field)) {                                      \
            snprintf(path, sizeof path, "%s/%s", base, field);                    \
            rb_json_patch_op(ops, "remove", path, NULL, NULL);                                    \
        }                                                                         \
    } while (0)
    if (version >= 8 && target < 8) { DROP("u02"); DROP("u03"); }
    if (version >= 7 && target < 7) {
        DROP("packDesc");
        if (flags & 4) { /* the skin flag announces the packdesc that version 6 cannot hold */
            char hex[24];
            flags &= ~4ul;
            snprintf(hex, sizeof hex, "0x%04lX", flags);
            snprintf(path, sizeof path, "%s/flags", base);
            rb_json_patch_op(ops, "replace", path, NULL, json_string(hex));
        }
    }
    if (version >= 6 && target < 6) DROP("scale");
    if (version >= 5 && target < 5) {
        DROP("pivotPosition");
        snprintf(path, sizeof path, "%s/u01", base); /* version 4 carries a u32 before the flags */
        rb_json_patch_op(ops, "add", path, NULL, json_integer(0));
    }
#undef DROP
    snprintf(path, sizeof path, "%s/version", base);
    rb_json_patch_op(ops, "replace", path, NULL, json_integer(target));
}

static void downgrade_objects(json_t *ops, const char *base, const json_t *items, int target, loss_report *loss)
{
    const json_t *objects = json_object_get(items, "anchoredObjects");
    loss->objects = json_array_size(objects);
    for (size_t i = 0; i < json_array_size(objects); i++) {
        const json_t *chunks = json_object_get(json_array_get(objects, i), "chunks");
        long k = find_chunk(chunks, ANCHORED_OBJECT_CHUNK);
        if (k < 0) continue;
        const json_t *chunk = json_array_get(chunks, (size_t)k);
        if (json_integer_value(json_object_get(chunk, "version")) <= target) continue;
        char path[256];
        snprintf(path, sizeof path, "%s/anchoredObjects/%zu/chunks/%ld", base, i, k);
        downgrade_object(ops, path, chunk, target);
        loss->objects_rewritten++;
    }
}

/* The patch that downgrades `model`; NULL with a message when the map has no typed items chunk. */
/* The items chunk of the body, by position. */
static const rb_node *items_chunk(const rb_node *body, size_t *index)
{
    const rb_node *chunks = rb_node_get(body, "chunks");
    for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
        const rb_node *c = chunks->v.kids.items[i];
        if (gbx_remap_id((uint32_t)rb_node_uint(rb_node_get(c, "id"))) != ITEMS_CHUNK) continue;
        *index = i;
        return c;
    }
    return NULL;
}

static json_t *loss_json(const loss_report *l, int target)
{
    return json_pack("{s:i,s:i,s:I,s:I,s:I,s:I,s:I,s:I}", "fromVersion", l->from_version, "toVersion",
                     l->from_version > target ? target : l->from_version, "objects", (json_int_t)l->objects,
                     "objectsRewritten", (json_int_t)l->objects_rewritten, "blockLinks", (json_int_t)l->block_links,
                     "itemLinks", (json_int_t)l->item_links, "groups", (json_int_t)l->groups, "snapped",
                     (json_int_t)l->snapped);
}

/* options: {"to": 0..4 (default 4), "itemsVersion": 4..8 (0: keep)}. The patch is empty when the
 * chunk is already there. */
static int downgrade_items(const rb_doc *doc, const json_t *options, json_t **patch, json_t **report, char *why,
                           size_t why_size)
{
    json_t *to = json_object_get(options, "to"), *items_version = json_object_get(options, "itemsVersion");
    int target = to ? (int)json_integer_value(to) : 4, object_target = (int)json_integer_value(items_version);
    if (target < 0 || target > 4 || (to && !json_is_integer(to))) {
        snprintf(why, why_size, "--to must be 0 to 4 (the versions before TM2020's snapping data)");
        return -1;
    }
    if (object_target && (object_target < 4 || object_target > 8)) {
        snprintf(why, why_size, "--items-version must be 4 to 8");
        return -1;
    }
    const rb_node *body = rb_node_get(doc->root, "body");
    size_t index = 0;
    const rb_node *chunk = items_chunk(body, &index);
    if (!chunk) {
        snprintf(why, why_size, "%s", body && rb_node_get(body, "opaqueTail")
                                          ? "the items chunk 0x03043040 is not reached by the typed parse (see `rebyte verify` notes)"
                                          : "the map has no items chunk 0x03043040");
        return -1;
    }
    if (!rb_node_get(chunk, "version")) {
        snprintf(why, why_size, "the items chunk could not be typed; it is kept as raw bytes");
        return -1;
    }
    json_t *items = rb_model_to_json(doc, chunk, RB_BLOBS_REF);
    char base[64];
    snprintf(base, sizeof base, "/body/chunks/%zu", index);
    json_t *ops = json_array();
    loss_report loss = {0};
    loss.from_version = (int)json_integer_value(json_object_get(items, "version"));
    if (loss.from_version > target) drop_items_fields(ops, base, items, target, &loss);
    if (object_target) downgrade_objects(ops, base, items, object_target, &loss);
    else loss.objects = json_array_size(json_object_get(items, "anchoredObjects"));
    json_decref(items);
    *patch = ops;
    *report = loss_json(&loss, target);
    return 0;
}

int gbx_transform(const rb_doc *doc, const char *name, const json_t *options, json_t **patch, json_t **report,
                  char *why, size_t why_size)
{
    if (strcmp(name, "downgrade-items") == 0) return downgrade_items(doc, options, patch, report, why, why_size);
    snprintf(why, why_size, "GBX has no transform \"%s\" (it has: downgrade-items)", name);
    return -1;
}
