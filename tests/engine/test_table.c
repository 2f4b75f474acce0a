/*
 * Tables (rb_ar_table, model.h rb_layout): a list of fixed-layout elements kept packed must be
 * indistinguishable from the same list described field by field — in JSON, in bytes written, in
 * the C API, in error paths and locations — and every way of changing it must write what it says.
 * Two test formats read the same bytes: "packed" with tables and a packed record
 * (rb_ar_packed_record), "spelled" with list and record primitives.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/doc.h"
#include "tests/test_util.h"
#include "core/json/json.h"

static const rb_layout_field VEC_FIELDS[] = {{"x", RB_K_FLOAT, 4}, {"y", RB_K_FLOAT, 4}, {"z", RB_K_FLOAT, 4}};
static const rb_layout VEC = {"vector", VEC_FIELDS, 3};
static const rb_layout_field POINT_FIELDS[] = {
    {"id", RB_K_INT, RB_U16},
    {"pos", RB_K_RECORD, .record = &VEC},
    {"flags", RB_K_INT, RB_X32},
    {"visible", RB_K_BOOL, 1},
    {"delta", RB_K_INT, RB_I8},
    {"tag", RB_K_BLOB, .size = 3},
};
static const rb_layout POINT = {"point", POINT_FIELDS, 6};
static const rb_layout_field I32_FIELDS[] = {{NULL, RB_K_INT, RB_I32}};
static const rb_layout I32 = {"int32", I32_FIELDS, 1};
/* a value the format fixes (a record size, a marker) sits in each element but not in the model */
static const rb_layout_field MARKED_FIELDS[] = {{"marker", RB_LAYOUT_CONSTANT, RB_U16, .constant = 0xBEEF},
                                                {"v", RB_K_INT, RB_U8}};
static const rb_layout MARKED = {"marked byte", MARKED_FIELDS, 2};
/* one record kept packed (rb_ar_packed_record): a size the format fixes, a fixed-size string, a
 * nested vector */
static const rb_layout_field ORIGIN_FIELDS[] = {{"size", RB_LAYOUT_CONSTANT, RB_U8, .constant = 16},
                                                {"name", RB_K_STRING, .size = 4},
                                                {"pos", RB_K_RECORD, .record = &VEC}};
static const rb_layout ORIGIN = {"origin", ORIGIN_FIELDS, 3};
enum {
    POINT_BYTES = 2 + 12 + 4 + 1 + 1 + 3,
    NUMBERS_AT = 9 + 3 * POINT_BYTES,
    MARKED_AT = NUMBERS_AT + 16,
    ORIGIN_AT = MARKED_AT + 6,
    ORIGIN_BYTES = 1 + 4 + 12
};

/* The magic, then 'B' (binary) or 'T' (text encoding from here on), then the lists. */
static void header(rb_ar *ar)
{
    rb_ar_expect(ar, "magic", "TBL1", 4);
    uint32_t encoding = (uint32_t)rb_ar_uint(ar, "encoding", RB_U8 | RB_W_CHAR);
    rb_ar_set_text(ar, encoding == 'T');
}

static void describe_packed(rb_ar *ar)
{
    header(ar);
    rb_ar_table(ar, "points", RB_U32, &POINT);
    rb_ar_table_n(ar, "numbers", 4, &I32);
    /* values a description derives from other bytes (here: the numbers again, negated) */
    const rb_node *numbers = rb_node_get(rb_ar_current(ar), "numbers");
    uint8_t *negated = rb_ar_direction(ar) == RB_AR_READ ? rb_arena_alloc(rb_ar_arena(ar), 16) : NULL;
    for (size_t i = 0; negated && i < 4; i++) {
        uint32_t v = (uint32_t)-(int32_t)rb_element_uint(numbers, i, NULL);
        for (int k = 0; k < 4; k++) negated[4 * i + k] = (uint8_t)(v >> (8 * k));
    }
    uint64_t derived = rb_ar_table_detached(ar, "negated", &I32, negated, 4);
    if (rb_ar_ok(ar) && derived != 4) rb_ar_fail(ar, RB_E_MODEL, "negated has %llu numbers", (unsigned long long)derived);
    rb_ar_table_n(ar, "marked", 2, &MARKED);
    rb_ar_packed_record(ar, "origin", &ORIGIN);
    rb_ar_u8(ar, "end");
}

