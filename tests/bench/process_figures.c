/*
 * The process-level figures (docs/performance.md "The process figures"):
 * the CLI run as a user runs it, timed by the wall clock, its peak resident set read from
 * wait4's rusage in an intermediate process (bench_run_measure), less the bare program's peak
 * measured the same way. Medians over the runs; the machine's load average is printed with the
 * parallel figures, which mean little on a busy machine.
 */
#define _GNU_SOURCE /* wait4 */
#include "tests/bench/process_figures.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <inttypes.h>
#include <lzo/lzo1x.h>

enum { MAX_SAMPLES = 99, MAX_ARGS = 4096 };

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int bench_run_measure(char **argv)
{
    double start = wall();
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) return 1;
    double seconds = wall() - start;
    double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
                 (double)ru.ru_stime.tv_usec * 1e-6;
    printf("%.6f %ld %d %.6f\n", seconds, ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128, cpu);
    return 0;
}

/* One file of the floor: read(2) into a buffer of its size, its streams decompressed. */
static int floor_one(const char *path, const uint64_t *stream, int streams)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) return -1;
    size_t size = (size_t)st.st_size, got = 0;
    uint8_t *data = malloc(size ? size : 1);
    ssize_t n = 1;
    while (data && got < size && (n = read(fd, data + got, size - got)) > 0) got += (size_t)n;
    close(fd);
    int ok = data && got == size;
    for (int k = 0; ok && k < streams; k++) {
        uint64_t offset = stream[3 * k], in = stream[3 * k + 1], out_size = stream[3 * k + 2];
        uint8_t *out = offset + in <= size ? malloc(out_size ? out_size : 1) : NULL;
        lzo_uint produced = out_size;
        ok = out && lzo1x_decompress_safe(data + offset, in, out, &produced, NULL) == LZO_E_OK && produced == out_size;
        free(out);
    }
    free(data);
    return ok ? 0 : -1;
}

int bench_floor_process(const char *list)
{
    FILE *f = fopen(list, "r");
    if (!f || lzo_init() != LZO_E_OK) return 2;
    char line[8192];
    int failed = 0;
    while (fgets(line, sizeof line, f)) {
        char *tab = strchr(line, '\t'), *p;
        if (!tab) continue;
        *tab = 0;
        uint64_t stream[3 * PROCESS_MAX_LZO];
        int values = 0;
        for (p = tab + 1; values < 3 * PROCESS_MAX_LZO;) {
            char *end;
            unsigned long long v = strtoull(p, &end, 10);
            if (end == p) break;
            stream[values++] = v;
            p = end;
        }
        failed |= floor_one(line, stream, values / 3) != 0;
    }
    fclose(f);
    return failed ? 1 : 0;
}

typedef struct sample {
    double seconds;
    long kb;
    int exit_code;
    double cpu; /* user + system seconds of the command */
} sample;

int bench_child_output(char *const argv[], char *text, size_t text_size)
{
    int fds[2];
    if (pipe(fds) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], text, text_size - 1);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got <= 0) return -1;
    text[got] = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* One run of `cmd` through `self --run-measure` (a fresh, small process between). */
static int measure(const char *self, char **cmd, sample *s)
{
    char *args[MAX_ARGS + 3];
    int n = 0;
    args[n++] = (char *)self;
    args[n++] = "--run-measure";
    for (int i = 0; cmd[i] && n < MAX_ARGS + 2; i++) args[n++] = cmd[i];
    args[n] = NULL;
    char text[128] = "";
    if (bench_child_output(args, text, sizeof text) < 0) return -1;
    return sscanf(text, "%lf %ld %d %lf", &s->seconds, &s->kb, &s->exit_code, &s->cpu) == 4 ? 0 : -1;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare);
    return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Medians of `runs` runs of `cmd`: seconds and peak KiB. 0 when every run worked. */
static int measure_runs(const char *self, char **cmd, int runs, double *seconds, double *kb)
{
    double t[MAX_SAMPLES], m[MAX_SAMPLES];
    int n = 0;
    for (int r = 0; r < runs && r < MAX_SAMPLES; r++) {
        sample s;
        if (measure(self, cmd, &s) != 0 || s.exit_code > 1) return -1; /* 1: verify found a difference */
        t[n] = s.seconds;
        m[n++] = (double)s.kb;
    }
    *seconds = median(t, n);
    *kb = median(m, n);
    return 0;
}

static void load_average(char *out, size_t size)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double a = 0, b = 0, c = 0;
    if (f && fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3) snprintf(out, size, "%.2f %.2f %.2f", a, b, c);
    else snprintf(out, size, "?");
    if (f) fclose(f);
}

