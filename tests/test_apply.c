/*
 * rb_apply's two paths agree: every sample patch on every sample file of its folder (and, with
 * the corpus, the cookbook on every corpus map and the format samples on every corpus file of
 * their format) is applied once as the library does it (on the model where it can) and once on
 * the whole model (the JSON path). Both must accept or both refuse, with the same message; when
 * they accept, the bytes must be the same. A patch of scalar replaces and tests must not need
 * the whole model (that is what makes an edit cost what it touches).
 *
 * Usage: test_apply SOURCE_DIR [SHARED_DIR]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "test_util.h"
#include "rebyte.h"
#include "core/doc.h"
#include "core/json.h"

typedef struct totals {
    size_t cases, accepted, on_model, diffs;
    size_t model_only; /* taken by the model path alone: an id of another era, a float as shown */
} totals;

/* Files up to this size also have their diff checked, by identity up to the second size
 * (tests/test_diff_law.c checks both on every corpus file, under the label long). */
enum { DIFF_CHECK_MAX = 64 * 1024 * 1024, IDENTITY_CHECK_MAX = 1024 * 1024 };

/* The diff of the patched file re-applies: apply(diff(A, B), A) gives B's bytes, plain and by
 * identity. */
static void check_diff(const char *file, const char *patch_file, const uint8_t *a, size_t na, const uint8_t *b,
                       size_t nb, totals *t)
{
    rb_error err;
    rb_doc *da = rb_doc_parse(a, na, NULL, &err), *db = rb_doc_parse(b, nb, NULL, &err);
    CHECK(da && db, "%s / %s: cannot parse for the diff check", file, patch_file);
    unsigned last = na <= IDENTITY_CHECK_MAX ? RB_DIFF_BY_IDENTITY : 0;
    for (unsigned flags = 0; da && db && flags <= last; flags += RB_DIFF_BY_IDENTITY) {
        char *text = NULL;
        size_t count = 0;
        rb_patch *patch = NULL;
        rb_apply_result result = {0};
        int ok = rb_doc_diff(da, a, na, db, flags, &text, &count, &err) == RB_OK &&
                 (patch = rb_patch_parse(text, strlen(text), "the diff", &err)) != NULL;
        const rb_patch *const patches[1] = {patch};
        ok = ok && rb_apply(a, na, file, patches, 1, NULL, &result, &err) == RB_OK;
        CHECK(ok && result.size == nb && memcmp(result.bytes, b, nb) == 0,
              "%s / %s: the diff%s (%zu ops) does not give the patched file back: %s", file, patch_file,
              flags ? " by identity" : "", count, ok ? "other bytes" : err.message);
        CHECK(count > 0, "%s / %s: the diff sees no change", file, patch_file);
        rb_apply_result_free(&result);
        rb_patch_free(patch);
        free(text);
    }
    t->diffs++;
    rb_doc_free(da);
    rb_doc_free(db);
}

/* Only tests and replaces of values (no structure): the model path must take it. */
static int scalar_only(const char *patch_text)
{
    json_t *j = json_loads(patch_text, 0, NULL);
    json_t *ops = json_is_array(j) ? j : json_object_get(j, "operations");
    int scalar = json_array_size(ops) > 0;
    for (size_t i = 0; i < json_array_size(ops); i++) {
        json_t *op = json_array_get(ops, i), *v = json_object_get(op, "value");
        const char *kind = json_string_value(json_object_get(op, "op"));
        if (!kind || (strcmp(kind, "replace") != 0 && strcmp(kind, "test") != 0) || json_is_object(v) || json_is_array(v))
            scalar = 0;
    }
    json_decref(j);
    return scalar;
}

