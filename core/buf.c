#include "buf.h"
#include <stdlib.h>
#include <string.h>

void rb_buf_init(rb_buf *b) { memset(b, 0, sizeof(*b)); }
void rb_buf_free(rb_buf *b) { free(b->data); rb_buf_init(b); }

int rb_buf_reserve(rb_buf *b, size_t extra)
{
    if (b->failed) return 0;
    if (extra <= b->cap - b->size) return 1;
    if (extra > SIZE_MAX / 2 - b->size) { b->failed = 1; return 0; }
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->size < extra) cap *= 2;
    uint8_t *p = realloc(b->data, cap);
    if (!p) { b->failed = 1; return 0; }
    b->data = p;
    b->cap = cap;
    return 1;
}

void rb_buf_reserve_hint(rb_buf *b, size_t extra)
{
    if (b->failed || extra > SIZE_MAX / 4 - b->size || extra <= b->cap - b->size) return;
    uint8_t *p = realloc(b->data, b->size + extra);
    if (!p) return; /* only a hint: the buffer grows as usual */
    b->data = p;
    b->cap = b->size + extra;
}

void rb_buf_put(rb_buf *b, const void *src, size_t n)
{
    if (n == 0 || !rb_buf_reserve(b, n)) return;
    memcpy(b->data + b->size, src, n);
    b->size += n;
}

void rb_buf_put_u8(rb_buf *b, uint8_t v) { rb_buf_put(b, &v, 1); }

void rb_buf_put_le(rb_buf *b, uint64_t v, unsigned width)
{
    uint8_t tmp[8];
    for (unsigned i = 0; i < width; i++) tmp[i] = (uint8_t)(v >> (8 * i));
    rb_buf_put(b, tmp, width);
}

void rb_buf_put_be(rb_buf *b, uint64_t v, unsigned width)
{
    uint8_t tmp[8];
    for (unsigned i = 0; i < width; i++) tmp[width - 1 - i] = (uint8_t)(v >> (8 * i));
    rb_buf_put(b, tmp, width);
}

void rb_buf_patch_le(rb_buf *b, size_t at, uint64_t v, unsigned width)
{
    if (b->failed || at + width > b->size) return;
    for (unsigned i = 0; i < width; i++) b->data[at + i] = (uint8_t)(v >> (8 * i));
}

uint8_t *rb_buf_take(rb_buf *b, size_t *size)
{
    uint8_t *p = b->data;
    *size = b->size;
    if (!p) p = malloc(1); /* callers free() the result even when empty */
    rb_buf_init(b);
    return p;
}
