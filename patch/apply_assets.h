/* Patch values {"$file": F} and {"$png": base64} at assets' paths (apply_assets.c, docs/usage.md "Assets"). */
#ifndef RB_APPLY_ASSETS_H
#define RB_APPLY_ASSETS_H
#include "patch/apply_outcome.h"

/* When a patch of the request puts a file at an asset's path, *expanded gets copies of the
 * request's patches with those operations turned into the format's, read from `doc` (the
 * request's file as parsed, not yet edited; a $png value's selectors are resolved there); free
 * them with apply_free_expanded. Else it stays NULL. 0, or -1 with err. */
int apply_expand_assets(const apply_request *request, rb_doc *doc, rb_patch ***expanded, rb_error *err);
void apply_free_expanded(rb_patch **patches, size_t count);
#endif
