/*
 * Race records are never written changed (docs/usage.md "Race records"): every record node of
 * the patched model (the format's is_record hook: GBX ghosts and replays) must be one of the
 * original's, unchanged. Removing a record is allowed (it forges nothing); adding or changing
 * one is refused. Only files that hold records pay for the check (one more parse of the
 * original, whose model the patches changed in place). The comparison is the library's, which
 * every write takes too (core/record_guard.c); here it comes before the write, so the message
 * names the patch.
 */
#include "../core/record_guard.h"
#include "apply.h"

int apply_records_unchanged(const apply_request *rq, const rb_doc *patched, apply_outcome *out)
{
    if (!rb_doc_holds_record(patched)) return 0;
    rb_read_options ro = {.file_name = rq->name};
    rb_error err;
    rb_doc *original = rb_doc_parse(rq->data, rq->size, &ro, &err);
    char path[1024] = "";
    int same = original ? rb_records_unchanged(patched, original, path, sizeof path) : -2;
    rb_doc_free(original);
    if (same == -2) apply_fail(out, RB_E_NOMEM, "out of memory checking the race records");
    else if (same < 0)
        apply_fail(out, RB_E_UNSUPPORTED,
                   "%s is a race record (a ghost or a replay) and the patch changes it: rebyte reads, dumps and "
                   "verifies records but never writes one changed, since a changed nickname, time or sample passes "
                   "a run off as someone else's (docs/usage.md \"Race records\")",
                   path[0] ? path : "the file");
    if (same) out->final = 1;
    return same ? -1 : 0;
}
