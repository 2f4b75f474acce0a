/* The CLI's writer: which targets are replaced atomically, written in place or refused
 * (cli_write_strategy_for, a pure function: device modes are made up, no device is touched);
 * which names a directory scan skips; --backup keeps the first original; a socket or a directory
 * given as the output is refused and left as it was. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "patch/cli/cli_util.h"
#include "tests/test_util.h"

static const char *strategy_name(cli_write_strategy s)
{
    return s == CLI_WRITE_REPLACE_ATOMIC ? "replace" : s == CLI_WRITE_DIRECT ? "direct" : "refuse";
}

#define EXPECT_STRATEGY(exists, mode, want)                                                                  \
    CHECK(cli_write_strategy_for(exists, mode) == want, "exists=%d mode=0%o: %s, expected %s", exists,      \
          (unsigned)(mode), strategy_name(cli_write_strategy_for(exists, mode)), strategy_name(want))

static void test_strategy_modes(void)
{
    /* a path that does not exist is created (the mode is meaningless then) */
    EXPECT_STRATEGY(0, 0, CLI_WRITE_REPLACE_ATOMIC);
    EXPECT_STRATEGY(0, S_IFDIR | 0755, CLI_WRITE_REPLACE_ATOMIC);
    EXPECT_STRATEGY(1, S_IFREG | 0644, CLI_WRITE_REPLACE_ATOMIC);
    EXPECT_STRATEGY(1, S_IFREG | 04755, CLI_WRITE_REPLACE_ATOMIC);
    EXPECT_STRATEGY(1, S_IFIFO | 0600, CLI_WRITE_DIRECT);
    EXPECT_STRATEGY(1, S_IFCHR | 0666, CLI_WRITE_DIRECT); /* /dev/stdout's target, /dev/null, a tty */
    EXPECT_STRATEGY(1, S_IFSOCK | 0777, CLI_WRITE_REFUSE);
    EXPECT_STRATEGY(1, S_IFDIR | 0755, CLI_WRITE_REFUSE);
    EXPECT_STRATEGY(1, S_IFBLK | 0660, CLI_WRITE_REFUSE);
    EXPECT_STRATEGY(1, S_IFLNK | 0777, CLI_WRITE_REFUSE); /* links are resolved before; never replaced blindly */
    CHECK(strstr(cli_write_refusal(S_IFDIR | 0755), "directory") != NULL, "%s", cli_write_refusal(S_IFDIR));
    CHECK(strstr(cli_write_refusal(S_IFSOCK | 0755), "socket") != NULL, "%s", cli_write_refusal(S_IFSOCK));
    CHECK(strstr(cli_write_refusal(S_IFBLK | 0660), "block device") != NULL, "%s", cli_write_refusal(S_IFBLK));
}

/* The same with the modes of real objects (no device: a FIFO, a socket, a folder, a file). */
static void test_strategy_real(const char *dir)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/file", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL, "create %s", path);
    if (f) fclose(f);
    CHECK(stat(path, &st) == 0 && cli_write_strategy_for(1, st.st_mode) == CLI_WRITE_REPLACE_ATOMIC, "regular file");
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0, "mkfifo: %s", strerror(errno));
    CHECK(stat(path, &st) == 0 && cli_write_strategy_for(1, st.st_mode) == CLI_WRITE_DIRECT, "FIFO");
    CHECK(stat(dir, &st) == 0 && cli_write_strategy_for(1, st.st_mode) == CLI_WRITE_REFUSE, "directory");
    snprintf(path, sizeof path, "%s/new", dir);
    CHECK(stat(path, &st) != 0 && cli_write_strategy_for(0, 0) == CLI_WRITE_REPLACE_ATOMIC, "new path");

    /* a socket named as the output: refused, and still a socket afterwards */
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    int n = snprintf(addr.sun_path, sizeof addr.sun_path, "%s/sock", dir);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s >= 0 && n > 0 && (size_t)n < sizeof addr.sun_path && bind(s, (struct sockaddr *)&addr, sizeof addr) == 0) {
        CHECK(stat(addr.sun_path, &st) == 0 && cli_write_strategy_for(1, st.st_mode) == CLI_WRITE_REFUSE, "socket");
        CHECK(cli_write_atomic(addr.sun_path, (const uint8_t *)"x", 1) != 0, "writing to a socket succeeded");
        CHECK(lstat(addr.sun_path, &st) == 0 && S_ISSOCK(st.st_mode), "the socket was replaced");
    } else {
        fprintf(stderr, "note: no unix socket here (%s); socket case covered by modes only\n", strerror(errno));
    }
    if (s >= 0) close(s);
    /* a directory named as the output: refused, still a directory */
    CHECK(cli_write_atomic(dir, (const uint8_t *)"x", 1) != 0, "writing over a directory succeeded");
    CHECK(lstat(dir, &st) == 0 && S_ISDIR(st.st_mode), "the directory was replaced");
}

