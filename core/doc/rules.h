/*
 * Game rules: invariants the game relies on that the byte format does not enforce (a block
 * direction 0-3, medals in order, ...). Each format declares its rules next to its structures
 * (rb_format.rules); `rebyte check` runs them on any file, and apply refuses an edit that breaks
 * a refusal rule (docs/usage.md "Game rules"). A rule states what every file the game wrote
 * satisfies and takes its data from real files; one that cannot be stated without false
 * positives is a warning: reported, never a reason to refuse.
 */
#ifndef RB_RULES_H
#define RB_RULES_H
#include <stddef.h>
#include <jansson.h>
#include "rebyte.h"
#include "core/model/model.h"

struct rb_doc;
struct rb_buf;

typedef enum rb_rule_kind { RB_RULE_REFUSAL, RB_RULE_WARNING } rb_rule_kind;

/* One run of one rule over a document. */
typedef struct rb_rule_run {
    const struct rb_doc *doc;
    const char *rule; /* the rule being run */
    rb_check_report report;
    void *context;
    size_t violations;
    rb_rule_kind kind; /* of the rule being run */
} rb_rule_run;

/* Where a rule reads, so that it can run on a document whose units are still deferred (apply
 * reads the original deferred and expands only what the patch reaches; docs/performance.md
 * "An edit costs what it touches, part III"). */
typedef enum rb_rule_reach {
    RB_RULE_READS_ALL = 0, /* anything: it runs on a document with every unit expanded */
    RB_RULE_READS_NODES,   /* only nodes no unit holds (and element counts, which a unit keeps) */
    /* inside units, one element at a time against facts read outside them (`facts`): a unit left
     * deferred is skipped, and its verdict cannot change while its bytes, its start and the
     * facts are unchanged */
    RB_RULE_READS_UNITS,
} rb_rule_reach;

/* What a rule reads: one declaration that both ways of an apply that leaves units deferred take
 * (docs/performance.md "An edit that reaches no unit" and "An edit costs what it touches, part
 * III"). Where it reads says whether the rule can run with units still deferred; which values it
 * reads says whether an edit can change its verdict at all. Nothing declared: it reads anything,
 * anywhere, and apply runs it on the full read. */
typedef struct rb_rule_reads {
    rb_rule_reach where;
    /* the values the rule reads (JSON pointers as rb_format.unit_reads spells them,
     * NULL-terminated; a value below one counts): an edit outside them cannot change its verdict,
     * so an apply that reaches none of them need not run it (patch/apply_kept.c). NULL: any. */
    const char *const *values;
    /* RB_RULE_READS_UNITS: appends what the rule checks each unit's elements against (a map's
     * size and block version), as bytes two runs compare */
    void (*facts)(const struct rb_doc *doc, struct rb_buf *out);
    /* RB_RULE_READS_UNITS: which deferred units it reads (`rebyte check` on a deferred read
     * reads those alone, core/doc/info.c); NULL: any */
    int (*unit)(const struct rb_doc *doc, const rb_node *unit);
} rb_rule_reads;

typedef struct rb_rule {
    const char *name;        /* "block-direction": short, stable, what a user types */
    const char *description; /* one line: what the game expects */
    void (*run)(rb_rule_run *run);
    rb_rule_kind kind;
    /* the lists the rule checks against, as `check --rules` prints them (NULL: none) */
    json_t *(*data)(void);
    rb_rule_reads reads;
} rb_rule;

/* Reports a violation of the running rule at model path `path`, of the rule's kind. */
void rb_rule_violated(rb_rule_run *run, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Reports a warning whatever the rule's kind (a refusal rule's case that real files show). */
void rb_rule_warned(rb_rule_run *run, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Runs every rule of the document's format, each rule that reads only nodes (RB_RULE_READS_NODES)
 * on `nodes` and every other on `units` (the same document, or a view of it with the units they
 * read, core/doc/doc_view.h); returns how many violations were reported. */
size_t rb_rules_run_split(const struct rb_doc *nodes, const struct rb_doc *units, rb_check_report report,
                          void *context);
/* Does a rule that reads inside units (or any) read this deferred unit? */
int rb_rules_read_unit(const struct rb_doc *doc, const rb_node *unit);
/* The same on a document whose units may still be deferred: each rule skips the units left
 * deferred (rb_rule_reads.where), and `facts` gets what the rules read units against (compare two runs'
 * facts: where they are equal, a unit deferred in both has the same verdict in both). -1, nothing
 * run, when a rule declares no reach and a unit is deferred (expand the document first). */
int rb_rules_run_partly(const struct rb_doc *doc, rb_check_report report, void *context, struct rb_buf *facts,
                        size_t *found);
#endif
