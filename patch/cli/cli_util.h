/* Helpers shared by the command-line tool: files, atomic writes, directory walks, reports. */
#ifndef RB_CLI_UTIL_H
#define RB_CLI_UTIL_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "rebyte.h"

/* Exit codes (documented in docs/rebyte.1 and the README). */
enum {
    EXIT_OK = 0,
    EXIT_DIFFERS = 1,    /* verify found a difference; apply's result did not verify; a test op failed */
    EXIT_BAD_INPUT = 2,  /* an input could not be parsed or a patch could not be applied */
    EXIT_IO = 3,         /* a file could not be read or written */
    EXIT_USAGE = 64
};

/* Whole file into memory ("-" = stdin). Returns 0 on success, else prints why. An input whose
 * size is not known before it is read (stdin, a FIFO, a device) is read up to the limit
 * max_decompressed_size and refused beyond it, the limit named (docs/usage.md "Limits"). */
int cli_read_file(const char *path, uint8_t **data, size_t *size);
/* A patch's text, the same way, every patch bounded by max_patch_size (CLI_MAX_PATCH_SIZE,
 * REBYTE_LIMITS=max_patch_size=N). */
enum { CLI_MAX_PATCH_SIZE = 64 << 20 };
int cli_read_patch(const char *path, uint8_t **data, size_t *size);

/* How an output is written, by what its target is (after following symlinks). */
typedef enum {
    CLI_WRITE_REPLACE_ATOMIC, /* a new path or a regular file: temporary file beside it, fsync, rename */
    CLI_WRITE_DIRECT,         /* a FIFO or a character device: opened (no create, no truncate) and written */
    CLI_WRITE_REFUSE          /* a directory, a socket, a block device: not written */
} cli_write_strategy;
/* exists: the target exists; mode: its st_mode (from stat, i.e. not a symlink). Pure. */
cli_write_strategy cli_write_strategy_for(int exists, mode_t mode);
/* Why a target of this mode is refused ("is a directory", ...). */
const char *cli_write_refusal(mode_t mode);

/* Write `data` to `path` ("-" = stdout). Symlinks are followed: the file the link names is written
 * and the link stays. A new path or a regular file is replaced atomically (temporary file beside
 * the target, fsync, rename; an existing file's mode is kept, and its owner where permitted);
 * a FIFO or a character device is written in place; anything else is refused. Nothing is left
 * behind on failure. Prints why on failure. */
int cli_write_atomic(const char *path, const uint8_t *data, size_t size);
/* Many files at once (a dump's blob files, BASE followed by each name), each written as
 * cli_write_atomic writes one, but synced a group at a time (one syncfs for up to 256 files, then
 * the renames) rather than one fsync each: a map's 15,000 blob files took a minute of fsyncs.
 * Stops at the first failure (printed; what was renamed before it stays). */
int cli_write_atomic_files(const char *base, const rb_dump_files *files);
/* The same for a text made while it is written (a streamed dump): `produce` writes it to the
 * descriptor and returns 0, or -1 with errno set (nothing is then left behind). */
typedef int (*cli_producer)(void *context, int fd);
/* All of `data` to `fd` (interrupted writes resumed): 0, or -1 with errno set. */
int cli_write_all(int fd, const uint8_t *data, size_t size);
int cli_write_produced(const char *path, cli_producer produce, void *context);

/* An in-place edit (apply, replace, downgrade-items --in-place): the input read under its lock,
 * held until the result replaced it, so that two edits of one file run one after the other and
 * neither loses the other's change (docs/reliability.md "Concurrent writers"). */
typedef struct cli_edit {
    const char *path;
    int fd;               /* the input, holding its lock (flock); -1 when not a regular file */
    struct stat seen;     /* the input as it was read */
    const uint8_t *data;  /* what was read (the caller's), compared before the rename; NULL: no check */
    size_t size;
} cli_edit;
/* Opens `path`, waits for its lock (cli_lock_wait: REBYTE_LOCK_WAIT seconds), and reads it into
 * *data (the caller frees it). EXIT_OK, or EXIT_IO (printed; nothing held). A file that is not
 * regular (a FIFO) is read without a lock. */
int cli_edit_begin(const char *path, cli_edit *edit, uint8_t **data, size_t *size);
/* The lock given back (after the result was written, or not). */
void cli_edit_end(cli_edit *edit);
/* The result of an edit written over its input (cli_write_atomic), once the input is checked to
 * be what was read: its identity, times and bytes (a writer that takes no lock, a filesystem
 * without locks). A changed input is not replaced: -1, printed. */
int cli_write_edited(const cli_edit *edit, const uint8_t *data, size_t size);

/* --backup: keep the first original. When INPUT.bak does not exist, it is created with `orig`
 * (temporary file, fsync, then link(): never overwrites a backup that appeared meanwhile); when it
 * exists it is left untouched (it holds an older original) and a note is printed unless quiet.
 * 0 when the original is safe in INPUT.bak, -1 (printed) when it could not be written. */
int cli_backup_original(const char *input, const uint8_t *orig, size_t size, int quiet);

/* Whether a directory scan skips this file name: backups (*.bak) and the writer's temporary files
 * (*.rebyte-XXXXXX). Names given on the command line are always taken. */
int cli_scan_skips(const char *name);

/* Every file under each path: a path named is taken as it is ("-" is stdin); directories are walked
 * recursively (sorted), taking their regular files except hidden ones and cli_scan_skips().
 * Returns how many paths could not be walked (a missing file: named on stderr), 0 when all were. */
typedef int (*cli_file_fn)(const char *path, void *ctx);
int cli_collect_files(char **paths, int count, char ***files, size_t *file_count);
void cli_free_files(char **files, size_t count);
/* A folder named to verify or check in which no file of a known format was found: said on
 * stderr; returns EXIT_BAD_INPUT (nothing was checked is no success). */
