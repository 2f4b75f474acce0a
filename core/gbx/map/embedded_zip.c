/*
 * The zip of a map's embedded items (chunk 0x03043054) as a list of files, each item a GBX file
 * parsed as one. Layout and what is derived: docs/formats/gbx_mapextra.md "Embedded items".
 *
 * Only the local entries are in the model: name, times, method, extra bytes and the content, a
 * raw deflate stream (the original compressed bytes pass through while the content is
 * unchanged). Their CRC-32s and sizes, the whole central directory and the end record are
 * derived. A zip whose central directory is not what the writer derives (other attributes,
 * comments, another order), or that is not deflate, stays one blob, as it was before.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "core/gbx/engine/gbx_internal.h"

enum { LOCAL_SIGNATURE = 0x04034B50u, METHOD_DEFLATE = 8 };

/* What the central directory repeats of a local entry, and where the entry starts. */
typedef struct zip_entry {
    uint32_t version_needed, flags, method, time, date, crc, compressed, size, offset;
    const uint8_t *name;
    size_t name_size;
} zip_entry;

typedef struct zip_entries {
    zip_entry *items;
    size_t count, cap;
} zip_entries;

static zip_entry *next_entry(rb_ar *ar, zip_entries *z)
{
    if (z->count == z->cap) {
        size_t cap = z->cap ? z->cap * 2 : 16;
        zip_entry *bigger = realloc(z->items, cap * sizeof *bigger);
        if (!bigger) {
            rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
            return NULL;
        }
        z->items = bigger;
        z->cap = cap;
    }
    zip_entry *e = &z->items[z->count++];
    memset(e, 0, sizeof *e);
    return e;
}

/* A value the writer derives: READ requires the stored one to be it, WRITE writes it. */
static void derived(rb_ar *ar, const char *what, unsigned wire, uint64_t value)
{
    rb_slot s = rb_ar_slot(ar, what, wire);
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_READ && s.value != value)
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "%s is %llu, where the writer would put %llu", what,
                   (unsigned long long)s.value, (unsigned long long)value);
    rb_ar_slot_set(ar, &s, value);
}

/* READ: is the content a GBX file (its magic)? */
static int content_is_gbx(rb_ar *ar)
{
    uint32_t magic = 0;
    return rb_ar_peek_u32(ar, &magic) && (magic & 0xFFFFFFu) == 0x584247u; /* "GBX" */
}

/* An entry's content: a GBX file parsed as one when it is one and its typed parse reaches its
 * end, else its bytes (an item whose classes are not all typed yet stays bytes, with a note, so a
 * map never carries a partly typed item). */
static void entry_content(rb_ar *ar)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    if (rb_ar_has(ar, "file", reading && (rb_ar_is_text(ar) || content_is_gbx(ar)))) {
        gbx_mark mark = gbx_mark_here(ar);
        char stopped[600] = "";
        int typed = gbx_embedded_file_content(ar, "file", stopped, sizeof stopped);
        if (!reading || (rb_ar_ok(ar) && typed && rb_ar_at_end(ar))) return;
        char why[300] = "";
        gbx_rewind(ar, &mark, why, sizeof why);
        rb_ar_note(ar, "embedded item kept as bytes: %s", stopped[0] ? stopped : why);
    }
    /* a file's bytes (a blob, like the zip before it was typed), not bytes nothing knows */
    rb_ar_bytes(ar, "data", RB_K_BLOB, rb_ar_remaining(ar));
}

/* One local entry: its header, name, extra bytes and deflated content. */
static void local_entry(rb_ar *ar, zip_entries *z, uint64_t zip_start)
{
    zip_entry *e = next_entry(ar, z);
    if (!e) return;
    e->offset = (uint32_t)(rb_ar_tell(ar) - zip_start);
    rb_ar_record_begin(ar, NULL);
    rb_ar_expect(ar, "zip local entry signature", "PK\x03\x04", 4);
    e->version_needed = rb_ar_u16(ar, "versionNeeded");
    e->flags = rb_ar_u16(ar, "flags");
    e->method = rb_ar_u16(ar, "method");
    if (rb_ar_ok(ar) && (e->method != METHOD_DEFLATE || (e->flags & 8)))
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "zip entry: method %u, flags 0x%x (deflate without a data descriptor is typed)",
                   e->method, e->flags);
    e->time = rb_ar_u16(ar, "modTime");
    e->date = rb_ar_u16(ar, "modDate");
    rb_slot crc = rb_ar_slot(ar, "crc32", RB_U32);
    rb_slot compressed = rb_ar_slot(ar, "compressed size", RB_U32);
    rb_slot size = rb_ar_slot(ar, "size", RB_U32);
    rb_slot name_size = rb_ar_slot(ar, "name length", RB_U16);
    rb_slot extra_size = rb_ar_slot(ar, "extra length", RB_U16);
    const rb_node *name = rb_ar_bytes(ar, "name", RB_K_STRING, name_size.value);
    const rb_node *extra = rb_ar_bytes(ar, "extra", RB_K_BLOB, extra_size.value);
    if (name) {
        e->name = name->v.bytes.data;
        e->name_size = name->v.bytes.size;
        rb_ar_slot_set(ar, &name_size, name->v.bytes.size);
    }
    if (extra) rb_ar_slot_set(ar, &extra_size, extra->v.bytes.size);
    rb_ar_stream_begin(ar, "content", &rb_codec_deflate, size.value, compressed.value);
    entry_content(ar);
    rb_ar_stream_end_crc(ar, &size, &compressed, &crc);
    e->crc = (uint32_t)crc.value;
    e->compressed = (uint32_t)compressed.value;
    e->size = (uint32_t)size.value;
    rb_ar_record_end(ar);
}

