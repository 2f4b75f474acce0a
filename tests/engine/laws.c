/*
 * The corpus laws in one pass: every file given (a file, or every file of a folder) is read and
 * parsed once, and each law asked checks it (tests/engine/laws.h):
 *   json_stream     the streamed dump and the piecewise build (law_json_stream.c)
 *   deferred        a deferred read agrees with the full read (law_deferred.c)
 *   build_deferred  a deferring build writes the full build's bytes (law_build_deferred.c)
 * The files are taken REBYTE_TEST_JOBS at a time, the largest first (tests/test_parallel.h).
 *
 * Usage: test_laws [--law NAME]... [--damaged N] [--min-saving X] PATH...
 *   (no --law: every law; N damaged copies per file for `deferred`, default 0; X the least
 *   full / deferred arena ratio `build_deferred` requires of the largest file, default 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rebyte.h"
#include "tests/engine/laws.h"
#include "tests/test_parallel.h"
#include "tests/test_util.h"

static const law *const LAWS[] = {&law_json_stream, &law_deferred, &law_build_deferred};
enum { LAW_COUNT = sizeof LAWS / sizeof LAWS[0] };

/* What the command line asks: the laws and their settings (check_one takes the path alone). */
static const law *asked[LAW_COUNT];
static size_t asked_count;
static law_settings settings = {.damaged_copies = 0, .min_saving = 1};
static size_t files_given;

static void check_one(const char *path)
{
    law_file file = {.path = path};
    uint8_t *data = test_read_file(path, &file.size);
    __atomic_fetch_add(&files_given, 1, __ATOMIC_RELAXED);
    if (!data) return;
    file.data = data;
    rb_read_options options = {.size = sizeof options, .file_name = path};
    rb_error err;
    rb_doc *doc = rb_doc_parse(data, file.size, &options, &err);
    file.doc = doc;
    for (size_t i = 0; i < asked_count; i++) asked[i]->check(&file, &settings);
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
        fprintf(stderr, "usage: %s [--law json_stream|deferred|build_deferred]... [--damaged N] [--min-saving X] PATH...\n",
                argv[0]);
        return 2;
    }
    test_each_file_parallel(argv + first, argc - first, check_one);
    for (size_t i = 0; i < asked_count; i++) asked[i]->finish(&settings);
    printf("%zu files, %zu laws: %s\n", files_given, asked_count, test_failures ? "FAILED" : "every law holds");
    return test_failures ? 1 : 0;
}
