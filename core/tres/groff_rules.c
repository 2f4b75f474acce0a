/*
 * The game rules of GROFF levels (docs/formats/tres.md "Game rules"; core/doc/rules.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/rules.h"
#include "core/tres/groff_names.h"

/* The container: the root, or the content of an SZDD-packed file. */
static const rb_node *container(const rb_doc *doc, const char **prefix)
{
    const rb_node *content = rb_node_get(doc->root, "content");
    *prefix = content ? "/content" : "";
    return content ? content : doc->root;
}

typedef struct named_instance {
    uint64_t name;
    size_t index;
} named_instance;

static int by_name_then_index(const void *a, const void *b)
{
    const named_instance *x = a, *y = b;
    if (x->name != y->name) return x->name < y->name ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Instances are found by name (triggers, scripts, and the scene blocks of a savegame, named by
 * the hash of the instance's name): two instances of a level with one name are one too many.
 * Sorted by name, so a level of thousands of instances costs n log n, not n squared. */
static void instance_names_unique(rb_rule_run *r)
{
    const char *prefix;
    const rb_node *sections = rb_node_get(container(r->doc, &prefix), "sections");
    for (size_t s = 0; sections && s < sections->v.kids.count; s++) {
        const rb_node *instances = rb_node_get(rb_node_get(sections->v.kids.items[s], "region"), "instances");
        size_t n = instances ? rb_element_count(instances) : 0;
        if (n < 2) continue;
        named_instance *sorted = malloc(n * sizeof *sorted);
        size_t *first = malloc(n * sizeof *first); /* per instance: the first instance of its name */
        if (!sorted || !first) {
            free(sorted);
            free(first);
            rb_rule_violated(r, prefix, "out of memory checking %zu instance names", n);
            return;
        }
        for (size_t i = 0; i < n; i++) sorted[i] = (named_instance){rb_element_uint(instances, i, "name"), i};
        qsort(sorted, n, sizeof *sorted, by_name_then_index);
        for (size_t k = 0, group = 0; k < n; k++) {
            if (k > 0 && sorted[k].name != sorted[k - 1].name) group = k;
            first[sorted[k].index] = sorted[group].index;
        }
        for (size_t i = 1; i < n; i++) {
            if (first[i] == i) continue;
            uint64_t name = rb_element_uint(instances, i, "name");
            size_t length = 0;
            const char *text = groff_symbol_text(r->doc, (uint32_t)name, &length);
            char path[160];
            snprintf(path, sizeof path, "%s/sections/%zu/region/instances/%zu/name", prefix, s, i);
            rb_rule_violated(r, path, "instance %zu has the name of instance %zu (%.*s)", i, first[i],
                             text ? (int)length : 10, text ? text : "a handle");
        }
        free(sorted);
        free(first);
    }
}

/* The game finds the saved state of an instance by the hash of its name (docs/formats/tres.md
 * "Hashes and ids"): in a scene, a block named neither by a fixed name nor by such a hash is never
 * read. Renaming a block by an instance's name writes the hash (groff_names.c). */
static void scene_block_names_hashed(rb_rule_run *r)
{
    const char *prefix;
    const rb_node *sections = rb_node_get(container(r->doc, &prefix), "sections");
    size_t count = sections ? sections->v.kids.count : 0, length;
    int scene = 0;
    for (size_t s = 0; s < count && !scene; s++) scene = rb_node_get(sections->v.kids.items[s], "saveHeader") != NULL;
    for (size_t s = 0; scene && s < count; s++) {
        uint64_t name = rb_node_uint(rb_node_get(sections->v.kids.items[s], "name"));
        const char *text = groff_symbol_text(r->doc, (uint32_t)name, &length);
        if (!text || groff_is_block_hash(text, length) || groff_is_scene_fixed_name(text, length)) continue;
        char path[96];
        snprintf(path, sizeof path, "%s/sections/%zu/name", prefix, s);
        rb_rule_violated(r, path, "scene block \"%.*s\" is named neither by a fixed name nor by the hash of an "
                         "instance's name (upper-case hex, as the game writes it): the game never finds it",
                         (int)length, text);
    }
}

/* Both rules read the sections and the names their handles stand for (rb_rule_reads.values). */
static const char *const SECTIONS_AND_NAMES[] = {"/sections", "/symbols", "/content", NULL};

static const rb_rule GROFF_RULES[] = {
    {"instance-names-unique", "the instances of a level have names of their own", instance_names_unique, RB_RULE_REFUSAL, NULL,
     .reads = {.values = SECTIONS_AND_NAMES}},
    {"scene-block-names-hashed", "a scene's instance blocks are named by the hash of the instance's name",
     scene_block_names_hashed, RB_RULE_REFUSAL, NULL, .reads = {.values = SECTIONS_AND_NAMES}},
};

const rb_rule *groff_rules(size_t *count)
{
    *count = sizeof GROFF_RULES / sizeof GROFF_RULES[0];
    return GROFF_RULES;
}
