/*
 * The corpus laws in one pass: every file given (a file, or every file of a folder) is read and
 * parsed once, and each law asked checks it (tests/engine/laws.h):
 *   json_stream     the streamed dump and the piecewise build (law_json_stream.c)
 *   deferred        a deferred read agrees with the full read (law_deferred.c)
 *   build_deferred  a deferring build writes the full build's bytes (law_build_deferred.c)
 *   extract         a deferred read extracts the full read's assets and manifest (law_extract.c)
 *   roundtrip       the file written back exactly, and re-encoded with the same content
 *                   (law_roundtrip.c; what `rewrite` and `verify --reencode` check)
 *   info_deferred   info on a deferred read is info on the full read (law_info_deferred.c)
 *   check_deferred  and check on it the full read's check (law_info_deferred.c)
 * The files are taken REBYTE_TEST_JOBS at a time, the largest first (tests/test_parallel.h).
 *
 * Usage: test_laws [--law NAME]... [--damaged N] [--min-saving X] PATH...
 *   (no --law: every law; N damaged copies per file for `deferred`, default 0; X the least
 *   full / deferred arena ratio `build_deferred` requires of the largest file, default 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rebyte.h"
#include "tests/engine/laws.h"
#include "tests/test_parallel.h"
#include "tests/test_util.h"

/* the round trip last: it writes the shared read with its streams re-encoded, after the other
 * laws have used the read as it came */
static const law *const LAWS[] = {&law_json_stream,   &law_deferred,       &law_build_deferred, &law_info_deferred,
                                   &law_check_deferred, &law_extract,        &law_roundtrip};
enum { LAW_COUNT = sizeof LAWS / sizeof LAWS[0] };

/* What the command line asks: the laws and their settings (check_one takes the path alone). */
static const law *asked[LAW_COUNT];
static size_t asked_count;
static law_settings settings = {.damaged_copies = 0, .min_saving = 1};
static size_t files_given;

struct law_made {
    char dump_path[64];
    int dumped, built, written; /* 0: not asked yet; 1: made; -1: failed */
    rb_doc *full;
    char why[sizeof ((rb_error *)0)->message];
};

static int to_file(void *context, const char *text, size_t size)
{
    return fwrite(text, 1, size, context) == size ? 0 : 1;
}

const char *law_dump_file(const law_file *file)
{
    law_made *m = file->made;
    if (!m->dumped) {
        snprintf(m->dump_path, sizeof m->dump_path, "/tmp/rebyte-laws-XXXXXX");
        int fd = file->doc ? mkstemp(m->dump_path) : -1;
        FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
        if (fd >= 0 && !f) close(fd);
        rb_error err;
        int ok = f && rb_doc_dump_to(file->doc, RB_BLOBS_REF, file->path, to_file, f, &err) == RB_OK;
        if (f) ok = fclose(f) == 0 && ok;
        if (fd < 0) m->dump_path[0] = 0;
        m->dumped = ok ? 1 : -1;
    }
    return m->dumped > 0 ? m->dump_path : NULL;
}

const rb_doc *law_full_build(const law_file *file, const char **why)
{
    law_made *m = file->made;
    if (!m->built) {
        const char *json_path = law_dump_file(file);
        rb_error err = {0};
        m->full = json_path ? rb_doc_build_file(json_path, file->doc, &err) : NULL;
        snprintf(m->why, sizeof m->why, "%s", json_path ? err.message : "the dump was not written");
        m->built = m->full ? 1 : -1;
    }
    *why = m->why;
    return m->full;
}

int law_full_build_exact(const law_file *file)
{
    law_made *m = file->made;
    const char *why;
    if (!m->written && law_full_build(file, &why)) {
        uint8_t *out = NULL;
        size_t out_size = 0;
        rb_error err;
        int same = rb_doc_write(m->full, NULL, &out, &out_size, &err) == RB_OK && out_size == file->size &&
                   memcmp(out, file->data, file->size) == 0;
        m->written = same ? 1 : -1;
        rb_free(out);
    }
    return m->written > 0;
}

static void made_free(law_made *m)
{
    rb_doc_free(m->full);
    if (m->dump_path[0]) unlink(m->dump_path); /* after the documents: a deferring build may read it */
}

static void check_one(const char *path)
{
    law_made made = {0};
    law_file file = {.path = path, .made = &made};
    uint8_t *data = test_read_file(path, &file.size);
    __atomic_fetch_add(&files_given, 1, __ATOMIC_RELAXED);
    if (!data) return;
    file.data = data;
    rb_read_options options = {.size = sizeof options, .file_name = path};
    rb_error err;
    rb_doc *doc = rb_doc_parse(data, file.size, &options, &err);
    file.doc = doc;
    for (size_t i = 0; i < asked_count; i++) asked[i]->check(&file, &settings);
    made_free(&made);
    rb_doc_free(doc);
    free(data);
}

static const law *law_named(const char *name)
{
    for (size_t i = 0; i < LAW_COUNT; i++)
        if (strcmp(LAWS[i]->name, name) == 0) return LAWS[i];
    return NULL;
}

/* The options; the index of the first path, or 0 when they are wrong. */
static int parse_options(int argc, char **argv)
{
    int i = 1;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (strcmp(argv[i], "--law") == 0) {
            const law *l = law_named(argv[i + 1]);
            if (!l || asked_count == LAW_COUNT) return 0;
            asked[asked_count++] = l;
        } else if (strcmp(argv[i], "--damaged") == 0) {
            settings.damaged_copies = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--min-saving") == 0) {
            settings.min_saving = atof(argv[i + 1]);
        } else {
            return 0;
        }
    }
    if (asked_count == 0)
        for (size_t k = 0; k < LAW_COUNT; k++) asked[asked_count++] = LAWS[k];
    return i < argc ? i : 0;
}

int main(int argc, char **argv)
{
    int first = parse_options(argc, argv);
    if (!first) {
        fprintf(stderr, "usage: %s [--law json_stream|deferred|build_deferred|extract|roundtrip|info_deferred|check_deferred]... [--damaged N] [--min-saving X] PATH...\n",
                argv[0]);
        return 2;
    }
    test_each_file_parallel(argv + first, argc - first, check_one);
    for (size_t i = 0; i < asked_count; i++) asked[i]->finish(&settings);
    /* one count for the program, every law file's CHECKs in it (tests/test_util.h) */
    printf("%zu files, %zu laws: %s\n", files_given, asked_count, test_failures ? "FAILED" : "every law holds");
    return test_failures ? 1 : 0;
}
