/* Runs the json-patch conformance suite (DIR/tests.json, DIR/spec_tests.json)
 * against rb_json_patch_apply.
 *
 * Usage: test_json_patch_conformance DIR
 * Exit: 0 all passed, 1 failures or unreadable suite, 2 usage,
 *       77 DIR missing (ctest's skip code: the suite is shared data that a
 *       checkout may not have). */
#define _POSIX_C_SOURCE 200809L /* stat() and S_ISDIR under -std=c11 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "patch/jsonpatch.h"
#include "patch/pins.h"

#define SKIP_EXIT 77

static const char *const SUITE_FILES[] = {"tests.json", "spec_tests.json"};

struct tally {
    size_t run;
    size_t passed;
};

/* Records without a comment are identified by their patch instead. */
static void report_failure(const char *file, size_t idx, const json_t *rec, const char *why, const char *detail)
{
    const char *comment = json_string_value(json_object_get(rec, "comment"));
    char *patch = NULL;

    if (comment == NULL)
        patch = json_dumps(json_object_get(rec, "patch"), JSON_COMPACT | JSON_ENCODE_ANY);
    printf("FAIL %s[%zu] %s: %s%s%s\n", file, idx, comment ? comment : (patch ? patch : "(no comment)"), why,
           detail ? " -- " : "", detail ? detail : "");
    free(patch);
}

/* Checks an applied record. Expected results use rb_values_equal, the same
   number-by-value equality the engine's "test" op uses. An expected error
   must also leave the document untouched (same pointer, same content),
   which exercises the all-or-nothing guarantee. */
static const char *judge(const json_t *rec, int rc, const json_t *before, const json_t *after, const json_t *orig)
{
    const json_t *expected = json_object_get(rec, "expected");

    if (expected != NULL) {
        if (rc != 0)
            return "patch failed but a result was expected";
        return rb_values_equal(after, expected) ? NULL : "result differs from expected";
    }
    if (json_object_get(rec, "error") != NULL) {
        if (rc == 0)
            return "patch succeeded but an error was expected";
        return before == after && json_equal(after, orig) ? NULL : "failed patch modified the document";
    }
    return rc == 0 ? NULL : "patch failed";
}

/* Runs one record if it is runnable; returns 1 if it counted, 0 if skipped. */
static int run_record(const char *file, size_t idx, const json_t *rec, struct tally *t)
{
    const json_t *orig = json_object_get(rec, "doc");
    const json_t *patch = json_object_get(rec, "patch");
    char err[512] = "";
    const char *why;
    json_t *doc, *before;
    int rc;

    if (!json_is_object(rec) || patch == NULL || json_is_true(json_object_get(rec, "disabled")))
        return 0;
    t->run++;
    if (orig == NULL || (doc = json_deep_copy(orig)) == NULL) {
        report_failure(file, idx, rec, "record has no usable 'doc'", NULL);
        return 1;
    }
    before = doc;
    rc = rb_json_patch_apply(&doc, patch, err, sizeof err);
    why = judge(rec, rc, before, doc, orig);
    if (why == NULL) {
        t->passed++;
    } else {
        char *got = rc == 0 ? json_dumps(doc, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        report_failure(file, idx, rec, why, rc == 0 ? got : err);
        free(got);
    }
    json_decref(doc);
    return 1;
}

/* Returns 0 if the file loaded; an unreadable file is a failure, not a skip,
   because DIR itself exists. */
static int run_file(const char *dir, const char *name, struct tally *t)
{
    char path[4096];
    json_error_t jerr;
    json_t *records;
    size_t i;

    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        printf("FAIL %s: path too long\n", name);
        return -1;
    }
    /* Flags 0: duplicate keys must load (last wins), since disabled records
       deliberately contain them. */
    records = json_load_file(path, 0, &jerr);
    if (!json_is_array(records)) {
        if (records == NULL)
            printf("FAIL %s: %s (line %d)\n", path, jerr.text, jerr.line);
        else
            printf("FAIL %s: not a JSON array\n", path);
        json_decref(records);
        return -1;
    }
    for (i = 0; i < json_array_size(records); i++)
        run_record(name, i, json_array_get(records, i), t);
    json_decref(records);
    return 0;
}

int main(int argc, char **argv)
{
    struct tally t = {0, 0};
    struct stat st;
    int load_failed = 0;
    size_t i;

    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    if (stat(argv[1], &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("conformance suite not found at %s (set REBYTE_SHARED)\n", argv[1]);
        return SKIP_EXIT;
    }
    for (i = 0; i < sizeof SUITE_FILES / sizeof SUITE_FILES[0]; i++)
        if (run_file(argv[1], SUITE_FILES[i], &t) != 0)
            load_failed = 1;
    printf("json-patch conformance: %zu/%zu passed\n", t.passed, t.run);
    return !load_failed && t.run > 0 && t.passed == t.run ? 0 : 1;
}