static void check_case(const char *file, const char *patch_file, totals *t)
{
    size_t size = 0, patch_size = 0;
    uint8_t *data = test_read_file(file, &size), *text = test_read_file(patch_file, &patch_size);
    rb_error err;
    rb_patch *patch = text ? rb_patch_parse((const char *)text, patch_size, patch_file, &err) : NULL;
    if (!data || !patch) {
        CHECK(0, "%s / %s: cannot read the case", file, patch_file);
        goto done;
    }
    const rb_patch *const patches[1] = {patch};
    rb_apply_options on_model = {0}, whole = {.whole_model = 1};
    rb_apply_result a, b;
    rb_error ea, eb;
    rb_status sa = rb_apply(data, size, file, patches, 1, &on_model, &a, &ea);
    rb_status sb = rb_apply(data, size, file, patches, 1, &whole, &b, &eb);
    t->cases++;
    /* A refusal on the model is final (patch/apply.c): what the whole-model path takes, the model
     * path takes too. The model path alone matches selectors by the field's wire type and ids of
     * every era (patch/model_select.c), so it takes some patches the whole-model path refuses. */
    CHECK(sa == RB_OK || sb != RB_OK, "%s / %s: only the whole-model path accepts (%s)", file, patch_file, ea.message);
    if (sa != RB_OK) CHECK(ea.message[0] != 0, "%s / %s: refused without a reason", file, patch_file);
    if (sa == RB_OK && sb != RB_OK) {
        t->model_only++;
        if (getenv("TEST_APPLY_VERBOSE")) printf("model path only: %s / %s: %s\n", file, patch_file, eb.message);
        rb_apply_result_free(&a);
        goto done;
    }
    if (sa == RB_OK && sb == RB_OK) {
        t->accepted++;
        t->on_model += !a.whole_model;
        if (getenv("TEST_APPLY_VERBOSE") && a.whole_model)
            printf("whole model: %s / %s: %s\n", file, patch_file, a.whole_model_reason);
        CHECK(b.whole_model, "%s / %s: whole_model was asked for", file, patch_file);
        CHECK(a.size == b.size && memcmp(a.bytes, b.bytes, a.size) == 0, "%s / %s: the two paths wrote different bytes",
              file, patch_file);
        CHECK(!a.whole_model || !scalar_only((const char *)text),
              "%s / %s: a patch of scalar replaces needed the whole model", file, patch_file);
        if (size <= DIFF_CHECK_MAX && !(a.size == size && memcmp(a.bytes, data, size) == 0))
            check_diff(file, patch_file, data, size, a.bytes, a.size, t);
    }
    if (sa == RB_OK) rb_apply_result_free(&a);
    if (sb == RB_OK) rb_apply_result_free(&b);
done:
    rb_patch_free(patch);
    free(data);
    free(text);
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Names in a folder, sorted; patches (*.patch.json) or inputs (not *.json, not README). */
static size_t list_folder(const char *dir, int patches, char ***out)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    *out = NULL;
    if (n < 0) return 0;
    char **list = calloc((size_t)n + 1, sizeof(char *));
    size_t count = 0;
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        int is_patch = has_suffix(name, ".patch.json");
        int is_input = names[i]->d_type != DT_DIR && !has_suffix(name, ".json") && !has_suffix(name, ".md") && name[0] != '.' &&
                       !has_suffix(name, "MANIFEST");
        if (list && (patches ? is_patch : is_input) && asprintf(&list[count], "%s/%s", dir, name) > 0) count++;
        free(names[i]);
    }
    free(names);
    *out = list;
    return count;
}

static void free_list(char **list, size_t n)
{
    for (size_t i = 0; i < n; i++) free(list[i]);
    free(list);
}

/* Every patch of `patch_dir` on every input of `input_dir`. */
static void cross(const char *patch_dir, const char *input_dir, totals *t)
{
    char **patches, **inputs;
    size_t np = list_folder(patch_dir, 1, &patches), ni = list_folder(input_dir, 0, &inputs);
    for (size_t i = 0; i < ni; i++)
        for (size_t p = 0; p < np; p++) check_case(inputs[i], patches[p], t);
    free_list(patches, np);
    free_list(inputs, ni);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_apply SOURCE_DIR [SHARED_DIR]\n");
        return 64;
    }
    static const char *const sample_dirs[] = {"gbx", "gbx_item", "gbx_mapextra", "gbx_mediatracker", "datawin", "streamer",
                                              "tres"};
    totals t = {0};
    char a[4096], b[4096];
    for (size_t i = 0; i < sizeof sample_dirs / sizeof *sample_dirs; i++) {
        snprintf(a, sizeof a, "%s/samples/%s", argv[1], sample_dirs[i]);
        cross(a, a, &t);
    }
    snprintf(a, sizeof a, "%s/samples/gbx/cookbook", argv[1]);
    snprintf(b, sizeof b, "%s/samples/gbx", argv[1]);
    cross(a, b, &t);
    printf("samples: %zu cases, %zu applied, %zu of them on the model, %zu diffs checked\n", t.cases, t.accepted,
           t.on_model, t.diffs);
    CHECK(t.on_model > 0, "no sample patch was applied on the model");
    if (argc > 2) {
        totals c = {0};
        snprintf(b, sizeof b, "%s/corpus/gbx", argv[2]);
        cross(a, b, &c);
        static const char *const pairs[][2] = {{"datawin", "datawin"}, {"tres", "tres"}};
        for (size_t i = 0; i < 2; i++) {
            snprintf(a, sizeof a, "%s/samples/%s", argv[1], pairs[i][0]);
            snprintf(b, sizeof b, "%s/corpus/%s", argv[2], pairs[i][1]);
            cross(a, b, &c);
        }
        printf("corpus: %zu cases, %zu applied, %zu of them on the model, %zu diffs checked, %zu taken by the model "
               "path alone\n", c.cases, c.accepted, c.on_model, c.diffs, c.model_only);
        CHECK(c.on_model > 0, "no corpus patch was applied on the model");
        /* the TM 2003-2006 maps of the corpus store legacy chunk ids: the cookbook names current ones */
        CHECK(c.model_only > 0, "no legacy-era corpus map took a patch written with current ids");
    }
    printf("%s\n", test_failures ? "FAILED" : "ok");
    return test_failures ? 1 : 0;
}
