/* Growable output buffer. Allocation failure is sticky: check `failed` once at the end. */
#ifndef RB_BUF_H
#define RB_BUF_H
#include <stddef.h>
#include <stdint.h>

typedef struct rb_buf {
    uint8_t *data;
    size_t size, cap;
    int failed;
    /* Expect mode (rb_buf_expect): the bytes the buffer is expected to come to hold. While what is
     * put agrees with them it is only counted (data stays NULL); the first disagreement copies the
     * agreeing prefix and the buffer carries on as an ordinary one. */
    const uint8_t *expected;
    size_t expected_size;
    struct rb_buf_gap *gaps; /* placeholders put and not yet patched (expect mode only) */
    size_t gap_count, gap_cap, gaps_settled;
} rb_buf;

void rb_buf_init(rb_buf *b);
void rb_buf_free(rb_buf *b);
int rb_buf_reserve(rb_buf *b, size_t extra);
/* Room for `extra` more bytes if memory allows; never fails the buffer (a size expected, not needed). */
void rb_buf_reserve_hint(rb_buf *b, size_t extra);
void rb_buf_put(rb_buf *b, const void *src, size_t n);
/* A text sink (rb_text_sink) into the rb_buf `context`: -1 once it failed (out of memory). */
int rb_buf_sink(void *context, const char *text, size_t size);
void rb_buf_put_u8(rb_buf *b, uint8_t v);
void rb_buf_put_le(rb_buf *b, uint64_t v, unsigned width);
void rb_buf_put_be(rb_buf *b, uint64_t v, unsigned width);
void rb_buf_patch_le(rb_buf *b, size_t at, uint64_t v, unsigned width);
void rb_buf_patch_be(rb_buf *b, size_t at, uint64_t v, unsigned width);
/* `width` zero bytes that rb_buf_patch_* fills in later (a size known only afterwards). */
void rb_buf_put_placeholder(rb_buf *b, unsigned width);
/* `width` (at most 8) bytes a later rb_buf_patch_* is likely to replace: in expect mode they are
 * compared only when patched, or at the end (bytecode words a writer derives after putting it). */
void rb_buf_put_deferred(rb_buf *b, const void *bytes, unsigned width);

/* Expect mode, for an empty buffer (room reserved in it is released): `expected` (not copied; it must outlive the buffer's expect
 * mode) is what the buffer is likely to end up holding. Content written unchanged then costs no
 * memory. */
void rb_buf_expect(rb_buf *b, const uint8_t *expected, size_t expected_size);
/* Does the buffer hold exactly its expected bytes (still in expect mode, all of them put, and
 * every placeholder patched or holding the expected bytes)? */
int rb_buf_holds_expected(const rb_buf *b);
/* The bytes put from `from` on (size - from of them), in either mode; NULL when failed. In expect
 * mode a placeholder not yet patched that does not hold the expected bytes ends expect mode. */
const uint8_t *rb_buf_view(rb_buf *b, size_t from);
/* Copies the n bytes put at `at` (either mode, expect mode left as it is); 0 when not all are put. */
int rb_buf_read(const rb_buf *b, size_t at, void *out, size_t n);
/* Leaves expect mode: data then holds the bytes put so far. 0 when out of memory. */
int rb_buf_materialize(rb_buf *b);
/* Are bytes [at, at + n) of the buffer equal to `bytes`? */
int rb_buf_equals_at(const rb_buf *b, size_t at, const void *bytes, size_t n);
/* Hands the bytes to the caller (malloc'd) and resets the buffer. */
uint8_t *rb_buf_take(rb_buf *b, size_t *size);
#endif
