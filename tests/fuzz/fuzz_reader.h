/* The reader harness's entry points, shared by libFuzzer and the replay driver (replay_main.c). */
#ifndef RB_FUZZ_READER_H
#define RB_FUZZ_READER_H
#include <stddef.h>
#include <stdint.h>

/* Fuzz one registered format (`name`), or every format by detection (NULL or ""). 0, or -1 when
 * `name` is not registered (the registered names are printed). */
int rb_fuzz_choose_format(const char *name);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
