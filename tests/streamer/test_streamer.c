/*
 * The SA:MP streamer map format (core/streamer/, docs/formats/streamer.md).
 *
 * No real file of this format exists, so the fixtures are made here, by the project:
 *   - fixtures/NAME.json are authored as text; each builds (JSON -> model -> bytes) to exactly the
 *     committed fixtures/NAME.map, which reads back (bytes -> model -> bytes) to the same bytes and
 *     (bytes -> JSON) to the same JSON; together they hold every chunk type and every variant;
 *   - small files are assembled byte by byte below, from the spec, independently of the writer;
 *   - every reading of an ambiguity of the spec has a test of its own (amb_*);
 *   - the mutation test damages every fixture (checksums, sizes, ids, every byte, every
 *     truncation) and requires a clean error with an offset or an exact round trip.
 *
 * Usage: test_streamer FIXTURE_DIR [--regenerate]   (--regenerate rewrites the .map fixtures)
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "tests/test_util.h"
#include "core/doc/doc.h"
#include "core/json/json.h"
#include "core/streamer/streamer.h"


/* ---------- files assembled by hand ---------- */

typedef struct bytes {
    uint8_t d[8192];
    size_t n;
} bytes;

static void put(bytes *b, const void *p, size_t n)
{
    memcpy(b->d + b->n, p, n);
    b->n += n;
}
static void put_u16(bytes *b, unsigned v) { uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)}; put(b, x, 2); }
static void put_u32(bytes *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, x, 4);
}
static void put_f32(bytes *b, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    put_u32(b, v);
}

static void begin_file(bytes *b)
{
    b->n = 0;
    put(b, "strmrgrps01", 11);
}

/* A chunk with the given checksum. */
static void chunk_with_crc(bytes *b, const char *id, const bytes *data, uint32_t crc)
{
    put_u16(b, (unsigned)data->n);
    put(b, id, 4);
    put(b, data->d, data->n);
    put_u32(b, crc);
}

/* A chunk with the checksum rebyte derives: CRC-32 of the data, 0x2144DF1C for empty data. */
static void chunk(bytes *b, const char *id, const bytes *data)
{
    chunk_with_crc(b, id, data, data->n ? (uint32_t)crc32(0, data->d, (uInt)data->n) : 0x2144DF1Cu);
}

static void empty_chunk(bytes *b, const char *id)
{
    bytes none = {.n = 0};
    chunk(b, id, &none);
}

static void floats(bytes *data, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) put_f32(data, (float)va_arg(ap, double));
    va_end(ap);
}

/* ---------- the library, shortly ---------- */

static rb_doc *parse(const uint8_t *d, size_t n, rb_error *err)
{
    rb_read_options opt = {.file_name = "test.map"};
    memset(err, 0, sizeof(*err));
    return rb_doc_parse_as(&rb_format_streamer, d, n, &opt, err);
}

static json_t *dump(const rb_doc *doc) { return rb_model_to_json(doc, doc->root, RB_BLOBS_BASE64); }

static rb_doc *from_json(json_t *j, rb_error *err)
{
    memset(err, 0, sizeof(*err));
    return rb_doc_from_json_loader(&rb_format_streamer, j, NULL, NULL, "test.json", 0, err);
}

static rb_doc *from_json_text(const char *text, rb_error *err)
{
    json_error_t jerr;
    json_t *j = json_loads(text, 0, &jerr);
    if (!j) {
        fprintf(stderr, "bad JSON in test: %s: %s\n", jerr.text, text);
        exit(2);
    }
    rb_doc *doc = from_json(j, err);
    json_decref(j);
    return doc;
}

static uint8_t *write_doc(rb_doc *doc, size_t *n, rb_error *err)
{
    uint8_t *out = NULL;
    memset(err, 0, sizeof(*err));
    if (rb_doc_write(doc, NULL, &out, n, err) != RB_OK) return NULL;
    return out;
}

/* bytes -> model -> bytes must give the same bytes. Returns 1 when it does. */
static int rewrites_exactly(const uint8_t *d, size_t n, const char *what)
{
    rb_error err;
    rb_doc *doc = parse(d, n, &err);
    if (!doc) {
        fprintf(stderr, "  %s: does not parse: %s\n", what, err.message);
        return 0;
    }
    size_t m;
    uint8_t *out = write_doc(doc, &m, &err);
    int same = out && m == n && memcmp(out, d, n) == 0;
    if (!same) fprintf(stderr, "  %s: rewrite differs (%zu vs %zu bytes) %s\n", what, m, n, out ? "" : err.message);
    free(out);
    rb_doc_free(doc);
    return same;
}

/* bytes -> JSON -> model -> bytes must give the same bytes. */
static int json_rebuilds_exactly(const uint8_t *d, size_t n, const char *what)
{
    rb_error err;
    rb_doc *doc = parse(d, n, &err);
    if (!doc) return 0;
    json_t *j = dump(doc);
    rb_doc *again = from_json(j, &err);
    size_t m = 0;
    uint8_t *out = again ? write_doc(again, &m, &err) : NULL;
    int same = out && m == n && memcmp(out, d, n) == 0;
    if (!same) fprintf(stderr, "  %s: JSON rebuild differs: %s\n", what, err.message);
    free(out);
    rb_doc_free(again);
    json_decref(j);
    rb_doc_free(doc);
    return same;
}

/* The chunk records of group `g` of a parsed document. */
/* Chunk i of group g as the model keeps it (a packed record stays packed). */
static const rb_node *kept_chunk(const rb_doc *doc, size_t g, size_t i)
{
    const rb_node *groups = rb_node_get(doc->root, "groups");
    if (!groups || g >= groups->v.kids.count) return NULL;
    const rb_node *chunks = rb_node_get(groups->v.kids.items[g], "chunks");
    return chunks && i < chunks->v.kids.count ? chunks->v.kids.items[i] : NULL;
}

/* The same with its fields as nodes: the document navigated (rb_doc_root unpacks every chunk). */
static const rb_node *chunk_of(rb_doc *doc, size_t g, size_t i)
{
    return rb_doc_root(doc) ? kept_chunk(doc, g, i) : NULL;
}

static int has_key(const rb_node *record, const char *key) { return record && rb_node_get(record, key) != NULL; }

