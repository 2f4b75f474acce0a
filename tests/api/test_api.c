/* The public C API on the bundled sample map: find fields by pointer, edit them with wire-type
 * checks, write, re-read; apply a JSON patch; render JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rebyte.h"
#include "tests/test_util.h"


static void count_problem(void *count, const rb_rule_violation *violation)
{
    (void)violation;
    (*(size_t *)count)++;
}

/* Applies one patch (JSON text) to data; the result in *r, why not in *err. */
static rb_status apply_text_err(const uint8_t *data, size_t size, const char *text, int force, rb_apply_result *r,
                                rb_error *err)
{
    rb_patch *patch = rb_patch_parse(text, strlen(text), "test", err);
    const rb_patch *const patches[1] = {patch};
    rb_apply_options options = {.size = sizeof options, .force = force};
    *r = (rb_apply_result)RB_APPLY_RESULT_INIT;
    rb_status st = patch ? rb_apply(data, size, "sample", patches, 1, &options, r, err) : RB_E_USAGE;
    rb_patch_free(patch);
    return st;
}

static rb_status apply_text(const uint8_t *data, size_t size, const char *text, int force, rb_apply_result *r)
{
    rb_error err;
    return apply_text_err(data, size, text, force, r, &err);
}

static size_t bytes_count(const uint8_t *data, size_t size, const char *text)
{
    size_t n = 0, len = strlen(text);
    for (size_t i = 0; i + len <= size; i++) n += memcmp(data + i, text, len) == 0;
    return n;
}

/* rb_doc_check and the header copies: renaming the body reaches the header chunk 003 (which the
 * writer derives) and the map checks clean; a header copy that disagrees is a rule violation,
 * refused by rb_apply unless forced. */
static void check_game_rules(const uint8_t *data, size_t size)
{
    rb_error err;
    rb_doc *doc = rb_doc_parse(data, size, NULL, &err);
    size_t reported = 0, found = 0;
    CHECK(doc && rb_doc_check(doc, count_problem, &reported, &found, &err) == RB_OK && found == 0 && reported == 0,
          "the sample map checks clean");
    rb_doc_free(doc);
    rb_apply_result r = RB_APPLY_RESULT_INIT;
    CHECK(apply_text(data, size, "[{\"op\":\"replace\",\"path\":\"/body/chunks/[id=0x0304301F]/mapName\",\"value\":\"Body only\"}]",
                     0, &r) == RB_OK,
          "body rename applies");
    /* the user data (header chunks) of a version 6 file: its size at byte 13, the chunks after it */
    size_t user_data = r.bytes && r.bytes_size > 17 ? (size_t)r.bytes[13] | (size_t)r.bytes[14] << 8 : 0;
    CHECK(user_data && 17 + user_data <= r.bytes_size && bytes_count(r.bytes, 17 + user_data, "Body only") == 1,
          "the header copy carries the body's new name");
    doc = r.bytes ? rb_doc_parse(r.bytes, r.bytes_size, NULL, &err) : NULL;
    reported = 0;
    CHECK(doc && rb_doc_check(doc, count_problem, &reported, &found, &err) == RB_OK && found == 0,
          "the renamed map checks clean (got %zu)", reported);
    rb_doc_free(doc);
    rb_apply_result_free(&r);
    static const char header_only[] =
        "[{\"op\":\"add\",\"path\":\"/headerChunks/[id=0x03043003]/mapName\",\"value\":\"Header only\"}]";
    CHECK(apply_text(data, size, header_only, 0, &r) == RB_E_RULE && !r.bytes, "a disagreeing copy is refused");
    CHECK(apply_text(data, size, header_only, 1, &r) == RB_OK, "a disagreeing copy is written when forced");
    doc = r.bytes ? rb_doc_parse(r.bytes, r.bytes_size, NULL, &err) : NULL;
    reported = 0;
    CHECK(doc && rb_doc_check(doc, count_problem, &reported, &found, &err) == RB_OK && found == 1 && reported == 1,
          "the header's own name is one problem (got %zu)", reported);
    rb_doc_free(doc);
    rb_apply_result_free(&r);
}

