/*
 * A program that knows rebyte only as an installed package: <rebyte.h> from the install prefix and
 * the library through pkg-config (tests/api/install_client.sh builds it so). It runs the API's main
 * jobs on the sample map with option structs and the structs the library fills started from their
 * _INIT macros, navigates const nodes and edits through the _edit calls, frees what the library
 * hands out with rb_free and the collections with their _free, and checks the library's run-time version against the header
 * it was compiled with. Usage: api_client SAMPLE_MAP
 */
#include <rebyte.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define EXPECT(cond, what)                                   \
    do {                                                     \
        if (!(cond)) {                                       \
            fprintf(stderr, "FAIL api_client: %s\n", what);  \
            failures++;                                      \
        }                                                    \
    } while (0)

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = n > 0 ? malloc((size_t)n) : NULL;
    *size = data ? fread(data, 1, (size_t)n, f) : 0;
    fclose(f);
    return data;
}

static void edit_and_write(rb_doc *doc)
{
    const rb_node *medals = rb_node_at(rb_doc_root(doc), "/body/chunks/1/challengeParameters/chunks/1");
    const rb_node *read = rb_node_member(medals, "authorTime");
    rb_node *author = rb_node_at_edit(rb_doc_root(doc), "/body/chunks/1/challengeParameters/chunks/1/authorTime");
    EXPECT(read && read == author, "the const and the _edit navigation reach one node");
    int64_t ms = 0;
    double wrong;
    EXPECT(rb_node_get_int(author, &ms) == RB_OK && ms > 0, "an author time");
    EXPECT(rb_node_get_float(author, &wrong) == RB_E_MODEL, "the float getter refuses an int");
    EXPECT(rb_node_set_int(author, ms - 500) == RB_OK, "retime");
    rb_write_options wo = RB_WRITE_OPTIONS_INIT;
    unsigned char *out = NULL;
    size_t out_size = 0;
    rb_error err = RB_ERROR_INIT;
    EXPECT(rb_doc_write(doc, &wo, &out, &out_size, &err) == RB_OK && out_size > 0, "write");
    rb_free(out);
    EXPECT(err.size == sizeof err, "the library keeps the error's size");
    rb_coverage coverage = RB_COVERAGE_INIT;
    EXPECT(rb_doc_coverage(doc, &coverage) == RB_OK && coverage.typed_bytes > 0 && coverage.size == sizeof coverage,
           "coverage");
    size_t streams = rb_doc_stream_report_count(doc);
    rb_stream_report report = RB_STREAM_REPORT_INIT;
    EXPECT(streams > 0 && rb_doc_stream_report(doc, 0, &report) == RB_OK && strcmp(report.name, "body") == 0 &&
               rb_doc_stream_report(doc, streams, &report) == RB_E_USAGE,
           "stream reports by index");
}

/* The dump with blobs as files: a collection read through its accessors. */
static void dump_files(const rb_doc *doc)
{
    char *json = NULL;
    rb_dump_files *files = NULL;
    rb_error err = RB_ERROR_INIT;
    EXPECT(rb_doc_dump_files(doc, "blobs", &json, &files, &err) == RB_OK && json, "dump with blobs as files");
    size_t count = rb_dump_files_count(files), size = 0;
    EXPECT(count > 0 && rb_dump_files_data(files, 0, &size) && size > 0 &&
               strncmp(rb_dump_files_name(files, 0), "blobs/", 6) == 0 && !rb_dump_files_name(files, count),
           "the dump's files by index");
    rb_dump_files_free(files);
    rb_free(json);
}

static void apply_patch(const unsigned char *data, size_t size)
{
    static const char text[] = "[{\"op\":\"replace\",\"path\":\"/body/chunks/[id=0x0304301F]/mapName\",\"value\":\"client\"}]";
    rb_error err = RB_ERROR_INIT;
    rb_patch *patch = rb_patch_parse(text, sizeof text - 1, "client.patch.json", &err);
    const rb_patch *const patches[1] = {patch};
    rb_apply_options ao = RB_APPLY_OPTIONS_INIT;
    rb_apply_result r = RB_APPLY_RESULT_INIT;
    EXPECT(patch && rb_apply(data, size, "sample.Map.Gbx", patches, 1, &ao, &r, &err) == RB_OK && r.bytes_size > 0, "apply");
    if (patch) rb_apply_result_free(&r);
    rb_patch_free(patch);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    EXPECT(rb_version_number() == REBYTE_VERSION_NUMBER, "the library's version number is the header's");
    EXPECT(strcmp(rb_version(), REBYTE_VERSION_STRING) == 0, "the library's version is the header's");
    size_t size = 0;
    unsigned char *data = read_all(argv[1], &size);
    EXPECT(data != NULL, "the sample map reads");
    if (!data) return 1;
    rb_limits limits = RB_LIMITS_INIT;
    rb_limits_default(&limits);
    rb_read_options ro = RB_READ_OPTIONS_INIT;
    ro.file_name = "sample.Map.Gbx";
    ro.limits = &limits;
    rb_error err = RB_ERROR_INIT;
    rb_doc *doc = rb_doc_parse(data, size, &ro, &err);
    EXPECT(doc != NULL, "parse");
    if (doc) {
        char *info = NULL, *json = NULL;
        EXPECT(rb_doc_info(doc, "sample.Map.Gbx", size, &info, &err) == RB_OK && strstr(info, "\"gbx\""), "info");
        EXPECT(rb_doc_dump(doc, RB_BLOBS_REF, "sample.Map.Gbx", &json, &err) == RB_OK && strstr(json, "$source"), "dump");
        rb_free(info);
        rb_free(json);
        dump_files(doc);
        edit_and_write(doc);
        rb_doc_free(doc);
    }
    apply_patch(data, size);
    free(data);
    if (failures) return 1;
    printf("api_client: rebyte %s (%u), header %s: all passed\n", rb_version(), rb_version_number(), REBYTE_VERSION_STRING);
    return 0;
}
