/*
 * A tar stream for `extract -o -` (docs/usage.md "Assets"): POSIX.1-1988 ustar headers, which
 * every tar reads; a name longer than ustar holds (100 bytes, or a 155-byte folder prefix and a
 * 100-byte rest) goes first as a POSIX.1-2001 pax extended header ("path="). Regular files only:
 * a reader makes the folders a name holds.
 */
#include "patch/cli/cli_tar.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "patch/cli/cli_util.h"

enum { BLOCK = 512 };

/* `value` in `width` bytes: octal digits, then NUL. 0, or -1 when it does not fit. */
static int put_octal(char *field, size_t width, uint64_t value)
{
    char text[32];
    int n = snprintf(text, sizeof text, "%0*llo", (int)(width - 1), (unsigned long long)value);
    if (n < 0 || (size_t)n != width - 1) return -1;
    memcpy(field, text, width);
    return 0;
}

/* A header block: the ustar fields at their offsets (POSIX.1 "ustar Interchange Format"). */
static int write_header(const cli_tar *tar, const char *prefix, size_t prefix_length, const char *name,
                        uint64_t size, char type)
{
    char h[BLOCK];
    memset(h, 0, sizeof h);
    memcpy(h, name, strlen(name));                   /* name[100] */
    put_octal(h + 100, 8, 0644);                     /* mode */
    put_octal(h + 108, 8, 0);                        /* uid */
    put_octal(h + 116, 8, 0);                        /* gid */
    if (put_octal(h + 124, 12, size) != 0) {         /* size: 11 octal digits, below 8 GiB */
        errno = EFBIG;
        return -1;
    }
    put_octal(h + 136, 12, (uint64_t)(tar->mtime > 0 ? tar->mtime : 0)); /* mtime */
    memset(h + 148, ' ', 8);                         /* chksum, spaces while it is summed */
    h[156] = type;                                   /* typeflag */
    memcpy(h + 257, "ustar", 6);                     /* magic, NUL-terminated */
    memcpy(h + 263, "00", 2);                        /* version */
    memcpy(h + 345, prefix, prefix_length);          /* prefix[155] */
    unsigned sum = 0;
    for (size_t i = 0; i < sizeof h; i++) sum += (unsigned char)h[i];
    snprintf(h + 148, 8, "%06o", sum);               /* six digits, NUL, and the space kept */
    h[155] = ' ';
    return cli_write_all(tar->fd, (const uint8_t *)h, sizeof h);
}

/* The data, padded with zeros to a whole block. */
static int write_data(const cli_tar *tar, const uint8_t *data, size_t size)
{
    static const uint8_t zeros[BLOCK];
    if (cli_write_all(tar->fd, data, size) != 0) return -1;
    return size % BLOCK ? cli_write_all(tar->fd, zeros, BLOCK - size % BLOCK) : 0;
}

/* Where `name` splits into a ustar prefix and name: the '/' to cut at, or NULL. */
static const char *ustar_split(const char *name)
{
    size_t n = strlen(name);
    for (const char *slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/'))
        if ((size_t)(slash - name) <= 155 && n - (size_t)(slash - name) - 1 <= 100 && slash[1]) return slash;
    return NULL;
}

/* A pax extended header holding "path=NAME": the record's length counts its own digits. */
static int write_long_name(const cli_tar *tar, const char *name)
{
    size_t body = strlen(" path=\n") + strlen(name), length = body + 1;
    while ((size_t)snprintf(NULL, 0, "%zu", length) + body != length) length++;
    char record[4200];
    if (length >= sizeof record) {
        errno = ENAMETOOLONG;
        return -1;
    }
    snprintf(record, sizeof record, "%zu path=%s\n", length, name);
    return write_header(tar, "", 0, "././@PaxHeader", length, 'x') == 0 &&
                   write_data(tar, (const uint8_t *)record, length) == 0
               ? 0
               : -1;
}

int cli_tar_add(const cli_tar *tar, const char *name, const uint8_t *data, size_t size)
{
    size_t n = strlen(name);
    const char *slash = n > 100 ? ustar_split(name) : NULL;
    int rc;
    if (n <= 100) {
        rc = write_header(tar, "", 0, name, size, '0');
    } else if (slash) {
        rc = write_header(tar, name, (size_t)(slash - name), slash + 1, size, '0');
    } else { /* the pax header names it; the ustar name is its first 100 bytes, for old readers */
        char shortened[101];
        memcpy(shortened, name, 100);
        shortened[100] = 0;
        rc = write_long_name(tar, name) == 0 ? write_header(tar, "", 0, shortened, size, '0') : -1;
    }
    return rc == 0 ? write_data(tar, data, size) : -1;
}

int cli_tar_finish(const cli_tar *tar)
{
    static const uint8_t end[2 * BLOCK];
    return cli_write_all(tar->fd, end, sizeof end);
}
