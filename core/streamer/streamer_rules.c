/*
 * The game rule of streamer map files (the streamer format's rules, core/doc/rules.h): the ids a map
 * hands to the plugin, which passes them on to SA:MP unchecked (CreateDynamicObject,
 * CreateDynamicPickup, CreateDynamicMapIcon, CreateDynamicRaceCP and the group's worlds, interiors
 * and players), are inside the ranges SA:MP documents. The spec itself states no range; the ranges
 * and where they come from are in docs/formats/streamer.md "Game rules". Counts are not model
 * fields here (the writer derives them), so no count can disagree.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "core/doc/rules.h"
#include "core/streamer/streamer.h"

typedef struct id_range {
    const char *id, *reversed; /* the chunk id, and its reversed spelling (docs: ambiguity 3) */
    const char *key;           /* the field, or the list of ids */
    int64_t min, max;          /* documented range */
    int64_t every;             /* a value meaning "every one" (-1 for worlds, ...), or NO_EVERY */
    const char *what;
} id_range;

/* Model ids: GTA:SA and SA:MP's own objects end at 19999; SA:MP 0.3.DL's custom models
 * (AddSimpleModel) take -1000 to -30000 (model_in_range). */
enum { MODEL_MAX = 19999, CUSTOM_MODEL_MIN = -30000, CUSTOM_MODEL_MAX = -1000 };
#define NO_EVERY INT64_MIN

static const id_range RANGES[] = {
    {"_Obj", NULL, "modelId", 0, MODEL_MAX, NO_EVERY, "an object model"},
    {"Pckp", NULL, "modelId", 0, MODEL_MAX, NO_EVERY, "a pickup model"},
    {"MapI", "IpaM", "type", 0, 63, NO_EVERY, "a map icon type (0 to 63)"},
    {"MapI", "IpaM", "style", 0, 3, NO_EVERY, "a map icon style (MAPICON_LOCAL 0 to MAPICON_GLOBAL_CHECKPOINT 3)"},
    {"RChk", NULL, "type", 0, 8, NO_EVERY, "a race checkpoint type (0 to 8)"},
    {"Wrld", "dlrW", "worlds", 0, INT32_MAX, -1, "a virtual world (-1: every world)"},
    /* SA:MP sends a player's interior as one byte */
    {"_Int", "tnI_", "interiors", 0, 255, -1, "an interior (-1: every interior, else 0 to 255)"},
    /* MAX_PLAYERS is 1000 in SA:MP 0.3.7 and open.mp: player ids 0 to 999 */
    {"Plyr", "rylP", "players", 0, 999, -1, "a player id (-1: every player, else 0 to 999)"},
};

static int id_is(const rb_node *chunk, const char *id)
{
    const rb_node *n = id ? rb_node_get(chunk, "id") : NULL;
    return n && n->kind == RB_K_STRING && n->v.bytes.size == 4 && !memcmp(n->v.bytes.data, id, 4);
}

static int value_in_range(const id_range *range, int64_t v)
{
    if (v == range->every || (v >= range->min && v <= range->max)) return 1;
    return !strcmp(range->key, "modelId") && v >= CUSTOM_MODEL_MIN && v <= CUSTOM_MODEL_MAX;
}

static void check_value(rb_rule_run *r, const id_range *range, const rb_node *n, const char *path)
{
    if (!n || n->kind != RB_K_INT) return;
    int64_t v = n->wire & RB_W_SIGNED ? rb_node_int(n) : (int64_t)rb_node_uint(n);
    if (value_in_range(range, v)) return;
    rb_rule_violated(r, path, "%lld is not %s", (long long)v, range->what);
}

/* One chunk against one range: a field, or a list of ids and its "trailing" one (ambiguity 8). */
static void check_chunk(rb_rule_run *r, const id_range *range, const rb_node *chunk, const char *at)
{
    char path[160];
    const rb_node *n = rb_node_get(chunk, range->key);
    if (n && n->kind == RB_K_LIST) {
        for (size_t i = 0; i < n->v.kids.count; i++) {
            snprintf(path, sizeof path, "%s/%s/%zu", at, range->key, i);
            check_value(r, range, n->v.kids.items[i], path);
        }
        snprintf(path, sizeof path, "%s/trailing", at);
        check_value(r, range, rb_node_get(chunk, "trailing"), path);
        return;
    }
    snprintf(path, sizeof path, "%s/%s", at, range->key);
    check_value(r, range, n, path);
}

static void object_ids_in_range(rb_rule_run *r)
{
    const rb_node *groups = rb_node_get(r->doc->root, "groups");
    for (size_t g = 0; groups && groups->kind == RB_K_LIST && g < groups->v.kids.count; g++) {
        const rb_node *chunks = rb_node_get(groups->v.kids.items[g], "chunks");
        for (size_t c = 0; chunks && chunks->kind == RB_K_LIST && c < chunks->v.kids.count; c++) {
            rb_record_scratch scratch;
            const rb_node *chunk = rb_record_view(chunks->v.kids.items[c], &scratch);
            char at[64];
            snprintf(at, sizeof at, "/groups/%zu/chunks/%zu", g, c);
            for (size_t i = 0; i < sizeof RANGES / sizeof RANGES[0]; i++)
                if (id_is(chunk, RANGES[i].id) || id_is(chunk, RANGES[i].reversed)) check_chunk(r, &RANGES[i], chunk, at);
        }
    }
}

static const rb_rule STREAMER_RULES[] = {
    {"object-ids-in-range",
     "the ids the plugin passes to SA:MP (object and pickup models, map icon types and styles, race checkpoint "
     "types, a group's worlds, interiors and players) are inside their documented ranges",
     object_ids_in_range, RB_RULE_REFUSAL, NULL},
};

const rb_rule *streamer_rules(size_t *count)
{
    *count = sizeof STREAMER_RULES / sizeof STREAMER_RULES[0];
    return STREAMER_RULES;
}
