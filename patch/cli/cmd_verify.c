/* rebyte info / rewrite / verify */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "patch/cli/cli.h"
#include "patch/cli/cli_pool.h"
#include "patch/cli/cli_util.h"

/* ---------- info ---------- */

static void print_info_text(const json_t *o)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)o, k, v) {
        if (json_is_array(v)) {
            printf("%-22s %zu:", k, json_array_size(v));
            for (size_t i = 0; i < json_array_size(v); i++) {
                json_t *e = json_array_get(v, i);
                if (json_is_string(e)) printf(" %s", json_string_value(e));
                else if (json_is_object(e)) printf(" %s%s(%" JSON_INTEGER_FORMAT ")", json_string_value(json_object_get(e, "id")),
                                                   json_is_true(json_object_get(e, "heavy")) ? "H" : "",
                                                   json_integer_value(json_object_get(e, "size")));
            }
            printf("\n");
        } else {
            char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
            printf("%-22s %s\n", k, text ? text : "?");
            free(text);
        }
    }
}

int cmd_info(int argc, char **argv)
{
    int as_json = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) as_json = 1;
        else if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("info", argv[i]);
        else path = argv[i];
    }
    if (!path) return cli_usage_error("info", NULL);
    cli_loaded l;
    int rc = cli_load_deferred(path, &l); /* the summary reads the units it needs alone */
    if (rc) return rc;
    char *info;
    rb_error err;
    if (rb_doc_info(l.doc, path, l.size, &info, &err) != RB_OK) {
        cli_print_error(&err);
        cli_unload(&l);
        return EXIT_IO;
    }
    if (as_json) {
        printf("%s\n", info);
    } else {
        json_t *o = json_loads(info, 0, NULL);
        print_info_text(o);
        json_decref(o);
    }
    rb_free(info);
    cli_unload(&l);
    return EXIT_OK;
}

/* ---------- rewrite ---------- */

int cmd_rewrite(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *v;
    int reencode = 0;
    const char *codec = NULL;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) {
            if (r < 0) return EXIT_USAGE;
            out = v;
        } else if (strcmp(argv[i], "--reencode") == 0 || strncmp(argv[i], "--reencode=", 11) == 0) {
            reencode = 1;
            codec = argv[i][10] == '=' ? argv[i] + 11 : NULL;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("rewrite", argv[i]);
        } else {
            in = argv[i];
        }
    }
    if (!in || !out) return cli_usage_error("rewrite", NULL);
    uint8_t *data, *result;
    size_t size, result_size;
    if (cli_read_file(in, &data, &size) != 0) return EXIT_IO;
    rb_error err;
    rb_doc *doc = cli_parse_deferred(in, data, size, &err);
    if (!doc) {
        cli_print_error(&err);
        free(data);
        return EXIT_BAD_INPUT;
    }
    rb_write_options wo = {.reencode = reencode, .reencode_codec = codec};
    int rc = EXIT_OK;
    if (rb_doc_write(doc, &wo, &result, &result_size, &err) != RB_OK) {
        cli_print_error(&err);
        rc = EXIT_BAD_INPUT;
    } else {
        if (cli_write_atomic(out, result, result_size) != 0) rc = EXIT_IO;
        rb_free(result);
    }
    rb_doc_free(doc);
    free(data);
    return rc;
}

/* ---------- verify ---------- */

/* The small fields first and the large buffers last, each initialised only as far as it is used
 * (verify_init): a batch's result slots are touched one page or two each, not ten. */
typedef struct verify_result {
    const char *status; /* exact | differs | error */
    int has_diff;
    uint64_t diff_offset;
    rb_coverage coverage;
    rb_coverage_kinds kinds;
    size_t stream_count;
    const char *format;
    char **notes; /* deviations the reader kept (stale checksums, ...): malloc'd copies */
    size_t note_count;
    char diff_space[32]; /* "file" or "decoded" */
    char error[RB_ERROR_TEXT_SIZE];
    char path[512];
    rb_stream_report streams[64];
} verify_result;

