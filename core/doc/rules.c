/* Running a format's game rules (core/doc/rules.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/doc/doc.h"
#include "core/doc/rules.h"

static void report_violation(rb_rule_run *run, int warning, const char *path, const char *fmt, va_list ap)
{
    char message[512];
    vsnprintf(message, sizeof message, fmt, ap);
    rb_rule_violation v = {run->rule, path, message, warning};
    run->report(run->context, &v);
    run->violations++;
}

void rb_rule_violated(rb_rule_run *run, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_violation(run, run->kind == RB_RULE_WARNING, path, fmt, ap);
    va_end(ap);
}

void rb_rule_warned(rb_rule_run *run, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_violation(run, 1, path, fmt, ap);
    va_end(ap);
}

size_t rb_rules_run(const rb_doc *doc, rb_check_report report, void *context)
{
    size_t total = 0, count = 0;
    const rb_rule *rules = doc->format->rules ? doc->format->rules(&count) : NULL;
    for (size_t i = 0; i < count; i++) {
        const rb_rule *rule = &rules[i];
        rb_rule_run run = {doc, rule->name, report, context, 0, rule->kind};
        rule->run(&run);
        total += run.violations;
    }
    return total;
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
