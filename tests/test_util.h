/* Small helpers shared by the C test programs. */
#ifndef RB_TEST_UTIL_H
#define RB_TEST_UTIL_H
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A regular file's bytes (malloc'd; free them), or NULL: folders and unreadable paths are not
 * inputs. */
static inline uint8_t *test_read_file(const char *path, size_t *size)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *data = malloc(st.st_size > 0 ? (size_t)st.st_size : 1);
    *size = data ? fread(data, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    return data;
}

/* Assertions of the C test programs: a failed one is printed with its place and counted, from
 * any thread (tests/test_parallel.h): the count is atomic and the three parts of the message are
 * printed under the stream's lock, never mixed with another thread's. */
/* weak, not static: a test program of several files (test_laws: a file a law) has one count,
 * the one its main returns, not one a file that main never sees */
int test_failures __attribute__((weak));
#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            __atomic_fetch_add(&test_failures, 1, __ATOMIC_RELAXED);                       \
            flockfile(stderr);                                                             \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, "\n");                                                         \
            funlockfile(stderr);                                                           \
        }                                                                                  \
    } while (0)

/* A node's value through the checked getters of include/rebyte.h, for assertions: an impossible
 * value (NaN, INT64_MIN, UINT64_MAX) when the node is missing or of another kind. */
/* Calls `check` on `path`, or on every file under it when it is a folder (names in alphabetical
 * order, dot files skipped): the corpus and sample sweeps of the law tests. A path that does not
 * exist is a failure. */
static inline void test_each_file(const char *path, void (*check)(const char *file))
{
    struct stat st;
    if (stat(path, &st) != 0) {
        CHECK(0, "%s: no such file or folder", path);
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        check(path);
        return;
    }
    struct dirent **entries;
    int n = scandir(path, &entries, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        if (entries[i]->d_name[0] != '.') {
            char child[4096];
            int length = snprintf(child, sizeof child, "%s/%s", path, entries[i]->d_name);
            if (length > 0 && (size_t)length < sizeof child) test_each_file(child, check);
            else CHECK(0, "%s/%s: path too long", path, entries[i]->d_name);
        }
        free(entries[i]);
    }
    if (n >= 0) free(entries);
}

#ifdef JANSSON_H
/* How many operations of a patch change something (its "test" pins aside). */
static inline size_t test_changes(const json_t *ops)
{
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(ops); i++)
        n += strcmp(json_string_value(json_object_get(json_array_get(ops, i), "op")), "test") != 0;
    return n;
}
#endif

#ifdef REBYTE_H
static inline double test_float(const rb_node *n)
{
    double v;
    return rb_node_get_float(n, &v) == RB_OK ? v : NAN;
}
static inline int64_t test_int(const rb_node *n)
{
    int64_t v;
    return rb_node_get_int(n, &v) == RB_OK ? v : INT64_MIN;
}
static inline uint64_t test_uint(const rb_node *n)
{
    uint64_t v;
    return rb_node_get_uint(n, &v) == RB_OK ? v : UINT64_MAX;
}
/* The bytes of a string, blob or id node; NULL (and 0) for any other node. */
static inline const uint8_t *test_bytes(const rb_node *n, size_t *size)
{
    const uint8_t *bytes = NULL;
    *size = 0;
    return rb_node_get_bytes(n, &bytes, size) == RB_OK ? bytes : NULL;
}
/* `ops` (a patch's text) applied by rb_apply to `data`: the result's bytes (the caller frees
 * them), or NULL with the refusal in `why`. The law tests' one way to apply a patch. */
static inline uint8_t *test_apply_text(const char *name, const uint8_t *data, size_t size, const char *ops,
                                       size_t *out_size, char *why, size_t why_size)
{
    rb_error err = {0};
    rb_patch *patch = rb_patch_parse(ops, strlen(ops), "the patch", &err);
    rb_apply_result result = RB_APPLY_RESULT_INIT;
    const rb_patch *const patches[1] = {patch};
    uint8_t *out = NULL;
    if (patch && rb_apply(data, size, name, patches, 1, NULL, &result, &err) == RB_OK) {
        out = result.bytes;
        *out_size = result.bytes_size;
        result.bytes = NULL;
    } else {
        snprintf(why, why_size, "%s", err.message);
    }
    rb_apply_result_free(&result);
    rb_patch_free(patch);
    return out;
}
#endif
#endif
