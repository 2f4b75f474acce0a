/* rebyte apply: the library's rb_apply (include/rebyte.h) over files, folders and batches. */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "patch/cli/cli.h"
#include "patch/cli/cli_pool.h"
#include "patch/cli/cli_util.h"

typedef struct apply_options {
    rb_patch **patches;
    size_t patch_count;
    const char *out;
    int out_is_folder; /* -o names an existing folder (or ends in '/'): each result under its own name */
    int in_place, backup, dry_run, quiet, force, jobs;
    rb_conflicts conflicts;
} apply_options;

/* What happened to one file of a batch: its exit code, and why it was not patched. */
typedef struct file_outcome {
    int rc;
    char why[300];
} file_outcome;

/* -o FOLDER: the subfolders of a result found under a named folder, made as it is written (a
 * file that is not patched leaves none). */
static int make_folders_for(const char *target, const apply_options *o)
{
    if (!o->out_is_folder || !strchr(target + strlen(o->out), '/')) return 0;
    char *path = strdup(target);
    int rc = path ? cli_make_parents(path) : -1;
    free(path);
    return rc;
}

static void apply_to_file(const char *path, const char *target, const apply_options *o, file_outcome *result)
{
    uint8_t *data;
    size_t size;
    result->rc = EXIT_OK;
    cli_edit edit; /* in place: the input stays locked until its result replaced it */
    int in_place = o->in_place && !o->dry_run;
    if (in_place ? cli_edit_begin(path, &edit, &data, &size) != EXIT_OK : cli_read_file(path, &data, &size) != 0) {
        result->rc = EXIT_IO;
        snprintf(result->why, sizeof result->why, "cannot be read");
        return;
    }
    cli_report_context report = {o->quiet, path};
    rb_apply_options ao = {.size = sizeof ao, .conflicts = o->conflicts, .report = cli_report_line,
                           .report_context = &report, .want_changes = o->dry_run,
                           .force = o->force};
    rb_apply_result r = RB_APPLY_RESULT_INIT;
    rb_error err;
    rb_status st = rb_apply(data, size, path, (const rb_patch *const *)o->patches, o->patch_count, &ao, &r, &err);
    int unchanged = st == RB_OK && r.bytes_size == size && memcmp(r.bytes, data, size) == 0;
    if (st != RB_OK) {
        result->rc = cli_apply_failed(&err);
        snprintf(result->why, sizeof result->why, "%.290s", err.message);
    } else if (o->dry_run) {
        cli_print_changes(&r, unchanged, path);
    } else {
        result->rc = make_folders_for(target, o) != 0
                         ? EXIT_IO
                         : cli_write_result(target, path, data, size, r.bytes, r.bytes_size, o->backup, 0, in_place ? &edit : NULL);
        char changes[48];
        if (result->rc != EXIT_OK) snprintf(result->why, sizeof result->why, "the output could not be written");
        else if (!o->quiet)
            fprintf(stderr, "rebyte: %s -> %s: patched and verified (%s)\n", path, target,
                    cli_changes(r.operations, unchanged, changes, sizeof changes));
    }
    rb_apply_result_free(&r);
    if (in_place) cli_edit_end(&edit);
    free(data);
}

/* ---------- batches ---------- */

/* Files go to the workers of a pool (cli_pool.h); outcomes land in their own slots, reported in
 * input order after. */
typedef struct batch {
    char **files;
    char **targets; /* -o FOLDER: where each file's result goes (else NULL) */
    size_t count, done; /* done: atomic */
    file_outcome *outcomes;
    const apply_options *o;
} batch;

static const char *target_of(const batch *b, size_t i)
{
    return b->targets ? b->targets[i] : b->o->in_place ? b->files[i] : b->o->out;
}

static void apply_in_pool(void *context, size_t ticket, size_t i)
{
    batch *b = context;
    apply_to_file(b->files[i], target_of(b, i), b->o, &b->outcomes[i]);
    size_t done = __atomic_add_fetch(&b->done, 1, __ATOMIC_RELAXED);
    cli_progress(done, b->count, b->files[i]);
}

/* At most 64 workers: each may hold one temporary file (cli_guard.c). */
enum { BATCH_MAX_JOBS = 64 };

