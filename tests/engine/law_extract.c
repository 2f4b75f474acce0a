/*
 * Extraction reads what it extracts, a corpus law (tests/engine/laws.h): rb_doc_extract of a
 * deferred read (the one `rebyte extract` makes, which expands only the units that hold assets:
 * docs/performance.md "Extract reads what it extracts") hands out the same assets, in the same
 * order, with the same names, bytes and notes, and the same manifest, as rb_doc_extract of the
 * full read; or fails with the same status and message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/buf.h"
#include "rebyte.h"
#include "tests/engine/laws.h"
#include "tests/test_util.h"

/* across files, counted atomically (several files are checked at once) */
static size_t files, with_assets, assets_seen;

/* Every field of every asset, one after the other: two extractions agree when these agree. */
static int record_asset(void *context, const rb_asset *a)
{
    rb_buf *b = context;
    const char *texts[] = {a->name, a->kind, a->path, a->note ? a->note : "(no note)"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) rb_buf_put(b, texts[i], strlen(texts[i]) + 1);
    rb_buf_put_le(b, (uint64_t)a->replaceable, 4);
    rb_buf_put_le(b, a->data ? a->data_size : UINT64_MAX, 8);
    if (a->data) rb_buf_put(b, a->data, a->data_size);
    return b->failed;
}

typedef struct extraction {
    rb_status status;
    rb_error err;
    rb_buf assets;
    char *manifest;
} extraction;

static void extract(rb_doc *doc, extraction *x)
{
    rb_buf_init(&x->assets);
    x->manifest = NULL;
    x->status = rb_doc_extract(doc, NULL, record_asset, &x->assets, &x->manifest, &x->err);
}

static void extraction_free(extraction *x)
{
    rb_buf_free(&x->assets);
    rb_free(x->manifest);
}

static void check_file(const law_file *file, const law_settings *settings)
{
    (void)settings;
    if (!file->doc) return;
    rb_read_options deferred = {.size = sizeof deferred, .file_name = file->path, .defer = 1};
    rb_error err;
    rb_doc *doc = rb_doc_parse(file->data, file->size, &deferred, &err);
    CHECK(doc, "%s: the deferred read fails: %s", file->path, err.message);
    if (!doc) return;
    extraction full, part;
    extract((rb_doc *)file->doc, &full); /* as the round trip, the shared read: navigated only */
    extract(doc, &part);
    CHECK(full.status == part.status && (full.status == RB_OK || strcmp(full.err.message, part.err.message) == 0),
          "%s: extract: the full read gives %d (%s), the deferred read %d (%s)", file->path, full.status,
          full.err.message, part.status, part.err.message);
    if (full.status == RB_OK && part.status == RB_OK) {
        CHECK(!full.assets.failed && !part.assets.failed, "%s: out of memory", file->path);
        CHECK(full.assets.size == part.assets.size &&
                  (!full.assets.size || memcmp(full.assets.data, part.assets.data, full.assets.size) == 0),
              "%s: extract: the deferred read's assets are not the full read's (%zu / %zu bytes of records)",
              file->path, part.assets.size, full.assets.size);
        CHECK(full.manifest && part.manifest && strcmp(full.manifest, part.manifest) == 0,
              "%s: extract: the deferred read's manifest is not the full read's", file->path);
        if (full.assets.size) __atomic_fetch_add(&with_assets, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&assets_seen, full.assets.size, __ATOMIC_RELAXED);
    }
    __atomic_fetch_add(&files, 1, __ATOMIC_RELAXED);
    extraction_free(&full);
    extraction_free(&part);
    rb_doc_free(doc);
}

static void finish(const law_settings *settings)
{
    (void)settings;
    CHECK(files > 0, "no file of a known format given");
    printf("extract: %zu files, %zu with assets (%zu bytes of asset records): the deferred read extracts the full "
           "read's\n", files, with_assets, assets_seen);
}

const law law_extract = {"extract", check_file, finish};
