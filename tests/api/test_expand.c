/*
 * An honest document (docs/api.md "The deferred model"): expanding a deferred document is an
 * explicit step whose failure reaches the caller, and a call on the still deferred document that
 * needs nodes says so instead of answering from a model it changed behind the caller's back.
 * The failure is injected three ways: a GBX map's unit (a slice of its decoded body, read again
 * alone when expanded) overwritten after the deferred read; a data.win's first byte changed (its
 * units cannot be read alone: the whole file is read again); the JSON file of a deferred build
 * removed before it is built again. After a failure the model is whole and writes the file; put
 * right, the same document expands to the full read's model.
 *
 * Usage: test_expand SAMPLE.Map.Gbx SAMPLE.win BUILD_FOLDER
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/doc/doc.h"
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

/* The document writes `expected` (its bytes before the failure). */
static void writes(const char *what, rb_doc *doc, const uint8_t *expected, size_t expected_size)
{
    uint8_t *out = NULL;
    size_t out_size = 0;
    rb_error err;
    CHECK(rb_doc_write(doc, NULL, &out, &out_size, &err) == RB_OK && out_size == expected_size &&
              memcmp(out, expected, expected_size) == 0,
          "%s: the model is whole after the failure, and writes the file (%s)", what, err.message);
    rb_free(out);
}

/* Every call that needs nodes reports the failure, or that units are still deferred. */
static void expansion_fails(const char *what, rb_doc *doc, rb_status cause, const uint8_t *expected,
                            size_t expected_size)
{
    rb_error err;
    rb_status st = rb_doc_expand(doc, &err);
    CHECK(st == cause && err.status == cause && err.message[0], "%s: rb_doc_expand says why (%d: %s)", what, st,
          err.message);
    CHECK(rb_doc_root(doc) == NULL, "%s: rb_doc_root gives no root", what);
    char *info = NULL;
    /* info reads the units its summary needs (core/doc/info.c): their failure reaches it */
    CHECK(rb_doc_info(doc, NULL, 0, &info, &err) == cause && !info && err.status == cause && err.message[0],
          "%s: info reports the failure of the units it reads (%s)", what, err.message);
    size_t reported = 0, problems = 7;
    rb_status checked = rb_doc_check(doc, count_problem, &reported, &problems, &err);
    /* the rules read only some units (core/doc/rules.h rb_rule_reads.unit): the damaged one may be
     * none of them */
    CHECK(checked == RB_OK || (checked == cause && err.status == cause && !reported && !problems),
          "%s: check answers, or reports the failure of a unit its rules read, not a count (%d: %s)", what, checked,
          err.message);
    char *patch = NULL;
    size_t operations = 0;
    /* a diff compares units by their bytes first (docs/usage.md "Diffs"): with itself, every
     * unit is equal and none is read; where one must be read (the file read again), it fails */
    rb_status diffed = rb_doc_diff(doc, expected, expected_size, doc, RB_DIFF_PLAIN, &patch, &operations, &err);
    CHECK(diffed == RB_OK ? operations == 0 && patch && patch[0] == '[' : !patch && err.message[0],
          "%s: the diff with itself is empty, or says why not (%d: %s)", what, diffed, err.message);
    rb_free(patch);
    CHECK(rb_doc_extract(doc, NULL, sink_nothing, NULL, NULL, &err) == cause,
          "%s: extract reports the expansion's failure (%s)", what, err.message);
}

/* Put right, the document expands to what a full read gives (the same dump) and answers. */
static void expands_after_all(const char *what, rb_doc *doc, const uint8_t *data, size_t size)
{
    rb_error err;
    CHECK(rb_doc_expand(doc, &err) == RB_OK && rb_doc_root(doc) != NULL, "%s expands once put right: %s", what,
          err.message);
    rb_doc *full = rb_doc_parse(data, size, NULL, &err);
    char *expanded_json = NULL, *full_json = NULL, *info = NULL;
    CHECK(full && rb_doc_dump(doc, RB_BLOBS_REF, NULL, &expanded_json, &err) == RB_OK &&
              rb_doc_dump(full, RB_BLOBS_REF, NULL, &full_json, &err) == RB_OK &&
              strcmp(expanded_json, full_json) == 0,
          "%s: the expanded model is the full read's", what);
    size_t problems = 0;
    CHECK(rb_doc_info(doc, what, size, &info, &err) == RB_OK && info, "%s: info once expanded", what);
    CHECK(rb_doc_check(doc, NULL, NULL, &problems, &err) == RB_OK, "%s: check once expanded", what);
    rb_free(info);
    rb_free(expanded_json);
    rb_free(full_json);
    rb_doc_free(full);
}

/* The last deferred unit below `n` (internal: the test reaches into the model to damage it), so
 * that the units before it are expanded when it fails: a model of nodes and bytes mixed. */
static rb_node *last_unit(rb_node *n)
{
    if (n->kind == RB_K_DEFERRED) return n;
    if (!rb_node_is_container(n)) return NULL;
    for (size_t i = n->v.kids.count; i-- > 0;) {
        rb_node *unit = last_unit(n->v.kids.items[i]);
        if (unit) return unit;
    }
    return NULL;
}

/* A map read deferred, then its last unit's bytes overwritten (they are the decoded body's, which
 * the document owns): reading it again alone fails, after the units before it became nodes. The
 * mixed model writes the file; its bytes put back, the same document expands. */
static void changed_unit(const char *path)
{
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    rb_read_options options = {.size = sizeof options, .file_name = path, .defer = 1};
    rb_error err;
    rb_doc *doc = data ? rb_doc_parse(data, size, &options, &err) : NULL;
    rb_node *unit = doc ? last_unit(doc->root) : NULL;
    CHECK(unit && unit->v.bytes.size >= 8, "%s reads deferred with a unit", path);
    if (unit && unit->v.bytes.size >= 8) {
        uint8_t *bytes = (uint8_t *)unit->v.bytes.data, kept[8];
        memcpy(kept, bytes, sizeof kept);
        memset(bytes, 0xFF, sizeof kept); /* a chunk id no class has, a size past the end */
        expansion_fails(path, doc, RB_E_UNSUPPORTED, data, size);
        memcpy(bytes, kept, sizeof kept);
        writes(path, doc, data, size);
        expands_after_all(path, doc, data, size);
    }
    rb_doc_free(doc);
    free(data);
}

/* A file read deferred, then its first byte changed: reading it again in full fails. Put back,
 * the same document expands. */
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
        writes(path, doc, original, size);
        data[0] ^= 0xFF;
        expands_after_all(path, doc, data, size);
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
        writes("a deferred build", built, data, size);
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
    changed_unit(argv[1]);
    changed_input(argv[2]);
    build_file_gone(argv[1], argv[3]);
    printf("expansion failures reach the caller: %d failures\n", test_failures);
    return test_failures ? 1 : 0;
}
