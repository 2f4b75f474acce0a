/* RFC 6901 JSON Pointer and RFC 6902 JSON Patch over jansson. */
#ifndef REBYTE_JSONPATCH_H
#define REBYTE_JSONPATCH_H

#include <jansson.h>
#include <stddef.h>

/* Resolve an RFC 6901 pointer. Returns a borrowed reference into doc, or NULL
   with the reason written into err (err may be NULL / errlen 0). "" is doc
   itself; "-" never resolves because it names a nonexistent array element. */
json_t *rb_json_pointer_get(json_t *doc, const char *pointer, char *err, size_t errlen);

/* Apply an RFC 6902 patch (a JSON array of operations) to *doc. On success
   returns 0 and *doc may have been replaced (e.g. when the whole document is
   replaced via path ""); the caller owns *doc. All-or-nothing: on failure
   returns -1, leaves *doc exactly as before, and writes a message naming the
   operation index, op and path into err, e.g.
   "patch[2] (replace /a/b): member 'a' not found". */
int rb_json_patch_apply(json_t **doc, const json_t *patch, char *err, size_t errlen);
/* The same on `*work` itself, without the copy that makes rb_json_patch_apply all or nothing: on
 * failure *work is left part-patched (for a caller that discards it then, such as apply's drafts,
 * patch/model_draft.c: a copy per operation made a many-operation draft quadratic). */
int rb_json_patch_apply_in_place(json_t **work, const json_t *patch, char *err, size_t errlen);

#endif /* REBYTE_JSONPATCH_H */
