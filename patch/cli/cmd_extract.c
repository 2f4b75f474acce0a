/* rebyte extract / replace: clients of rb_doc_extract and rb_doc_asset_patch (include/rebyte.h,
 * docs/usage.md "Assets"). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "cli_util.h"

/* --with FILE: the other file of a pair whose assets are split (rb_doc_set_companion); its bytes
 * live in *bytes until the document is freed. */
static int attach_companion(rb_doc *doc, const char *path, uint8_t **bytes)
{
    size_t size;
    *bytes = NULL;
    if (!path) return EXIT_OK;
    if (cli_read_file(path, bytes, &size) != 0) return EXIT_IO;
    rb_error err;
    if (rb_doc_set_companion(doc, *bytes, size, path, &err) != RB_OK) {
        cli_print_error(&err);
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

typedef struct extract_run {
    const char *folder;
    size_t files, references;
    unsigned long long bytes;
    int tty, quiet;
    time_t last_progress;
} extract_run;

static int write_asset(void *context, const rb_asset *asset)
{
    extract_run *r = context;
    if (!asset->data) { r->references++; return 0; }
    size_t size = strlen(r->folder) + strlen(asset->name) + 2;
    char *path = malloc(size);
    if (!path) return 1;
    snprintf(path, size, "%s/%s", r->folder, asset->name);
    int rc = cli_make_parents(path) == 0 && cli_write_atomic(path, asset->data, asset->size) == 0 ? 0 : 1;
    free(path);
    if (rc) return rc;
    r->files++;
    r->bytes += asset->size;
    time_t now = time(NULL);
    if (r->tty && !r->quiet && now != r->last_progress) { /* a line a second at most, on a terminal */
        fprintf(stderr, "\r\033[K%zu files, %llu bytes: %.60s", r->files, r->bytes, asset->name);
        fflush(stderr);
        r->last_progress = now;
    }
    return 0;
}

int cmd_extract(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *only = NULL, *with = NULL, *v;
    int quiet = 0;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) {
            if (r < 0) return EXIT_USAGE;
            out = v;
        } else if ((r = cli_opt_value(argc, argv, &i, "--only", &v))) {
            if (r < 0) return EXIT_USAGE;
            only = v;
        } else if ((r = cli_opt_value(argc, argv, &i, "--with", &v))) {
            if (r < 0) return EXIT_USAGE;
            with = v;
        } else if (strcmp(argv[i], "-q") == 0) {
            quiet = 1;
        } else if ((argv[i][0] == '-' && argv[i][1]) || in) {
            return cli_usage_error("extract", argv[i]);
        } else {
            in = argv[i];
        }
    }
    if (!in || !out) return cli_usage_error("extract", NULL);
    cli_loaded l;
    uint8_t *companion = NULL;
    int rc = cli_load(in, &l);
    if (rc) return rc;
    if ((rc = attach_companion(l.doc, with, &companion))) {
        cli_unload(&l);
        free(companion);
        return rc;
    }
    size_t folder_size = strlen(out) + 2;
    char *folder = malloc(folder_size);
    if (!folder) { cli_unload(&l); return EXIT_IO; }
    snprintf(folder, folder_size, "%s/", out);
    extract_run run = {.folder = out, .tty = isatty(STDERR_FILENO), .quiet = quiet};
    char *manifest = NULL;
    rb_error err;
    rc = cli_make_parents(folder) != 0 ? EXIT_IO : EXIT_OK;
    rb_status st = rc ? RB_OK : rb_doc_extract(l.doc, only, write_asset, &run, &manifest, &err);
    if (run.tty && run.last_progress) cli_progress_clear();
    if (!rc && st != RB_OK) {
        cli_print_error(&err);
        rc = st == RB_E_IO || st == RB_E_NOMEM ? EXIT_IO : EXIT_BAD_INPUT;
    }
    if (!rc) {
        size_t path_size = strlen(out) + 16;
        char *path = malloc(path_size);
        if (path) snprintf(path, path_size, "%s/manifest.json", out);
        rc = path && cli_write_atomic(path, (const uint8_t *)manifest, strlen(manifest)) == 0 ? EXIT_OK : EXIT_IO;
        free(path);
    }
    if (!rc && !quiet) {
        char references[64] = "";
        if (run.references)
            snprintf(references, sizeof references, ", %zu reference%s", run.references, run.references == 1 ? "" : "s");
        fprintf(stderr, "%s: %zu file%s (%llu bytes) in %s%s, listed in %s/manifest.json\n", in, run.files,
                run.files == 1 ? "" : "s", run.bytes, out, references, out);
    }
    rb_free(manifest);
    free(folder);
    cli_unload(&l);
    free(companion);
    return rc;
}

/* ---------- replace ---------- */

