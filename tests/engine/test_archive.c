/*
 * Unit tests of the archive: every primitive in every direction (bytes -> model -> bytes,
 * model -> JSON -> model -> bytes), the lossless JSON spellings, validation of JSON input,
 * bounds checks and error locations, derived sizes and streams.
 * The test format below is made for the test; its bytes are built here.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "tests/test_util.h"
#include "core/doc/doc.h"
#include "core/json/json.h"


/* ---------- the test format ---------- */

static void describe_scalars(rb_ar *ar)
{
    rb_ar_record_begin(ar, "scalars");
    rb_ar_u8(ar, "u8");
    rb_ar_uint(ar, "u16be", RB_U16 | RB_W_BE);
    rb_ar_u32(ar, "u32");
    rb_ar_u64(ar, "u64big");
    rb_ar_sint(ar, "i8", RB_I8);
    rb_ar_sint(ar, "i16", RB_I16);
    rb_ar_i32(ar, "i32");
    rb_ar_sint(ar, "i64", RB_I64);
    rb_ar_x32(ar, "hexId");
    rb_ar_f32(ar, "f32");
    rb_ar_f32(ar, "f32nanPayload");
    rb_ar_f32(ar, "f32negZero");
    rb_ar_f32(ar, "f32inf");
    rb_ar_f64(ar, "f64");
    rb_ar_bool(ar, "bool32", 4);
    rb_ar_bool(ar, "bool32raw", 4);
    rb_ar_bool(ar, "bool8", 1);
    rb_ar_record_end(ar);
}

static void describe_strings(rb_ar *ar)
{
    rb_ar_record_begin(ar, "strings");
    rb_ar_string(ar, "plain", RB_I32);
    rb_ar_string(ar, "bom", RB_I32);
    rb_ar_string(ar, "invalidUtf8", RB_I32);
    rb_ar_string(ar, "embeddedNul", RB_U8);
    rb_ar_fixed_string(ar, "fixed4", 4);
    rb_ar_record_end(ar);
}

static void describe_test(rb_ar *ar)
{
    rb_ar_expect(ar, "TEST magic", "TST1", 4);
    uint8_t version = rb_ar_u8(ar, "version");
    describe_scalars(ar);
    describe_strings(ar);
    /* the description language's list loop: the round trips need the list ended after its last
     * element (the fields after it are outside it), truncation inside it is reported where it is */
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "numbers", RB_U32, 2)) rb_ar_uint(ar, NULL, RB_U16);
    rb_ar_sized_begin(ar, "section size", RB_U32);
    rb_ar_record_begin(ar, "section");
    rb_ar_u32(ar, "a");
    rb_ar_bytes(ar, "blob", RB_K_BLOB, rb_ar_remaining(ar));
    rb_ar_record_end(ar);
    rb_ar_sized_end(ar);
    if (version >= 2) rb_ar_u16(ar, "onlyInVersion2");
    rb_slot content = rb_ar_slot(ar, "content size", RB_U32);
    rb_slot encoded = rb_ar_slot(ar, "encoded size", RB_U32);
    rb_ar_stream_begin(ar, "packed", &rb_codec_zlib, content.value, encoded.value);
    rb_ar_u32(ar, "value");
    rb_ar_rest(ar, "rest");
    rb_ar_stream_end(ar, &content, &encoded);
    rb_ar_rest(ar, "tail");
}

static int detect_test(const uint8_t *d, size_t n) { return n >= 4 && memcmp(d, "TST1", 4) == 0 ? 100 : 0; }
static const rb_format test_format = {"test", "archive test format", detect_test, describe_test};

/* ---------- building the bytes ---------- */

static void put_string(rb_buf *b, const char *s, size_t n, unsigned prefix)
{
    rb_buf_put_le(b, n, prefix);
    rb_buf_put(b, s, n);
}