static void run_batch(batch *b)
{
    cli_pool pool = {.files = b->files, .count = b->count, .work = apply_in_pool, .context = b};
    int started = 0;
    if (b->o->jobs > 1) {
        cli_batch_heap();
        started = cli_pool_start(&pool, b->o->jobs < BATCH_MAX_JOBS ? b->o->jobs : BATCH_MAX_JOBS);
    }
    if (!started) { /* one job, in order, with the progress line before each file */
        for (size_t i = 0; i < b->count; i++) {
            cli_progress(i + 1, b->count, b->files[i]);
            apply_to_file(b->files[i], target_of(b, i), b->o, &b->outcomes[i]);
            cli_progress_clear();
        }
        return;
    }
    cli_pool_join(&pool);
    cli_progress_clear();
}

/* The summary of a batch: a line per file that was not patched, then the count. */
static int summarize(const batch *b)
{
    int rc = EXIT_OK;
    size_t failed = 0;
    for (size_t i = 0; i < b->count; i++) {
        if (b->outcomes[i].rc == EXIT_OK) continue;
        if (!failed++ && b->count > 1) fprintf(stderr, "rebyte: not patched:\n");
        if (b->count > 1) fprintf(stderr, "  %s: %s\n", b->files[i], b->outcomes[i].why);
        if (rc == EXIT_OK) rc = b->outcomes[i].rc;
    }
    if (b->count > 1)
        fprintf(stderr, "rebyte: %zu/%zu files patched%s\n", b->count - failed, b->count, b->o->dry_run ? " (dry run)" : "");
    return rc;
}

/* ---------- arguments ---------- */

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int load_patch(const char *path, apply_options *o)
{
    uint8_t *text;
    size_t size;
    if (cli_read_patch(path, &text, &size) != 0) return EXIT_IO;
    rb_error err;
    rb_patch *p = rb_patch_parse((const char *)text, size, path, &err);
    free(text);
    if (!p) {
        cli_print_error(&err);
        return EXIT_BAD_INPUT;
    }
    o->patches[o->patch_count++] = p;
    return EXIT_OK;
}

/* One argument; 0 handled, or an exit code. Patches: every --patch FILE; without --patch, the
 * first plain argument and every further .json before the first input (the older form). */
static int parse_argument(int argc, char **argv, int *i, apply_options *o, char **inputs, int *input_count,
                          int *explicit_patches)
{
    const char *v;
    int r;
    if ((r = cli_opt_value(argc, argv, i, "-o", &v))) { o->out = v; return r < 0 ? EXIT_USAGE : 0; }
    if ((r = cli_opt_value(argc, argv, i, "--patch", &v))) {
        if (r < 0) return EXIT_USAGE;
        *explicit_patches = 1;
        return load_patch(v, o);
    }
    if ((r = cli_opt_value(argc, argv, i, "--conflicts", &v)))
        return r < 0 || cli_parse_conflicts(v, &o->conflicts) != 0 ? EXIT_USAGE : 0;
    if ((r = cli_opt_value(argc, argv, i, "--jobs", &v)) || (r = cli_opt_value(argc, argv, i, "-j", &v)))
        return r < 0 || cli_parse_jobs(v, &o->jobs) != 0 ? EXIT_USAGE : 0;
    const char *a = argv[*i];
    if (strncmp(a, "-j", 2) == 0 && a[2]) return cli_parse_jobs(a + 2, &o->jobs) != 0 ? EXIT_USAGE : 0;
    if (strcmp(a, "--in-place") == 0) o->in_place = 1;
    else if (strcmp(a, "--backup") == 0) o->backup = 1;
    else if (strcmp(a, "--dry-run") == 0) o->dry_run = 1;
    else if (strcmp(a, "--force") == 0) o->force = 1;
    else if (strcmp(a, "-q") == 0) o->quiet = 1;
    else if (a[0] == '-' && a[1]) return cli_usage_error("apply", a);
    else if (!*explicit_patches && *input_count == 0 && (o->patch_count == 0 || ends_with(a, ".json")))
        return load_patch(a, o);
    else inputs[(*input_count)++] = argv[*i];
    return 0;
}