typedef struct replace_options {
    const char *in, *path, *asset, *out, *with;
    int in_place, backup, force, quiet, dry_run;
} replace_options;

static int parse_replace(int argc, char **argv, replace_options *o)
{
    const char **positional[] = {&o->in, &o->path, &o->asset};
    size_t given = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int r;
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) {
            if (r < 0) return EXIT_USAGE;
            o->out = v;
        } else if ((r = cli_opt_value(argc, argv, &i, "--with", &v))) {
            if (r < 0) return EXIT_USAGE;
            o->with = v;
        } else if (strcmp(argv[i], "--in-place") == 0) o->in_place = 1;
        else if (strcmp(argv[i], "--backup") == 0) o->backup = 1;
        else if (strcmp(argv[i], "--force") == 0) o->force = 1;
        else if (strcmp(argv[i], "--dry-run") == 0) o->dry_run = 1;
        else if (strcmp(argv[i], "-q") == 0) o->quiet = 1;
        else if ((argv[i][0] == '-' && argv[i][1] && argv[i][1] != '/') || given == 3)
            return cli_usage_error("replace", argv[i]);
        else *positional[given++] = argv[i];
    }
    if (given < 3) return cli_usage_error("replace", NULL);
    if (o->in_place && o->out) fprintf(stderr, "rebyte: replace: -o and --in-place exclude each other\n");
    else if (o->dry_run && (o->in_place || o->out)) fprintf(stderr, "rebyte: replace: --dry-run writes nothing\n");
    else if (!o->dry_run && !o->in_place && !o->out) fprintf(stderr, "rebyte: replace: say where the result goes: -o OUT, or --in-place\n");
    else if (o->backup && !o->in_place) fprintf(stderr, "rebyte: replace: --backup goes with --in-place\n");
    else return 0;
    return cli_usage_line("replace");
}

/* The asset's patch applied through rb_apply: written, read back and verified like `apply`. */
static int replace_with(const replace_options *o, const cli_loaded *l, const cli_edit *edit, const uint8_t *asset,
                        size_t asset_size)
{
    char *patch_text = NULL;
    rb_error err;
    rb_status st = rb_doc_asset_patch(l->doc, o->path, asset, asset_size, &patch_text, &err);
    if (st != RB_OK) {
        cli_print_error(&err);
        return st == RB_E_NOMEM ? EXIT_IO : EXIT_BAD_INPUT;
    }
    rb_patch *patch = rb_patch_parse(patch_text, strlen(patch_text), o->asset, &err);
    rb_free(patch_text);
    if (!patch) { cli_print_error(&err); return EXIT_BAD_INPUT; }
    rb_apply_options ao = {.size = sizeof ao, .report = cli_report_line, .report_context = (void *)&o->quiet,
                           .force = o->force, .want_changes = o->dry_run};
    rb_apply_result result;
    const rb_patch *const patches[1] = {patch};
    st = rb_apply(l->data, l->size, o->in, patches, 1, &ao, &result, &err);
    rb_patch_free(patch);
    int rc = EXIT_OK;
    if (st != RB_OK) {
        rc = cli_apply_failed(&err);
    } else if (o->dry_run) {
        cli_print_changes(result.changes, o->in);
    } else {
        const char *target = o->in_place ? o->in : o->out;
        char changes[48];
        int unchanged = result.size == l->size && memcmp(result.bytes, l->data, l->size) == 0;
        rc = cli_write_result(target, o->in, l->data, l->size, result.bytes, result.size, o->backup, o->quiet,
                              o->in_place ? edit : NULL);
        if (rc == EXIT_OK && !o->quiet)
            fprintf(stderr, "rebyte: %s -> %s: %s put back at %s (%s), verified\n", o->in, target, o->asset, o->path,
                    cli_changes(result.operations, unchanged, changes, sizeof changes));
    }
    rb_apply_result_free(&result);
    return rc;
}

int cmd_replace(int argc, char **argv)
{
    replace_options o = {0};
    int rc = parse_replace(argc, argv, &o);
    if (rc) return rc;
    uint8_t *asset;
    size_t asset_size;
    if (cli_read_file(o.asset, &asset, &asset_size) != 0) return EXIT_IO;
    cli_loaded l;
    cli_edit edit; /* in place: the input stays locked until its result replaced it */
    uint8_t *companion = NULL;
    rc = o.in_place ? cli_load_for_edit(o.in, &l, &edit) : cli_load(o.in, &l);
    if (!rc) {
        rc = attach_companion(l.doc, o.with, &companion);
        if (!rc) rc = replace_with(&o, &l, &edit, asset, asset_size);
        if (o.in_place) cli_edit_end(&edit);
        cli_unload(&l);
    }
    free(companion);
    free(asset);
    return rc;
}
