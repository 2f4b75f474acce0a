/*
 * Game rules: invariants the game relies on that the byte format does not enforce (a block
 * direction 0-3, medals in order, ...). Each format declares its rules next to its structures
 * (rb_format.rules); `rebyte check` runs them on any file, and apply refuses an edit that breaks
 * one (docs/usage.md "Game rules").
 */
#ifndef RB_RULES_H
#define RB_RULES_H
#include <stddef.h>
#include "rebyte.h"

struct rb_doc;

/* One run of one rule over a document. */
typedef struct rb_rule_run {
    const struct rb_doc *doc;
    const char *rule; /* the rule being run */
    rb_check_report report;
    void *context;
    size_t violations;
} rb_rule_run;

typedef struct rb_rule {
    const char *name;        /* "block-direction": short, stable, what a user types */
    const char *description; /* one line: what the game expects */
    void (*run)(rb_rule_run *run);
} rb_rule;

/* Reports a violation of the running rule at model path `path`. */
void rb_rule_violated(rb_rule_run *run, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Runs every rule of the document's format; returns how many violations were reported. */
size_t rb_rules_run(const struct rb_doc *doc, rb_check_report report, void *context);
#endif
