/* rebyte extract / replace: clients of rb_doc_extract and rb_doc_asset_patch (include/rebyte.h,
 * docs/usage.md "Assets"). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "patch/cli/cli.h"
#include "patch/cli/cli_tar.h"
#include "patch/cli/cli_util.h"

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

/* Where the assets go: files in a folder, or one tar stream on stdout (`-o -`). What a run
 * created is listed, so a run that fails removes it: no folder it does not fill, no file of a
 * half extraction. */
typedef struct extract_run {
    const char *folder;
    int to_tar;
    cli_tar tar;
    char **created; /* files and folders this run made, in the order made */
    size_t created_count, created_cap;
    size_t files, references;
    unsigned long long bytes;
    int tty, quiet;
    time_t last_progress;
} extract_run;

static void note_created(extract_run *r, const char *path)
{
    if (r->created_count == r->created_cap) {
        size_t cap = r->created_cap ? r->created_cap * 2 : 32;
        char **more = realloc(r->created, cap * sizeof *more);
        if (!more) return; /* then it stays: what remains is whole */
        r->created = more;
        r->created_cap = cap;
    }
    if ((r->created[r->created_count] = strdup(path))) r->created_count++;
}

/* The folders of `path` up to its last '/', each one made noted (cli_make_parents' walk). */
static int make_folders(extract_run *r, char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        int made = mkdir(path, 0777) == 0, failed = !made && errno != EEXIST;
        if (made) note_created(r, path);
        if (failed) fprintf(stderr, "rebyte: %s: %s\n", path, strerror(errno));
        *p = '/';
        if (failed) return -1;
    }
    return 0;
}

/* A file of the extraction: in the folder, or the next entry of the tar stream. */
static int put_file(extract_run *r, const char *name, const uint8_t *data, size_t size)
{
    if (r->to_tar) {
        if (cli_tar_add(&r->tar, name, data, size) == 0) return 0;
        fprintf(stderr, "rebyte: stdout: write failed: %s\n", strerror(errno));
        return -1;
    }
    size_t path_size = strlen(r->folder) + strlen(name) + 2;
    char *path = malloc(path_size);
    if (!path) return -1;
    snprintf(path, path_size, "%s/%s", r->folder, name);
    struct stat st;
    int existed = lstat(path, &st) == 0;
    int rc = make_folders(r, path) == 0 && cli_write_atomic(path, data, size) == 0 ? 0 : -1;
    if (rc == 0 && !existed) note_created(r, path);
    free(path);
    return rc;
}

/* A failed run takes back what it made, the last first (files, then their emptied folders). */
static void undo_created(extract_run *r, int failed)
{
    for (size_t i = r->created_count; i-- > 0;) {
        if (failed && unlink(r->created[i]) != 0) rmdir(r->created[i]);
        free(r->created[i]);
    }
    free(r->created);
}

static int write_asset(void *context, const rb_asset *asset)
{
    extract_run *r = context;
    if (!asset->data) { r->references++; return 0; }
    if (put_file(r, asset->name, asset->data, asset->data_size) != 0) return 1;
    r->files++;
    r->bytes += asset->data_size;
    time_t now = time(NULL);
    if (r->tty && !r->quiet && now != r->last_progress) { /* a line a second at most, on a terminal */
        fprintf(stderr, "\r\033[K%zu files, %llu bytes: %.60s", r->files, r->bytes, asset->name);
        fflush(stderr);
        r->last_progress = now;
    }
    return 0;
}

/* The target: `-` a tar stream (not onto a terminal), else a new or empty folder, or any with
 * --force (files there of the same names are replaced). 0, or an exit code (printed). */
static int check_target(const char *out, int force)
{
    if (strcmp(out, "-") == 0) {
        if (!isatty(STDOUT_FILENO)) return 0;
        fprintf(stderr, "rebyte: extract -o - writes a tar stream, not for a terminal: pipe it (| tar -x) or redirect it\n");
        return EXIT_USAGE;
    }
    struct stat st;
    if (stat(out, &st) != 0) return 0;
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "rebyte: %s: exists and is not a folder; nothing was written\n", out);
        return EXIT_IO;
    }
    DIR *d = opendir(out);
    struct dirent *e;
    size_t entries = 0;
    while (d && (e = readdir(d)))
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d) closedir(d);
    if (!entries || force) return 0;
    fprintf(stderr, "rebyte: %s: the folder is not empty (%zu entr%s); extract writes into a new or empty folder: "
            "--force writes into it, replacing files of the same names; nothing was written\n",
            out, entries, entries == 1 ? "y" : "ies");
    return EXIT_IO;
}

typedef struct extract_options {
    const char *in, *out, *only, *with;
    int quiet, force;
} extract_options;

