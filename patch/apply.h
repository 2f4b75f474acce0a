/* The apply engine (see apply.c); the public API is in include/rebyte.h. */
#ifndef RB_APPLY_H
#define RB_APPLY_H
#include <jansson.h>
#include "../core/buf.h"
#include "../core/doc.h"

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
} apply_request;

/* What a run produced. */
typedef struct apply_outcome {
    uint8_t *bytes;
    size_t size;
    rb_doc *doc;      /* want_doc: the patched model */
    json_t *changes;  /* want_changes: [{op, path, was?, value?}] */
    size_t operations;
    int units;             /* units the description built (patch/model_unit.c) */
    char first_unit[256];  /* the first one's path and operation */
    rb_error error;   /* on failure */
    rb_buf lines;     /* report lines (apply.c put_line) */
    json_t *rules_before; /* the original's game-rule violations ({"rule path": true}) */
    struct edited_nodes *edited; /* what the edits reached (apply_records.c) */
} apply_outcome;

/* Applies the request's stack to its file: 0, or -1 with out->error (every refusal is final). */
int apply_on_model(const apply_request *request, apply_outcome *out);

void apply_warning(apply_outcome *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void apply_fail(apply_outcome *out, rb_status status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Game rules (apply_rules.c): note the original's violations; then refuse (or, forced, report)
 * the ones the patched model adds. */
int apply_rules_before(const rb_doc *original, apply_outcome *out);
int apply_rules_after(const apply_request *request, const rb_doc *patched, apply_outcome *out);
/* The nodes the model path's edits went through and put in place (apply_records.c), so the
 * race-record check looks only at records an edit reached. `plain_path` has no selectors;
 * `removed`: the operation took away what was at the path. 0, or -1 when out of memory. */
typedef struct edited_nodes edited_nodes;
edited_nodes *edited_nodes_new(void);
void edited_nodes_free(edited_nodes *edited);
int edited_nodes_note(edited_nodes *edited, rb_doc *doc, const char *plain_path, int removed);
/* `node` was put in place (a unit the description built): everything below it is new. */
int edited_nodes_place(edited_nodes *edited, const rb_node *node);
/* Race records (apply_records.c): 0 when every record of the patched model is the original's
 * (out->edited, when set, limits the check to the records edits reached). */
int apply_records_unchanged(const apply_request *request, const rb_doc *patched, apply_outcome *out);
#endif
