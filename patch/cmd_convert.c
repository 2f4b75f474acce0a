/*
 * rebyte convert: binary GBX <-> text GBX (format byte 'B' / 'T').
 *
 * The format byte is a field of the model and the GBX description switches the archive to
 * lines after it (docs/formats/gbx-text.md), so a conversion is: read, set the format byte of
 * the file (and of every GBX file embedded in it, such as a replay's map), write. Before
 * anything is written the result is converted back and compared with the input: a conversion
 * that would not restore the same bytes is refused, not written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/doc.h"
#include "../core/model.h"
#include "../core/json.h" /* until convert is a write option of the library */
#include "cli.h"
#include "cli_util.h"

/* A GBX file header in the model: a record with the format byte and the compression bytes. */
static int is_gbx_header(const rb_node *record)
{
    const rb_node *format = rb_node_get(record, "format");
    return format && format->kind == RB_K_INT && rb_node_get(record, "refTableCompression") &&
           rb_node_get(record, "bodyCompression");
}

/* Sets the format byte of every GBX file in the model; returns how many there were. */
static size_t set_formats(rb_node *n, uint8_t format, unsigned depth)
{
    if (!n || !rb_node_is_container(n) || depth > 1000) return 0;
    size_t count = 0;
    if (n->kind == RB_K_RECORD && is_gbx_header(n)) {
        rb_node_get(n, "format")->v.bits = format;
        count++;
    }
    for (size_t i = 0; i < n->v.kids.count; i++) count += set_formats(n->v.kids.items[i], format, depth + 1);
    return count;
}

static uint8_t format_of(rb_doc *doc)
{
    const rb_node *format = rb_node_get(rb_doc_root(doc), "format");
    return format ? (uint8_t)format->v.bits : 0;
}

/* Parse, set every format byte, write. NULL (and a message) on failure. */
static uint8_t *convert_bytes(const char *name, const uint8_t *data, size_t size, uint8_t format, size_t *out_size,
                              uint8_t *input_format)
{
    rb_error err;
    rb_doc *doc = cli_parse(name, data, size, &err);
    if (!doc) {
        cli_print_error(&err);
        return NULL;
    }
    uint8_t *result = NULL;
    if (strcmp(rb_doc_format(doc), "gbx") != 0) {
        fprintf(stderr, "rebyte convert: %s: a %s file; only GBX has a text form\n", name, rb_doc_format(doc));
    } else {
        if (input_format) *input_format = format_of(doc);
        set_formats(rb_doc_root(doc), format, 0);
        rb_write_options wo = {0};
        if (rb_doc_write(doc, &wo, &result, out_size, &err) != RB_OK) {
            cli_print_error(&err);
            result = NULL;
        }
    }
    rb_doc_free(doc);
    return result;
}

/* The model of a file as JSON, without how values were stored (NULL if it does not parse). */
static json_t *content_json(const char *name, const uint8_t *data, size_t size)
{
    rb_error err;
    rb_doc *doc = cli_parse(name, data, size, &err);
    if (!doc) {
        cli_print_error(&err);
        return NULL;
    }
    json_t *json = rb_model_to_json(doc, rb_doc_root(doc), RB_BLOBS_BASE64);
    if (json) rb_json_strip_storage(json);
    rb_doc_free(doc);
    return json;
}

/* Converts the result back to the input's encoding: it must give the input's bytes. A text file
 * that was edited carries original streams its content no longer matches: those were re-encoded,
 * and cannot come back; then the two models must be equal instead. */
static int converts_back(const char *in, const uint8_t *data, size_t size, const uint8_t *result,
                         size_t result_size, uint8_t input_format)
{
    char name[600];
    snprintf(name, sizeof name, "%s (converted)", in);
    size_t back_size = 0;
    uint8_t *back = convert_bytes(name, result, result_size, input_format, &back_size, NULL);
    if (!back) return 0;
    size_t at = 0;
    while (at < size && at < back_size && back[at] == data[at]) at++;
    int same = back_size == size && at == size;
    if (!same) {
        json_t *a = content_json(in, data, size), *b = content_json(name, back, back_size);
        same = a && b && json_equal(a, b);
        json_decref(a);
        json_decref(b);
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
    const char *in = NULL, *out = NULL, *to = NULL, *v;
    int check = 1;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) {
            if (r < 0) return EXIT_USAGE;
            out = v;
        } else if ((r = cli_opt_value(argc, argv, &i, "--to", &v))) {
            if (r < 0) return EXIT_USAGE;
            to = v;
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
    uint8_t input_format = 0;
    if (cli_read_file(in, &data, &size) != 0) return EXIT_IO;
    result = convert_bytes(in, data, size, to[0] == 't' ? 'T' : 'B', &result_size, &input_format);
    int rc = result ? EXIT_OK : EXIT_BAD_INPUT;
    if (result && check && !converts_back(in, data, size, result, result_size, input_format)) rc = EXIT_DIFFERS;
    if (rc == EXIT_OK && cli_write_atomic(out, result, result_size) != 0) rc = EXIT_IO;
    free(result);
    free(data);
    return rc;
}
