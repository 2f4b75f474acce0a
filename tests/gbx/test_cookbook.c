/*
 * The cookbook patches (samples/gbx/cookbook) on the sample map and on every GBX file of the
 * folders given (the corpus: maps, and items, replays and clips, counted apart; the public test
 * world's maps), through rb_apply: where a patch's targets exist, it applies, the
 * result writes and re-reads exactly (a second write is byte-identical), and the re-read model is
 * exactly the original model with the operations `rb_patch_resolve` says the patch carries out
 * (selectors as indexes, "each" one operation per match, "offset" a replace with the computed
 * value, names as paths) and the operations the format declares to keep the data beside a list
 * in step (rb_format.in_step: a block's colour, an item's snapping entry) - the edit and
 * nothing else. Where it does not apply, the refusal must say why: a game rule it would break
 * (RB_E_RULE, counted by rule), or the patch's own reason (a target the map does not have, a
 * value that does not fit: RB_E_MODEL). Any other outcome (a result that does not verify, an
 * internal error, a refusal without a message) fails the test. The outcomes are counted per patch.
 * On the two files read for that, a patch of scalar replaces builds no unit and, on the first
 * folder's files (the corpus), a changed output's diff re-applies to its bytes
 * (tests/patch/apply_checks.h, the checks apply_paths makes on the samples): each corpus file is
 * read once for every check, not once a test.
 * The maps of the folders are taken REBYTE_TEST_JOBS at a time, the largest first
 * (tests/test_parallel.h); a map's counts are its own until added to the totals under a lock.
 *
 * Usage: test_cookbook COOKBOOK_DIR SAMPLE_MAP [CORPUS_DIR [MAP_DIR...]]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_parallel.h"
#include "tests/test_util.h"
#include "rebyte.h"
#include "core/doc/doc.h"
#include "core/json/json.h"
#include "patch/in_step.h"
#include "patch/jsonpatch.h"
#include "patch/pins.h"
#include "tests/patch/apply_checks.h"

enum { MAX_PATCHES = 64 };

typedef struct totals {
    size_t applied, refused, by_rule, failed;
    size_t diffs; /* applied with a change, and the diff of the output re-applied (apply_checks.h) */
    int check_diffs; /* this file's diffs are checked: the corpus's (the samples' are apply_paths',
                        the public maps' diff_law_copies') */
    char refused_names[1024];
    /* per patch: applied, refused by a rule, refused for the patch's own reason */
    size_t patch_applied[MAX_PATCHES], patch_by_rule[MAX_PATCHES], patch_refused[MAX_PATCHES];
    size_t patch_changed[MAX_PATCHES]; /* applied with at least one operation ("each" may match none) */
    char patch_rules[MAX_PATCHES][160]; /* the rules that refused it, each once */
} totals;

static void note_refusal(totals *t, size_t patch, const char *patch_name, const rb_error *err)
{
    t->refused++;
    size_t len = strlen(t->refused_names);
    if (len < 600) snprintf(t->refused_names + len, sizeof t->refused_names - len, "%s ", patch_name);
    if (err && err->status == RB_E_RULE) {
        t->by_rule++;
        t->patch_by_rule[patch]++;
        /* "... breaks the game rule NAME at ..." */
        const char *rule = strstr(err->message, "game rule ");
        char name[64] = "?";
        if (rule) sscanf(rule + 10, "%63[^ ]", name);
        if (!strstr(t->patch_rules[patch], name)) {
            size_t used = strlen(t->patch_rules[patch]);
            snprintf(t->patch_rules[patch] + used, sizeof t->patch_rules[patch] - used, "%s ", name);
        }
    } else {
        t->patch_refused[patch]++;
    }
}

/* Content view of a model: blobs inline, stream annotations dropped, and without the header,
 * whose chunks hold the writer's copies of body facts and the deviations of those copies the file
 * had (an XML name's escape): an edit of the body rightly drops a deviation of the copy it
 * changes, and the copies are checked by gbx_header_copies_public and the header-copies rule. */
/* The index of each node a reference defines ({"index", "classId", ...}) and the node count are
 * the writer's to give (a copied element gets fresh ones, docs/formats/gbx.md "Node references");
 * the in-step operations computed on the original model cannot number several copies, so they are not
 * compared here (the copy law, tests/gbx/test_copy_law.c, checks them through exact writes). */
static void drop_node_indices(json_t *j)
{
    size_t i;
    const char *key;
    json_t *v;
    if (json_is_array(j)) json_array_foreach(j, i, v) drop_node_indices(v);
    if (!json_is_object(j)) return;
    if (json_object_get(j, "classId")) json_object_del(j, "index");
    json_object_foreach(j, key, v) drop_node_indices(v);
}

