#define _GNU_SOURCE
#include "patch/cli/cli_util.h"
#include "patch/cli/cli_guard.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* A folder opens like a file and fails at the first read: it is said for what it is. */
static int is_folder(FILE *f)
{
    struct stat st;
    return fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode);
}

static void limits_from_environment(rb_limits *limits, uint64_t *max_patch_size);

#define HUGE_PAGE ((uintptr_t)2 << 20) /* a transparent huge page on x86-64 and arm64 (4 KiB pages) */

/* Says why an input stops at `limit` bytes; -1. */
static int refuse_beyond(const char *path, uint64_t limit, const char *limit_name, const char *what)
{
    fprintf(stderr,
            "rebyte: %s: %s more than %" PRIu64 " bytes, the limit %s (docs/usage.md \"Limits\"); nothing was read "
            "further. Raise it with REBYTE_LIMITS=%s=N%s\n",
            path, what, limit, limit_name, limit_name, strcmp(limit_name, "max_patch_size") ? ", or give a regular file" : "");
    return -1;
}

/* A stream's buffer: the whole of its limit reserved at once (address space only: pages are
 * mapped as bytes arrive), aligned and advised as transparent huge pages, so an endless stream read
 * to the limit costs a few hundred page faults instead of one per 4 KiB (docs/reliability.md
 * "Limits on streams": 512 MiB of /dev/zero took ~1.8 s of system time in small pages, 0.06 s in
 * huge ones). NULL when the reservation or the platform says no: the caller grows a buffer. */
static uint8_t *stream_buffer(size_t most)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    void *buf = NULL;
    if (most == SIZE_MAX || most > SIZE_MAX - HUGE_PAGE || posix_memalign(&buf, HUGE_PAGE, most) != 0) return NULL;
    madvise(buf, most, MADV_HUGEPAGE); /* advice only: a refusal changes nothing */
    return buf;
#else
    (void)most;
    return NULL;
#endif
}

/* The whole of `path` ("-" = stdin) into memory. With `always`, every input is bounded by
 * `limit` (a patch); else only one whose size is not known before it is read (stdin, a FIFO, a
 * device: /dev/zero never ends), which is then read up to `limit` and refused beyond it. */
static int read_bounded(const char *path, uint8_t **data, size_t *size, uint64_t limit, const char *limit_name,
                        int always)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "rebyte: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (is_folder(f)) {
        fprintf(stderr, "rebyte: %s: is a directory\n", path);
        if (f != stdin) fclose(f);
        return -1;
    }
    /* a regular file's size is known: one buffer of that size (and a byte to see the end), not a
     * buffer doubled and copied up to it (each copy of a batch's large files is memory touched) */
    struct stat st;
    size_t used = 0, cap = 1 << 16, most = SIZE_MAX;
    int regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0;
    if ((always || !regular) && limit < SIZE_MAX) most = (size_t)limit + 1; /* one byte more tells it goes on */
    if (regular && (uint64_t)st.st_size < SIZE_MAX / 2) cap = (size_t)st.st_size + 1;
    if (cap > most) cap = most;
    uint8_t *buf = regular ? NULL : stream_buffer(most);
    if (buf) cap = most;
    else buf = malloc(cap);
    int failed = buf == NULL;
    while (!failed && used < most) {
        if (used == cap) {
            size_t grown = cap < most / 2 ? cap * 2 : most;
            uint8_t *bigger = realloc(buf, grown);
            if (!bigger) { failed = 1; break; }
            buf = bigger;
            cap = grown;
        }
        size_t n = fread(buf + used, 1, cap - used, f);
        used += n;
        if (n == 0) break;
    }
    failed = failed || ferror(f);
    if (f != stdin) fclose(f);
    if (!failed && used >= most) {
        free(buf);
        return refuse_beyond(path, limit, limit_name, always && regular ? "holds" : "gives");
    }
    if (failed) {
        fprintf(stderr, "rebyte: %s: read error\n", path);
        free(buf);
        return -1;
    }
    *data = buf;
    *size = used;
    return 0;
}

int cli_read_file(const char *path, uint8_t **data, size_t *size)
{
    rb_limits limits = RB_LIMITS_INIT;
    limits_from_environment(&limits, NULL);
    return read_bounded(path, data, size, limits.max_decompressed_size, "max_decompressed_size", 0);
}

int cli_read_patch(const char *path, uint8_t **data, size_t *size)
{
    rb_limits limits = RB_LIMITS_INIT;
    uint64_t limit = CLI_MAX_PATCH_SIZE;
    limits_from_environment(&limits, &limit);
    return read_bounded(path, data, size, limit, "max_patch_size", 1);
}