int cli_no_known_file(const char *folder);

void cli_print_error(const rb_error *err);

/* A game file loaded: its bytes and its model (the model borrows the bytes). */
typedef struct cli_loaded {
    uint8_t *data;
    size_t size;
    rb_doc *doc;
} cli_loaded;
/* Reads and parses `path`; prints why not. EXIT_OK, EXIT_IO or EXIT_BAD_INPUT. */
int cli_load(const char *path, cli_loaded *loaded);
/* The same read with the deferred model (docs/performance.md "The deferred model"): for a command
 * that only reads the model (dump prints one unit at a time) or an original it takes bytes from
 * but does not navigate (build's source: blob references are bytes of its sections). */
int cli_load_deferred(const char *path, cli_loaded *loaded);
/* cli_load of the input of an in-place edit: read under its lock (cli_edit_begin). */
int cli_load_for_edit(const char *path, cli_loaded *loaded, cli_edit *edit);
void cli_unload(cli_loaded *loaded);
/* Parse a file's bytes; prints the error. */
rb_doc *cli_parse(const char *name, const uint8_t *data, size_t size, rb_error *err);
/* The same with the deferred model (rb_read_options.defer): for commands that only write the
 * document back and report on it (rewrite, verify), which then never build the nodes of the
 * units the format keeps as bytes. */
rb_doc *cli_parse_deferred(const char *name, const uint8_t *data, size_t size, rb_error *err);
/* The same, each unit kept as its bytes only when its nodes write them (rb_read_options.check_units):
 * for `verify`, whose write then compares every byte of the file. */
rb_doc *cli_parse_checked(const char *name, const uint8_t *data, size_t size, rb_error *err);

/* Progress on a terminal for batches. */
void cli_progress(size_t done, size_t total, const char *name);
void cli_progress_clear(void);

/* ---------- what the writing commands share (apply, replace, downgrade-items) ---------- */

/* rb_apply_options.report whose context is a cli_report_context (may be NULL): warnings always,
 * progress unless quiet; on stderr, which holds every report (stdout is the output's with -o -).
 * Each line names the file it is about (batch workers report at once). */
typedef struct cli_report_context {
    int quiet;
    const char *file;
} cli_report_context;
void cli_report_line(void *context, int warning, const char *line);
/* A failed rb_apply on stderr, "rebyte: ERROR (nothing was written)"; returns its exit code. */
int cli_apply_failed(const rb_error *err);
/* The exit code of a library failure: 1 did not verify, 3 I/O or memory, else 2. */
int cli_exit_code_of(rb_status st);
/* A verified result to `target` ("-" = stdout), the input kept first as INPUT.bak with `backup`
 * (cli_backup_original); over the input of `edit` when it is not NULL (cli_write_edited).
 * EXIT_OK or EXIT_IO (printed). */
int cli_write_result(const char *target, const char *input, const uint8_t *orig, size_t orig_size,
                     const uint8_t *bytes, size_t size, int backup, int quiet, const cli_edit *edit);
/* How every command words a count of changes: "0 changes", "1 change", "3 changes"; an output
 * whose bytes are the input's (`unchanged`) has 0, whatever operations were applied. */
const char *cli_changes(size_t operations, int unchanged, char *out, size_t out_size);
/* A dry run's list on stdout: "FILE: N changes" (the count as cli_changes words it, of
 * rb_apply_result.operations; 0 when the result's bytes are the input's, `unchanged`), then one
 * line for each change, those the format keeps in step included (rb_apply_result.changes). */
void cli_print_changes(const rb_apply_result *result, int unchanged, const char *name);

/* -j N: 1 to CLI_MAX_JOBS, or 0 for every CPU. 0 on success, else -1 (printed). */
enum { CLI_MAX_JOBS = 256 };
int cli_parse_jobs(const char *value, int *jobs);
/* --conflicts VALUE (stop, first-wins, last-wins) of apply and json-patch: 0, or -1 after saying why. */
int cli_parse_conflicts(const char *value, rb_conflicts *policy);
int cli_cpu_count(void);
/* The order a batch hands its files out in: largest first within each `block` of consecutive
 * files (0: the whole list), so a large file does not end up alone at the tail of a run while the
 * other workers idle. Indices into `files` (malloc'd), NULL when out of memory; `largest` (may be
 * NULL) receives the largest file's size. */
size_t *cli_largest_first(char **files, size_t count, size_t block, uint64_t *largest);

/* A batch parses file after file: the C library keeps freed memory for the next file instead of
 * giving it back to the kernel and faulting it in again (call before the workers start). */
void cli_batch_heap(void);
/* On a batch worker's thread before its first file (after cli_batch_heap): reserves its heap for
 * files up to `largest` bytes, advised as transparent huge pages, and gives it back to the heap
 * of the thread, which keeps it for every file after; why:
 * docs/performance.md "Batches". */
void cli_worker_heap(uint64_t largest);

/* mkdir -p of the folders in `path` up to its last '/' (the file's own name excluded; `path` is
 * restored). 0, or -1 (printed). */
int cli_make_parents(char *path);

/* Parse --name=value / --name value options. */
int cli_opt_value(int argc, char **argv, int *i, const char *name, const char **value);
/* ---------- usage errors ---------- */

/* Where the usage lines are: the command table's lookup (cli.c), set once before a command runs,
 * so the commands below the table print their usage without naming it. */
void cli_usage_lookup(const char *(*usage_of)(const char *command));
/* Prints the command's usage (and what was wrong) to stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *command, const char *bad_argument);
/* After a message that says what is wrong: the command's usage line; returns EXIT_USAGE. */
int cli_usage_line(const char *name);
#endif