static void spelled_vec(rb_ar *ar, const char *key)
{
    rb_ar_record_begin(ar, key);
    rb_ar_f32(ar, "x");
    rb_ar_f32(ar, "y");
    rb_ar_f32(ar, "z");
    rb_ar_record_end(ar);
}

static void describe_spelled(rb_ar *ar)
{
    header(ar);
    uint64_t n = rb_ar_list_begin(ar, "points", RB_U32, POINT_BYTES);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) {
        rb_ar_record_begin(ar, NULL);
        rb_ar_u16(ar, "id");
        spelled_vec(ar, "pos");
        rb_ar_x32(ar, "flags");
        rb_ar_bool(ar, "visible", 1);
        rb_ar_sint(ar, "delta", RB_I8);
        rb_ar_bytes(ar, "tag", RB_K_BLOB, 3);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
    n = rb_ar_list_begin_n(ar, "numbers", 4, 4);
    int32_t values[4] = {0};
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) values[i < 4 ? i : 3] = rb_ar_i32(ar, NULL);
    rb_ar_list_end(ar);
    n = rb_ar_list_begin_n(ar, "negated", 4, 0);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) rb_ar_uint_detached(ar, NULL, RB_I32, (uint32_t)-values[i < 4 ? i : 3]);
    rb_ar_list_end(ar);
    n = rb_ar_list_begin_n(ar, "marked", 2, 3);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) {
        rb_ar_record_begin(ar, NULL);
        rb_slot marker = rb_ar_slot(ar, "marker", RB_U16);
        if (rb_ar_direction(ar) == RB_AR_READ && marker.value != 0xBEEF) rb_ar_fail(ar, RB_E_FORMAT, "bad marker");
        rb_ar_slot_set(ar, &marker, 0xBEEF);
        rb_ar_u8(ar, "v");
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
    rb_ar_record_begin(ar, "origin");
    rb_slot origin_size = rb_ar_slot(ar, "size", RB_U8);
    if (rb_ar_direction(ar) == RB_AR_READ && origin_size.value != 16) rb_ar_fail(ar, RB_E_FORMAT, "bad size");
    rb_ar_slot_set(ar, &origin_size, 16);
    rb_ar_fixed_string(ar, "name", 4);
    spelled_vec(ar, "pos");
    rb_ar_record_end(ar);
    rb_ar_u8(ar, "end");
}

static int detect(const uint8_t *d, size_t n) { return n >= 4 && memcmp(d, "TBL1", 4) == 0 ? 100 : 0; }
static const rb_format packed_format = {"packed", "tables", detect, describe_packed};
static const rb_format spelled_format = {"spelled", "lists", detect, describe_spelled};

static void put_le(rb_buf *b, uint64_t v, unsigned width) { rb_buf_put_le(b, v, width); }

static uint8_t *make_input(size_t *size)
{
    rb_buf b;
    rb_buf_init(&b);
    rb_buf_put(&b, "TBL1B", 5);
    put_le(&b, 3, 4);
    for (uint32_t i = 0; i < 3; i++) {
        put_le(&b, 100 + i, 2);
        float xyz[3] = {1.5f * i, -2.25f, i == 2 ? -0.0f : 1e-3f};
        for (int k = 0; k < 3; k++) {
            uint32_t bits;
            memcpy(&bits, &xyz[k], 4);
            put_le(&b, bits, 4);
        }
        put_le(&b, 0xC0FFEE00u + i, 4);
        put_le(&b, i == 1 ? 7 : i, 1); /* a boolean that is neither 0 nor 1 */
        put_le(&b, (uint8_t)(int8_t)-3, 1);
        rb_buf_put(&b, "ab\xff", 3);
    }
    for (int32_t k = -2; k < 2; k++) put_le(&b, (uint32_t)k, 4);
    for (int k = 0; k < 2; k++) put_le(&b, 0xBEEF, 2), put_le(&b, 0x10 + k, 1);
    put_le(&b, 16, 1);
    rb_buf_put(&b, "home", 4);
    for (int k = 0; k < 3; k++) put_le(&b, 0x3F800000u + (uint32_t)k, 4); /* 1.0 and its next floats */
    put_le(&b, 0x5A, 1);
    return rb_buf_take(&b, size);
}