static uint8_t *make_input(int version, size_t *size)
{
    rb_buf b;
    rb_buf_init(&b);
    rb_buf_put(&b, "TST1", 4);
    rb_buf_put_u8(&b, (uint8_t)version);
    rb_buf_put_u8(&b, 200);                  /* u8 */
    rb_buf_put_be(&b, 0x1234, 2);            /* u16be */
    rb_buf_put_le(&b, 4000000000u, 4);       /* u32 */
    rb_buf_put_le(&b, 0xFFFFFFFFFFFFFFF0ull, 8); /* u64 above 2^63 */
    rb_buf_put_u8(&b, 0x80);                 /* i8 = -128 */
    rb_buf_put_le(&b, 0xFFFE, 2);            /* i16 = -2 */
    rb_buf_put_le(&b, (uint32_t)-123456, 4); /* i32 */
    rb_buf_put_le(&b, (uint64_t)INT64_MIN, 8);
    rb_buf_put_le(&b, 0x0304301Fu, 4);       /* hexId */
    float f = 0.1f;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    rb_buf_put_le(&b, bits, 4);
    rb_buf_put_le(&b, 0x7fc00001u, 4);       /* NaN with a payload */
    rb_buf_put_le(&b, 0x80000000u, 4);       /* -0.0 */
    rb_buf_put_le(&b, 0x7f800000u, 4);       /* +inf */
    double d = 1.0 / 3.0;
    uint64_t dbits;
    memcpy(&dbits, &d, 8);
    rb_buf_put_le(&b, dbits, 8);
    rb_buf_put_le(&b, 1, 4);                 /* bool32 */
    rb_buf_put_le(&b, 2, 4);                 /* bool32 that is neither 0 nor 1 */
    rb_buf_put_u8(&b, 0);                    /* bool8 */
    put_string(&b, "Stadium", 7, 4);
    put_string(&b, "\xEF\xBB\xBFmap", 6, 4); /* BOM */
    put_string(&b, "\xC3\x28\xFF", 3, 4);    /* invalid UTF-8 */
    put_string(&b, "a\0b", 3, 1);            /* embedded NUL */
    rb_buf_put(&b, "ABCD", 4);
    rb_buf_put_le(&b, 3, 4);                 /* numbers */
    rb_buf_put_le(&b, 1, 2);
    rb_buf_put_le(&b, 2, 2);
    rb_buf_put_le(&b, 65535, 2);
    rb_buf_put_le(&b, 7, 4);                 /* section size */
    rb_buf_put_le(&b, 42, 4);
    rb_buf_put(&b, "xyz", 3);
    if (version >= 2) rb_buf_put_le(&b, 9, 2);
    uint8_t content[64];
    memset(content, 'q', sizeof content);
    content[0] = 77; content[1] = content[2] = content[3] = 0; /* value = 77 */
    uint8_t packed[128];
    uLongf packed_size = sizeof packed;
    compress2(packed, &packed_size, content, sizeof content, 9); /* level 9: differs from our encoder's default */
    rb_buf_put_le(&b, sizeof content, 4);
    rb_buf_put_le(&b, packed_size, 4);
    rb_buf_put(&b, packed, packed_size);
    rb_buf_put(&b, "END", 3);
    return rb_buf_take(&b, size);
}

static rb_doc *parse(const uint8_t *data, size_t size, rb_error *err)
{
    rb_read_options o = {.file_name = "test.tst"};
    return rb_doc_parse_as(&test_format, data, size, &o, err);
}

static int write_doc(rb_doc *doc, int reencode, uint8_t **out, size_t *out_size)
{
    rb_write_options o = {.reencode = reencode};
    rb_error err;
    rb_status st = rb_doc_write(doc, &o, out, out_size, &err);
    if (st != RB_OK) {
        char text[1600];
        fprintf(stderr, "write failed: %s\n", rb_error_format(&err, text, sizeof text));
    }
    return st == RB_OK;
}

static json_t *to_json(rb_doc *doc) { return rb_model_to_json(doc, doc->root, RB_BLOBS_REF); }

/* JSON text -> parse -> model -> bytes: the whole JSON direction, through the printed text. */
static rb_doc *through_json_text(rb_doc *source, json_t *j, rb_error *err)
{
    rb_buf text;
    rb_buf_init(&text);
    rb_json_print(j, &text);
    json_error_t jerr;
    json_t *back = json_loadb((const char *)text.data, text.size, JSON_ALLOW_NUL, &jerr);
    rb_buf_free(&text);
    if (!back) {
        fprintf(stderr, "printed JSON does not parse: %s\n", jerr.text);
        return NULL;
    }
    rb_doc *doc = rb_doc_from_json_loader(&test_format, back, NULL, source, "test.json", 0, err);
    json_decref(back);
    return doc;
}

/* ---------- tests ---------- */

static void test_bytes_round_trip(int version)
{
    size_t size, out_size;
    uint8_t *in = make_input(version, &size), *out = NULL;
    rb_error err;
    rb_doc *doc = parse(in, size, &err);
    CHECK(doc != NULL, "parse v%d: %s", version, err.message);
    if (doc && write_doc(doc, 0, &out, &out_size)) {
        CHECK(out_size == size && memcmp(in, out, size) == 0, "bytes -> model -> bytes differs (v%d)", version);
    }
    free(out);
    rb_doc_free(doc);
    free(in);
}

static const json_t *scalar(const json_t *root, const char *key)
{
    return json_object_get(json_object_get(root, "scalars"), key);
}

