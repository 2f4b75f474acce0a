/*
 * LZSS codecs (SPZ and SZDD parameters): decode(encode(x)) == x on edge cases and on real
 * payloads; a hand-derived SPZ vector; the decoder's refusals (uninitialised window slots,
 * truncated tokens, wrong sizes).
 * Usage: test_lzss [FILE...]   (each FILE is also used as a payload, and so is every real
 * file of $REBYTE_SHARED/corpus/tres when that folder exists)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "writers/lzss.h"
#include "writers/szdd.h"


static void round_trip(const rb_lzss_params *p, const char *what, const uint8_t *data, size_t size)
{
    rb_buf enc;
    rb_buf_init(&enc);
    char why[200] = "";
    int r = rb_lzss_encode(p, data, size, &enc, why, sizeof why);
    CHECK(r == 0, "%s: encode failed: %s", what, why);
    uint8_t *dec = malloc(size + 1);
    r = rb_lzss_decode(p, enc.data, enc.size, dec, size, why, sizeof why);
    CHECK(r == 0, "%s (F=%u): decode failed: %s", what, p->max_match, why);
    CHECK(r != 0 || memcmp(dec, data, size) == 0, "%s (F=%u): round trip differs", what, p->max_match);
    free(dec);
    rb_buf_free(&enc);
}

static void both(const char *what, const uint8_t *data, size_t size)
{
    round_trip(&rb_lzss_spz_params, what, data, size);
    round_trip(&rb_lzss_szdd_params, what, data, size);
}

static uint32_t rng = 12345;
static uint8_t next_byte(unsigned range)
{
    rng = rng * 1103515245u + 12345u;
    return (uint8_t)((rng >> 16) % range);
}

static void edge_cases(void)
{
    uint8_t one = 7;
    static const uint8_t nothing[1] = {0};
    both("empty", nothing, 0);
    both("one byte", &one, 1);
    size_t big = 0x100000 + 4099;
    uint8_t *buf = calloc(big, 1);
    for (size_t n = 2; n <= 40; n++) both("short zeros", buf, n);
    both("exactly the look-ahead of zeros", buf, 18);
    both("a window of zeros", buf, 4096);
    both("zeros past the window edge", buf, 4096 + 19);
    memset(buf, ' ', 4200);
    both("spaces (the SZDD fill) past the window edge", buf, 4200);
    for (size_t i = 0; i < 4200; i++) buf[i] = (uint8_t)(i % 4078 < 4060 ? 0 : 'x');
    both("run ending at the initial write position", buf, 4200);
    for (size_t i = 0; i < big; i++) buf[i] = next_byte(256);
    both("random, longer than 0x100000", buf, big);
    for (size_t i = 0; i < big; i++) buf[i] = next_byte(3);
    both("low entropy, longer than 0x100000", buf, big);
    for (size_t i = 0; i < big; i++) buf[i] = (uint8_t)(i / 4096 % 2 ? i : 0);
    both("alternating zero pages", buf, big);
    free(buf);
}

/* 20 zeros. Before coding, the 18 strings at 0xFED, 0xFEC, ..., 0xFDC are put in the tree;
 * they are all zeros (window) followed by zeros (look-ahead), so each one replaces the previous
 * as an 18-byte match, and 0xFDC (= 0xFEE - 18) is what the first 18 input bytes match.
 * The last 2 bytes are too short for a match: flags 0b110, token DC FF, literals 00 00. */
static void known_vector(void)
{
    uint8_t zeros[20] = {0};
    static const uint8_t expected[] = {0x06, 0xDC, 0xFF, 0x00, 0x00};
    rb_buf enc;
    rb_buf_init(&enc);
    char why[200];
    CHECK(rb_lzss_encode(&rb_lzss_spz_params, zeros, sizeof zeros, &enc, why, sizeof why) == 0, "encode: %s", why);
    CHECK(enc.size == sizeof expected && memcmp(enc.data, expected, sizeof expected) == 0,
          "20 zeros encode to %zu bytes, not 06 DC FF 00 00", enc.size);
    rb_buf_free(&enc);
}

static void refusals(void)
{
    uint8_t out[64];
    char why[200];
    /* a match reading slot 0xFF0 (inside 0xFEE..0xFFF) before anything was written there */
    static const uint8_t uninitialised[] = {0x00, 0xF0, 0xF0};
    CHECK(rb_lzss_decode(&rb_lzss_spz_params, uninitialised, 3, out, 3, why, sizeof why) != 0,
          "SPZ decoder accepted a read of an uninitialised window slot");
    /* the same token is fine for SZDD, whose window is all spaces */
    CHECK(rb_lzss_decode(&rb_lzss_szdd_params, uninitialised, 3, out, 3, why, sizeof why) == 0 && out[0] == ' ',
          "SZDD decoder refused a read of the space-filled window: %s", why);
    static const uint8_t truncated[] = {0x00, 0xED};
    CHECK(rb_lzss_decode(&rb_lzss_spz_params, truncated, 2, out, 3, why, sizeof why) != 0,
          "decoder accepted a match token without its second byte");
    static const uint8_t literals[] = {0xFF, 1, 2, 3};
    CHECK(rb_lzss_decode(&rb_lzss_spz_params, literals, 4, out, 4, why, sizeof why) != 0,
          "decoder accepted a stream shorter than the declared size");
    CHECK(rb_lzss_decode(&rb_lzss_spz_params, literals, 4, out, 2, why, sizeof why) != 0,
          "decoder accepted a stream longer than the declared size");
}

static void file_payload(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { CHECK(0, "cannot open %s", path); return; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
    size_t got = fread(data, 1, (size_t)size, f);
    fclose(f);
    both(path, data, got);
    free(data);
}

int main(int argc, char **argv)
{
    edge_cases();
    known_vector();
    refusals();
    for (int i = 1; i < argc; i++) file_payload(argv[i]);
    int corpus_files = 0;
    const char *shared = getenv("REBYTE_SHARED");
    char dir_path[1024], path[2048];
    snprintf(dir_path, sizeof dir_path, "%s/corpus/tres", shared ? shared : "");
    DIR *dir = shared ? opendir(dir_path) : NULL;
    for (struct dirent *e; dir && (e = readdir(dir));) {
        if (e->d_name[0] == '.' || strstr(e->d_name, ".tsv")) continue;
        snprintf(path, sizeof path, "%s/%s", dir_path, e->d_name);
        file_payload(path);
        corpus_files++;
    }
    if (dir) closedir(dir);
    else printf("note: %s not found; corpus payloads not used\n", dir_path);
    if (test_failures) {
        fprintf(stderr, "%d failure(s)\n", test_failures);
        return 1;
    }
    printf("lzss: all checks passed (%d payload file(s))\n", argc - 1 + corpus_files);
    return 0;
}
