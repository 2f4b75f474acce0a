#include "buf.h"
#include <stdlib.h>
#include <string.h>

struct rb_buf_gap {
    size_t at;
    unsigned width;
};

void rb_buf_init(rb_buf *b) { memset(b, 0, sizeof(*b)); }
void rb_buf_free(rb_buf *b)
{
    free(b->data);
    free(b->gaps);
    rb_buf_init(b);
}

void rb_buf_expect(rb_buf *b, const uint8_t *expected, size_t expected_size)
{
    if (b->size || b->failed || !expected) return; /* only a hint: the buffer stays ordinary */
    free(b->data); /* room reserved for a copy that expect mode may never need */
    b->data = NULL;
    b->cap = 0;
    b->expected = expected;
    b->expected_size = expected_size;
}

/* Does placeholder `i` hold what is expected there? It holds zeros until patched. */
static int gap_as_expected(const rb_buf *b, size_t i)
{
    for (unsigned k = 0; k < b->gaps[i].width; k++)
        if (b->expected[b->gaps[i].at + k]) return 0;
    return 1;
}

int rb_buf_holds_expected(const rb_buf *b)
{
    if (!b->expected || b->failed || b->size != b->expected_size) return 0;
    for (size_t i = 0; i < b->gap_count; i++)
        if (!gap_as_expected(b, i)) return 0;
    return 1;
}

const uint8_t *rb_buf_view(rb_buf *b, size_t from)
{
    if (b->failed || from > b->size) return NULL;
    if (b->expected) {
        for (size_t i = 0; i < b->gap_count; i++)
            if (b->gaps[i].at + b->gaps[i].width > from && !gap_as_expected(b, i) && !rb_buf_materialize(b)) return NULL;
        if (b->expected) return b->expected + from;
    }
    return b->data ? b->data + from : (const uint8_t *)"";
}

int rb_buf_materialize(rb_buf *b)
{
    if (!b->expected) return !b->failed;
    /* the expected size is what the content will most likely come to: reserve it at once */
    size_t cap = b->expected_size > b->size ? b->expected_size : b->size;
    uint8_t *data = malloc(cap ? cap : 1);
    if (!data) {
        b->failed = 1;
        return 0;
    }
    memcpy(data, b->expected, b->size); /* expect mode never lets size pass expected_size */
    for (size_t i = 0; i < b->gap_count; i++) memset(data + b->gaps[i].at, 0, b->gaps[i].width);
    free(b->gaps);
    b->gaps = NULL;
    b->gap_count = b->gap_cap = 0;
    b->data = data;
    b->cap = cap ? cap : 1;
    b->expected = NULL;
    b->expected_size = 0;
    return 1;
}

/* Bytes put in expect mode: counted when they agree with the expected ones, else the end of
 * expect mode. Returns 1 when they were taken. */
static int put_expected(rb_buf *b, const void *src, size_t n)
{
    if (b->failed || n > b->expected_size - b->size || memcmp(b->expected + b->size, src, n) != 0) return 0;
    b->size += n;
    return 1;
}

int rb_buf_reserve(rb_buf *b, size_t extra)
{
    if (b->failed || !rb_buf_materialize(b)) return 0;
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
    if (b->expected || b->failed || extra > SIZE_MAX / 4 - b->size || extra <= b->cap - b->size) return;
    uint8_t *p = realloc(b->data, b->size + extra);
    if (!p) return; /* only a hint: the buffer grows as usual */
    b->data = p;
    b->cap = b->size + extra;
}

void rb_buf_put(rb_buf *b, const void *src, size_t n)
{
    if (n == 0 || (b->expected && put_expected(b, src, n))) return;
    if (!rb_buf_reserve(b, n)) return;
    memcpy(b->data + b->size, src, n);
    b->size += n;
}

void rb_buf_put_u8(rb_buf *b, uint8_t v) { rb_buf_put(b, &v, 1); }

