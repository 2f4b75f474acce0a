/* rebyte dump / build / diff / resolve / json-patch: clients of the library (include/rebyte.h) */
#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_util.h"
#include "jsonpatch.h"

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

/* OUT.json and, in OUT.files/ beside it, every blob (rb_doc_dump_files); a summary on stderr. */
static int dump_with_files(const rb_doc *doc, const char *out)
{
    const char *base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
    size_t stem = strlen(base) > 5 && strcmp(base + strlen(base) - 5, ".json") == 0 ? strlen(base) - 5 : strlen(base);
    char prefix[512], folder[4096];
    snprintf(prefix, sizeof prefix, "%.*s.files", (int)stem, base);
    snprintf(folder, sizeof folder, "%.*s%s", (int)(base - out), out, prefix);
    char *text = NULL;
    rb_dump_file *files = NULL;
    size_t count = 0;
    rb_error err;
    if (rb_doc_dump_files(doc, prefix, &text, &files, &count, &err) != RB_OK) {
        char msg[1024];
        fprintf(stderr, "rebyte: %s\n", rb_error_format(&err, msg, sizeof msg));
        return EXIT_IO;
    }
    /* the JSON's folder, and the blob folder beside it, with every missing one above them */
    char json_path[4200], below[4200];
    snprintf(json_path, sizeof json_path, "%s", out);
    snprintf(below, sizeof below, "%s/", folder);
    int rc = cli_make_parents(json_path) != 0 || (count && cli_make_parents(below) != 0) ? EXIT_IO : EXIT_OK;
    uint64_t bytes = 0;
    for (size_t i = 0; i < count && rc == EXIT_OK; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%.*s%s", (int)(base - out), out, files[i].name);
        if (cli_write_atomic(path, files[i].data, files[i].size) != 0) rc = EXIT_IO;
        bytes += files[i].size;
    }
    if (rc == EXIT_OK && cli_write_atomic(out, (const uint8_t *)text, strlen(text)) != 0) rc = EXIT_IO;
    if (rc == EXIT_OK)
        fprintf(stderr, "%s: %zu blob files (%llu bytes) in %s\n", out, count, (unsigned long long)bytes, folder);
    rb_dump_files_free(files, count);
    rb_free(text);
    return rc;
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
    int rc = cli_load(in, &l);
    if (rc) return rc;
    if (blobs == BLOBS_FILES) {
        rc = dump_with_files(l.doc, out);
        cli_unload(&l);
        return rc;
    }
    char *text;
    rb_error err;
    if (rb_doc_dump(l.doc, (rb_blob_mode)blobs, in, &text, &err) != RB_OK) {
        cli_print_error(&err);
        cli_unload(&l);
        return EXIT_IO;
    }
    rc = cli_write_atomic(out ? out : "-", (const uint8_t *)text, strlen(text)) == 0 ? EXIT_OK : EXIT_IO;
    rb_free(text);
    cli_unload(&l);
    return rc;
}

/* ---------- build ---------- */

/* The file named by --source or the dump's "$source" (needed when blobs are references). */
static int load_source(const uint8_t *text, size_t size, const char *explicit_source, cli_loaded *src)
{
    memset(src, 0, sizeof(*src));
    json_t *j = explicit_source ? NULL : json_loadb((const char *)text, size, JSON_ALLOW_NUL, NULL);
    const char *path = explicit_source ? explicit_source
                                       : json_string_value(json_object_get(json_object_get(j, "$source"), "file"));
    int rc = EXIT_OK;
    if (path && !explicit_source && access(path, R_OK) != 0)
        fprintf(stderr, "rebyte: note: the dump's source %s is not readable (%s); blob references will fail\n", path,
                strerror(errno));
    else if (path)
        rc = cli_load(path, src);
    json_decref(j);
    return rc;
}

int cmd_build(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *source = NULL, *v;
    int new_record = 0;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) {
            if (r < 0) return EXIT_USAGE;
            out = v;
        } else if ((r = cli_opt_value(argc, argv, &i, "--source", &v))) {
            if (r < 0) return EXIT_USAGE;
            source = v;
        } else if (strcmp(argv[i], "--new-record") == 0) {
            new_record = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("build", argv[i]);
        } else {
            in = argv[i];
        }
    }
    if (!in || !out) return cli_usage_error("build", NULL);
    uint8_t *text;
    size_t size;
    if (cli_read_file(in, &text, &size) != 0) return EXIT_IO;
    cli_loaded src;
    int rc = load_source(text, size, source, &src);
    if (rc) { free(text); return rc; }
    rb_error err;
    rb_doc *doc = rb_doc_build((const char *)text, size, in, src.doc, &err);
    rc = EXIT_BAD_INPUT;
    if (!doc) {
        cli_print_error(&err);
    } else {
        uint8_t *bytes;
        size_t out_size;
        if (new_record) rb_doc_author_records(doc);
        if (rb_doc_write(doc, NULL, &bytes, &out_size, &err) != RB_OK) {
            cli_print_error(&err);
        } else {
            rc = cli_write_atomic(out, bytes, out_size) == 0 ? EXIT_OK : EXIT_IO;
            rb_free(bytes);
        }
        rb_doc_free(doc);
    }
    cli_unload(&src);
    free(text);
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
    int rc = cli_load(a, &la);
    if (rc) return rc;
    rc = cli_load(b, &lb);
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

int cmd_json_patch(int argc, char **argv)
{
    if (argc != 3) return cli_usage_error("json-patch", argc > 3 ? argv[3] : NULL);
    json_t *doc = load_json_file(argv[1]);
    json_t *patch = doc ? load_json_file(argv[2]) : NULL;
    int rc = EXIT_BAD_INPUT;
    if (doc && patch) {
        char why[1024];
        if (rb_json_patch_apply(&doc, patch, why, sizeof why) == 0) {
            char *text = json_dumps(doc, JSON_ENCODE_ANY | JSON_INDENT(2));
            printf("%s\n", text);
            free(text);
            rc = EXIT_OK;
        } else {
            fprintf(stderr, "rebyte: %s\n", why);
        }
    }
    json_decref(doc);
    json_decref(patch);
    return rc;
}

/* ---------- resolve: the patch with its selectors turned into plain pointers ---------- */

int cmd_resolve(int argc, char **argv)
{
    if (argc != 3) return cli_usage_error("resolve", argc > 3 ? argv[3] : NULL);
    uint8_t *text;
    size_t size;
    if (cli_read_file(argv[1], &text, &size) != 0) return EXIT_IO;
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
