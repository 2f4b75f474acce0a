/*
 * The model's JSON view, spelled once (the spellings: json.c's head comment) and walked into an
 * emitter (json_emit.h): printed as it goes for `dump`, or built as a jansson tree for the callers
 * that edit or compare JSON (rb_model_to_json).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "core/model/doc_state.h"
#include "core/error.h"
#include "core/json/json.h"
#include "core/json/json_emit.h"

enum { WALK_MAX_CHAIN = 64 };

typedef struct model_walk {
    rb_json_emitter *e;
    const rb_doc *doc;
    rb_blob_mode mode;
    rb_blob_to_file to_file;
    void *to_file_context;
    /* a dump of a document with deferred units (rb_doc_emit): each unit is read again alone into
     * `units` when the walk meets it, printed, and its memory reset (archive_unit.h); `chain`
     * holds the containers walked into, outermost first, for the unit's description */
    int units_alone;
    rb_arena units;
    const rb_node *chain[WALK_MAX_CHAIN];
    size_t depth;
    rb_error *err;
} model_walk;

static void walk(model_walk *w, const rb_node *n, const char *key);

static int utf8_valid(const uint8_t *s, size_t n)
{
    /* jansson's own check, so a string shown as text is one jansson reads back */
    json_t *probe = json_stringn((const char *)s, n);
    if (!probe) return 0;
    json_decref(probe);
    return 1;
}

/* ---------- small objects ---------- */

static void member_string(rb_json_emitter *e, const char *key, const char *s)
{
    e->ops->key(e, key);
    e->ops->string(e, s, strlen(s));
}

static void member_integer(rb_json_emitter *e, const char *key, json_int_t v)
{
    e->ops->key(e, key);
    e->ops->integer(e, v);
}

static void emit_hex(rb_json_emitter *e, const uint8_t *data, size_t size)
{
    static const char DIGITS[] = "0123456789abcdef";
    char *hex = malloc(size * 2 + 1);
    if (!hex) { e->failed = 1; return; }
    for (size_t i = 0; i < size; i++) {
        hex[2 * i] = DIGITS[data[i] >> 4];
        hex[2 * i + 1] = DIGITS[data[i] & 15];
    }
    hex[size * 2] = 0;
    if (e->ops->begin(e, 1, 1, 0)) {
        member_string(e, "$hex", hex);
        e->ops->end(e);
    }
    free(hex);
}

static void emit_base64(rb_json_emitter *e, const uint8_t *data, size_t size)
{
    char *b = malloc(4 * ((size + 2) / 3) + 1);
    if (!b) { e->failed = 1; return; }
    size_t length = rb_base64_encode(data, size, b);
    if (e->ops->begin(e, 1, 1, 0)) {
        e->ops->key(e, "$base64");
        e->ops->string(e, b, length);
        e->ops->end(e);
    }
    free(b);
}

static void emit_crc(rb_json_emitter *e, const char *key, uint32_t crc)
{
    char text[16];
    snprintf(text, sizeof text, "0x%08" PRIx32, crc);
    member_string(e, key, text);
}

/* ---------- values ---------- */

static void emit_file(model_walk *w, const char *key, const uint8_t *data, size_t size)
{
    const char *name = w->to_file(w->to_file_context, key, data, size);
    if (!name) { w->e->failed = 1; return; }
    if (w->e->ops->begin(w->e, 1, 1, 0)) {
        member_string(w->e, "$file", name);
        w->e->ops->end(w->e);
    }
}

static void emit_blob(model_walk *w, const rb_node *n, rb_blob_mode mode, const char *key)
{
    rb_json_emitter *e = w->e;
    const uint8_t *data = n->v.bytes.data;
    size_t size = n->v.bytes.size;
    if (w->to_file) { emit_file(w, key, data, size); return; }
    if (mode == RB_BLOBS_OMIT) {
        if (e->ops->begin(e, 1, 1, 0)) {
            member_integer(e, "$omitted", (json_int_t)size);
            e->ops->end(e);
        }
        return;
    }
    const rb_doc *doc = w->doc;
    int in_source = doc && n->section < doc->section_count && n->src_size == size &&
                    doc->sections[n->section].data + n->src_offset == data;
    if (mode == RB_BLOBS_BASE64 || !in_source) { emit_base64(e, data, size); return; }
    if (!e->ops->begin(e, 1, 1, 0)) return;
    e->ops->key(e, "$blob");
    if (e->ops->begin(e, 1, 4, 0)) {
        member_string(e, "section", doc->sections[n->section].name);
        member_integer(e, "offset", (json_int_t)n->src_offset);
        member_integer(e, "size", (json_int_t)size);
        emit_crc(e, "crc32", (uint32_t)crc32(0, data, (uInt)size));
        e->ops->end(e);
    }
    e->ops->end(e);
}

