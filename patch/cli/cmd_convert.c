/*
 * rebyte convert: binary GBX <-> text GBX (format byte 'B' / 'T').
 *
 * The format byte is a field of the model and the GBX description switches the archive to
 * lines after it (docs/formats/gbx_text.md), so a conversion is: read, set the format byte of
 * the file (and of every GBX file embedded in it, such as a replay's map), write. Before
 * anything is written the result is converted back and compared with the input: a conversion
 * that would not restore the same bytes is refused, not written.
 *
 * A race recording read from text proves nothing (docs/usage.md "Race recordings"): its binary form is
 * written only with --source ORIGINAL, and the library refuses it unless its records are the
 * original's (core/doc/recording_guard.c). Checking a conversion to text converts back with the input
 * as that original.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "patch/cli/cli.h"
#include "patch/cli/cli_util.h"

/* Parse, set the encoding, write; `original` (may be NULL) is the file a race recording must equal.
 * NULL (and a message) on failure. */
static uint8_t *convert_bytes(const char *name, const uint8_t *data, size_t size, const char *encoding,
                              const rb_doc *original, size_t *out_size, const char **input_encoding)
{
    rb_error err;
    rb_doc *doc = cli_parse(name, data, size, &err);
    if (!doc) {
        cli_print_error(&err);
        return NULL;
    }
    if (original) rb_doc_set_original(doc, original);
    uint8_t *result = NULL;
    if (input_encoding) *input_encoding = rb_doc_encoding(doc);
    if (rb_doc_set_encoding(doc, encoding) != RB_OK) {
        fprintf(stderr, "rebyte convert: %s: a %s file has no %s encoding to convert to (GBX has binary and text)\n",
                name, rb_doc_format(doc), encoding);
    } else {
        rb_write_options wo = {0};
        if (rb_doc_write(doc, &wo, &result, out_size, &err) != RB_OK) {
            cli_print_error(&err);
            result = NULL;
        }
    }
    rb_doc_free(doc);
    return result;
}

/* Do two files hold the same model (their diff is empty)? */
static int same_model(const char *a_name, const uint8_t *a, size_t a_size, const char *b_name, const uint8_t *b,
                      size_t b_size)
{
    rb_error err;
    rb_doc *da = cli_parse(a_name, a, a_size, &err), *db = da ? cli_parse(b_name, b, b_size, &err) : NULL;
    char *patch = NULL;
    size_t ops = 1;
    if (da && db && rb_doc_diff(da, a, a_size, db, RB_DIFF_PLAIN, &patch, &ops, &err) != RB_OK) ops = 1;
    rb_free(patch);
    rb_doc_free(da);
    rb_doc_free(db);
    return ops == 0;
}

/* Converts the result back to the input's encoding: it must give the input's bytes. A text file
 * that was edited carries original streams its content no longer matches: those were re-encoded,
 * and cannot come back; then the two models must be equal instead. */
static int converts_back(const char *in, const uint8_t *data, size_t size, const uint8_t *result,
                         size_t result_size, const char *input_encoding)
{
    char name[600];
    snprintf(name, sizeof name, "%s (converted)", in);
    size_t back_size = 0;
    rb_error err;
    rb_doc *input = cli_parse(in, data, size, &err);
    uint8_t *back = input ? convert_bytes(name, result, result_size, input_encoding, input, &back_size, NULL) : NULL;
    rb_doc_free(input);
    if (!back) return 0;
    size_t at = 0;
    while (at < size && at < back_size && back[at] == data[at]) at++;
    int same = back_size == size && at == size;
    if (!same) {
        same = same_model(in, data, size, name, back, back_size);
        if (same)
            fprintf(stderr, "rebyte convert: %s: its streams no longer matched their content and were re-encoded "
                            "(the model is unchanged; the bytes of the input cannot come back)\n", in);
        else
            fprintf(stderr, "rebyte convert: %s: converting back differs from the input at byte %zu; nothing written\n",
                    in, at);
    }
    free(back);
    return same;
}

int cmd_convert(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *to = NULL, *source = NULL, *v;
    int check = 1;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) {
            if (r < 0) return EXIT_USAGE;
            out = v;
        } else if ((r = cli_opt_value(argc, argv, &i, "--to", &v))) {
            if (r < 0) return EXIT_USAGE;
            to = v;
        } else if ((r = cli_opt_value(argc, argv, &i, "--source", &v))) {
            if (r < 0) return EXIT_USAGE;
            source = v;
        } else if (strcmp(argv[i], "--no-check") == 0) {
            check = 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("convert", argv[i]);
        } else if (in) {
            return cli_usage_error("convert", argv[i]);
        } else {
            in = argv[i];
        }
    }
    if (!in || !out || !to) return cli_usage_error("convert", NULL);
    if (strcmp(to, "text") != 0 && strcmp(to, "binary") != 0) return cli_usage_error("convert", to);
    uint8_t *data, *result;
    size_t size, result_size = 0;
    const char *input_encoding = NULL;
    cli_loaded original = {0};
    int loaded = source ? cli_load(source, &original) : EXIT_OK;
    if (loaded != EXIT_OK) return loaded;
    if (cli_read_file(in, &data, &size) != 0) {
        cli_unload(&original);
        return EXIT_IO;
    }
    result = convert_bytes(in, data, size, to, original.doc, &result_size, &input_encoding);
    int rc = result ? EXIT_OK : EXIT_BAD_INPUT;
    if (result && check && !converts_back(in, data, size, result, result_size, input_encoding)) rc = EXIT_DIFFERS;
    if (rc == EXIT_OK && cli_write_atomic(out, result, result_size) != 0) rc = EXIT_IO;
    rb_free(result);
    free(data);
    cli_unload(&original);
    return rc;
}
