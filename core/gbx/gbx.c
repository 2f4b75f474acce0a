/*
 * GameBox (.Gbx) container: header, user data (header chunks), reference table, body.
 * Facts: shared/specs/gbx-facts.md §1 (layout), §1.6 (why the original LZO stream is kept).
 *
 * The body is the main node's chunk stream. This level walks skippable chunks (their size is
 * stored) and keeps everything from the first chunk it cannot type as one opaque tail, so every
 * file still round-trips byte for byte.
 */
#include <stdlib.h>
#include <string.h>
#include "../doc.h"
#include "gbx.h"

enum {
    GBX_FACADE = 0xFACADE01u,
    GBX_SKIP = 0x534B4950u, /* "PIKS" read little-endian */
    GBX_HEAVY = 0x80000000u
};

static int gbx_detect(const uint8_t *data, size_t size)
{
    if (size < 9 || memcmp(data, "GBX", 3) != 0) return 0;
    unsigned version = data[3] | data[4] << 8;
    return version >= 1 && version <= 6 ? 100 : 50;
}

/* GBX strings: i32 byte length, then the bytes (no terminator). */
static void gbx_string(rb_ar *ar, const char *key) { rb_ar_string(ar, key, RB_I32); }

/* Header chunks: a table of (id, size | heavy bit) precedes the payloads it describes. */
static void gbx_user_data(rb_ar *ar)
{
    rb_ar_sized_begin(ar, "userDataSize", RB_U32);
    uint64_t count = 0;
    uint32_t *ids = NULL, *sizes = NULL;
    int has_table = rb_ar_direction(ar) == RB_AR_READ ? !rb_ar_at_end(ar) : rb_ar_count_of(ar, "headerChunks", 0) > 0;
    if (has_table) {
        rb_slot count_slot = rb_ar_slot(ar, "numHeaderChunks", RB_U32);
        count = rb_ar_count_of(ar, "headerChunks", count_slot.value);
        rb_ar_slot_set(ar, &count_slot, count);
        if (rb_ar_direction(ar) == RB_AR_READ) {
            if (count > rb_ar_remaining(ar) / 8) {
                rb_ar_fail(ar, RB_E_FORMAT, "%llu header chunks cannot fit in the %llu bytes of user data",
                           (unsigned long long)count, (unsigned long long)rb_ar_remaining(ar));
                goto done;
            }
            ids = calloc(count + 1, sizeof(*ids));
            sizes = calloc(count + 1, sizeof(*sizes));
            if (!ids || !sizes) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); goto done; }
            for (uint64_t i = 0; i < count; i++) {
                ids[i] = (uint32_t)rb_ar_slot(ar, "header chunk id", RB_U32).value;
                sizes[i] = (uint32_t)rb_ar_slot(ar, "header chunk size", RB_U32).value;
            }
        } else if (rb_ar_direction(ar) == RB_AR_WRITE) {
            const rb_node *list = rb_node_get(rb_ar_current(ar), "headerChunks");
            for (size_t i = 0; i < list->v.kids.count; i++) {
                const rb_node *chunk = list->v.kids.items[i];
                const rb_node *data = rb_node_get(chunk, "data");
                uint64_t size = data ? data->v.bytes.size : 0;
                if (size >= GBX_HEAVY) { rb_ar_fail(ar, RB_E_MODEL, "header chunk %zu is too large", i); goto done; }
                rb_slot id = rb_ar_slot(ar, "header chunk id", RB_U32);
                rb_ar_slot_set(ar, &id, rb_node_uint(rb_node_get(chunk, "id")));
                rb_slot sz = rb_ar_slot(ar, "header chunk size", RB_U32);
                rb_ar_slot_set(ar, &sz, size | (rb_node_uint(rb_node_get(chunk, "heavy")) ? GBX_HEAVY : 0));
            }
        }
    }
    count = rb_ar_list_begin_n(ar, "headerChunks", count, 0);
    for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++) {
        rb_ar_record_begin(ar, NULL);
        rb_ar_uint_detached(ar, "id", RB_X32, ids ? ids[i] : 0);
        rb_ar_bool_detached(ar, "heavy", 1, sizes ? sizes[i] >> 31 : 0);
        rb_ar_bytes(ar, "data", RB_K_OPAQUE, sizes ? sizes[i] & ~GBX_HEAVY : 0);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
done:
    free(ids);
    free(sizes);
    rb_ar_sized_end(ar);
}