static void verify_init(verify_result *r)
{
    r->status = "exact";
    r->has_diff = 0;
    r->diff_offset = 0;
    r->coverage = (rb_coverage)RB_COVERAGE_INIT;
    r->kinds = (rb_coverage_kinds)RB_COVERAGE_KINDS_INIT;
    r->stream_count = 0;
    r->format = "?";
    r->notes = NULL;
    r->note_count = 0;
    snprintf(r->diff_space, sizeof r->diff_space, "file");
    r->error[0] = 0;
    r->path[0] = 0;
}

static void keep_notes(verify_result *r, const rb_doc *doc)
{
    size_t n = rb_doc_note_count(doc);
    if (!n || !(r->notes = calloc(n, sizeof(char *)))) return;
    for (size_t i = 0; i < n; i++)
        if ((r->notes[r->note_count] = strdup(rb_doc_note(doc, i)))) r->note_count++;
}

static void free_notes(verify_result *r)
{
    for (size_t i = 0; i < r->note_count; i++) free(r->notes[i]);
    free(r->notes);
    r->notes = NULL;
    r->note_count = 0;
}

static int first_difference(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint64_t *offset)
{
    size_t n = na < nb ? na : nb;
    if (na == nb && (n == 0 || memcmp(a, b, n) == 0)) return 0; /* the usual case, at memcmp speed */
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) { *offset = i; return 1; }
    if (na != nb) { *offset = n; return 1; }
    return 0;
}

static void locate(verify_result *r, const rb_doc *doc, uint64_t offset)
{
    r->has_diff = 1;
    r->diff_offset = offset;
    rb_doc_path_at(doc, offset, r->path, sizeof r->path);
}

static void fail_result(verify_result *r, const rb_error *err)
{
    r->status = "error";
    rb_error_format(err, r->error, sizeof r->error);
}

/* Re-encoded output: compare decoded content and the bytes around the streams. */
static void verify_reencoded(verify_result *r, rb_doc *doc, const char *path, const uint8_t *out, size_t out_size)
{
    rb_error err;
    rb_doc *again = cli_parse_deferred(path, out, out_size, &err);
    if (!again) {
        r->status = "differs";
        snprintf(r->error, sizeof r->error, "re-encoded output does not parse: %s", err.message);
        return;
    }
    rb_write_options decoded = {.decoded = 1};
    uint8_t *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    if (rb_doc_write(doc, &decoded, &a, &na, &err) != RB_OK || rb_doc_write(again, &decoded, &b, &nb, &err) != RB_OK) {
        fail_result(r, &err);
    } else {
        uint64_t off;
        if (first_difference(a, na, b, nb, &off)) {
            r->status = "differs";
            r->has_diff = 1;
            r->diff_offset = off;
            snprintf(r->diff_space, sizeof r->diff_space, "decoded");
        }
    }
    rb_free(a);
    rb_free(b);
    rb_doc_free(again);
}