int cli_write_all(int fd, const uint8_t *data, size_t size)
{
    while (size) {
        ssize_t w = write(fd, data, size);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        data += w;
        size -= (size_t)w;
    }
    return 0;
}

typedef struct bytes_to_write {
    const uint8_t *data;
    size_t size;
} bytes_to_write;

static int produce_bytes(void *context, int fd)
{
    const bytes_to_write *b = context;
    return cli_write_all(fd, b->data, b->size);
}

cli_write_strategy cli_write_strategy_for(int exists, mode_t mode)
{
    if (!exists || S_ISREG(mode)) return CLI_WRITE_REPLACE_ATOMIC;
    if (S_ISFIFO(mode) || S_ISCHR(mode)) return CLI_WRITE_DIRECT;
    return CLI_WRITE_REFUSE;
}

const char *cli_write_refusal(mode_t mode)
{
    if (S_ISDIR(mode)) return "is a directory";
    if (S_ISSOCK(mode)) return "is a socket (rebyte writes files, FIFOs and devices; use -o - for stdout)";
    if (S_ISBLK(mode)) return "is a block device (not written: write to a file and copy it)";
    return "is not a file rebyte can write";
}

/* The file a path names: symbolic links (of the last component) followed until a name that is not
 * a link or does not exist (a dangling link's target is created). malloc'd; NULL on error. */
static char *resolve_target(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return cur;
        char link[PATH_MAX];
        ssize_t n = hops < 40 ? readlink(cur, link, sizeof link) : -1;
        if (hops >= 40) errno = ELOOP;
        else if (n >= (ssize_t)sizeof link) { n = -1; errno = ENAMETOOLONG; }
        if (n < 0) {
            fprintf(stderr, "rebyte: %s: cannot follow the link: %s\n", path, strerror(errno));
            free(cur);
            return NULL;
        }
        link[n] = 0;
        const char *slash = strrchr(cur, '/');
        char *next = NULL;
        if (link[0] == '/' || !slash) next = strdup(link);
        else if (asprintf(&next, "%.*s/%s", (int)(slash - cur), cur, link) < 0) next = NULL;
        free(cur);
        cur = next;
    }
    return NULL;
}

/* A FIFO or a device (or, with `truncate`, a regular file that has no name to replace: a deleted
 * file behind /proc/self/fd): opened through `path` (the kernel follows every link, /dev/stdout's
 * too) without create, and written. 1 when the target turned out to be a regular file after all
 * (it changed since it was looked at): the caller replaces it. */
static int write_direct(const char *path, cli_producer produce, void *context, int truncate)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (truncate ? O_TRUNC : 0));
    if (fd < 0) {
        fprintf(stderr, "rebyte: %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (!truncate && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        close(fd);
        return 1;
    }
    int failed = produce(context, fd) != 0;
    int saved = errno;
    if (close(fd) != 0 && !failed) { failed = 1; saved = errno; }
    if (failed) fprintf(stderr, "rebyte: %s: write failed: %s\n", path, strerror(saved));
    return failed ? -1 : 0;
}

/* The mode a new file gets from a plain create. umask() can only be read by setting it: read once
 * (batch workers write files at the same time). */
static mode_t process_umask;
static void read_umask(void)
{
    process_umask = umask(0);
    umask(process_umask);
}

static mode_t create_mode(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, read_umask);
    return 0666 & ~process_umask;
}

/* A temporary file being written: its name, its descriptor (holding its lock until it is
 * renamed or removed) and its slot among those a signal removes (cli_guard.c). */
typedef struct temporary {
    char *name;
    int fd, slot;
} temporary;

/* The file created beside `target`, locked and remembered before a signal or a scan can see it
 * unlocked and forgotten (the folder's shared lock and the blocked signals cover the moment). */
static int create_temporary(const char *path, const char *target, temporary *t)
{
    t->slot = -1;
    if (asprintf(&t->name, "%s.rebyte-XXXXXX", target) < 0) return -1;
    sigset_t ending, was;
    sigemptyset(&ending);
    sigaddset(&ending, SIGTERM);
    sigaddset(&ending, SIGINT);
    sigaddset(&ending, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &ending, &was);
    int folder = cli_folder_lock(target, 1);
    t->fd = mkstemp(t->name);
    int saved = errno;
    if (t->fd >= 0) {
        flock(t->fd, LOCK_EX); /* a filesystem without locks: a scan cannot lock it either, and keeps it */
        t->slot = cli_temp_remember(t->name);
    }
    cli_folder_unlock(folder);
    pthread_sigmask(SIG_SETMASK, &was, NULL);
    if (t->fd >= 0) return 0;
    fprintf(stderr, "rebyte: %s: cannot create a temporary file: %s\n", path, strerror(saved));
    free(t->name);
    return -1;
}