/* Says what is missing, when something is. */
static int check_arguments(const apply_options *o, int input_count)
{
    if (!o->patch_count) fprintf(stderr, "rebyte: apply: no patch given (--patch FILE, or the first argument)\n");
    else if (!input_count) fprintf(stderr, "rebyte: apply: no input file given\n");
    else if (o->in_place && o->out) fprintf(stderr, "rebyte: apply: -o and --in-place exclude each other\n");
    else if (!o->dry_run && !o->in_place && !o->out)
        fprintf(stderr, "rebyte: apply: say where the result goes: -o OUT, -o DIR/, or --in-place (or --dry-run)\n");
    else if (o->backup && !o->in_place)
        fprintf(stderr, "rebyte: apply: --backup goes with --in-place (with -o the input is not changed)\n");
    else return 0;
    return cli_usage_line("apply");
}

/* ---------- -o FOLDER ---------- */

/* -o names a folder: one that exists, or any path ending in '/' (which must then be one).
 * 0: a file, 1: a folder, -1: a path ending in '/' that is no folder (printed). */
static int output_is_folder(const char *out)
{
    struct stat st;
    size_t n = strlen(out);
    int exists = stat(out, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) return 1;
    if (!n || out[n - 1] != '/') return 0;
    fprintf(stderr, "rebyte: apply: %s: %s (-o FOLDER/ writes each result into an existing folder)\n", out,
            exists ? "not a folder" : strerror(errno));
    return -1;
}

/* The files to patch and, with -o FOLDER, where each goes: a file named on the command line under
 * its own name, a file found under a named folder under its path below that folder. */
typedef struct batch_files {
    char **files, **targets;
    size_t count;
} batch_files;

static void batch_files_free(batch_files *f)
{
    if (f->targets)
        for (size_t i = 0; i < f->count; i++) free(f->targets[i]);
    free(f->targets);
    cli_free_files(f->files, f->count);
}

/* Whether `file` lies in the folder whose real path is `folder` (or below it). */
static int lies_in(const char *file, const char *folder)
{
    char *real = realpath(file, NULL);
    size_t n = strlen(folder);
    int in = real && strncmp(real, folder, n) == 0 && (real[n] == '/' || (n == 1 && folder[0] == '/'));
    free(real);
    return in;
}

/* The files found for `input` added to the list; those found in the output folder (`skip`, its
 * real path, when it lies inside an input folder) are left out: earlier results are no inputs. */
static int add_files(batch_files *f, const char *input, char **found, size_t n, const char *skip)
{
    char **files = realloc(f->files, (f->count + n + 1) * sizeof *files);
    if (files) f->files = files;
    char **targets = files ? realloc(f->targets, (f->count + n + 1) * sizeof *targets) : NULL;
    if (!targets) {
        cli_free_files(found, n);
        return -1;
    }
    f->targets = targets;
    for (size_t k = 0; k < n; k++) {
        if (skip && strcmp(found[k], input) != 0 && lies_in(found[k], skip)) {
            free(found[k]);
            continue;
        }
        f->files[f->count] = found[k];
        f->targets[f->count++] = NULL;
    }
    free(found);
    return 0;
}

/* `file`'s name in the output folder: below `input` when it was found under that folder. */
static char *target_in_folder(const char *folder, const char *input, const char *file)
{
    const char *name;
    if (strcmp(input, file) == 0) {
        const char *slash = strrchr(file, '/');
        name = slash ? slash + 1 : file;
    } else {
        name = file + strlen(input);
        while (*name == '/') name++;
    }
    size_t n = strlen(folder);
    char *target = NULL;
    if (asprintf(&target, "%s%s%s", folder, n && folder[n - 1] == '/' ? "" : "/", name) < 0) return NULL;
    return target;
}

/* Every input walked (folders recursively); returns how many could not be walked, or -1 when
 * out of memory. With -o FOLDER each file gets its target. */
static int collect_inputs(char **inputs, int input_count, const apply_options *o, batch_files *f)
{
    int missing = 0;
    char *out_folder = o->out_is_folder ? realpath(o->out, NULL) : NULL;
    for (int i = 0; i < input_count && missing >= 0; i++) {
        char **found = NULL;
        size_t n = 0, first = f->count;
        if (cli_collect_files(&inputs[i], 1, &found, &n) != 0) missing++;
        if (add_files(f, inputs[i], found, n, out_folder) != 0) missing = -1;
        for (size_t k = first; missing >= 0 && o->out_is_folder && k < f->count; k++)
            if (!(f->targets[k] = target_in_folder(o->out, inputs[i], f->files[k]))) missing = -1;
    }
    free(out_folder);
    if (!o->out_is_folder) {
        free(f->targets);
        f->targets = NULL;
    }
    return missing;
}