/* A symbol handle as its text when the format gives one that leads back to it alone. */
static int emit_symbol(model_walk *w, const rb_node *n)
{
    size_t length = 0;
    const rb_doc *doc = w->doc;
    const char *text = doc && doc->format->symbol_text ? doc->format->symbol_text(doc, (uint32_t)n->v.bits, &length) : NULL;
    if (text) w->e->ops->string(w->e, text, length);
    return text != NULL;
}

static void emit_int(model_walk *w, const rb_node *n)
{
    rb_json_emitter *e = w->e;
    unsigned width = n->wire & RB_W_WIDTH;
    char s[24];
    if (RB_WIRE_IS_SYMBOL(n->wire) && emit_symbol(w, n)) return;
    if (n->wire & RB_W_HEX) {
        snprintf(s, sizeof s, "0x%0*" PRIX64, (int)width * 2, n->v.bits);
        e->ops->string(e, s, strlen(s));
    } else if ((n->wire & RB_W_CHAR) && n->v.bits >= 0x21 && n->v.bits < 0x7f) {
        s[0] = (char)n->v.bits;
        e->ops->string(e, s, 1);
    } else if (n->wire & RB_W_SIGNED) {
        e->ops->integer(e, rb_node_int(n));
    } else if (n->v.bits > (uint64_t)INT64_MAX) {
        snprintf(s, sizeof s, "%" PRIu64, n->v.bits);
        e->ops->string(e, s, strlen(s));
    } else {
        e->ops->integer(e, (json_int_t)n->v.bits);
    }
}

/* A real whose shortest spelling is `text` (the printer finds the same spelling again); the
 * values JSON numbers cannot carry exactly as strings. */
static void emit_float(rb_json_emitter *e, const rb_node *n)
{
    char s[48];
    if ((n->wire & RB_W_WIDTH) == 4) rb_format_f32((uint32_t)n->v.bits, s, sizeof s);
    else rb_format_f64(n->v.bits, s, sizeof s);
    if (strchr(s, 'N') || strchr(s, 'I') || strcmp(s, "-0.0") == 0) e->ops->string(e, s, strlen(s));
    else e->ops->real(e, strtod(s, NULL));
}

static void emit_text(rb_json_emitter *e, const uint8_t *data, size_t size)
{
    if (utf8_valid(data, size)) e->ops->string(e, (const char *)data, size);
    else emit_hex(e, data, size);
}

static void emit_stream_meta(model_walk *w, const rb_node *n)
{
    rb_json_emitter *e = w->e;
    const rb_stream_info *s = rb_stream_digests(n->stream);
    if (!e->ops->begin(e, 1, s->original ? 5 : 4, 0)) return;
    member_string(e, "codec", s->codec);
    member_integer(e, "content_size", (json_int_t)s->content_size);
    emit_crc(e, "content_crc32", s->content_crc32);
    emit_crc(e, "content_adler32", s->content_adler32);
    if (s->original) {
        /* the original encoded bytes, so an unchanged model writes them back exactly */
        rb_node orig = {.kind = RB_K_BLOB, .section = n->section, .src_offset = n->src_offset,
                        .src_size = s->original_size};
        orig.v.bytes.data = s->original;
        orig.v.bytes.size = s->original_size;
        e->ops->key(e, "original");
        emit_blob(w, &orig, w->mode == RB_BLOBS_OMIT ? RB_BLOBS_REF : w->mode, "original");
    }
    e->ops->end(e);
}

static void emit_plain_id(rb_json_emitter *e, const rb_node *n)
{
    if (n->wire == RB_ID_EMPTY) e->ops->literal(e, JSON_NULL);
    else if (n->wire == RB_ID_NUMBER) e->ops->integer(e, (json_int_t)n->v.bits);
    else emit_text(e, n->v.bytes.data, n->v.bytes.size);
}

/* Ids: "Name", 26 (a number), null (empty); how they were stored only when it is not what a
 * writer derives: {"$id": "Name", "def31": true, ...}. */