static void test_json_spellings(void)
{
    size_t size;
    uint8_t *in = make_input(1, &size);
    rb_error err;
    rb_doc *doc = parse(in, size, &err);
    CHECK(doc != NULL, "parse");
    if (!doc) { free(in); return; }
    json_t *j = to_json(doc);
    CHECK(json_integer_value(scalar(j, "u8")) == 200, "u8");
    CHECK(json_integer_value(scalar(j, "u16be")) == 0x1234, "big-endian u16");
    CHECK(json_is_string(scalar(j, "u64big")) && strcmp(json_string_value(scalar(j, "u64big")), "18446744073709551600") == 0,
          "u64 above 2^63 is a decimal string");
    CHECK(json_integer_value(scalar(j, "i8")) == -128, "i8 sign");
    CHECK(json_integer_value(scalar(j, "i16")) == -2, "i16 sign");
    CHECK(json_integer_value(scalar(j, "i64")) == INT64_MIN, "i64 min");
    CHECK(strcmp(json_string_value(scalar(j, "hexId")), "0x0304301F") == 0, "hex id spelling");
    CHECK(json_is_real(scalar(j, "f32")) && json_real_value(scalar(j, "f32")) == 0.1, "f32 0.1 shortest");
    CHECK(strcmp(json_string_value(scalar(j, "f32nanPayload")), "NaN:0x7fc00001") == 0, "NaN payload kept");
    CHECK(strcmp(json_string_value(scalar(j, "f32negZero")), "-0.0") == 0, "-0.0 kept");
    CHECK(strcmp(json_string_value(scalar(j, "f32inf")), "Infinity") == 0, "inf");
    CHECK(json_is_true(scalar(j, "bool32")), "bool 1 is true");
    CHECK(json_integer_value(scalar(j, "bool32raw")) == 2, "bool raw 2 kept as 2");
    CHECK(json_is_false(scalar(j, "bool8")), "bool8");
    const json_t *strings = json_object_get(j, "strings");
    CHECK(strcmp(json_string_value(json_object_get(strings, "bom")), "\xEF\xBB\xBFmap") == 0, "BOM kept in string");
    const json_t *bad = json_object_get(json_object_get(strings, "invalidUtf8"), "$hex");
    CHECK(bad && strcmp(json_string_value(bad), "c328ff") == 0, "invalid UTF-8 as $hex");
    CHECK(json_string_length(json_object_get(strings, "embeddedNul")) == 3, "embedded NUL kept");
    /* the printed text spells f32 0.1 as 0.1, not 0.10000000149011612 */
    rb_buf text;
    rb_buf_init(&text);
    rb_json_print(j, &text);
    rb_buf_put_u8(&text, 0);
    CHECK(strstr((char *)text.data, "\"f32\": 0.1,") != NULL, "shortest float text");
    CHECK(strstr((char *)text.data, "0.3333333333333333") != NULL, "f64 shortest round trip");
    rb_buf_free(&text);
    json_decref(j);
    rb_doc_free(doc);
    free(in);
}

static void test_json_round_trip(void)
{
    size_t size, out_size;
    uint8_t *in = make_input(2, &size), *out = NULL;
    rb_error err;
    rb_doc *doc = parse(in, size, &err);
    if (!doc) { CHECK(0, "parse"); free(in); return; }
    json_t *j = to_json(doc);
    rb_doc *again = through_json_text(doc, j, &err);
    CHECK(again != NULL, "JSON -> model: %s (%s)", err.message, err.path);
    if (again && write_doc(again, 0, &out, &out_size))
        CHECK(out_size == size && memcmp(in, out, size) == 0, "model -> JSON -> model -> bytes differs");
    free(out);
    rb_doc_free(again);
    json_decref(j);
    rb_doc_free(doc);
    free(in);
}

/* Apply one edit to the JSON and expect the JSON -> model direction to refuse it. */
static void expect_json_error(const char *what, void (*edit)(json_t *), const char *needle)
{
    size_t size;
    uint8_t *in = make_input(1, &size);
    rb_error err;
    rb_doc *doc = parse(in, size, &err);
    json_t *j = to_json(doc);
    edit(j);
    memset(&err, 0, sizeof err);
    rb_doc *bad = rb_doc_from_json_loader(&test_format, j, NULL, doc, "edit.json", 0, &err);
    char text[1600];
    rb_error_format(&err, text, sizeof text);
    CHECK(bad == NULL, "%s was accepted", what);
    CHECK(strstr(text, needle) != NULL, "%s: error \"%s\" lacks \"%s\"", what, text, needle);
    rb_doc_free(bad);
    json_decref(j);
    rb_doc_free(doc);
    free(in);
}

static void edit_u8_too_big(json_t *j) { json_object_set_new(json_object_get(j, "scalars"), "u8", json_integer(300)); }
static void edit_i8_too_small(json_t *j) { json_object_set_new(json_object_get(j, "scalars"), "i8", json_integer(-129)); }
static void edit_missing(json_t *j) { json_object_del(json_object_get(j, "scalars"), "u32"); }
static void edit_unknown(json_t *j) { json_object_set_new(json_object_get(j, "scalars"), "bogus", json_integer(1)); }
static void edit_wrong_type(json_t *j) { json_object_set_new(json_object_get(j, "scalars"), "u32", json_string("abc")); }
static void edit_version_field(json_t *j) { json_object_set_new(j, "onlyInVersion2", json_integer(5)); }
static void edit_bad_float(json_t *j) { json_object_set_new(json_object_get(j, "scalars"), "f32", json_real(1e300)); }
static void edit_list_item(json_t *j) { json_array_set_new(json_object_get(j, "numbers"), 1, json_integer(70000)); }