static const char *const *sorting_targets; /* qsort has no context argument */
static int by_target(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    int c = strcmp(sorting_targets[a], sorting_targets[b]);
    return c ? c : (a > b) - (a < b);
}

/* Before anything is written: no two inputs go to one output, none to an input (stdin has no
 * name to write under). 0, or EXIT_USAGE with each clash named. */
static int check_targets(const batch_files *f)
{
    size_t *order = malloc((f->count ? f->count : 1) * sizeof *order), clashes = 0;
    if (!order) return EXIT_IO;
    for (size_t i = 0; i < f->count; i++) order[i] = i;
    sorting_targets = (const char *const *)f->targets;
    qsort(order, f->count, sizeof *order, by_target);
    for (size_t k = 0; k < f->count; k++) {
        size_t i = order[k];
        struct stat in, out;
        if (strcmp(f->files[i], "-") == 0)
            clashes++, fprintf(stderr, "rebyte: apply: stdin has no name to write under in a folder: give -o FILE\n");
        else if (k && strcmp(f->targets[order[k - 1]], f->targets[i]) == 0)
            clashes++, fprintf(stderr, "rebyte: apply: %s and %s would both be written to %s\n", f->files[order[k - 1]],
                               f->files[i], f->targets[i]);
        else if (stat(f->files[i], &in) == 0 && stat(f->targets[i], &out) == 0 && in.st_dev == out.st_dev &&
                 in.st_ino == out.st_ino)
            clashes++, fprintf(stderr, "rebyte: apply: %s would replace its input %s (use --in-place for that)\n",
                               f->targets[i], f->files[i]);
    }
    free(order);
    if (!clashes) return 0;
    fprintf(stderr, "rebyte: apply: nothing was written\n");
    return EXIT_USAGE;
}

static int apply_files(char **inputs, int input_count, apply_options *o)
{
    batch_files f = {0};
    int missing = collect_inputs(inputs, input_count, o, &f), rc = EXIT_OK;
    if (missing < 0) rc = EXIT_IO;
    else if (f.count > 1 && o->out && !o->out_is_folder) {
        fprintf(stderr, "rebyte: apply: several input files need -o FOLDER/ or --in-place (%s is not a folder)\n",
                o->out);
        rc = EXIT_USAGE;
    } else if (o->out_is_folder) rc = check_targets(&f);
    if (rc != EXIT_OK) {
        batch_files_free(&f);
        return rc;
    }
    batch b = {.files = f.files, .targets = f.targets, .count = f.count, .o = o,
               .outcomes = calloc(f.count ? f.count : 1, sizeof(file_outcome))};
    rc = EXIT_IO;
    if (b.outcomes) {
        run_batch(&b);
        rc = summarize(&b);
    }
    free(b.outcomes);
    batch_files_free(&f);
    return missing && rc == EXIT_OK ? EXIT_IO : rc;
}

int cmd_apply(int argc, char **argv)
{
    apply_options o = {.jobs = 1};
    char **inputs = calloc((size_t)argc, sizeof(char *));
    o.patches = calloc((size_t)argc, sizeof(rb_patch *));
    int input_count = 0, explicit_patches = 0, rc = EXIT_USAGE;
    if (inputs && o.patches) {
        rc = 0;
        for (int i = 1; i < argc && rc == 0; i++)
            rc = parse_argument(argc, argv, &i, &o, inputs, &input_count, &explicit_patches);
        if (rc == 0) rc = check_arguments(&o, input_count);
        if (rc == 0 && o.out && !o.in_place && (o.out_is_folder = output_is_folder(o.out)) < 0) rc = EXIT_IO;
        if (rc == 0) rc = apply_files(inputs, input_count, &o);
    }
    for (size_t i = 0; i < o.patch_count; i++) rb_patch_free(o.patches[i]);
    free(o.patches);
    free(inputs);
    return rc;
}
