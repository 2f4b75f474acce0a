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
#include <sys/stat.h>
#include "rebyte.h"
#include "tests/engine/laws.h"
#include "tests/test_parallel.h"
#include "tests/test_util.h"

static const law *const LAWS[] = {&law_json_stream, &law_deferred, &law_build_deferred};
enum { LAW_COUNT = sizeof LAWS / sizeof LAWS[0] };

typedef struct sized_path {
    char *path;
    size_t size;
} sized_path;

typedef struct run {
    sized_path *files;
    size_t count, capacity;
    const law *asked[LAW_COUNT];
    size_t asked_count;
    law_settings settings;
} run;

static run the_run; /* test_each_file's callback takes the path alone */

static void collect(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return;
    if (the_run.count == the_run.capacity) {
        size_t grown = the_run.capacity ? the_run.capacity * 2 : 256;
        sized_path *bigger = realloc(the_run.files, grown * sizeof *bigger);
        if (!bigger) return;
        the_run.files = bigger;
        the_run.capacity = grown;
    }
    the_run.files[the_run.count++] = (sized_path){strdup(path), (size_t)st.st_size};
}

static int larger_first(const void *a, const void *b)
{
    const sized_path *x = a, *y = b;
    return x->size != y->size ? (x->size < y->size ? 1 : -1) : strcmp(x->path, y->path);
}

static void check_one(void *context, size_t index)
{
    run *r = context;
    law_file file = {.path = r->files[index].path};
    uint8_t *data = test_read_file(file.path, &file.size);
    if (!data) return;
    file.data = data;
    rb_read_options options = {.size = sizeof options, .file_name = file.path};
    rb_error err;
    rb_doc *doc = rb_doc_parse(data, file.size, &options, &err);
    file.doc = doc;
    for (size_t i = 0; i < r->asked_count; i++) r->asked[i]->check(&file, &r->settings);
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
static int parse_options(int argc, char **argv, run *r)
{
    r->settings = (law_settings){.damaged_copies = 0, .min_saving = 1};
    int i = 1;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (strcmp(argv[i], "--law") == 0) {
            const law *l = law_named(argv[i + 1]);
            if (!l || r->asked_count == LAW_COUNT) return 0;
            r->asked[r->asked_count++] = l;
        } else if (strcmp(argv[i], "--damaged") == 0) {
            r->settings.damaged_copies = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--min-saving") == 0) {
            r->settings.min_saving = atof(argv[i + 1]);
        } else {
            return 0;
        }
    }
    if (r->asked_count == 0)
        for (size_t k = 0; k < LAW_COUNT; k++) r->asked[r->asked_count++] = LAWS[k];
    return i < argc ? i : 0;
}

int main(int argc, char **argv)
{
    int first = parse_options(argc, argv, &the_run);
    if (!first) {
        fprintf(stderr, "usage: %s [--law json_stream|deferred|build_deferred]... [--damaged N] [--min-saving X] PATH...\n",
                argv[0]);
        return 2;
    }
    for (int i = first; i < argc; i++) test_each_file(argv[i], collect);
    qsort(the_run.files, the_run.count, sizeof *the_run.files, larger_first);
    test_run_parallel(the_run.count, check_one, &the_run);
    for (size_t i = 0; i < the_run.asked_count; i++) the_run.asked[i]->finish(&the_run.settings);
    for (size_t i = 0; i < the_run.count; i++) free(the_run.files[i].path);
    free(the_run.files);
    printf("%zu files, %zu laws: %s\n", the_run.count, the_run.asked_count, test_failures ? "FAILED" : "every law holds");
    return test_failures ? 1 : 0;
}