static void emit_id(rb_json_emitter *e, const rb_node *n)
{
    if (!n->aux) { emit_plain_id(e, n); return; }
    size_t count = 1 + !!(n->aux & RB_IDF_DEF31) + !!(n->aux & RB_IDF_REDEFINED) + !!(n->aux & RB_IDF_REF31) +
                   !!(n->aux & RB_IDF_REF_INDEX) + !!(n->aux & RB_IDF_VERSION);
    if (!e->ops->begin(e, 1, count, 0)) return;
    e->ops->key(e, "$id");
    emit_plain_id(e, n);
    if (n->aux & RB_IDF_DEF31) { e->ops->key(e, "def31"); e->ops->literal(e, JSON_TRUE); }
    if (n->aux & RB_IDF_REDEFINED) { e->ops->key(e, "redefined"); e->ops->literal(e, JSON_TRUE); }
    if (n->aux & RB_IDF_REF31) { e->ops->key(e, "ref31"); e->ops->literal(e, JSON_TRUE); }
    if (n->aux & RB_IDF_REF_INDEX) member_integer(e, "refIndex", n->aux2);
    if (n->aux & RB_IDF_VERSION) member_integer(e, "idVersion", n->aux >> 16);
    e->ops->end(e);
}

/* ---------- containers ---------- */

/* Does `n` show as an object or array? (A list of up to four values that do not stays on one line.) */
static int shows_as_container(const rb_node *n)
{
    switch (n->kind) {
    case RB_K_INT:
    case RB_K_FLOAT:
    case RB_K_BOOL:
        return 0;
    case RB_K_STRING:
        return !utf8_valid(n->v.bytes.data, n->v.bytes.size);
    case RB_K_ID:
        return n->aux || (n->wire != RB_ID_EMPTY && n->wire != RB_ID_NUMBER &&
                          !utf8_valid(n->v.bytes.data, n->v.bytes.size));
    default:
        return 1;
    }
}

static int list_is_flat(const rb_node *n)
{
    size_t count = n->v.kids.count;
    if (count == 0 || count > 4) return count == 0;
    for (size_t i = 0; i < count; i++)
        if (shows_as_container(n->v.kids.items[i])) return 0;
    return 1;
}

/* A table is shown as the list it stands for: each element built as nodes (on the stack) and
 * shown like any other, so the JSON does not depend on how the model holds it. */
static void walk_table(model_walk *w, const rb_node *n, const char *key)
{
    rb_node nodes[RB_LAYOUT_MAX_FIELDS + 1];
    rb_node *kids[RB_LAYOUT_MAX_FIELDS];
    size_t count = n->table->count;
    int flat = count == 0;
    if (count && count <= 4) {
        flat = 1;
        for (size_t i = 0; i < count && flat; i++) flat = !shows_as_container(rb_table_element(n, i, nodes, kids));
    }
    if (!w->e->ops->begin(w->e, 0, count, flat)) return;
    for (size_t i = 0; i < count && !w->e->failed; i++) walk(w, rb_table_element(n, i, nodes, kids), key);
    w->e->ops->end(w->e);
}

/* ---------- deferred units (a dump of a deferred read) ---------- */

static void chain_push(model_walk *w, const rb_node *n)
{
    if (w->depth < WALK_MAX_CHAIN) w->chain[w->depth] = n;
    w->depth++;
}

static void chain_pop(model_walk *w) { w->depth--; }

/* Child `index` of `parent` (the innermost container walked into), a deferred unit: read again
 * alone with the state it began with, walked like the nodes a full read gives, then let go. */
static void walk_unit(model_walk *w, const rb_node *parent, size_t index, const char *key)
{
    const rb_node *above[WALK_MAX_CHAIN];
    size_t count = 0;
    if (w->depth > WALK_MAX_CHAIN) {
        rb_error_set(w->err, RB_E_LIMIT, w->doc->file_name, NULL, "a deferred unit nested too deep to be read alone");
        w->e->failed = 1;
        return;
    }
    for (size_t i = w->depth - 1; i-- > 0;) above[count++] = w->chain[i];
    rb_unit_place place = {parent->v.kids.items[index], parent, index, above, count};
    const rb_node *n = w->doc->expand_unit(w->doc, &place, &w->units, w->err);
    if (n) walk(w, n, key);
    else w->e->failed = 1;
    rb_arena_recycle(&w->units); /* the next unit reuses the memory (freeing it cost a third more CPU) */
}

/* Child `index` of container `n`: a unit kept as its bytes is read again when the walk may. */
static void walk_child(model_walk *w, const rb_node *n, size_t index, const char *key)
{
    const rb_node *c = n->v.kids.items[index];
    if (c->kind == RB_K_DEFERRED && w->units_alone) walk_unit(w, n, index, key);
    else walk(w, c, key);
}

static void walk_members(model_walk *w, const rb_node *n)
{
    chain_push(w, n);
    for (size_t i = 0; i < n->v.kids.count && !w->e->failed; i++) {
        const rb_node *c = n->v.kids.items[i];
        const char *key = c->key ? c->key : "?";
        w->e->ops->key(w->e, key);
        walk_child(w, n, i, key);
    }
    chain_pop(w);
}