static void test_json_validation(void)
{
    expect_json_error("u8 = 300", edit_u8_too_big, "out of range for u8");
    expect_json_error("u8 = 300 path", edit_u8_too_big, "/scalars/u8");
    expect_json_error("i8 = -129", edit_i8_too_small, "out of range for i8");
    expect_json_error("missing member", edit_missing, "\"u32\" is missing");
    expect_json_error("unknown member", edit_unknown, "\"bogus\" is not part of this structure");
    expect_json_error("wrong type", edit_wrong_type, "not a u32 value");
    expect_json_error("field of another version", edit_version_field, "\"onlyInVersion2\" is not part");
    expect_json_error("f32 out of range", edit_bad_float, "out of range for f32");
    expect_json_error("list element out of range", edit_list_item, "/numbers/1");
}

/* A JSON edit that is valid changes exactly what it says. */
static void test_json_edit_applies(void)
{
    size_t size, out_size;
    uint8_t *in = make_input(1, &size), *out = NULL;
    rb_error err;
    rb_doc *doc = parse(in, size, &err);
    json_t *j = to_json(doc);
    json_object_set_new(json_object_get(j, "strings"), "plain", json_string("Stadium2020"));
    json_object_set_new(json_object_get(j, "section"), "blob",
                        json_pack("{s:s}", "$base64", "AAECAwQ=")); /* 5 bytes: the section grows */
    rb_doc *edited = rb_doc_from_json_loader(&test_format, j, NULL, doc, "edit.json", 0, &err);
    CHECK(edited != NULL, "valid edit refused: %s", err.message);
    if (edited && write_doc(edited, 0, &out, &out_size)) {
        CHECK(out_size == size + 4 + 2, "size grows by the longer string and blob (%zu vs %zu)", out_size, size);
        rb_doc *re = parse(out, out_size, &err);
        CHECK(re != NULL, "edited output re-reads: %s", err.message);
        if (re) {
            const rb_node *section = rb_node_get(re->root, "section");
            CHECK(rb_node_get(section, "blob")->v.bytes.size == 5, "section size derived on write");
            const rb_node *plain = rb_node_get(rb_node_get(re->root, "strings"), "plain");
            CHECK(plain->v.bytes.size == 11 && memcmp(plain->v.bytes.data, "Stadium2020", 11) == 0, "string edited");
        }
        rb_doc_free(re);
    }
    free(out);
    rb_doc_free(edited);
    json_decref(j);
    rb_doc_free(doc);
    free(in);
}

static void test_truncation_everywhere(void)
{
    size_t size;
    uint8_t *in = make_input(2, &size);
    /* the last 3 bytes are an opaque tail: cutting there is still a valid file */
    for (size_t len = 0; len < size - 3; len++) {
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, in, len);
        rb_error err;
        memset(&err, 0, sizeof err);
        rb_doc *doc = parse(cut, len, &err);
        CHECK(doc == NULL, "truncated at %zu parsed", len);
        if (len >= 4) CHECK(err.has_offset && err.offset <= len + 64, "truncated at %zu: error without offset", len);
        CHECK(err.message[0] != 0, "truncated at %zu: empty message", len);
        rb_doc_free(doc);
        free(cut);
    }
    free(in);
}

static void test_counts_and_limits(void)
{
    size_t size;
    uint8_t *in = make_input(1, &size);
    /* find the numbers count (value 3 followed by 1, 2, 65535) and make it huge */
    static const uint8_t pattern[] = {3, 0, 0, 0, 1, 0, 2, 0, 0xff, 0xff};
    uint8_t *at = memmem(in, size, pattern, sizeof pattern);
    CHECK(at != NULL, "pattern present");
    if (at) {
        at[0] = at[1] = at[2] = 0xff; /* 16 Mi - 1: under the count limit, far over the bytes left */
        rb_error err;
        rb_doc *doc = parse(in, size, &err);
        CHECK(doc == NULL && strstr(err.message, "cannot fit") && strcmp(err.path, "numbers") == 0,
              "huge count: %s at %s", err.message, err.path);
        CHECK(err.offset == (uint64_t)(at - in), "count error points at the count (0x%llx)", (unsigned long long)err.offset);
        rb_doc_free(doc);
        at[0] = 3; at[1] = at[2] = at[3] = 0;
    }
    rb_limits limits = RB_LIMITS_INIT;
    rb_limits_default(&limits);
    limits.max_string = 4;
    rb_read_options o = {.file_name = "limited.tst", .limits = &limits};
    rb_error err;
    rb_doc *doc = rb_doc_parse_as(&test_format, in, size, &o, &err);
    CHECK(doc == NULL && err.status == RB_E_LIMIT && strstr(err.message, "max_string"), "string limit: %s", err.message);
    rb_doc_free(doc);
    limits.max_string = 1 << 20;
    limits.max_decompressed_size = 10;
    doc = rb_doc_parse_as(&test_format, in, size, &o, &err);
    CHECK(doc == NULL && err.status == RB_E_LIMIT && strstr(err.message, "max_decompressed_size"),
          "decompressed limit: %s", err.message);
    rb_doc_free(doc);
    free(in);
}