static const process_file *largest_of(const process_file *files, size_t count, const char *format, const char *suffix)
{
    const process_file *best = NULL;
    for (size_t i = 0; i < count; i++) {
        size_t len = strlen(files[i].path), sl = suffix ? strlen(suffix) : 0;
        if (strcmp(files[i].format, format) != 0 || (suffix && (len < sl || strcmp(files[i].path + len - sl, suffix) != 0)))
            continue;
        if (!best || files[i].size > best->size) best = &files[i];
    }
    return best;
}

static double over(double kb, const process_file *f) { return kb * 1024.0 / (double)(f->size + f->decoded); }

/* The floor process's list: each GBX file and the LZO streams stored in it. */
int bench_write_floor_list(const char *list, const process_file *files, size_t count)
{
    FILE *f = fopen(list, "w");
    if (!f) return -1;
    for (size_t i = 0; i < count; i++) {
        if (strcmp(files[i].format, "gbx") != 0) continue;
        fprintf(f, "%s\t", files[i].path);
        for (int k = 0; k < files[i].lzo_count; k++)
            fprintf(f, " %" PRIu64 " %" PRIu64 " %" PRIu64, files[i].lzo_offset[k], files[i].lzo_in_size[k],
                    files[i].lzo_out_size[k]);
        fprintf(f, "\n");
    }
    return fclose(f);
}

/* Two commands run in turn (A B A B ...), so both see the same load: medians of each one's
 * figures and of the per-run ratios A/B. */
typedef struct alternated {
    int done;
    double wall_a, cpu_a, cpu_b, kb_a, kb_b, cpu_ratio, kb_ratio;
} alternated;

static alternated run_alternately(const char *self, char **a, char **b, int runs)
{
    double wall[MAX_SAMPLES], cpu_a[MAX_SAMPLES], cpu_b[MAX_SAMPLES], kb_a[MAX_SAMPLES], kb_b[MAX_SAMPLES],
        cpu_ratio[MAX_SAMPLES], kb_ratio[MAX_SAMPLES];
    alternated r = {0};
    for (int i = 0; i < runs && i < MAX_SAMPLES; i++) {
        sample x, y;
        if (measure(self, a, &x) != 0 || x.exit_code > 1 || measure(self, b, &y) != 0 || y.exit_code > 1) break;
        wall[r.done] = x.seconds;
        cpu_a[r.done] = x.cpu;
        cpu_b[r.done] = y.cpu;
        kb_a[r.done] = (double)x.kb;
        kb_b[r.done] = (double)y.kb;
        cpu_ratio[r.done] = y.cpu > 0 ? x.cpu / y.cpu : 0;
        kb_ratio[r.done++] = y.kb > 0 ? (double)x.kb / (double)y.kb : 0;
    }
    if (!r.done) return r;
    r.wall_a = median(wall, r.done);
    r.cpu_a = median(cpu_a, r.done);
    r.cpu_b = median(cpu_b, r.done);
    r.kb_a = median(kb_a, r.done);
    r.kb_b = median(kb_b, r.done);
    r.cpu_ratio = median(cpu_ratio, r.done);
    r.kb_ratio = median(kb_ratio, r.done);
    return r;
}

/* verify -j1 over the GBX files against the floor, two ways: the floor's measure (the process CPU
 * time of verify over that of the floor process, run alternately: like for like, both pay their
 * start, their reads and their page faults) and the wall clock of verify over the in-process
 * floors of the benchmark (which leave out process start and reuse warm buffers). */
static void verify_against_floor(const char *self, const char *cli, const process_file *files, size_t count, int runs)
{
    char **cmd = calloc(count + 5, sizeof *cmd);
    int n = 0;
    double floor = 0;
    cmd[n++] = (char *)cli;
    cmd[n++] = "verify";
    cmd[n++] = "-q";
    cmd[n++] = "-j1";
    for (size_t i = 0; i < count && n < MAX_ARGS; i++)
        if (strcmp(files[i].format, "gbx") == 0) {
            cmd[n++] = (char *)files[i].path;
            floor += files[i].floor_seconds;
        }
    char list[] = "/tmp/rebyte-bench-floor-XXXXXX";
    int fd = mkstemp(list);
    if (n <= 4 || fd < 0) {
        free(cmd);
        return;
    }
    close(fd);
    char *floor_cmd[] = {(char *)self, "--floor-process", list, NULL};
    alternated r = bench_write_floor_list(list, files, count) == 0 ? run_alternately(self, cmd, floor_cmd, runs)
                                                                   : (alternated){0};
    unlink(list);
    if (r.done) {
        printf("verify -j1 over the %d GBX files, process CPU: %.3f s; the floor process (read each file into a fresh "
               "buffer + LZO-decompress its body) %.3f s: x%.2f (median of %d alternating runs' ratios)\n",
               n - 4, r.cpu_a, r.cpu_b, r.cpu_ratio, r.done);
        printf("verify -j1 over the same files, wall clock: %.3f s; the in-process floor (the bench's copy + lzo "
               "medians) %.3f s: x%.2f\n",
               r.wall_a, floor, r.wall_a / floor);
    }
    free(cmd);
}

