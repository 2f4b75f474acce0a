/*
 * GameBox (.Gbx) container: header, user data (header chunks), reference table, body.
 * Layout: docs/formats/gbx.md "Header layout"; why the original LZO stream is kept:
 * docs/formats/gbx.md "Compressed body".
 *
 * The body is the main node's chunk stream. This level walks skippable chunks (their size is
 * stored) and keeps everything from the first chunk it cannot type as one opaque tail, so every
 * file still round-trips byte for byte.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "core/doc/doc.h"
#include "core/gbx/gbx.h"
#include "core/gbx/gbx_assets.h"
#include "core/gbx/gbx_classes.h"
#include "core/gbx/ghost/ghost.h"
#include "core/gbx/engine/gbx_internal.h"
#include "core/gbx/map/map.h"
#include "core/gbx/map/map_header.h"

static int gbx_detect(const uint8_t *data, size_t size)
{
    if (size < 9 || memcmp(data, "GBX", 3) != 0) return 0;
    unsigned version = data[3] | data[4] << 8;
    return version >= 1 && version <= 6 ? 100 : 50;
}

/* One header chunk's payload: its own id scope; typed when its layout is known. */
static void header_chunk_payload(rb_ar *ar, uint32_t id, uint32_t size)
{
    rb_ar_range_begin(ar, "header chunk", size);
    gbx_scope_push(ar);
    gbx_typed_or_opaque(ar, gbx_find_header_chunk(id));
    gbx_scope_pop(ar);
    rb_ar_range_end(ar);
}

static const char EMPTY_TABLE_KEY[] = "emptyHeaderChunkTable";

/* Header chunks: a table of (id, size | heavy bit) precedes the payloads it describes, so the
 * table is read first (READ) or written with slots patched after each payload (WRITE). */
static void gbx_user_data(rb_ar *ar)
{
    rb_ar_sized_begin(ar, "userDataSize", RB_U32);
    uint64_t count = 0;
    uint32_t *ids = NULL, *sizes = NULL;
    rb_slot *slots = NULL;
    int reading = rb_ar_direction(ar) == RB_AR_READ, writing = rb_ar_direction(ar) == RB_AR_WRITE;
    /* no header chunk: the user data is normally empty; a file that stores a count of 0 instead
     * keeps that in the model (emptyHeaderChunkTable) so it writes back as it was */
    int has_table = reading ? !rb_ar_at_end(ar)
                            : rb_ar_count_of(ar, "headerChunks", 0) > 0 || rb_ar_has(ar, EMPTY_TABLE_KEY, 0);
    if (has_table) {
        rb_slot count_slot = rb_ar_slot(ar, "numHeaderChunks", RB_U32);
        count = rb_ar_count_of(ar, "headerChunks", count_slot.value);
        rb_ar_slot_set(ar, &count_slot, count);
        if (reading && count > rb_ar_remaining(ar) / 8) {
            rb_ar_fail(ar, RB_E_FORMAT, "%llu header chunks cannot fit in the %llu bytes of user data",
                       (unsigned long long)count, (unsigned long long)rb_ar_remaining(ar));
            goto done;
        }
        ids = calloc(count + 1, sizeof(*ids));
        sizes = calloc(count + 1, sizeof(*sizes));
        slots = calloc(count + 1, sizeof(*slots));
        if (!ids || !sizes || !slots) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); goto done; }
        const rb_node *list = writing ? rb_node_get(rb_ar_current(ar), "headerChunks") : NULL;
        RB_AR_EACH(ar, i, count) {
            rb_slot id = rb_ar_slot(ar, "header chunk id", RB_X32);
            if (writing) rb_ar_slot_set(ar, &id, rb_node_uint(rb_node_get(list->v.kids.items[i], "id")));
            ids[i] = (uint32_t)id.value;
            slots[i] = rb_ar_slot(ar, "header chunk size", RB_U32);
            sizes[i] = (uint32_t)slots[i].value;
        }
    }
    if (writing && count > 0) rb_ar_drop(ar, EMPTY_TABLE_KEY); /* header chunks were added: no longer empty */
    if (rb_ar_has(ar, EMPTY_TABLE_KEY, reading && has_table && count == 0) &&
        rb_ar_bool_detached(ar, EMPTY_TABLE_KEY, 1, 1) != 1 && rb_ar_ok(ar))
        rb_ar_fail(ar, RB_E_MODEL, "\"%s\" is either true or left out", EMPTY_TABLE_KEY);
    count = rb_ar_list_begin_n(ar, "headerChunks", count, 0);
    RB_AR_RECORDS(ar, i, count) {
        uint32_t id = (uint32_t)rb_ar_uint_detached(ar, "id", RB_X32, ids ? ids[i] : 0);
        uint32_t heavy = rb_ar_bool_detached(ar, "heavy", 1, sizes ? sizes[i] >> 31 : 0);
        uint64_t start = rb_ar_tell(ar);
        header_chunk_payload(ar, id, sizes ? sizes[i] & ~GBX_HEAVY : 0);
        if (writing) {
            uint64_t size = rb_ar_tell(ar) - start;
            if (size >= GBX_HEAVY) rb_ar_fail(ar, RB_E_MODEL, "header chunk %llu is too large", (unsigned long long)i);
            rb_ar_slot_set(ar, &slots[i], size | (heavy ? GBX_HEAVY : 0));
        }
    }
