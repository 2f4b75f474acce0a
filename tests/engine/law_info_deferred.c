/*
 * Info and check on a deferred read are info and check on the full read, two corpus laws
 * (tests/engine/laws.h):
 *   info_deferred   rb_doc_info on a read with rb_read_options.defer (the header, streams and
 *                   coverage the deferred read keeps, the summary over the units it reads alone,
 *                   core/doc/info.c) gives the same JSON, byte for byte, as on the full read;
 *   check_deferred  rb_doc_check on it reports the same violations in the same order (the rules
 *                   reading only nodes on the deferred model, the others on the units they read).
 * At least one file must have had units deferred, so neither law is met by a reader that never
 * defers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/buf.h"
#include "core/doc/doc.h"
#include "tests/engine/laws.h"
#include "tests/test_util.h"

/* across files, counted atomically (several files are checked at once) */
static size_t files, files_with_units, checked_files, checked_with_units, violations;

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

static void finish(const law_settings *settings)
{
    (void)settings;
    CHECK(files > 0, "no file of a known format given");
    CHECK(files_with_units > 0, "no file had a unit deferred: the law holds of nothing");
    printf("info on deferred reads is info on full reads: %zu files (%zu with deferred units); %d failures\n", files,
           files_with_units, test_failures);
}

const law law_info_deferred = {"info_deferred", check_file, finish};

/* ---------- check ---------- */

/* Every violation as a line of text, in the order reported. */
static void note(void *context, const rb_rule_violation *v)
{
    rb_buf *out = context;
    char line[1200];
    int n = snprintf(line, sizeof line, "%s %s %s: %s\n", v->warning ? "warning" : "refusal", v->rule, v->path,
                     v->message);
    rb_buf_put(out, line, n < (int)sizeof line ? (size_t)n : sizeof line - 1);
}

static int checked_as_text(const rb_doc *doc, rb_buf *out)
{
    rb_error err;
    size_t problems = 0;
    rb_status status = rb_doc_check(doc, note, out, &problems, &err);
    rb_buf_put_u8(out, 0);
    if (status != RB_OK) fprintf(stderr, "%s: check: %s\n", doc->file_name, err.message);
    return status == RB_OK;
}

static void check_check(const law_file *file, const law_settings *settings)
{
    (void)settings;
    if (!file->doc) return;
    rb_buf full, deferred;
    rb_buf_init(&full);
    rb_buf_init(&deferred);
    CHECK(checked_as_text(file->doc, &full), "%s: check on the full read fails", file->path);
    rb_error err;
    rb_read_options options = {.size = sizeof options, .file_name = file->path, .defer = 1};
    rb_doc *doc = rb_doc_parse(file->data, file->size, &options, &err);
    CHECK(doc != NULL, "%s: the deferred read fails: %s", file->path, err.message);
    if (doc) {
        CHECK(checked_as_text(doc, &deferred), "%s: check on the deferred read fails", file->path);
        count(&checked_with_units, doc->deferred_units > 0);
    }
    CHECK(!doc || strcmp((const char *)full.data, (const char *)deferred.data) == 0,
          "%s: check differs\n  full:\n%s  deferred:\n%s", file->path, (const char *)full.data,
          deferred.data ? (const char *)deferred.data : "");
    size_t lines = 0;
    for (const char *c = (const char *)full.data; c && *c; c++) lines += *c == '\n';
    count(&violations, lines);
    count(&checked_files, 1);
    rb_buf_free(&full);
    rb_buf_free(&deferred);
    rb_doc_free(doc);
}

static void finish_check(const law_settings *settings)
{
    (void)settings;
    CHECK(checked_files > 0, "no file of a known format given");
    CHECK(checked_with_units > 0, "no file had a unit deferred: the law holds of nothing");
    printf("check on deferred reads is check on full reads: %zu files (%zu with deferred units, %zu violations); "
           "%d failures\n", checked_files, checked_with_units, violations, test_failures);
}

const law law_check_deferred = {"check_deferred", check_check, finish_check};