static int same_file(const char *path, const uint8_t *bytes, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int same = 1;
    for (size_t i = 0; same && i < size; i++) same = fgetc(f) == bytes[i];
    same = same && fgetc(f) == EOF;
    fclose(f);
    return same;
}

/* `edit` of a file against `rewrite` of the same file, run alternately: CPU and peak, medians of
 * the per-run ratios. */
static void edit_against_rewrite(const char *self, const char *what, char **edit, const char *cli, const char *file,
                                 int runs)
{
    char *rewrite[] = {(char *)cli, "rewrite", (char *)file, "-o", "/tmp/rebyte-bench-rewrite.out", NULL};
    alternated r = run_alternately(self, edit, rewrite, runs);
    if (r.done)
        printf("%s: CPU %.3f s / rewrite %.3f s = x%.2f, peak %.1f / %.1f MB = x%.2f (medians of %d alternating runs' "
               "ratios)\n",
               what, r.cpu_a, r.cpu_b, r.cpu_ratio, r.kb_a * 1.024e-3, r.kb_b * 1.024e-3, r.kb_ratio, r.done);
    else
        printf("%s: does not run\n", what);
}

/* The edits whose cost is measured (an edit costs what it touches) as the CLI runs them, each against `rewrite` of its file: the one-field
 * patch on the largest map, data.win and GROFF file; `diff --by-identity` of the many-edit copy of
 * the largest map with items (and whether applying that diff gives the copy's bytes back). */
static void edit_figures(const char *self, const char *cli, const process_file *files, size_t count, int runs)
{
    static const char *const FORMATS[][2] = {{"gbx", ".Map.Gbx"}, {"datawin", NULL}, {"groff", NULL}};
    const char *out = "/tmp/rebyte-bench-edit.out";
    for (size_t k = 0; k < sizeof FORMATS / sizeof *FORMATS; k++) {
        const process_file *f = largest_of(files, count, FORMATS[k][0], FORMATS[k][1]);
        if (!f || !f->patch_path) continue;
        char *apply[] = {(char *)cli, "apply", "-q", (char *)f->patch_path, (char *)f->path, "-o", (char *)out, NULL};
        char what[600];
        snprintf(what, sizeof what, "apply of the one-field patch, %s", f->path);
        edit_against_rewrite(self, what, apply, cli, f->path, runs);
    }
    for (size_t i = 0; i < count; i++) {
        const process_file *f = &files[i];
        FILE *copy = f->many ? fopen("/tmp/rebyte-bench-many.Gbx", "wb") : NULL;
        if (!copy) continue;
        int written = fwrite(f->many, 1, f->many_size, copy) == f->many_size;
        if (fclose(copy) != 0 || !written) continue;
        char *diff[] = {(char *)cli, "diff", "--by-identity", (char *)f->path, "/tmp/rebyte-bench-many.Gbx", NULL};
        char what[600];
        snprintf(what, sizeof what, "diff --by-identity of the many-edit copy, %s", f->path);
        edit_against_rewrite(self, what, diff, cli, f->path, runs);
        /* the same bytes after re-apply: the diff written once, applied, compared */
        char command[4096];
        snprintf(command, sizeof command,
                 "'%s' diff --by-identity '%s' /tmp/rebyte-bench-many.Gbx > /tmp/rebyte-bench-many.patch.json; "
                 "'%s' apply -q /tmp/rebyte-bench-many.patch.json '%s' -o '%s'",
                 cli, f->path, cli, f->path, out);
        int ran = system(command);
        printf("  applying that diff gives the copy's bytes: %s\n",
               ran == 0 && same_file(out, f->many, f->many_size) ? "yes" : "NO");
        unlink("/tmp/rebyte-bench-many.Gbx");
        unlink("/tmp/rebyte-bench-many.patch.json");
    }
    unlink(out);
    unlink("/tmp/rebyte-bench-rewrite.out");
}