static float f32_of(const rb_node *record, const char *key)
{
    const rb_node *n = rb_node_get(record, key);
    uint32_t bits = n ? (uint32_t)n->v.bits : 0;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static int contains(const char *text, const char *part) { return strstr(text, part) != NULL; }

/* A parse of `d` must fail at `offset`, and the message must hold every part given. */
static void expect_error(const char *name, const uint8_t *d, size_t n, uint64_t offset, ...)
{
    rb_error err;
    rb_doc *doc = parse(d, n, &err);
    CHECK(!doc, "%s: parsed although it should not", name);
    rb_doc_free(doc);
    if (doc) return;
    char text[2048];
    rb_error_format(&err, text, sizeof text);
    CHECK(err.has_offset && err.offset == offset, "%s: error at 0x%llx, expected 0x%llx: %s", name,
          (unsigned long long)err.offset, (unsigned long long)offset, text);
    va_list ap;
    va_start(ap, offset);
    for (const char *part; (part = va_arg(ap, const char *));)
        CHECK(contains(text, part), "%s: error lacks \"%s\": %s", name, part, text);
    va_end(ap);
}

/* JSON must be refused, with every part given in the message (FROM_JSON, or WRITE when only
 * writing can tell, e.g. a size that does not fit). */
static void expect_json_error(const char *name, const char *json, ...)
{
    rb_error err;
    rb_doc *doc = from_json_text(json, &err);
    size_t n;
    uint8_t *out = doc ? write_doc(doc, &n, &err) : NULL;
    CHECK(!out, "%s: accepted", name);
    free(out);
    rb_doc_free(doc);
    char text[2048];
    rb_error_format(&err, text, sizeof text);
    va_list ap;
    va_start(ap, json);
    for (const char *part; (part = va_arg(ap, const char *));)
        CHECK(contains(text, part), "%s: error lacks \"%s\": %s", name, part, text);
    va_end(ap);
}

/* Builds JSON to bytes (which must succeed). */
static uint8_t *build(const char *json, size_t *n)
{
    rb_error err;
    rb_doc *doc = from_json_text(json, &err);
    CHECK(doc, "build: %s", err.message);
    uint8_t *out = doc ? write_doc(doc, n, &err) : NULL;
    CHECK(out, "build write: %s", err.message);
    rb_doc_free(doc);
    return out;
}

/* ---------- the layout, from the spec, independently of the writer ---------- */

static void test_handmade_layout(void)
{
    bytes f, d;
    begin_file(&f);
    d.n = 0;
    put(&d, "Hand made", 9);
    chunk(&f, "Head", &d);
    d.n = 0;
    put_u32(&d, 1337);
    floats(&d, 8, 1.5, 2.5, 3.5, 0.0, 0.0, 90.0, 300.0, 150.0);
    chunk(&f, "_Obj", &d);
    empty_chunk(&f, "NGrp");
    d.n = 0;
    floats(&d, 3, 1.0, 2.0, 3.0);
    put(&d, "\x01", 1);
    floats(&d, 1, 20.0);
    put(&d, "label", 5);
    chunk(&f, "TxtL", &d);
    empty_chunk(&f, "_EOF");

    rb_error err;
    rb_doc *doc = parse(f.d, f.n, &err);
    CHECK(doc, "hand-made file: %s", err.message);
    if (!doc) return;
    const rb_node *groups = rb_node_get(doc->root, "groups");
    CHECK(groups && groups->v.kids.count == 2, "two groups (implicit first, NGrp)");
    const rb_node *obj = chunk_of(doc, 0, 1);
    CHECK(obj && rb_node_int(rb_node_get(obj, "modelId")) == 1337, "object model");
    CHECK(f32_of(obj, "y") == 2.5f && f32_of(obj, "rotZ") == 90.0f, "object fields");
    CHECK(f32_of(obj, "streamDistance") == 300.0f && f32_of(obj, "drawDistance") == 150.0f, "36-byte object");
    const rb_node *label = chunk_of(doc, 1, 0);
    CHECK(label && rb_node_get(label, "text")->v.bytes.size == 5, "text label text is size - 17 bytes");
    CHECK(rb_node_get(label, "testLineOfSight")->v.bits == 1, "line of sight flag");
    CHECK(rb_doc_note_count(doc) == 0, "no deviations in a clean file");
    rb_doc_free(doc);
    CHECK(rewrites_exactly(f.d, f.n, "hand-made"), "hand-made file rewrites exactly");
    CHECK(json_rebuilds_exactly(f.d, f.n, "hand-made"), "hand-made file rebuilds from JSON");

    /* the writer makes the same bytes from JSON */
    size_t n = 0;
    uint8_t *built = build("{\"groups\": [{\"chunks\": [{\"id\": \"Head\", \"data\": \"Hand made\"},"
                           "{\"id\": \"_Obj\", \"modelId\": 1337, \"x\": 1.5, \"y\": 2.5, \"z\": 3.5, \"rotX\": 0.0,"
                           " \"rotY\": 0.0, \"rotZ\": 90.0, \"streamDistance\": 300.0, \"drawDistance\": 150.0}]},"
                           "{\"chunks\": [{\"id\": \"TxtL\", \"x\": 1.0, \"y\": 2.0, \"z\": 3.0, \"testLineOfSight\": true,"
                           " \"streamDistance\": 20.0, \"text\": \"label\"}]}], \"eof\": {\"id\": \"_EOF\"}}",
                           &n);
    CHECK(built && n == f.n && memcmp(built, f.d, n) == 0, "JSON builds the hand-made bytes");
    free(built);

    /* the smallest file: magic and _EOF, one (implicit, empty) group */
    begin_file(&f);
    empty_chunk(&f, "_EOF");
    CHECK(f.n == 21 && memcmp(f.d + 17, "\x1c\xdf\x44\x21", 4) == 0, "empty checksum bytes");
    doc = parse(f.d, f.n, &err);
    CHECK(doc && rb_node_get(doc->root, "groups")->v.kids.count == 1, "one implicit group");
    rb_doc_free(doc);
    CHECK(rb_format_detect(f.d, f.n) && strcmp(rb_format_detect(f.d, f.n), "streamer") == 0, "detected by magic");
}

/* ---------- the readings of the spec's ambiguities ---------- */

/* NGrp and _EOF: "Checksum always returns 0x2144DF1C", which is CRC-32 of four zero bytes; the
 * CRC-32 of their (empty) data is 0. Both are accepted, 0x2144DF1C is written. */
static void amb_empty_checksum(void)
{
    bytes f, none = {.n = 0};
    begin_file(&f);
    chunk_with_crc(&f, "NGrp", &none, 0x2144DF1Cu);
    chunk_with_crc(&f, "_EOF", &none, 0);
    rb_error err;
    rb_doc *doc = parse(f.d, f.n, &err);
    CHECK(doc, "both empty checksums accepted: %s", err.message);
    if (!doc) return;
    const rb_node *g1 = rb_node_get(doc->root, "groups")->v.kids.items[1];
    CHECK(!has_key(g1, "ngrpStoredCrc"), "0x2144DF1C is the default: nothing recorded");
    CHECK(has_key(rb_node_get(doc->root, "eof"), "storedCrc"), "0 is recorded, to be written back");
    CHECK(rb_doc_note_count(doc) == 1 && contains(rb_doc_note(doc, 0), "CRC-32 of the empty data"), "noted: %s",
          rb_doc_note_count(doc) ? rb_doc_note(doc, 0) : "(none)");
    rb_doc_free(doc);
    CHECK(rewrites_exactly(f.d, f.n, "empty checksums"), "kept as stored");
    size_t n;
    uint8_t *out = build("{\"groups\": [{\"chunks\": [{\"id\": \"Head\", \"data\": \"\"}]}, {\"chunks\": []}],"
                         " \"eof\": {\"id\": \"_EOF\"}}",
                         &n);
    /* magic, Head (empty), NGrp, _EOF: each empty chunk ends in 1C DF 44 21 */
    CHECK(out && n == 11 + 3 * 10, "size");
    for (int i = 0; out && i < 3; i++)
        CHECK(memcmp(out + 11 + 10 * i + 6, "\x1c\xdf\x44\x21", 4) == 0, "new empty chunk %d gets 0x2144DF1C", i);
    free(out);
}

/* Cube, Plgn, MapI, Wrld, _Int, Plyr, _EOF: the spec's hex values are the big-endian readings of
 * the names, so the ids may be stored reversed. Both are read; the model keeps the spelling. */
static void amb_reversed_ids(void)
{
    static const char *const reversible[] = {"Cube", "Plgn", "MapI", "Wrld", "_Int", "Plyr"};
    for (size_t k = 0; k < sizeof reversible / sizeof reversible[0]; k++) {
        for (int reversed = 0; reversed < 2; reversed++) {
            const char *name = reversible[k];
            char id[5] = {name[0], name[1], name[2], name[3], 0};
            if (reversed) for (int i = 0; i < 4; i++) id[i] = name[3 - i];
            bytes f, d = {.n = 0};
            begin_file(&f);
            if (k == 0) floats(&d, 7, 1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
            else if (k == 1) { floats(&d, 2, 0.0, 1.0); put_u16(&d, 3); floats(&d, 6, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0); }
            else if (k == 2) { floats(&d, 3, 1.0, 2.0, 3.0); put(&d, "\x05\x44\x33\x22\x11\x00", 6); }
            else { put_u32(&d, 1); put_u32(&d, 42); }
            chunk(&f, id, &d);
            empty_chunk(&f, reversed ? "FOE_" : "_EOF");
            rb_error err;
            rb_doc *doc = parse(f.d, f.n, &err);
            CHECK(doc, "%s read: %s", id, err.message);
            if (!doc) continue;
            const rb_node *c = chunk_of(doc, 0, 0);
            CHECK(c && memcmp(rb_node_get(c, "id")->v.bytes.data, id, 4) == 0, "%s: the spelling is kept", id);
            CHECK(c && !has_key(c, "data"), "%s: typed, not opaque", id);
            rb_doc_free(doc);
            CHECK(rewrites_exactly(f.d, f.n, id), "%s written back the same", id);
            CHECK(json_rebuilds_exactly(f.d, f.n, id), "%s through JSON", id);
        }
    }
    /* the twelve others have little-endian values: reversed, they are just unknown ids, kept opaque */
    bytes f, d = {.n = 0};
    begin_file(&f);
    put_u32(&d, 7);
    floats(&d, 6, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0);
    chunk(&f, "jbO_", &d);
    empty_chunk(&f, "_EOF");
    rb_error err;
    rb_doc *doc = parse(f.d, f.n, &err);
    CHECK(doc && has_key(chunk_of(doc, 0, 0), "data"), "jbO_ is an unknown id, kept opaque");
    rb_doc_free(doc);
    CHECK(rewrites_exactly(f.d, f.n, "jbO_"), "unknown chunk written back");
}

/* Crcl: stated 12, fields 16. 12 = x, y, size (the plugin's circles, default); 16 = x, y, z, size. */
static void amb_circle_sizes(void)
{
    for (int with_z = 0; with_z < 2; with_z++) {
        bytes f, d = {.n = 0};
        begin_file(&f);
        if (with_z) floats(&d, 4, 1.0, 2.0, 3.0, 9.0);
        else floats(&d, 3, 1.0, 2.0, 9.0);
        chunk(&f, "Crcl", &d);
        empty_chunk(&f, "_EOF");
        rb_error err;
        rb_doc *doc = parse(f.d, f.n, &err);
        CHECK(doc, "Crcl %zu: %s", d.n, err.message);
        if (!doc) continue;
        const rb_node *c = chunk_of(doc, 0, 0);
        CHECK(has_key(c, "z") == with_z && f32_of(c, "size") == 9.0f, "Crcl %zu: size is the last float", d.n);
        rb_doc_free(doc);
        CHECK(rewrites_exactly(f.d, f.n, "Crcl"), "Crcl %zu written back the same", d.n);
    }
    size_t n;
    uint8_t *out = build("{\"groups\": [{\"chunks\": [{\"id\": \"Crcl\", \"x\": 1.0, \"y\": 2.0, \"size\": 9.0}]}],"
                         " \"eof\": {\"id\": \"_EOF\"}}",
                         &n);
    CHECK(out && out[11] == 12 && out[12] == 0, "a new circle without z is 12 bytes");
    free(out);
}

/* Rect and Sphr: stated 12, fields 16. Only 16 is read: no reading of 12 bytes holds a rectangle
 * (min x, min y, max x, max y) or a sphere (x, y, z, size); the 12 is the circle's line copied. */
static void amb_rect_sphere_sizes(void)
{
    static const char *const ids[] = {"Rect", "Sphr"};
    for (int k = 0; k < 2; k++) {
        bytes f, d = {.n = 0};
        begin_file(&f);
        floats(&d, 4, -1.0, -2.0, 1.0, 2.0);
        chunk(&f, ids[k], &d);
        empty_chunk(&f, "_EOF");
        CHECK(rewrites_exactly(f.d, f.n, ids[k]), "%s 16", ids[k]);
        begin_file(&f);
        d.n = 12;
        chunk(&f, ids[k], &d);
        empty_chunk(&f, "_EOF");
        expect_error(ids[k], f.d, f.n, 11, "chunk 0", ids[k], "@0xb", "data size 12 is not 16", NULL);
    }
}

/* Cube: stated 28 with Min X listed twice; the plugin's cubes take six floats. 28 is the default
 * (the second float written equal to Min X, or kept as "minXRepeat" when a file differs); 24 is
 * read as the six floats and marked "sixFloats". */
static void amb_cube_sizes(void)
{
    struct { int n; float second; const char *marker; } cases[] = {{28, 1.0f, NULL}, {28, 7.0f, "minXRepeat"},
                                                                  {24, 0, "sixFloats"}};
    for (size_t k = 0; k < 3; k++) {
        bytes f, d = {.n = 0};
        begin_file(&f);
        put_f32(&d, 1.0f);
        if (cases[k].n == 28) put_f32(&d, cases[k].second);
        floats(&d, 5, 2.0, 3.0, 4.0, 5.0, 6.0);
        chunk(&f, "Cube", &d);
        empty_chunk(&f, "_EOF");
        rb_error err;
        rb_doc *doc = parse(f.d, f.n, &err);
        CHECK(doc, "Cube case %zu: %s", k, err.message);
        if (!doc) continue;
        const rb_node *c = chunk_of(doc, 0, 0);
        CHECK(f32_of(c, "minX") == 1.0f && f32_of(c, "minY") == 2.0f && f32_of(c, "maxZ") == 6.0f, "Cube %zu fields", k);
        CHECK(has_key(c, "minXRepeat") == (k == 1) && has_key(c, "sixFloats") == (k == 2), "Cube %zu markers", k);
        rb_doc_free(doc);
        CHECK(rewrites_exactly(f.d, f.n, "Cube"), "Cube %zu written back the same", k);
        CHECK(json_rebuilds_exactly(f.d, f.n, "Cube"), "Cube %zu through JSON", k);
    }
    size_t n;
    uint8_t *out = build("{\"groups\": [{\"chunks\": [{\"id\": \"Cube\", \"minX\": 1.0, \"minY\": 2.0, \"minZ\": 3.0,"
                         " \"maxX\": 4.0, \"maxY\": 5.0, \"maxZ\": 6.0}]}], \"eof\": {\"id\": \"_EOF\"}}",
                         &n);
    CHECK(out && out[11] == 28 && memcmp(out + 17, out + 21, 4) == 0, "a new cube is 28 bytes, Min X twice");
    free(out);
    for (int size = 20; size <= 32; size += 4) {
        if (size == 24 || size == 28) continue;
        bytes f, d = {.n = (size_t)size};
        memset(d.d, 0, d.n);
        begin_file(&f);
        chunk(&f, "Cube", &d);
        empty_chunk(&f, "_EOF");
        expect_error("Cube size", f.d, f.n, 11, "chunk 0 \"Cube\" @0xb", "is not 24", NULL);
    }
}

/* Plgn: "not smaller than 34, divisible by 2" with a count and 8 bytes per point: the size is
 * 10 + 8 x points, at least 3 points. The count holds points (the spec) or floats (as the
 * plugin's maxpoints): the size tells which; both are read and kept. */
static void amb_polygon_count(void)
{
    for (int as_floats = 0; as_floats < 2; as_floats++) {
        bytes f, d = {.n = 0};
        begin_file(&f);
        floats(&d, 2, -5.0, 5.0);
        put_u16(&d, as_floats ? 8 : 4);
        floats(&d, 8, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0);
        chunk(&f, "Plgn", &d);
        empty_chunk(&f, "_EOF");
        rb_error err;
        rb_doc *doc = parse(f.d, f.n, &err);
        CHECK(doc, "Plgn: %s", err.message);
        if (!doc) continue;
        const rb_node *c = chunk_of(doc, 0, 0);
        CHECK(rb_node_get(c, "points")->v.kids.count == 4, "four points");
        CHECK(has_key(c, "countsFloats") == as_floats, "count reading recorded");
        CHECK(f32_of(c, "minZ") == -5.0f && f32_of(c, "maxZ") == 5.0f, "height range");
        rb_doc_free(doc);
        CHECK(rewrites_exactly(f.d, f.n, "Plgn"), "Plgn written back the same");
        CHECK(json_rebuilds_exactly(f.d, f.n, "Plgn"), "Plgn through JSON");
    }
    struct { size_t size; unsigned count; const char *why; } bad[] = {
        {26, 2, "is not 10 + 8 x points"},   /* two points: below 34 */
        {36, 3, "is not 10 + 8 x points"},   /* even and above 34, but not whole points */
        {34, 5, "fits neither reading"},     /* three points, count 5 */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        bytes f, d = {.n = bad[k].size};
        memset(d.d, 0, d.n);
        d.d[8] = (uint8_t)bad[k].count;
        begin_file(&f);
        chunk(&f, "Plgn", &d);
        empty_chunk(&f, "_EOF");
        expect_error("Plgn", f.d, f.n, 11, "chunk 0 \"Plgn\" @0xb", bad[k].why, NULL);
    }
    expect_json_error("two-point polygon",
                      "{\"groups\": [{\"chunks\": [{\"id\": \"Plgn\", \"minZ\": 0.0, \"maxZ\": 1.0,"
                      " \"points\": [[0.0, 0.0], [1.0, 1.0]]}]}], \"eof\": {\"id\": \"_EOF\"}}",
                      "chunk 0 \"Plgn\"", "at least 3 points", NULL);
}

/* Wrld, _Int, Plyr: a count, the values, then "4 bytes: Virtual World". Default: that line is the
 * array's element (size 4 + 4n); when the size is 8 + 4n it is one more value ("trailing"). */
static void amb_id_list_trailing(void)
{
    static const char *const ids[] = {"Wrld", "_Int", "Plyr"};
    static const char *const keys[] = {"worlds", "interiors", "players"};
    for (int k = 0; k < 3; k++) {
        for (int trailing = 0; trailing < 2; trailing++) {
            bytes f, d = {.n = 0};
            begin_file(&f);
            put_u32(&d, 2);
            put_u32(&d, 10);
            put_u32(&d, (uint32_t)-1);
            if (trailing) put_u32(&d, 99);
            chunk(&f, ids[k], &d);
            empty_chunk(&f, "_EOF");
            rb_error err;
            rb_doc *doc = parse(f.d, f.n, &err);
            CHECK(doc, "%s: %s", ids[k], err.message);
            if (!doc) continue;
            const rb_node *c = chunk_of(doc, 0, 0);
            const rb_node *list = rb_node_get(c, keys[k]);
            CHECK(list && list->v.kids.count == 2 && rb_node_int(list->v.kids.items[1]) == -1, "%s values", ids[k]);
            CHECK(has_key(c, "trailing") == trailing, "%s trailing reading", ids[k]);
            rb_doc_free(doc);
            CHECK(rewrites_exactly(f.d, f.n, ids[k]), "%s written back the same", ids[k]);
        }
        /* count 0 with one trailing value is the smallest (8 bytes) under the second reading */
        bytes f, d = {.n = 0};
        begin_file(&f);
        put_u32(&d, 0);
        put_u32(&d, 5);
        chunk(&f, ids[k], &d);
        empty_chunk(&f, "_EOF");
        CHECK(rewrites_exactly(f.d, f.n, ids[k]), "%s with only a trailing value", ids[k]);
        /* a count that fits neither reading, and sizes the spec forbids */
        begin_file(&f);
        d.n = 0;
        put_u32(&d, 5);
        put_u32(&d, 1);
        put_u32(&d, 2);
        chunk(&f, ids[k], &d);
        empty_chunk(&f, "_EOF");
        expect_error(ids[k], f.d, f.n, 11, "chunk 0", ids[k], "fits neither reading", NULL);
        begin_file(&f);
        d.n = 4;
        memset(d.d, 0, 4);
        chunk(&f, ids[k], &d);
        empty_chunk(&f, "_EOF");
        expect_error(ids[k], f.d, f.n, 11, "chunk 0", "at least 8", NULL);
    }
    expect_json_error("empty world list",
                      "{\"groups\": [{\"chunks\": [{\"id\": \"Wrld\", \"worlds\": []}]}], \"eof\": {\"id\": \"_EOF\"}}",
                      "chunk 0 \"Wrld\"", "minimum size 8", NULL);
}

/* ---------- stale checksums ---------- */

static void test_stale_checksum(void)
{
    bytes f, d = {.n = 0};
    begin_file(&f);
    put_u32(&d, 1240);
    put_u32(&d, 2);
    floats(&d, 3, 1.0, 2.0, 3.0);
    chunk_with_crc(&f, "Pckp", &d, 0xDEADBEEFu);
    size_t crc_at = f.n - 4;
    empty_chunk(&f, "_EOF");
    rb_error err;
    rb_doc *doc = parse(f.d, f.n, &err);
    CHECK(doc, "a stale checksum does not stop reading: %s", err.message);
    if (!doc) return;
    CHECK(rb_doc_note_count(doc) == 1, "the stale checksum is noted");
    if (rb_doc_note_count(doc)) {
        const char *note = rb_doc_note(doc, 0);
        CHECK(contains(note, "chunk 0 \"Pckp\" @0xb") && contains(note, "0xDEADBEEF") && contains(note, "@0x25"),
              "note names chunk, offset and value: %s", note);
    }
    /* unchanged: the stale value is written back */
    size_t n;
    uint8_t *out = write_doc(doc, &n, &err);
    CHECK(out && n == f.n && memcmp(out, f.d, n) == 0, "unchanged data keeps the stale checksum");
    free(out);
    /* edited: a fresh checksum */
    rb_node *pickup = (rb_node *)chunk_of(doc, 0, 0);
    rb_node *x = rb_node_get(pickup, "x");
    uint64_t old = x->v.bits;
    float moved = 50.0f;
    uint32_t bits;
    memcpy(&bits, &moved, 4);
    x->v.bits = bits;
    out = write_doc(doc, &n, &err);
    CHECK(out && n == f.n, "edited size");
    if (out) {
        uint32_t crc = out[crc_at] | out[crc_at + 1] << 8 | out[crc_at + 2] << 16 | (uint32_t)out[crc_at + 3] << 24;
        CHECK(crc == (uint32_t)crc32(0, out + 17, 20), "an edited chunk gets a fresh checksum (0x%08X)", crc);
        CHECK(rewrites_exactly(out, n, "edited"), "the edited file reads back");
    }
    free(out);
    /* that write left the model describing the bytes written: no stale value any more */
    CHECK(!has_key(pickup, "storedCrc"), "a write with a fresh checksum drops storedCrc from the model");
    x->v.bits = old;
    out = write_doc(doc, &n, &err);
    CHECK(out && n == f.n && memcmp(out, f.d, n) != 0, "so reverting now writes the fresh checksum");
    free(out);
    rb_doc_free(doc);
    /* an edit reverted before writing: the data is what the stale value was stored with */
    doc = parse(f.d, f.n, &err);
    pickup = (rb_node *)chunk_of(doc, 0, 0);
    x = rb_node_get(pickup, "x");
    x->v.bits = bits;
    x->v.bits = old;
    out = write_doc(doc, &n, &err);
    CHECK(out && n == f.n && memcmp(out, f.d, n) == 0, "an edit reverted before writing keeps the stale value");
    free(out);
    /* the same through JSON: an edit in the JSON also gets a fresh checksum */
    json_t *j = dump(doc);
    json_t *c0 = json_array_get(json_object_get(json_array_get(json_object_get(j, "groups"), 0), "chunks"), 0);
    CHECK(json_object_get(c0, "storedCrc"), "storedCrc in the JSON");
    json_object_set_new(c0, "y", json_real(-7.0));
    rb_doc *edited = from_json(j, &err);
    out = edited ? write_doc(edited, &n, &err) : NULL;
    CHECK(out && out[crc_at] == (uint8_t)crc32(0, out + 17, 20), "JSON edit: fresh checksum");
    rb_doc *reread = out ? parse(out, n, &err) : NULL;
    CHECK(reread && rb_doc_note_count(reread) == 0, "and nothing stale any more");
    if (reread && edited) {
        /* what `apply` checks: the written file reads back to the model that was written */
        json_t *a = dump(edited), *b = dump(reread);
        CHECK(json_equal(a, b), "the re-read file equals the written model");
        json_decref(a);
        json_decref(b);
    }
    rb_doc_free(reread);
    free(out);
    rb_doc_free(edited);
    json_decref(j);
    rb_doc_free(doc);
}

/* ---------- chunks kept packed ---------- */

/* The keys of a record, in order, joined by spaces. */
static void key_order(const rb_node *record, char *out, size_t size)
{
    out[0] = 0;
    for (size_t i = 0; i < rb_node_child_count(record); i++) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s ", rb_node_key(rb_node_child(record, i)));
    }
}

/* A file of every chunk layout that stays packed, one chunk with a stale checksum and one with
 * variable data (both described field by field), so each form is checked against the other. */
static size_t packed_layouts_file(bytes *f, size_t *first_x_at)
{
    static const struct { const char *id; int ints; const uint8_t *bytes; int floats; } C[] = {
        {"_Obj", 1, NULL, 6}, {"_Obj", 1, NULL, 7}, {"_Obj", 1, NULL, 8}, {"Pckp", 2, NULL, 3},
        {"Pckp", 2, NULL, 4}, {"_Chk", 0, NULL, 4}, {"_Chk", 0, NULL, 5}, {"Crcl", 0, NULL, 3},
        {"Crcl", 0, NULL, 4}, {"Rect", 0, NULL, 4}, {"Sphr", 0, NULL, 4},
    };
    size_t chunks = 0;
    begin_file(f);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++, chunks++) {
        bytes d = {.n = 0};
        for (int k = 0; k < C[i].ints; k++) put_u32(&d, 1000u + (unsigned)k);
        if (i == 0) *first_x_at = f->n + 6 + d.n;
        for (int k = 0; k < C[i].floats; k++) put_f32(&d, (float)(i * 10 + k) + 0.5f);
        chunk(f, C[i].id, &d);
    }
    bytes race = {.n = 0}, icon = {.n = 0}, label = {.n = 0}, stale = {.n = 0};
    put(&race, "\x01", 1);
    floats(&race, 7, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
    chunk(f, "RChk", &race);
    floats(&icon, 3, 1.0, 2.0, 3.0);
    put(&icon, "\x05\x11\x22\x33\x44\x02", 6);
    floats(&icon, 1, 200.0);
    chunk(f, "IpaM", &icon); /* the reversed spelling is kept in the packed bytes */
    floats(&label, 3, 1.0, 2.0, 3.0);
    put(&label, "\x01", 1);
    floats(&label, 1, 30.0);
    put(&label, "hello", 5);
    chunk(f, "TxtL", &label);
    floats(&stale, 4, 1.0, 2.0, 3.0, 4.0);
    chunk_with_crc(f, "_Chk", &stale, 0x12345678u);
    empty_chunk(f, "_EOF");
    return chunks + 4;
}

static void test_packed_chunks(void)
{
    bytes f;
    size_t first_x_at = 0, count = packed_layouts_file(&f, &first_x_at);
    rb_error err;
    rb_doc *doc = parse(f.d, f.n, &err);
    CHECK(doc, "packed layouts file reads: %s", err.message);
    if (!doc) return;
    for (size_t i = 0; i < count; i++) {
        int spelled = i >= count - 2; /* the text label and the stale checksum */
        const rb_node *c = kept_chunk(doc, 0, i);
        CHECK(c && c->kind == (spelled ? RB_K_RECORD : RB_K_PACKED), "chunk %zu is %s", i,
              spelled ? "described field by field" : "kept packed");
    }
    /* the model prints as the records the payload functions make: the JSON builds the same bytes
     * through them, and each record has their fields in their order */
    CHECK(json_rebuilds_exactly(f.d, f.n, "packed layouts"), "the JSON of packed chunks builds the file");
    json_t *j = dump(doc);
    rb_doc *spelled = from_json(j, &err);
    CHECK(spelled, "from JSON: %s", err.message);
    for (size_t i = 0; spelled && i < count; i++) {
        char packed_keys[512], spelled_keys[512];
        rb_record_scratch scratch;
        key_order(rb_record_view(kept_chunk(doc, 0, i), &scratch), packed_keys, sizeof packed_keys);
        key_order(chunk_of(spelled, 0, i), spelled_keys, sizeof spelled_keys);
        CHECK(strcmp(packed_keys, spelled_keys) == 0, "chunk %zu: packed keys \"%s\", spelled \"%s\"", i, packed_keys,
              spelled_keys);
    }
    rb_doc_free(spelled);
    json_decref(j);
    char path[256];
    rb_doc_path_at(doc, first_x_at, path, sizeof path);
    CHECK(strcmp(path, "groups[0] > chunks[0] > x") == 0, "a packed field is located: %s", path);
    CHECK(kept_chunk(doc, 0, 0)->kind == RB_K_PACKED, "locating does not unpack");
    CHECK(!rb_node_member(kept_chunk(doc, 0, 0), "x"), "reading a packed chunk's member does not unpack it");
    CHECK(kept_chunk(doc, 0, 0)->kind == RB_K_PACKED, "the chunk is still packed");
    /* the C API navigates from rb_doc_root, which unpacks the chunks (the explicit step); an edited
     * chunk's checksum is computed again */
    rb_node *x = rb_node_at_edit(rb_doc_root(doc), "/groups/0/chunks/0/x");
    CHECK(x && rb_node_set_float(x, -3.25) == RB_OK, "a packed chunk's field can be set");
    CHECK(kept_chunk(doc, 0, 0)->kind == RB_K_RECORD && kept_chunk(doc, 0, 1)->kind == RB_K_RECORD,
          "the navigated chunks are nodes");
    size_t n;
    uint8_t *out = write_doc(doc, &n, &err);
    CHECK(out && n == f.n, "edited write: %s", err.message);
    if (out) {
        size_t crc_at = first_x_at + 24;
        uint32_t crc = out[crc_at] | out[crc_at + 1] << 8 | out[crc_at + 2] << 16 | (uint32_t)out[crc_at + 3] << 24;
        CHECK(crc == (uint32_t)crc32(0, out + first_x_at - 4, 28), "the edited chunk's checksum is fresh");
        CHECK(memcmp(out + crc_at + 4, f.d + crc_at + 4, n - crc_at - 4) == 0, "the chunks after it are unchanged");
        rb_doc *reread = parse(out, n, &err);
        CHECK(reread && rb_doc_note_count(reread) == 1 && f32_of(chunk_of(reread, 0, 0), "x") == -3.25f,
              "the edited file reads back with the new value (only the stale chunk noted)");
        rb_doc_free(reread);
    }
    free(out);
    rb_doc_free(doc);
}

/* ---------- validation ---------- */

static void test_validation_errors(void)
{
    bytes f, d = {.n = 0};
    /* wrong size for the id */
    begin_file(&f);
    d.n = 30;
    memset(d.d, 0, d.n);
    chunk(&f, "Head", &(bytes){.n = 0});
    chunk(&f, "_Obj", &d);
    empty_chunk(&f, "_EOF");
    expect_error("wrong size", f.d, f.n, 21, "chunk 1 \"_Obj\" @0x15", "data size 30", NULL);
    /* Gnrt twice */
    begin_file(&f);
    d.n = 0;
    put(&d, "gen", 3);
    chunk(&f, "Gnrt", &d);
    empty_chunk(&f, "NGrp");
    size_t second = f.n;
    chunk(&f, "Gnrt", &d);
    empty_chunk(&f, "_EOF");
    char where[64];
    snprintf(where, sizeof where, "chunk 2 \"Gnrt\" @0x%zx", second);
    expect_error("Gnrt twice", f.d, f.n, second, where, "first is chunk 0", NULL);
    /* GrpH twice in a group; once per group is fine */
    begin_file(&f);
    chunk(&f, "GrpH", &d);
    empty_chunk(&f, "NGrp");
    chunk(&f, "GrpH", &d);
    second = f.n;
    chunk(&f, "Pckp", &(bytes){.n = 20});
    chunk(&f, "GrpH", &d);
    bytes ok = f;
    empty_chunk(&f, "_EOF");
    snprintf(where, sizeof where, "chunk 4 \"GrpH\" @0x%zx", second + 30);
    expect_error("GrpH twice", f.d, f.n, second + 30, where, "group 1", "first is chunk 2", NULL);
    ok.n = second;
    empty_chunk(&ok, "_EOF");
    CHECK(rewrites_exactly(ok.d, ok.n, "GrpH per group"), "one GrpH in each group");
    /* data after _EOF */
    begin_file(&f);
    empty_chunk(&f, "_EOF");
    put(&f, "junk", 4);
    expect_error("data after _EOF", f.d, f.n, 21, "chunk 0 \"_EOF\" @0xb", "4 bytes at 0x15", "nothing may follow", NULL);
    /* missing _EOF */
    begin_file(&f);
    chunk(&f, "GrpH", &d);
    expect_error("missing _EOF", f.d, f.n, f.n, "missing _EOF", "chunk 1", NULL);
    /* a header cut short; a size beyond the end; NGrp with data */
    begin_file(&f);
    put(&f, "\x03\x00Hea", 5);
    expect_error("short header", f.d, f.n, 11, "chunk 0 @0xb", "inside its header", NULL);
    begin_file(&f);
    put(&f, "\xff\x00Head", 6);
    put(&f, "abc", 3);
    expect_error("size beyond the end", f.d, f.n, 11, "chunk 0 \"Head\" @0xb", "255 bytes", NULL);
    begin_file(&f);
    chunk(&f, "NGrp", &d);
    empty_chunk(&f, "_EOF");
    expect_error("NGrp with data", f.d, f.n, 11, "chunk 0 \"NGrp\" @0xb", "is not 0", NULL);
    /* another version of the format is refused with a reason */
    begin_file(&f);
    f.d[10] = '2';
    empty_chunk(&f, "_EOF");
    rb_error err;
    rb_doc *doc = parse(f.d, f.n, &err);
    CHECK(!doc && err.status == RB_E_UNSUPPORTED && contains(err.message, "\"02\""), "version 02: %s", err.message);
    rb_doc_free(doc);

    /* the same rules on JSON input */
    const char *eof = "], \"eof\": {\"id\": \"_EOF\"}}";
    char json[1024];
    snprintf(json, sizeof json, "{\"groups\": [{\"chunks\": [{\"id\": \"Gnrt\", \"data\": \"a\"}]},"
             "{\"chunks\": [{\"id\": \"Gnrt\", \"data\": \"b\"}]}%s", eof);
    expect_json_error("JSON Gnrt twice", json, "chunk 2 \"Gnrt\"", "first is chunk 0", NULL);
    snprintf(json, sizeof json, "{\"groups\": [{\"chunks\": [{\"id\": \"GrpH\", \"data\": \"a\"},"
             "{\"id\": \"GrpH\", \"data\": \"b\"}]}%s", eof);
    expect_json_error("JSON GrpH twice", json, "chunk 1 \"GrpH\"", "group 0", NULL);
    snprintf(json, sizeof json, "{\"groups\": [{\"chunks\": [{\"id\": \"NGrp\"}]}%s", eof);
    expect_json_error("JSON NGrp in a list", json, "chunk 0 \"NGrp\"", "next element of \"groups\"", NULL);
    snprintf(json, sizeof json, "{\"groups\": [{\"chunks\": [{\"id\": \"_EOF\"}]}%s", eof);
    expect_json_error("JSON _EOF in a list", json, "chunk 0 \"_EOF\"", "root's \"eof\"", NULL);
    expect_json_error("JSON no groups", "{\"groups\": [], \"eof\": {\"id\": \"_EOF\"}}", "at least its implicit first group",
                      NULL);
    expect_json_error("JSON eof id", "{\"groups\": [{\"chunks\": []}], \"eof\": {\"id\": \"Head\"}}", "\"_EOF\"", NULL);
    snprintf(json, sizeof json, "{\"groups\": [{\"ngrpStoredCrc\": {\"value\": 0, \"dataCrc\": 0}, \"chunks\": []}%s",
             eof);
    expect_json_error("JSON NGrp checksum on the first group", json, "ngrpStoredCrc", "not part", NULL);
    snprintf(json, sizeof json, "{\"groups\": [{\"chunks\": [{\"id\": \"_Obj\", \"modelId\": 1, \"x\": 0.0, \"y\": 0.0,"
             " \"z\": 0.0, \"rotX\": 0.0, \"rotY\": 0.0, \"rotZ\": 0.0, \"drawDistance\": 5.0}]}%s", eof);
    expect_json_error("JSON draw distance without stream distance", json, "drawDistance", "not part", NULL);
    snprintf(json, sizeof json, "{\"groups\": [{\"chunks\": [{\"id\": \"Cube\", \"sixFloats\": false, \"minX\": 0.0,"
             " \"minY\": 0.0, \"minZ\": 0.0, \"maxX\": 0.0, \"maxY\": 0.0, \"maxZ\": 0.0}]}%s", eof);
    expect_json_error("JSON sixFloats false", json, "chunk 0 \"Cube\"", "sixFloats", NULL);
    snprintf(json, sizeof json, "{\"groups\": [{\"chunks\": [{\"id\": \"Pckp\", \"modelId\": 1, \"type\": 1}]}%s", eof);
    expect_json_error("JSON missing field", json, "member \"x\" is missing", NULL);
    /* a chunk holds at most 65535 bytes: known when writing */
    size_t big = 70000;
    char *huge = malloc(big + 200);
    int at = snprintf(huge, 200, "{\"groups\": [{\"chunks\": [{\"id\": \"Head\", \"data\": \"");
    memset(huge + at, 'a', big);
    snprintf(huge + at + big, 200, "\"}]}%s", eof);
    expect_json_error("JSON chunk too large", huge, "chunk 0 \"Head\"", "at most 65535", NULL);
    free(huge);
}

/* ---------- fixtures ---------- */

static const char *const FIXTURES[] = {"minimal", "all-types", "optional-fields", "deviations"};
enum { FIXTURE_COUNT = sizeof FIXTURES / sizeof FIXTURES[0] };

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    rb_buf b;
    rb_buf_init(&b);
    uint8_t chunk_buf[4096];
    size_t n;
    while ((n = fread(chunk_buf, 1, sizeof chunk_buf, f)) > 0) rb_buf_put(&b, chunk_buf, n);
    fclose(f);
    return rb_buf_take(&b, size);
}

