/* The worker pool of every batch command (cli_pool.h). */
#include "patch/cli/cli_pool.h"
#include <stdlib.h>

static void *pool_worker(void *arg)
{
    cli_pool *p = arg;
    cli_worker_heap(p->largest);
    for (;;) {
        size_t ticket = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
        if (ticket >= p->count) return NULL;
        p->work(p->context, ticket, p->order[ticket]);
    }
}

int cli_pool_start(cli_pool *p, int jobs)
{
    p->started = 0;
    p->next = 0;
    p->order = cli_largest_first(p->files, p->count, p->block, &p->largest);
    if (!p->order) return 0;
    if (jobs > CLI_MAX_JOBS) jobs = CLI_MAX_JOBS;
    while (p->started < jobs && pthread_create(&p->threads[p->started], NULL, pool_worker, p) == 0) p->started++;
    if (!p->started) {
        free(p->order);
        p->order = NULL;
    }
    return p->started;
}

void cli_pool_join(cli_pool *p)
{
    for (int k = 0; k < p->started; k++) pthread_join(p->threads[k], NULL);
    p->started = 0;
    free(p->order);
    p->order = NULL;
}
