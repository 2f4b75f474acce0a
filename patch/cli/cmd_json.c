/* rebyte dump / build / diff / resolve / json-patch: clients of the library (include/rebyte.h) */
#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "patch/cli/cli.h"
#include "patch/cli/cli_util.h"
#include "patch/jsonpatch.h"
#include "patch/portable.h"

/* --blobs=files is not a spelling of the one JSON text but a dump with files beside it. */
enum { BLOBS_FILES = -1 };

static int parse_blob_mode(const char *v, int *mode)
{
    if (strcmp(v, "files") == 0) *mode = BLOBS_FILES;
    else if (strcmp(v, "ref") == 0) *mode = RB_BLOBS_REF;
    else if (strcmp(v, "base64") == 0) *mode = RB_BLOBS_BASE64;
    else if (strcmp(v, "omit") == 0) *mode = RB_BLOBS_OMIT;
    else {
        fprintf(stderr, "rebyte: --blobs must be ref, base64, files or omit (not \"%s\")\n", v);
        return -1;
    }
    return 0;
}

static json_t *load_json_file(const char *path)
{
    json_error_t jerr;
    json_t *j = strcmp(path, "-") == 0 ? json_loadf(stdin, JSON_ALLOW_NUL, &jerr) : json_load_file(path, JSON_ALLOW_NUL, &jerr);
    if (!j) fprintf(stderr, "rebyte: %s:%d:%d: %s\n", path, jerr.line, jerr.column, jerr.text);
    return j;
}


/* ---------- dump ---------- */

/* The dump is printed while the model is walked, straight into the output file (rb_doc_dump_to):
 * memory stays that of the model, whatever the size of the JSON. */
typedef struct dump_job {
    rb_doc *doc;
    rb_blob_mode blobs;
    const char *source;     /* "$source" */
    const char *files_prefix, *files_base; /* --blobs=files: the folder's name, and where it goes */
    int fd;
    int write_errno;
    rb_error err;
    int printed;            /* the library's error was printed */
    size_t file_count;
    uint64_t file_bytes;
} dump_job;

static int sink_to_fd(void *context, const char *text, size_t size)
{
    dump_job *job = context;
    if (cli_write_all(job->fd, (const uint8_t *)text, size) == 0) return 0;
    job->write_errno = errno;
    return -1;
}

/* --blobs=files: every blob in the folder beside the JSON (written before the JSON is in place). */
static int write_blob_files(dump_job *job, const rb_dump_files *files)
{
    size_t count = rb_dump_files_count(files);
    char below[4200];
    snprintf(below, sizeof below, "%s%s/", job->files_base, job->files_prefix);
    if (count && cli_make_parents(below) != 0) return -1;
    if (cli_write_atomic_files(job->files_base, files) != 0) return -1;
    for (size_t i = 0; i < count; i++) {
        size_t size = 0;
        rb_dump_files_data(files, i, &size);
        job->file_bytes += size;
    }
    job->file_count = count;
    return 0;
}

static rb_status dump_once(dump_job *job)
{
    rb_status st;
    if (job->files_prefix) {
        rb_dump_files *files = NULL;
        st = rb_doc_dump_files_to(job->doc, job->files_prefix, sink_to_fd, job, &files, &job->err);
        if (st == RB_OK && write_blob_files(job, files) != 0) {
            job->printed = 1;
            st = RB_E_IO;
        }
        rb_dump_files_free(files);
    } else {
        st = rb_doc_dump_to(job->doc, job->blobs, job->source, sink_to_fd, job, &job->err);
    }
    return st;
}

static int produce_dump(void *context, int fd)
{
    dump_job *job = context;
    job->fd = fd;
    rb_status st = dump_once(job);
    /* units the format cannot read alone (refused before a byte is printed): expanded, then printed */
    if (st == RB_E_DEFERRED && (st = rb_doc_expand(job->doc, &job->err)) == RB_OK) st = dump_once(job);
    if (st == RB_OK) return 0;
    if (job->write_errno) {
        errno = job->write_errno; /* the writer says what failed */
        return -1;
    }
    if (!job->printed) cli_print_error(&job->err);
    job->printed = 1;
    errno = EIO;
    return -1;
}

/* OUT.json, and for --blobs=files the folder OUT.files beside it (files named relative to it). */
static int dump_to_path(rb_doc *doc, int blobs, const char *source, const char *out)
{
    dump_job job = {.doc = doc, .blobs = (rb_blob_mode)blobs, .source = source};
    char prefix[512], base[4096];
    if (blobs == BLOBS_FILES) {
        const char *name = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
        size_t stem = strlen(name) > 5 && strcmp(name + strlen(name) - 5, ".json") == 0 ? strlen(name) - 5 : strlen(name);
        snprintf(prefix, sizeof prefix, "%.*s.files", (int)stem, name);
        snprintf(base, sizeof base, "%.*s", (int)(name - out), out);
        job.files_prefix = prefix;
        job.files_base = base;
        char json_path[4200];
        snprintf(json_path, sizeof json_path, "%s", out);
        if (cli_make_parents(json_path) != 0) return EXIT_IO;
    }
    if (cli_write_produced(out, produce_dump, &job) != 0) return EXIT_IO;
    if (blobs == BLOBS_FILES)
        fprintf(stderr, "%s: %zu blob files (%llu bytes) in %s%s\n", out, job.file_count,
                (unsigned long long)job.file_bytes, base, prefix);
    return EXIT_OK;
}

