/*
 * LD_PRELOAD shim for the write-safety tests (write_safety.py): write() to a temporary file of
 * rebyte's (a name with ".rebyte-") stops once REBYTE_PAUSE_AFTER bytes went to such files, and
 * waits, the temporary file part-written, until a signal comes: a test's SIGTERM ends the
 * process there; SIGUSR1 lets the write go on.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t written;
static volatile sig_atomic_t released;

static void release(int sig)
{
    (void)sig;
    released = 1;
}

static int is_temporary(int fd)
{
    char link[64], name[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, name, sizeof name - 1);
    if (n <= 0) return 0;
    name[n] = 0;
    return strstr(name, ".rebyte-") != NULL;
}

ssize_t write(int fd, const void *buf, size_t count)
{
    static ssize_t (*real_write)(int, const void *, size_t);
    if (!real_write) real_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    const char *limit_text = getenv("REBYTE_PAUSE_AFTER");
    if (!limit_text || released || !is_temporary(fd)) return real_write(fd, buf, count);
    size_t limit = (size_t)strtoull(limit_text, NULL, 10);
    if (written < limit) { /* up to the limit, a short write: the caller writes the rest after */
        size_t part = count < limit - written ? count : limit - written;
        ssize_t w = real_write(fd, buf, part);
        if (w > 0) written += (size_t)w;
        return w;
    }
    signal(SIGUSR1, release);
    while (!released) pause();
    return real_write(fd, buf, count);
}