/* Done with the temporary file: removed first when `remove` (else it was renamed away). */
static void temporary_done(temporary *t, int remove)
{
    if (remove) unlink(t->name);
    cli_temp_forget(t->slot);
    close(t->fd); /* its lock with it */
    free(t->name);
}

/* A temporary file beside `target` ("TARGET.rebyte-XXXXXX", which directory scans skip) holding
 * `data`, with `mode`, synced, still open and locked. 0, or -1 (printed, nothing left). */
static int write_temporary(const char *path, const char *target, cli_producer produce, void *context, mode_t mode,
                           const struct stat *owner, int sync, temporary *t)
{
    if (create_temporary(path, target, t) != 0) return -1;
    /* the owner of the file it replaces, where permitted (root editing a user's file); then the mode
     * (mkstemp creates 0600), after the owner since a change of owner may clear set-id bits */
    if (owner && (owner->st_uid != geteuid() || owner->st_gid != getegid()) &&
        fchown(t->fd, owner->st_uid, owner->st_gid) != 0) {
        /* not permitted: the file belongs to whoever writes it, as a plain create would */
    }
    /* fsync reports what a close would (NFS writes back by then); the descriptor stays open for
     * its lock until the rename */
    if (fchmod(t->fd, mode) == 0 && produce(context, t->fd) == 0 && (!sync || fsync(t->fd) == 0)) return 0;
    int saved = errno;
    temporary_done(t, 1);
    fprintf(stderr, "rebyte: %s: write failed: %s (nothing was written)\n", path, strerror(saved));
    return -1;
}

/* Whether the file `target` still is what `edit` read (its identity, its times and its bytes):
 * 1, or 0 (printed). */
static int still_as_read(const cli_edit *edit, const char *target)
{
    struct stat now;
    int same = stat(target, &now) == 0 && cli_same_file_state(&now, &edit->seen);
    FILE *f = same ? fopen(target, "rb") : NULL;
    if (f) {
        uint8_t chunk[65536];
        size_t at = 0, n;
        while (same && (n = fread(chunk, 1, sizeof chunk, f)) > 0) {
            same = at + n <= edit->size && memcmp(chunk, edit->data + at, n) == 0;
            at += n;
        }
        same = same && !ferror(f) && at == edit->size;
        fclose(f);
    } else same = 0;
    if (!same)
        fprintf(stderr, "rebyte: %s: changed by another process since it was read; nothing was written (run again "
                "on the file as it is now)\n", edit->path);
    return same;
}

static int write_replace(const char *path, const char *target, cli_producer produce, void *context,
                         const cli_edit *edit)
{
    cli_remove_stale_temporaries(target);
    struct stat old;
    int exists = stat(target, &old) == 0;
    temporary t;
    if (write_temporary(path, target, produce, context, exists ? old.st_mode & 07777 : create_mode(),
                        exists ? &old : NULL, 1, &t) != 0)
        return -1;
    int rc = 0;
    if (edit && edit->data && !still_as_read(edit, target)) {
        rc = -1;
    } else if (rename(t.name, target) != 0) {
        fprintf(stderr, "rebyte: %s: write failed: %s (nothing was written)\n", path, strerror(errno));
        rc = -1;
    }
    temporary_done(&t, rc != 0);
    return rc;
}

static int write_to(const char *path, cli_producer produce, void *context, const cli_edit *edit);

/* Files synced together: a temporary file each, open and locked until its rename. */
enum { SYNC_GROUP = 256 };

/* Up to SYNC_GROUP files of `files`: each a new path or a regular file (lstat) is written to its
 * temporary file, the filesystem synced once (syncfs), then each renamed into place; any other
 * target goes through cli_write_atomic alone. 0, or -1 (printed; the temporaries removed). */