/* `width` (at most 8) bytes of v, little- or big-endian, into out. */
static void encode(uint8_t *out, uint64_t v, unsigned width, int big_endian)
{
    for (unsigned i = 0; i < width; i++) out[big_endian ? width - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

void rb_buf_put_le(rb_buf *b, uint64_t v, unsigned width)
{
    uint8_t tmp[8];
    if (width > 8) { b->failed = 1; return; } /* no wire value is wider */
    encode(tmp, v, width, 0);
    rb_buf_put(b, tmp, width);
}

void rb_buf_put_be(rb_buf *b, uint64_t v, unsigned width)
{
    uint8_t tmp[8];
    if (width > 8) { b->failed = 1; return; } /* no wire value is wider */
    encode(tmp, v, width, 1);
    rb_buf_put(b, tmp, width);
}

void rb_buf_put_placeholder(rb_buf *b, unsigned width)
{
    if (b->expected && !b->failed && width <= b->expected_size - b->size) {
        if (b->gap_count == b->gap_cap) {
            size_t cap = b->gap_cap ? b->gap_cap * 2 : 16;
            struct rb_buf_gap *gaps = realloc(b->gaps, cap * sizeof(*gaps));
            if (!gaps) {
                b->failed = 1;
                return;
            }
            b->gaps = gaps;
            b->gap_cap = cap;
        }
        b->gaps[b->gap_count++] = (struct rb_buf_gap){b->size, width};
        b->size += width;
        return;
    }
    static const uint8_t zeros[8]; /* slots are at most 8 bytes wide */
    for (unsigned left = width; left; left -= left > 8 ? 8 : left) rb_buf_put(b, zeros, left > 8 ? 8 : left);
}

/* A placeholder at `at` is patched: it no longer needs zeroing. Placeholders are mostly patched
 * last-put-first, so the search starts at the end. */
static void forget_gap(rb_buf *b, size_t at)
{
    for (size_t i = b->gap_count; i-- > 0;) {
        if (b->gaps[i].at != at) continue;
        b->gaps[i] = b->gaps[--b->gap_count];
        return;
    }
}

static void patch(rb_buf *b, size_t at, const uint8_t *bytes, unsigned width)
{
    if (b->failed || at > b->size || width > b->size - at) return;
    if (b->expected) {
        forget_gap(b, at);
        if (memcmp(b->expected + at, bytes, width) == 0) return;
        if (!rb_buf_materialize(b)) return;
    }
    memcpy(b->data + at, bytes, width);
}

void rb_buf_patch_le(rb_buf *b, size_t at, uint64_t v, unsigned width)
{
    uint8_t tmp[8];
    if (width > 8) { b->failed = 1; return; } /* no wire value is wider */
    encode(tmp, v, width, 0);
    patch(b, at, tmp, width);
}

void rb_buf_patch_be(rb_buf *b, size_t at, uint64_t v, unsigned width)
{
    uint8_t tmp[8];
    if (width > 8) { b->failed = 1; return; } /* no wire value is wider */
    encode(tmp, v, width, 1);
    patch(b, at, tmp, width);
}

int rb_buf_equals_at(const rb_buf *b, size_t at, const void *bytes, size_t n)
{
    if (b->failed || at > b->size || n > b->size - at) return 0;
    if (!b->expected) return n == 0 || memcmp(b->data + at, bytes, n) == 0;
    for (size_t i = 0; i < b->gap_count; i++) /* a placeholder not patched yet: not settled */
        if (b->gaps[i].at < at + n && at < b->gaps[i].at + b->gaps[i].width) return 0;
    return n == 0 || memcmp(b->expected + at, bytes, n) == 0;
}

uint8_t *rb_buf_take(rb_buf *b, size_t *size)
{
    rb_buf_materialize(b);
    free(b->gaps);
    uint8_t *p = b->data;
    *size = b->size;
    if (!p) p = malloc(1); /* callers free() the result even when empty */
    rb_buf_init(b);
    return p;
}
