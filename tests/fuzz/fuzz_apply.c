/*
 * libFuzzer harness for the patch engine: the input is a byte choosing one of the project's
 * sample files (FUZZ_SAMPLES) followed by a patch's JSON text. The patch is applied as the
 * library does it (on the model; units the description builds, patch/model_draft.c): a refusal
 * must say why, and what is accepted must read back and write again to the same bytes. A crash, a
 * leak, a sanitizer finding or abort() here is a bug of the engine (patch/model_edit.c,
 * patch/model_draft.c) or of the comparison that checks it (core/model/model_equal.c). An operation on
 * an annotation (a `$` member in its path or "from", docs/usage.md "Annotations in patches")
 * must be refused, but for the removal of a stream's $stream or $stream/original: the harness
 * spots them in the patch itself, apart from the engine's check (patch/apply_annotations.c).
 * Seeds with such operations: tests/fuzz/apply_seeds (first byte: the sample).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
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

/* Does `pointer` name a `$` member, other than what a removal may take (a stream's "$stream" or
 * "$stream/original", at its end)? Tokens split at '/', a selector "[...]" taken whole. */
static int names_annotation(const char *pointer, int removal)
{
    if (!pointer) return 0;
    for (const char *p = pointer; *p == '/';) {
        const char *token = ++p;
        if (*p == '[') while (*p && *p != ']') p++;
        while (*p && *p != '/') p++;
        if (*token != '$') continue;
        int stream = p - token == 7 && strncmp(token, "$stream", 7) == 0;
        int taken = !*p || strcmp(p, "/original") == 0;
        return !(removal && stream && taken);
    }
    return 0;
}

/* An operation of the patch text that had to be refused: on an annotation. */
static int has_annotation_op(const char *text, size_t size)
{
    json_t *patch = json_loadb(text, size, JSON_ALLOW_NUL, NULL), *op;
    json_t *ops = json_is_array(patch) ? patch : json_object_get(patch, "operations");
    size_t i;
    int found = 0;
    json_array_foreach(ops, i, op) {
        const char *kind = json_string_value(json_object_get(op, "op"));
        int removal = kind && strcmp(kind, "remove") == 0;
        found |= names_annotation(json_string_value(json_object_get(op, "path")), removal) ||
                 names_annotation(json_string_value(json_object_get(op, "from")), 0);
    }
    json_decref(patch);
    return found;
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
    rb_apply_result a = RB_APPLY_RESULT_INIT;
    rb_error ea;
    rb_status sa = rb_apply(s->data, s->size, "fuzz", patches, 1, NULL, &a, &ea);
    if (sa != RB_OK && !ea.message[0]) abort(); /* every refusal says why */
    if (sa == RB_OK && has_annotation_op((const char *)data + 1, size - 1)) abort(); /* an annotation edited */
    if (sa == RB_OK) {
        rb_doc *doc = rb_doc_parse(a.bytes, a.bytes_size, NULL, &ea);
        uint8_t *again = NULL;
        size_t again_size = 0;
        if (!doc || rb_doc_write(doc, NULL, &again, &again_size, &ea) != RB_OK) abort(); /* it reads and writes back */
        if (again_size != a.bytes_size || memcmp(again, a.bytes, a.bytes_size) != 0) abort();
        rb_free(again);
        rb_doc_free(doc);
        rb_apply_result_free(&a);
    }
    rb_patch_free(patch);
    return 0;
}
