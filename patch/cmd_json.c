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

/* How values were stored (stream encodings, id storage flags) is not content: comparisons of
 * models leave it out. */
static void strip_stream_meta(json_t *j) { rb_json_strip_storage(j); }

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

/* ---------- apply ---------- */

typedef struct apply_options {
    json_t **patches;
    const char **patch_names;
    int patch_count;
    const char *out;
    int in_place, backup, dry_run, quiet;
    rb_conflict_policy conflicts;
} apply_options;

/* A fingerprinted patch made against another file: say so, and check every value it pins
 * (field by field). It applies anyway when all of them hold. */
static int check_base(json_t *model, const uint8_t *data, size_t size, const char *path, const apply_options *o)
{
    for (int i = 0; i < o->patch_count; i++) {
        const json_t *ops, *base;
        if (rb_patch_parts(o->patches[i], &ops, &base) != 0 || !base) continue;
        const char *crc_text = json_string_value(json_object_get(base, "crc32"));
        uint32_t crc = (uint32_t)crc32(0, data, (uInt)size);
        json_int_t base_size = json_integer_value(json_object_get(base, "size"));
        if (crc_text && strtoul(crc_text, NULL, 16) == crc && base_size == (json_int_t)size) continue;
        fprintf(stderr, "rebyte: %s: not the base %s was made from (%s); checking the values it relies on\n", path,
                o->patch_names[i], crc_text ? crc_text : "no digest");
        size_t failing = rb_check_pins(model, ops, stderr);
        if (failing) {
            fprintf(stderr, "rebyte: %s: %zu value%s from what %s expects (nothing was written)\n", path, failing,
                    failing == 1 ? " differs" : "s differ", o->patch_names[i]);
            return -1;
        }
        if (!o->quiet) fprintf(stderr, "rebyte: %s: every value %s relies on holds: applying\n", path, o->patch_names[i]);
    }
    return 0;
}

/* Re-read what was written and check it is the model we meant to write. */
static int verify_written(const rb_doc *intended, const uint8_t *bytes, size_t size, const char *name)
{
    rb_error err;
    rb_doc *again = cli_parse(name, bytes, size, &err);
    if (!again) {
        fprintf(stderr, "rebyte: %s: the patched file does not re-read: %s\n", name, err.message);
        return 0;
    }
    json_t *a = rb_model_to_json(intended, intended->root, RB_BLOBS_BASE64);
    json_t *b = rb_model_to_json(again, again->root, RB_BLOBS_BASE64);
    strip_stream_meta(a);
    strip_stream_meta(b);
    int same = rb_json_equal(a, b);
    if (!same) {
        json_t *ops = json_array();
        rb_json_diff(a, b, ops, "");
        json_t *first = json_array_get(ops, 0);
        fprintf(stderr, "rebyte: %s: the re-read file differs from the patched model at %s\n", name,
                first ? json_string_value(json_object_get(first, "path")) : "?");
        json_decref(ops);
    }
    json_decref(a);
    json_decref(b);
    rb_doc_free(again);
    return same;
}

