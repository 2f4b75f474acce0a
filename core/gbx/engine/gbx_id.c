/*
 * GBX lookback strings ("ids") and the small GBX primitives.
 *
 * The model keeps each id's value (string, number or empty). How it is stored — in full or as
 * a back-reference into the scope's table, and the scope's version word before its first id —
 * is derived on write from the table, exactly as the reader sees it. When a file stored an id
 * differently from what the derivation gives (bit-31 definitions in older maps, a string
 * defined twice), the reader records that in the node's flags and the writer reproduces it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/hash64.h"
#include "core/archive/archive_text.h"
#include "core/json/json.h"
#include "core/gbx/engine/gbx_internal.h"

enum { ID_EMPTY_RAW = 0xFFFFFFFFu, ID_FLAG_MASK = 0xC0000000u, ID_BIT30 = 0x40000000u, ID_BIT31 = 0x80000000u };

gbx_ctx *gbx_ctx_of(rb_ar *ar) { return rb_ar_user(ar); }

void gbx_ctx_free(gbx_ctx *ctx)
{
    if (!ctx) return;
    for (size_t i = 0; i < sizeof ctx->scopes / sizeof ctx->scopes[0]; i++) free(ctx->scopes[i].entries);
    free(ctx->node_seen);
    free(ctx->node_log);
    free(ctx);
}

static gbx_id_scope *scope(rb_ar *ar) { return &gbx_ctx_of(ar)->scopes[gbx_ctx_of(ar)->scope_count - 1]; }

void gbx_scope_push(rb_ar *ar)
{
    gbx_ctx *ctx = gbx_ctx_of(ar);
    if (ctx->scope_count >= sizeof ctx->scopes / sizeof ctx->scopes[0]) {
        rb_ar_fail(ar, RB_E_LIMIT, "id scopes nested more than %zu deep", sizeof ctx->scopes / sizeof ctx->scopes[0]);
        return;
    }
    gbx_id_scope *s = &ctx->scopes[ctx->scope_count++];
    s->count = 0;
    s->version_seen = 0;
}

void gbx_scope_pop(rb_ar *ar)
{
    gbx_ctx *ctx = gbx_ctx_of(ar);
    if (ctx->scope_count > 1) ctx->scope_count--;
}

/* ---------- the scope's string table, with a hash index ----------
 * Every id looks its string up in the table, so a linear search made a scope quadratic. Big
 * scopes get an open-addressing index of the first slot of each string. It lives in the same
 * allocation as the entries (after `cap` of them), since the scope struct has no field for it.
 * Speculative reads cut the table back (gbx_rewind sets `count`) and reused scopes restart at
 * zero: the index remembers the count it describes and is rebuilt when that no longer holds. */
enum { ID_LINEAR_MAX = 16 }; /* up to this many entries a scan is as fast */

typedef struct id_index {
    size_t live; /* the count of entries the index describes; SIZE_MAX = stale */
    size_t mask; /* slots - 1 */
    uint32_t slots[]; /* entry index + 1; 0 = empty */
} id_index;

static size_t index_slots(size_t cap) { return cap * 2; } /* cap is a power of two: so is this */

static id_index *index_of(const gbx_id_scope *s) { return (id_index *)(void *)(s->entries + s->cap); }

static uint32_t hash_string(const uint8_t *data, size_t size) { return (uint32_t)rb_hash_words(data, size); }

static int entry_is(const gbx_id_entry *e, const uint8_t *data, size_t size)
{
    return e->size == size && memcmp(e->data, data, size) == 0;
}

static long index_find(const gbx_id_scope *s, const id_index *x, const uint8_t *data, size_t size, size_t *slot)
{
    size_t i = hash_string(data, size) & x->mask;
    for (; x->slots[i]; i = (i + 1) & x->mask)
        if (entry_is(&s->entries[x->slots[i] - 1], data, size)) break;
    *slot = i;
    return x->slots[i] ? (long)x->slots[i] - 1 : -1;
}