/* Without the "$..." annotations a dump adds. */
static void strip_annotations(json_t *j)
{
    json_object_del(j, "$format");
    json_object_del(j, "$source");
}

/* Variants the fixtures must hold, as "id:fields" signatures of chunk records (storedCrc aside). */
static const char *const REQUIRED_VARIANTS[] = {
    "Head:data", "Gnrt:data", "GrpH:data",
    "_Obj:modelId,x,y,z,rotX,rotY,rotZ", "_Obj:modelId,x,y,z,rotX,rotY,rotZ,streamDistance",
    "_Obj:modelId,x,y,z,rotX,rotY,rotZ,streamDistance,drawDistance",
    "Pckp:modelId,type,x,y,z", "Pckp:modelId,type,x,y,z,streamDistance",
    "TxtL:x,y,z,testLineOfSight,streamDistance,text",
    "_Chk:x,y,z,size", "_Chk:x,y,z,size,streamDistance",
    "RChk:type,x,y,z,nextX,nextY,nextZ", "RChk:type,x,y,z,nextX,nextY,nextZ,streamDistance",
    "Crcl:x,y,size", "Crcl:x,y,z,size", "Rect:minX,minY,maxX,maxY", "Sphr:x,y,z,size",
    "Cube:minX,minY,minZ,maxX,maxY,maxZ", "Cube:minX,minXRepeat,minY,minZ,maxX,maxY,maxZ",
    "Cube:sixFloats,minX,minY,minZ,maxX,maxY,maxZ", "ebuC:minX,minY,minZ,maxX,maxY,maxZ",
    "Plgn:minZ,maxZ,points", "Plgn:minZ,maxZ,countsFloats,points", "nglP:minZ,maxZ,points",
    "MapI:x,y,z,type,color,style", "MapI:x,y,z,type,color,style,streamDistance", "IpaM:x,y,z,type,color,style",
    "Wrld:worlds", "Wrld:worlds,trailing", "dlrW:worlds", "_Int:interiors", "_Int:interiors,trailing",
    "tnI_:interiors", "Plyr:players", "Plyr:players,trailing", "rylP:players",
    "Xtra:data", "jbO_:data",
};