static int write_group(const char *base, const rb_dump_files *files, size_t from, size_t count)
{
    temporary t[SYNC_GROUP];
    char *target[SYNC_GROUP];
    size_t made = 0;
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        char *path = NULL;
        if (asprintf(&path, "%s%s", base, rb_dump_files_name(files, from + i)) < 0) return -1;
        struct stat old;
        int exists = lstat(path, &old) == 0;
        bytes_to_write bytes;
        bytes.data = rb_dump_files_data(files, from + i, &bytes.size);
        if (exists && !S_ISREG(old.st_mode)) {
            rc = cli_write_atomic(path, bytes.data, bytes.size); /* a link, a FIFO: as any output */
            free(path);
            continue;
        }
        cli_remove_stale_temporaries(path);
        rc = write_temporary(path, path, produce_bytes, &bytes, exists ? old.st_mode & 07777 : create_mode(),
                             exists ? &old : NULL, 0, &t[made]);
        if (rc == 0) target[made++] = path;
        else free(path);
    }
    if (rc == 0 && made && syncfs(t[0].fd) != 0) {
        fprintf(stderr, "rebyte: %s: write failed: %s\n", target[0], strerror(errno));
        rc = -1;
    }
    for (size_t i = 0; i < made; i++) {
        int failed = rc != 0 || rename(t[i].name, target[i]) != 0;
        if (failed && rc == 0) {
            fprintf(stderr, "rebyte: %s: write failed: %s\n", target[i], strerror(errno));
            rc = -1;
        }
        temporary_done(&t[i], failed);
        free(target[i]);
    }
    return rc;
}

int cli_write_atomic_files(const char *base, const rb_dump_files *files)
{
    size_t count = rb_dump_files_count(files);
    for (size_t from = 0; from < count; from += SYNC_GROUP)
        if (write_group(base, files, from, count - from < SYNC_GROUP ? count - from : SYNC_GROUP) != 0) return -1;
    return 0;
}

int cli_write_atomic(const char *path, const uint8_t *data, size_t size)
{
    bytes_to_write bytes = {data, size};
    return write_to(path, produce_bytes, &bytes, NULL);
}

int cli_write_edited(const cli_edit *edit, const uint8_t *data, size_t size)
{
    bytes_to_write bytes = {data, size};
    return write_to(edit->path, produce_bytes, &bytes, edit);
}

int cli_write_produced(const char *path, cli_producer produce, void *context)
{
    return write_to(path, produce, context, NULL);
}

/* cli_write_produced, and for an in-place edit (`edit` not NULL) the check before the rename. */
static int write_to(const char *path, cli_producer produce, void *context, const cli_edit *edit)
{
    if (strcmp(path, "-") == 0) {
        /* what stdio holds goes first, then the text straight to the descriptor */
        if (fflush(stdout) != 0 || produce(context, STDOUT_FILENO) != 0) {
            fprintf(stderr, "rebyte: stdout: %s\n", strerror(errno));
            return -1;
        }
        return 0;
    }
    /* what the path names, every link followed (stat), decides how it is written */
    struct stat st;
    int exists = stat(path, &st) == 0;
    switch (cli_write_strategy_for(exists, exists ? st.st_mode : 0)) {
    case CLI_WRITE_REFUSE:
        fprintf(stderr, "rebyte: %s: %s; nothing was written\n", path, cli_write_refusal(st.st_mode));
        return -1;
    case CLI_WRITE_DIRECT: {
        int rc = write_direct(path, produce, context, 0);
        if (rc != 1) return rc;
        if (stat(path, &st) != 0) return -1;
        break; /* a regular file now: replaced below */
    }
    case CLI_WRITE_REPLACE_ATOMIC:
        break;
    }
    /* a new or regular file: replaced under the name the links lead to, the links kept */
    char *target = resolve_target(path);
    if (!target) return -1;
    struct stat at;
    int rc;
    if (exists && (lstat(target, &at) != 0 || at.st_dev != st.st_dev || at.st_ino != st.st_ino))
        rc = write_direct(path, produce, context, 1); /* no name leads to it (/proc/self/fd/N of a deleted file) */
    else
        rc = write_replace(path, target, produce, context, edit);
    free(target);
    return rc;
}

