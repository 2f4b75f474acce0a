/*
 * The law of adding (docs/usage.md "Adding is as safe as removing"; DESIGN.md 16): on every map, one
 * element of each kind that exists is copied — a waypoint block (a checkpoint, start, finish or
 * multilap), another block, an item to the end of its list and an item inserted at the list's
 * start — and then the result verifies exactly (written again, the same bytes), `check` finds
 * no refusal the map did not have, and `diff A B` and `diff --by-identity A B` are at most
 * MAX_DIFF operations each that, applied to A, give B's bytes; the plain diff is that one `copy`
 * (the node indices apply gives the copy do not hide its original).
 *
 * Figures are printed per era (by the map's header XML, else its chunks): maps, copies tried,
 * applied, exact, check ok, diff ok. A diff failure is counted apart from the others (the diff
 * engine matches equal elements; apply, the writer and the rules make the copy).
 *
 * The maps are taken REBYTE_TEST_JOBS at a time (tests/test_parallel.h): a map's figures are its
 * own until they are added to its era's under the lock; the once-per-run check of a duplicate
 * definition runs after them, on the first map in the files' order that has a waypoint.
 *
 * Usage: test_copy_law FILE|DIR...   (exit 77 when a path is absent: REBYTE_SHARED not set up)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "rebyte.h"
#include "core/json/json.h"
#include "tests/test_parallel.h"
#include "tests/test_util.h"

enum { MAX_DIFF = 3 };

enum { ERA_TM1, ERA_TMF, ERA_MP, ERA_TM2020, ERAS };
static const char *const ERA_NAME[ERAS] = {"TM 2003-2006 (TM, Sunrise, Original)", "TMF era (Nations, United, Forever)",
                                          "ManiaPlanet", "TM2020"};

typedef struct figures {
    size_t maps, tried, applied, exact, check_ok, diff_ok;
} figures;

static figures by_era[ERAS];
static pthread_mutex_t by_era_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t diff_failures, other_failures, diffs_as_copy; /* counted atomically */

static void count_one(size_t *counter) { __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED); }

/* ---------- the map ---------- */

/* The text of the first string in `v` (depth first) that holds `needle`, else NULL. */
static const char *string_with(const json_t *v, const char *needle)
{
    if (json_is_string(v)) return strstr(json_string_value(v), needle) ? json_string_value(v) : NULL;
    const char *key;
    const json_t *member;
    size_t i;
    if (json_is_array(v))
        json_array_foreach(v, i, member) {
            const char *found = string_with(member, needle);
            if (found) return found;
        }
    if (json_is_object(v))
        json_object_foreach((json_t *)v, key, member) {
            const char *found = string_with(member, needle);
            if (found) return found;
        }
    return NULL;
}

/* The map's body chunk whose number is `low` (current or legacy id), its index in *index; NULL
 * when the map has none. */
static rb_node *map_chunk(rb_doc *doc, unsigned low, size_t *index)
{
    rb_node *chunks = rb_node_at_edit(rb_doc_root(doc), "/body/chunks");
    for (size_t c = 0; chunks && c < rb_node_child_count(chunks); c++) {
        rb_node *chunk = rb_node_child_edit(chunks, c), *id = rb_node_member_edit(chunk, "id");
        uint64_t v = 0;
        if (!id || rb_node_get_uint(id, &v) != RB_OK || (v & 0xFFF) != low || ((v >> 12) != 0x03043 && (v >> 12) != 0x24003))
            continue;
        *index = c;
        return chunk;
    }
    return NULL;
}

/* The pointer of the list `key` of that chunk, with its element count; 0 when the map has none
 * or it is empty. */
static int map_list(rb_doc *doc, unsigned low, const char *key, char *path, size_t size, size_t *count)
{
    size_t c = 0;
    rb_node *list = rb_node_member_edit(map_chunk(doc, low, &c), key);
    if (!list || rb_node_kind_of(list) != RB_NODE_LIST || !rb_node_child_count(list)) return 0;
    snprintf(path, size, "/body/chunks/%zu/%s", c, key);
    *count = rb_node_child_count(list);
    return 1;
}

/* The era of the map: its header XML's exever (and TM2020's collection 26), else its chunk ids.
 * Only the two parts asked are turned into JSON, as the dump spells them (not the whole map). */