int cmd_dump(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *v;
    int blobs = RB_BLOBS_REF;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) {
            if (r < 0) return EXIT_USAGE;
            out = v;
        } else if ((r = cli_opt_value(argc, argv, &i, "--blobs", &v))) {
            if (r < 0 || parse_blob_mode(v, &blobs) != 0) return EXIT_USAGE;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("dump", argv[i]);
        } else {
            in = argv[i];
        }
    }
    if (!in) return cli_usage_error("dump", NULL);
    if (blobs == BLOBS_FILES && (!out || strcmp(out, "-") == 0)) {
        fprintf(stderr, "rebyte: dump --blobs=files needs -o OUT.json (the files go beside it)\n");
        return EXIT_USAGE;
    }
    cli_loaded l;
    int rc = cli_load_deferred(in, &l); /* printed one deferred unit at a time */
    if (rc) return rc;
    rc = dump_to_path(l.doc, blobs, in, out ? out : "-");
    cli_unload(&l);
    return rc;
}

/* ---------- build ---------- */

/* The file named by --source or the dump's "$source" (needed when blobs are references). */
static int load_source(const char *named, const char *explicit_source, cli_loaded *src)
{
    memset(src, 0, sizeof(*src));
    const char *path = explicit_source ? explicit_source : named;
    if (path && !explicit_source && access(path, R_OK) != 0) {
        fprintf(stderr, "rebyte: note: the dump's source %s is not readable (%s); blob references will fail\n", path,
                strerror(errno));
        return EXIT_OK;
    }
    /* deferred: a build takes only bytes from it (blob references name its sections; the race
     * -record guard reads the file again), never its nodes */
    return path ? cli_load_deferred(path, src) : EXIT_OK;
}

/* A file is read piecewise where it is (rb_doc_build_file); stdin is read whole first. */
static rb_doc *build_doc(const char *in, const char *source, cli_loaded *src, int *rc)
{
    rb_error err;
    rb_doc *doc = NULL;
    if (strcmp(in, "-") == 0) {
        uint8_t *text;
        size_t size;
        if (cli_read_file(in, &text, &size) != 0) { *rc = EXIT_IO; return NULL; }
        json_t *j = source ? NULL : json_loadb((const char *)text, size, JSON_ALLOW_NUL, NULL);
        *rc = load_source(json_string_value(json_object_get(json_object_get(j, "$source"), "file")), source, src);
        json_decref(j);
        if (!*rc && !(doc = rb_doc_build((const char *)text, size, in, src->doc, &err))) cli_print_error(&err);
        free(text);
        return doc;
    }
    char *named = source ? NULL : rb_dump_source_file(in, &err);
    if (!source && !named && err.status) { cli_print_error(&err); *rc = EXIT_IO; return NULL; }
    *rc = load_source(named, source, src);
    rb_free(named);
    /* deferred: the units are written as they are built (the command only writes the model) */
    if (!*rc && !(doc = rb_doc_build_file_deferred(in, src->doc, &err))) cli_print_error(&err);
    return doc;
}

int cmd_build(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *source = NULL, *v;
    int new_recording = 0;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) {
            if (r < 0) return EXIT_USAGE;
            out = v;
        } else if ((r = cli_opt_value(argc, argv, &i, "--source", &v))) {
            if (r < 0) return EXIT_USAGE;
            source = v;
        } else if (strcmp(argv[i], "--new-recording") == 0 || strcmp(argv[i], "--new-record") == 0) {
            new_recording = 1; /* --new-record: the flag's first spelling, kept (docs/usage.md) */
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("build", argv[i]);
        } else {
            in = argv[i];
        }
    }
    if (!in || !out) return cli_usage_error("build", NULL);
    cli_loaded src;
    int rc;
    rb_doc *doc = build_doc(in, source, &src, &rc);
    if (rc) return rc;
    rc = EXIT_BAD_INPUT;
    if (doc) {
        rb_error err;
        uint8_t *bytes;
        size_t out_size;
        if (new_recording) rb_doc_author_recordings(doc);
        if (rb_doc_write(doc, NULL, &bytes, &out_size, &err) != RB_OK) {
            cli_print_error(&err);
        } else {
            rc = cli_write_atomic(out, bytes, out_size) == 0 ? EXIT_OK : EXIT_IO;
            rb_free(bytes);
        }
        rb_doc_free(doc);
    }
    cli_unload(&src);
    return rc;
}

/* ---------- diff ---------- */

