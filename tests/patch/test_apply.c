/*
 * rb_apply over every sample patch on every sample file of its folder and the cookbook on the GBX
 * samples (and, with the corpus, the format samples on every data.win and GROFF corpus file; the
 * cookbook on the GBX corpus is tests/gbx/test_cookbook.c's, with the same checks):
 * a refusal says why; what is accepted reads back and writes again to the same bytes (the
 * library's own re-read checked the model; this checks the file), and its diff re-applies to
 * the same bytes (plain and by identity). A patch of scalar replaces and tests builds no unit
 * through the description (patch/model_draft.c: that is what makes an edit cost what it touches).
 *
 * The cases of a folder (an input and a patch each) are taken REBYTE_TEST_JOBS at a time
 * (tests/test_parallel.h); a case's counts are its own until added to the totals under a lock.
 *
 * Usage: test_apply SOURCE_DIR [SHARED_DIR]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "tests/test_parallel.h"
#include "tests/test_util.h"
#include "rebyte.h"
#include "core/doc/doc.h"
#include "core/json/json.h"
#include "tests/patch/apply_checks.h"

typedef struct totals {
    size_t cases, accepted, on_nodes, diffs;
    size_t with_units; /* accepted with units the description built */
} totals;

/* The patched file reads back and writes again to its own bytes, and its diff re-applies
 * (tests/patch/apply_checks.h): the patched file and the input each read once for both. */
static void check_outcome(const char *file, const char *patch_file, const uint8_t *data, size_t size,
                          const uint8_t *bytes, size_t n, totals *t)
{
    rb_error err;
    rb_doc *doc = rb_doc_parse(bytes, n, NULL, &err);
    uint8_t *again = NULL;
    size_t again_size = 0;
    int ok = doc && rb_doc_write(doc, NULL, &again, &again_size, &err) == RB_OK;
    CHECK(ok && again_size == n && memcmp(again, bytes, n) == 0, "%s / %s: the patched file %s", file, patch_file,
          !doc ? "does not read back" : ok ? "writes other bytes" : "does not write again");
    rb_free(again);
    if (doc && apply_diff_checked(patch_file, data, size, bytes, n)) {
        rb_doc *original = rb_doc_parse(data, size, NULL, &err);
        CHECK(original != NULL, "%s / %s: cannot parse for the diff check", file, patch_file);
        if (original) apply_check_diff(file, patch_file, original, data, size, doc, bytes, n);
        t->diffs++;
        rb_doc_free(original);
    }
    rb_doc_free(doc);
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
    rb_apply_result a = RB_APPLY_RESULT_INIT;
    rb_error ea;
    rb_status sa = rb_apply(data, size, file, patches, 1, NULL, &a, &ea);
    t->cases++;
    if (sa != RB_OK) CHECK(ea.message[0] != 0, "%s / %s: refused without a reason", file, patch_file);
    if (sa == RB_OK) {
        t->accepted++;
        t->on_nodes += a.drafts == 0;
        t->with_units += a.drafts != 0;
        if (getenv("TEST_APPLY_VERBOSE") && a.drafts) printf("drafts: %s / %s: %d, first %s\n", file, patch_file, a.drafts, a.first_draft);
        json_t *patch_json = json_loads((const char *)text, 0, NULL);
        CHECK(!a.drafts || !apply_scalar_only(patch_json), "%s / %s: a patch of scalar replaces built %s", file,
              patch_file, a.first_draft);
        json_decref(patch_json);
        check_outcome(file, patch_file, data, size, a.bytes, a.bytes_size, t);
        rb_apply_result_free(&a);
    }
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

typedef struct crossing {
    char **patches, **inputs;
    size_t np;
    totals *t;
    pthread_mutex_t lock;
} crossing;

/* Case `index`: input index / np with patch index % np, its counts added under the lock. */
static void cross_case(void *context, size_t index)
{
    crossing *c = context;
    totals mine = {0};
    check_case(c->inputs[index / c->np], c->patches[index % c->np], &mine);
    pthread_mutex_lock(&c->lock);
    c->t->cases += mine.cases, c->t->accepted += mine.accepted, c->t->on_nodes += mine.on_nodes;
    c->t->diffs += mine.diffs, c->t->with_units += mine.with_units;
    pthread_mutex_unlock(&c->lock);
}

/* Every patch of `patch_dir` on every input of `input_dir`. */
static void cross(const char *patch_dir, const char *input_dir, totals *t)
{
    crossing c = {.t = t, .lock = PTHREAD_MUTEX_INITIALIZER};
    c.np = list_folder(patch_dir, 1, &c.patches);
    size_t ni = list_folder(input_dir, 0, &c.inputs);
    test_run_parallel(ni * c.np, cross_case, &c);
    free_list(c.patches, c.np);
    free_list(c.inputs, ni);
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
    printf("samples: %zu cases, %zu applied (%zu on the nodes alone, %zu with units built), %zu diffs checked\n",
           t.cases, t.accepted, t.on_nodes, t.with_units, t.diffs);
    CHECK(t.on_nodes > 0, "no sample patch was applied on the nodes alone");
    if (argc > 2) {
        /* (the cookbook on every GBX corpus file is gbx_cookbook's, with these checks among its
         * own on the files it has read: tests/gbx/test_cookbook.c) */
        totals c = {0};
        static const char *const pairs[][2] = {{"datawin", "datawin"}, {"tres", "tres"}};
        for (size_t i = 0; i < 2; i++) {
            snprintf(a, sizeof a, "%s/samples/%s", argv[1], pairs[i][0]);
            snprintf(b, sizeof b, "%s/corpus/%s", argv[2], pairs[i][1]);
            cross(a, b, &c);
        }
        printf("corpus: %zu cases, %zu applied (%zu on the nodes alone, %zu with units built), %zu diffs checked\n",
               c.cases, c.accepted, c.on_nodes, c.with_units, c.diffs);
        CHECK(c.on_nodes > 0, "no corpus patch was applied on the nodes alone");
    }
    printf("%s\n", test_failures ? "FAILED" : "ok");
    return test_failures ? 1 : 0;
}