static int era_of(rb_doc *doc)
{
    int era = ERA_TM1;
    const rb_node *header_chunks = rb_node_member(rb_doc_root(doc), "headerChunks");
    json_t *header = header_chunks ? rb_model_to_json(doc, header_chunks, RB_BLOBS_OMIT) : NULL;
    const char *xml = string_with(header, "exever=\"");
    const char *exever = xml ? strstr(xml, "exever=\"") + 8 : NULL;
    size_t c = 0;
    const rb_node *block_data = map_chunk(doc, 0x01F, &c);
    const rb_node *map_info = block_data ? rb_node_member(block_data, "mapInfo") : NULL;
    /* the environment as the dump spells it (a collection number, or its name) */
    json_t *info = map_info ? rb_model_to_json(doc, map_info, RB_BLOBS_OMIT) : NULL;
    int stadium2020 = block_data && json_integer_value(json_object_get(info, "collection")) == 26;
    if (exever && exever[0] >= '3' && exever[0] <= '9') era = stadium2020 ? ERA_TM2020 : ERA_MP;
    else if ((exever && exever[0] == '2') || (!exever && block_data))
        era = ERA_TMF; /* without an XML, the block data of TMF and later */
    json_decref(info);
    json_decref(header);
    return era;
}

/* Is block `b` a waypoint? A waypoint property (ManiaPlanet, TM2020), else a name the games give
 * their checkpoints, starts, finishes and multilaps. */
static int is_waypoint(rb_node *b)
{
    if (rb_node_member(b, "waypointSpecialProperty")) return 1;
    rb_node *name = rb_node_member_edit(b, "name");
    const uint8_t *bytes = NULL;
    size_t size = 0;
    if (!name || rb_node_get_bytes(name, &bytes, &size) != RB_OK) return 0;
    char *text = strndup((const char *)bytes, size);
    int yes = text && (strstr(text, "Checkpoint") || strstr(text, "Start") || strstr(text, "Finish") ||
                       strstr(text, "Multilap") || strstr(text, "Gate"));
    free(text);
    return yes;
}

/* The first block that is (or is not) a waypoint: its index, or -1. */
static long find_block(rb_doc *doc, const char *path, int waypoint)
{
    rb_node *list = rb_node_at_edit(rb_doc_root(doc), path);
    for (size_t i = 0; list && i < rb_node_child_count(list); i++)
        if (is_waypoint(rb_node_child_edit(list, i)) == waypoint) return (long)i;
    return -1;
}

/* ---------- the law ---------- */

/* `ops` applied to `data`: the new file (rb_free) or NULL, with the reason in `why`. */

static void count_refusal(void *context, const rb_rule_violation *v)
{
    if (!v->warning) ++*(size_t *)context;
}

static size_t refusals(const rb_doc *doc)
{
    size_t n = 0;
    rb_error err;
    CHECK(rb_doc_check(doc, count_refusal, &n, NULL, &err) == RB_OK, "the rules run: %s", err.message);
    return n;
}

/* Is `ops` one `copy` (pins aside)? */
static int one_copy(const json_t *ops)
{
    for (size_t i = 0; i < json_array_size(ops); i++) {
        const char *kind = json_string_value(json_object_get(json_array_get(ops, i), "op"));
        if (strcmp(kind, "test") != 0) return test_changes(ops) == 1 && strcmp(kind, "copy") == 0;
    }
    return 0;
}

/* diff A B (plain, by identity) re-applied to A gives B, in at most MAX_DIFF operations; a plain
 * diff that is one `copy` is counted. */
static int diff_law(const char *name, const uint8_t *a, size_t na, rb_doc *da, const uint8_t *b, size_t nb,
                    rb_doc *db, const char *edit)
{
    int ok = 1;
    for (unsigned flags = RB_DIFF_PLAIN; flags <= (RB_DIFF_PLAIN | RB_DIFF_BY_IDENTITY); flags++) {
        const char *how = flags & RB_DIFF_BY_IDENTITY ? " --by-identity" : "";
        char *text = NULL, why[2048] = "";
        size_t count = 0, got_size = 0;
        rb_error err;
        if (rb_doc_diff(da, a, na, db, flags, &text, &count, &err) != RB_OK) {
            fprintf(stderr, "DIFF %s: diff%s fails after %s: %s\n", name, how, edit, err.message);
            ok = 0;
            continue;
        }
        json_t *ops = json_loads(text, JSON_ALLOW_NUL, NULL);
        char *ops_text = ops ? json_dumps(ops, JSON_COMPACT) : NULL;
        uint8_t *got = ops_text ? test_apply_text(name, a, na, ops_text, &got_size, why, sizeof why) : NULL;
        if (!got || got_size != nb || memcmp(got, b, nb) != 0) {
            fprintf(stderr, "DIFF %s: apply(diff%s(A, B), A) is not B (%s) after %s; the diff: %.400s\n", name, how,
                    got ? "other bytes" : why, edit, text);
            ok = 0;
        } else if (test_changes(ops) > MAX_DIFF) {
            fprintf(stderr, "DIFF %s: diff%s of %s is %zu operations: %.400s\n", name, how, edit, test_changes(ops), text);
            ok = 0;
        } else if (!(flags & RB_DIFF_BY_IDENTITY) && one_copy(ops)) {
            count_one(&diffs_as_copy);
        } else if (!(flags & RB_DIFF_BY_IDENTITY)) {
            fprintf(stderr, "NOT A COPY %s: diff of %s: %.400s\n", name, edit, text);
        }
        rb_free(got);
        free(ops_text);
        json_decref(ops);
        rb_free(text);
    }
    return ok;
}

