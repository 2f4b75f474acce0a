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

enum { TEST_MAX_JOBS = 16 };

typedef struct test_parallel_run {
    void (*work)(void *context, size_t index);
    void *context;
    size_t count, next; /* next: the first piece no thread has taken, taken atomically */
} test_parallel_run;

static void *test_parallel_worker(void *arg)
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
#endif
