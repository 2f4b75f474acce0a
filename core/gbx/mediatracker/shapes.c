/*
 * Shapes shared by the media tracker classes: lists of keys, spans, runs of named scalars.
 */
#include "core/gbx/mediatracker/mediatracker.h"

void mt_f32s(rb_ar *ar, const char *const *names, int count)
{
    for (int i = 0; i < count && rb_ar_ok(ar); i++) rb_ar_f32(ar, names[i]);
}

void mt_i32s(rb_ar *ar, const char *const *names, int count)
{
    for (int i = 0; i < count && rb_ar_ok(ar); i++) rb_ar_i32(ar, names[i]);
}

void mt_bools(rb_ar *ar, const char *const *names, int count)
{
    for (int i = 0; i < count && rb_ar_ok(ar); i++) gbx_bool(ar, names[i]);
}

void mt_start_end(rb_ar *ar)
{
    rb_ar_f32(ar, "start");
    rb_ar_f32(ar, "end");
}

/* "keys(k)": u32 count, then `count` keys of at least `key_bytes` bytes, each starting with its time. */
void mt_key_list(rb_ar *ar, const char *name, uint64_t key_bytes, key_fields_fn fields, uint32_t version)
{
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, name, RB_U32, key_bytes)) {
        rb_ar_f32(ar, "time");
        if (fields) fields(ar, version);
    }
}

/* Reject a chunk version whose layout is not known: guessing would misread everything after it. */
int mt_version_known(rb_ar *ar, uint32_t version, uint32_t max, const char *what)
{
    if (rb_ar_ok(ar) && version > max) {
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "%s version %u is not known (up to %u are)", what, version, max);
        return 0;
    }
    return rb_ar_ok(ar);
}

/* READ: is the u32 `offset` bytes ahead the end of the node, or a chunk that may follow chunk number
 * `after` in a node of class `class_a` or `class_b` (chunk numbers increase within a class)? */
int mt_chunk_boundary_at(rb_ar *ar, uint64_t offset, uint32_t class_a, uint32_t class_b, uint32_t after)
{
    uint32_t next = 0;
    if (!rb_ar_peek_u32_at(ar, offset, &next)) return 0;
    uint32_t cls = next & 0xFFFFF000u;
    return next == GBX_FACADE || ((cls == class_a || cls == class_b) && (next & 0xFFFu) > after);
}

/* READ: the u32 count the next list would have (0 when the data ends here) */
uint64_t mt_peek_count(rb_ar *ar)
{
    uint32_t n = 0;
    return rb_ar_peek_u32(ar, &n) ? n : 0;
}