static void rewrite_peaks(const char *self, const char *cli, const process_file *files, size_t count, int runs,
                          double bare_kb)
{
    static const char *const FORMATS[] = {"gbx", "datawin", "groff"};
    for (size_t k = 0; k < sizeof FORMATS / sizeof *FORMATS; k++) {
        const process_file *f = largest_of(files, count, FORMATS[k], NULL);
        if (!f) continue;
        char *cmd[] = {(char *)cli, "rewrite", (char *)f->path, "-o", "/tmp/rebyte-bench-rewrite.out", NULL};
        double seconds, kb;
        if (measure_runs(self, cmd, runs, &seconds, &kb) != 0) continue;
        printf("rewrite %s (%.2f MB + %.2f MB decoded): %.3f s, peak %.1f MB less the bare program's: x%.2f of (file + decoded)\n",
               f->path, f->size / 1e6, f->decoded / 1e6, seconds, (kb - bare_kb) * 1.024e-3,
               over(kb - bare_kb, f));
    }
    unlink("/tmp/rebyte-bench-rewrite.out");
}

static void dump_and_build(const char *self, const char *cli, const process_file *files, size_t count, int runs,
                           double bare_kb)
{
    const process_file *map = largest_of(files, count, "gbx", ".Map.Gbx");
    if (!map) return;
    const char *json = "/tmp/rebyte-bench-dump.json", *built = "/tmp/rebyte-bench-built.Gbx";
    char *dump[] = {(char *)cli, "dump", (char *)map->path, "-o", (char *)json, NULL};
    char *build[] = {(char *)cli, "build", (char *)json, "-o", (char *)built, NULL};
    double dump_s, dump_kb, build_s, build_kb;
    if (measure_runs(self, dump, runs, &dump_s, &dump_kb) == 0 && measure_runs(self, build, runs, &build_s, &build_kb) == 0) {
        struct stat js, bs;
        int same = stat(json, &js) == 0 && stat(built, &bs) == 0 && (uint64_t)bs.st_size == map->size;
        printf("dump of %s (%.2f MB + %.2f MB decoded; JSON %.1f MB): %.3f s, peak %.1f MB less bare: x%.2f\n", map->path,
               map->size / 1e6, map->decoded / 1e6, js.st_size / 1e6, dump_s, (dump_kb - bare_kb) * 1.024e-3,
               over(dump_kb - bare_kb, map));
        printf("build of that dump (units written as they are built, the source read deferred): %.3f s, peak %.1f MB less bare: x%.2f%s\n",
               build_s, (build_kb - bare_kb) * 1.024e-3, over(build_kb - bare_kb, map),
               same ? "" : " (the built file's size differs!)");
    }
    unlink(json);
    unlink(built);
}

static void parallel(const char *self, const char *cli, char **folders, int folder_count, int runs)
{
    char *cmd[MAX_ARGS];
    int n = 0;
    cmd[n++] = (char *)cli;
    cmd[n++] = "verify";
    cmd[n++] = "-q";
    int jobs_at = n++;
    for (int i = 0; i < folder_count && n < MAX_ARGS - 1; i++) cmd[n++] = folders[i];
    cmd[n] = NULL;
    double one[MAX_SAMPLES], two[MAX_SAMPLES];
    int done = 0;
    char before[64], after[64];
    load_average(before, sizeof before);
    for (int r = 0; r < runs && r < MAX_SAMPLES; r++) { /* alternating, so both see the same load */
        sample a, b;
        cmd[jobs_at] = "-j1";
        if (measure(self, cmd, &a) != 0) return;
        cmd[jobs_at] = "-j2";
        if (measure(self, cmd, &b) != 0) return;
        one[done] = a.seconds;
        two[done++] = b.seconds;
    }
    load_average(after, sizeof after);
    double m1 = median(one, done), m2 = median(two, done);
    printf("verify -j1 / -j2 over %d folders, %d alternating runs: %.3f s / %.3f s = x%.2f (load average %s before, %s after)\n",
           folder_count, done, m1, m2, m1 / m2, before, after);
}

void bench_process_figures(const char *self, const char *cli, const process_file *files, size_t count,
                           char **folders, int folder_count, int runs)
{
    char *bare[] = {(char *)cli, "--version", NULL};
    double bare_s, bare_kb;
    if (measure_runs(self, bare, runs, &bare_s, &bare_kb) != 0) {
        printf("process figures: %s does not run\n", cli);
        return;
    }
    printf("\n== process figures: %s, medians of %d runs, the bare program %.1f MB peak\n", cli, runs,
           bare_kb * 1.024e-3);
    verify_against_floor(self, cli, files, count, runs);
    edit_figures(self, cli, files, count, runs);
    rewrite_peaks(self, cli, files, count, runs, bare_kb);
    dump_and_build(self, cli, files, count, runs, bare_kb);
    if (folder_count) parallel(self, cli, folders, folder_count, runs);
}
