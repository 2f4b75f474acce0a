/* What a run of the apply engine is asked and what it produces (apply.c runs it; the steps
 * beside it, apply_assets.c and apply_annotations.c, read the request), and its report
 * (apply_outcome.c). */
#ifndef RB_APPLY_OUTCOME_H
#define RB_APPLY_OUTCOME_H
#include <jansson.h>
#include "core/buf.h"
#include "core/doc/doc.h"

struct rb_patch {
    json_t *file;       /* what was parsed: an array, or the envelope */
    const json_t *ops;  /* its operations */
    const json_t *base; /* the envelope's base, or NULL */
    char *name;
};

/* What one run of the pipeline was asked for. */
typedef struct apply_request {
    const uint8_t *data;
    size_t size;
    const char *name;
    const rb_patch *const *patches;
    size_t count;
    const rb_apply_options *options;
    int want_doc; /* keep the patched model in the outcome */
    /* `rebyte resolve`: every operation carried out is appended here as a plain operation, and
     * the run stops after the stack (nothing is built, checked or written) */
    json_t *resolved;
    int whole; /* no attempt on the original read deferred (the law test compares the two) */
} apply_request;

/* What a run produced. */
typedef struct apply_outcome {
    uint8_t *bytes;
    size_t size;
    rb_doc *doc;      /* want_doc: the patched model */
    json_t *changes;  /* want_changes: [{op, path, was?, value?}] */
    size_t operations;
    int drafts;             /* drafts the description built (patch/model_draft.c) */
    char first_draft[256];  /* the first one's path and operation */
    rb_error error;   /* on failure */
    rb_buf lines;     /* report lines (apply_outcome.c put_line) */
    json_t *rules_before; /* the original's game-rule violations ({"rule path": true}) */
    /* what the rules read the units still deferred against, before the patches (apply_rules.c) */
    rb_buf rule_facts;
    struct edited_nodes *edited; /* what the edits reached (apply_recordings.c) */
    int on_units; /* the run on the original read deferred gave the answer (apply_units.c) */
} apply_outcome;

/* Report lines (apply_outcome.c): information, and warnings; the first failure stands. */
void apply_line(apply_outcome *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void apply_warning(apply_outcome *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void apply_fail(apply_outcome *out, rb_status status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#endif
