/* The long C tests' one way to use both cores: a list of independent pieces of work (a file
 * each) taken by REBYTE_TEST_JOBS threads (default 2, the project's machines' cores), so a long
 * test still uses both cores when it runs alone at the end of `ctest -j2 -L long`. A piece's
 * work must touch only its own state, or shared state under a lock; CHECK is safe from any
 * thread (tests/test_util.h). */
#ifndef RB_TEST_PARALLEL_H
#define RB_TEST_PARALLEL_H
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/test_util.h"

enum { TEST_MAX_JOBS = 16 };

typedef struct test_parallel_run {
    void (*work)(void *context, size_t index);
    void *context;
    size_t count, next; /* next: the first piece no thread has taken, taken atomically */
} test_parallel_run;

static inline void *test_parallel_worker(void *arg)
{
    test_parallel_run *run = arg;
    for (size_t i; (i = __atomic_fetch_add(&run->next, 1, __ATOMIC_RELAXED)) < run->count;)
        run->work(run->context, i);
    return NULL;
}

/* REBYTE_TEST_JOBS, between 1 and TEST_MAX_JOBS; 2 when unset. */
static inline int test_jobs(void)
{
    const char *value = getenv("REBYTE_TEST_JOBS");
    int jobs = value ? atoi(value) : 2;
    return jobs < 1 ? 1 : jobs > TEST_MAX_JOBS ? TEST_MAX_JOBS : jobs;
}

/* Calls work(context, i) once for every i below count, test_jobs() threads at a time, and
 * returns when every call has. Pieces are taken in order, so the largest first finish soonest.
 * Without threads (none could be started) the caller's thread does all the work. */
static inline void test_run_parallel(size_t count, void (*work)(void *context, size_t index), void *context)
{
    test_parallel_run run = {work, context, count, 0};
    pthread_t threads[TEST_MAX_JOBS];
    int jobs = test_jobs(), started = 0;
    while (started < jobs && (size_t)started < count &&
           pthread_create(&threads[started], NULL, test_parallel_worker, &run) == 0)
        started++;
    if (started == 0) test_parallel_worker(&run);
    for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
}
/* The files test_each_file finds under the paths given, with their sizes. */
typedef struct test_file_list {
    char **paths;
    size_t *sizes;
    size_t count, capacity;
} test_file_list;

static test_file_list test_found __attribute__((unused)); /* test_each_file's callback takes the path alone */

static inline void test_collect_file(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return;
    test_file_list *l = &test_found;
    if (l->count == l->capacity) {
        size_t grown = l->capacity ? l->capacity * 2 : 256;
        char **paths = realloc(l->paths, grown * sizeof *paths);
        if (paths) l->paths = paths;
        size_t *sizes = paths ? realloc(l->sizes, grown * sizeof *sizes) : NULL;
        if (!sizes) return;
        l->sizes = sizes;
        l->capacity = grown;
    }
    l->paths[l->count] = strdup(path);
    l->sizes[l->count++] = (size_t)st.st_size;
}

static inline void test_check_found(void *context, size_t index)
{
    void (*check)(const char *file) = *(void (**)(const char *))context;
    check(test_found.paths[index]);
}

/* test_each_file over every path given, the files' checks run test_jobs() at a time, the
 * largest files first (the last to finish are small ones, so both cores stay busy to the end).
 * `check` runs on several threads at once: see the top of this file. */
static inline void test_each_file_parallel(char *const paths[], int count, void (*check)(const char *file))
{
    for (int i = 0; i < count; i++) test_each_file(paths[i], test_collect_file);
    test_file_list *l = &test_found;
    for (size_t i = 1; i < l->count; i++) /* insertion sort by size, largest first: a few hundred files */
        for (size_t k = i; k > 0 && l->sizes[k] > l->sizes[k - 1]; k--) {
            size_t size = l->sizes[k];
            char *path = l->paths[k];
            l->sizes[k] = l->sizes[k - 1], l->paths[k] = l->paths[k - 1];
            l->sizes[k - 1] = size, l->paths[k - 1] = path;
        }
    test_run_parallel(l->count, test_check_found, &check);
    for (size_t i = 0; i < l->count; i++) free(l->paths[i]);
    free(l->paths);
    free(l->sizes);
    *l = (test_file_list){0};
}
#endif
