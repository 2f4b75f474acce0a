/*
 * Apply on the original read deferred (patch/apply_units.c;
 * docs/performance.md "An edit costs what it touches, part III")
 * gives what apply on the full model gives: the same bytes, or the
 * same refusal, for every cookbook recipe (samples/gbx/cookbook) and the edits below, on each
 * map given. The deferred run must answer the one-field edits itself (it is no law if it always
 * gives up), and an edit of a lookback string defined before a unit kept as bytes (the blocks
 * list) must not copy that unit's bytes under another reader state: the output is still the
 * full model's.
 *
 * Usage: test_apply_units COOKBOOK_DIR MAP.Gbx...
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "patch/apply.h"
#include "tests/test_util.h"

typedef struct run {
    int rc, on_units;
    rb_status status;
    uint8_t *bytes;
    size_t size;
} run;

static run apply_once(const uint8_t *data, size_t size, const char *name, const rb_patch *patch, int whole)
{
    const rb_patch *const patches[1] = {patch};
    rb_apply_options options = RB_APPLY_OPTIONS_INIT;
    apply_request rq = {data, size, name, patches, 1, &options, 0, NULL, whole};
    apply_outcome out;
    memset(&out, 0, sizeof out);
    rb_buf_init(&out.lines);
    run r = {apply_on_model(&rq, &out), out.on_units, out.error.status, out.bytes, out.size};
    rb_buf_free(&out.lines);
    json_decref(out.rules_before);
    return r;
}

/* The two runs of `patch_text` on the map agree; returns whether the deferred run answered. */
static int both_agree(const uint8_t *data, size_t size, const char *map, const char *what, const char *patch_text)
{
    rb_error err;
    rb_patch *patch = rb_patch_parse(patch_text, strlen(patch_text), what, &err);
    CHECK(patch != NULL, "%s: the patch does not parse: %s", what, err.message);
    if (!patch) return 0;
    run units = apply_once(data, size, map, patch, 0), whole = apply_once(data, size, map, patch, 1);
    CHECK(units.rc == whole.rc && units.status == whole.status, "%s, %s: deferred %d (%d), full %d (%d)", map, what,
          units.rc, (int)units.status, whole.rc, (int)whole.status);
    if (units.rc == 0 && whole.rc == 0)
        CHECK(units.size == whole.size && !memcmp(units.bytes, whole.bytes, units.size),
              "%s, %s: the deferred run writes other bytes than the full one", map, what);
    free(units.bytes);
    free(whole.bytes);
    rb_patch_free(patch);
    return units.on_units;
}

static char *read_text(const char *path)
{
    size_t size;
    uint8_t *data = test_read_file(path, &size);
    char *text = data ? realloc(data, size + 1) : NULL;
    if (text) text[size] = 0;
    return text;
}

/* Every recipe of the cookbook; how many the deferred run answered. */
static size_t recipes_agree(const char *cookbook, const uint8_t *data, size_t size, const char *map)
{
    DIR *dir = opendir(cookbook);
    CHECK(dir != NULL, "%s: no cookbook", cookbook);
    size_t answered = 0;
    for (struct dirent *e; dir && (e = readdir(dir));) {
        if (!strstr(e->d_name, ".patch.json")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", cookbook, e->d_name);
        char *text = read_text(path);
        CHECK(text != NULL, "%s: unreadable", path);
        if (text) answered += (size_t)both_agree(data, size, map, e->d_name, text);
        free(text);
    }
    if (dir) closedir(dir);
    return answered;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_apply_units COOKBOOK_DIR MAP.Gbx...\n");
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        size_t size;
        uint8_t *data = test_read_file(argv[i], &size);
        CHECK(data != NULL, "%s: unreadable", argv[i]);
        if (!data) continue;
        size_t answered = recipes_agree(argv[1], data, size, argv[i]);
        CHECK(both_agree(data, size, argv[i], "rename",
                         "[{\"op\":\"replace\",\"path\":\"/body/chunks/[id=0x0304301F]/mapName\",\"value\":\"u\"}]"),
              "%s: the rename was not answered on the deferred read", argv[i]);
        /* lookback strings defined before the blocks list: a new one in place of the map's uid, and
         * the decoration's author spelled as the map's author (one string fewer defined) */
        CHECK(!both_agree(data, size, argv[i], "new uid",
                          "[{\"op\":\"replace\",\"path\":\"/body/chunks/[id=0x0304301F]/mapInfo/id\",\"value\":\"NewUid\"}]"),
              "%s: a changed lookback string before the blocks kept them as bytes", argv[i]);
        both_agree(data, size, argv[i], "author reused",
                   "[{\"op\":\"replace\",\"path\":\"/body/chunks/[id=0x0304301F]/decoration/author\","
                   "\"value\":\"Nadeo\"},{\"op\":\"replace\",\"path\":\"/body/chunks/[id=0x0304301F]/mapInfo/author\","
                   "\"value\":\"Nadeo\"}]");
        printf("%s: %zu cookbook recipes answered on the deferred read, the rest on the full model\n", argv[i],
               answered);
        free(data);
    }
    return test_failures ? 1 : 0;
}
