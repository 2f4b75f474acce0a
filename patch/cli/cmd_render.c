/*
 * rebyte render: a document seen from above as a PNG (include/rebyte.h rb_doc_render,
 * docs/render.md): a map, a ghost's path (over a map), a replay, a diff to another file or by a
 * patch; --json prints what was drawn.
 */
#include <stdlib.h>
#include <string.h>
#include "patch/cli/cli.h"
#include "patch/cli/cli_util.h"

typedef struct render_args {
    const char *input, *output, *over, *diff, *side;
    int json;
} render_args;

static int parse_args(int argc, char **argv, render_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *value;
        if (strcmp(argv[i], "--json") == 0) { a->json = 1; continue; }
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) { a->output = argv[++i]; continue; }
        if (cli_opt_value(argc, argv, &i, "--over", &value)) { a->over = value; continue; }
        if (cli_opt_value(argc, argv, &i, "--diff", &value)) { a->diff = value; continue; }
        if (cli_opt_value(argc, argv, &i, "--size", &value)) { a->side = value; continue; }
        if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("render", argv[i]);
        if (a->input) return cli_usage_error("render", argv[i]);
        a->input = argv[i];
    }
    if (!a->input || !a->output) return cli_usage_error("render", NULL);
    return EXIT_OK;
}

/* --diff's argument: another file of a known format, else a patch. */
static int load_diff(const char *path, cli_loaded *other, rb_patch **patch)
{
    uint8_t *data;
    size_t size;
    if (cli_read_file(path, &data, &size) != 0) return EXIT_IO;
    int is_file = rb_format_detect(data, size) != NULL;
    rb_error err;
    if (!is_file) *patch = rb_patch_parse((const char *)data, size, path, &err);
    free(data);
    if (is_file) return cli_load(path, other);
    if (*patch) return EXIT_OK;
    cli_print_error(&err);
    return EXIT_BAD_INPUT;
}

static int write_picture(const render_args *a, const uint8_t *png, size_t size, const char *report)
{
    if (cli_write_atomic(a->output, png, size) != 0) return EXIT_IO;
    if (!a->json) return EXIT_OK;
    FILE *to = strcmp(a->output, "-") == 0 ? stderr : stdout; /* the picture has stdout */
    fprintf(to, "%s\n", report ? report : "{}");
    return EXIT_OK;
}

int cmd_render(int argc, char **argv)
{
    render_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc) return rc;
    rb_render_options options = RB_RENDER_OPTIONS_INIT;
    if (a.side) {
        char *end;
        unsigned long side = strtoul(a.side, &end, 10);
        if (*end || side < 256 || side > 2048) {
            fprintf(stderr, "rebyte render: --size takes 256 to 2048 pixels, not \"%s\"\n", a.side);
            return cli_usage_line("render");
        }
        options.max_side = (unsigned)side;
    }
    cli_loaded input = {0}, over = {0}, other = {0};
    rb_patch *patch = NULL;
    rc = cli_load(a.input, &input);
    if (!rc && a.over) rc = cli_load(a.over, &over);
    if (!rc && a.over && !rb_doc_root(over.doc)) {
        rb_error expand_err;
        rb_doc_expand(over.doc, &expand_err);
        cli_print_error(&expand_err);
        rc = cli_exit_code_of(expand_err.status);
    }
    if (!rc && a.diff) rc = load_diff(a.diff, &other, &patch);
    if (!rc) {
        options.over = over.doc;
        options.diff_to = other.doc;
        options.diff_patch = patch;
        uint8_t *png = NULL;
        size_t size = 0;
        char *report = NULL;
        rb_error err;
        rb_status st = rb_doc_render(input.doc, &options, &png, &size, a.json ? &report : NULL, &err);
        if (st == RB_OK) rc = write_picture(&a, png, size, report);
        else {
            cli_print_error(&err);
            rc = cli_exit_code_of(st);
        }
        rb_free(png);
        rb_free(report);
    }
    rb_patch_free(patch);
    cli_unload(&other);
    cli_unload(&over);
    cli_unload(&input);
    return rc;
}
