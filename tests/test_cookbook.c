/*
 * The cookbook patches (samples/gbx/cookbook) on the sample map and on every corpus map:
 * where a patch's targets exist, it applies, the result writes and re-reads exactly (a second
 * write is byte-identical), and the re-read model is exactly the original model with the patch
 * applied — the edit and nothing else. Where a target does not exist (a map without items,
 * an old map without medals chunk 004...), the patch must be refused with a message.
 *
 * Usage: test_cookbook COOKBOOK_DIR SAMPLE_MAP [CORPUS_GBX_DIR]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"
#include "core/doc.h"
#include "core/json.h"
#include "patch/jsonpatch.h"
#include "patch/selector.h"

typedef struct totals {
    size_t applied, refused, failed;
    char refused_names[512];
} totals;

static void note_refusal(totals *t, const char *patch_name)
{
    t->refused++;
    size_t len = strlen(t->refused_names);
    snprintf(t->refused_names + len, sizeof t->refused_names - len, "%s ", patch_name);
}

/* Content view of a model: blobs inline, stream annotations dropped. */
static json_t *content_json(const rb_doc *doc)
{
    json_t *j = rb_model_to_json(doc, doc->root, RB_BLOBS_BASE64);
    rb_json_strip_storage(j);
    return j;
}

static void check_patch(const char *map, rb_doc *doc, const json_t *model_view, const json_t *content_view,
                        const char *patch_name, const json_t *patch, totals *t)
{
    json_t *model = json_deep_copy(model_view);
    json_t *expected = json_deep_copy(content_view);
    json_t *resolved = NULL;
    char why[1200];
    if (rb_json_patch_apply_selectors(&model, patch, &resolved, why, sizeof why) != 0) {
        if (!why[0]) { printf("FAIL %s %s: refused without a message\n", map, patch_name); t->failed++; }
        else note_refusal(t, patch_name);
        goto done;
    }
    /* expected: the original content with the same (resolved) operations */
    if (rb_json_patch_apply(&expected, resolved, why, sizeof why) != 0) {
        printf("FAIL %s %s: resolved patch does not apply to the content view: %s\n", map, patch_name, why);
        t->failed++;
        goto done;
    }
    rb_error err;
    rb_doc *patched = rb_doc_from_json(doc->format, model, doc, map, &err);
    if (!patched) {
        /* a refusal by validation is legitimate (e.g. items chunk at version 7); it must say why */
        if (err.message[0]) note_refusal(t, patch_name);
        else { printf("FAIL %s %s: refused without a message\n", map, patch_name); t->failed++; }
        goto done;
    }
    uint8_t *out = NULL, *out2 = NULL;
    size_t n = 0, n2 = 0;
    rb_doc *again = NULL;
    if (rb_doc_write(patched, NULL, &out, &n, &err) != RB_OK) {
        printf("FAIL %s %s: write: %s\n", map, patch_name, err.message);
        t->failed++;
    } else if (!(again = rb_doc_parse_as(doc->format, out, n, &(rb_read_options){.file_name = map}, &err))) {
        printf("FAIL %s %s: output does not re-read: %s\n", map, patch_name, err.message);
        t->failed++;
    } else if (rb_doc_write(again, NULL, &out2, &n2, &err) != RB_OK || n2 != n || memcmp(out, out2, n) != 0) {
        printf("FAIL %s %s: output does not round-trip exactly\n", map, patch_name);
        t->failed++;
    } else {
        json_t *got = content_json(again);
        if (!rb_json_equal(got, expected)) {
            printf("FAIL %s %s: the re-read model is not the original plus the patch\n", map, patch_name);
            t->failed++;
        } else {
            t->applied++;
        }
        json_decref(got);
    }
    rb_doc_free(again);
    free(out);
    free(out2);
    rb_doc_free(patched);
done:
    json_decref(resolved);
    json_decref(model);
    json_decref(expected);
}

static void run_map(const char *path, json_t **patches, char **names, size_t count, totals *t)
{
    size_t size;
    uint8_t *data = test_read_file(path, &size);
    if (!data) return;
    rb_error err;
    rb_doc *doc = rb_doc_parse(data, size, &(rb_read_options){.file_name = path}, &err);
    if (doc) {
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        json_t *model_view = rb_model_to_json(doc, doc->root, RB_BLOBS_REF);
        json_t *content_view = content_json(doc);
        for (size_t i = 0; i < count; i++) check_patch(base, doc, model_view, content_view, names[i], patches[i], t);
        json_decref(model_view);
        json_decref(content_view);
        rb_doc_free(doc);
    }
    free(data);
}

static int is_map(const char *name)
{
    size_t n = strlen(name);
    return (n > 8 && strcmp(name + n - 8, ".Map.Gbx") == 0) || (n > 14 && strcmp(name + n - 14, ".Challenge.Gbx") == 0);
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    json_t *patches[64];
    char *names[64];
    size_t count = 0;
    DIR *d = opendir(argv[1]);
    struct dirent *e;
    while (d && (e = readdir(d)) && count < 64) {
        if (!strstr(e->d_name, ".patch.json")) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        json_error_t jerr;
        patches[count] = json_load_file(path, 0, &jerr);
        if (!patches[count]) { printf("FAIL %s: %s\n", path, jerr.text); return 1; }
        names[count++] = strdup(e->d_name);
    }
    if (d) closedir(d);
    totals sample = {0}, corpus = {0};
    run_map(argv[2], patches, names, count, &sample);
    printf("cookbook: sample map: %zu/%zu patches applied exactly, %zu refused, %zu failed\n", sample.applied, count,
           sample.refused, sample.failed);
    /* the sample is a version-7 items map without TM2020's per-block chunks: exactly these two
     * patches must be refused there, everything else must apply */
    static const char *const expected_refusals[] = {"delete-first-item.patch.json", "delete-first-block-tm2020.patch.json"};
    int ok = sample.failed == 0 && sample.applied + 2 == count;
    for (size_t i = 0; i < 2; i++)
        if (!strstr(sample.refused_names, expected_refusals[i])) {
            printf("FAIL sample: %s was expected to be refused\n", expected_refusals[i]);
            ok = 0;
        }
    if (argc > 3) {
        DIR *c = opendir(argv[3]);
        size_t maps = 0;
        while (c && (e = readdir(c))) {
            if (!is_map(e->d_name)) continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[3], e->d_name);
            run_map(path, patches, names, count, &corpus);
            maps++;
        }
        if (c) closedir(c);
        if (!c) printf("note: corpus folder %s not found (set REBYTE_SHARED)\n", argv[3]);
        printf("cookbook: %zu corpus maps x %zu patches: %zu applied exactly, %zu refused (target absent or "
               "not typed), %zu failed\n", maps, count, corpus.applied, corpus.refused, corpus.failed);
        ok = ok && corpus.failed == 0;
    }
    for (size_t i = 0; i < count; i++) { json_decref(patches[i]); free(names[i]); }
    return ok ? 0 : 1;
}
