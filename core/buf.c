#include "core/buf.h"
#include <stdlib.h>
#include <string.h>

/* Placeholders are put at the end of the buffer, so `gaps` is in increasing order of `at` and
 * they do not overlap: found by binary search. A settled one (patched to the expected bytes) gets
 * width 0 and stays in place until they are a majority (then the array is compacted). */
struct rb_buf_gap {
    size_t at;
    unsigned width;
    uint8_t held[8]; /* what it holds until patched (a placeholder wider than 8 bytes: zeros) */
};

/* Index of the first placeholder that ends after `at` (gap_count when none). */
static size_t first_gap_after(const rb_buf *b, size_t at)
{
    size_t lo = 0, hi = b->gap_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->gaps[mid].at < at) lo = mid + 1;
        else hi = mid;
    }
    if (lo > 0 && b->gaps[lo - 1].at + b->gaps[lo - 1].width > at) lo--; /* the one that covers `at` */
    return lo;
}

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

static uint8_t gap_byte(const struct rb_buf_gap *g, unsigned k) { return g->width <= 8 ? g->held[k] : 0; }

/* Does placeholder `i` hold what is expected there? */
static int gap_as_expected(const rb_buf *b, size_t i)
{
    for (unsigned k = 0; k < b->gaps[i].width; k++)
        if (b->expected[b->gaps[i].at + k] != gap_byte(&b->gaps[i], k)) return 0;
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
        for (size_t i = first_gap_after(b, from); i < b->gap_count; i++)
            if (!gap_as_expected(b, i) && !rb_buf_materialize(b)) return NULL;
        if (b->expected) return b->expected + from;
    }
    return b->data ? b->data + from : (const uint8_t *)"";
}

int rb_buf_read(const rb_buf *b, size_t at, void *out, size_t n)
{
    if (b->failed || at > b->size || n > b->size - at) return 0;
    if (!b->expected) {
        if (n) memcpy(out, b->data + at, n);
        return 1;
    }
    if (n) memcpy(out, b->expected + at, n);
    for (size_t i = first_gap_after(b, at); i < b->gap_count && b->gaps[i].at < at + n; i++)
        for (unsigned k = 0; k < b->gaps[i].width; k++) /* what the placeholders hold instead */
            if (b->gaps[i].at + k >= at && b->gaps[i].at + k < at + n)
                ((uint8_t *)out)[b->gaps[i].at + k - at] = gap_byte(&b->gaps[i], k);
    return 1;
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
    for (size_t i = 0; i < b->gap_count; i++)
        for (unsigned k = 0; k < b->gaps[i].width; k++) data[b->gaps[i].at + k] = gap_byte(&b->gaps[i], k);
    free(b->gaps);
    b->gaps = NULL;
    b->gap_count = b->gap_cap = b->gaps_settled = 0;
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
    if (b->failed || n > b->expected_size - b->size) return 0;
    /* bytes put from the expected memory itself (a deferred unit's slice of the input, a blob
     * read in place) are those bytes: nothing to compare
     * (docs/performance.md "Verify's check, what it costs") */
    if (src != b->expected + b->size && memcmp(b->expected + b->size, src, n) != 0) return 0;
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

/* Expect mode: a gap of `width` bytes holding `held` (zeros when NULL) until patched. 0 when the
 * buffer cannot take it as a gap (not in expect mode, past the expected size, out of memory). */
static int put_gap(rb_buf *b, const uint8_t *held, unsigned width)
{
    if (!b->expected || b->failed || width > b->expected_size - b->size) return 0;
    if (b->gap_count == b->gap_cap) {
        size_t cap = b->gap_cap ? b->gap_cap * 2 : 16;
        struct rb_buf_gap *gaps = realloc(b->gaps, cap * sizeof(*gaps));
        if (!gaps) {
            b->failed = 1;
            return 0;
        }
        b->gaps = gaps;
        b->gap_cap = cap;
    }
    struct rb_buf_gap *g = &b->gaps[b->gap_count++];
    *g = (struct rb_buf_gap){.at = b->size, .width = width};
    if (held && width <= 8) memcpy(g->held, held, width);
    b->size += width;
    return 1;
}

void rb_buf_put_placeholder(rb_buf *b, unsigned width)
{
    if (put_gap(b, NULL, width) || b->failed) return;
    static const uint8_t zeros[8]; /* slots are at most 8 bytes wide */
    for (unsigned left = width; left; left -= left > 8 ? 8 : left) rb_buf_put(b, zeros, left > 8 ? 8 : left);
}

void rb_buf_put_deferred(rb_buf *b, const void *bytes, unsigned width)
{
    if (width > 8) { b->failed = 1; return; } /* no wire value is wider */
    if (!put_gap(b, bytes, width) && !b->failed) rb_buf_put(b, bytes, width);
}

/* The open placeholder put at `at`, or NULL. */
static struct rb_buf_gap *gap_at(rb_buf *b, size_t at)
{
    size_t i = first_gap_after(b, at);
    return i < b->gap_count && b->gaps[i].at == at && b->gaps[i].width ? &b->gaps[i] : NULL;
}

/* A placeholder is settled: marked, and the settled ones dropped once they are a majority. */
static void settle_gap(rb_buf *b, struct rb_buf_gap *g)
{
    g->width = 0;
    if (++b->gaps_settled * 2 <= b->gap_count) return;
    size_t kept = 0;
    for (size_t i = 0; i < b->gap_count; i++)
        if (b->gaps[i].width) b->gaps[kept++] = b->gaps[i];
    b->gap_count = kept;
    b->gaps_settled = 0;
}

/* A placeholder is patched: to the expected bytes, it is settled; to others, it holds them and
 * stays open (a word patched in steps: a chain's end, then its name's index). */
static void patch(rb_buf *b, size_t at, const uint8_t *bytes, unsigned width)
{
    if (b->failed || at > b->size || width > b->size - at) return;
    if (b->expected) {
        struct rb_buf_gap *g = gap_at(b, at);
        int expected = memcmp(b->expected + at, bytes, width) == 0;
        if (g && g->width == width && !expected) {
            memcpy(g->held, bytes, width); /* width <= 8: patches come from rb_buf_patch_* */
            return;
        }
        int whole_gap = g && g->width == width;
        if (whole_gap) settle_gap(b, g);
        if (expected && (whole_gap || !g)) return;
        if (!rb_buf_materialize(b)) return; /* other bytes, or part of a placeholder: as put */
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
    size_t i = first_gap_after(b, at); /* a placeholder not settled yet: not equal yet */
    for (; i < b->gap_count && b->gaps[i].at < at + n; i++)
        if (b->gaps[i].width) return 0;
    return n == 0 || b->expected + at == bytes || memcmp(b->expected + at, bytes, n) == 0;
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

int rb_buf_sink(void *context, const char *text, size_t size)
{
    rb_buf *b = context;
    rb_buf_put(b, text, size);
    return b->failed ? -1 : 0;
}