/* The index for the scope's current entries (NULL for a small scope, which is scanned). */
static const id_index *synced_index(const gbx_id_scope *s)
{
    if (s->count <= ID_LINEAR_MAX) return NULL;
    id_index *x = index_of(s);
    if (x->live == s->count) return x;
    memset(x->slots, 0, (x->mask + 1) * sizeof x->slots[0]);
    for (size_t i = 0; i < s->count; i++) {
        size_t slot;
        if (index_find(s, x, s->entries[i].data, s->entries[i].size, &slot) < 0) x->slots[slot] = (uint32_t)i + 1;
    }
    x->live = s->count;
    return x;
}

static long scan_find(const gbx_id_scope *s, const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < s->count; i++)
        if (entry_is(&s->entries[i], data, size)) return (long)i;
    return -1;
}

/* The slot a writer refers to for this string: the first with it (-1 if none). */
static long find_id(const gbx_id_scope *s, const uint8_t *data, size_t size)
{
    size_t slot;
    const id_index *x = synced_index(s);
    return x ? index_find(s, x, data, size, &slot) : scan_find(s, data, size);
}

static int grow_table(rb_ar *ar, gbx_id_scope *s)
{
    size_t cap = s->cap ? s->cap * 2 : 64;
    if (cap > UINT32_MAX / 2) { rb_ar_fail(ar, RB_E_LIMIT, "more than %zu lookback strings", s->cap); return 0; }
    size_t bytes = cap * sizeof(gbx_id_entry) + sizeof(id_index) + index_slots(cap) * sizeof(uint32_t);
    gbx_id_entry *e = realloc(s->entries, bytes);
    if (!e) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return 0; }
    s->entries = e;
    s->cap = cap;
    id_index *x = index_of(s);
    x->live = SIZE_MAX; /* moved and resized: rebuilt on next use */
    x->mask = index_slots(cap) - 1;
    return 1;
}

static int add_id_to(rb_ar *ar, gbx_id_scope *s, const uint8_t *data, size_t size)
{
    if (s->count == s->cap && !grow_table(ar, s)) return 0;
    const id_index *synced = synced_index(s);
    id_index *x = index_of(s);
    size_t slot;
    long earlier = synced ? index_find(s, x, data, size, &slot) : scan_find(s, data, size);
    if (synced && earlier < 0) x->slots[slot] = (uint32_t)s->count + 1;
    s->entries[s->count] = (gbx_id_entry){.data = data, .size = (uint32_t)size, .first = earlier < 0};
    s->count++;
    /* an index kept in step stays valid; one skipped while the scope was small is stale */
    x->live = synced ? s->count : SIZE_MAX;
    return 1;
}

static int add_id(rb_ar *ar, const uint8_t *data, size_t size) { return add_id_to(ar, scope(ar), data, size); }

gbx_id_scope *gbx_scope(rb_ar *ar) { return scope(ar); }
int gbx_scope_add(rb_ar *ar, gbx_id_scope *s, const uint8_t *data, size_t size) { return add_id_to(ar, s, data, size); }

int gbx_scope_copy(rb_ar *ar, gbx_id_scope *to, const gbx_id_scope *from)
{
    if (to->cap || !from->cap) { /* not fresh, or nothing to copy: one string at a time */
        for (size_t i = to->count; i < from->count; i++)
            if (!add_id_to(ar, to, from->entries[i].data, from->entries[i].size)) return 0;
        to->version_seen = from->version_seen;
        return 1;
    }
    /* the entries and their index are one block (index_of): copied as it is, nothing hashed again */
    size_t bytes = from->cap * sizeof(gbx_id_entry) + sizeof(id_index) + index_slots(from->cap) * sizeof(uint32_t);
    gbx_id_entry *e = malloc(bytes);
    if (!e) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return 0; }
    memcpy(e, from->entries, bytes);
    to->entries = e;
    to->cap = from->cap;
    to->count = from->count;
    to->version_seen = from->version_seen;
    return 1;
}

/* ---------- deferred chunks: the ids they define ---------- */

size_t gbx_id_count(rb_ar *ar, int *version_seen)
{
    *version_seen = scope(ar)->version_seen;
    return scope(ar)->count;
}

