/* One tar stream (POSIX ustar, a pax header for a longer name) for `extract -o -` (cli_tar.c). */
#ifndef RB_CLI_TAR_H
#define RB_CLI_TAR_H
#include <stddef.h>
#include <stdint.h>
#include <time.h>

typedef struct cli_tar {
    int fd;
    time_t mtime; /* every entry's modification time */
} cli_tar;
/* One regular file `name` (relative, '/' between folders) holding data[0..size), mode 0644.
 * 0, or -1 with errno (a failed write; a size beyond ustar's 8 GiB: EFBIG). */
int cli_tar_add(const cli_tar *tar, const char *name, const uint8_t *data, size_t size);
/* The end of the archive (two zero blocks). 0, or -1 with errno. */
int cli_tar_finish(const cli_tar *tar);
#endif