/* Coverage by kind: signatures name the kind; two bytes that only look like a zlib header (a
 * recorded sample's bytes in a TM2020 ghost start 18 19) are unknown; the kinds of opaque bytes
 * add up to rb_coverage.opaque_bytes and blobs are counted by kind too. */
static void check_payload_kinds(rb_doc *doc)
{
    static const struct { const char *bytes; size_t size; rb_payload_kind kind; } cases[] = {
        {"\xFF\xD8\xFF\xE0\0\x10JFIF", 10, RB_PAYLOAD_IMAGE},
        {"\x89PNG\r\n\x1A\n\0\0", 10, RB_PAYLOAD_IMAGE},
        {"RIFF\x10\0\0\0WEBPVP8 ", 16, RB_PAYLOAD_IMAGE},
        {"PK\x03\x04\x14\0", 6, RB_PAYLOAD_ARCHIVE},
        {"OggS\0\x02", 6, RB_PAYLOAD_AUDIO},
        {"RIFF\x10\0\0\0WAVEfmt ", 16, RB_PAYLOAD_AUDIO},
        {"\x78\x9C\x03\0\0\0\0\x01", 8, RB_PAYLOAD_COMPRESSED},
        {"\x1F\x8B\x08\0\0\0", 6, RB_PAYLOAD_COMPRESSED},
        {"\x18\x19\xFA\x7F\x6B\x49\x7C\x82", 8, RB_PAYLOAD_UNKNOWN},
        {"\x78\x9C", 2, RB_PAYLOAD_UNKNOWN},
        {"RIFF\x10\0\0\0AVI LIST", 16, RB_PAYLOAD_UNKNOWN},
        {"GBX\x06\0BUCR", 9, RB_PAYLOAD_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rb_payload_kind k = rb_payload_kind_of((const uint8_t *)cases[i].bytes, cases[i].size);
        CHECK(k == cases[i].kind, "payload %zu is %s, not %s", i, rb_payload_kind_name(k),
              rb_payload_kind_name(cases[i].kind));
    }
    CHECK(rb_payload_kind_of(NULL, 0) == RB_PAYLOAD_UNKNOWN, "no bytes: unknown");
    CHECK(strcmp(rb_payload_kind_name(RB_PAYLOAD_COMPRESSED), "compressed") == 0, "kind names");
    rb_coverage cov = RB_COVERAGE_INIT;
    rb_coverage_kinds kinds = RB_COVERAGE_KINDS_INIT;
    rb_doc_coverage(doc, &cov);
    rb_doc_coverage_kinds(doc, &kinds);
    uint64_t opaque = 0, blobs = 0;
    for (int k = 0; k < RB_PAYLOAD_KINDS; k++) opaque += kinds.opaque[k], blobs += kinds.blob[k];
    CHECK(opaque == cov.opaque_bytes, "opaque kinds add up (%llu, %llu)", (unsigned long long)opaque,
          (unsigned long long)cov.opaque_bytes);
    CHECK(blobs > 0 && blobs == kinds.blob[RB_PAYLOAD_UNKNOWN], "the sample's blobs are of no known kind");
    rb_coverage both_cov = RB_COVERAGE_INIT;
    rb_coverage_kinds both_kinds = RB_COVERAGE_KINDS_INIT;
    CHECK(rb_doc_coverage_both(doc, &both_cov, &both_kinds) == RB_OK, "rb_doc_coverage_both takes two sized structs");
    CHECK(both_cov.typed_bytes == cov.typed_bytes && both_cov.opaque_bytes == cov.opaque_bytes &&
              both_cov.opaque_tail == cov.opaque_tail && memcmp(&both_kinds, &kinds, sizeof kinds) == 0,
          "rb_doc_coverage_both gives what the two calls give");
}

/* The getters refuse what the node is not (a NULL node, an int asked of a string, a float asked of
 * an int) and leave *value alone; an int node answers both integer getters alike. */
static void check_getters(rb_node *root)
{
    rb_node *name = rb_node_at_edit(root, "/body/chunks/2/mapName");
    rb_node *author = rb_node_at_edit(root, "/body/chunks/1/challengeParameters/chunks/1/authorTime");
    rb_node *scale = rb_node_at_edit(root, "/body/chunks/9/anchoredObjects/0/chunks/0/scale");
    int64_t i = 7;
    uint64_t u = 7;
    double f = 7;
    const uint8_t *bytes = NULL;
    size_t size = 7;
    CHECK(rb_node_get_int(NULL, &i) == RB_E_USAGE && rb_node_get_int(author, NULL) == RB_E_USAGE, "NULLs are usage errors");
    CHECK(rb_node_get_int(name, &i) == RB_E_MODEL && i == 7, "a string has no int");
    CHECK(rb_node_get_uint(scale, &u) == RB_E_MODEL && u == 7, "a float has no uint");
    CHECK(rb_node_get_float(author, &f) == RB_E_MODEL && f == 7, "an int has no float");
    CHECK(rb_node_get_bytes(author, &bytes, &size) == RB_E_MODEL && !bytes && size == 7, "an int has no bytes");
    CHECK(rb_node_get_int(author, &i) == RB_OK && rb_node_get_uint(author, &u) == RB_OK && (uint64_t)i == u && i > 0,
          "an int answers both integer getters");
    CHECK(rb_node_get_float(scale, &f) == RB_OK && f == 1.0, "a float's value");
    CHECK(rb_node_set_int(NULL, 1) == RB_E_USAGE && rb_node_set_float(name, 1.0) == RB_E_MODEL, "setters check too");
    /* a negative value of a signed field is not a uint */
    if (rb_node_set_int(author, -5) == RB_OK)
        CHECK(rb_node_get_int(author, &i) == RB_OK && i == -5 && rb_node_get_uint(author, &u) == RB_E_MODEL,
              "a negative int has no uint");
    CHECK(rb_node_set_int(author, 30000) == RB_OK, "author time back");
}

/* Option structs by size: 0 is this release's fields, a size no release had is refused, a larger
 * struct is accepted when its unknown tail is zero and refused when it is not (a newer caller's
 * field this library would otherwise ignore). */
static void check_option_sizes(const uint8_t *data, size_t size)
{
    rb_error err;
    rb_read_options zero = {.file_name = "zero-size"};
    rb_doc *doc = rb_doc_parse(data, size, &zero, &err);
    CHECK(doc != NULL, "size 0 reads this release's fields");
    rb_doc_free(doc);
    rb_read_options tiny = {.size = 1, .file_name = "tiny"};
    CHECK(!rb_doc_parse(data, size, &tiny, &err) && err.status == RB_E_USAGE && strstr(err.message, "rb_read_options"),
          "a size smaller than any release's is refused: %s", err.message);
    struct { rb_read_options known; uint64_t later; } newer = {{.size = sizeof newer, .file_name = "newer"}, 0};
    doc = rb_doc_parse(data, size, &newer.known, &err);
    CHECK(doc != NULL, "a newer, larger struct with its unknown fields 0 is read");
    uint8_t *out = NULL;
    size_t out_size;
    struct { rb_write_options known; uint64_t later; } write_newer = {{.size = sizeof write_newer}, 1};
    CHECK(doc && rb_doc_write(doc, &write_newer.known, &out, &out_size, &err) == RB_E_USAGE && !out,
          "a field this library does not know, set, is refused");
    rb_doc_free(doc);
    rb_limits limits = RB_LIMITS_INIT;
    rb_limits_default(&limits);
    CHECK(limits.size == sizeof limits && limits.max_depth == 64 && limits.max_count == 16ull << 20, "the default limits");
    rb_limits low = {.size = sizeof low, .max_count = 1}; /* the rest 0: defaults */
    rb_read_options limited = {.size = sizeof limited, .file_name = "limited", .limits = &low};
    doc = rb_doc_parse(data, size, &limited, &err);
    CHECK(!doc && err.status == RB_E_LIMIT, "a limit set alone applies, the others default (status %d: %s)", err.status,
          err.message);
    rb_doc_free(doc);
    rb_apply_options apply_tiny = {.size = 3};
    rb_apply_result r = RB_APPLY_RESULT_INIT;
    rb_patch *patch = rb_patch_parse("[]", 2, "empty", &err);
    const rb_patch *const patches[1] = {patch};
    CHECK(rb_apply(data, size, "sample", patches, 1, &apply_tiny, &r, &err) == RB_E_USAGE && !r.bytes,
          "rb_apply checks its options' size");
    rb_patch_free(patch);
}

/* The structs the library fills start with their size too: it is kept, a size no release had is
 * refused and the struct left as it was, a larger one (a newer caller's) is filled as far as the
 * library knows it. */
static void check_result_sizes(const uint8_t *data, size_t size, const rb_doc *doc)
{
    rb_error err = RB_ERROR_INIT;
    rb_patch *patch = rb_patch_parse("[]", 2, "empty", &err);
    const rb_patch *const patches[1] = {patch};
    rb_apply_result tiny = {.size = 3};
    CHECK(rb_apply(data, size, "sample", patches, 1, NULL, &tiny, &err) == RB_E_USAGE && tiny.size == 3 && !tiny.bytes &&
              strstr(err.message, "rb_apply_result"),
          "rb_apply checks its result's size: %s", err.message);
    CHECK(err.size == sizeof err, "the library keeps the error's size");
    struct { rb_apply_result known; uint64_t later; } newer = {{.size = sizeof newer}, 7};
    CHECK(rb_apply(data, size, "sample", patches, 1, NULL, &newer.known, &err) == RB_OK && newer.known.bytes_size == size &&
              newer.known.size == sizeof newer && newer.later == 7,
          "a newer caller's larger result is filled as far as the library knows it");
    rb_apply_result_free(&newer.known);
    CHECK(newer.known.size == sizeof newer && !newer.known.bytes, "a freed result keeps its size");
    rb_patch_free(patch);
    rb_coverage bad = {.size = 1};
    CHECK(rb_doc_coverage(doc, &bad) == RB_E_USAGE && bad.typed_bytes == 0, "rb_doc_coverage checks the size");
    rb_coverage zero = {0};
    CHECK(rb_doc_coverage(doc, &zero) == RB_OK && zero.typed_bytes > 0 && zero.size == 0, "size 0 is this release's");
    rb_stream_report report = RB_STREAM_REPORT_INIT;
    size_t streams = rb_doc_stream_report_count(doc);
    CHECK(streams > 0 && rb_doc_stream_report(doc, streams - 1, &report) == RB_OK && report.size == sizeof report &&
              rb_doc_stream_report(doc, streams, &report) == RB_E_USAGE,
          "stream reports by index (%zu)", streams);
}

/* A refusal's reason comes first and is whole however long the path: a test whose path passes a
 * selector matching 3 blocks says so and where the list is, then the path, kept whole. */
static void check_long_reason(const uint8_t *data, size_t size)
{
    char text[1600], tail[1001];
    memset(tail, 'x', sizeof tail - 1);
    tail[sizeof tail - 1] = 0;
    snprintf(text, sizeof text,
             "[{\"op\":\"test\",\"path\":\"/body/chunks/[id=0x0304301F]/blocks/[flags=0x00001000]/%s\",\"value\":1}]",
             tail);
    rb_apply_result r = RB_APPLY_RESULT_INIT;
    rb_error err = RB_ERROR_INIT;
    CHECK(apply_text_err(data, size, text, 0, &r, &err) == RB_E_MODEL, "a test through an ambiguous selector fails");
    const char *reason = strstr(err.message, "selector [flags=0x00001000] matches 3 elements (it must match exactly one), "
                                             "in /body/chunks/2/blocks");
    const char *path = strstr(err.message, tail);
    CHECK(reason && path && reason < path && strstr(path, "xx does not exist"),
          "the reason first, the path whole: %s", err.message);
    char line[RB_ERROR_TEXT_SIZE];
    CHECK(strstr(rb_error_format(&err, line, sizeof line), "does not exist"), "the formatted error is whole: %s", line);
    rb_apply_result_free(&r);
}

/* Navigation is const-correct: a const node gives const nodes, the _edit calls (from a node the
 * caller may change) the same nodes as mutable. */
static void check_navigation(rb_doc *doc)
{
    rb_node *root = rb_doc_root(doc);
    const rb_node *chunks = rb_node_at(root, "/body/chunks");
    const rb_node *chunk = rb_node_child(chunks, 2);
    CHECK(chunk && rb_node_member(chunk, "mapName") == rb_node_at(root, "/body/chunks/2/mapName"), "const navigation");
    rb_node *editable = rb_node_member_edit(rb_node_child_edit(rb_node_at_edit(root, "/body/chunks"), 2), "mapName");
    CHECK(editable && editable == rb_node_at(root, "/body/chunks/2/mapName"), "the _edit calls reach the same node");
    CHECK(rb_node_at(root, "") == root && rb_node_at_edit(root, "") == root, "\"\" is the root");
    CHECK(!rb_node_at(root, "body") && !rb_node_at_edit(root, "/body/chunks/99"), "a bad pointer leads nowhere");
}

/* The library's version is the header's (this test is built with both from one tree; the
 * installed-client test compares an installed pair). */
static void check_version(void)
{
    CHECK(rb_version_number() == REBYTE_VERSION_NUMBER, "version number %u", rb_version_number());
    CHECK(strcmp(rb_version(), REBYTE_VERSION_STRING) == 0, "version %s", rb_version());
    char text[32];
    snprintf(text, sizeof text, "%d.%d.%d", REBYTE_VERSION_MAJOR, REBYTE_VERSION_MINOR, REBYTE_VERSION_PATCH);
    CHECK(strcmp(text, REBYTE_VERSION_STRING) == 0, "the string spells the numbers");
    rb_free(NULL);
}

/* info and dump report through their error channel. */
static void check_text_results(const rb_doc *doc)
{
    char *text = NULL;
    rb_error err;
    CHECK(rb_doc_info(doc, "sample.Map.Gbx", 1, &text, &err) == RB_OK && text && strstr(text, "\"format\":\"gbx\""),
          "info");
    rb_free(text);
    text = (char *)1;
    CHECK(rb_doc_info(NULL, "x", 0, &text, &err) == RB_E_USAGE && !text && err.status == RB_E_USAGE, "info without a doc");
    CHECK(rb_doc_dump(doc, (rb_blob_mode)9, NULL, &text, &err) == RB_E_USAGE && !text, "dump refuses an unknown blob mode");
    CHECK(rb_doc_dump(doc, RB_BLOBS_OMIT, NULL, &text, &err) == RB_OK && strstr(text, "\"$format\": \"gbx\""), "dump");
    rb_free(text);
}

int main(int argc, char **argv)
{
    if (argc < 2) return 2;
    size_t size;
    uint8_t *data = test_read_file(argv[1], &size);
    CHECK(data != NULL, "sample map readable");
    if (!data) return 1;
    CHECK(strcmp(rb_format_detect(data, size), "gbx") == 0, "detected as gbx by content");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    CHECK(rb_detect_format(data, size) == rb_format_detect(data, size), "the deprecated name still answers");
#pragma GCC diagnostic pop
    rb_error err;
    rb_read_options opt = {.file_name = "sample.Map.Gbx"};
    rb_doc *doc = rb_doc_parse(data, size, &opt, &err);
    CHECK(doc != NULL, "sample parses");
    if (!doc) return 1;

    check_payload_kinds(doc);
    check_text_results(doc);
    check_getters(rb_doc_root(doc));
    check_option_sizes(data, size);
    check_result_sizes(data, size, doc);
    check_long_reason(data, size);
    check_navigation(doc);
    check_version();
    rb_node *root = rb_doc_root(doc);
    rb_node *name = rb_node_at_edit(root, "/body/chunks/2/mapName");
    CHECK(name && rb_node_kind_of(name) == RB_NODE_STRING, "map name by pointer");
    size_t n;
    const uint8_t *bytes = name ? test_bytes(name, &n) : NULL;
    CHECK(bytes && n == 13 && memcmp(bytes, "rebyte sample", 13) == 0, "map name value");
    CHECK(rb_node_set_bytes(doc, name, "Renamed by the C API", 20) == RB_OK, "set map name");

    rb_node *medals = rb_node_at_edit(root, "/body/chunks/1/challengeParameters/chunks/1");
    rb_node *author = rb_node_member_edit(medals, "authorTime");
    CHECK(author && test_int(author) == 30000, "author time");
    CHECK(rb_node_set_int(author, 28000) == RB_OK, "retime");
    rb_node *kind = rb_node_at_edit(root, "/body/chunks/1/kind");
    CHECK(rb_node_set_uint(kind, 1ull << 32) == RB_E_MODEL, "u32 refuses 2^32");
    CHECK(rb_node_set_int(author, 1ll << 31) == RB_E_MODEL, "i32 refuses 2^31");
    rb_node *scale = rb_node_at_edit(root, "/body/chunks/9/anchoredObjects/0/chunks/0/scale");
    CHECK(scale && test_float(scale) == 1.0, "item scale");
    CHECK(scale && rb_node_set_float(scale, 1.5) == RB_OK, "set scale");
    CHECK(rb_node_at(root, "/body/chunks/99") == NULL, "missing element is NULL");

    uint8_t *out;
    size_t out_size;
    CHECK(rb_doc_write(doc, NULL, &out, &out_size, &err) == RB_OK, "write edited");
    rb_doc *again = rb_doc_parse(out, out_size, &opt, &err);
    CHECK(again != NULL, "edited map re-reads");
    if (again) {
        rb_node *r = rb_doc_root(again);
        bytes = test_bytes(rb_node_at(r, "/body/chunks/2/mapName"), &n);
        CHECK(n == 20 && memcmp(bytes, "Renamed by the C API", 20) == 0, "name edited");
        CHECK(test_int(rb_node_at(r, "/body/chunks/1/challengeParameters/chunks/1/authorTime")) == 28000, "retimed");
        CHECK(test_float(rb_node_at(r, "/body/chunks/9/anchoredObjects/0/chunks/0/scale")) == 1.5, "scaled");
        /* patch through the API (rb_apply on the written bytes): valid, then invalid (all or nothing) */
        rb_apply_result patched = RB_APPLY_RESULT_INIT;
        CHECK(apply_text(out, out_size, "[{\"op\":\"replace\",\"path\":\"/body/chunks/2/mapName\",\"value\":\"P\"}]", 0,
                         &patched) == RB_OK,
              "patch applies");
        rb_doc *renamed = patched.bytes ? rb_doc_parse(patched.bytes, patched.bytes_size, &opt, &err) : NULL;
        bytes = renamed ? test_bytes(rb_node_at(rb_doc_root(renamed), "/body/chunks/2/mapName"), &n) : NULL;
        CHECK(bytes && n == 1 && bytes[0] == 'P', "patched name");
        char *json = NULL;
        CHECK(renamed && rb_doc_dump(renamed, RB_BLOBS_REF, NULL, &json, &err) == RB_OK && strstr(json, "\"mapName\": \"P\""),
              "JSON view");
        rb_free(json);
        rb_doc_free(renamed);
        rb_apply_result_free(&patched);
        rb_apply_result refused = RB_APPLY_RESULT_INIT;
        CHECK(apply_text_err(out, out_size, "[{\"op\":\"replace\",\"path\":\"/body/chunks/1/kind\",\"value\":-1}]", 0,
                             &refused, &err) == RB_E_MODEL && !refused.bytes,
              "out-of-range patch refused");
        CHECK(strstr(err.message, "out of range") != NULL, "refusal says why: %s", err.message);
        rb_doc_free(again);
    }
    free(out);
    rb_doc_free(doc);
    check_game_rules(data, size);
    free(data);
    if (test_failures) return 1;
    printf("test_api: all passed\n");
    return 0;
}