typedef struct coverage {
    char seen[256][128];
    size_t count;
    int empty_text, text, empty_group, stale, empty_crc_zero, reversed_eof, groups3;
} coverage;

static void note_variants(rb_doc *doc, coverage *cov)
{
    const rb_node *groups = rb_node_get(rb_doc_root(doc), "groups"); /* chunks as nodes */
    if (groups->v.kids.count >= 3) cov->groups3 = 1;
    for (size_t g = 0; g < groups->v.kids.count; g++) {
        const rb_node *group = groups->v.kids.items[g];
        const rb_node *chunks = rb_node_get(group, "chunks");
        if (!chunks->v.kids.count) cov->empty_group = 1;
        if (rb_node_get(group, "ngrpStoredCrc")) cov->stale = 1;
        for (size_t i = 0; i < chunks->v.kids.count; i++) {
            const rb_node *c = chunks->v.kids.items[i];
            char sig[128];
            const rb_node *id = rb_node_get(c, "id");
            int len = snprintf(sig, sizeof sig, "%.4s:", (const char *)id->v.bytes.data);
            for (size_t k = 1; k < c->v.kids.count; k++) {
                const char *key = c->v.kids.items[k]->key;
                if (strcmp(key, "storedCrc") == 0) {
                    const rb_node *value = rb_node_get(c->v.kids.items[k], "value");
                    if (value->v.bits == 0) cov->empty_crc_zero = 1;
                    else cov->stale = 1;
                    continue;
                }
                len += snprintf(sig + len, sizeof sig - (size_t)len, "%s%s", k > 1 ? "," : "", key);
            }
            if (memcmp(id->v.bytes.data, "TxtL", 4) == 0) {
                if (rb_node_get(c, "text")->v.bytes.size) cov->text = 1;
                else cov->empty_text = 1;
            }
            if (cov->count < 256) snprintf(cov->seen[cov->count++], 128, "%s", sig);
        }
    }
    if (memcmp(rb_node_get(rb_node_get(doc->root, "eof"), "id")->v.bytes.data, "FOE_", 4) == 0) cov->reversed_eof = 1;
}