int cmd_diff(int argc, char **argv)
{
    const char *a = NULL, *b = NULL;
    unsigned flags = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--by-identity") == 0) { flags |= RB_DIFF_BY_IDENTITY; continue; }
        if (strcmp(argv[i], "--plain") == 0) { flags |= RB_DIFF_PLAIN; continue; }
        if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("diff", argv[i]);
        if (!a) a = argv[i];
        else if (!b) b = argv[i];
        else return cli_usage_error("diff", argv[i]);
    }
    if (!a || !b) return cli_usage_error("diff", NULL);
    cli_loaded la, lb;
    /* two files read, units read again alone, models copied and freed: freed memory is kept for
     * what comes next instead of given back and faulted in again (as a batch does) */
    cli_batch_heap();
    /* both deferred: the diff reads alone only the units that differ (rb_doc_diff) */
    int rc = cli_load_deferred(a, &la);
    if (rc) return rc;
    rc = cli_load_deferred(b, &lb);
    if (rc) { cli_unload(&la); return rc; }
    char *patch;
    size_t operations;
    rb_error err;
    if (rb_doc_diff(la.doc, la.data, la.size, lb.doc, flags, &patch, &operations, &err) != RB_OK) {
        cli_print_error(&err);
        rc = EXIT_BAD_INPUT;
    } else {
        rc = cli_write_atomic("-", (const uint8_t *)patch, strlen(patch)) != 0 ? EXIT_IO
             : operations                                                   ? EXIT_DIFFERS
                                                                            : EXIT_OK;
        rb_free(patch);
    }
    cli_unload(&la);
    cli_unload(&lb);
    return rc;
}

/* ---------- json-patch: the engine alone, on plain JSON (for the conformance suite) ---------- */

enum { JSON_PATCH_MAX = 64 };

/* The patches of `rebyte json-patch DOC PATCH... [--conflicts P]` applied to DOC: stacked as
 * apply stacks them. */
static int json_patch_all(json_t **doc, json_t **patches, const char **names, int count, rb_conflicts policy)
{
    char why[1024];
    if (rb_json_patch_apply_extended(doc, (const json_t *const *)patches, names, count, policy, stderr, why,
                                     sizeof why) != 0) {
        fprintf(stderr, "rebyte: %s\n", why);
        return EXIT_BAD_INPUT;
    }
    char *text = json_dumps(*doc, JSON_ENCODE_ANY | JSON_INDENT(2));
    printf("%s\n", text);
    free(text);
    return EXIT_OK;
}

int cmd_json_patch(int argc, char **argv)
{
    json_t *patches[JSON_PATCH_MAX];
    const char *names[JSON_PATCH_MAX], *doc_path = NULL, *v;
    int count = 0, rc = EXIT_OK, r;
    rb_conflicts policy = RB_CONFLICTS_STOP;
    for (int i = 1; i < argc && rc == EXIT_OK; i++) {
        if ((r = cli_opt_value(argc, argv, &i, "--conflicts", &v)))
            rc = r < 0 || cli_parse_conflicts(v, &policy) != 0 ? EXIT_USAGE : EXIT_OK;
        else if (argv[i][0] == '-' && argv[i][1]) rc = cli_usage_error("json-patch", argv[i]);
        else if (!doc_path) doc_path = argv[i];
        else if (count == JSON_PATCH_MAX) rc = cli_usage_error("json-patch", argv[i]);
        else if ((patches[count] = load_json_file(argv[i]))) names[count++] = argv[i];
        else rc = EXIT_BAD_INPUT;
    }
    if (rc == EXIT_OK && count == 0) rc = cli_usage_error("json-patch", NULL);
    json_t *doc = rc == EXIT_OK ? load_json_file(doc_path) : NULL;
    if (rc == EXIT_OK) rc = doc ? json_patch_all(&doc, patches, names, count, policy) : EXIT_BAD_INPUT;
    json_decref(doc);
    for (int p = 0; p < count; p++) json_decref(patches[p]);
    return rc;
}

/* ---------- resolve: the patch with its selectors turned into plain pointers ---------- */

int cmd_resolve(int argc, char **argv)
{
    if (argc != 3) return cli_usage_error("resolve", argc > 3 ? argv[3] : NULL);
    uint8_t *text;
    size_t size;
    if (cli_read_patch(argv[1], &text, &size) != 0) return EXIT_IO;
    rb_error err;
    rb_patch *patch = rb_patch_parse((const char *)text, size, argv[1], &err);
    free(text);
    if (!patch) { cli_print_error(&err); return EXIT_BAD_INPUT; }
    cli_loaded l;
    int rc = cli_load(argv[2], &l);
    if (rc) { rb_patch_free(patch); return rc; }
    char *plain;
    if (rb_patch_resolve(l.doc, patch, &plain, &err) != RB_OK) {
        cli_print_error(&err);
        rc = EXIT_BAD_INPUT;
    } else {
        rc = cli_write_atomic("-", (const uint8_t *)plain, strlen(plain)) == 0 ? EXIT_OK : EXIT_IO;
        rb_free(plain);
    }
    rb_patch_free(patch);
    cli_unload(&l);
    return rc;
}
