/* Patch operations on annotations, the `$` members (apply_annotations.c, docs/usage.md
 * "Annotations in patches"). */
#ifndef RB_APPLY_ANNOTATIONS_H
#define RB_APPLY_ANNOTATIONS_H
#include "patch/apply_outcome.h"

/* Every operation of the request's patches checked before the file is read: an operation whose
 * path or "from" names a `$` member is refused, but for the removal of a stream's "$stream" or
 * of its "original" (the stream is then encoded again). 0, or -1 with err naming the patch, the
 * operation and the path. */
int apply_refuse_annotation_ops(const apply_request *request, rb_error *err);
#endif
