/*
 * The deferred model's law (docs/performance.md "The deferred model"), a corpus law
 * (tests/engine/laws.h): for every file given, and for damaged copies of it (cut short, a byte flipped), a
 * read with rb_read_options.defer agrees with the full read — the same error, or the same
 * coverage, notes, written bytes and, once navigated, the same model node by node
 * (tests/fuzz/deferred_agree.c). At least one file must have had units deferred, so the law is
 * not met by a reader that never defers.
 * The damaged copies per file: law_settings.damaged_copies (test_laws --damaged N; default 0).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/doc/doc.h"
#include "core/model/model_equal.h"
#include "core/registry/registry.h"
#include "tests/fuzz/deferred_agree.h"
#include "tests/engine/laws.h"
#include "tests/test_util.h"

/* across files, counted atomically (several files are checked at once) */
static size_t files, files_with_units, units_total, damaged_cases, differing_copies;

static void count(size_t *counter, size_t n) { __atomic_fetch_add(counter, n, __ATOMIC_RELAXED); }

static void agree_on(const rb_format *format, const char *path, const char *what, const uint8_t *data, size_t size)
{
    rb_limits limits = RB_LIMITS_INIT;
    rb_limits_default(&limits);
    char why[2000] = "";
    size_t units = 0;
    CHECK(rb_deferred_agrees(format, data, size, &limits, &units, why, sizeof why), "%s (%s): %s", path, what, why);
    if (strcmp(what, "as is") == 0) {
        count(&units_total, units);
        count(&files_with_units, units > 0);
    } else {
        count(&damaged_cases, 1);
    }
}

/* The original's full model against a damaged copy read deferred, its units read alone as the
 * comparison meets them (rb_model_equal_units, what apply verifies a write with): different
 * exactly when the two full models are. */
static void units_compare_agrees(const rb_format *format, const char *path, const uint8_t *data, size_t size,
                                 const uint8_t *copy, const char *what)
{
    rb_read_options full_options = {.size = sizeof full_options}, defer = {.size = sizeof defer, .defer = 1};
    rb_error err;
    rb_doc *original = rb_doc_parse_as(format, data, size, &full_options, &err);
    rb_doc *copy_full = rb_doc_parse_as(format, copy, size, &full_options, &err);
    rb_doc *copy_deferred = rb_doc_parse_as(format, copy, size, &defer, &err);
    if (original && copy_full && copy_deferred && rb_doc_units_read_alone(copy_deferred)) {
        rb_buf full_where, units_where;
        rb_buf_init(&full_where);
        rb_buf_init(&units_where);
        int same = rb_model_equal(original->root, copy_full->root, "", &full_where);
        CHECK(rb_model_equal_units(original->root, copy_deferred, &units_where, &err) == same,
              "%s (%s): comparing with units read alone says %s", path, what, same ? "different" : "the same");
        /* where they differ is spelled the same way (the first difference, as a JSON pointer) */
        CHECK(same || (full_where.data && units_where.data &&
                       strcmp((const char *)full_where.data, (const char *)units_where.data) == 0),
              "%s (%s): the difference is at %s, by units at %s", path, what,
              full_where.data ? (const char *)full_where.data : "?", units_where.data ? (const char *)units_where.data : "?");
        rb_buf_free(&full_where);
        rb_buf_free(&units_where);
        count(&differing_copies, !same);
    }
    rb_doc_free(original);
    rb_doc_free(copy_full);
    rb_doc_free(copy_deferred);
}

/* Cut short at and a byte flipped at evenly spaced offsets (the same offsets every run). */
static void agree_on_damaged(const rb_format *format, const char *path, const uint8_t *data, size_t size,
                             int damaged_per_file)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) return;
    for (int k = 1; k <= damaged_per_file && size > 16; k++) {
        size_t at = (size_t)((double)size * k / (damaged_per_file + 1));
        char what[64];
        snprintf(what, sizeof what, "cut at %zu", at);
        agree_on(format, path, what, data, at);
        memcpy(copy, data, size);
        copy[at] ^= 0x5A;
        snprintf(what, sizeof what, "byte %zu flipped", at);
        agree_on(format, path, what, copy, size);
        units_compare_agrees(format, path, data, size, copy, what);
    }
    free(copy);
}

static void check_file(const law_file *file, const law_settings *settings)
{
    /* the format by content, as rb_doc_parse finds it: a file the full read refuses is still
     * held to the law (both reads must fail alike) */
    const rb_format *format = rb_registry_detect(file->data, file->size);
    if (format) {
        count(&files, 1);
        agree_on(format, file->path, "as is", file->data, file->size);
        agree_on_damaged(format, file->path, file->data, file->size, settings->damaged_copies);
    }
}

static int finish(const law_settings *settings)
{
    CHECK(files > 0, "no file of a known format given");
    CHECK(files_with_units > 0, "no file had a unit deferred: the law holds of nothing");
    CHECK(!settings->damaged_copies || differing_copies > 0,
          "no damaged copy read differently: the comparison was not tried");
    printf("deferred reads agree with full reads: %zu files (%zu with deferred units, %zu units), %zu damaged copies "
           "(%zu compared different by units); %d failures\n",
           files, files_with_units, units_total, damaged_cases, differing_copies, test_failures);
    return test_failures; /* this file's count (tests/engine/laws.h) */
}

const law law_deferred = {"deferred", check_file, finish};
