/*
 * The deferring build's law (docs/performance.md "Build within 3x"), a
 * corpus law (tests/engine/laws.h): for every file given, its dump built with
 * rb_doc_build_file_deferred writes the same bytes as the full build (rb_doc_build_file) and as
 * the file; once navigated it is the full build's model (the same dump); and its units were
 * deferred: wherever a deferred read of the file keeps units as bytes, the build keeps some too
 * (unless the file is a race recording, which a build keeps as nodes), and the largest file's model
 * is smaller than the full build's by the factor asked. The figures are printed.
 * The factor: law_settings.min_saving (test_laws --min-saving X, the least full / deferred arena
 * ratio required of the largest file; default 1).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/doc/doc.h"
#include "tests/engine/laws.h"
#include "tests/test_util.h"

/* across files, under the lock (several files are checked at once) */
static pthread_mutex_t totals_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t files, files_deferring, units_total;
static size_t files_of_deferring_builds; /* files of a format whose build keeps units as bytes (GBX) */
static size_t largest_size;
static double largest_ratio = 0;

static char *dump_text(const rb_doc *doc)
{
    char *text = NULL;
    rb_error err;
    return rb_doc_dump(doc, RB_BLOBS_REF, NULL, &text, &err) == RB_OK ? text : NULL;
}

/* Units a deferred read of the file keeps as bytes. */
static size_t read_units(const uint8_t *data, size_t size)
{
    rb_read_options ro = {.size = sizeof ro, .defer = 1};
    rb_error err;
    rb_doc *doc = rb_doc_parse(data, size, &ro, &err);
    size_t units = doc ? doc->deferred_units : 0;
    rb_doc_free(doc);
    return units;
}

static int same_bytes(const rb_doc *doc, const uint8_t *expected, size_t size)
{
    uint8_t *out;
    size_t out_size;
    rb_error err;
    if (rb_doc_write((rb_doc *)doc, NULL, &out, &out_size, &err) != RB_OK) return 0;
    int same = out_size == size && memcmp(out, expected, size) == 0;
    rb_free(out);
    return same;
}

static void check_file(const law_file *file, const law_settings *settings)
{
    (void)settings;
    const char *path = file->path;
    const uint8_t *data = file->data;
    size_t size = file->size;
    const rb_doc *original = file->doc;
    if (!original) return; /* not a format rebyte reads: not this law's */
    rb_error err = {0};
    /* the dump and its full build the laws share (tests/engine/laws.h) */
    const char *json_path = law_dump_file(file), *why = "";
    CHECK(json_path, "%s: dump", path);
    const rb_doc *full = json_path ? law_full_build(file, &why) : NULL;
    rb_doc *deferred = json_path ? rb_doc_build_file_deferred(json_path, original, &err) : NULL;
    CHECK(full && deferred, "%s: build: %s%s", path, why, err.message);
    if (full && deferred) {
        int full_exact = law_full_build_exact(file);
        CHECK(same_bytes(deferred, data, size) == full_exact, "%s: the deferring build writes other bytes", path);
        size_t units = deferred->deferred_units, expected = read_units(data, size);
        size_t full_arena = full->arena.used_total, deferred_arena = deferred->arena.used_total;
        /* a race recording stays nodes in a build (the write's guard compares records by their nodes) */
        int record = original->format->is_recording && original->format->is_recording(original->root);
        /* Only GBX builds keep units as bytes yet: data.win's and GROFF's units are deferred by a
         * read (session 11), not by a build (docs/performance.md "The deferred model"). */
        int build_defers = strcmp(original->format->name, "gbx") == 0;
        CHECK(!build_defers || !expected || units || record,
              "%s: a deferred read keeps %zu units as bytes, the build none", path, expected);
        pthread_mutex_lock(&totals_lock);
        files_deferring += units > 0;
        files_of_deferring_builds += build_defers;
        units_total += units;
        if (build_defers && size > largest_size && deferred_arena) {
            largest_size = size;
            largest_ratio = (double)full_arena / (double)deferred_arena;
        }
        pthread_mutex_unlock(&totals_lock);
        printf("%s: %zu units deferred (a deferred read: %zu), arena %zu -> %zu bytes\n", path, units, expected,
               full_arena, deferred_arena);
        /* navigated, it is the full build's model */
        char *a = dump_text(full), *b = rb_doc_root(deferred) ? dump_text(deferred) : NULL;
        CHECK(a && b && strcmp(a, b) == 0, "%s: the deferring build, navigated, differs from the full build", path);
        CHECK(deferred->deferred_units == 0, "%s: navigated, %zu units stay deferred", path, deferred->deferred_units);
        rb_free(a);
        rb_free(b);
    }
    rb_doc_free(deferred); /* before laws.c removes the dump: a deferring build may read its units from it */
    pthread_mutex_lock(&totals_lock);
    files++;
    pthread_mutex_unlock(&totals_lock);
}

static int finish(const law_settings *settings)
{
    /* the build's saving is asked of the formats whose builds defer (a folder of others has none) */
    CHECK(!files_of_deferring_builds || files_deferring > 0, "no file had a unit deferred by the build (%zu files)", files);
    CHECK(!files_of_deferring_builds || largest_ratio >= settings->min_saving,
          "the largest file's arena: full / deferred = %.2f < %.2f", largest_ratio, settings->min_saving);
    printf("%zu files, %zu built with units deferred (%zu units); the largest file's arena full / deferred = %.1fx\n",
           files, files_deferring, units_total, largest_ratio);
    return test_failures; /* this file's count (tests/engine/laws.h) */
}

const law law_build_deferred = {"build_deferred", check_file, finish};