/* Folder tree of the reference table, kept verbatim (unused folders exist; order is arbitrary). */
static void gbx_folders(rb_ar *ar, const char *key)
{
    uint64_t n = rb_ar_list_begin(ar, key, RB_U32, 8);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) {
        rb_ar_record_begin(ar, NULL);
        gbx_string(ar, "name");
        gbx_folders(ar, "folders");
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
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
        for (uint64_t i = 0; i < count && rb_ar_ok(ar); i++) gbx_external_node(ar, version);
        rb_ar_list_end(ar);
    }
    rb_ar_record_end(ar);
}

/* READ: is the next chunk one this level can walk (a skippable one)? */
static int next_chunk_is_walkable(rb_ar *ar, int *at_facade)
{
    uint32_t id = 0, marker = 0;
    *at_facade = 0;
    if (!rb_ar_peek_u32(ar, &id)) return 0;
    if (id == GBX_FACADE) { *at_facade = 1; return 0; }
    return rb_ar_peek_u32_at(ar, 4, &marker) && marker == GBX_SKIP;
}

/* The main node's chunk stream, up to 0xFACADE01. */
static void gbx_node_chunks(rb_ar *ar)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    int at_facade = 0;
    rb_ar_list_begin_open(ar, "chunks");
    while (rb_ar_ok(ar) && rb_ar_list_has_more(ar)) {
        if (reading && !next_chunk_is_walkable(ar, &at_facade)) break;
        rb_ar_record_begin(ar, NULL);
        rb_ar_x32(ar, "id");
        rb_ar_expect(ar, "SKIP marker", "PIKS", 4);
        rb_ar_sized_begin(ar, "chunk size", RB_U32);
        rb_ar_rest(ar, "data");
        rb_ar_sized_end(ar);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
    /* A chunk without a size cannot be skipped: from there on the node is kept as it is. */
    if (rb_ar_has(ar, "opaqueTail", reading && !at_facade)) {
        rb_ar_rest(ar, "opaqueTail");
    } else {
        static const uint8_t facade[4] = {0x01, 0xDE, 0xCA, 0xFA};
        rb_ar_expect(ar, "end-of-node marker 0xFACADE01", facade, 4);
    }
}

static void gbx_body(rb_ar *ar, unsigned body_compression)
{
    if (body_compression == 'C') {
        rb_slot content_size = rb_ar_slot(ar, "uncompressedSize", RB_U32);
        rb_slot encoded_size = rb_ar_slot(ar, "compressedSize", RB_U32);
        rb_ar_stream_begin(ar, "body", &rb_codec_lzo1x, content_size.value, encoded_size.value);
        gbx_node_chunks(ar);
        rb_ar_stream_end(ar, &content_size, &encoded_size);
    } else if (body_compression == 'U') {
        rb_ar_record_begin(ar, "body");
        gbx_node_chunks(ar);
        rb_ar_record_end(ar);
    } else {
        rb_ar_fail(ar, RB_E_FORMAT, "body compression byte 0x%02x is neither 'C' nor 'U'", body_compression);
    }
}

static void gbx_describe(rb_ar *ar)
{
    rb_ar_expect(ar, "GBX magic", "GBX", 3);
    unsigned version = rb_ar_u16(ar, "version");
    if (rb_ar_ok(ar) && (version < 3 || version > 6)) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "GBX header version %u is not supported (3 to 6 are)", version);
        return;
    }
    unsigned format = (unsigned)rb_ar_uint(ar, "format", RB_U8 | RB_W_CHAR);
    if (rb_ar_ok(ar) && format != 'B') {
        rb_ar_fail(ar, RB_E_UNSUPPORTED,
                   format == 'T' ? "text-format GBX ('T') is not supported yet" : "format byte 0x%02x is not 'B'",
                   format);
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
    rb_ar_x32(ar, "classId");
    if (version >= 6) gbx_user_data(ar);
    rb_ar_u32(ar, "numNodes");
    gbx_reference_table(ar, version);
    gbx_body(ar, body_compression);
}

const rb_format rb_format_gbx = {
    "gbx",
    "GameBox (TrackMania / ManiaPlanet .Gbx)",
    gbx_detect,
    gbx_describe,
};