static void verify_one(const char *path, const char *reencode, int named, verify_result *r)
{
    verify_init(r);
    uint8_t *data;
    size_t size;
    if (cli_read_file(path, &data, &size) != 0) {
        r->status = "error";
        snprintf(r->error, sizeof r->error, "%s: cannot read", path);
        return;
    }
    if (!named && !rb_format_detect(data, size)) {
        /* found while walking a folder (a MANIFEST, a readme): not a game file */
        r->status = "skipped";
        snprintf(r->error, sizeof r->error, "%s: not a format rebyte knows", path);
        free(data);
        return;
    }
    rb_error err;
    rb_doc *doc = cli_parse_checked(path, data, size, &err);
    if (!doc) {
        fail_result(r, &err);
        free(data);
        return;
    }
    r->format = rb_doc_format(doc);
    rb_doc_coverage_both(doc, &r->coverage, &r->kinds);
    keep_notes(r, doc);
    rb_write_options wo = {.reencode = reencode != NULL, .reencode_codec = reencode && *reencode ? reencode : NULL};
    uint8_t *out = NULL;
    size_t out_size;
    int identical = 0;
    /* without --reencode the write is compared with the file as it is made: no copy when exact */
    rb_status st = reencode ? rb_doc_write(doc, &wo, &out, &out_size, &err)
                            : rb_doc_write_against(doc, &wo, data, size, &identical, &out, &out_size, &err);
    if (st != RB_OK) {
        fail_result(r, &err);
    } else {
        size_t streams = rb_doc_stream_report_count(doc);
        for (r->stream_count = 0; r->stream_count < streams && r->stream_count < 64; r->stream_count++) {
            r->streams[r->stream_count] = (rb_stream_report)RB_STREAM_REPORT_INIT;
            rb_doc_stream_report(doc, r->stream_count, &r->streams[r->stream_count]);
        }
        uint64_t off;
        if (!reencode) {
            if (!identical && first_difference(data, size, out, out_size, &off)) {
                r->status = "differs";
                locate(r, doc, off);
            }
        } else {
            verify_reencoded(r, doc, path, out, out_size);
        }
        rb_free(out);
    }
    rb_doc_free(doc);
    free(data);
}

static void print_result_json(const char *path, const verify_result *r)
{
    json_t *o = json_pack("{s:s,s:s,s:s}", "file", path, "format", r->format, "status", r->status);
    if (r->has_diff) {
        json_object_set_new(o, "first_diff_offset", json_integer((json_int_t)r->diff_offset));
        json_object_set_new(o, "diff_space", json_string(r->diff_space));
        json_object_set_new(o, "path", json_string(r->path));
    }
    if (r->error[0]) json_object_set_new(o, "error", json_string(r->error));
    json_object_set_new(o, "typed_bytes", json_integer((json_int_t)r->coverage.typed_bytes));
    json_object_set_new(o, "opaque_bytes", json_integer((json_int_t)r->coverage.opaque_bytes));
    json_object_set_new(o, "opaque_tail", json_boolean(r->coverage.opaque_tail));
    json_t *opaque_kinds = json_object(), *blob_kinds = json_object();
    for (int k = 0; k < RB_PAYLOAD_KINDS; k++) {
        json_object_set_new(opaque_kinds, rb_payload_kind_name(k), json_integer((json_int_t)r->kinds.opaque[k]));
        json_object_set_new(blob_kinds, rb_payload_kind_name(k), json_integer((json_int_t)r->kinds.blob[k]));
    }
    json_object_set_new(o, "opaque_by_kind", opaque_kinds);
    json_object_set_new(o, "blob_by_kind", blob_kinds);
    json_t *streams = json_array();
    for (size_t i = 0; i < r->stream_count; i++) {
        const rb_stream_report *s = &r->streams[i];
        json_array_append_new(streams, json_pack("{s:s,s:s,s:s,s:b,s:I,s:I,s:I}", "name", s->name, "codec", s->codec,
                                                 "path", s->reencoded ? "reencoded" : "passed_through",
                                                 "identical", s->identical, "original_size",
                                                 (json_int_t)s->original_size, "written_size",
                                                 (json_int_t)s->written_size, "content_size",
                                                 (json_int_t)s->content_size));
    }
    json_object_set_new(o, "streams", streams);
    if (r->note_count) {
        json_t *notes = json_array();
        for (size_t i = 0; i < r->note_count; i++) json_array_append_new(notes, json_string(r->notes[i]));
        json_object_set_new(o, "notes", notes);
    }
    char *text = json_dumps(o, JSON_COMPACT);
    printf("%s\n", text);
    free(text);
    json_decref(o);
}

