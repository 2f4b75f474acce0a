/*
 * The reader harness without libFuzzer: runs fuzz_reader.c's checks on each file named, as a
 * fuzzer would on one input (a regression run of a fuzz corpus, and a ctest over samples/ in
 * ordinary builds). The harness aborts on a finding; this prints how many files it ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include "tests/fuzz/fuzz_reader.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, size = 0;
    unsigned char *data = malloc(cap);
    size_t got;
    while (data && (got = fread(data + size, 1, cap - size, f)) > 0) {
        size += got;
        if (size == cap) {
            unsigned char *bigger = realloc(data, cap *= 2);
            if (!bigger) free(data);
            data = bigger;
        }
    }
    fclose(f);
    if (!data) {
        fprintf(stderr, "%s: out of memory\n", path);
        return -1;
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fuzz_replay FILE...   (REBYTE_FUZZ_FORMAT=NAME to force one reader)\n");
        return 64;
    }
    LLVMFuzzerInitialize(&argc, &argv);
    int failed = 0;
    for (int i = 1; i < argc; i++) failed |= run_file(argv[i]) != 0;
    printf("%d inputs run through the reader harness\n", argc - 1);
    return failed ? 3 : 0;
}
