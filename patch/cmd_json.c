/* rebyte dump / build / apply / diff / json-patch */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_util.h"
#include "jsondiff.h"
#include "jsonpatch.h"
#include "selector.h"
#include "portable.h"
#include <zlib.h>

static int parse_blob_mode(const char *v, rb_blob_mode *mode)
{
    if (strcmp(v, "ref") == 0) *mode = RB_BLOBS_REF;
    else if (strcmp(v, "base64") == 0) *mode = RB_BLOBS_BASE64;
    else if (strcmp(v, "omit") == 0) *mode = RB_BLOBS_OMIT;
    else {
        fprintf(stderr, "rebyte: --blobs must be ref, base64 or omit (not \"%s\")\n", v);
        return -1;
    }
    return 0;
}

/* A loaded game file: its bytes and its model. */
typedef struct loaded {
    uint8_t *data;
    size_t size;
    rb_doc *doc;
} loaded;

static int load(const char *path, loaded *l)
{
    memset(l, 0, sizeof(*l));
    if (cli_read_file(path, &l->data, &l->size) != 0) return EXIT_IO;
    rb_error err;
    l->doc = cli_parse(path, l->data, l->size, &err);
    if (!l->doc) {
        cli_print_error(&err);
        free(l->data);
        l->data = NULL;
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

static void unload(loaded *l)
{
    rb_doc_free(l->doc);
    free(l->data);
    memset(l, 0, sizeof(*l));
}

static json_t *load_json_file(const char *path)
{
    json_error_t jerr;
    json_t *j = strcmp(path, "-") == 0 ? json_loadf(stdin, JSON_ALLOW_NUL, &jerr) : json_load_file(path, JSON_ALLOW_NUL, &jerr);
    if (!j) fprintf(stderr, "rebyte: %s:%d:%d: %s\n", path, jerr.line, jerr.column, jerr.text);
    return j;
}


/* ---------- dump ---------- */

int cmd_dump(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *v;
    rb_blob_mode blobs = RB_BLOBS_REF;
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
    loaded l;
    int rc = load(in, &l);
    if (rc) return rc;
    json_t *j = cli_doc_json(l.doc, in, l.data, l.size, blobs);
    rc = cli_print_json(j, out) == 0 ? EXIT_OK : EXIT_IO;
    json_decref(j);
    unload(&l);
    return rc;
}

/* ---------- build ---------- */

/* A model from JSON: the format named by $format; blob references resolve against `source`. */
static rb_doc *doc_from_json(json_t *j, const rb_doc *source, const char *name)
{
    const char *format_name = json_string_value(json_object_get(j, "$format"));
    const rb_format *format = format_name ? rb_format_by_name(format_name) : source ? source->format : NULL;
    if (!format) {
        fprintf(stderr, "rebyte: %s: \"$format\" is missing or names no known format\n", name);
        return NULL;
    }
    rb_error err;
    rb_doc *doc = rb_doc_from_json(format, j, source, name, &err);
    if (!doc) cli_print_error(&err);
    return doc;
}

/* The source file named by --source or the dump's "$source" (needed when blobs are references). */
static int load_source(json_t *j, const char *explicit_source, loaded *src)
{
    memset(src, 0, sizeof(*src));
    const char *path = explicit_source ? explicit_source
                                       : json_string_value(json_object_get(json_object_get(j, "$source"), "file"));
    if (!path) return EXIT_OK;
    if (!explicit_source && access(path, R_OK) != 0) {
        fprintf(stderr, "rebyte: note: the dump's source %s is not readable (%s); blob references will fail\n", path,
                strerror(errno));
        return EXIT_OK;
    }
    return load(path, src);
}

int cmd_build(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *source = NULL, *v;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) {
            if (r < 0) return EXIT_USAGE;
            out = v;
        } else if ((r = cli_opt_value(argc, argv, &i, "--source", &v))) {
            if (r < 0) return EXIT_USAGE;
            source = v;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("build", argv[i]);
        } else {
            in = argv[i];
        }
    }
    if (!in || !out) return cli_usage_error("build", NULL);
    json_t *j = load_json_file(in);
    if (!j) return EXIT_BAD_INPUT;
    loaded src;
    int rc = load_source(j, source, &src);
    if (rc) { json_decref(j); return rc; }
    rb_doc *doc = doc_from_json(j, src.doc, in);
    rc = EXIT_BAD_INPUT;
    if (doc) {
        uint8_t *bytes;
        size_t size;
        rb_error err;
        if (rb_doc_write(doc, NULL, &bytes, &size, &err) != RB_OK) {
            cli_print_error(&err);
        } else {
            rc = cli_write_atomic(out, bytes, size) == 0 ? EXIT_OK : EXIT_IO;
            free(bytes);
        }
        rb_doc_free(doc);
    }
    unload(&src);
    json_decref(j);
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
    loaded la, lb;
    int rc = load(a, &la);
    if (rc) return rc;
    rc = load(b, &lb);
    if (rc) { unload(&la); return rc; }
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
        free(patch);
    }
    unload(&la);
    unload(&lb);
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
    loaded l;
    int rc = load(argv[2], &l);
    if (rc) { rb_patch_free(patch); return rc; }
    char *plain;
    if (rb_patch_resolve(l.doc, patch, &plain, &err) != RB_OK) {
        cli_print_error(&err);
        rc = EXIT_BAD_INPUT;
    } else {
        rc = cli_write_atomic("-", (const uint8_t *)plain, strlen(plain)) == 0 ? EXIT_OK : EXIT_IO;
        free(plain);
    }
    rb_patch_free(patch);
    unload(&l);
    return rc;
}