rb_node *gbx_defer_ids(rb_ar *ar, const rb_ar_unit *unit, size_t ids_before, int version_seen_before)
{
    const gbx_id_scope *s = scope(ar);
    uint32_t flags = !version_seen_before && s->version_seen ? GBX_UNIT_READ_ID_VERSION : 0;
    size_t defined = s->count - ids_before;
    const gbx_id_entry *first = defined ? s->entries + ids_before : NULL; /* no scope yet: entries is NULL */
    return rb_ar_unit_defer(ar, unit, first, defined * sizeof *s->entries, (uint32_t)defined, flags);
}

/* A deferred unit's start, for reading it again alone (gbx_unit.c). Out of memory here costs
 * only that: the start stays NULL, and the document is read again in full instead. */
/* Two units with equal bytes hold equal nodes when they begin with the same state (what
 * gbx_read_unit restores): the same strings in their scope, in order, the same scope depth and
 * version word, the same node indices defined before them and the same reference table, and the
 * same list description. A unit whose bytes are equal but whose start differs (an earlier unit
 * defined other strings) may mean other values (docs/usage.md "Diffs"). */
static int same_strings(const gbx_id_entry *a, const gbx_id_entry *b, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (a[i].size != b[i].size || (a[i].size && memcmp(a[i].data, b[i].data, a[i].size) != 0)) return 0;
    return 1;
}

static int same_words(const uint32_t *a, const uint32_t *b, size_t count)
{
    return !count || memcmp(a, b, count * sizeof *a) == 0;
}

/* A list unit's description is a copy of one static description: equal copies are the same one.
 * Compared member by member: the copy's padding (after `argument`) is whatever the original's
 * was, so a memcmp of the whole struct could call two copies of one description different. */
static int same_list_description(const gbx_list *a, const gbx_list *b)
{
    if (!a || !b) return !a == !b;
    return a->key == b->key && a->min_element_bytes == b->min_element_bytes && a->element == b->element &&
           a->argument == b->argument && a->counted == b->counted;
}

static int gbx_same_unit_start(const rb_deferred *x, const rb_deferred *y)
{
    const gbx_unit_start *a = x->start, *b = y->start;
    if (!a || !b || !a->read_end->complete || !b->read_end->complete) return 0;
    const gbx_read_end *ea = a->read_end, *eb = b->read_end;
    if (ea->classes != eb->classes || a->scope_depth != b->scope_depth || a->version_seen != b->version_seen ||
        a->id_count != b->id_count || a->node_log != b->node_log || ea->external_count != eb->external_count)
        return 0;
    if (!same_list_description(a->list, b->list)) return 0;
    const gbx_id_entry *ids_a = a->scope_depth == 1 ? ea->body_ids : a->scope_ids;
    const gbx_id_entry *ids_b = b->scope_depth == 1 ? eb->body_ids : b->scope_ids;
    return same_strings(ids_a, ids_b, a->id_count) && same_words(ea->node_log, eb->node_log, a->node_log) &&
           same_words(ea->external_nodes, eb->external_nodes, ea->external_count);
}

void gbx_unit_remember_start(rb_ar *ar, rb_node *unit, const gbx_mark *start, const gbx_list *list)
{
    gbx_ctx *ctx = gbx_ctx_of(ar);
    rb_arena *arena = rb_ar_arena(ar);
    if (!ctx->read_end || start->scope_count != ctx->scope_count) return;
    gbx_unit_start *s = rb_arena_alloc(arena, sizeof *s);
    if (!s) return;
    s->read_end = ctx->read_end;
    s->scope_depth = (uint8_t)start->scope_count;
    s->id_count = (uint32_t)start->id_count;
    s->version_seen = (uint8_t)start->version_seen;
    s->node_log = (uint32_t)start->node_log;
    if (s->scope_depth > 1 && s->id_count) {
        const gbx_id_scope *scope = &ctx->scopes[ctx->scope_count - 1];
        s->scope_ids = rb_arena_dup(arena, scope->entries, s->id_count * sizeof *scope->entries);
        if (!s->scope_ids) return;
    }
    if (list && !(s->list = rb_arena_dup(arena, list, sizeof *list))) return;
    unit->deferred->start = s;
    unit->deferred->same_start = gbx_same_unit_start;
}

/* What writing the unit's nodes would have done to the scope: the same strings added in the
 * same order (definitions, redefinitions included, as read_id and write_id add them). */
