/* The worker pool of every batch command (apply, verify): threads that take a batch's files
 * one by one until none is left. */
#ifndef RB_CLI_POOL_H
#define RB_CLI_POOL_H
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "patch/cli/cli_util.h"

/* Files are handed out largest first within each block of `block` files (cli_largest_first: a
 * large file does not end up alone at the tail while the other workers idle) by an atomic
 * counter, so no lock stands between a worker and its next file. Each worker's heap is made
 * ready for the largest file first (cli_worker_heap). */
typedef struct cli_pool {
    char **files;
    size_t count;
    size_t block; /* 0: the whole list is one block */
    /* one file's work, on a worker's thread: `ticket` is its place in the handing out (tickets
     * run 0, 1, ... in the order the files are handed out), `index` its index in `files` */
    void (*work)(void *context, size_t ticket, size_t index);
    void *context;
    /* the pool's own, set by cli_pool_start */
    size_t *order;
    uint64_t largest;
    size_t next; /* the next ticket (atomic) */
    pthread_t threads[CLI_MAX_JOBS];
    int started;
} cli_pool;

/* Starts up to `jobs` workers (after cli_batch_heap). Returns how many started: 0 when none
 * could (no memory for the order, no thread), and then the caller does the files itself. */
int cli_pool_start(cli_pool *p, int jobs);
/* Waits for every worker to finish (they stop when the files run out) and frees the order. */
void cli_pool_join(cli_pool *p);
#endif
