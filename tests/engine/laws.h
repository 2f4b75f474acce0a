/* The corpus laws (tests/engine/laws.c): laws that hold of every file of a known format, each
 * checked by a function given one file's bytes and its full read, so one pass over the corpus
 * reads and parses each file once and checks every law on it (tests/README.md "Quick and
 * long"). A law's check may run on several threads at once (tests/test_parallel.h): what it
 * counts across files it counts atomically or under its own lock. */
#ifndef RB_TEST_LAWS_H
#define RB_TEST_LAWS_H
#include <stddef.h>
#include <stdint.h>
#include "core/doc/doc.h"

typedef struct law_made law_made;

typedef struct law_file {
    const char *path;
    const uint8_t *data;
    size_t size;
    const rb_doc *doc; /* the full read (rb_doc_parse, the path as its name); NULL: of no known format */
    law_made *made;    /* what several laws build from the file, made once (below) */
} law_file;

/* What more than one law makes from a file, made when a law first asks and kept for the others
 * until every law has checked the file (tests/engine/laws.c): the dump (blobs as references, with
 * its "$source") in a temporary file, and the full build of that file (rb_doc_build_file). */
const char *law_dump_file(const law_file *file);
/* The full build (the caller does not free it), or NULL with the reason in *why. */
const rb_doc *law_full_build(const law_file *file, const char **why);
/* Does the full build write the file's bytes? */
int law_full_build_exact(const law_file *file);

/* What the command line sets for the laws that take a setting. */
typedef struct law_settings {
    int damaged_copies; /* deferred: damaged copies per file (--damaged N) */
    double min_saving;  /* build_deferred: the least full / deferred arena ratio of the largest file */
} law_settings;

typedef struct law {
    const char *name;
    void (*check)(const law_file *file, const law_settings *settings);
    /* after every file: the law's checks over the whole run, and its summary line (its CHECKs
     * count in the program's one count, tests/test_util.h) */
    void (*finish)(const law_settings *settings);
} law;

extern const law law_json_stream, law_deferred, law_build_deferred, law_extract, law_roundtrip, law_info_deferred,
    law_check_deferred;
#endif
