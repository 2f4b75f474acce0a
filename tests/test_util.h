/* Small helpers shared by the C test programs. */
#ifndef RB_TEST_UTIL_H
#define RB_TEST_UTIL_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* A regular file's bytes (malloc'd; free them), or NULL: folders and unreadable paths are not
 * inputs. */
static inline uint8_t *test_read_file(const char *path, size_t *size)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *data = malloc(st.st_size > 0 ? (size_t)st.st_size : 1);
    *size = data ? fread(data, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    return data;
}

/* Assertions of the C test programs: a failed one is printed with its place and counted. */
static int test_failures __attribute__((unused));
#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            test_failures++;                                                               \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, "\n");                                                         \
        }                                                                                  \
    } while (0)
#endif
