/* The format table: adding a format touches its folder and one line here (docs/formats/adding.md).
 * Order breaks detection ties: the first of equal confidence wins. The table sits above the
 * formats it lists (core/registry/registry.h): what is asked of a format by its index in the
 * table (its name, its description, its game rules) is answered here. */
#include <string.h>
#include "core/doc/rules.h"
#include "core/registry/registry.h"

#define RB_REGISTERED_FORMATS(X)                                                                          \
    X(rb_format_gbx)                                                                                      \
    X(rb_format_datawin)                                                                                  \
    X(rb_format_streamer)                                                                                 \
    X(rb_format_groff)                                                                                    \
    X(rb_format_pid)                                                                                      \
    X(rb_format_tpa)                                                                                      \
    X(rb_format_wtd)                                                                                      \
    X(rb_format_spz)

#define DECLARE_FORMAT(entry) extern const rb_format entry;
#define LIST_FORMAT(entry) &entry,
RB_REGISTERED_FORMATS(DECLARE_FORMAT)

static const rb_format *const FORMATS[] = {RB_REGISTERED_FORMATS(LIST_FORMAT)};

const rb_format *const *rb_formats(size_t *count)
{
    *count = sizeof FORMATS / sizeof FORMATS[0];
    return FORMATS;
}

const rb_format *rb_format_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof FORMATS / sizeof FORMATS[0]; i++)
        if (strcmp(FORMATS[i]->name, name) == 0) return FORMATS[i];
    return NULL;
}

const rb_format *rb_registry_detect(const uint8_t *data, size_t size)
{
    const rb_format *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < sizeof FORMATS / sizeof FORMATS[0]; i++) {
        int score = FORMATS[i]->detect(data, size);
        if (score > best_score) {
            best_score = score;
            best = FORMATS[i];
        }
    }
    return best;
}

size_t rb_format_count(void)
{
    size_t n;
    rb_formats(&n);
    return n;
}

const char *rb_format_name(size_t index)
{
    size_t n;
    const rb_format *const *formats = rb_formats(&n);
    return index < n ? formats[index]->name : NULL;
}

const char *rb_format_description(size_t index)
{
    size_t n;
    const rb_format *const *formats = rb_formats(&n);
    return index < n ? formats[index]->description : NULL;
}

static const rb_rule *format_rules(size_t format, size_t *count)
{
    size_t formats_count;
    const rb_format *const *formats = rb_formats(&formats_count);
    *count = 0;
    return format < formats_count && formats[format]->rules ? formats[format]->rules(count) : NULL;
}

size_t rb_format_rule_count(size_t format)
{
    size_t count;
    format_rules(format, &count);
    return count;
}

const char *rb_format_rule(size_t format, size_t index, const char **description)
{
    size_t count;
    const rb_rule *rules = format_rules(format, &count);
    if (index >= count) return NULL;
    if (description) *description = rules[index].description;
    return rules[index].name;
}

char *rb_format_rule_json(size_t format, size_t index)
{
    size_t count;
    const rb_rule *rules = format_rules(format, &count);
    if (index >= count) return NULL;
    const rb_rule *r = &rules[index];
    json_t *data = r->data ? r->data() : NULL;
    json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:o}", "format", rb_format_name(format), "rule", r->name, "kind",
                          r->kind == RB_RULE_WARNING ? "warning" : "refusal", "description", r->description, "data",
                          data ? data : json_null());
    char *text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    return text;
}
