/* The apply engine (see apply.c); the public API is in include/rebyte.h. */
#ifndef RB_APPLY_H
#define RB_APPLY_H
#include "patch/apply_outcome.h"

/* Applies the request's stack to its file: 0, or -1 with out->error (every refusal is final). */
int apply_on_model(const apply_request *request, apply_outcome *out);

/* Game rules (apply_rules.c): note the original's violations; then refuse (or, forced, report)
 * the ones the patched model adds. */
int apply_rules_before(const rb_doc *original, apply_outcome *out);
int apply_rules_after(const apply_request *request, const rb_doc *patched, apply_outcome *out);
/* The nodes the model path's edits went through and put in place (apply_recordings.c), so the
 * race-recording check looks only at records an edit reached. `plain_path` has no selectors;
 * `removed`: the operation took away what was at the path. 0, or -1 when out of memory. */
typedef struct edited_nodes edited_nodes;
edited_nodes *edited_nodes_new(void);
void edited_nodes_free(edited_nodes *edited);
int edited_nodes_note(edited_nodes *edited, rb_doc *doc, const char *plain_path, int removed);
/* `node` was put in place (a draft the description built): everything below it is new. */
int edited_nodes_place(edited_nodes *edited, const rb_node *node);
/* Race recordings (apply_recordings.c): 0 when every record of the patched model is the original's
 * (out->edited, when set, limits the check to the records edits reached). */
int apply_recordings_unchanged(const apply_request *request, const rb_doc *patched, apply_outcome *out);
#endif
