/*
 * GameMaker's QOI variant (docs/formats/datawin.md "Texture encodings"). The decoder and the
 * encoder keep the same state (the previous pixel and the 64-entry table of recent pixels) and
 * update it the same way after every operation, so whatever the encoder emits decodes back to
 * its input.
 */
#include "writers/qoi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct qoi_px { uint8_t r, g, b, a; } qoi_px;

static unsigned qoi_hash(qoi_px p) { return (unsigned)(p.r ^ p.g ^ p.b ^ p.a) & 63; }
static int qoi_same(qoi_px x, qoi_px y) { return x.r == y.r && x.g == y.g && x.b == y.b && x.a == y.a; }
/* The two's-complement value of the low `bits` bits of v. */
static int qoi_signed(unsigned v, unsigned bits)
{
    v &= (1u << bits) - 1;
    return v & (1u << (bits - 1)) ? (int)v - (1 << bits) : (int)v;
}

/* Width and height from a stream's header; 0, or -1 with `err` when it is not one. */
static int rb_qoi_size(const uint8_t *in, size_t in_size, unsigned *width, unsigned *height, char *err, size_t err_size)
{
    if (in_size < RB_QOI_HEADER || memcmp(in, "fioq", 4) != 0) {
        snprintf(err, err_size, "not a GameMaker QOI stream (no \"fioq\" header)");
        return -1;
    }
    *width = (unsigned)(in[4] | in[5] << 8);
    *height = (unsigned)(in[6] | in[7] << 8);
    return 0;
}

int rb_qoi_decode(const uint8_t *in, size_t in_size, uint64_t max_bytes, uint8_t **rgba, unsigned *width,
                  unsigned *height, char *err, size_t err_size)
{
    *rgba = NULL;
    if (rb_qoi_size(in, in_size, width, height, err, err_size)) return -1;
    uint64_t length = (uint64_t)in[8] | (uint64_t)in[9] << 8 | (uint64_t)in[10] << 16 | (uint64_t)in[11] << 24;
    if (length > in_size - RB_QOI_HEADER) {
        snprintf(err, err_size, "QOI header declares %llu bytes of operations, the stream has %zu",
                 (unsigned long long)length, in_size - RB_QOI_HEADER);
        return -1;
    }
    uint64_t pixels = (uint64_t)*width * *height;
    if (pixels * 4 > max_bytes) {
        snprintf(err, err_size, "QOI picture of %ux%u is above the %llu-byte limit", *width, *height,
                 (unsigned long long)max_bytes);
        return -1;
    }
    uint8_t *out = malloc(pixels ? (size_t)pixels * 4 : 1);
    if (!out) {
        snprintf(err, err_size, "out of memory for a %ux%u picture", *width, *height);
        return -1;
    }
    const uint8_t *op = in + RB_QOI_HEADER;
    size_t at = 0, n = (size_t)length;
    qoi_px px = {0, 0, 0, 255}, table[64];
    memset(table, 0, sizeof table);
    uint64_t done = 0;
    while (done < pixels) {
        if (at >= n) {
            snprintf(err, err_size, "QOI operations end at byte %zu with %llu of %llu pixels decoded",
                     RB_QOI_HEADER + at, (unsigned long long)done, (unsigned long long)pixels);
            free(out);
            return -1;
        }
        size_t start = at;
        unsigned b1 = op[at++], repeat = 1, need = 0;
        /* bytes the operation takes after its first */
        if ((b1 & 0xE0) == 0x60 || (b1 & 0xE0) == 0xC0) need = 1;
        else if ((b1 & 0xF0) == 0xE0) need = 2;
        else if ((b1 & 0xF0) == 0xF0) need = (b1 >> 3 & 1) + (b1 >> 2 & 1) + (b1 >> 1 & 1) + (b1 & 1);
        if (need > n - at) {
            snprintf(err, err_size, "QOI operation 0x%02x at byte %zu runs past the end of the stream", b1,
                     RB_QOI_HEADER + start);
            free(out);
            return -1;
        }
        if ((b1 & 0xC0) == 0x00) {
            px = table[b1];
        } else if ((b1 & 0xE0) == 0x40) {
            repeat = (b1 & 0x1F) + 1;
        } else if ((b1 & 0xE0) == 0x60) {
            repeat = ((b1 & 0x1F) << 8 | op[at++]) + 33;
        } else if ((b1 & 0xC0) == 0x80) {
            px.r = (uint8_t)(px.r + qoi_signed(b1 >> 4, 2));
            px.g = (uint8_t)(px.g + qoi_signed(b1 >> 2, 2));
            px.b = (uint8_t)(px.b + qoi_signed(b1, 2));
        } else if ((b1 & 0xE0) == 0xC0) {
            unsigned b2 = op[at++];
            px.r = (uint8_t)(px.r + qoi_signed(b1, 5));
            px.g = (uint8_t)(px.g + qoi_signed(b2 >> 4, 4));
            px.b = (uint8_t)(px.b + qoi_signed(b2, 4));
        } else if ((b1 & 0xF0) == 0xE0) {
            unsigned v = b1 << 16 | (unsigned)op[at] << 8 | op[at + 1];
            at += 2;
            px.r = (uint8_t)(px.r + qoi_signed(v >> 15, 5));
            px.g = (uint8_t)(px.g + qoi_signed(v >> 10, 5));
            px.b = (uint8_t)(px.b + qoi_signed(v >> 5, 5));
            px.a = (uint8_t)(px.a + qoi_signed(v, 5));
        } else {
            if (b1 & 8) px.r = op[at++];
            if (b1 & 4) px.g = op[at++];
            if (b1 & 2) px.b = op[at++];
            if (b1 & 1) px.a = op[at++];
        }
        table[qoi_hash(px)] = px;
        /* a run past the last pixel is cut there: the picture's size is the header's */
        if (repeat > pixels - done) repeat = (unsigned)(pixels - done);
        for (unsigned k = 0; k < repeat; k++, done++) memcpy(out + done * 4, &px, 4);
    }
    *rgba = out;
    return 0;
}

