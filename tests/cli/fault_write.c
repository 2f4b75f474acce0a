/*
 * LD_PRELOAD shim for the safe-write tests: write() to files (not the terminal, not pipes)
 * fails with ENOSPC once REBYTE_FAULT_AFTER bytes have been written in total — a disk that
 * fills up in the middle of an output file.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t written;

ssize_t write(int fd, const void *buf, size_t count)
{
    static ssize_t (*real_write)(int, const void *, size_t);
    if (!real_write) real_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    struct stat st;
    const char *limit_text = getenv("REBYTE_FAULT_AFTER");
    if (limit_text && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        size_t limit = (size_t)strtoull(limit_text, NULL, 10);
        if (written + count > limit) {
            errno = ENOSPC;
            return -1;
        }
        written += count;
    }
    return real_write(fd, buf, count);
}