static json_t *content_json(const rb_doc *doc)
{
    json_t *j = rb_model_to_json(doc, doc->root, RB_BLOBS_BASE64);
    rb_json_strip_storage(j);
    json_object_del(j, "headerChunks");
    return j;
}

/* The operations the format adds to keep the data beside a list in step (rb_format.in_step),
 * computed on the original model: every cookbook patch changes one list element at most. */
static int add_in_step(const rb_doc *doc, const json_t *resolved, json_t **expected, char *why, size_t why_size)
{
    rb_model_view view = in_step_model_view(doc);
    for (size_t i = 0; i < json_array_size(resolved); i++) {
        const json_t *op = json_array_get(resolved, i);
        json_t *more = in_step_ops_for(doc->format, &view, op, json_string_value(json_object_get(op, "path")),
                                      json_string_value(json_object_get(op, "from")));
        int rc = more ? rb_json_patch_apply_in_place(expected, more, why, why_size) : 0;
        json_decref(more);
        if (rc) return rc;
    }
    return 0;
}

/* The file rb_apply makes of the map with `patch`, re-read; NULL (and a note) when refused. */
static rb_doc *apply_through_library(const uint8_t *data, size_t size, const char *map, size_t patch_index,
                                     const char *patch_name, const json_t *patch, uint8_t **bytes, size_t *n,
                                     totals *t)
{
    char *text = json_dumps(patch, JSON_COMPACT);
    rb_error err;
    rb_patch *p = rb_patch_parse(text, strlen(text), patch_name, &err);
    free(text);
    const rb_patch *const patches[1] = {p};
    rb_apply_result r = RB_APPLY_RESULT_INIT;
    rb_status st = p ? rb_apply(data, size, map, patches, 1, NULL, &r, &err) : RB_E_USAGE;
    rb_patch_free(p);
    CHECK(st != RB_OK || !r.drafts || !apply_scalar_only(patch), "%s / %s: a patch of scalar replaces built %s", map,
          patch_name, r.first_draft);
    if (st != RB_OK) {
        if (err.message[0] && (st == RB_E_RULE || st == RB_E_MODEL)) note_refusal(t, patch_index, patch_name, &err);
        else { printf("FAIL %s %s: status %d: %s\n", map, patch_name, (int)st, err.message); t->failed++; }
        return NULL;
    }
    *bytes = r.bytes;
    *n = r.bytes_size;
    rb_doc *again = rb_doc_parse(r.bytes, r.bytes_size, &(rb_read_options){.file_name = map}, &err);
    if (!again) { printf("FAIL %s %s: output does not re-read: %s\n", map, patch_name, err.message); t->failed++; }
    return again;
}

/* What the patch carries out on this map, as plain operations (rb_patch_resolve); NULL with
 * `why` when it does not apply. */
static json_t *resolved_ops(const rb_doc *doc, const char *patch_name, const json_t *patch, char *why, size_t why_size)
{
    char *text = json_dumps(patch, JSON_COMPACT), *plain = NULL;
    rb_error err = {0};
    rb_patch *p = text ? rb_patch_parse(text, strlen(text), patch_name, &err) : NULL;
    json_t *ops = NULL;
    if (p && rb_patch_resolve(doc, p, &plain, &err) == RB_OK) ops = json_loads(plain, 0, NULL);
    snprintf(why, why_size, "%s", err.message);
    rb_free(plain);
    rb_patch_free(p);
    free(text);
    return ops;
}

/* A patch that applied exactly: counted, and on the corpus its diff's law checked on the two
 * files read here (tests/patch/test_apply.c checks it on the samples). */
static void note_applied(const char *map, const uint8_t *data, size_t size, const rb_doc *doc, const rb_doc *again,
                         const uint8_t *out, size_t n, size_t patch_index, const char *patch_name, int changed,
                         totals *t)
{
    t->applied++;
    t->patch_applied[patch_index]++;
    t->patch_changed[patch_index] += changed;
    if (t->check_diffs && apply_diff_checked(patch_name, data, size, out, n)) {
        apply_check_diff(map, patch_name, doc, data, size, again, out, n);
        t->diffs++;
    }
}

/* Whether the re-read model is the original content view with the expected operations applied. */
static int is_expected(rb_doc *again, json_t *expected)
{
    json_t *got = content_json(again);
    drop_node_indices(got);
    drop_node_indices(expected);
    json_object_del(got, "numNodes");
    json_object_del(expected, "numNodes");
    int same = rb_values_equal(got, expected);
    json_decref(got);
    return same;
}