/* A list's elements (a deferred unit among them does not show on one line: it is a container). */
static void walk_elements(model_walk *w, const rb_node *n, const char *key)
{
    chain_push(w, n);
    for (size_t i = 0; i < n->v.kids.count && !w->e->failed; i++) walk_child(w, n, i, key);
    chain_pop(w);
}

static void walk_record(model_walk *w, const rb_node *n)
{
    int stream = n->kind == RB_K_STREAM;
    if (!w->e->ops->begin(w->e, 1, n->v.kids.count + stream, 0)) return;
    if (stream) {
        w->e->ops->key(w->e, "$stream");
        emit_stream_meta(w, n);
    }
    walk_members(w, n);
    w->e->ops->end(w->e);
}

/* `key`: the member holding `n` (the nearest one), which names a blob's file. */
static void walk(model_walk *w, const rb_node *n, const char *key)
{
    rb_json_emitter *e = w->e;
    switch (n->kind) {
    case RB_K_RECORD:
    case RB_K_STREAM:
        walk_record(w, n);
        return;
    case RB_K_LIST:
        if (!e->ops->begin(e, 0, n->v.kids.count, list_is_flat(n))) return;
        walk_elements(w, n, key);
        e->ops->end(e);
        return;
    case RB_K_TABLE:
        walk_table(w, n, key);
        return;
    case RB_K_PACKED: {
        rb_record_scratch scratch;
        walk(w, rb_record_view(n, &scratch), key);
        return;
    }
    case RB_K_INT: emit_int(w, n); return;
    case RB_K_FLOAT: emit_float(e, n); return;
    case RB_K_BOOL:
        if (n->v.bits <= 1) e->ops->literal(e, n->v.bits ? JSON_TRUE : JSON_FALSE);
        else e->ops->integer(e, (json_int_t)n->v.bits);
        return;
    case RB_K_STRING: emit_text(e, n->v.bytes.data, n->v.bytes.size); return;
    case RB_K_BLOB:
    case RB_K_OPAQUE: emit_blob(w, n, w->mode, key); return;
    case RB_K_ID: emit_id(e, n); return;
    }
    e->ops->literal(e, JSON_NULL);
}

/* ---------- entry points ---------- */

json_t *rb_model_to_json(const rb_doc *doc, const rb_node *n, rb_blob_mode mode)
{
    rb_json_emitter e;
    rb_json_tree_emitter(&e);
    model_walk w = {&e, doc, mode, NULL, NULL};
    walk(&w, n, NULL);
    return rb_json_tree_result(&e);
}

static void emit_doc(model_walk *w, const char *source_name);

/* A document with deferred units is printed reading each unit again alone when every one can
 * be (docs/performance.md "One unit at a time"): the dump's memory is the
 * deferred model and one unit's nodes, and the document is only read. One whose units cannot
 * all be read alone is refused (RB_E_DEFERRED: rb_doc_expand it first). */
int rb_doc_emit(rb_json_emitter *e, const rb_doc *doc, rb_blob_mode mode, const char *source_name,
                rb_blob_to_file to_file, void *to_file_context, rb_error *err)
{
    model_walk w = {e, doc, to_file ? RB_BLOBS_REF : mode, to_file, to_file_context};
    rb_error unit_err = {0};
    w.err = &unit_err;
    w.units_alone = doc->deferred_units && rb_doc_units_read_alone(doc);
    if (doc->deferred_units && !w.units_alone && rb_doc_refuse_deferred(doc, "this dump", err)) return -1;
    rb_arena_init(&w.units);
    emit_doc(&w, source_name);
    rb_arena_free(&w.units);
    if (!unit_err.status) return 0;
    if (err) rb_error_copy(err, &unit_err);
    return -1;
}

static void emit_doc(model_walk *w, const char *source_name)
{
    rb_json_emitter *e = w->e;
    const rb_doc *doc = w->doc;
    const rb_section *file = doc->section_count ? &doc->sections[0] : NULL;
    int with_source = source_name && w->mode == RB_BLOBS_REF && !w->to_file && file && file->data;
    const rb_node *root = doc->root;
    int stream = root->kind == RB_K_STREAM;
    if (!e->ops->begin(e, 1, 1 + with_source + stream + root->v.kids.count, 0)) return;
    member_string(e, "$format", doc->format->name);
    if (with_source) {
        e->ops->key(e, "$source");
        if (e->ops->begin(e, 1, 3, 0)) {
            member_string(e, "file", source_name);
            member_integer(e, "size", (json_int_t)file->size);
            emit_crc(e, "crc32", (uint32_t)crc32(0, file->data, (uInt)file->size));
            e->ops->end(e);
        }
    }
    if (stream) {
        e->ops->key(e, "$stream");
        emit_stream_meta(w, root);
    }
    walk_members(w, root);
    e->ops->end(e);
}
