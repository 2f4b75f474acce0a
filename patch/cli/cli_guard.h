/* What keeps the command line's writes safe beside the atomic replace of cli_util.c: the
 * temporary files a signal must not leave behind, the stale ones a killed run left, and the locks
 * that serialize writers (docs/reliability.md "Concurrent writers", "Signals and temporary files"). */
#ifndef RB_CLI_GUARD_H
#define RB_CLI_GUARD_H
#include <sys/stat.h>

/* At the start of main: SIGTERM, SIGINT and SIGHUP (unless ignored, as under nohup) remove the
 * temporary files being written, then end the process as the signal would; SIGXFSZ is ignored,
 * so a write beyond `ulimit -f` fails (EFBIG) and is reported like any failed write. */
void cli_signals_install(void);
/* A temporary file being written: removed by those signals until forgotten. The slot, or -1
 * when every slot is taken (then a signal leaves it, and a later run removes it). */
int cli_temp_remember(const char *path);
void cli_temp_forget(int slot);

/* Waits for an exclusive lock (flock) on `fd`, up to REBYTE_LOCK_WAIT seconds (default 60).
 * 0 locked; 1 when the filesystem takes no locks (nothing held); -1 another process held it all
 * that time (printed, naming `path`). */
int cli_lock_wait(int fd, const char *path);
/* The folder of `target` locked (flock on the folder): shared by a writer while it creates and
 * locks its temporary file, exclusive by cli_remove_stale_temporaries, so a temporary file is
 * never seen unlocked by a scan while its writer lives. The folder's descriptor, or -1 (no lock:
 * a folder that cannot be opened or locked). */
int cli_folder_lock(const char *target, int shared);
void cli_folder_unlock(int fd);
/* Removes the temporary files ("NAME.rebyte-XXXXXX") a killed run left in the folder of
 * `target`: regular files of the effective user whose writer no longer holds their lock. Once
 * per folder and process; silent. */
void cli_remove_stale_temporaries(const char *target);
/* Whether `name` is a temporary file's (NAME.rebyte- and six letters or digits, mkstemp's). */
int cli_is_temporary_name(const char *name);
/* Whether two stats are of the same file, as it was: device, inode, size, times of change. */
int cli_same_file_state(const struct stat *a, const struct stat *b);
#endif