int cli_backup_original(const char *input, const uint8_t *orig, size_t size, int quiet)
{
    char *bak = NULL;
    if (asprintf(&bak, "%s.bak", input) < 0) return -1;
    struct stat st;
    int rc = -1, kept = 0;
    if (lstat(bak, &st) == 0) {
        kept = 1;
        rc = 0;
    } else if (errno != ENOENT) {
        fprintf(stderr, "rebyte: %s: %s (no backup written, the input was not replaced)\n", bak, strerror(errno));
    } else {
        mode_t mode = stat(input, &st) == 0 ? st.st_mode & 07777 : create_mode();
        bytes_to_write bytes = {orig, size};
        temporary t;
        if (write_temporary(bak, bak, produce_bytes, &bytes, mode, NULL, 1, &t) == 0) {
            /* link() never replaces: a backup that appeared meanwhile is kept */
            int r = link(t.name, bak), saved = errno;
#ifdef RENAME_NOREPLACE
            if (r != 0 && saved != EEXIST) { /* a filesystem without hard links */
                r = renameat2(AT_FDCWD, t.name, AT_FDCWD, bak, RENAME_NOREPLACE);
                saved = errno;
            }
#endif
            if (r == 0) rc = 0;
            else if (saved == EEXIST) kept = 1, rc = 0;
            else fprintf(stderr, "rebyte: %s: %s (no backup written, the input was not replaced)\n", bak, strerror(saved));
            temporary_done(&t, 1);
        }
    }
    if (kept && !quiet)
        fprintf(stderr, "rebyte: %s already exists: kept (it holds the older original); no new backup written\n", bak);
    free(bak);
    return rc;
}

int cli_scan_skips(const char *name)
{
    size_t n = strlen(name);
    if (n >= 4 && strcmp(name + n - 4, ".bak") == 0) return 1;
    return cli_is_temporary_name(name);
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef struct file_list {
    char **items;
    size_t count, cap;
} file_list;

static int list_add(file_list *l, const char *path)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char **items = realloc(l->items, cap * sizeof(*items));
        if (!items) return -1;
        l->items = items;
        l->cap = cap;
    }
    l->items[l->count] = strdup(path);
    return l->items[l->count++] ? 0 : -1;
}

static int walk(const char *path, file_list *l, int depth)
{
    if (depth == 0 && strcmp(path, "-") == 0) return list_add(l, path); /* stdin, read by cli_read_file */
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "rebyte: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) /* found in a folder: regular files only (a FIFO would block) */
        return depth == 0 || S_ISREG(st.st_mode) ? list_add(l, path) : 0;
    if (depth > 32) return 0;
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "rebyte: %s: %s\n", path, strerror(errno));
        return -1;
    }
    file_list here = {0};
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || cli_scan_skips(e->d_name)) continue;
        char *child;
        size_t len = strlen(path);
        int slash = len && path[len - 1] == '/';
        if (asprintf(&child, "%s%s%s", path, slash ? "" : "/", e->d_name) < 0) break;
        list_add(&here, child);
        free(child);
    }
    closedir(d);
    if (here.count) qsort(here.items, here.count, sizeof(char *), compare_names); /* an empty folder has no list */
    int rc = 0;
    for (size_t i = 0; i < here.count; i++) {
        if (walk(here.items[i], l, depth + 1) != 0) rc = -1;
        free(here.items[i]);
    }
    free(here.items);
    return rc;
}

int cli_collect_files(char **paths, int count, char ***files, size_t *file_count)
{
    file_list l = {0};
    int rc = 0;
    for (int i = 0; i < count; i++)
        if (walk(paths[i], &l, 0) != 0) rc++;
    *files = l.items;
    *file_count = l.count;
    return rc;
}

void cli_free_files(char **files, size_t count)
{
    for (size_t i = 0; i < count; i++) free(files[i]);
    free(files);
}

int cli_no_known_file(const char *folder)
{
    fprintf(stderr, "rebyte: %s: no file of a known format in this folder\n", folder);
    return EXIT_BAD_INPUT;
}

/* The input of an edit: locked, and the same file as the name gives once locked (another edit
 * may have replaced it while this one waited: then the new file is locked in turn). */
static int lock_input(const char *path, cli_edit *e)
{
    for (int tries = 0; tries < 1000; tries++) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) return 0; /* the read says why */
        int locked = cli_lock_wait(fd, path);
        struct stat held, named;
        if (locked < 0) {
            close(fd);
            return -1;
        }
        if (locked == 0 && fstat(fd, &held) == 0 && stat(path, &named) == 0 &&
            (held.st_dev != named.st_dev || held.st_ino != named.st_ino)) {
            close(fd);
            continue;
        }
        e->fd = fd;
        return 0;
    }
    fprintf(stderr, "rebyte: %s: replaced again and again while waiting for its lock; nothing was written\n", path);
    return -1;
}

int cli_edit_begin(const char *path, cli_edit *e, uint8_t **data, size_t *size)
{
    memset(e, 0, sizeof *e);
    e->path = path;
    e->fd = -1;
    struct stat st;
    int regular = strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
    if (regular && lock_input(path, e) != 0) return EXIT_IO;
    if (cli_read_file(path, data, size) != 0) {
        cli_edit_end(e);
        return EXIT_IO;
    }
    if (e->fd >= 0 && fstat(e->fd, &e->seen) == 0) {
        e->data = *data;
        e->size = *size;
    }
    return EXIT_OK;
}