/* One copy on map A: applied, exact, check ok, diff ok; counted in `f`. */
static void copy_law(const char *name, const uint8_t *a, size_t na, rb_doc *da, size_t refusals_before, const char *from,
                     const char *to, figures *f)
{
    char ops[800], edit[700], why[2048];
    snprintf(ops, sizeof ops, "[{\"op\":\"copy\",\"from\":\"%s\",\"path\":\"%s\"}]", from, to);
    snprintf(edit, sizeof edit, "copy %s to %s", from, to);
    f->tried++;
    size_t nb = 0;
    uint8_t *b = test_apply_text(name, a, na, ops, &nb, why, sizeof why);
    CHECK(b, "%s: apply refuses to %s: %s", name, edit, why);
    if (!b) { count_one(&other_failures); return; }
    f->applied++;
    rb_error err;
    rb_doc *db = rb_doc_parse(b, nb, NULL, &err);
    int identical = 0;
    uint8_t *again = NULL;
    size_t again_size = 0;
    if (db && rb_doc_write_against(db, NULL, b, nb, &identical, &again, &again_size, &err) == RB_OK && identical)
        f->exact++;
    else CHECK(0, "%s: the result of %s does not verify exactly%s%s", name, edit, db ? "" : ": ", db ? "" : err.message);
    rb_free(again);
    size_t after = db ? refusals(db) : 0;
    if (db && after <= refusals_before) f->check_ok++;
    else CHECK(0, "%s: after %s, check finds %zu refusals (%zu before)", name, edit, after, refusals_before);
    if (db && identical && after <= refusals_before) {
        if (diff_law(name, a, na, da, b, nb, db, edit)) f->diff_ok++;
        else count_one(&diff_failures);
    } else {
        count_one(&other_failures);
    }
    rb_doc_free(db);
    rb_free(b);
}

static size_t duplicate_definitions_refused;

/* The copy written without what apply does (its node keeps its original's index, as a JSON
 * edit and `build` would make it): the writer refuses it, naming the rule. Once per run. */
static void duplicate_definition_refused(const char *name, rb_doc *da, const char *blocks, long k)
{
    char *text = NULL;
    rb_error err;
    if (duplicate_definitions_refused || rb_doc_dump(da, RB_BLOBS_BASE64, NULL, &text, &err) != RB_OK) return;
    json_t *root = json_loads(text, JSON_ALLOW_NUL, NULL);
    rb_free(text);
    json_t *list = root ? json_object_get(json_array_get(json_object_get(json_object_get(root, "body"), "chunks"),
                                                         (size_t)atol(blocks + strlen("/body/chunks/"))),
                                          "blocks")
                        : NULL;
    json_t *block = json_array_get(list, (size_t)k);
    if (!json_object_get(block, "waypointSpecialProperty")) {
        json_decref(root);
        return;
    }
    json_array_append_new(list, json_deep_copy(block));
    char *edited = json_dumps(root, JSON_COMPACT);
    rb_doc *db = edited ? rb_doc_build(edited, strlen(edited), name, da, &err) : NULL;
    uint8_t *out = NULL;
    size_t size = 0;
    rb_status s = db ? rb_doc_write(db, NULL, &out, &size, &err) : RB_E_MODEL;
    CHECK(s != RB_OK && strstr(err.message, "defined twice"),
          "%s: a copied waypoint that keeps its node index is not refused by the writer (%s)", name,
          s == RB_OK ? "written" : err.message);
    duplicate_definitions_refused++;
    rb_free(out);
    rb_doc_free(db);
    free(edited);
    json_decref(root);
}

/* The file read as a map (its bytes in *a, the caller frees both), or NULL when it is none. */
static rb_doc *read_map(const char *file, uint8_t **a, size_t *na)
{
    *a = test_read_file(file, na);
    rb_error err;
    rb_doc *da = *a ? rb_doc_parse(*a, *na, NULL, &err) : NULL;
    const char *format = da ? rb_doc_format(da) : NULL;
    rb_node *cls = da ? rb_node_at_edit(rb_doc_root(da), "/classId") : NULL;
    uint64_t class_id = 0;
    if (!format || strcmp(format, "gbx") || !cls || rb_node_get_uint(cls, &class_id) != RB_OK ||
        (class_id != 0x03043000 && class_id != 0x24003000)) {
        rb_doc_free(da);
        return NULL;
    }
    return da;
}