static void print_result_text(const char *path, const verify_result *r)
{
    if (strcmp(r->status, "exact") == 0) {
        double total = (double)(r->coverage.typed_bytes + r->coverage.opaque_bytes);
        printf("exact    %s (%s, %.1f%% typed%s)\n", path, r->format,
               total > 0 ? 100.0 * (double)r->coverage.typed_bytes / total : 100.0,
               r->coverage.opaque_tail ? ", opaque tail" : "");
    } else if (strcmp(r->status, "differs") == 0) {
        if (r->has_diff)
            printf("DIFFERS  %s: first difference at %s offset 0x%" PRIx64 "%s%s%s\n", path, r->diff_space,
                   r->diff_offset, r->path[0] ? " (" : "", r->path, r->path[0] ? ")" : "");
        else
            printf("DIFFERS  %s: %s\n", path, r->error);
    } else if (strcmp(r->status, "skipped") == 0) {
        printf("skipped  %s\n", r->error);
    } else {
        printf("ERROR    %s\n", r->error);
    }
    for (size_t i = 0; i < r->note_count; i++) printf("         note: %s\n", r->notes[i]);
}

/* ---------- verify: files in parallel, reported in input order ---------- */

/* The main thread prints results in input order as they complete. The files go to the workers
 * of a pool (cli_pool.h), largest first within each block of `window` files: no lock on the way
 * to the next file or to a finished result. A worker waits (on the lock) only when it would run
 * a block ahead of the printing, which bounds the results held to two blocks. */
typedef struct verify_pool {
    char **files;
    size_t file_count;
    char **paths;
    int path_count;
    const char *reencode; /* NULL: pass streams through; "": re-encode all; else only this codec */
    size_t window;        /* files per block */
    verify_result *slots; /* result of file i in slots[i % (2 * window)] */
    int *ready;           /* slot holds the result of its file (atomic) */
    unsigned char *known; /* known[i]: file i is of a known format (not skipped); set as reported */
    size_t printed;       /* files the main thread is done with (atomic) */
    sem_t finished;       /* posted once per result */
    pthread_mutex_t lock; /* only to wait for the printing to free a block */
    pthread_cond_t block_free;
} verify_pool;

static int named_on_command_line(const verify_pool *p, const char *file)
{
    int named = 0;
    for (int k = 0; k < p->path_count; k++) named |= strcmp(p->paths[k], file) == 0;
    return named;
}