void gbx_replay_ids(rb_ar *ar, const rb_node *unit)
{
    const rb_deferred *d = unit->deferred;
    const gbx_id_entry *defined = d->replay;
    RB_AR_EACH(ar, i, d->replay_count) add_id(ar, defined[i].data, defined[i].size);
    if (d->flags & GBX_UNIT_READ_ID_VERSION) scope(ar)->version_seen = 1;
}

/* A unit read again alone: its scope holds the strings it held when the unit began. */
int gbx_restore_scope(rb_ar *ar, const gbx_unit_start *start)
{
    const gbx_id_entry *ids = start->scope_depth == 1 ? start->read_end->body_ids : start->scope_ids;
    for (uint32_t i = 0; i < start->id_count; i++)
        if (!add_id(ar, ids[i].data, ids[i].size)) return 0;
    scope(ar)->version_seen = start->version_seen;
    return 1;
}

/* The version word before a scope's first id. */
static int read_version(rb_ar *ar, rb_node *n, const char *key)
{
    gbx_id_scope *s = scope(ar);
    if (s->version_seen) return 1;
    uint64_t word = 0;
    if (!rb_ar_take_uint(ar, key, RB_U32, &word)) return 0;
    uint32_t version = (uint32_t)word;
    if (version != GBX_ID_VERSION) {
        if (version > 0xFFFF) {
            rb_ar_fail_field(ar, RB_E_FORMAT, key, "lookback-string version %u is not supported (3 is)", version);
            return 0;
        }
        n->aux |= RB_IDF_VERSION | version << 16;
    }
    s->version_seen = 1;
    return 1;
}

/* The id's u32. Text GBX spells it as 8 hex digits ("40000000" before a new string, "40000003"
 * for the third, "0000001A" for a number), the empty id as 4294967295 (docs/formats/gbx_text.md
 * "Layout"). */
static int take_raw_id(rb_ar *ar, const char *key, uint32_t *raw)
{
    if (!rb_ar_is_text(ar)) {
        const uint8_t *p = rb_ar_take(ar, key, 4);
        if (!p) return 0;
        *raw = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        return 1;
    }
    size_t len = 0;
    uint64_t value = 0;
    const uint8_t *line = rb_ar_take_line(ar, key, &len);
    if (!line) return 0;
    char spelled[RB_TEXT_NUMBER_MAX];
    if (len == 10 && memcmp(line, "4294967295", 10) == 0) value = ID_EMPTY_RAW;
    /* only as the writer spells it (upper-case hex, none as 4294967295): another spelling would
     * not be written back byte for byte (found by fuzz_reader) */
    else if (!rb_text_parse_uint(line, len, RB_X32, &value) || value == ID_EMPTY_RAW ||
             memcmp(spelled, line, rb_text_spell_uint(spelled, value, RB_X32)) != 0) {
        rb_ar_fail_field(ar, RB_E_FORMAT, key, "the line before is not an id (8 hex digits, or 4294967295 for none)");
        return 0;
    }
    *raw = (uint32_t)value;
    return 1;
}

/* A new id's string: i32 length + bytes (text: its line). */
static const uint8_t *take_id_string(rb_ar *ar, const char *key, size_t *size)
{
    if (rb_ar_is_text(ar)) return rb_ar_take_lstring(ar, key, RB_I32, size);
    const uint8_t *len = rb_ar_take(ar, key, 4);
    if (!len) return NULL;
    int32_t length = (int32_t)((uint32_t)len[0] | (uint32_t)len[1] << 8 | (uint32_t)len[2] << 16 | (uint32_t)len[3] << 24);
    if (length < 0 || (uint64_t)length > rb_ar_remaining(ar)) {
        rb_ar_fail_field(ar, RB_E_FORMAT, key, "id string length %d exceeds the %llu bytes left", length,
                         (unsigned long long)rb_ar_remaining(ar));
        return NULL;
    }
    *size = (size_t)length;
    return rb_ar_take(ar, key, (uint64_t)length);
}

