/*
 * Every input is bounded (docs/reliability.md "Limits on streams"): an input that never ends
 * (/dev/zero as the file, as the patch, on stdin) is read up to its limit and refused with the
 * limit named, exit 3, within 2 s of CPU and 600 MB. Each run is a child process measured by
 * wait4's resource usage (peak RSS, CPU time). Usage: test_bounded_inputs REBYTE SAMPLE
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tests/test_util.h"

/* Runs argv with stdin from `input` (NULL: /dev/null), its stderr into `err`; the exit status. */
static int run_measured(char *const argv[], const char *input, char *err, size_t err_size, struct rusage *use,
                        double *wall)
{
    int pipefd[2];
    if (pipe(pipefd) != 0) return -1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) {
        int in = open(input ? input : "/dev/null", O_RDONLY);
        dup2(in, STDIN_FILENO);
        dup2(pipefd[1], STDERR_FILENO);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        close(pipefd[0]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(pipefd[1]);
    size_t used = 0;
    ssize_t n;
    while ((n = read(pipefd[0], err + used, err_size - 1 - used)) > 0) used += (size_t)n;
    err[used] = 0;
    close(pipefd[0]);
    int status = 0;
    wait4(pid, &status, 0, use);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void expect_bounded(const char *what, char *const argv[], const char *input, const char *limit_name, int exit_status)
{
    char err[4096];
    struct rusage use;
    double wall = 0;
    int rc = run_measured(argv, input, err, sizeof err, &use, &wall);
    double cpu = (double)use.ru_utime.tv_sec + (double)use.ru_utime.tv_usec / 1e6 + (double)use.ru_stime.tv_sec +
                 (double)use.ru_stime.tv_usec / 1e6;
    double mb = (double)use.ru_maxrss / 1024.0; /* KiB on Linux */
    printf("%s: exit %d, %.2f s (CPU %.2f s), peak %.0f MB: %.100s...\n", what, rc, wall, cpu, mb, err);
    CHECK(rc == exit_status, "%s: exit status %d, not %d", what, rc, exit_status);
    CHECK(strstr(err, limit_name) != NULL, "%s: the message does not name the limit %s", what, limit_name);
    CHECK(cpu < 2.0, "%s: %.2f s of CPU (more than 2)", what, cpu);
    CHECK(mb < 600.0, "%s: peak memory %.0f MB (more than 600)", what, mb);
    /* the wall clock of a shared machine: generous, a run that reads without bound takes minutes */
    CHECK(wall < 30.0, "%s: %.1f s", what, wall);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s REBYTE SAMPLE\n", argv[0]);
        return 64;
    }
    char *rebyte = argv[1], *sample = argv[2];
    char out[] = "/tmp/rebyte-bounded-XXXXXX";
    if (!mkdtemp(out)) return 1;
    char out_file[64];
    snprintf(out_file, sizeof out_file, "%s/O", out);
    char *info[] = {rebyte, "info", "/dev/zero", NULL};
    expect_bounded("info /dev/zero", info, NULL, "max_decompressed_size", 3);
    char *info_stdin[] = {rebyte, "info", "-", NULL};
    expect_bounded("info - < /dev/zero", info_stdin, "/dev/zero", "max_decompressed_size", 3);
    char *apply[] = {rebyte, "apply", "--patch", "/dev/zero", sample, "-o", out_file, NULL};
    expect_bounded("apply --patch /dev/zero", apply, NULL, "max_patch_size", 3);
    CHECK(access(out_file, F_OK) != 0, "apply --patch /dev/zero wrote an output");
    char *apply_stdin[] = {rebyte, "apply", "--patch", "-", sample, "-o", out_file, NULL};
    expect_bounded("apply --patch - < /dev/zero", apply_stdin, "/dev/zero", "max_patch_size", 3);
    /* verify counts a file it cannot read among the errors (exit 2) and goes on */
    char *verify[] = {rebyte, "verify", "-", NULL};
    expect_bounded("verify - < /dev/zero", verify, "/dev/zero", "max_decompressed_size", 2);
    unlink(out_file);
    rmdir(out);
    if (test_failures) printf("%d failure(s)\n", test_failures);
    else printf("bounded inputs: ok\n");
    return test_failures ? 1 : 0;
}
