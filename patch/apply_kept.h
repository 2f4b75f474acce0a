/* An edit that reaches no unit: apply on the deferred model (patch/apply_kept.c). */
#ifndef RB_APPLY_KEPT_H
#define RB_APPLY_KEPT_H
#include "core/model/format.h"
#include "patch/apply_outcome.h"

enum { APPLY_KEPT_MAX = 64 };

/* Where the edited values are in the original file (offsets and sizes of their bytes). */
typedef struct apply_kept {
    uint32_t at[APPLY_KEPT_MAX], size[APPLY_KEPT_MAX];
    size_t count;
} apply_kept;

/* Should the original be read deferred for this patch (the format states its units' reads, the
 * operations are tests, and replaces by numbers and booleans of values that no unit's read and no
 * rule takes, as far as their paths tell)? */
int apply_kept_wanted(const apply_request *rq, const rb_format *format);
/* 1 when the deferred `doc` can take the patch as it is (every path reaches, through nodes alone,
 * a number or a boolean of the file's bytes), `kept` then holding where the replaced values are;
 * 0 when the document must be expanded. */
int apply_kept_check(const apply_request *rq, const rb_doc *doc, apply_kept *kept);
/* Are the written bytes the original's but inside the edited values? */
int apply_kept_same_bytes(const apply_kept *kept, const uint8_t *original, size_t original_size,
                          const uint8_t *written, size_t written_size);
#endif