/* The block list: 01F, TMPU's 013 or TM 1.0's 00F. */
static int block_list(rb_doc *da, char *blocks, size_t size, size_t *count)
{
    return map_list(da, 0x01F, "blocks", blocks, size, count) || map_list(da, 0x013, "blocks", blocks, size, count) ||
           map_list(da, 0x00F, "blocks", blocks, size, count);
}

/* The duplicate definition's check on the first map, in the files' order, with a waypoint block
 * that can take it: a pass after the sweep, so the map is the same whichever thread took which. */
static void duplicate_definition_on(const char *file)
{
    if (duplicate_definitions_refused) return;
    uint8_t *a = NULL;
    size_t na = 0, count = 0;
    rb_doc *da = read_map(file, &a, &na);
    char blocks[200];
    long k = da && block_list(da, blocks, sizeof blocks, &count) ? find_block(da, blocks, 1) : -1;
    if (k >= 0) duplicate_definition_refused(file, da, blocks, k);
    rb_doc_free(da);
    free(a);
}

static void one_map(const char *file)
{
    uint8_t *a = NULL;
    size_t na = 0;
    rb_doc *da = read_map(file, &a, &na);
    if (!da) {
        free(a);
        return;
    }
    figures mine = {0}, *f = &mine;
    f->maps++;
    size_t before = refusals(da), count = 0;
    char blocks[200], items[200], from[260], to[260];
    if (block_list(da, blocks, sizeof blocks, &count)) {
        for (int waypoint = 1; waypoint >= 0; waypoint--) {
            long k = find_block(da, blocks, waypoint);
            if (k < 0) continue;
            snprintf(from, sizeof from, "%s/%ld", blocks, k);
            snprintf(to, sizeof to, "%s/-", blocks);
            copy_law(file, a, na, da, before, from, to, f);
        }
    }
    if (map_list(da, 0x040, "anchoredObjects", items, sizeof items, &count)) {
        snprintf(from, sizeof from, "%s/%zu", items, count / 2);
        snprintf(to, sizeof to, "%s/-", items);
        copy_law(file, a, na, da, before, from, to, f);
        snprintf(to, sizeof to, "%s/0", items);
        copy_law(file, a, na, da, before, from, to, f);
    }
    pthread_mutex_lock(&by_era_lock);
    figures *era = &by_era[era_of(da)];
    era->maps += mine.maps, era->tried += mine.tried, era->applied += mine.applied;
    era->exact += mine.exact, era->check_ok += mine.check_ok, era->diff_ok += mine.diff_ok;
    pthread_mutex_unlock(&by_era_lock);
    rb_doc_free(da);
    free(a);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            printf("SKIP: %s is absent (set REBYTE_SHARED)\n", argv[i]);
            return 77;
        }
    }
    test_each_file_parallel(argv + 1, argc - 1, one_map);
    for (int i = 1; i < argc; i++) test_each_file(argv[i], duplicate_definition_on);
    figures total = {0};
    for (int e = 0; e < ERAS; e++) {
        figures *f = &by_era[e];
        if (!f->maps) continue;
        printf("%-40s %4zu maps: %4zu copies tried, %4zu applied, %4zu exact, %4zu check ok, %4zu diff ok\n",
               ERA_NAME[e], f->maps, f->tried, f->applied, f->exact, f->check_ok, f->diff_ok);
        total.maps += f->maps;
        total.tried += f->tried;
        total.diff_ok += f->diff_ok;
    }
    printf("copy law: %zu maps, %zu copies, %zu diff ok (%zu plain diffs one `copy`); %zu failures of apply, verify or "
           "check, %zu of diff\n",
           total.maps, total.tried, total.diff_ok, diffs_as_copy, other_failures, diff_failures);
    printf("a waypoint copy that keeps its node index: refused by the writer on %zu map\n", duplicate_definitions_refused);
    CHECK(total.tried, "no map to copy an element of");
    CHECK(duplicate_definitions_refused || !(by_era[ERA_MP].maps + by_era[ERA_TM2020].maps),
          "no ManiaPlanet or TM2020 waypoint to copy without its own node index");
    CHECK(!diff_failures, "%zu copies whose diff does not hold the law (DIFF lines above)", diff_failures);
    CHECK(diffs_as_copy == total.diff_ok, "%zu of %zu plain diffs are not one `copy` (NOT A COPY lines above)",
          total.diff_ok - diffs_as_copy, total.diff_ok);
    if (test_failures) fprintf(stderr, "%d check(s) failed\n", test_failures);
    return test_failures ? 1 : 0;
}