void cli_edit_end(cli_edit *e)
{
    if (e->fd >= 0) close(e->fd); /* its lock with it */
    e->fd = -1;
    e->data = NULL;
}

static int load_with(const char *path, cli_loaded *l, int defer, cli_edit *edit)
{
    memset(l, 0, sizeof(*l));
    if (edit ? cli_edit_begin(path, edit, &l->data, &l->size) != EXIT_OK : cli_read_file(path, &l->data, &l->size) != 0)
        return EXIT_IO;
    rb_error err;
    l->doc = defer ? cli_parse_deferred(path, l->data, l->size, &err) : cli_parse(path, l->data, l->size, &err);
    if (!l->doc) {
        cli_print_error(&err);
        free(l->data);
        l->data = NULL;
        if (edit) cli_edit_end(edit);
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

int cli_load(const char *path, cli_loaded *l) { return load_with(path, l, 0, NULL); }

int cli_load_deferred(const char *path, cli_loaded *l) { return load_with(path, l, 1, NULL); }

int cli_load_for_edit(const char *path, cli_loaded *l, cli_edit *edit) { return load_with(path, l, 0, edit); }

void cli_unload(cli_loaded *l)
{
    rb_doc_free(l->doc);
    free(l->data);
    memset(l, 0, sizeof(*l));
}

void cli_print_error(const rb_error *err)
{
    char text[RB_ERROR_TEXT_SIZE];
    fprintf(stderr, "rebyte: %s\n", rb_error_format(err, text, sizeof text));
}

/* Limits from REBYTE_LIMITS="max_decompressed_size=1e9,max_count=...": the way to raise a limit
 * that a legitimate file hits; max_patch_size is the command line's own (cli_read_patch). Unknown
 * names are reported and ignored. */
static void limits_from_environment(rb_limits *limits, uint64_t *max_patch_size)
{
    rb_limits_default(limits);
    const char *text = getenv("REBYTE_LIMITS");
    if (!text) return;
    char *copy = strdup(text);
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq) continue;
        *eq = 0;
        uint64_t value = (uint64_t)strtod(eq + 1, NULL);
        if (strcmp(item, "max_decompressed_size") == 0) limits->max_decompressed_size = value;
        else if (strcmp(item, "max_count") == 0) limits->max_count = value;
        else if (strcmp(item, "max_depth") == 0) limits->max_depth = (uint32_t)value;
        else if (strcmp(item, "max_string") == 0) limits->max_string = value;
        else if (strcmp(item, "max_patch_size") == 0) { if (max_patch_size) *max_patch_size = value; }
        else fprintf(stderr, "rebyte: REBYTE_LIMITS: unknown limit \"%s\" ignored\n", item);
    }
    free(copy);
}

static rb_doc *parse_with(const char *name, const uint8_t *data, size_t size, int defer, int check, rb_error *err)
{
    rb_limits limits = RB_LIMITS_INIT;
    limits_from_environment(&limits, NULL);
    rb_read_options opt = {
        .size = sizeof opt, .file_name = name, .limits = &limits, .defer = defer, .check_units = check};
    return rb_doc_parse(data, size, &opt, err);
}

rb_doc *cli_parse(const char *name, const uint8_t *data, size_t size, rb_error *err)
{
    return parse_with(name, data, size, 0, 0, err);
}

rb_doc *cli_parse_deferred(const char *name, const uint8_t *data, size_t size, rb_error *err)
{
    return parse_with(name, data, size, 1, 0, err);
}

rb_doc *cli_parse_checked(const char *name, const uint8_t *data, size_t size, rb_error *err)
{
    return parse_with(name, data, size, 1, 1, err);
}

void cli_progress(size_t done, size_t total, const char *name)
{
    if (total < 2 || !isatty(STDERR_FILENO)) return;
    const char *base = strrchr(name, '/');
    fprintf(stderr, "\r\033[K[%zu/%zu] %.60s", done, total, base ? base + 1 : name);
    fflush(stderr);
}

void cli_progress_clear(void)
{
    if (isatty(STDERR_FILENO)) fprintf(stderr, "\r\033[K");
}

int cli_opt_value(int argc, char **argv, int *i, const char *name, const char **value)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return 0;
    if (argv[*i][n] == '=') {
        *value = argv[*i] + n + 1;
        return 1;
    }
    if (argv[*i][n] == 0) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "rebyte: %s needs a value\n", name);
            *value = NULL;
            return -1;
        }
        *value = argv[++*i];
        return 1;
    }
    return 0;
}