done:
    free(ids);
    free(sizes);
    free(slots);
    rb_ar_sized_end(ar);
}

/* Folder tree of the reference table, kept verbatim (unused folders exist; order is arbitrary). */
static void gbx_folders(rb_ar *ar, const char *key)
{
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, key, RB_U32, 8)) {
        gbx_string(ar, "name");
        gbx_folders(ar, "folders");
    }
}

static void gbx_external_node(rb_ar *ar, unsigned version)
{
    rb_ar_record_begin(ar, NULL);
    uint32_t flags = rb_ar_u32(ar, "flags");
    int by_resource = (flags & 4) != 0;
    if (by_resource) rb_ar_u32(ar, "resourceIndex");
    else gbx_string(ar, "fileName");
    rb_ar_u32(ar, "nodeIndex");
    if (version >= 5) rb_ar_bool(ar, "useFile", 4);
    if (!by_resource) rb_ar_u32(ar, "folderIndex");
    rb_ar_record_end(ar);
}

/* Body node references to these indices point outside the file. */
static void remember_external_nodes(rb_ar *ar)
{
    gbx_ctx *ctx = gbx_ctx_of(ar);
    const rb_node *list = rb_ar_current(ar);
    if (!rb_ar_ok(ar) || !list || ctx->external_nodes) return;
    uint32_t *indices = calloc(list->v.kids.count + 1, sizeof(*indices));
    if (!indices) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    for (size_t i = 0; i < list->v.kids.count; i++)
        indices[i] = (uint32_t)rb_node_uint(rb_node_get(list->v.kids.items[i], "nodeIndex"));
    ctx->external_nodes = indices;
    ctx->external_count = list->v.kids.count;
}

static void gbx_reference_table(rb_ar *ar, unsigned version)
{
    rb_ar_record_begin(ar, "referenceTable");
    rb_slot count_slot = rb_ar_slot(ar, "numExternalNodes", RB_U32);
    uint64_t count = rb_ar_count_of(ar, "externalNodes", count_slot.value);
    rb_ar_slot_set(ar, &count_slot, count);
    if (count > 0) {
        rb_ar_u32(ar, "ancestorLevel");
        gbx_folders(ar, "folders");
        count = rb_ar_list_begin_n(ar, "externalNodes", count, 12);
        RB_AR_EACH(ar, i, count) gbx_external_node(ar, version);
        remember_external_nodes(ar);
        rb_ar_list_end(ar);
    }
    rb_ar_record_end(ar);
}

static void gbx_body(rb_ar *ar, unsigned body_compression, uint32_t class_id)
{
    if (body_compression == 'C') {
        rb_slot content_size = rb_ar_slot(ar, "uncompressedSize", RB_U32);
        rb_slot encoded_size = rb_ar_slot(ar, "compressedSize", RB_U32);
        rb_ar_stream_begin(ar, "body", &rb_codec_lzo1x, content_size.value, encoded_size.value);
        gbx_main_node(ar, class_id);
        rb_ar_stream_end(ar, &content_size, &encoded_size);
    } else if (body_compression == 'U') {
        rb_ar_record_begin(ar, "body");
        gbx_main_node(ar, class_id);
        rb_ar_record_end(ar);
    } else {
        rb_ar_fail(ar, RB_E_FORMAT, "body compression byte 0x%02x is neither 'C' nor 'U'", body_compression);
    }
}

static void gbx_describe_file(rb_ar *ar)
{
    gbx_ctx_of(ar)->file = rb_ar_current(ar);
    rb_ar_expect(ar, "GBX magic", "GBX", 3);
    unsigned version = rb_ar_u16(ar, "version");
    if (rb_ar_ok(ar) && (version < 3 || version > 6)) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "GBX header version %u is not supported (3 to 6 are)", version);
        return;
    }
    unsigned format = (unsigned)rb_ar_uint(ar, "format", RB_U8 | RB_W_CHAR);
    if (rb_ar_ok(ar) && format != 'B' && format != 'T') {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "format byte 0x%02x is neither 'B' (binary) nor 'T' (text)", format);
        return;
    }
    unsigned ref_compression = (unsigned)rb_ar_uint(ar, "refTableCompression", RB_U8 | RB_W_CHAR);
    if (rb_ar_ok(ar) && ref_compression != 'U') {
        /* no known file compresses its reference table; refuse rather than misread */
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "reference table compression 0x%02x is not supported (only 'U')",
                   ref_compression);
        return;
    }
    unsigned body_compression = (unsigned)rb_ar_uint(ar, "bodyCompression", RB_U8 | RB_W_CHAR);
    if (version >= 4) rb_ar_uint(ar, "unknownByte", RB_U8 | RB_W_CHAR);
    /* text GBX: the bytes so far are binary, every value from here on is a line
     * (docs/formats/gbx_text.md "Layout") */
    rb_ar_set_text(ar, format == 'T');
    uint32_t class_id = rb_ar_x32(ar, "classId");
    if (version >= 6) gbx_user_data(ar);
    rb_ar_u32(ar, "numNodes");
    gbx_reference_table(ar, version);
    gbx_body(ar, body_compression, class_id);
}

