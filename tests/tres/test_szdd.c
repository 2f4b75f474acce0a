/*
 * SZDD-packed GROFF: a file packed here (header + the SZDD codec) must be opened as "groff",
 * written back byte for byte (original stream kept), written back identically when the stream
 * is re-encoded (same encoder), and its decoded content must be the plain file. A packed file
 * cut short must fail with an error, not crash.
 * Usage: test_szdd GRF...   (missing files are skipped with a note)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rebyte.h"
#include "writers/szdd.h"

static int failures;

static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(*size + 1);
    if (fread(data, 1, *size, f) != *size) { free(data); data = NULL; }
    fclose(f);
    return data;
}

static void pack(const uint8_t *plain, size_t size, rb_buf *out)
{
    rb_buf_put(out, RB_SZDD_MAGIC, 8);
    rb_buf_put_u8(out, 'A');
    rb_buf_put_u8(out, 0);
    rb_buf_put_le(out, size, 4);
    char why[200];
    if (rb_codec_szdd.encode(plain, size, out, why, sizeof why) != 0) {
        fprintf(stderr, "FAIL: encode: %s\n", why);
        failures++;
    }
}

static void expect_write(rb_doc *doc, int reencode, int decoded, const uint8_t *want, size_t want_size, const char *what)
{
    rb_write_options options = {.reencode = reencode, .decoded = decoded};
    uint8_t *out = NULL;
    size_t out_size = 0;
    rb_error err;
    if (rb_doc_write(doc, &options, &out, &out_size, &err) != RB_OK) {
        char text[1200];
        fprintf(stderr, "FAIL %s: %s\n", what, rb_error_format(&err, text, sizeof text));
        failures++;
        return;
    }
    if (out_size != want_size || memcmp(out, want, want_size) != 0) {
        fprintf(stderr, "FAIL %s: output differs (%zu bytes, expected %zu)\n", what, out_size, want_size);
        failures++;
    }
    free(out);
}

static void check_file(const char *path)
{
    size_t size = 0;
    uint8_t *plain = load(path, &size);
    if (!plain) { printf("note: %s not found, skipped\n", path); return; }
    rb_buf packed;
    rb_buf_init(&packed);
    pack(plain, size, &packed);
    const char *format = rb_format_detect(packed.data, packed.size);
    if (!format || strcmp(format, "groff") != 0) {
        fprintf(stderr, "FAIL %s: packed file detected as %s\n", path, format ? format : "nothing");
        failures++;
    }
    rb_error err;
    rb_read_options options = {.size = sizeof options, .file_name = path};
    rb_doc *doc = rb_doc_parse(packed.data, packed.size, &options, &err);
    if (!doc) {
        char text[1200];
        fprintf(stderr, "FAIL %s: %s\n", path, rb_error_format(&err, text, sizeof text));
        failures++;
    } else {
        expect_write(doc, 0, 0, packed.data, packed.size, "rewrite packed");
        expect_write(doc, 1, 0, packed.data, packed.size, "re-encode packed");
        /* the decoded form is the 14-byte header followed by the plain GROFF file */
        rb_write_options dec = {.decoded = 1};
        uint8_t *out = NULL;
        size_t out_size = 0;
        if (rb_doc_write(doc, &dec, &out, &out_size, &err) == RB_OK) {
            if (out_size != 14 + size || memcmp(out + 14, plain, size) != 0) {
                fprintf(stderr, "FAIL %s: decoded content is not the plain file\n", path);
                failures++;
            }
        }
        free(out);
        rb_doc_free(doc);
    }
    /* cut short: the last flag group loses its last byte */
    rb_doc *cut = rb_doc_parse(packed.data, packed.size - 1, &options, &err);
    if (cut) {
        fprintf(stderr, "FAIL %s: a truncated packed file was accepted\n", path);
        failures++;
        rb_doc_free(cut);
    }
    printf("%s: %zu bytes packed to %zu\n", path, size, packed.size);
    rb_buf_free(&packed);
    free(plain);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) check_file(argv[i]);
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("szdd: all checks passed\n");
    return 0;
}