static rb_doc *parse(const rb_format *format, const uint8_t *data, size_t size, rb_error *err)
{
    rb_read_options opt = {.file_name = "table-test"};
    return rb_doc_parse_as(format, data, size, &opt, err);
}

static uint8_t *write_doc(rb_doc *doc, size_t *size)
{
    uint8_t *out = NULL;
    rb_error err;
    if (rb_doc_write(doc, NULL, &out, size, &err) != RB_OK) {
        fprintf(stderr, "write: %s (%s)\n", err.message, err.path);
        return NULL;
    }
    return out;
}

/* Blobs as base64: a text file holds them elsewhere than the binary one. */
static char *json_text(rb_doc *doc)
{
    json_t *j = rb_model_to_json(doc, doc->root, RB_BLOBS_BASE64);
    char *s = json_dumps(j, JSON_SORT_KEYS);
    json_decref(j);
    return s;
}

static const rb_node *find_kind(const rb_node *n, int kind)
{
    if (n->kind == kind) return n;
    if (!rb_node_is_container(n)) return NULL;
    for (size_t i = 0; i < n->v.kids.count; i++) {
        const rb_node *hit = find_kind(n->v.kids.items[i], kind);
        if (hit) return hit;
    }
    return NULL;
}

static int same_bytes(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) { return an == bn && memcmp(a, b, an) == 0; }

/* Packed and spelled models of the same bytes show the same JSON and write the same bytes. */
static void test_packed_equals_spelled(const uint8_t *in, size_t size)
{
    rb_error err;
    rb_doc *packed = parse(&packed_format, in, size, &err), *spelled = parse(&spelled_format, in, size, &err);
    CHECK(packed && spelled, "both formats read the input");
    if (!packed || !spelled) return;
    CHECK(find_kind(packed->root, RB_K_TABLE) != NULL, "binary read keeps the points as a table");
    CHECK(find_kind(spelled->root, RB_K_TABLE) == NULL, "the spelled format has no table");
    char *a = json_text(packed), *b = json_text(spelled);
    CHECK(a && b && strcmp(a, b) == 0, "packed and spelled models show the same JSON");
    json_t *ra = rb_model_to_json(packed, packed->root, RB_BLOBS_REF), *rb = rb_model_to_json(spelled, spelled->root, RB_BLOBS_REF);
    char *refs = json_dumps(ra, 0);
    CHECK(json_equal(ra, rb) && refs && strstr(refs, "\"$blob\""), "and the same blob references into the input");
    free(refs);
    json_decref(ra);
    json_decref(rb);
    size_t out_size;
    uint8_t *out = write_doc(packed, &out_size);
    CHECK(out && same_bytes(out, out_size, in, size), "a table writes back the input");
    free(out);
    rb_coverage ca = RB_COVERAGE_INIT, cb = RB_COVERAGE_INIT;
    rb_doc_coverage(packed, &ca);
    rb_doc_coverage(spelled, &cb);
    /* a table's bytes are typed, its constants too (the spelled list leaves them to slots) */
    CHECK(ca.typed_bytes == cb.typed_bytes + 2 * 2 + 1 && ca.opaque_bytes == 0, "a table counts as typed bytes");
    free(a);
    free(b);
    rb_doc_free(packed);
    rb_doc_free(spelled);
}