static void test_fixtures(const char *dir, int regenerate)
{
    coverage *cov = calloc(1, sizeof(*cov));
    for (size_t k = 0; k < FIXTURE_COUNT; k++) {
        char json_path[1024], map_path[1024];
        snprintf(json_path, sizeof json_path, "%s/%s.json", dir, FIXTURES[k]);
        snprintf(map_path, sizeof map_path, "%s/%s.map", dir, FIXTURES[k]);
        json_error_t jerr;
        json_t *j = json_load_file(json_path, 0, &jerr);
        CHECK(j, "%s: %s", json_path, jerr.text);
        if (!j) continue;
        strip_annotations(j);
        rb_error err;
        rb_doc *doc = from_json(j, &err);
        CHECK(doc, "%s: JSON -> model: %s", FIXTURES[k], err.message);
        size_t n = 0;
        uint8_t *built = doc ? write_doc(doc, &n, &err) : NULL;
        CHECK(built, "%s: model -> bytes: %s", FIXTURES[k], err.message);
        rb_doc_free(doc);
        if (!built) { json_decref(j); continue; }
        if (regenerate) {
            FILE *f = fopen(map_path, "wb");
            CHECK(f && fwrite(built, 1, n, f) == n, "%s: cannot write", map_path);
            if (f) fclose(f);
        }
        size_t m = 0;
        uint8_t *committed = read_file(map_path, &m);
        CHECK(committed && m == n && memcmp(committed, built, n) == 0,
              "%s: JSON builds the committed fixture (run with --regenerate after a deliberate change)", FIXTURES[k]);
        /* bytes -> model -> bytes and bytes -> JSON -> bytes */
        CHECK(rewrites_exactly(built, n, FIXTURES[k]), "%s: bytes -> model -> bytes", FIXTURES[k]);
        CHECK(json_rebuilds_exactly(built, n, FIXTURES[k]), "%s: bytes -> JSON -> bytes", FIXTURES[k]);
        /* JSON -> bytes -> JSON */
        doc = parse(built, n, &err);
        CHECK(doc, "%s: reads back: %s", FIXTURES[k], err.message);
        if (doc) {
            json_t *back = dump(doc);
            int same = json_equal(back, j);
            if (!same) {
                char *a = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
                char *b = json_dumps(back, JSON_COMPACT | JSON_PRESERVE_ORDER);
                fprintf(stderr, "  fixture JSON: %s\n  read back:    %s\n", a, b);
                free(a);
                free(b);
            }
            CHECK(same, "%s: JSON -> bytes -> JSON", FIXTURES[k]);
            json_decref(back);
            note_variants(doc, cov);
            rb_doc_free(doc);
        }
        free(committed);
        free(built);
        json_decref(j);
    }
    for (size_t r = 0; r < sizeof REQUIRED_VARIANTS / sizeof REQUIRED_VARIANTS[0]; r++) {
        int found = 0;
        for (size_t i = 0; i < cov->count && !found; i++) found = strcmp(cov->seen[i], REQUIRED_VARIANTS[r]) == 0;
        CHECK(found, "no fixture holds the variant %s", REQUIRED_VARIANTS[r]);
    }
    CHECK(cov->text && cov->empty_text, "text labels with and without text");
    CHECK(cov->empty_group && cov->groups3, "several groups, one of them empty");
    CHECK(cov->stale && cov->empty_crc_zero, "stale checksums and empty-data checksum 0");
    CHECK(cov->reversed_eof, "a reversed _EOF");
    free(cov);
}

