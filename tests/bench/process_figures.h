/* The process-level figures (rebyte_bench --process; process_figures.c). */
#ifndef REBYTE_BENCH_PROCESS_FIGURES_H
#define REBYTE_BENCH_PROCESS_FIGURES_H
#include <stddef.h>
#include <stdint.h>

/* A file the in-process benchmark measured: its sizes and its floor (read it + LZO-decompress its
 * bodies: the medians of the copy and lzo floors). */
enum { PROCESS_MAX_LZO = 8 };
typedef struct process_file {
    const char *path, *format;
    uint64_t size, decoded;
    double floor_seconds;
    /* the LZO streams stored in the file itself (a GBX body): where, and their sizes, for the
     * floor process (bench_floor_process) */
    int lzo_count;
    uint64_t lzo_offset[PROCESS_MAX_LZO], lzo_in_size[PROCESS_MAX_LZO], lzo_out_size[PROCESS_MAX_LZO];
    const char *patch_path;   /* the format's one-field patch that applies to it, or NULL */
    const uint8_t *many;      /* the many-edit copy (the largest map with items), or NULL */
    size_t many_size;
} process_file;

/* Runs `argv` (argv[0] the program) as a child with its standard output into `text` (at most
 * text_size - 1 bytes, terminated); the child's exit status, or -1 when it could not run or
 * printed nothing. */
int bench_child_output(char *const argv[], char *text, size_t text_size);

/* `rebyte_bench --run-measure CMD ARG...`: runs CMD, prints "SECONDS MAXRSS_KB". This process is a
 * fresh exec with a small resident set, so the child's ru_maxrss is its own (Linux carries the
 * peak over fork and exec from the parent: the benchmark's own would swamp it). */
int bench_run_measure(char **argv);

/* `rebyte_bench --floor-process LIST`: the verify floor as a process of its own, to compare
 * with the process CPU time of `rebyte verify -j1` like for like: each file of LIST (lines "PATH
 * [OFFSET IN_SIZE OUT_SIZE]...", the file's LZO streams) read into a fresh buffer of its size and
 * its streams LZO-decompressed into fresh buffers, as the CLI reads and decodes it. */
int bench_floor_process(const char *list);

/* Writes the floor process's LIST for `files` (the GBX ones; `rebyte_bench --floor-list LIST`),
 * so the floor can be timed beside the CLI by a tool outside the benchmark. 0 when written. */
int bench_write_floor_list(const char *list, const process_file *files, size_t count);

/* Runs the CLI `cli` and prints: verify -j1 over the GBX folder against the floor, the edits
 * (one-field apply, diff --by-identity of the many-edit copy) against rewrite, rewrite's peak
 * less the bare program's for the largest GBX, data.win and GROFF file, dump and build of the
 * largest map, verify -j2 / -j1 over `folders` (alternating runs, the load average said). */
void bench_process_figures(const char *self, const char *cli, const process_file *files, size_t count,
                           char **folders, int folder_count, int runs);
#endif
