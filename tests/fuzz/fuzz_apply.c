/*
 * Differential libFuzzer harness for the patch engine: the input is a byte choosing one of the
 * project's sample files (FUZZ_SAMPLES) followed by a patch's JSON text. The patch is applied
 * as the library does it (on the model where it can) and on the whole model (JSON path): both
 * must accept or both refuse, and what they accept must be the same bytes. A crash, a leak, a
 * sanitizer finding or abort() here is a bug of the model path (patch/model_edit.c) or of the
 * comparison that checks it (patch/model_compare.c).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rebyte.h"

#ifndef FUZZ_SAMPLES
#error "FUZZ_SAMPLES must name the samples folder"
#endif

typedef struct sample {
    uint8_t *data;
    size_t size;
} sample;
static sample samples[64];
static size_t sample_count;

static void load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f || sample_count == 64) { if (f) fclose(f); return; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(n > 0 ? (size_t)n : 1);
    if (data && fread(data, 1, (size_t)n, f) == (size_t)n) samples[sample_count++] = (sample){data, (size_t)n};
    else free(data);
    fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const char *const files[] = {"gbx/sample.Map.Gbx", "gbx_item/marker.Item.Gbx", "gbx_mapextra/extras.Map.Gbx",
                                        "datawin/sample.win", "streamer/safehouse.map", "tres/box.grf", "tres/box.scn",
                                        "tres/box-130.pid", "tres/box.tpa"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", FUZZ_SAMPLES, files[i]);
        load(path);
    }
    if (!sample_count) abort();
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    const sample *s = &samples[data[0] % sample_count];
    rb_error err;
    rb_patch *patch = rb_patch_parse((const char *)data + 1, size - 1, "fuzz", &err);
    if (!patch) {
        if (!err.message[0]) abort();
        return 0;
    }
    const rb_patch *const patches[1] = {patch};
    rb_apply_options model = {0}, whole = {.whole_model = 1};
    rb_apply_result a, b;
    rb_error ea, eb;
    rb_status sa = rb_apply(s->data, s->size, "fuzz", patches, 1, &model, &a, &ea);
    rb_status sb = rb_apply(s->data, s->size, "fuzz", patches, 1, &whole, &b, &eb);
    if ((sa == RB_OK) != (sb == RB_OK)) abort();                /* one path accepts what the other refuses */
    if (sa != RB_OK && (!ea.message[0] || !eb.message[0])) abort(); /* every refusal says why */
    if (sa == RB_OK && (a.size != b.size || memcmp(a.bytes, b.bytes, a.size) != 0)) abort();
    if (sa == RB_OK) rb_apply_result_free(&a);
    if (sb == RB_OK) rb_apply_result_free(&b);
    rb_patch_free(patch);
    return 0;
}
