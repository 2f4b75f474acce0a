/*
 * Game rules in the apply pipeline (docs/usage.md "Game rules"): the original's violations are
 * noted before the patches run; the result may keep those (a file the game already loads as it
 * is) but breaks no other rule, unless the caller forces the write.
 */
#include <stdio.h>
#include <string.h>
#include "core/doc/rules.h"
#include "patch/apply.h"

static json_t *violation_key(const rb_rule_violation *v)
{
    return json_sprintf("%s %s", v->rule, v->path);
}

static void note_before(void *context, const rb_rule_violation *v)
{
    json_t *key = violation_key(v);
    if (key) json_object_set_new((json_t *)context, json_string_value(key), json_true());
    json_decref(key);
}

/* The rules are run by rb_doc_check: a model it refuses is the apply's error. A model with units
 * still deferred (apply_units.c) has each rule skip them (core/doc/rules.h rb_rule_reach): sound
 * when the facts the rules read those units against are the same before and after the patches,
 * the units being untouched; else the apply is run again on the full model. */
static int check_or_fail(const rb_doc *doc, rb_check_report report, void *context, apply_outcome *out, int after)
{
    rb_error err;
    if (!doc->deferred_units) {
        if (rb_doc_check(doc, report, context, NULL, &err) == RB_OK) return 0;
        apply_fail(out, err.status, "the game rules cannot run: %s", err.message);
        return -1;
    }
    rb_buf facts;
    rb_buf_init(&facts);
    size_t found = 0;
    int rc = rb_rules_run_partly(doc, report, context, after ? &facts : &out->rule_facts, &found);
    if (rc == 0 && after && (facts.size != out->rule_facts.size ||
                             (facts.size && memcmp(facts.data, out->rule_facts.data, facts.size) != 0)))
        rc = -1;
    rb_buf_free(&facts);
    if (rc != 0) apply_fail(out, RB_E_DEFERRED, "the game rules need the units still deferred");
    return rc;
}

int apply_rules_before(const rb_doc *original, apply_outcome *out)
{
    json_decref(out->rules_before);
    out->rules_before = json_object();
    out->rule_facts.size = 0;
    return check_or_fail(original, note_before, out->rules_before, out, 0);
}

typedef struct rules_after {
    apply_outcome *out;
    int force;
    size_t broken;
    char first[900];
} rules_after;

static void note_after(void *context, const rb_rule_violation *v)
{
    rules_after *ra = context;
    if (v->warning) { /* reported, never a reason to refuse (core/doc/rules.h) */
        apply_warning(ra->out, "game rule %s (warning) at %s: %s", v->rule, v->path, v->message);
        return;
    }
    json_t *key = violation_key(v);
    int known = key && ra->out->rules_before && json_object_get(ra->out->rules_before, json_string_value(key));
    json_decref(key);
    if (known) return;
    if (ra->force || ra->broken > 0)
        apply_warning(ra->out, "game rule %s broken at %s: %s%s", v->rule, v->path, v->message,
                      ra->force ? " (written anyway: forced)" : "");
    else
        snprintf(ra->first, sizeof ra->first, "the result breaks the game rule %s at %s: %s", v->rule, v->path,
                 v->message);
    ra->broken++;
}

int apply_rules_after(const apply_request *rq, const rb_doc *patched, apply_outcome *out)
{
    rules_after ra = {out, rq->options && rq->options->force, 0, ""};
    if (check_or_fail(patched, note_after, &ra, out, 1) != 0) return -1;
    if (ra.force || !ra.broken) return 0;
    apply_fail(out, RB_E_RULE, "%s%s; force the write to keep it (rebyte apply --force)", ra.first,
               ra.broken > 1 ? " (and the rules listed above)" : "");
    return -1;
}
