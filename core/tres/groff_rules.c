/*
 * The game rules of GROFF levels (docs/formats/trespasser.md "Game rules"; core/rules.h).
 */
#include <stdio.h>
#include <string.h>
#include "../rules.h"
#include "groff_names.h"

/* The container: the root, or the content of an SZDD-packed file. */
static const rb_node *container(const rb_doc *doc, const char **prefix)
{
    const rb_node *content = rb_node_get(doc->root, "content");
    *prefix = content ? "/content" : "";
    return content ? content : doc->root;
}

/* Instances are found by name (triggers, scripts, and the scene blocks of a savegame, named by
 * the hash of the instance's name): two instances of a level with one name are one too many. */
static void instance_names_unique(rb_rule_run *r)
{
    const char *prefix;
    const rb_node *sections = rb_node_get(container(r->doc, &prefix), "sections");
    for (size_t s = 0; sections && s < sections->v.kids.count; s++) {
        const rb_node *instances = rb_node_get(rb_node_get(sections->v.kids.items[s], "region"), "instances");
        size_t n = instances ? rb_element_count(instances) : 0;
        for (size_t i = 1; i < n; i++) {
            uint64_t name = rb_element_uint(instances, i, "name");
            for (size_t j = 0; j < i; j++) {
                if (rb_element_uint(instances, j, "name") != name) continue;
                size_t length = 0;
                const char *text = groff_symbol_text(r->doc, (uint32_t)name, &length);
                char path[160];
                snprintf(path, sizeof path, "%s/sections/%zu/region/instances/%zu/name", prefix, s, i);
                rb_rule_violated(r, path, "instance %zu has the name of instance %zu (%.*s)", i, j,
                                 text ? (int)length : 10, text ? text : "a handle");
                break;
            }
        }
    }
}

static const rb_rule GROFF_RULES[] = {
    {"instance-names-unique", "the instances of a level have names of their own", instance_names_unique},
};

const rb_rule *groff_rules(size_t *count)
{
    *count = sizeof GROFF_RULES / sizeof GROFF_RULES[0];
    return GROFF_RULES;
}
