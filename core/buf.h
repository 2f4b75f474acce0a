/* Growable output buffer. Allocation failure is sticky: check `failed` once at the end. */
#ifndef RB_BUF_H
#define RB_BUF_H
#include <stddef.h>
#include <stdint.h>

typedef struct rb_buf {
    uint8_t *data;
    size_t size, cap;
    int failed;
} rb_buf;

void rb_buf_init(rb_buf *b);
void rb_buf_free(rb_buf *b);
int rb_buf_reserve(rb_buf *b, size_t extra);
/* Room for `extra` more bytes if memory allows; never fails the buffer (a size expected, not needed). */
void rb_buf_reserve_hint(rb_buf *b, size_t extra);
void rb_buf_put(rb_buf *b, const void *src, size_t n);
void rb_buf_put_u8(rb_buf *b, uint8_t v);
void rb_buf_put_le(rb_buf *b, uint64_t v, unsigned width);
void rb_buf_put_be(rb_buf *b, uint64_t v, unsigned width);
void rb_buf_patch_le(rb_buf *b, size_t at, uint64_t v, unsigned width);
/* Hands the bytes to the caller (malloc'd) and resets the buffer. */
uint8_t *rb_buf_take(rb_buf *b, size_t *size);
#endif