/* ---------- what the writing commands share (apply, replace, downgrade-items) ---------- */

void cli_report_line(void *context, int warning, const char *line)
{
    const cli_report_context *c = context;
    if (!warning && c && c->quiet) return;
    const char *file = c && c->file ? c->file : NULL;
    size_t indent = strspn(line, " "), n = file ? strlen(file) : 0;
    int named = !file || (strncmp(line + indent, file, n) == 0 && line[indent + n] == ':');
    /* a detail line (indented) keeps its indent, the file's name after it */
    fprintf(stderr, "%s%.*s%s%s%s\n", indent ? "" : "rebyte: ", (int)indent, line, named ? "" : file,
            named ? "" : ": ", line + indent);
}

int cli_exit_code_of(rb_status st)
{
    if (st == RB_E_VERIFY) return EXIT_DIFFERS;
    return st == RB_E_IO || st == RB_E_NOMEM ? EXIT_IO : EXIT_BAD_INPUT;
}

int cli_apply_failed(const rb_error *err)
{
    char text[RB_ERROR_TEXT_SIZE];
    fprintf(stderr, "rebyte: %s (nothing was written)\n", rb_error_format(err, text, sizeof text));
    return cli_exit_code_of(err->status);
}

int cli_write_result(const char *target, const char *input, const uint8_t *orig, size_t orig_size,
                     const uint8_t *bytes, size_t size, int backup, int quiet, const cli_edit *edit)
{
    /* keep the first original: an existing FILE.bak is left as it is (cli_backup_original) */
    if (backup && cli_backup_original(input, orig, orig_size, quiet) != 0) return EXIT_IO;
    int rc = edit ? cli_write_edited(edit, bytes, size) : cli_write_atomic(target, bytes, size);
    return rc == 0 ? EXIT_OK : EXIT_IO;
}

const char *cli_changes(size_t operations, int unchanged, char *out, size_t out_size)
{
    size_t n = unchanged ? 0 : operations;
    snprintf(out, out_size, "%zu change%s", n, n == 1 ? "" : "s");
    return out;
}

void cli_print_changes(const rb_apply_result *result, int unchanged, const char *name)
{
    json_t *changes = result->changes ? json_loads(result->changes, 0, NULL) : json_array();
    char count[48];
    printf("%s: %s\n", name, cli_changes(result->operations, unchanged, count, sizeof count));
    for (size_t i = 0; i < json_array_size(changes); i++) {
        json_t *c = json_array_get(changes, i);
        json_t *value = json_object_get(c, "value"), *was = json_object_get(c, "was");
        char *now = value ? json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
        char *old = was ? json_dumps(was, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
        printf("  %-7s %s%s%.200s%s%.200s\n", json_string_value(json_object_get(c, "op")),
               json_string_value(json_object_get(c, "path")), old ? ": " : "", old ? old : "", now ? " -> " : "",
               now ? now : "");
        free(now);
        free(old);
    }
    json_decref(changes);
}

typedef struct sized_file {
    uint64_t size;
    size_t index;
} sized_file;

static int larger_first(const void *a, const void *b)
{
    const sized_file *x = a, *y = b;
    if (x->size != y->size) return x->size < y->size ? 1 : -1;
    return x->index < y->index ? -1 : x->index > y->index; /* equal sizes in input order */
}

size_t *cli_largest_first(char **files, size_t count, size_t block, uint64_t *largest)
{
    sized_file *sized = malloc((count ? count : 1) * sizeof *sized);
    size_t *order = malloc((count ? count : 1) * sizeof *order);
    if (!sized || !order) {
        free(sized);
        free(order);
        return NULL;
    }
    uint64_t most = 0;
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        sized[i] = (sized_file){stat(files[i], &st) == 0 ? (uint64_t)st.st_size : 0, i};
        if (sized[i].size > most) most = sized[i].size;
    }
    if (!block) block = count ? count : 1;
    for (size_t from = 0; from < count; from += block)
        qsort(sized + from, count - from < block ? count - from : block, sizeof *sized, larger_first);
    for (size_t i = 0; i < count; i++) order[i] = sized[i].index;
    free(sized);
    if (largest) *largest = most;
    return order;
}

void cli_batch_heap(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20); /* glibc's largest: bigger blocks are still mapped */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

