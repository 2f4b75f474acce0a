/*
 * rebyte downgrade-items: rewrite a TM2020 map's items chunk (0x03043040, versions 5-7) at
 * version 4, so item lists can be edited without breaking snapping data.
 *
 * The downgrade is the gbx format's "downgrade-items" transform (core/gbx/map/items_downgrade.c): an
 * RFC 6902 patch over the map's model, applied like any other patch (rb_apply: validated against
 * version 4's fields, written, re-read and compared). `--print-patch` shows that patch, so the
 * same change can be reviewed, kept and applied with `rebyte apply`.
 */
#include <stdlib.h>
#include <string.h>
#include "patch/cli/cli.h"
#include "patch/cli/cli_util.h"

typedef struct downgrade_options {
    int target;        /* items chunk version to write (0..4) */
    int items_version; /* anchored object version to write (4..8), 0 = keep */
    int dry_run, print_patch, in_place, quiet;
    const char *out;
} downgrade_options;

/* The report goes to stderr: with -o - stdout holds the map's bytes alone, with --print-patch
 * the patch alone (docs/usage.md "Where outputs go"). */
static void print_loss(const char *name, const char *report_json, const downgrade_options *o)
{
    json_t *r = json_loads(report_json ? report_json : "{}", 0, NULL);
#define FIELD(key) json_integer_value(json_object_get(r, key))
    fprintf(stderr, "%s: items chunk version %d -> %d, %" JSON_INTEGER_FORMAT " anchored objects kept in order", name,
            (int)FIELD("fromVersion"), (int)FIELD("toVersion"), FIELD("objects"));
    if (o->items_version)
        fprintf(stderr, ", %" JSON_INTEGER_FORMAT " rewritten at object version %d", FIELD("objectsRewritten"),
                o->items_version);
    fprintf(stderr, "\n  dropped: %" JSON_INTEGER_FORMAT " block snap links, %" JSON_INTEGER_FORMAT " item snap links, %" JSON_INTEGER_FORMAT
           " snap groups, %" JSON_INTEGER_FORMAT " snapped-on entries\n",
           FIELD("blockLinks"), FIELD("itemLinks"), FIELD("groups"), FIELD("snapped"));
#undef FIELD
    json_decref(r);
}

/* The library makes the patch (the gbx format's "downgrade-items" transform) and applies it
 * (rb_apply: validated, written, re-read, compared); this writes the result. */
static int downgrade_file(const char *path, const downgrade_options *o)
{
    uint8_t *data = NULL;
    size_t size;
    cli_edit edit; /* in place: the input stays locked until its result replaced it */
    int in_place = o->in_place && !o->dry_run;
    if (in_place ? cli_edit_begin(path, &edit, &data, &size) != EXIT_OK : cli_read_file(path, &data, &size) != 0)
        return EXIT_IO;
    rb_error err;
    int rc = EXIT_BAD_INPUT;
    char *patch_json = NULL, *report_json = NULL;
    rb_patch *patch = NULL;
    rb_apply_result r = RB_APPLY_RESULT_INIT;
    rb_doc *doc = cli_parse(path, data, size, &err);
    if (!doc) { cli_print_error(&err); goto done; }
    char options[96];
    snprintf(options, sizeof options, "{\"to\": %d, \"itemsVersion\": %d}", o->target, o->items_version);
    if (rb_doc_transform(doc, "downgrade-items", options, &patch_json, &report_json, &err) != RB_OK) {
        fprintf(stderr, "rebyte: %s: %s\n", path, err.message);
        goto done;
    }
    if (o->print_patch) printf("%s\n", patch_json);
    json_t *ops = json_loads(patch_json, 0, NULL);
    int already = json_array_size(ops) == 0;
    json_decref(ops);
    if (already) {
        json_t *rep = json_loads(report_json ? report_json : "{}", 0, NULL);
        if (!o->quiet)
            fprintf(stderr, "rebyte: %s: items chunk is already at version %d; unchanged\n", path,
                    (int)json_integer_value(json_object_get(rep, "fromVersion")));
        json_decref(rep);
        rc = (o->dry_run || o->in_place) ? EXIT_OK : (cli_write_atomic(o->out, data, size) == 0 ? EXIT_OK : EXIT_IO);
        goto done;
    }
    patch = rb_patch_parse(patch_json, strlen(patch_json), "the downgrade", &err);
    const rb_patch *const patches[1] = {patch};
    rb_status st = patch ? rb_apply(data, size, path, patches, 1, NULL, &r, &err) : RB_E_NOMEM;
    if (st != RB_OK) {
        rc = cli_apply_failed(&err);
        goto done;
    }
    if (!o->quiet || o->dry_run) print_loss(path, report_json, o);
    if (!o->dry_run) {
        int written = in_place ? cli_write_edited(&edit, r.bytes, r.bytes_size) : cli_write_atomic(o->out, r.bytes, r.bytes_size);
        rc = written == 0 ? EXIT_OK : EXIT_IO;
    } else rc = EXIT_OK;
done:
    rb_apply_result_free(&r);
    rb_patch_free(patch);
    rb_free(patch_json);
    rb_free(report_json);
    rb_doc_free(doc);
    if (in_place) cli_edit_end(&edit);
    free(data);
    return rc;
}

int cmd_downgrade_items(int argc, char **argv)
{
    downgrade_options o = {.target = 4};
    char **inputs = calloc((size_t)argc + 1, sizeof(char *));
    int n = 0, r;
    const char *v;
    if (!inputs) return EXIT_IO;
    for (int i = 1; i < argc; i++) {
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) { if (r < 0) goto usage; o.out = v; }
        else if ((r = cli_opt_value(argc, argv, &i, "--to", &v))) { if (r < 0) goto usage; o.target = atoi(v); }
        else if ((r = cli_opt_value(argc, argv, &i, "--items-version", &v))) { if (r < 0) goto usage; o.items_version = atoi(v); }
        else if (strcmp(argv[i], "--in-place") == 0) o.in_place = 1;
        else if (strcmp(argv[i], "--dry-run") == 0) o.dry_run = 1;
        else if (strcmp(argv[i], "--print-patch") == 0) o.print_patch = 1;
        else if (strcmp(argv[i], "-q") == 0) o.quiet = 1;
        else if (argv[i][0] == '-' && argv[i][1]) { free(inputs); return cli_usage_error("downgrade-items", argv[i]); }
        else inputs[n++] = argv[i];
    }
    if (o.target < 0 || o.target > 4) {
        fprintf(stderr, "rebyte: --to must be 0 to 4 (the versions before TM2020's snapping data)\n");
        goto usage;
    }
    if (o.items_version && (o.items_version < 4 || o.items_version > 8)) {
        fprintf(stderr, "rebyte: --items-version must be 4 to 8\n");
        goto usage;
    }
    /* --print-patch alone prints the patch and writes nothing, as --dry-run does; its patch and
     * a map on stdout would mix */
    if (o.print_patch && !o.in_place && !o.out) o.dry_run = 1;
    if (o.print_patch && o.out && strcmp(o.out, "-") == 0) {
        fprintf(stderr, "rebyte: --print-patch prints on stdout: give -o a file, not -\n");
        goto usage;
    }
    if (!n || (!o.dry_run && !o.in_place == !o.out) || (n > 1 && o.out)) goto usage;
    int rc = EXIT_OK;
    for (int i = 0; i < n; i++) {
        int one = downgrade_file(inputs[i], &o);
        if (one != EXIT_OK && rc == EXIT_OK) rc = one;
    }
    free(inputs);
    return rc;
usage:
    free(inputs);
    return cli_usage_error("downgrade-items", NULL);
}
