/*
 * The round trip (DESIGN.md "Principles" 1 and 5; docs/usage.md), a corpus law (tests/engine/laws.h):
 * every file of a known format is written back byte for byte from its full read (`rebyte
 * rewrite`; `dump` + `build` is law_json_stream's), and with every compressed stream re-encoded
 * (`rebyte verify --reencode`) the output reads again and its decoded content is the file's.
 * Checked on the read every law shares, so the corpus round trip costs no read of its own.
 */
#include <stdio.h>
#include <string.h>
#include "rebyte.h"
#include "tests/engine/laws.h"
#include "tests/test_util.h"

/* across files, counted atomically (several files are checked at once) */
static size_t files, exact, reencoded_same;

static void count(size_t *counter) { __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED); }

/* The file written from its read: the same bytes, compared as they are made. */
static void rewrite_exact(const law_file *file)
{
    rb_error err;
    int identical = 0;
    uint8_t *out = NULL;
    size_t out_size = 0;
    rb_status s = rb_doc_write_against((rb_doc *)file->doc, NULL, file->data, file->size, &identical, &out, &out_size,
                                       &err);
    CHECK(s == RB_OK && identical, "%s: rewrite: %s", file->path, s == RB_OK ? "other bytes" : err.message);
    if (s == RB_OK && identical) count(&exact);
    rb_free(out);
}

/* Every stream re-encoded: the output reads again, and its decoded form is the file's. */
static void reencode_same_content(const law_file *file)
{
    rb_write_options reencode = {.size = sizeof reencode, .reencode = 1};
    rb_write_options decoded = {.size = sizeof decoded, .decoded = 1};
    rb_read_options deferred = {.size = sizeof deferred, .file_name = file->path, .defer = 1};
    rb_error err;
    uint8_t *out = NULL, *want = NULL, *got = NULL;
    size_t out_size = 0, want_size = 0, got_size = 0;
    rb_doc *doc = (rb_doc *)file->doc, *again = NULL;
    int ok = rb_doc_write(doc, &reencode, &out, &out_size, &err) == RB_OK &&
             (again = rb_doc_parse(out, out_size, &deferred, &err)) != NULL &&
             rb_doc_write(doc, &decoded, &want, &want_size, &err) == RB_OK &&
             rb_doc_write(again, &decoded, &got, &got_size, &err) == RB_OK;
    CHECK(ok, "%s: re-encoded: %s", file->path, err.message);
    if (ok) {
        CHECK(got_size == want_size && memcmp(got, want, want_size) == 0,
              "%s: re-encoded, the decoded content differs", file->path);
        if (got_size == want_size && memcmp(got, want, want_size) == 0) count(&reencoded_same);
    }
    rb_free(got);
    rb_free(want);
    rb_doc_free(again);
    rb_free(out);
}

/* A file of a format rebyte knows that does not read fails (the round trip's first step). */
static void reads(const law_file *file)
{
    rb_read_options options = {.size = sizeof options, .file_name = file->path};
    rb_error err = {0};
    rb_doc *doc = rb_doc_parse(file->data, file->size, &options, &err);
    CHECK(doc, "%s: a %s file that does not read: %s", file->path, rb_format_detect(file->data, file->size),
          err.message);
    rb_doc_free(doc);
}

static void check_file(const law_file *file, const law_settings *settings)
{
    (void)settings;
    if (!file->doc) { /* a format rebyte knows must read; other files are not this law's */
        if (file->data && rb_format_detect(file->data, file->size)) reads(file);
        return;
    }
    count(&files);
    rewrite_exact(file);
    reencode_same_content(file);
}

static int finish(const law_settings *settings)
{
    (void)settings;
    CHECK(files > 0, "no file of a known format given");
    printf("roundtrip: %zu files, %zu written back exactly, %zu with the same content re-encoded\n", files, exact,
           reencoded_same);
    return test_failures; /* this file's count (tests/engine/laws.h) */
}

const law law_roundtrip = {"roundtrip", check_file, finish};
