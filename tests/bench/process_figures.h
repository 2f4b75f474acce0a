/* The process-level figures of issue 31 (rebyte_bench --process; process_figures.c). */
#ifndef REBYTE_BENCH_PROCESS_FIGURES_H
#define REBYTE_BENCH_PROCESS_FIGURES_H
#include <stddef.h>
#include <stdint.h>

/* A file the in-process benchmark measured: its sizes and its floor (read it + LZO-decompress its
 * bodies: the medians of the copy and lzo floors). */
typedef struct process_file {
    const char *path, *format;
    uint64_t size, decoded;
    double floor_seconds;
} process_file;

/* `rebyte_bench --run-measure CMD ARG...`: runs CMD, prints "SECONDS MAXRSS_KB". This process is a
 * fresh exec with a small resident set, so the child's ru_maxrss is its own (Linux carries the
 * peak over fork and exec from the parent: the benchmark's own would swamp it). */
int bench_run_measure(char **argv);

/* Runs the CLI `cli` and prints: verify -j1 over the GBX folder against the floor, rewrite's peak
 * less the bare program's for the largest GBX, data.win and GROFF file, dump and build of the
 * largest map, verify -j2 / -j1 over `folders` (alternating runs, the load average said). */
void bench_process_figures(const char *self, const char *cli, const process_file *files, size_t count,
                           char **folders, int folder_count, int runs);
#endif
