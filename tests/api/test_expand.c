/*
 * An honest document (docs/api.md "The deferred model"): expanding a deferred document is an
 * explicit step whose failure reaches the caller, and a call on the still deferred document that
 * needs nodes says so instead of answering from a model it changed behind the caller's back.
 * The failure is injected three ways: the input's first byte changed after a deferred read (a
 * GBX map, whose units are its decoded body, and a data.win, whose units are slices of the
 * input), and the JSON file of a deferred build removed before it is built again.
 *
 * Usage: test_expand SAMPLE.Map.Gbx SAMPLE.win BUILD_FOLDER
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/test_util.h"
#include "rebyte.h"

static void count_problem(void *count, const rb_rule_violation *violation)
{
    (void)violation;
    (*(size_t *)count)++;
}

static int sink_nothing(void *context, const rb_asset *asset)
{
    (void)context;
    (void)asset;
    return 0;
}

/* Every call that needs nodes reports the failure (or that the units are still deferred), the
 * deferred model stays and writes `expected` (its bytes, as before the failure). */
static void expansion_fails(const char *what, rb_doc *doc, rb_status cause, const uint8_t *expected,
                            size_t expected_size)
{
    rb_error err;
    rb_status st = rb_doc_expand(doc, &err);
    CHECK(st == cause && err.status == cause && err.message[0], "%s: rb_doc_expand says why (%d: %s)", what, st,
          err.message);
    CHECK(rb_doc_root(doc) == NULL, "%s: rb_doc_root gives no root", what);
    char *info = NULL;
    CHECK(rb_doc_info(doc, NULL, 0, &info, &err) == RB_E_DEFERRED && !info && strstr(err.message, "rb_doc_expand"),
          "%s: info reports the deferred units (%s)", what, err.message);
    size_t reported = 0, problems = 7;
    CHECK(rb_doc_check(doc, count_problem, &reported, &problems, &err) == RB_E_DEFERRED && !reported && !problems,
          "%s: check reports the deferred units, not a count", what);
    char *patch = NULL;
    size_t operations = 0;
    CHECK(rb_doc_diff(doc, expected, expected_size, doc, 0, &patch, &operations, &err) == RB_E_DEFERRED && !patch,
          "%s: diff reports the deferred units", what);
    CHECK(rb_doc_extract(doc, NULL, sink_nothing, NULL, NULL, &err) == cause,
          "%s: extract reports the expansion's failure (%s)", what, err.message);
    uint8_t *out = NULL;
    size_t out_size = 0;
    CHECK(rb_doc_write(doc, NULL, &out, &out_size, &err) == RB_OK && out_size == expected_size &&
              memcmp(out, expected, expected_size) == 0,
          "%s: the deferred model is kept, and writes the file", what);
    rb_free(out);
}

/* A file read deferred, then its first byte changed: reading it again fails. Put back, the same
 * document expands. */
static void changed_input(const char *path)
{
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    CHECK(data && size > 16, "%s is there", path);
    if (!data || size <= 16) return;
    uint8_t *original = malloc(size);
    memcpy(original, data, size);
    rb_read_options options = {.size = sizeof options, .file_name = path, .defer = 1};
    rb_error err;
    rb_doc *doc = rb_doc_parse(data, size, &options, &err);
    CHECK(doc != NULL, "%s reads deferred: %s", path, err.message);
    if (doc) {
        data[0] ^= 0xFF; /* the input changed since the read (the API asks the caller not to) */
        expansion_fails(path, doc, RB_E_FORMAT, original, size);
        data[0] ^= 0xFF;
        CHECK(rb_doc_expand(doc, &err) == RB_OK && rb_doc_root(doc) != NULL, "%s expands once the input is back: %s",
              path, err.message);
        char *info = NULL;
        size_t problems = 0;
        CHECK(rb_doc_info(doc, path, size, &info, &err) == RB_OK && info, "%s: info once expanded", path);
        CHECK(rb_doc_check(doc, NULL, NULL, &problems, &err) == RB_OK, "%s: check once expanded", path);
        rb_free(info);
    }
    rb_doc_free(doc);
    free(original);
    free(data);
}

/* A deferred build whose JSON file is gone when it is built again. */
static void build_file_gone(const char *map_path, const char *folder)
{
    size_t size = 0;
    uint8_t *data = test_read_file(map_path, &size);
    rb_error err;
    rb_doc *source = data ? rb_doc_parse(data, size, NULL, &err) : NULL;
    char *json = NULL;
    CHECK(source && rb_doc_dump(source, RB_BLOBS_BASE64, NULL, &json, &err) == RB_OK, "%s dumps", map_path);
    char json_path[4096];
    snprintf(json_path, sizeof json_path, "%s/test_expand_%d.json", folder, (int)getpid());
    FILE *f = json ? fopen(json_path, "wb") : NULL;
    CHECK(f && fwrite(json, 1, strlen(json), f) == strlen(json), "%s is written", json_path);
    if (f) fclose(f);
    rb_doc *built = f ? rb_doc_build_file_deferred(json_path, NULL, &err) : NULL;
    CHECK(built != NULL, "%s builds deferred: %s", json_path, err.message);
    if (built) {
        remove(json_path);
        expansion_fails("a deferred build", built, RB_E_IO, data, size);
    }
    remove(json_path);
    rb_doc_free(built);
    rb_free(json);
    rb_doc_free(source);
    free(data);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s SAMPLE.Map.Gbx SAMPLE.win BUILD_FOLDER\n", argv[0]);
        return 64;
    }
    changed_input(argv[1]);
    changed_input(argv[2]);
    build_file_gone(argv[1], argv[3]);
    printf("expansion failures reach the caller: %d failures\n", test_failures);
    return test_failures ? 1 : 0;
}