static int parse_extract(int argc, char **argv, extract_options *o)
{
    const char *v;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) {
            if (r < 0) return EXIT_USAGE;
            o->out = v;
        } else if ((r = cli_opt_value(argc, argv, &i, "--only", &v))) {
            if (r < 0) return EXIT_USAGE;
            o->only = v;
        } else if ((r = cli_opt_value(argc, argv, &i, "--with", &v))) {
            if (r < 0) return EXIT_USAGE;
            o->with = v;
        } else if (strcmp(argv[i], "-q") == 0) {
            o->quiet = 1;
        } else if (strcmp(argv[i], "--force") == 0) {
            o->force = 1;
        } else if ((argv[i][0] == '-' && argv[i][1]) || o->in) {
            return cli_usage_error("extract", argv[i]);
        } else {
            o->in = argv[i];
        }
    }
    return !o->in || !o->out ? cli_usage_error("extract", NULL) : 0;
}

/* The assets, then the manifest, into the run's target. */
static int extract_to(const extract_options *o, const cli_loaded *l, extract_run *run)
{
    char *manifest = NULL;
    rb_error err;
    int rc = EXIT_OK;
    rb_status st = rb_doc_extract(l->doc, o->only, write_asset, run, &manifest, &err);
    if (run->tty && run->last_progress) cli_progress_clear();
    if (st != RB_OK) {
        if (st != RB_E_IO || err.message[0]) cli_print_error(&err);
        rc = st == RB_E_IO || st == RB_E_NOMEM ? EXIT_IO : EXIT_BAD_INPUT;
    }
    if (!rc && put_file(run, "manifest.json", (const uint8_t *)manifest, strlen(manifest)) != 0) rc = EXIT_IO;
    if (!rc && run->to_tar && cli_tar_finish(&run->tar) != 0) {
        fprintf(stderr, "rebyte: stdout: write failed: %s\n", strerror(errno));
        rc = EXIT_IO;
    }
    rb_free(manifest);
    return rc;
}

int cmd_extract(int argc, char **argv)
{
    extract_options o = {0};
    int rc = parse_extract(argc, argv, &o);
    if (rc || (rc = check_target(o.out, o.force))) return rc;
    cli_loaded l;
    uint8_t *companion = NULL;
    /* deferred: rb_doc_extract expands only the units that may hold assets
     * (docs/performance.md "Extract reads what it extracts") */
    if ((rc = cli_load_deferred(o.in, &l))) return rc;
    if ((rc = attach_companion(l.doc, o.with, &companion))) {
        cli_unload(&l);
        free(companion);
        return rc;
    }
    extract_run run = {.folder = o.out, .to_tar = strcmp(o.out, "-") == 0, .tty = isatty(STDERR_FILENO),
                       .quiet = o.quiet, .tar = {STDOUT_FILENO, time(NULL)}};
    if (run.to_tar && fflush(stdout) != 0) rc = EXIT_IO;
    if (!rc) rc = extract_to(&o, &l, &run);
    undo_created(&run, rc != EXIT_OK);
    if (!rc && !o.quiet) {
        char references[64] = "";
        if (run.references)
            snprintf(references, sizeof references, ", %zu reference%s", run.references, run.references == 1 ? "" : "s");
        if (run.to_tar)
            fprintf(stderr, "%s: %zu file%s (%llu bytes) in a tar stream on stdout%s, listed in manifest.json\n", o.in,
                    run.files, run.files == 1 ? "" : "s", run.bytes, references);
        else
            fprintf(stderr, "%s: %zu file%s (%llu bytes) in %s%s, listed in %s/manifest.json\n", o.in, run.files,
                    run.files == 1 ? "" : "s", run.bytes, o.out, references, o.out);
    }
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
    cli_report_context report = {o->quiet, o->in};
    rb_apply_options ao = {.size = sizeof ao, .report = cli_report_line, .report_context = &report,
                           .force = o->force, .want_changes = o->dry_run};
    rb_apply_result result = RB_APPLY_RESULT_INIT;
    const rb_patch *const patches[1] = {patch};
    st = rb_apply(l->data, l->size, o->in, patches, 1, &ao, &result, &err);
    rb_patch_free(patch);
    int rc = EXIT_OK;
    if (st != RB_OK) {
        rc = cli_apply_failed(&err);
    } else if (o->dry_run) {
        cli_print_changes(&result, result.bytes_size == l->size && memcmp(result.bytes, l->data, l->size) == 0, o->in);
    } else {
        const char *target = o->in_place ? o->in : o->out;
        char changes[48];
        int unchanged = result.bytes_size == l->size && memcmp(result.bytes, l->data, l->size) == 0;
        rc = cli_write_result(target, o->in, l->data, l->size, result.bytes, result.bytes_size, o->backup, o->quiet,
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