static void test_streams(void)
{
    size_t size, out_size;
    uint8_t *in = make_input(1, &size), *out = NULL;
    rb_error err;
    rb_doc *doc = parse(in, size, &err);
    rb_stream_report rep = RB_STREAM_REPORT_INIT;
    /* unchanged content: the original stream (level 9) is passed through */
    if (write_doc(doc, 0, &out, &out_size)) {
        rb_doc_stream_report(doc, 0, &rep);
        CHECK(!rep.reencoded && rep.identical, "unchanged stream passed through");
        free(out);
    }
    /* forced re-encoding: same content, stream re-encoded */
    if (write_doc(doc, 1, &out, &out_size)) {
        rb_doc_stream_report(doc, 0, &rep);
        CHECK(rep.reencoded && rep.content_size == 64, "forced re-encode reported");
        rb_doc *re = parse(out, out_size, &err);
        CHECK(re && rb_node_uint(rb_node_get(rb_node_get(re->root, "packed"), "value")) == 77, "re-encoded content reads back");
        rb_doc_free(re);
        free(out);
    }
    /* changed content: re-encoded automatically, the new value reads back */
    rb_node *value = rb_node_get(rb_node_get(doc->root, "packed"), "value");
    value->v.bits = 4242;
    if (write_doc(doc, 0, &out, &out_size)) {
        rb_doc_stream_report(doc, 0, &rep);
        CHECK(rep.reencoded && !rep.identical, "changed content re-encoded");
        rb_doc *re = parse(out, out_size, &err);
        CHECK(re && rb_node_uint(rb_node_get(rb_node_get(re->root, "packed"), "value")) == 4242, "edit inside stream");
        rb_doc_free(re);
        free(out);
    }
    /* changed at the end of the content: the unchanged prefix is copied from the original */
    value->v.bits = 77;
    rb_node *rest = rb_node_get(rb_node_get(doc->root, "packed"), "rest");
    uint8_t *edited = malloc(rest->v.bytes.size);
    if (edited && rest->v.bytes.size) {
        memcpy(edited, rest->v.bytes.data, rest->v.bytes.size);
        edited[rest->v.bytes.size - 1] ^= 0xFF;
        const uint8_t *kept = rest->v.bytes.data;
        rest->v.bytes.data = edited;
        if (write_doc(doc, 0, &out, &out_size)) {
            rb_doc_stream_report(doc, 0, &rep);
            CHECK(rep.reencoded && !rep.identical, "content changed at its end re-encoded");
            rb_doc *re = parse(out, out_size, &err);
            rb_node *back = re ? rb_node_get(rb_node_get(re->root, "packed"), "rest") : NULL;
            CHECK(back && back->v.bytes.size == rest->v.bytes.size &&
                      memcmp(back->v.bytes.data, edited, back->v.bytes.size) == 0 &&
                      rb_node_uint(rb_node_get(rb_node_get(re->root, "packed"), "value")) == 77,
                  "edit at the end of a stream reads back");
            rb_doc_free(re);
            free(out);
        }
        rest->v.bytes.data = kept;
    }
    free(edited);
    rb_doc_free(doc);
    free(in);
}

/* Expect mode: content equal to the expected bytes costs no storage; any difference gives the
 * buffer exactly the bytes put, as an ordinary buffer would hold them. */
static const uint8_t EXPECTED[] = {1, 2, 3, 4, 0x10, 0, 0, 0, 5, 6, 0, 0x20};

/* holds: the content equals EXPECTED; settled: no placeholder is left unpatched. */
static void check_expect_case(const char *what, void (*fill)(rb_buf *), int holds, int settled)
{
    rb_buf plain, expecting;
    rb_buf_init(&plain);
    rb_buf_init(&expecting);
    rb_buf_expect(&expecting, EXPECTED, sizeof EXPECTED);
    fill(&plain);
    fill(&expecting);
    CHECK(rb_buf_holds_expected(&expecting) == holds, "%s: holds_expected is %d", what, !holds);
    if (holds) CHECK(expecting.data == NULL, "%s: unchanged content was stored", what);
    CHECK(expecting.size == plain.size, "%s: size %zu, not %zu", what, expecting.size, plain.size);
    CHECK(rb_buf_equals_at(&expecting, 0, plain.data, plain.size) == settled, "%s: equals_at", what);
    uint8_t read[sizeof EXPECTED + 8];
    CHECK(plain.size <= sizeof read && rb_buf_read(&expecting, 0, read, plain.size) &&
              memcmp(read, plain.data, plain.size) == 0 && (!holds || expecting.data == NULL),
          "%s: rb_buf_read gives an ordinary buffer's bytes and leaves the mode", what);
    CHECK(rb_buf_materialize(&expecting) && expecting.size == plain.size &&
              memcmp(expecting.data, plain.data, plain.size) == 0,
          "%s: bytes differ from an ordinary buffer's", what);
    rb_buf_free(&plain);
    rb_buf_free(&expecting);
}

