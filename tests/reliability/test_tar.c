/*
 * The tar stream of `extract -o -` (patch/cli/cli_tar.c) read by the system's tar: names of
 * every length ustar holds as they are, one that needs the prefix field, one that needs a pax
 * header, an empty file and one of several blocks; each listed and each file's bytes back.
 * Usage: test_tar (skips, 77, without a tar on the PATH)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "patch/cli/cli_tar.h"
#include "tests/test_util.h"


static char *run_text(const char *command)
{
    FILE *p = popen(command, "r");
    if (!p) return NULL;
    size_t cap = 1 << 16, used = 0, n;
    char *text = malloc(cap);
    while (text && (n = fread(text + used, 1, cap - 1 - used, p)) > 0) used += n;
    if (text) text[used] = 0;
    pclose(p);
    return text;
}

int main(void)
{
    if (system("tar --version >/dev/null 2>&1") != 0) {
        printf("SKIP: no tar on the PATH\n");
        return 77;
    }
    char dir[] = "/tmp/rebyte-tar-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char archive[64];
    snprintf(archive, sizeof archive, "%s/a.tar", dir);
    int fd = open(archive, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cli_tar tar = {fd, 1700000000};
    char prefixed[200], long_name[300];
    memset(prefixed, 'p', sizeof prefixed);
    memcpy(prefixed + 120, "/", 1);
    memcpy(prefixed + 121, "file-after-a-long-folder.bin", 29); /* 120 + 1 + 28: the prefix field */
    memset(long_name, 'n', sizeof long_name);
    memcpy(long_name + 10, "/", 1);
    memcpy(long_name + 250, ".bin", 5); /* a 239-byte last part: only a pax header holds it */
    uint8_t big[1500];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 7);
    const struct { const char *name; const uint8_t *data; size_t size; } files[] = {
        {"manifest.json", (const uint8_t *)"{}", 2},
        {"textures/page-0000.png", big, sizeof big},
        {"sounds/empty.wav", (const uint8_t *)"", 0},
        {prefixed, (const uint8_t *)"prefix", 6},
        {long_name, (const uint8_t *)"pax", 3},
    };
    size_t count = sizeof files / sizeof *files;
    for (size_t i = 0; i < count; i++)
        CHECK(cli_tar_add(&tar, files[i].name, files[i].data, files[i].size) == 0, "adding %.60s", files[i].name);
    CHECK(cli_tar_finish(&tar) == 0, "the end blocks");
    close(fd);
    char command[512];
    snprintf(command, sizeof command, "tar -tf %s", archive);
    char *listing = run_text(command);
    for (size_t i = 0; i < count; i++) {
        char line[400];
        snprintf(line, sizeof line, "%s\n", files[i].name);
        CHECK(listing && strstr(listing, line), "tar -t does not list %.60s...", files[i].name);
        snprintf(command, sizeof command, "tar -xOf %s '%s'", archive, files[i].name);
        char *content = run_text(command);
        CHECK(content && memcmp(content, files[i].data, files[i].size) == 0 &&
                  (files[i].size >= 10 || strlen(content) == files[i].size),
              "tar -xO gives other bytes for %.60s...", files[i].name);
        free(content);
    }
    free(listing);
    snprintf(command, sizeof command, "rm -rf %s", dir);
    if (system(command) != 0) return 1;
    if (test_failures) printf("tar stream: %d failure(s)\n", test_failures);
    else printf("tar stream: %d files listed and read back by tar\n", (int)count);
    return test_failures ? 1 : 0;
}