/* Before a file of block `block`: the block two before it (whose slots it reuses) is printed. */
static void wait_for_slots(verify_pool *p, size_t block)
{
    size_t needed = block >= 2 ? (block - 1) * p->window : 0;
    if (__atomic_load_n(&p->printed, __ATOMIC_ACQUIRE) >= needed) return;
    pthread_mutex_lock(&p->lock);
    while (__atomic_load_n(&p->printed, __ATOMIC_ACQUIRE) < needed) pthread_cond_wait(&p->block_free, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

static void verify_in_pool(void *context, size_t ticket, size_t i)
{
    verify_pool *p = context;
    wait_for_slots(p, ticket / p->window);
    size_t slot = i % (2 * p->window);
    verify_one(p->files[i], p->reencode, named_on_command_line(p, p->files[i]), &p->slots[slot]);
    __atomic_store_n(&p->ready[slot], 1, __ATOMIC_RELEASE);
    sem_post(&p->finished);
}

typedef struct verify_totals {
    size_t exact, differs, errors, skipped, with_notes;
} verify_totals;

static void report_result(const char *file, verify_result *r, int as_json, int quiet, verify_totals *t)
{
    if (strcmp(r->status, "exact") == 0) t->exact++;
    else if (strcmp(r->status, "differs") == 0) t->differs++;
    else if (strcmp(r->status, "skipped") == 0) { t->skipped++; free_notes(r); return; }
    else t->errors++;
    if (r->note_count) t->with_notes++;
    if (as_json) print_result_json(file, r);
    /* -q leaves out the exact files without notes: a file whose deviations were kept is listed
     * with them, so the summary's "listed above" holds */
    else if (!quiet || strcmp(r->status, "exact") != 0 || r->note_count) print_result_text(file, r);
    free_notes(r);
    fflush(stdout);
}

/* The result of file i, once a worker has it (the main thread's side of the pool): read in its
 * slot, which stays the file's until release_result. */
static verify_result *take_result(verify_pool *p, size_t i)
{
    size_t slot = i % (2 * p->window);
    while (!__atomic_load_n(&p->ready[slot], __ATOMIC_ACQUIRE))
        while (sem_wait(&p->finished) != 0 && errno == EINTR) {}
    return &p->slots[slot];
}

static void release_result(verify_pool *p, size_t i)
{
    p->ready[i % (2 * p->window)] = 0;
    __atomic_store_n(&p->printed, i + 1, __ATOMIC_RELEASE);
    if ((i + 1) % p->window == 0) { /* a block is free: a worker may be waiting for it */
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->block_free);
        pthread_mutex_unlock(&p->lock);
    }
}

static int verify_parallel(verify_pool *p, int jobs, int as_json, int quiet, verify_totals *t)
{
    /* results may run ahead of printing by up to two blocks: a large file in the queue must not
     * stall the other workers while it is checked (a result is small) */
    p->window = (size_t)jobs * 64;
    p->slots = calloc(2 * p->window, sizeof *p->slots);
    p->ready = calloc(2 * p->window, sizeof *p->ready);
    cli_pool pool = {.files = p->files, .count = p->file_count, .block = p->window, .work = verify_in_pool, .context = p};
    if (!p->slots || !p->ready || sem_init(&p->finished, 0, 0) != 0) {
        free(p->slots), free(p->ready);
        return -1;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->block_free, NULL);
    int started = cli_pool_start(&pool, jobs);
    for (size_t i = 0; started && i < p->file_count; i++) {
        cli_progress(i + 1, p->file_count, p->files[i]);
        verify_result *r = take_result(p, i);
        cli_progress_clear();
        p->known[i] = strcmp(r->status, "skipped") != 0;
        report_result(p->files[i], r, as_json, quiet, t);
        release_result(p, i);
    }
    cli_pool_join(&pool);
    pthread_cond_destroy(&p->block_free);
    pthread_mutex_destroy(&p->lock);
    sem_destroy(&p->finished);
    free(p->slots);
    free(p->ready);
    return started ? 0 : -1;
}

static void verify_serial(verify_pool *p, int as_json, int quiet, verify_totals *t)
{
    if (p->file_count > 1) { /* a batch: the heap made ready once (a file alone keeps a heap its size) */
        uint64_t largest = 0;
        free(cli_largest_first(p->files, p->file_count, 0, &largest));
        cli_worker_heap(largest);
    }
    for (size_t i = 0; i < p->file_count; i++) {
        cli_progress(i + 1, p->file_count, p->files[i]);
        verify_result r;
        verify_one(p->files[i], p->reencode, named_on_command_line(p, p->files[i]), &r);
        cli_progress_clear();
        p->known[i] = strcmp(r.status, "skipped") != 0;
        report_result(p->files[i], &r, as_json, quiet, t);
    }
}

/* Whether `file` was found under the folder `folder` (the walk spells it folder/name). */
static int found_under(const char *file, const char *folder)
{
    size_t n = strlen(folder);
    return strncmp(file, folder, n) == 0 && n && (folder[n - 1] == '/' || file[n] == '/');
}

/* The folders named in which no file of a known format was found: each said (cli_no_known_file). */
static size_t folders_without_known_file(const verify_pool *p)
{
    size_t count = 0;
    for (int k = 0; k < p->path_count; k++) {
        struct stat st;
        if (stat(p->paths[k], &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        int any = 0;
        for (size_t i = 0; i < p->file_count && !any; i++) any = p->known[i] && found_under(p->files[i], p->paths[k]);
        if (!any) count++, cli_no_known_file(p->paths[k]);
    }
    return count;
}

/* -j N, -jN or --jobs N (0: every CPU); 0 on success. */
static int parse_jobs(int argc, char **argv, int *i, int *jobs)
{
    const char *v = NULL;
    if (strncmp(argv[*i], "-j", 2) == 0 && argv[*i][2]) v = argv[*i] + 2;
    else if ((strcmp(argv[*i], "-j") == 0 || strcmp(argv[*i], "--jobs") == 0) && *i + 1 < argc) v = argv[++*i];
    return cli_parse_jobs(v, jobs);
}

int cmd_verify(int argc, char **argv)
{
    const char *reencode = NULL;
    int as_json = 0, quiet = 0, jobs = cli_cpu_count();
    char **paths = calloc((size_t)argc + 1, sizeof(char *));
    int path_count = 0;
    if (!paths) return EXIT_IO;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reencode") == 0) reencode = "";
        else if (strncmp(argv[i], "--reencode=", 11) == 0) reencode = argv[i] + 11;
        else if (strcmp(argv[i], "--json") == 0) as_json = 1;
        else if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0) quiet = 1;
        else if (strncmp(argv[i], "-j", 2) == 0 || strcmp(argv[i], "--jobs") == 0) {
            if (parse_jobs(argc, argv, &i, &jobs) != 0) { free(paths); return cli_usage_error("verify", argv[i]); }
        }
        else if (argv[i][0] == '-' && argv[i][1]) { free(paths); return cli_usage_error("verify", argv[i]); }
        else paths[path_count++] = argv[i];
    }
    if (!path_count) { free(paths); return cli_usage_error("verify", NULL); }
    verify_pool pool = {.paths = paths, .path_count = path_count, .reencode = reencode};
    cli_batch_heap();
    size_t missing = (size_t)cli_collect_files(paths, path_count, &pool.files, &pool.file_count);
    verify_totals t = {0};
    pool.known = calloc(pool.file_count + 1, 1);
    if (!pool.known) { free(paths); cli_free_files(pool.files, pool.file_count); return EXIT_IO; }
    /* one file, or one job: no threads (and a pool that cannot start runs serially too) */
    if (jobs < 2 || pool.file_count < 2 || verify_parallel(&pool, jobs, as_json, quiet, &t) != 0)
        verify_serial(&pool, as_json, quiet, &t);
    size_t checked = pool.file_count - t.skipped, empty = folders_without_known_file(&pool);
    free(pool.known);
    if (as_json) {
        printf("{\"summary\":true,\"files\":%zu,\"exact\":%zu,\"differs\":%zu,\"errors\":%zu,\"skipped\":%zu,"
               "\"with_notes\":%zu,\"missing\":%zu,\"folders_without_known_file\":%zu,\"reencode\":%s}\n",
               checked, t.exact, t.differs, t.errors, t.skipped, t.with_notes, missing, empty,
               reencode ? "true" : "false");
    } else {
        printf("%zu/%zu exact%s, %zu differ, %zu errors", t.exact, checked,
               reencode ? " (re-encoded streams, content compared)" : "", t.differs, t.errors);
        if (t.skipped) printf(", %zu skipped (not a known format)", t.skipped);
        if (t.with_notes) printf(", %zu with notes (deviations kept, listed above)", t.with_notes);
        if (missing) printf(", %zu not found or unreadable (named above)", missing);
        if (empty) printf(", %zu folder%s without a file of a known format (named above)", empty, empty == 1 ? "" : "s");
        printf("\n");
    }
    free(paths);
    cli_free_files(pool.files, pool.file_count);
    if (missing) return EXIT_IO;
    if (t.errors || empty) return EXIT_BAD_INPUT;
    return t.differs ? EXIT_DIFFERS : EXIT_OK;
}