static void fill_same(rb_buf *b)
{
    rb_buf_put(b, EXPECTED, 4);
    size_t at = b->size;
    rb_buf_put_placeholder(b, 4);
    rb_buf_put(b, EXPECTED + 8, 2);
    rb_buf_put_placeholder(b, 2);
    rb_buf_patch_be(b, at + 6, 0x20, 2);
    rb_buf_patch_le(b, at, 0x10, 4);
}
static void fill_other_patch(rb_buf *b)
{
    rb_buf_put(b, EXPECTED, 4);
    rb_buf_put_placeholder(b, 4);
    rb_buf_put(b, EXPECTED + 8, 4);
    rb_buf_patch_le(b, 4, 0x11, 4);
}
static void fill_unpatched(rb_buf *b)
{
    rb_buf_put(b, EXPECTED, 4);
    rb_buf_put_placeholder(b, 4);
    rb_buf_put(b, EXPECTED + 8, 4);
}
static void fill_unpatched_zero(rb_buf *b)
{
    rb_buf_put(b, EXPECTED, 10);
    rb_buf_put_placeholder(b, 1);
    rb_buf_put(b, EXPECTED + 11, 1);
}
static void fill_other_tail(rb_buf *b)
{
    rb_buf_put(b, EXPECTED, 11);
    rb_buf_put_u8(b, 0x21);
}
static void fill_shorter(rb_buf *b) { rb_buf_put(b, EXPECTED, 6); }
/* a placeholder patched to other bytes first, then to the expected ones (a word patched in steps) */
static void fill_patched_twice(rb_buf *b)
{
    rb_buf_put(b, EXPECTED, 4);
    rb_buf_put_placeholder(b, 4);
    rb_buf_put(b, EXPECTED + 8, 4);
    rb_buf_patch_le(b, 4, 0x11, 4);
    rb_buf_patch_le(b, 4, 0x10, 4);
}
/* deferred bytes: what a writer puts before it derives them (bytecode words) */
static void fill_deferred_as_expected(rb_buf *b)
{
    rb_buf_put(b, EXPECTED, 8);
    rb_buf_put_deferred(b, EXPECTED + 8, 2);
    rb_buf_put(b, EXPECTED + 10, 2);
}
static void fill_deferred_then_patched(rb_buf *b)
{
    static const uint8_t masked[4] = {0, 0, 0, 0};
    rb_buf_put(b, EXPECTED, 4);
    rb_buf_put_deferred(b, masked, 4);
    rb_buf_put(b, EXPECTED + 8, 4);
    rb_buf_patch_le(b, 4, 0x10, 4);
}
static void fill_deferred_other(rb_buf *b)
{
    static const uint8_t other[2] = {5, 7};
    rb_buf_put(b, EXPECTED, 8);
    rb_buf_put_deferred(b, other, 2);
    rb_buf_put(b, EXPECTED + 10, 2);
}
/* bytes of the expected memory put where they are (a deferred unit's slice written back in
 * place: taken without a compare), and bytes of it put one place off (compared: they differ) */
static void fill_expected_memory_in_place(rb_buf *b) { rb_buf_put(b, EXPECTED, sizeof EXPECTED); }
static void fill_expected_memory_shifted(rb_buf *b)
{
    rb_buf_put(b, EXPECTED, 4);
    rb_buf_put(b, EXPECTED + 3, sizeof EXPECTED - 4);
}
static void fill_longer(rb_buf *b)
{
    rb_buf_put(b, EXPECTED, sizeof EXPECTED);
    rb_buf_put_placeholder(b, 4);
    rb_buf_patch_le(b, sizeof EXPECTED, 7, 4);
}

/* Many placeholders patched out of order (the index of open placeholders, its compaction): the
 * same bytes as an ordinary buffer; identical exactly when every patch put the expected value. */
static void check_many_placeholders(int with_one_other)
{
    enum { WORDS = 1000 };
    static uint8_t expected[4 * WORDS];
    for (size_t i = 0; i < sizeof expected; i++) expected[i] = (uint8_t)(i * 7 + 1);
    rb_buf plain, expecting;
    rb_buf_init(&plain);
    rb_buf_init(&expecting);
    rb_buf_expect(&expecting, expected, sizeof expected);
    rb_buf *both[2] = {&plain, &expecting};
    for (int k = 0; k < 2; k++) {
        for (size_t w = 0; w < WORDS; w++) rb_buf_put_placeholder(both[k], 4);
        for (size_t step = 0; step < WORDS; step++) {
            size_t w = (step * 379) % WORDS; /* 379 and 1000 are coprime: every word once */
            uint32_t value = expected[4 * w] | expected[4 * w + 1] << 8 | expected[4 * w + 2] << 16 |
                             (uint32_t)expected[4 * w + 3] << 24;
            if (with_one_other && w == 613) value ^= 1;
            rb_buf_patch_le(both[k], 4 * w, value, 4);
        }
    }
    CHECK(rb_buf_holds_expected(&expecting) == !with_one_other && (with_one_other || expecting.data == NULL),
          "1000 placeholders%s: holds_expected", with_one_other ? ", one patched to other bytes" : "");
    CHECK(rb_buf_materialize(&expecting) && expecting.size == plain.size &&
              memcmp(expecting.data, plain.data, plain.size) == 0,
          "1000 placeholders%s: an ordinary buffer's bytes", with_one_other ? ", one other" : "");
    rb_buf_free(&plain);
    rb_buf_free(&expecting);
}