static int print_changes(const json_t *before, const json_t *after, const char *name)
{
    json_t *ops = json_array();
    rb_json_diff(before, after, ops, "");
    printf("%s: %zu change%s\n", name, json_array_size(ops), json_array_size(ops) == 1 ? "" : "s");
    for (size_t i = 0; i < json_array_size(ops); i++) {
        json_t *op = json_array_get(ops, i);
        char *value = json_object_get(op, "value") ? json_dumps(json_object_get(op, "value"), JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
        json_t *old = rb_json_pointer_get((json_t *)before, json_string_value(json_object_get(op, "path")), NULL, 0);
        char *was = old ? json_dumps(old, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
        printf("  %-7s %s%s%.200s%s%.200s\n", json_string_value(json_object_get(op, "op")),
               json_string_value(json_object_get(op, "path")), was ? ": " : "", was ? was : "", value ? " -> " : "",
               value ? value : "");
        free(value);
        free(was);
    }
    json_decref(ops);
    return EXIT_OK;
}

static int write_result(const char *target, const char *input, const uint8_t *orig, size_t orig_size,
                        const uint8_t *bytes, size_t size, int backup)
{
    if (backup) {
        char *bak = malloc(strlen(input) + 8);
        if (!bak) return EXIT_IO;
        sprintf(bak, "%s.bak", input);
        int rc = cli_write_atomic(bak, orig, orig_size);
        free(bak);
        if (rc) return EXIT_IO;
    }
    return cli_write_atomic(target, bytes, size) == 0 ? EXIT_OK : EXIT_IO;
}

static int apply_to_file(const char *path, const char *target, const apply_options *o)
{
    loaded l;
    int rc = load(path, &l);
    if (rc) return rc;
    json_t *before = cli_doc_json(l.doc, path, l.data, l.size, RB_BLOBS_REF);
    json_t *after = json_deep_copy(before);
    rb_doc *patched = NULL;
    uint8_t *bytes = NULL;
    size_t size = 0;
    rc = EXIT_BAD_INPUT;
    if (check_base(after, l.data, l.size, path, o) != 0) goto done;
    char why[1400];
    if (rb_apply_stack(&after, (const json_t *const *)o->patches, o->patch_names, o->patch_count, o->conflicts,
                       (o->patch_count > 1 && !o->quiet) ? stderr : NULL, why, sizeof why) != 0) {
        fprintf(stderr, "rebyte: %s: %s (nothing was written)\n", path, why);
        goto done;
    }
    patched = doc_from_json(after, l.doc, path);
    if (!patched) goto done;
    rb_error err;
    if (rb_doc_write(patched, NULL, &bytes, &size, &err) != RB_OK) {
        cli_print_error(&err);
        goto done;
    }
    if (!verify_written(patched, bytes, size, path)) { rc = EXIT_DIFFERS; goto done; }
    if (o->dry_run) { rc = print_changes(before, after, path); goto done; }
    rc = write_result(target, path, l.data, l.size, bytes, size, o->backup);
    if (rc == EXIT_OK && !o->quiet) fprintf(stderr, "rebyte: %s -> %s: patched and verified\n", path, target);
done:
    free(bytes);
    rb_doc_free(patched);
    json_decref(before);
    json_decref(after);
    unload(&l);
    return rc;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

int cmd_apply(int argc, char **argv)
{
    apply_options o = {0};
    char **inputs = calloc((size_t)argc, sizeof(char *));
    o.patches = calloc((size_t)argc, sizeof(json_t *));
    o.patch_names = calloc((size_t)argc, sizeof(char *));
    int input_count = 0, rc = EXIT_USAGE;
    const char *v;
    if (!inputs || !o.patches || !o.patch_names) goto out;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) {
            if (r < 0) goto out;
            o.out = v;
        } else if (strcmp(argv[i], "--in-place") == 0) o.in_place = 1;
        else if (strcmp(argv[i], "--backup") == 0) o.backup = 1;
        else if (strcmp(argv[i], "--dry-run") == 0) o.dry_run = 1;
        else if (strcmp(argv[i], "-q") == 0) o.quiet = 1;
        else if ((r = cli_opt_value(argc, argv, &i, "--conflicts", &v))) {
            if (r < 0) goto out;
            if (strcmp(v, "stop") == 0) o.conflicts = RB_CONFLICT_STOP;
            else if (strcmp(v, "first-wins") == 0) o.conflicts = RB_CONFLICT_FIRST_WINS;
            else if (strcmp(v, "last-wins") == 0) o.conflicts = RB_CONFLICT_LAST_WINS;
            else { fprintf(stderr, "rebyte: --conflicts must be stop, first-wins or last-wins\n"); goto out; }
        }
        else if (argv[i][0] == '-' && argv[i][1]) { rc = cli_usage_error("apply", argv[i]); goto out; }
        else if (input_count == 0 && (o.patch_count == 0 || ends_with(argv[i], ".json"))) {
            /* leading arguments are patches: the first always, then every further .json */
            json_t *p = load_json_file(argv[i]);
            if (!p) { rc = EXIT_BAD_INPUT; goto out; }
            o.patch_names[o.patch_count] = argv[i];
            o.patches[o.patch_count++] = p;
        } else inputs[input_count++] = argv[i];
    }
    int targets_ok = o.dry_run || (o.in_place ? !o.out : (o.out != NULL));
    if (!o.patch_count || !input_count || !targets_ok) { rc = cli_usage_error("apply", NULL); goto out; }
    char **files;
    size_t n;
    int walk_failed = cli_collect_files(inputs, input_count, &files, &n) != 0;
    if (n > 1 && o.out && !o.in_place) {
        fprintf(stderr, "rebyte: several input files need --in-place (or apply them one at a time with -o)\n");
        cli_free_files(files, n);
        rc = EXIT_USAGE;
        goto out;
    }
    size_t failed = 0;
    rc = EXIT_OK;
    for (size_t i = 0; i < n; i++) {
        cli_progress(i + 1, n, files[i]);
        int r = apply_to_file(files[i], o.in_place ? files[i] : o.out, &o);
        cli_progress_clear();
        if (r != EXIT_OK) { failed++; if (rc == EXIT_OK) rc = r; }
    }
    if (n > 1) fprintf(stderr, "rebyte: %zu/%zu files patched%s\n", n - failed, n, o.dry_run ? " (dry run)" : "");
    cli_free_files(files, n);
    if (walk_failed && rc == EXIT_OK) rc = EXIT_IO;
out:
    for (int i = 0; i < o.patch_count; i++) json_decref(o.patches[i]);
    free(o.patches);
    free(o.patch_names);
    free(inputs);
    return rc;
}

/* ---------- diff ---------- */

/* The identity patch from A to B, proven on A before it is printed. */
static int identity_diff(loaded *la, loaded *lb, json_t *ja, json_t *jb)
{
    json_t *ops = rb_identity_diff(ja, jb);
    json_t *check = json_deep_copy(ja);
    const char *name = "the identity patch";
    char why[1400];
    int rc = EXIT_DIFFERS;
    if (rb_apply_stack(&check, (const json_t *const *)&ops, &name, 1, RB_CONFLICT_STOP, NULL, why, sizeof why) != 0 ||
        !rb_values_equal(check, jb)) {
        fprintf(stderr, "rebyte: internal: the identity patch does not turn A into B (%s)\n", why);
        rc = EXIT_BAD_INPUT;
    } else {
        char crc[16];
        snprintf(crc, sizeof crc, "0x%08x", (unsigned)crc32(0, la->data, (uInt)la->size));
        json_t *out = json_pack("{s:i,s:{s:s,s:I,s:s},s:O}", "rebytePatch", 1, "base", "format", la->doc->format->name,
                                "size", (json_int_t)la->size, "crc32", crc, "operations", ops);
        if (cli_print_json(out, NULL) != 0) rc = EXIT_IO;
        else if (json_array_size(ops) == 0) rc = EXIT_OK;
        json_decref(out);
    }
    (void)lb;
    json_decref(check);
    json_decref(ops);
    return rc;
}

int cmd_diff(int argc, char **argv)
{
    const char *a = NULL, *b = NULL;
    int by_identity = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--by-identity") == 0) { by_identity = 1; continue; }
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
    if (la.doc->format != lb.doc->format) {
        fprintf(stderr, "rebyte: %s is %s, %s is %s: diff needs two files of one format\n", a, la.doc->format->name, b,
                lb.doc->format->name);
        unload(&la);
        unload(&lb);
        return EXIT_BAD_INPUT;
    }
    /* blobs as content, so equal bytes at different offsets compare equal */
    json_t *ja = rb_model_to_json(la.doc, la.doc->root, RB_BLOBS_BASE64);
    json_t *jb = rb_model_to_json(lb.doc, lb.doc->root, RB_BLOBS_BASE64);
    strip_stream_meta(ja);
    strip_stream_meta(jb);
    if (by_identity) {
        rc = identity_diff(&la, &lb, ja, jb);
    } else {
        json_t *ops = json_array();
        rb_json_diff(ja, jb, ops, "");
        rc = cli_print_json(ops, NULL) == 0 ? (json_array_size(ops) ? EXIT_DIFFERS : EXIT_OK) : EXIT_IO;
        json_decref(ops);
    }
    json_decref(ja);
    json_decref(jb);
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
    json_t *patch = load_json_file(argv[1]);
    if (!patch) return EXIT_BAD_INPUT;
    loaded l;
    int rc = load(argv[2], &l);
    if (rc) { json_decref(patch); return rc; }
    json_t *model = cli_doc_json(l.doc, argv[2], l.data, l.size, RB_BLOBS_REF);
    json_t *resolved = NULL;
    char why[1024];
    if (rb_json_patch_apply_selectors(&model, patch, &resolved, why, sizeof why) != 0) {
        fprintf(stderr, "rebyte: %s: %s: %s\n", argv[2], argv[1], why);
        rc = EXIT_BAD_INPUT;
    } else {
        rc = cli_print_json(resolved, NULL) == 0 ? EXIT_OK : EXIT_IO;
    }
    json_decref(resolved);
    json_decref(model);
    json_decref(patch);
    unload(&l);
    return rc;
}