/* ---------- mutations ---------- */

typedef struct mutation_stats {
    size_t cases, exact, clean_errors;
} mutation_stats;

/* Damaged input: a clean error (message and offset) or a parse that writes back byte for byte
 * (directly and through JSON). Never anything else. */
static void mutated(const char *name, const char *what, size_t at, const uint8_t *d, size_t n, mutation_stats *st,
                    int must_parse)
{
    st->cases++;
    rb_error err;
    rb_doc *doc = parse(d, n, &err);
    if (!doc) {
        int clean = err.message[0] && err.has_offset;
        CHECK(clean, "%s %s @%zu: error without offset or message: \"%s\"", name, what, at, err.message);
        CHECK(!must_parse, "%s %s @%zu: refused: %s", name, what, at, err.message);
        st->clean_errors += clean;
        return;
    }
    rb_doc_free(doc);
    int exact = rewrites_exactly(d, n, what) && json_rebuilds_exactly(d, n, what);
    CHECK(exact, "%s %s @%zu: parsed but does not write back exactly", name, what, at);
    st->exact += exact;
}

static void test_mutations(const char *dir)
{
    mutation_stats st = {0};
    for (size_t k = 0; k < FIXTURE_COUNT; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.map", dir, FIXTURES[k]);
        size_t n;
        uint8_t *orig = read_file(path, &n);
        CHECK(orig, "%s missing", path);
        if (!orig) continue;
        uint8_t *d = malloc(n + 1);
        /* the chunk boundaries */
        size_t starts[512], count = 0;
        for (size_t pos = 11; pos + 6 <= n && count < 512; pos += 10 + (size_t)(orig[pos] | orig[pos + 1] << 8))
            starts[count++] = pos;
        /* truncation: at every byte, so at every chunk boundary too */
        for (size_t len = 0; len < n; len++) {
            mutated(FIXTURES[k], "truncated", len, orig, len, &st, 0);
        }
        for (size_t c = 0; c < count; c++) {
            rb_error err;
            rb_doc *doc = parse(orig, starts[c], &err);
            CHECK(!doc && contains(err.message, "missing _EOF") && err.offset == starts[c],
                  "%s cut before chunk %zu: %s", FIXTURES[k], c, err.message);
            rb_doc_free(doc);
        }
        for (size_t c = 0; c < count; c++) {
            size_t p = starts[c], size = orig[p] | orig[p + 1] << 8;
            /* the checksum: any value reads, is noted and written back */
            for (int b = 0; b < 4; b++) {
                memcpy(d, orig, n);
                d[p + 6 + size + (size_t)b] ^= 0x5A;
                mutated(FIXTURES[k], "checksum", p, d, n, &st, 1);
                rb_error err;
                rb_doc *doc = parse(d, n, &err);
                CHECK(doc && rb_doc_note_count(doc) > 0, "%s chunk %zu: a damaged checksum is noted", FIXTURES[k], c);
                rb_doc_free(doc);
            }
            /* the size: larger, smaller, huge, zero */
            static const int deltas[] = {1, -1, 4, -4, 0x7fff, -0x10000};
            for (size_t i = 0; i < sizeof deltas / sizeof deltas[0]; i++) {
                memcpy(d, orig, n);
                unsigned v = (unsigned)(((int)size + deltas[i]) & 0xFFFF);
                d[p] = (uint8_t)v;
                d[p + 1] = (uint8_t)(v >> 8);
                mutated(FIXTURES[k], "size", p, d, n, &st, 0);
            }
            /* the id: each byte flipped, and reversed */
            for (int b = 0; b < 4; b++) {
                memcpy(d, orig, n);
                d[p + 2 + (size_t)b] ^= 0x20;
                mutated(FIXTURES[k], "id", p, d, n, &st, 0);
            }
            memcpy(d, orig, n);
            for (int b = 0; b < 4; b++) d[p + 2 + (size_t)b] = orig[p + 5 - (size_t)b];
            mutated(FIXTURES[k], "reversed id", p, d, n, &st, 0);
        }
        /* every byte, two ways */
        for (size_t i = 0; i < n; i++) {
            for (int way = 0; way < 2; way++) {
                memcpy(d, orig, n);
                d[i] = way ? (uint8_t)(d[i] ^ 0xFF) : (uint8_t)(d[i] + 1);
                mutated(FIXTURES[k], "byte", i, d, n, &st, 0);
            }
        }
        /* one byte more at the end */
        memcpy(d, orig, n);
        d[n] = 0;
        mutated(FIXTURES[k], "appended", n, d, n + 1, &st, 0);
        free(d);
        free(orig);
    }
    printf("mutations: %zu cases, %zu clean errors, %zu exact round trips\n", st.cases, st.clean_errors, st.exact);
    CHECK(st.cases == st.clean_errors + st.exact, "every case is a clean error or an exact round trip");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_streamer FIXTURE_DIR [--regenerate]\n");
        return 2;
    }
    int regenerate = argc > 2 && strcmp(argv[2], "--regenerate") == 0;
    test_handmade_layout();
    amb_empty_checksum();
    amb_reversed_ids();
    amb_circle_sizes();
    amb_rect_sphere_sizes();
    amb_cube_sizes();
    amb_polygon_count();
    amb_id_list_trailing();
    test_stale_checksum();
    test_packed_chunks();
    test_validation_errors();
    test_fixtures(argv[1], regenerate);
    test_mutations(argv[1]);
    if (test_failures) {
        fprintf(stderr, "%d checks failed\n", test_failures);
        return 1;
    }
    printf("streamer: all checks passed\n");
    return 0;
}