static void test_buf_expect(void)
{
    check_many_placeholders(0);
    check_many_placeholders(1);
    check_expect_case("same bytes, placeholders patched to them", fill_same, 1, 1);
    /* patched to other bytes, a placeholder stays open: it may be patched again (below) */
    check_expect_case("placeholder patched to another value", fill_other_patch, 0, 0);
    check_expect_case("placeholder patched to another value, then to the expected one", fill_patched_twice, 1, 1);
    check_expect_case("deferred bytes as expected, never patched", fill_deferred_as_expected, 1, 0);
    check_expect_case("deferred bytes patched to the expected ones", fill_deferred_then_patched, 1, 1);
    check_expect_case("deferred bytes that differ, never patched", fill_deferred_other, 0, 0);
    check_expect_case("placeholder never patched", fill_unpatched, 0, 0);
    check_expect_case("last byte differs", fill_other_tail, 0, 1);
    check_expect_case("content shorter", fill_shorter, 0, 1);
    check_expect_case("content longer", fill_longer, 0, 1);
    check_expect_case("the expected memory itself, in place", fill_expected_memory_in_place, 1, 1);
    check_expect_case("the expected memory, one byte off", fill_expected_memory_shifted, 0, 1);
    check_expect_case("placeholder never patched where zero is expected", fill_unpatched_zero, 1, 0);
    rb_buf b;
    /* a view of expected bytes; a placeholder that must change ends expect mode, with zeros in it */
    rb_buf_init(&b);
    rb_buf_expect(&b, EXPECTED, sizeof EXPECTED);
    fill_same(&b);
    const uint8_t *view = rb_buf_view(&b, 2);
    CHECK(view == EXPECTED + 2, "view of bytes as expected: the expected ones, not a copy");
    rb_buf_free(&b);
    rb_buf_init(&b);
    rb_buf_expect(&b, EXPECTED, sizeof EXPECTED);
    fill_unpatched(&b);
    view = rb_buf_view(&b, 6);
    CHECK(view && b.expected == NULL && view[0] == 0 && view[1] == 0 && view[2] == 5,
          "view over an unpatched placeholder: the bytes as written");
    rb_buf_free(&b);
    /* room reserved before expect mode is released, not kept for a copy */
    rb_buf_init(&b);
    rb_buf_reserve_hint(&b, 4096);
    rb_buf_expect(&b, EXPECTED, sizeof EXPECTED);
    fill_same(&b);
    CHECK(b.data == NULL && rb_buf_holds_expected(&b), "expect mode after a reservation");
    rb_buf_free(&b);
    rb_buf_init(&b);
    rb_buf_expect(&b, EXPECTED, sizeof EXPECTED);
    fill_same(&b);
    size_t size;
    uint8_t *taken = rb_buf_take(&b, &size);
    CHECK(size == sizeof EXPECTED && memcmp(taken, EXPECTED, size) == 0, "take of an expecting buffer");
    free(taken);
}

/* rb_doc_write_against: an unchanged model is identical with nothing stored; an edited one hands
 * back exactly the bytes rb_doc_write makes. */
static void test_write_against(void)
{
    size_t size, out_size, plain_size;
    uint8_t *in = make_input(2, &size), *out = NULL, *plain = NULL;
    rb_error err;
    rb_doc *doc = parse(in, size, &err);
    if (!doc) { CHECK(0, "parse"); free(in); return; }
    int identical = 0;
    CHECK(rb_doc_write_against(doc, NULL, in, size, &identical, &out, &out_size, &err) == RB_OK && identical &&
              out == NULL && out_size == size,
          "unchanged model: identical, nothing handed back");
    CHECK(rb_doc_write_against(doc, NULL, in, size - 1, &identical, &out, &out_size, &err) == RB_OK && !identical &&
              out && out_size == size && memcmp(out, in, size) == 0,
          "expected bytes one short: not identical, the full output handed back");
    free(out);
    static const char *const edits[] = {"packed/value", "scalars/u8"}; /* inside the stream; outside it */
    for (size_t i = 0; i < 2; i++) {
        rb_node *n = i == 0 ? rb_node_get(rb_node_get(doc->root, "packed"), "value")
                            : rb_node_get(rb_node_get(doc->root, "scalars"), "u8");
        uint64_t kept = n->v.bits;
        n->v.bits = i == 0 ? 4242 : 7;
        out = NULL;
        if (rb_doc_write_against(doc, NULL, in, size, &identical, &out, &out_size, &err) == RB_OK &&
            write_doc(doc, 0, &plain, &plain_size)) {
            CHECK(!identical && out && out_size == plain_size && memcmp(out, plain, plain_size) == 0,
                  "edited %s: the bytes rb_doc_write makes", edits[i]);
        } else {
            CHECK(0, "write after editing %s", edits[i]);
        }
        free(out);
        free(plain);
        plain = NULL;
        n->v.bits = kept;
    }
    rb_doc_free(doc);
    free(in);
}

