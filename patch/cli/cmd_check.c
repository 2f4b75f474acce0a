/*
 * rebyte check: game-level invariants the byte format does not enforce, found before the game
 * finds them ("Couldn't load map!"). Each format declares its own rules (core/doc/rules.h; for GBX
 * maps core/gbx/map/map_rules.c); structure checks run while reading. Folders are walked like
 * `verify` does; --json gives one JSON object a line (docs/usage.md "Game rules").
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "patch/cli/cli.h"
#include "patch/cli/cli_util.h"

typedef struct check_options {
    int json, quiet;
} check_options;

/* What one file's check found: the violations as JSON (for --json) and how many of each kind. */
typedef struct check_found {
    const char *file;
    const check_options *options;
    json_t *violations;
    size_t refusals, warnings;
} check_found;

static void note_violation(void *context, const rb_rule_violation *v)
{
    check_found *f = context;
    if (v->warning) f->warnings++;
    else f->refusals++;
    if (f->options->json) {
        json_array_append_new(f->violations, json_pack("{s:s,s:s,s:s,s:s}", "rule", v->rule, "kind",
                                                       v->warning ? "warning" : "refusal", "path", v->path,
                                                       "message", v->message));
        return;
    }
    printf("%s: %s%s: %s%s%s\n", f->file, v->rule, v->warning ? " (warning)" : "", v->path, *v->path ? ": " : "",
           v->message);
}

/* --rules: every format's rules with their kind and the lists they check against. */
static int list_rules(int as_json)
{
    for (size_t f = 0; f < rb_format_count(); f++)
        for (size_t i = 0; i < rb_format_rule_count(f); i++) {
            char *text = rb_format_rule_json(f, i);
            json_t *o = text ? json_loads(text, 0, NULL) : NULL;
            rb_free(text);
            if (!o) continue;
            if (as_json) {
                char *line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
                printf("%s\n", line ? line : "{}");
                free(line);
            } else {
                printf("%-10s %-22s %-8s %s\n", rb_format_name(f), json_string_value(json_object_get(o, "rule")),
                       json_string_value(json_object_get(o, "kind")),
                       json_string_value(json_object_get(o, "description")));
                json_t *data = json_object_get(o, "data");
                char *lists = json_is_null(data) ? NULL : json_dumps(data, JSON_COMPACT | JSON_PRESERVE_ORDER);
                if (lists) printf("%-10s %-22s data     %s\n", "", "", lists);
                free(lists);
            }
            json_decref(o);
        }
    return EXIT_OK;
}

static void print_json_line(const char *file, const char *format, const char *status, json_t *violations,
                            const char *error)
{
    json_t *o = json_pack("{s:s,s:s,s:s}", "file", file, "format", format ? format : "?", "status", status);
    if (violations) json_object_set(o, "violations", violations);
    if (error) json_object_set_new(o, "error", json_string(error));
    char *line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    printf("%s\n", line ? line : "{}");
    free(line);
    json_decref(o);
}

/* Checks one file; `named` when the user named it (a file met while walking a folder that is no
 * known format is skipped, as verify does). Returns an exit code; *skipped set when skipped. */
static int check_file(const char *path, int named, const check_options *options, int *skipped)
{
    *skipped = 0;
    uint8_t *data;
    size_t size;
    if (!named && cli_read_file(path, &data, &size) == 0) {
        int known = rb_format_detect(data, size) != NULL;
        free(data);
        if (!known) {
            *skipped = 1;
            return EXIT_OK;
        }
    }
    cli_loaded l;
    int rc = cli_load_deferred(path, &l); /* the rules read the units they need alone */
    if (rc) {
        if (options->json) print_json_line(path, NULL, "error", NULL, "cannot be read or parsed (see stderr)");
        return rc;
    }
    check_found found = {path, options, options->json ? json_array() : NULL, 0, 0};
    rb_error err;
    if (rb_doc_check(l.doc, note_violation, &found, NULL, &err) != RB_OK) {
        cli_print_error(&err);
        if (options->json) print_json_line(path, rb_doc_format(l.doc), "error", NULL, err.message);
        json_decref(found.violations);
        cli_unload(&l);
        return cli_exit_code_of(err.status);
    }
    const char *status = found.refusals ? "broken" : found.warnings ? "warnings" : "ok";
    if (options->json) print_json_line(path, rb_doc_format(l.doc), status, found.violations, NULL);
    else if (!found.refusals && !options->quiet) {
        if (found.warnings) printf("%s: ok (%zu warning%s)\n", path, found.warnings, found.warnings == 1 ? "" : "s");
        else printf("%s: ok\n", path);
    }
    json_decref(found.violations);
    cli_unload(&l);
    return found.refusals ? EXIT_DIFFERS : EXIT_OK;
}

static int is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Every file named or found under a named folder, checked in order. */
static int check_paths(char **paths, int count, const check_options *options)
{
    int rc = EXIT_OK;
    for (int i = 0; i < count; i++) {
        char **files = NULL;
        size_t n = 0;
        int named = !is_directory(paths[i]);
        if (cli_collect_files(&paths[i], 1, &files, &n) != 0) {
            if (rc == EXIT_OK || rc == EXIT_DIFFERS) rc = EXIT_IO;
            continue;
        }
        size_t checked = 0;
        for (size_t k = 0; k < n; k++) {
            int skipped, one = check_file(files[k], named, options, &skipped);
            checked += !skipped;
            /* the worst outcome decides: unreadable, unparsable, then a rule broken */
            if (one != EXIT_OK && (rc == EXIT_OK || rc == EXIT_DIFFERS)) rc = one;
        }
        if (!named && !checked) {
            int none = cli_no_known_file(paths[i]);
            if (rc == EXIT_OK || rc == EXIT_DIFFERS) rc = none;
        }
        cli_free_files(files, n);
    }
    return rc;
}

int cmd_check(int argc, char **argv)
{
    check_options options = {0, 0};
    int rules = 0, count = 0;
    char **paths = calloc((size_t)argc, sizeof *paths);
    if (!paths) return EXIT_IO;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rules")) rules = 1;
        else if (!strcmp(argv[i], "--json")) options.json = 1;
        else if (!strcmp(argv[i], "-q")) options.quiet = 1;
        else if (argv[i][0] == '-' && argv[i][1]) {
            free(paths);
            return cli_usage_error("check", argv[i]);
        } else paths[count++] = argv[i];
    }
    int rc;
    if (rules) rc = count ? cli_usage_error("check", paths[0]) : list_rules(options.json);
    else rc = count ? check_paths(paths, count, &options) : cli_usage_error("check", NULL);
    free(paths);
    return rc;
}