/* A model built from JSON (FROM_JSON spells the fields) writes the same bytes. */
static void test_from_json(const uint8_t *in, size_t size)
{
    rb_error err;
    rb_doc *doc = parse(&packed_format, in, size, &err);
    if (!doc) return;
    json_t *j = rb_model_to_json(doc, doc->root, RB_BLOBS_BASE64);
    json_t *points = json_object_get(j, "points");
    json_object_set_new(json_object_get(json_array_get(points, 2), "pos"), "y", json_real(8.0));
    rb_doc *built = rb_doc_from_json_loader(&packed_format, j, NULL, doc, "table-test.json", 0, &err);
    CHECK(built != NULL, "a model with a table builds from JSON");
    size_t out_size = 0;
    uint8_t *out = built ? write_doc(built, &out_size) : NULL;
    size_t y_at = 5 + 4 + 2 * POINT_BYTES + 2 + 4;
    float eight = 8.0f;
    int only_y = out && out_size == size && memcmp(out + y_at, &eight, 4) == 0 && memcmp(out, in, y_at) == 0 &&
                 memcmp(out + y_at + 4, in + y_at + 4, size - y_at - 4) == 0;
    CHECK(only_y, "an edit through JSON changes exactly the element's four bytes");
    json_array_append_new(points, json_deep_copy(json_array_get(points, 0)));
    rb_doc *grown = rb_doc_from_json_loader(&packed_format, j, NULL, doc, "table-test.json", 0, &err);
    size_t grown_size = 0;
    uint8_t *grown_out = grown ? write_doc(grown, &grown_size) : NULL;
    CHECK(grown_out && grown_size == size + POINT_BYTES && grown_out[5] == 4, "an element added in JSON is written and counted");
    CHECK(grown_out && grown_out[MARKED_AT + POINT_BYTES + 3] == 0xEF && grown_out[MARKED_AT + POINT_BYTES + 4] == 0xBE,
          "a constant is written from a model that does not hold it");
    json_object_set_new(json_array_get(points, 1), "delta", json_integer(200));
    rb_doc *bad = rb_doc_from_json_loader(&packed_format, j, NULL, doc, "table-test.json", 0, &err);
    CHECK(!bad && strstr(err.path, "/points/1/delta") != NULL, "a bad element value is refused with its pointer");
    json_array_remove(json_object_get(j, "numbers"), 0);
    rb_doc_free(bad);
    free(grown_out);
    rb_doc_free(grown);
    free(out);
    rb_doc_free(built);
    json_decref(j);
    rb_doc_free(doc);
}

/* A detached table (values derived from other bytes) reads as a table, writes nothing, and a
 * model built from JSON holds what the JSON says (the description decides what it means). */
static void test_detached(const uint8_t *in, size_t size)
{
    rb_error err;
    rb_doc *doc = parse(&packed_format, in, size, &err);
    if (!doc) return;
    const rb_node *negated = rb_node_get(doc->root, "negated");
    CHECK(negated && negated->kind == RB_K_TABLE && negated->src_size == 0, "a detached table covers no input bytes");
    CHECK(rb_element_count(negated) == 4 && (int32_t)rb_element_uint(negated, 0, NULL) == 2, "its elements are the derived values");
    json_t *j = rb_model_to_json(doc, doc->root, RB_BLOBS_BASE64);
    json_array_set_new(json_object_get(j, "negated"), 3, json_integer(-77));
    rb_doc *built = rb_doc_from_json_loader(&packed_format, j, NULL, doc, "table-test.json", 0, &err);
    size_t out_size = 0;
    uint8_t *out = built ? write_doc(built, &out_size) : NULL;
    CHECK(out && same_bytes(out, out_size, in, size), "a detached table writes nothing");
    const rb_node *edited = built ? rb_node_get(built->root, "negated") : NULL;
    CHECK(edited && edited->kind == RB_K_LIST && (int32_t)rb_element_uint(edited, 3, NULL) == -77,
          "a model from JSON holds the detached list as nodes, with its values");
    free(out);
    rb_doc_free(built);
    json_decref(j);
    rb_doc_free(doc);
}

