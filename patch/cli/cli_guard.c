/*
 * Writes that leave nothing behind and lose no update (docs/reliability.md "Concurrent writers",
 * "Signals and temporary files"). Every output is a temporary file beside its target, renamed
 * over it (cli_util.c). Its writer holds a lock (flock) on it from the moment it exists until it
 * is renamed, and creates it under a shared lock of its folder: a later run that takes the
 * folder's lock exclusively and then can lock a temporary file knows its writer is gone, and
 * removes it. A signal that ends the process removes the temporary files being written first;
 * the handler only unlinks names prepared before and raises the signal again (both
 * async-signal-safe).
 */
#define _GNU_SOURCE
#include "patch/cli/cli_guard.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

/* ---------- temporary files a signal removes ---------- */

/* One slot per temporary file being written: a batch's workers (at most 64) each write one
 * file and its backup at a time. */
enum { TEMP_SLOTS = 160, SLOT_FREE = 0, SLOT_FILLING, SLOT_ACTIVE };
static atomic_int slot_state[TEMP_SLOTS];
static char slot_path[TEMP_SLOTS][PATH_MAX];

int cli_temp_remember(const char *path)
{
    size_t n = strlen(path);
    if (n >= PATH_MAX) return -1;
    for (int i = 0; i < TEMP_SLOTS; i++) {
        int expected = SLOT_FREE;
        if (!atomic_compare_exchange_strong(&slot_state[i], &expected, SLOT_FILLING)) continue;
        memcpy(slot_path[i], path, n + 1);
        atomic_store(&slot_state[i], SLOT_ACTIVE);
        return i;
    }
    return -1;
}

void cli_temp_forget(int slot)
{
    if (slot >= 0 && slot < TEMP_SLOTS) atomic_store(&slot_state[slot], SLOT_FREE);
}

static void remove_temporaries_and_end(int sig)
{
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (atomic_load(&slot_state[i]) == SLOT_ACTIVE) unlink(slot_path[i]);
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: the process ends as the signal says */
}

void cli_signals_install(void)
{
    static const int ending[] = {SIGTERM, SIGINT, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_temporaries_and_end;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof ending / sizeof *ending; i++) sigaddset(&sa.sa_mask, ending[i]);
    for (size_t i = 0; i < sizeof ending / sizeof *ending; i++) {
        struct sigaction was;
        if (sigaction(ending[i], NULL, &was) == 0 && was.sa_handler == SIG_IGN) continue; /* nohup, a background job */
        sigaction(ending[i], &sa, NULL);
    }
    signal(SIGXFSZ, SIG_IGN);
}

/* ---------- locks ---------- */

static int lock_wait_seconds(void)
{
    const char *text = getenv("REBYTE_LOCK_WAIT");
    char *end = NULL;
    long seconds = text ? strtol(text, &end, 10) : 60;
    return text && (*end || seconds < 0) ? 60 : (int)seconds;
}

int cli_lock_wait(int fd, const char *path)
{
    int seconds = lock_wait_seconds();
    struct timespec start, now, pause = {0, 20 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) return 0;
        if (errno != EWOULDBLOCK && errno != EINTR) return 1; /* ENOLCK, EOPNOTSUPP...: no locks here */
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec >= seconds) break;
        nanosleep(&pause, NULL);
    }
    fprintf(stderr,
            "rebyte: %s: another process is writing it (it has held its lock for %d s: another rebyte apply, "
            "replace or downgrade-items --in-place?); nothing was written (REBYTE_LOCK_WAIT=SECONDS waits longer)\n",
            path, seconds);
    return -1;
}

/* The folder part of `target` ("." when it has none), malloc'd. */
static char *folder_of(const char *target)
{
    const char *slash = strrchr(target, '/');
    if (!slash) return strdup(".");
    if (slash == target) return strdup("/");
    return strndup(target, (size_t)(slash - target));
}

int cli_folder_lock(const char *target, int shared)
{
    char *folder = folder_of(target);
    int fd = folder ? open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    free(folder);
    if (fd >= 0 && flock(fd, shared ? LOCK_SH : LOCK_EX) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

void cli_folder_unlock(int fd)
{
    if (fd >= 0) close(fd); /* the lock goes with the descriptor */
}

int cli_same_file_state(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
           a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* ---------- stale temporary files ---------- */

/* Folders already cleaned by this process (device and inode), so a batch scans each once. */
enum { CLEANED_MAX = 64 };
static struct {
    dev_t dev;
    ino_t ino;
} cleaned[CLEANED_MAX];
static size_t cleaned_count;
static pthread_mutex_t cleaned_lock = PTHREAD_MUTEX_INITIALIZER;

/* 1 when the folder of `fd` was cleaned before (and notes it now when not). */
static int cleaned_before(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0) return 1;
    pthread_mutex_lock(&cleaned_lock);
    int seen = 0;
    for (size_t i = 0; i < cleaned_count && !seen; i++) seen = cleaned[i].dev == st.st_dev && cleaned[i].ino == st.st_ino;
    if (!seen && cleaned_count < CLEANED_MAX) {
        cleaned[cleaned_count].dev = st.st_dev;
        cleaned[cleaned_count++].ino = st.st_ino;
    }
    pthread_mutex_unlock(&cleaned_lock);
    return seen;
}

int cli_is_temporary_name(const char *name)
{
    static const char temp[] = ".rebyte-";
    size_t n = strlen(name), t = sizeof temp - 1;
    if (n < t + 6 || memcmp(name + n - t - 6, temp, t) != 0) return 0;
    for (size_t i = n - 6; i < n; i++)
        if (!isalnum((unsigned char)name[i])) return 0;
    return 1;
}

/* Removes temporary file `name` of folder `dir` when it is provably stale: a regular file of
 * the effective user that no writer holds locked (the folder is locked exclusively meanwhile). */
static void remove_if_stale(int dir, const char *name)
{
    struct stat named, opened;
    if (fstatat(dir, name, &named, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(named.st_mode) || named.st_uid != geteuid())
        return;
    int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &opened) == 0 && opened.st_dev == named.st_dev &&
        opened.st_ino == named.st_ino)
        unlinkat(dir, name, 0);
    close(fd);
}

void cli_remove_stale_temporaries(const char *target)
{
    int folder = cli_folder_lock(target, 0);
    if (folder < 0) return;
    if (!cleaned_before(folder)) {
        int scan = dup(folder);
        DIR *d = scan >= 0 ? fdopendir(scan) : NULL;
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (cli_is_temporary_name(e->d_name)) remove_if_stale(folder, e->d_name);
        if (d) closedir(d);
        else if (scan >= 0) close(scan);
    }
    cli_folder_unlock(folder);
}
