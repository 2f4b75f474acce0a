/* LZSS, Okumura style (see lzss.h). */
#include "writers/lzss.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LZSS_N = 4096, LZSS_THRESHOLD = 2, LZSS_MAX_F = 18, LZSS_NIL = LZSS_N };

const rb_lzss_params rb_lzss_spz_params = {18, 0x00, 1};

/* ---------- decoder ---------- */

int rb_lzss_decode(const rb_lzss_params *params, const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size,
                   char *err, size_t err_size)
{
    uint8_t window[LZSS_N];
    /* written[i]: slot i holds a defined byte (matters only for SPZ's uninitialised tail) */
    uint8_t written[LZSS_N];
    unsigned start = LZSS_N - params->max_match, r = start;
    memset(window, params->fill, sizeof window);
    memset(written, 1, sizeof written);
    if (params->tail_uninitialised) memset(written + start, 0, LZSS_N - start);
    size_t i = 0, n = 0;
    while (i < in_size) {
        unsigned flags = in[i++];
        for (int bit = 0; bit < 8 && i < in_size; bit++, flags >>= 1) {
            if (flags & 1) {
                if (n >= out_size) goto too_long;
                out[n++] = window[r] = in[i++];
                written[r] = 1;
                r = (r + 1) & (LZSS_N - 1);
                continue;
            }
            if (i + 1 >= in_size) {
                snprintf(err, err_size, "LZSS stream ends inside a match token at input byte %zu", i);
                return -1;
            }
            unsigned pos = in[i] | (in[i + 1] & 0xF0) << 4, len = (in[i + 1] & 0x0F) + LZSS_THRESHOLD + 1;
            i += 2;
            for (unsigned k = 0; k < len; k++) {
                unsigned from = (pos + k) & (LZSS_N - 1);
                if (!written[from]) {
                    snprintf(err, err_size, "LZSS match at input byte %zu reads window slot 0x%X before anything "
                             "was written there (the game would read uninitialised memory)", i - 2, from);
                    return -1;
                }
                if (n >= out_size) goto too_long;
                uint8_t c = window[from];
                out[n++] = window[r] = c;
                written[r] = 1;
                r = (r + 1) & (LZSS_N - 1);
            }
        }
    }
    if (n != out_size) {
        snprintf(err, err_size, "LZSS stream decodes to %zu bytes, the header declares %zu", n, out_size);
        return -1;
    }
    return 0;
too_long:
    snprintf(err, err_size, "LZSS stream decodes to more than the %zu bytes the header declares", out_size);
    return -1;
}

/* ---------- encoder: Okumura's binary search trees ---------- */

typedef struct lzss_tree {
    unsigned f;
    uint8_t text[LZSS_N + LZSS_MAX_F - 1];
    int lson[LZSS_N + 1], rson[LZSS_N + 257], dad[LZSS_N + 1];
    int match_position, match_length;
} lzss_tree;

static void tree_init(lzss_tree *t)
{
    for (int i = LZSS_N + 1; i <= LZSS_N + 256; i++) t->rson[i] = LZSS_NIL;
    for (int i = 0; i < LZSS_N; i++) t->dad[i] = LZSS_NIL;
}

/* Inserts the string at r; finds the longest match on the way (the first one strictly longer
 * than the previous wins). A full-length match replaces the old node by the new one. */
static void tree_insert(lzss_tree *t, int r)
{
    int cmp = 1, p = LZSS_N + 1 + t->text[r], i;
    const uint8_t *key = &t->text[r];
    t->rson[r] = t->lson[r] = LZSS_NIL;
    t->match_length = 0;
    for (;;) {
        if (cmp >= 0) {
            if (t->rson[p] != LZSS_NIL) p = t->rson[p];
            else { t->rson[p] = r; t->dad[r] = p; return; }
        } else {
            if (t->lson[p] != LZSS_NIL) p = t->lson[p];
            else { t->lson[p] = r; t->dad[r] = p; return; }
        }
        for (i = 1; i < (int)t->f; i++)
            if ((cmp = key[i] - t->text[p + i]) != 0) break;
        if (i > t->match_length) {
            t->match_position = p;
            if ((t->match_length = i) >= (int)t->f) break;
        }
    }
    t->dad[r] = t->dad[p];
    t->lson[r] = t->lson[p];
    t->rson[r] = t->rson[p];
    t->dad[t->lson[p]] = r;
    t->dad[t->rson[p]] = r;
    if (t->rson[t->dad[p]] == p) t->rson[t->dad[p]] = r;
    else t->lson[t->dad[p]] = r;
    t->dad[p] = LZSS_NIL;
}