static void read_id(rb_ar *ar, rb_node *n, const char *key)
{
    if (!read_version(ar, n, key)) return;
    uint32_t raw = 0;
    if (!take_raw_id(ar, key, &raw)) return;
    uint32_t flags = raw & ID_FLAG_MASK;
    if (raw == ID_EMPTY_RAW) {
        n->wire = RB_ID_EMPTY;
    } else if (flags == 0 || flags == ID_FLAG_MASK) {
        n->wire = RB_ID_NUMBER;
        n->v.bits = raw;
    } else if ((raw & ~ID_FLAG_MASK) == 0) { /* a new string follows */
        size_t size = 0;
        const uint8_t *data = take_id_string(ar, key, &size);
        if (!data) return;
        n->wire = RB_ID_STRING;
        n->v.bytes.data = data;
        n->v.bytes.size = size;
        if (flags == ID_BIT31) n->aux |= RB_IDF_DEF31;
        if (find_id(scope(ar), data, size) >= 0) n->aux |= RB_IDF_REDEFINED;
        add_id(ar, data, size);
    } else {
        uint32_t index = raw & ~ID_FLAG_MASK;
        gbx_id_scope *s = scope(ar);
        if (index > s->count) {
            rb_ar_fail_field(ar, RB_E_FORMAT, key, "id back-reference %u, but only %zu strings are defined", index,
                             s->count);
            return;
        }
        const gbx_id_entry *e = &s->entries[index - 1];
        n->wire = RB_ID_STRING;
        n->v.bytes.data = e->data;
        n->v.bytes.size = e->size;
        if (flags == ID_BIT31) n->aux |= RB_IDF_REF31;
        if (!e->first) { /* not the slot a writer refers to (find_id) */
            n->aux |= RB_IDF_REF_INDEX;
            n->aux2 = index;
        }
    }
    rb_ar_note_size(ar, n);
}

static void write_id(rb_ar *ar, const rb_node *n)
{
    gbx_id_scope *s = scope(ar);
    if (!s->version_seen) {
        rb_ar_emit_uint(ar, (n->aux & RB_IDF_VERSION) ? n->aux >> 16 : GBX_ID_VERSION, RB_U32);
        s->version_seen = 1;
    }
    if (n->wire == RB_ID_EMPTY) { rb_ar_emit_uint(ar, ID_EMPTY_RAW, RB_U32); return; }
    if (n->wire == RB_ID_NUMBER) { rb_ar_emit_uint(ar, n->v.bits, RB_X32); return; }
    long slot = find_id(s, n->v.bytes.data, n->v.bytes.size);
    if (slot < 0 || (n->aux & RB_IDF_REDEFINED)) {
        rb_ar_emit_uint(ar, (n->aux & RB_IDF_DEF31) ? ID_BIT31 : ID_BIT30, RB_X32);
        rb_ar_emit_lstring(ar, n->v.bytes.data, n->v.bytes.size, RB_U32);
        add_id(ar, n->v.bytes.data, n->v.bytes.size);
        return;
    }
    uint32_t index = (uint32_t)slot + 1;
    /* the recorded slot only while it still holds this string (an edit makes it derived again) */
    if ((n->aux & RB_IDF_REF_INDEX) && n->aux2 >= 1 && n->aux2 <= s->count) {
        const gbx_id_entry *e = &s->entries[n->aux2 - 1];
        if (e->size == n->v.bytes.size && memcmp(e->data, n->v.bytes.data, e->size) == 0) index = n->aux2;
    }
    rb_ar_emit_uint(ar, ((n->aux & RB_IDF_REF31) ? ID_BIT31 : ID_BIT30) | index, RB_X32);
}

/* What write_id will do to the scope, done as the id is built: in a deferring build the scope
 * at each unit is then the writer's there (gbx_built.c). */
static void track_written_id(rb_ar *ar, const rb_node *n)
{
    gbx_id_scope *s = scope(ar);
    s->version_seen = 1;
    if (n->wire == RB_ID_STRING && (find_id(s, n->v.bytes.data, n->v.bytes.size) < 0 || (n->aux & RB_IDF_REDEFINED)))
        add_id(ar, n->v.bytes.data, n->v.bytes.size);
}

