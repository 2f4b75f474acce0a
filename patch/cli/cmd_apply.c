/* rebyte apply: the library's rb_apply (include/rebyte.h) over files, folders and batches. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_util.h"

typedef struct apply_options {
    rb_patch **patches;
    size_t patch_count;
    const char *out;
    int in_place, backup, dry_run, quiet, force, jobs;
    rb_conflicts conflicts;
} apply_options;

/* What happened to one file of a batch: its exit code, and why it was not patched. */
typedef struct file_outcome {
    int rc;
    char why[300];
} file_outcome;

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
    rb_apply_options ao = {.size = sizeof ao, .conflicts = o->conflicts, .report = cli_report_line,
                           .report_context = (void *)&o->quiet, .want_changes = o->dry_run,
                           .force = o->force};
    rb_apply_result r;
    rb_error err;
    rb_status st = rb_apply(data, size, path, (const rb_patch *const *)o->patches, o->patch_count, &ao, &r, &err);
    if (st != RB_OK) {
        result->rc = cli_apply_failed(&err);
        snprintf(result->why, sizeof result->why, "%.290s", err.message);
    } else if (o->dry_run) {
        cli_print_changes(r.changes, path);
    } else {
        result->rc = cli_write_result(target, path, data, size, r.bytes, r.size, o->backup, 0, in_place ? &edit : NULL);
        char changes[48];
        if (result->rc != EXIT_OK) snprintf(result->why, sizeof result->why, "the output could not be written");
        else if (!o->quiet)
            fprintf(stderr, "rebyte: %s -> %s: patched and verified (%s)\n", path, target,
                    cli_changes(r.operations, r.size == size && memcmp(r.bytes, data, size) == 0, changes,
                                sizeof changes));
    }
    rb_apply_result_free(&r);
    if (in_place) cli_edit_end(&edit);
    free(data);
}

/* ---------- batches ---------- */

/* Files are handed out largest first (cli_largest_first) by an atomic counter: no lock between a
 * worker and its next file. Outcomes land in their own slots, reported in input order after. */
typedef struct batch {
    char **files;
    size_t count, next, done; /* next, done: atomic */
    size_t *order;
    uint64_t largest; /* the largest file's size: each worker's heap is made ready for it */
    file_outcome *outcomes;
    const apply_options *o;
} batch;

static void *batch_worker(void *arg)
{
    batch *b = arg;
    cli_worker_heap(b->largest);
    for (;;) {
        size_t ticket = __atomic_fetch_add(&b->next, 1, __ATOMIC_RELAXED);
        if (ticket >= b->count) return NULL;
        size_t i = b->order ? b->order[ticket] : ticket;
        apply_to_file(b->files[i], b->o->in_place ? b->files[i] : b->o->out, b->o, &b->outcomes[i]);
        size_t done = __atomic_add_fetch(&b->done, 1, __ATOMIC_RELAXED);
        cli_progress(done, b->count, b->files[i]);
    }
}

static void run_batch(batch *b)
{
    pthread_t threads[64];
    int started = 0, jobs = b->o->jobs < 64 ? b->o->jobs : 64;
    if (jobs > 1) {
        cli_batch_heap();
        b->order = cli_largest_first(b->files, b->count, 0, &b->largest);
        while (started < jobs && pthread_create(&threads[started], NULL, batch_worker, b) == 0) started++;
    }
    if (!started) { /* one job, in order, with the progress line before each file */
        for (size_t i = 0; i < b->count; i++) {
            cli_progress(i + 1, b->count, b->files[i]);
            apply_to_file(b->files[i], b->o->in_place ? b->files[i] : b->o->out, b->o, &b->outcomes[i]);
            cli_progress_clear();
        }
    }
    for (int k = 0; k < started; k++) pthread_join(threads[k], NULL);
    if (started) cli_progress_clear();
    free(b->order);
    b->order = NULL;
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

static int parse_conflicts(const char *v, rb_conflicts *policy)
{
    if (strcmp(v, "stop") == 0) *policy = RB_CONFLICTS_STOP;
    else if (strcmp(v, "first-wins") == 0) *policy = RB_CONFLICTS_FIRST_WINS;
    else if (strcmp(v, "last-wins") == 0) *policy = RB_CONFLICTS_LAST_WINS;
    else {
        fprintf(stderr, "rebyte: --conflicts must be stop, first-wins or last-wins\n");
        return -1;
    }
    return 0;
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
        return r < 0 || parse_conflicts(v, &o->conflicts) != 0 ? EXIT_USAGE : 0;
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
        fprintf(stderr, "rebyte: apply: say where the result goes: -o OUT, or --in-place (or --dry-run)\n");
    else if (o->backup && !o->in_place)
        fprintf(stderr, "rebyte: apply: --backup goes with --in-place (with -o the input is not changed)\n");
    else return 0;
    return cli_usage_line("apply");
}

static int apply_files(char **inputs, int input_count, apply_options *o)
{
    char **files;
    size_t n;
    int walk_failed = cli_collect_files(inputs, input_count, &files, &n) != 0;
    if (n > 1 && o->out && !o->in_place) {
        fprintf(stderr, "rebyte: several input files need --in-place (or apply them one at a time with -o)\n");
        cli_free_files(files, n);
        return EXIT_USAGE;
    }
    batch b = {.files = files, .count = n, .o = o, .outcomes = calloc(n ? n : 1, sizeof(file_outcome))};
    int rc = EXIT_IO;
    if (b.outcomes) {
        run_batch(&b);
        rc = summarize(&b);
    }
    free(b.outcomes);
    cli_free_files(files, n);
    return walk_failed && rc == EXIT_OK ? EXIT_IO : rc;
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
        if (rc == 0) rc = apply_files(inputs, input_count, &o);
    }
    for (size_t i = 0; i < o.patch_count; i++) rb_patch_free(o.patches[i]);
    free(o.patches);
    free(inputs);
    return rc;
}