/* The central directory entry of local entry `e`: every field derived. */
static void central_entry(rb_ar *ar, const zip_entry *e)
{
    rb_ar_expect(ar, "zip central entry signature", "PK\x01\x02", 4);
    derived(ar, "version made by", RB_U16, 0);
    derived(ar, "version needed", RB_U16, e->version_needed);
    derived(ar, "flags", RB_U16, e->flags);
    derived(ar, "method", RB_U16, e->method);
    derived(ar, "time", RB_U16, e->time);
    derived(ar, "date", RB_U16, e->date);
    derived(ar, "crc32", RB_U32, e->crc);
    derived(ar, "compressed size", RB_U32, e->compressed);
    derived(ar, "size", RB_U32, e->size);
    derived(ar, "name length", RB_U16, e->name_size);
    derived(ar, "extra length", RB_U16, 0);
    derived(ar, "comment length", RB_U16, 0);
    derived(ar, "disk", RB_U16, 0);
    derived(ar, "internal attributes", RB_U16, 0);
    derived(ar, "external attributes", RB_U32, 0);
    derived(ar, "local entry offset", RB_U32, e->offset);
    if (rb_ar_ok(ar) && e->name_size) rb_ar_expect(ar, "central entry name (the local entry's)", e->name, e->name_size);
}

static void typed_zip(rb_ar *ar, const char *key)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    zip_entries z = {0};
    rb_ar_sized_begin(ar, "embedded zip size", RB_U32);
    uint64_t zip_start = rb_ar_tell(ar);
    rb_ar_record_begin(ar, key);
    rb_ar_list_begin_open(ar, "files");
    for (;;) {
        uint32_t signature = 0;
        if (reading ? !rb_ar_peek_u32(ar, &signature) || signature != LOCAL_SIGNATURE : !rb_ar_list_has_more(ar)) break;
        local_entry(ar, &z, zip_start);
        if (!rb_ar_ok(ar)) break;
    }
    rb_ar_list_end(ar);
    uint64_t central_start = rb_ar_tell(ar) - zip_start;
    RB_AR_EACH(ar, i, z.count) central_entry(ar, &z.items[i]);
    uint64_t central_size = rb_ar_tell(ar) - zip_start - central_start;
    if (rb_ar_ok(ar) && z.count > 0xFFFF) rb_ar_fail(ar, RB_E_MODEL, "%zu files; a zip holds at most 65535", z.count);
    rb_ar_expect(ar, "zip end record signature", "PK\x05\x06", 4);
    derived(ar, "disk number", RB_U16, 0);
    derived(ar, "central directory disk", RB_U16, 0);
    derived(ar, "entries on this disk", RB_U16, z.count);
    derived(ar, "entries", RB_U16, z.count);
    derived(ar, "central directory size", RB_U32, central_size);
    derived(ar, "central directory offset", RB_U32, central_start);
    derived(ar, "zip comment length", RB_U16, 0);
    rb_ar_record_end(ar);
    rb_ar_sized_end(ar);
    free(z.items);
}

/* A u32 size and the zip's bytes, as they were before the zip was typed. */
static void zip_blob(rb_ar *ar, const char *key)
{
    rb_slot size = rb_ar_slot(ar, "embedded zip size", RB_U32);
    if (rb_ar_ok(ar) && rb_ar_direction(ar) == RB_AR_READ && size.value > rb_ar_remaining(ar)) {
        rb_ar_fail(ar, RB_E_FORMAT, "%s: %llu bytes, %llu left", key, (unsigned long long)size.value,
                   (unsigned long long)rb_ar_remaining(ar));
        return;
    }
    const rb_node *n = rb_ar_bytes(ar, key, RB_K_BLOB, size.value);
    if (n) rb_ar_slot_set(ar, &size, n->v.bytes.size);
}

void gbx_embedded_zip(rb_ar *ar, const char *key)
{
    if (rb_ar_direction(ar) != RB_AR_READ) {
        /* typed: a record with "files" (the model's, or the JSON's), else the blob */
        const rb_node *kept = rb_ar_direction(ar) == RB_AR_WRITE ? rb_node_get(rb_ar_current(ar), key) : NULL;
        const json_t *spelled = rb_ar_direction(ar) == RB_AR_FROM_JSON ? rb_ar_json_member(ar, key) : NULL;
        if (kept ? kept->kind == RB_K_RECORD : json_object_get(spelled, "files") != NULL)
            typed_zip(ar, key);
        else
            zip_blob(ar, key);
        return;
    }
    /* binary: a zip starts with a local entry; text: its lines decide (the typed read fails on a
     * blob's byte line and the blob is read instead) */
    uint32_t size = 0, signature = 0;
    int looks_typed = rb_ar_is_text(ar) || (rb_ar_peek_u32(ar, &size) && size >= 22 &&
                                            rb_ar_peek_u32_at(ar, 4, &signature) && signature == LOCAL_SIGNATURE);
    if (looks_typed) {
        gbx_mark mark = gbx_mark_here(ar);
        typed_zip(ar, key);
        if (rb_ar_ok(ar)) return;
        char why[300];
        gbx_rewind(ar, &mark, why, sizeof why);
        rb_ar_note(ar, "embedded items zip kept as one blob: %s", why);
    }
    zip_blob(ar, key);
}