static void test_write_model_mismatch(void)
{
    size_t size, out_size;
    uint8_t *in = make_input(1, &size), *out = NULL;
    rb_error err;
    rb_doc *doc = parse(in, size, &err);
    /* a model whose u8 field was turned into a string cannot be written: clear error, no output */
    rb_node *u8 = rb_node_get(rb_node_get(doc->root, "scalars"), "u8");
    u8->kind = RB_K_STRING;
    u8->v.bytes.data = (const uint8_t *)"x";
    u8->v.bytes.size = 1;
    rb_status st = rb_doc_write(doc, NULL, &out, &out_size, &err);
    CHECK(st == RB_E_MODEL && out == NULL, "mismatched model refused");
    CHECK(strstr(err.message, "where integer was expected") != NULL, "mismatch message: %s", err.message);
    rb_doc_free(doc);
    free(in);
}

static void test_base64(void)
{
    const char *samples[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    const char *expected[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        char enc[16];
        uint8_t dec[16];
        rb_base64_encode((const uint8_t *)samples[i], strlen(samples[i]), enc);
        CHECK(strcmp(enc, expected[i]) == 0, "base64(%s) = %s", samples[i], enc);
        size_t n = rb_base64_decode(enc, strlen(enc), dec);
        CHECK(n == strlen(samples[i]) && memcmp(dec, samples[i], n) == 0, "base64 decode %s", enc);
    }
    uint8_t dec[8];
    CHECK(rb_base64_decode("Zm9v!", 5, dec) == (size_t)-1, "bad length refused");
    CHECK(rb_base64_decode("Zm=v", 4, dec) == (size_t)-1, "misplaced padding refused");
}

/* A file of many compressed streams (a replay with many ghosts has one or two each). */
static void describe_many_streams(rb_ar *ar)
{
    uint64_t n = rb_ar_list_begin(ar, "streams", RB_U32, 8);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++) {
        rb_ar_record_begin(ar, NULL);
        rb_slot content = rb_ar_slot(ar, "content size", RB_U32);
        rb_slot encoded = rb_ar_slot(ar, "encoded size", RB_U32);
        rb_ar_stream_begin(ar, "samples", &rb_codec_zlib, content.value, encoded.value);
        rb_ar_u32(ar, "value");
        rb_ar_stream_end(ar, &content, &encoded);
        rb_ar_record_end(ar);
    }
    rb_ar_list_end(ar);
}

static void test_many_streams(void)
{
    static const rb_format many = {"many", "many streams", detect_test, describe_many_streams};
    enum { COUNT = 300 };
    rb_buf b;
    rb_buf_init(&b);
    rb_buf_put_le(&b, COUNT, 4);
    for (uint32_t i = 0; i < COUNT; i++) {
        uint8_t content[4] = {(uint8_t)i, (uint8_t)(i >> 8), 0, 0}, packed[64];
        uLongf packed_size = sizeof packed;
        compress2(packed, &packed_size, content, 4, 9);
        rb_buf_put_le(&b, 4, 4);
        rb_buf_put_le(&b, packed_size, 4);
        rb_buf_put(&b, packed, packed_size);
    }
    size_t size, out_size;
    uint8_t *in = rb_buf_take(&b, &size), *out = NULL;
    rb_error err;
    rb_doc *doc = rb_doc_parse_as(&many, in, size, &(rb_read_options){.file_name = "many"}, &err);
    CHECK(doc != NULL, "300 streams parse: %s", err.message);
    if (doc) {
        CHECK(rb_doc_stream_report_count(doc) == COUNT, "every stream reported");
        if (write_doc(doc, 0, &out, &out_size)) CHECK(out_size == size && memcmp(out, in, size) == 0, "300 streams exact");
        free(out);
    }
    rb_doc_free(doc);
    free(in);
}

int main(void)
{
    test_many_streams();
    test_bytes_round_trip(1);
    test_bytes_round_trip(2);
    test_json_spellings();
    test_json_round_trip();
    test_json_validation();
    test_json_edit_applies();
    test_truncation_everywhere();
    test_counts_and_limits();
    test_streams();
    test_buf_expect();
    test_write_against();
    test_write_model_mismatch();
    test_base64();
    if (test_failures) {
        fprintf(stderr, "test_archive: %d failure(s)\n", test_failures);
        return 1;
    }
    printf("test_archive: all passed\n");
    return 0;
}