/* A file's work takes a few times its size (the input, its decoded body, the model's arena), and
 * the reserve must stay under the mmap threshold cli_batch_heap sets, or its block would be
 * mapped and unmapped instead of kept. */
enum { WORKER_HEAP_MIN = 4 << 20, WORKER_HEAP_MAX = 30 << 20, WORKER_HEAP_PER_BYTE = 6 };
#if defined(__linux__) && !defined(MADV_COLLAPSE)
#define MADV_COLLAPSE 25 /* Linux 6.1's value; older C libraries' headers lack it */
#endif

/* Where the advice starts: the huge page the block begins in when the memory below the block in
 * it is mapped too (the heap's start: a thread's heap begins on a huge-page boundary, and the
 * first small allocations of the thread, the file buffers among them, live there), else the
 * block's first whole page. */
static uintptr_t advice_start(uintptr_t block, uintptr_t page)
{
    uintptr_t down = block & ~(HUGE_PAGE - 1);
    unsigned char resident[HUGE_PAGE / 4096];
    if (down < block && (block - down) / page <= sizeof resident &&
        mincore((void *)down, block - down, resident) == 0)
        return down;
    return (block + page - 1) & ~(page - 1);
}

void cli_worker_heap(uint64_t largest)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    uint64_t want = largest < WORKER_HEAP_MAX / WORKER_HEAP_PER_BYTE ? largest * WORKER_HEAP_PER_BYTE : WORKER_HEAP_MAX;
    size_t bytes = want < WORKER_HEAP_MIN ? WORKER_HEAP_MIN : (size_t)want;
    uint8_t *block = malloc(bytes);
    if (!block) return;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = advice_start((uintptr_t)block, page), to = ((uintptr_t)block + bytes) & ~(page - 1);
    if (to > from) madvise((void *)from, to - from, MADV_HUGEPAGE); /* advice only: a refusal changes nothing */
#ifdef MADV_COLLAPSE
    /* the heap's first huge page was touched in small pages before the advice (the thread's heap
     * header): made one huge page now (Linux 6.1; a refusal changes nothing) */
    if (from % HUGE_PAGE == 0 && to - from >= HUGE_PAGE) madvise((void *)from, HUGE_PAGE, MADV_COLLAPSE);
#endif
    free(block);
#else
    (void)largest;
#endif
}

int cli_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > CLI_MAX_JOBS ? CLI_MAX_JOBS : (int)n;
}

int cli_parse_conflicts(const char *value, rb_conflicts *policy)
{
    if (strcmp(value, "stop") == 0) *policy = RB_CONFLICTS_STOP;
    else if (strcmp(value, "first-wins") == 0) *policy = RB_CONFLICTS_FIRST_WINS;
    else if (strcmp(value, "last-wins") == 0) *policy = RB_CONFLICTS_LAST_WINS;
    else {
        fprintf(stderr, "rebyte: --conflicts must be stop, first-wins or last-wins\n");
        return -1;
    }
    return 0;
}

int cli_parse_jobs(const char *value, int *jobs)
{
    char *end = NULL;
    long n = value ? strtol(value, &end, 10) : -1;
    if (!value || !*value || *end || n < 0 || n > CLI_MAX_JOBS) {
        fprintf(stderr, "rebyte: -j takes a number of jobs from 1 to %d, or 0 for every CPU (not \"%s\")\n",
                CLI_MAX_JOBS, value ? value : "");
        return -1;
    }
    *jobs = n == 0 ? cli_cpu_count() : (int)n;
    return 0;
}

int cli_make_parents(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        int failed = mkdir(path, 0777) != 0 && errno != EEXIST;
        if (failed) fprintf(stderr, "rebyte: %s: %s\n", path, strerror(errno));
        *p = '/';
        if (failed) return -1;
    }
    return 0;
}

/* ---------- usage errors ---------- */

static const char *(*usage_lookup)(const char *command);

void cli_usage_lookup(const char *(*usage_of)(const char *command)) { usage_lookup = usage_of; }

static void print_usage(const char *name)
{
    const char *usage = usage_lookup ? usage_lookup(name) : NULL;
    if (usage) fprintf(stderr, "usage: %s\n", usage);
}

int cli_usage_line(const char *name)
{
    print_usage(name);
    return EXIT_USAGE;
}

int cli_usage_error(const char *name, const char *bad)
{
    if (bad) fprintf(stderr, "rebyte %s: unexpected argument \"%s\"\n", name, bad);
    else fprintf(stderr, "rebyte %s: missing arguments\n", name);
    print_usage(name);
    return EXIT_USAGE;
}