/* What the engine asks of the classes (gbx_class_hooks): every context made here carries it. */
static const gbx_class_hooks GBX_CLASS_HOOKS = {
    .find_chunk = gbx_find_chunk,
    .holds_copied_facts = gbx_chunk_holds_copied_facts,
    .describe_file = gbx_describe_file,
};

/* One chunk of a node's chunk list built on its own (rb_format.draft_description): a fresh id
 * scope, like the body's. */
static void describe_chunk_alone(rb_ar *ar)
{
    gbx_ctx *ctx = calloc(1, sizeof(*ctx));
    if (!ctx) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    ctx->classes = &GBX_CLASS_HOOKS;
    ctx->scope_count = 1;
    void *outer = rb_ar_user(ar);
    rb_ar_set_user(ar, ctx);
    gbx_describe_chunk(ar);
    rb_ar_set_user(ar, outer);
    gbx_ctx_free(ctx);
}

static rb_describe_fn gbx_draft_description(const rb_node *list)
{
    return list->kind == RB_K_LIST && list->key && strcmp(list->key, "chunks") == 0 ? describe_chunk_alone : NULL;
}

static void gbx_describe(rb_ar *ar)
{
    gbx_ctx *ctx = calloc(1, sizeof(*ctx));
    if (!ctx) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    ctx->classes = &GBX_CLASS_HOOKS;
    ctx->scope_count = 1; /* the body's scope */
    /* the document's own file only: an embedded file's chunks stay nodes */
    ctx->deferring = rb_ar_direction(ar) != RB_AR_WRITE && rb_ar_doc(ar)->defer_units;
    ctx->checking = ctx->deferring && rb_ar_checks_units(ar);
    rb_ar_set_user(ar, ctx);
    gbx_read_end_begin(ar);
    gbx_describe_file(ar);
    gbx_read_end_fill(ar);
    if (ctx->opaque_reason[0] && rb_ar_direction(ar) == RB_AR_READ) {
        char note[700];
        snprintf(note, sizeof note, "typed parse stopped, the rest of the body is kept opaque: %s", ctx->opaque_reason);
        rb_doc_add_note(rb_ar_doc(ar), note);
    }
    rb_ar_set_user(ar, NULL);
    free((void *)ctx->external_nodes);
    gbx_ctx_free(ctx);
}

/* Natural keys (docs/formats/gbx.md "Edits that stay consistent"): a block by its name and
 * coordinates, an anchored object by its model and position, a block-stock entry by its model. */
static const rb_key_set GBX_IDENTITY_KEYS[] = {
    {10, {"name", "coord/0", "coord/1", "coord/2", NULL}},
    {11, {"chunks/0/itemModel/id", "chunks/0/absolutePositionInMap/0", "chunks/0/absolutePositionInMap/1",
          "chunks/0/absolutePositionInMap/2", NULL}},
    {60, {"blockModel/id", NULL}},
};

const rb_format rb_format_gbx = {
    .name = "gbx",
    .description = "GameBox (TrackMania / ManiaPlanet .Gbx)",
    .detect = gbx_detect,
    .describe = gbx_describe,
    .summary = gbx_summary,
    .summary_reads = gbx_summary_reads,
    .after_read = gbx_settle_copies,
    .is_recording = gbx_is_recording,
    .plan = gbx_plan,
    .record_encoding = "binary",
    .in_step = gbx_in_step_ops,
    .given_to_copies = gbx_given_to_copies,
    .followers = gbx_xml_followers,
    .rules = gbx_rules,
    .identity_keys = GBX_IDENTITY_KEYS,
    .identity_key_count = sizeof GBX_IDENTITY_KEYS / sizeof GBX_IDENTITY_KEYS[0],
    .transform = gbx_transform,
    .encoding = gbx_encoding,
    .set_encoding = gbx_set_encoding,
    .assets = gbx_assets,
    .asset_patch = gbx_asset_patch,
    .asset_unit = gbx_asset_unit,
    .era_id = gbx_era_id,
    .era_spellings = gbx_era_spellings,
    .draft_description = gbx_draft_description,
    .read_unit = gbx_read_unit,
    .unit_member = gbx_unit_member,
};
