/* Running a format's game rules (core/rules.h). */
#include <stdarg.h>
#include <stdio.h>
#include "doc.h"
#include "rules.h"

void rb_rule_violated(rb_rule_run *run, const char *path, const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    rb_rule_violation v = {run->rule, path, message};
    run->report(run->context, &v);
    run->violations++;
}

size_t rb_rules_run(const rb_doc *doc, rb_check_report report, void *context)
{
    size_t total = 0, count = 0;
    const rb_rule *rules = doc->format->rules ? doc->format->rules(&count) : NULL;
    for (size_t i = 0; i < count; i++) {
        const rb_rule *rule = &rules[i];
        rb_rule_run run = {doc, rule->name, report, context, 0};
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
