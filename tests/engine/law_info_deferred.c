/*
 * Info on a deferred read is info on the full read, a corpus law (tests/engine/laws.h): for every
 * file of a known format, rb_doc_info on a read with rb_read_options.defer (the header, streams
 * and coverage the deferred read keeps, the summary over the units it reads alone, core/doc/info.c)
 * gives the same JSON, byte for byte, as on the full read. At least one file must have had units
 * deferred, so the law is not met by a reader that never defers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/doc.h"
#include "tests/engine/laws.h"
#include "tests/test_util.h"

/* across files, counted atomically (several files are checked at once) */
static size_t files, files_with_units;

static void count(size_t *counter, size_t n) { __atomic_fetch_add(counter, n, __ATOMIC_RELAXED); }

static void check_file(const law_file *file, const law_settings *settings)
{
    (void)settings;
    if (!file->doc) return; /* of no known format, or refused alike (the deferred law's business) */
    rb_error err;
    char *full = NULL, *deferred = NULL;
    CHECK(rb_doc_info(file->doc, file->path, file->size, &full, &err) == RB_OK, "%s: info on the full read: %s",
          file->path, err.message);
    rb_read_options options = {.size = sizeof options, .file_name = file->path, .defer = 1};
    rb_doc *doc = rb_doc_parse(file->data, file->size, &options, &err);
    CHECK(doc != NULL, "%s: the deferred read fails: %s", file->path, err.message);
    if (doc) {
        CHECK(rb_doc_info(doc, file->path, file->size, &deferred, &err) == RB_OK, "%s: info on the deferred read: %s",
              file->path, err.message);
        count(&files_with_units, doc->deferred_units > 0);
    }
    CHECK(!full || !deferred || strcmp(full, deferred) == 0, "%s: info differs\n  full:     %s\n  deferred: %s",
          file->path, full, deferred);
    count(&files, 1);
    rb_free(full);
    rb_free(deferred);
    rb_doc_free(doc);
}

static int finish(const law_settings *settings)
{
    (void)settings;
    CHECK(files > 0, "no file of a known format given");
    CHECK(files_with_units > 0, "no file had a unit deferred: the law holds of nothing");
    printf("info on deferred reads is info on full reads: %zu files (%zu with deferred units); %d failures\n", files,
           files_with_units, test_failures);
    return test_failures; /* this file's count (tests/engine/laws.h) */
}

const law law_info_deferred = {"info_deferred", check_file, finish};