static void check_patch(const char *map, const uint8_t *data, size_t size, rb_doc *doc, const json_t *content_view,
                        size_t patch_index, const char *patch_name, const json_t *patch, totals *t)
{
    json_t *expected = NULL;
    char why[2048];
    uint8_t *out = NULL, *out2 = NULL;
    size_t n = 0, n2 = 0;
    rb_doc *again = NULL;
    rb_error err;
    json_t *resolved = resolved_ops(doc, patch_name, patch, why, sizeof why);
    if (!resolved) { /* the library must refuse it too, saying why */
        again = apply_through_library(data, size, map, patch_index, patch_name, patch, &out, &n, t);
        if (again) { printf("FAIL %s %s: resolve refuses (%s), apply does not\n", map, patch_name, why); t->failed++; }
        goto done;
    }
    /* expected: the original content with the same (resolved) operations and their in-step operations */
    /* in-step operations after the operations: a copied element's node index goes to it once it is there */
    /* in place: the copy rb_json_patch_apply makes (all or nothing) is of no use to a check that
     * discards `expected` on failure, and a copy per in-step operation made "each" quadratic */
    int no_op = json_array_size(resolved) == 0;
    if (!no_op && ((expected = json_deep_copy(content_view)) == NULL ||
                   rb_json_patch_apply_in_place(&expected, resolved, why, sizeof why) != 0 ||
                   add_in_step(doc, resolved, &expected, why, sizeof why) != 0)) {
        printf("FAIL %s %s: resolved patch does not apply to the content view: %s\n", map, patch_name, why);
        t->failed++;
        goto done;
    }
    again = apply_through_library(data, size, map, patch_index, patch_name, patch, &out, &n, t);
    if (!again) goto done;
    /* no operation, and the input's bytes out: the re-read is the original model (the same bytes
     * read), so its JSON is not built and compared with the original's again; other bytes for no
     * operation are compared with the original as any output is */
    int unchanged = no_op && n == size && memcmp(out, data, size) == 0;
    if (rb_doc_write(again, NULL, &out2, &n2, &err) != RB_OK || n2 != n || memcmp(out, out2, n) != 0) {
        printf("FAIL %s %s: output does not round-trip exactly\n", map, patch_name);
        t->failed++;
    } else if (!unchanged && !expected && !(expected = json_deep_copy(content_view))) {
        printf("FAIL %s %s: out of memory\n", map, patch_name);
        t->failed++;
    } else if (!unchanged && !is_expected(again, expected)) {
        printf("FAIL %s %s: the re-read model is not the original plus the patch\n", map, patch_name);
        t->failed++;
    } else {
        note_applied(map, data, size, doc, again, out, n, patch_index, patch_name, !no_op, t);
    }
done:
    rb_doc_free(again);
    free(out);
    free(out2);
    json_decref(resolved);
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
        json_t *content_view = content_json(doc);
        for (size_t i = 0; i < count; i++) check_patch(base, data, size, doc, content_view, i, names[i], patches[i], t);
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

/* `from`'s counts added to `into`'s, each rule name once. */
static void add_totals(totals *into, const totals *from)
{
    into->applied += from->applied, into->refused += from->refused;
    into->by_rule += from->by_rule, into->failed += from->failed, into->diffs += from->diffs;
    for (size_t i = 0; i < MAX_PATCHES; i++) {
        into->patch_applied[i] += from->patch_applied[i], into->patch_by_rule[i] += from->patch_by_rule[i];
        into->patch_refused[i] += from->patch_refused[i], into->patch_changed[i] += from->patch_changed[i];
        char rules[160], *rest = NULL;
        snprintf(rules, sizeof rules, "%s", from->patch_rules[i]);
        for (char *name = strtok_r(rules, " ", &rest); name; name = strtok_r(NULL, " ", &rest)) {
            size_t used = strlen(into->patch_rules[i]);
            if (!strstr(into->patch_rules[i], name))
                snprintf(into->patch_rules[i] + used, sizeof into->patch_rules[i] - used, "%s ", name);
        }
    }
}

/* The folders' sweep: the patches, and the totals the maps and the other GBX files (items,
 * replays, clips: the patches find no target there, or break a rule) add to
 * (test_each_file_parallel's callback takes the path alone). */
static struct {
    json_t **patches;
    char **names;
    const char *corpus; /* the first folder: its files' diffs are checked */
    size_t count, maps, others;
    totals sum, others_sum;
    pthread_mutex_t lock;
} sweep = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void sweep_map(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t n = strlen(base);
    if (n < 4 || strcasecmp(base + n - 4, ".Gbx") != 0) return; /* MANIFEST.tsv */
    totals *mine = calloc(1, sizeof *mine);
    if (!mine) return;
    mine->check_diffs = sweep.corpus && strncmp(path, sweep.corpus, strlen(sweep.corpus)) == 0;
    run_map(path, sweep.patches, sweep.names, sweep.count, mine);
    pthread_mutex_lock(&sweep.lock);
    add_totals(is_map(base) ? &sweep.sum : &sweep.others_sum, mine);
    *(is_map(base) ? &sweep.maps : &sweep.others) += 1;
    pthread_mutex_unlock(&sweep.lock);
    free(mine);
}

/* Every GBX file of the folders given (a folder that is absent noted, not failed); the number of
 * maps walked. */
static size_t run_folders(char **dirs, int count, json_t **patches, char **names, size_t patch_count)
{
    char *present[64];
    int n = 0;
    for (int i = 0; i < count && n < 64; i++) {
        struct stat st;
        if (stat(dirs[i], &st) == 0 && S_ISDIR(st.st_mode)) present[n++] = dirs[i];
        else printf("note: map folder %s not found (set REBYTE_SHARED)\n", dirs[i]);
    }
    sweep.patches = patches, sweep.names = names, sweep.count = patch_count;
    sweep.corpus = count > 0 ? dirs[0] : NULL;
    test_each_file_parallel(present, n, sweep_map);
    return sweep.maps;
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    /* each patch's check builds and frees two whole-map JSON trees (millions of small blocks):
     * glibc's fast bins then consolidate on every large request, about 15% of the CPU on a 1 MB
     * map; without them a freed block goes straight back (measured: tests/README.md) */
    mallopt(M_MXFAST, 0);
    json_t *patches[MAX_PATCHES];
    char *names[MAX_PATCHES];
    size_t count = 0;
    DIR *d = opendir(argv[1]);
    struct dirent *e;
    while (d && (e = readdir(d)) && count < MAX_PATCHES) {
        if (!strstr(e->d_name, ".patch.json")) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        json_error_t jerr;
        patches[count] = json_load_file(path, 0, &jerr);
        if (!patches[count]) { printf("FAIL %s: %s\n", path, jerr.text); return 1; }
        names[count++] = strdup(e->d_name);
    }
    if (d) closedir(d);
    static totals sample;
    totals *corpus = &sweep.sum;
    run_map(argv[2], patches, names, count, &sample);
    printf("cookbook: sample map: %zu/%zu patches applied exactly, %zu refused, %zu failed\n", sample.applied, count,
           sample.refused, sample.failed);
    /* the sample (a version-7 items map) takes every cookbook patch */
    int ok = sample.failed == 0 && sample.applied == count;
    if (!ok) printf("FAIL sample: refused: %s\n", sample.refused_names);
    if (argc > 3) {
        size_t maps = run_folders(argv + 3, argc - 3, patches, names, count);
        const totals *others = &sweep.others_sum;
        printf("cookbook: %zu other GBX files x %zu patches: %zu applied exactly, %zu refused by a game rule, %zu "
               "refused by the patch, %zu failed\n", sweep.others, count, others->applied, others->by_rule,
               others->refused - others->by_rule, others->failed);
        printf("cookbook: %zu maps x %zu patches: %zu applied exactly, %zu refused by a game rule, %zu refused by the "
               "patch (target absent, value out of range), %zu failed\n", maps, count, corpus->applied, corpus->by_rule,
               corpus->refused - corpus->by_rule, corpus->failed);
        for (size_t i = 0; i < count; i++)
            printf("  %-32s applied %4zu (%4zu with a change)  refused by a rule %3zu %s refused by the patch %3zu\n",
                   names[i], corpus->patch_applied[i], corpus->patch_changed[i], corpus->patch_by_rule[i],
                   corpus->patch_rules[i], corpus->patch_refused[i]);
        printf("cookbook: %zu diffs of an output re-applied to its bytes (plain, and by identity up to 1 MiB)\n",
               corpus->diffs + others->diffs);
        ok = ok && corpus->failed == 0 && others->failed == 0;
    }
    for (size_t i = 0; i < count; i++) { json_decref(patches[i]); free(names[i]); }
    return ok && test_failures == 0 ? 0 : 1;
}
