/* Running a format's game rules (core/doc/rules.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/buf.h"
#include "core/doc/doc.h"
#include "core/doc/rules.h"

static void report_violation(rb_rule_run *run, int warning, const char *path, const char *fmt, va_list ap)
{
    char message[512];
    vsnprintf(message, sizeof message, fmt, ap);
    rb_rule_violation v = {sizeof(rb_rule_violation), run->rule, path, message, warning};
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

size_t rb_rules_run_split(const rb_doc *nodes, const rb_doc *units, rb_check_report report, void *context)
{
    size_t total = 0, count = 0;
    const rb_rule *rules = nodes->format->rules ? nodes->format->rules(&count) : NULL;
    for (size_t i = 0; i < count; i++) {
        const rb_rule *rule = &rules[i];
        const rb_doc *doc = rule->reads.where == RB_RULE_READS_NODES ? nodes : units;
        rb_rule_run run = {doc, rule->name, report, context, 0, rule->kind};
        rule->run(&run);
        total += run.violations;
    }
    return total;
}

int rb_rules_read_unit(const rb_doc *doc, const rb_node *unit)
{
    size_t count = 0;
    const rb_rule *rules = doc->format->rules ? doc->format->rules(&count) : NULL;
    for (size_t i = 0; i < count; i++) {
        const rb_rule_reads *reads = &rules[i].reads;
        if (reads->where == RB_RULE_READS_NODES) continue;
        if (reads->where == RB_RULE_READS_ALL || !reads->unit || reads->unit(doc, unit)) return 1;
    }
    return 0;
}

int rb_rules_run_partly(const rb_doc *doc, rb_check_report report, void *context, rb_buf *facts, size_t *found)
{
    size_t count = 0;
    const rb_rule *rules = doc->format->rules ? doc->format->rules(&count) : NULL;
    for (size_t i = 0; doc->deferred_units && i < count; i++)
        if (rules[i].reads.where == RB_RULE_READS_ALL) return -1;
    for (size_t i = 0; i < count; i++)
        if (rules[i].reads.where == RB_RULE_READS_UNITS && rules[i].reads.facts) rules[i].reads.facts(doc, facts);
    *found = rb_rules_run_split(doc, doc, report, context);
    return 0;
}