static void tree_delete(lzss_tree *t, int p)
{
    int q;
    if (t->dad[p] == LZSS_NIL) return;
    if (t->rson[p] == LZSS_NIL) {
        q = t->lson[p];
    } else if (t->lson[p] == LZSS_NIL) {
        q = t->rson[p];
    } else {
        q = t->lson[p];
        if (t->rson[q] != LZSS_NIL) {
            do q = t->rson[q]; while (t->rson[q] != LZSS_NIL);
            t->rson[t->dad[q]] = t->lson[q];
            t->dad[t->lson[q]] = t->dad[q];
            t->lson[q] = t->lson[p];
            t->dad[t->lson[p]] = q;
        }
        t->rson[q] = t->rson[p];
        t->dad[t->rson[p]] = q;
    }
    t->dad[q] = t->dad[p];
    if (t->rson[t->dad[p]] == p) t->rson[t->dad[p]] = q;
    else t->lson[t->dad[p]] = q;
    t->dad[p] = LZSS_NIL;
}

/* Collects up to 8 tokens behind their flag byte. */
typedef struct token_group {
    uint8_t bytes[1 + 8 * 2];
    unsigned size;
    uint8_t mask;
} token_group;

static void group_flush(token_group *g, rb_buf *out)
{
    if (g->size > 1) rb_buf_put(out, g->bytes, g->size);
    g->bytes[0] = 0;
    g->size = 1;
    g->mask = 1;
}

static void group_add(token_group *g, rb_buf *out, const lzss_tree *t, int r, int length)
{
    if (length <= LZSS_THRESHOLD) {
        g->bytes[0] |= g->mask;
        g->bytes[g->size++] = t->text[r];
    } else {
        g->bytes[g->size++] = (uint8_t)t->match_position;
        g->bytes[g->size++] = (uint8_t)(((t->match_position >> 4) & 0xF0) | (length - (LZSS_THRESHOLD + 1)));
    }
    g->mask = (uint8_t)(g->mask << 1);
    if (g->mask == 0) group_flush(g, out);
}

int rb_lzss_encode(const rb_lzss_params *params, const uint8_t *in, size_t in_size, rb_buf *out, char *err,
                   size_t err_size)
{
    if (params->max_match < 3 || params->max_match > LZSS_MAX_F) {
        snprintf(err, err_size, "LZSS maximum match %u is outside 3..%d", params->max_match, LZSS_MAX_F);
        return -1;
    }
    lzss_tree *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, err_size, "out of memory for the LZSS encoder");
        return -1;
    }
    const int f = (int)params->max_match;
    size_t next = 0; /* next input byte */
    int s = 0, r = LZSS_N - f, len = 0;
    t->f = params->max_match;
    tree_init(t);
    memset(t->text, params->fill, (size_t)r);
    while (len < f && next < in_size) t->text[r + len++] = in[next++];
    token_group g = {.size = 1, .mask = 1};
    if (len > 0) {
        for (int i = 1; i <= f; i++) tree_insert(t, r - i);
        tree_insert(t, r);
    }
    while (len > 0) {
        if (t->match_length > len) t->match_length = len;
        int length = t->match_length <= LZSS_THRESHOLD ? 1 : t->match_length;
        group_add(&g, out, t, r, t->match_length);
        int i = 0;
        for (; i < length && next < in_size; i++) {
            tree_delete(t, s);
            uint8_t c = in[next++];
            t->text[s] = c;
            if (s < f - 1) t->text[s + LZSS_N] = c; /* mirror for comparisons across the end */
            s = (s + 1) & (LZSS_N - 1);
            r = (r + 1) & (LZSS_N - 1);
            tree_insert(t, r);
        }
        for (; i < length; i++) {
            tree_delete(t, s);
            s = (s + 1) & (LZSS_N - 1);
            r = (r + 1) & (LZSS_N - 1);
            if (--len) tree_insert(t, r);
        }
    }
    group_flush(&g, out);
    free(t);
    if (out->failed) {
        snprintf(err, err_size, "out of memory writing the LZSS stream");
        return -1;
    }
    return 0;
}

/* ---------- the SPZ codec ---------- */

static int spz_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, char *err, size_t err_size)
{
    return rb_lzss_decode(&rb_lzss_spz_params, in, in_size, out, out_size, err, err_size);
}

static int spz_encode(const uint8_t *in, size_t in_size, rb_buf *out, char *err, size_t err_size)
{
    return rb_lzss_encode(&rb_lzss_spz_params, in, in_size, out, err, err_size);
}

/* a flag byte and eight 2-byte references give at most 8 x 18 bytes: under 9 per byte in */
const rb_codec rb_codec_lzss_spz = {"lzss-spz", spz_decode, spz_encode, 9};