/* The C API sees a list; asking for an element turns the table into nodes, which edit and write. */
static void test_api_expansion(const uint8_t *in, size_t size)
{
    rb_error err;
    rb_doc *doc = parse(&packed_format, in, size, &err);
    if (!doc) return;
    char *before = json_text(doc);
    rb_node *points = rb_node_at_edit(rb_doc_root(doc), "/points");
    CHECK(points && rb_node_kind_of(points) == RB_NODE_LIST && rb_node_child_count(points) == 3, "a table is a list of 3 to the API");
    rb_node *y = rb_node_at_edit(rb_doc_root(doc), "/points/1/pos/y");
    CHECK(y && test_float(y) == -2.25, "an element's field by pointer");
    CHECK(points && points->kind == RB_K_LIST, "asking for an element turned the table into nodes");
    char *after = json_text(doc);
    CHECK(before && after && strcmp(before, after) == 0, "turning a table into nodes does not change the JSON");
    size_t out_size;
    uint8_t *out = write_doc(doc, &out_size);
    CHECK(out && same_bytes(out, out_size, in, size), "the expanded list writes the same bytes");
    free(out);
    CHECK(y && rb_node_set_float(y, 0.5) == RB_OK, "edit an element's float");
    rb_node *n2 = rb_node_at_edit(rb_doc_root(doc), "/numbers/2");
    CHECK(n2 && test_int(n2) == 0 && rb_node_set_int(n2, -9) == RB_OK, "edit a bare number");
    out = write_doc(doc, &out_size);
    rb_doc *again = out ? parse(&packed_format, out, out_size, &err) : NULL;
    rb_node *y2 = again ? rb_node_at_edit(rb_doc_root(again), "/points/1/pos/y") : NULL;
    rb_node *m2 = again ? rb_node_at_edit(rb_doc_root(again), "/numbers/2") : NULL;
    CHECK(y2 && test_float(y2) == 0.5 && m2 && test_int(m2) == -9, "API edits are written and read back");
    free(before);
    free(after);
    rb_doc_free(again);
    free(out);
    rb_doc_free(doc);
}

/* A packed record: one node, the record it stands for everywhere else; edits unpack it. */
static void test_packed_record(const uint8_t *in, size_t size)
{
    rb_error err;
    rb_doc *doc = parse(&packed_format, in, size, &err);
    if (!doc) return;
    /* the model as read, before the C API's navigation turns packed records into nodes
     * (rb_doc_root, docs/performance.md "Reads never write") */
    rb_node *origin = rb_node_get(doc->root, "origin");
    CHECK(origin && origin->kind == RB_K_PACKED && origin->src_offset == ORIGIN_AT && origin->src_size == ORIGIN_BYTES,
          "binary read keeps the record as one node over its bytes");
    CHECK(origin && rb_node_kind_of(origin) == RB_NODE_RECORD, "a packed record is a record to the API");
    char path[256];
    rb_doc_path_at(doc, ORIGIN_AT + 5 + 4 + 2, path, sizeof path); /* inside pos.y */
    CHECK(strcmp(path, "origin > pos > y") == 0, "a byte inside it names the field: %s", path);
    rb_record_scratch scratch;
    const rb_node *view = rb_record_view(origin, &scratch);
    const rb_node *name = rb_node_get(view, "name");
    CHECK(name && name->kind == RB_K_STRING && name->v.bytes.size == 4 && memcmp(name->v.bytes.data, "home", 4) == 0 &&
              origin->kind == RB_K_PACKED,
          "rb_record_view reads a field without unpacking");
    rb_node *x = rb_node_at_edit(rb_doc_root(doc), "/origin/pos/x");
    CHECK(x && test_float(x) == 1.0 && origin->kind == RB_K_RECORD, "navigating the API unpacks it");
    CHECK(x && rb_node_set_float(x, -4.0) == RB_OK, "edit a field of the unpacked record");
    size_t out_size;
    uint8_t *out = write_doc(doc, &out_size);
    float minus_four = -4.0f;
    CHECK(out && out_size == size && memcmp(out + ORIGIN_AT + 5, &minus_four, 4) == 0 &&
              memcmp(out, in, ORIGIN_AT + 5) == 0 && memcmp(out + ORIGIN_AT + 9, in + ORIGIN_AT + 9, size - ORIGIN_AT - 9) == 0,
          "the edit writes exactly its four bytes, the constant from the layout");
    free(out);
    rb_doc_free(doc);
    /* a packed record where the model has another layout is refused, naming both */
    doc = parse(&packed_format, in, size, &err);
    origin = doc ? rb_node_get(doc->root, "origin") : NULL;
    CHECK(origin && origin->kind == RB_K_PACKED, "the record is packed before navigation");
    if (origin && origin->kind == RB_K_PACKED) {
        rb_table other = *origin->table;
        other.layout = &MARKED;
        origin->table = &other;
        CHECK(rb_doc_write(doc, NULL, &out, &out_size, &err) == RB_E_MODEL && strstr(err.message, "packed marked byte") &&
                  strstr(err.message, "origin"),
              "a packed record of another layout is refused: %s", err.message);
    }
    rb_doc_free(doc);
}