static void test_scan_skips(void)
{
    CHECK(cli_scan_skips("map.Map.Gbx.bak"), "a backup is skipped");
    CHECK(cli_scan_skips("map.Map.Gbx.bak.bak"), "a backup's backup is skipped");
    CHECK(cli_scan_skips("map.Map.Gbx.rebyte-a1B2c3"), "the writer's temporary file is skipped");
    CHECK(cli_scan_skips("map.Map.Gbx.bak.rebyte-ZZZZZZ"), "a backup's temporary file is skipped");
    CHECK(!cli_scan_skips("map.Map.Gbx"), "a map is taken");
    CHECK(!cli_scan_skips("backup.Map.Gbx"), "a map named backup is taken");
    CHECK(!cli_scan_skips("map.rebyte-notes"), "a name like the temporary files (not 6 characters) is taken");
    CHECK(!cli_scan_skips("bak"), "a file named bak is taken");
}

static int file_is(const char *path, const char *text)
{
    size_t size;
    uint8_t *data = test_read_file(path, &size);
    int same = data && size == strlen(text) && memcmp(data, text, size) == 0;
    free(data);
    return same;
}

static void test_backup(const char *dir)
{
    char input[4096], bak[4200];
    snprintf(input, sizeof input, "%s/map.Gbx", dir);
    snprintf(bak, sizeof bak, "%s.bak", input);
    FILE *f = fopen(input, "wb");
    if (f) { fputs("first original", f); fclose(f); }
    chmod(input, 0640);
    CHECK(cli_backup_original(input, (const uint8_t *)"first original", 14, 1) == 0, "first backup");
    CHECK(file_is(bak, "first original"), "the backup holds the original");
    struct stat st;
    CHECK(stat(bak, &st) == 0 && (st.st_mode & 07777) == 0640, "the backup has the input's mode (0%o)",
          (unsigned)(st.st_mode & 07777));
    CHECK(cli_backup_original(input, (const uint8_t *)"patched once", 12, 1) == 0, "second backup");
    CHECK(file_is(bak, "first original"), "the second backup replaced the first original");
    char bakbak[4300];
    snprintf(bakbak, sizeof bakbak, "%s.bak", bak);
    CHECK(access(bakbak, F_OK) != 0, "a .bak.bak was written");
    /* a dangling link in the backup's place is not followed or replaced */
    snprintf(input, sizeof input, "%s/other.Gbx", dir);
    snprintf(bak, sizeof bak, "%s.bak", input);
    CHECK(symlink("nowhere", bak) == 0, "symlink");
    CHECK(cli_backup_original(input, (const uint8_t *)"x", 1, 1) == 0, "backup beside a link");
    CHECK(lstat(bak, &st) == 0 && S_ISLNK(st.st_mode), "the link in the backup's place was replaced");
}

int main(void)
{
    char dir[] = "/tmp/rebyte-write-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_strategy_modes();
    test_strategy_real(dir);
    test_scan_skips();
    test_backup(dir);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "note: could not remove %s\n", dir);
    if (test_failures) fprintf(stderr, "%d failure(s)\n", test_failures);
    else printf("write strategy, scan skips, backups: all passed\n");
    return test_failures != 0;
}