static void id_from_json(rb_ar *ar, rb_node *n, const json_t *v, const char *key)
{
    char why[160];
    if (!rb_json_to_id(rb_ar_arena(ar), v, n, why, sizeof why)) rb_ar_fail_field(ar, RB_E_MODEL, key, "%s", why);
    else if (gbx_ctx_of(ar)->deferring) track_written_id(ar, n);
}

void gbx_id(rb_ar *ar, const char *key)
{
    json_t *jv = NULL;
    rb_node *n = rb_ar_field(ar, key, RB_K_ID, 0, &jv);
    if (!n) return;
    switch (rb_ar_direction(ar)) {
    case RB_AR_READ: read_id(ar, n, key); break;
    case RB_AR_WRITE: write_id(ar, n); break;
    case RB_AR_FROM_JSON: id_from_json(ar, n, jv, key); break;
    }
}

/* ---------- small primitives ---------- */

void gbx_string(rb_ar *ar, const char *key) { rb_ar_string(ar, key, RB_I32); }

uint32_t gbx_bool(rb_ar *ar, const char *key) { return rb_ar_bool(ar, key, 4); }

void gbx_meta(rb_ar *ar, const char *key)
{
    rb_ar_record_begin(ar, key);
    gbx_id(ar, "id");
    gbx_id(ar, "collection");
    gbx_id(ar, "author");
    rb_ar_record_end(ar);
}

void gbx_fileref(rb_ar *ar, const char *key)
{
    rb_ar_record_begin(ar, key);
    uint8_t version = rb_ar_u8(ar, "version");
    if (version >= 3) rb_ar_fixed_string(ar, "checksum", 32);
    const rb_node *path = rb_ar_string(ar, "filePath", RB_I32);
    int has_path = path && path->v.bytes.size > 0;
    if ((has_path && version >= 1) || version >= 3) gbx_string(ar, "locatorUrl");
    rb_ar_record_end(ar);
}

/* Bare numbers: short fixed-length vectors and counted lists are tables (packed, one node each). */
static const rb_layout_field F32_FIELD[] = {{NULL, RB_K_FLOAT, 4}};
static const rb_layout F32_ELEMENT = {"float", F32_FIELD, 1};
static const rb_layout_field I32_FIELD[] = {{NULL, RB_K_INT, RB_I32}};
static const rb_layout I32_ELEMENT = {"int32", I32_FIELD, 1};
static const rb_layout_field U8_FIELD[] = {{NULL, RB_K_INT, RB_U8}};
static const rb_layout U8_ELEMENT = {"byte", U8_FIELD, 1};

/* A vector of exactly `count` numbers (a position, a block coordinate). */
static void fixed_numbers(rb_ar *ar, const char *key, uint64_t count, const rb_layout *element)
{
    uint64_t n = rb_ar_table_n(ar, key, count, element);
    if (rb_ar_ok(ar) && n != count)
        rb_ar_fail(ar, RB_E_MODEL, "needs exactly %llu numbers (%s), has %llu", (unsigned long long)count,
                   element->name, (unsigned long long)n);
}

void gbx_floats(rb_ar *ar, const char *key, int count) { fixed_numbers(ar, key, (uint64_t)count, &F32_ELEMENT); }
void gbx_vec2(rb_ar *ar, const char *key) { gbx_floats(ar, key, 2); }
void gbx_vec3(rb_ar *ar, const char *key) { gbx_floats(ar, key, 3); }
void gbx_int3(rb_ar *ar, const char *key) { fixed_numbers(ar, key, 3, &I32_ELEMENT); }
void gbx_byte3(rb_ar *ar, const char *key) { fixed_numbers(ar, key, 3, &U8_ELEMENT); }

/* ---------- counted lists (u32 count, derived on write) ---------- */

void gbx_i32_list(rb_ar *ar, const char *key) { rb_ar_table(ar, key, RB_U32, &I32_ELEMENT); }

void gbx_string_list(rb_ar *ar, const char *key)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, key, RB_U32, 4)) gbx_string(ar, NULL);
}

void gbx_fileref_list(rb_ar *ar, const char *key)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, key, RB_U32, 5)) gbx_fileref(ar, NULL);
}

void gbx_int3_list(rb_ar *ar, const char *key)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, key, RB_U32, 12)) gbx_int3(ar, NULL);
}