/* Every node below `n` as rb_child_view shows it, one line each: its key or index, its kind, and a
 * scalar's bits or a string's bytes, appended to `out`. */
static void spell_views(const rb_node *n, const char *name, rb_buf *out)
{
    char line[160];
    size_t size = 0;
    const uint8_t *bytes = rb_node_bytes(n, &size);
    int shown = snprintf(line, sizeof line, "%s %d %llu ", name, (int)rb_node_kind_of(n),
                         (unsigned long long)(rb_node_is_container(n) || n->kind == RB_K_TABLE || bytes ? 0 : n->v.bits));
    rb_buf_put(out, line, (size_t)shown);
    if (bytes) rb_buf_put(out, bytes, size);
    rb_buf_put(out, "\n", 1);
    for (size_t i = 0; i < rb_node_child_count(n); i++) {
        rb_record_scratch scratch;
        const rb_node *child = rb_child_view(n, i, &scratch);
        char child_name[64];
        if (child && child->key) snprintf(child_name, sizeof child_name, "%s", child->key);
        else snprintf(child_name, sizeof child_name, "[%zu]", i);
        if (child) spell_views(child, child_name, out);
    }
}

/* A walk through rb_child_view sees a packed table's elements and a packed record's fields as the
 * spelled model has them, and leaves the packed document packed (reads never write). */
static void test_child_view(const uint8_t *in, size_t size)
{
    rb_error err;
    rb_doc *packed = parse(&packed_format, in, size, &err), *spelled = parse(&spelled_format, in, size, &err);
    CHECK(packed && spelled, "both formats read the input");
    if (!packed || !spelled) return;
    rb_buf a, b;
    rb_buf_init(&a);
    rb_buf_init(&b);
    spell_views(packed->root, "", &a);
    spell_views(spelled->root, "", &b);
    CHECK(a.size > 0 && a.size == b.size && memcmp(a.data, b.data, a.size) == 0,
          "the views of the packed model are the spelled model's nodes (%zu and %zu bytes spelled)", a.size, b.size);
    CHECK(find_kind(packed->root, RB_K_TABLE) && find_kind(packed->root, RB_K_PACKED),
          "the walk leaves the tables and the packed record packed");
    rb_record_scratch scratch;
    const rb_node *table = find_kind(packed->root, RB_K_TABLE);
    CHECK(table && !rb_child_view(table, rb_node_child_count(table), &scratch), "no element past the end");
    rb_buf_free(&a);
    rb_buf_free(&b);
    rb_doc_free(packed);
    rb_doc_free(spelled);
}

/* Locations: a byte inside an element names the element and the field; a truncated table says
 * where it was cut; an impossible count is refused before anything is allocated. */