static void put_run(rb_buf *out, unsigned run)
{
    if (run <= 32) {
        rb_buf_put_u8(out, (uint8_t)(0x40 | (run - 1)));
    } else {
        run -= 33;
        rb_buf_put_u8(out, (uint8_t)(0x60 | run >> 8));
        rb_buf_put_u8(out, (uint8_t)run);
    }
}

/* The shortest operation that turns `prev` into `px` (the table did not have it). Differences
 * are taken without wrapping around 256, as GameMaker's own encoder takes them, so a decoder
 * that does not wrap reads these streams too. */
static void put_change(rb_buf *out, qoi_px prev, qoi_px px)
{
    int dr = px.r - prev.r, dg = px.g - prev.g, db = px.b - prev.b, da = px.a - prev.a;
    if (da == 0 && dr >= -2 && dr <= 1 && dg >= -2 && dg <= 1 && db >= -2 && db <= 1) {
        rb_buf_put_u8(out, (uint8_t)(0x80 | (dr & 3) << 4 | (dg & 3) << 2 | (db & 3)));
    } else if (da == 0 && dr >= -16 && dr <= 15 && dg >= -8 && dg <= 7 && db >= -8 && db <= 7) {
        rb_buf_put_u8(out, (uint8_t)(0xC0 | (dr & 31)));
        rb_buf_put_u8(out, (uint8_t)((dg & 15) << 4 | (db & 15)));
    } else if (dr >= -16 && dr <= 15 && dg >= -16 && dg <= 15 && db >= -16 && db <= 15 && da >= -16 && da <= 15) {
        unsigned v = 0xE00000u | (unsigned)(dr & 31) << 15 | (unsigned)(dg & 31) << 10 | (unsigned)(db & 31) << 5 |
                     (unsigned)(da & 31);
        rb_buf_put_u8(out, (uint8_t)(v >> 16));
        rb_buf_put_u8(out, (uint8_t)(v >> 8));
        rb_buf_put_u8(out, (uint8_t)v);
    } else {
        rb_buf_put_u8(out, (uint8_t)(0xF0 | (dr != 0) << 3 | (dg != 0) << 2 | (db != 0) << 1 | (da != 0)));
        if (dr) rb_buf_put_u8(out, px.r);
        if (dg) rb_buf_put_u8(out, px.g);
        if (db) rb_buf_put_u8(out, px.b);
        if (da) rb_buf_put_u8(out, px.a);
    }
}

int rb_qoi_encode(const uint8_t *rgba, unsigned width, unsigned height, rb_buf *out, char *err, size_t err_size)
{
    if (width > 0xFFFF || height > 0xFFFF) {
        snprintf(err, err_size, "a QOI picture is at most 65535 pixels a side, not %ux%u", width, height);
        return -1;
    }
    size_t header = out->size;
    rb_buf_put(out, "fioq", 4);
    rb_buf_put_le(out, width, 2);
    rb_buf_put_le(out, height, 2);
    rb_buf_put_placeholder(out, 4);
    qoi_px prev = {0, 0, 0, 255}, table[64];
    memset(table, 0, sizeof table);
    uint64_t pixels = (uint64_t)width * height;
    unsigned run = 0;
    for (uint64_t i = 0; i < pixels; i++) {
        qoi_px px;
        memcpy(&px, rgba + i * 4, 4);
        if (qoi_same(px, prev)) {
            /* the longest run one operation holds: 0x1FFF + 33 */
            if (++run == 0x2020) {
                put_run(out, run);
                run = 0;
                table[qoi_hash(prev)] = prev; /* as the decoder does after a run */
            }
            continue;
        }
        if (run) {
            put_run(out, run);
            run = 0;
            table[qoi_hash(prev)] = prev; /* as the decoder does after a run */
        }
        unsigned h = qoi_hash(px);
        if (qoi_same(table[h], px)) rb_buf_put_u8(out, (uint8_t)h);
        else put_change(out, prev, px);
        table[h] = px;
        prev = px;
    }
    if (run) put_run(out, run);
    static const uint8_t tail[4];
    rb_buf_put(out, tail, 4); /* GameMaker's streams end with 4 zero bytes, counted in the length */
    if (out->failed) {
        snprintf(err, err_size, "out of memory encoding a %ux%u picture", width, height);
        return -1;
    }
    rb_buf_patch_le(out, header + 8, out->size - header - RB_QOI_HEADER, 4);
    return 0;
}