static void test_locations_and_errors(const uint8_t *in, size_t size)
{
    rb_error err;
    rb_doc *doc = parse(&packed_format, in, size, &err);
    if (doc) {
        char path[256];
        rb_doc_path_at(doc, 9 + POINT_BYTES + 2 + 4 + 1, path, sizeof path); /* inside point 1's y */
        CHECK(strcmp(path, "points[1] > pos > y") == 0, "offset inside a table names element and field");
        rb_doc_free(doc);
    }
    rb_doc *cut = parse(&packed_format, in, 9 + POINT_BYTES + 5, &err);
    CHECK(!cut && err.has_offset && strstr(err.message, "cannot fit") && strstr(err.path, "points"),
          "a cut table is refused at its count, naming it");
    uint8_t *big = malloc(size);
    memcpy(big, in, size);
    big[5] = 0xFF, big[6] = 0xFF, big[7] = 0xFF, big[8] = 0x0F;
    rb_doc *huge = parse(&packed_format, big, size, &err);
    CHECK(!huge && err.offset == 5 && strstr(err.message, "cannot fit"), "an impossible count is refused at its offset");
    big[5] = 3, big[6] = big[7] = big[8] = 0;
    big[MARKED_AT + 3] = 0xEE; /* the second element's marker */
    rb_doc *unmarked = parse(&packed_format, big, size, &err);
    CHECK(!unmarked && err.offset == MARKED_AT + 3 && strstr(err.message, "element 1: marker is 48878, the format fixes it at 48879"),
          "a constant that is not what the format fixes is refused where it is, its element named");
    rb_doc *cut_origin = parse(&packed_format, in, ORIGIN_AT + 7, &err);
    CHECK(!cut_origin && err.offset == ORIGIN_AT && strstr(err.message, "needs 17 bytes, only 7 left") && strstr(err.path, "origin"),
          "a cut packed record is refused where it starts: %s", err.message);
    big[MARKED_AT + 3] = in[MARKED_AT + 3];
    big[ORIGIN_AT] = 15; /* its size, which the layout fixes */
    rb_doc *resized = parse(&packed_format, big, size, &err);
    CHECK(!resized && err.offset == ORIGIN_AT && strstr(err.message, "size is 15, the format fixes it at 16"),
          "a packed record's constant is checked where it is: %s", err.message);
    free(big);
}

/* The text encoding spells every field of a table on its own line and reads it back. */
static void test_text(const uint8_t *in, size_t size)
{
    rb_error err;
    rb_doc *doc = parse(&packed_format, in, size, &err);
    if (!doc) return;
    char *binary_json = json_text(doc);
    rb_node_set_uint(rb_node_at_edit(rb_doc_root(doc), "/encoding"), 'T');
    size_t text_size;
    uint8_t *text = write_doc(doc, &text_size);
    CHECK(text && text_size > size && memmem(text, text_size, "-2.25\r\n", 7), "a table writes as text lines");
    rb_doc *back = text ? parse(&packed_format, text, text_size, &err) : NULL;
    const rb_node *points = back ? rb_node_get(back->root, "points") : NULL;
    CHECK(points && points->kind == RB_K_LIST, "text reads a table field by field");
    if (back) rb_node_set_uint(rb_node_at_edit(rb_doc_root(back), "/encoding"), 'B');
    char *back_json = back ? json_text(back) : NULL;
    CHECK(back_json && strcmp(back_json, binary_json) == 0, "binary -> text -> model keeps every value");
    size_t again_size;
    uint8_t *again = back ? write_doc(back, &again_size) : NULL;
    CHECK(again && same_bytes(again, again_size, in, size), "and writes the binary input again");
    free(again);
    free(back_json);
    rb_doc_free(back);
    free(text);
    free(binary_json);
    rb_doc_free(doc);
}

int main(void)
{
    size_t size;
    uint8_t *in = make_input(&size);
    test_packed_equals_spelled(in, size);
    test_from_json(in, size);
    test_api_expansion(in, size);
    test_detached(in, size);
    test_locations_and_errors(in, size);
    test_packed_record(in, size);
    test_child_view(in, size);
    test_text(in, size);
    free(in);
    return test_failures ? 1 : 0;
}
