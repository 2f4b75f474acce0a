/*
 * rebyte check: game-level invariants the byte format does not enforce, found before the game
 * finds them ("Couldn't load map!"). Each format declares its own (rb_doc_check; for GBX maps
 * core/gbx/map/map_rules.c); structure checks run while reading.
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_util.h"

static void print_problem(void *file, const rb_rule_violation *v)
{
    printf("%s: %s: %s%s%s\n", (const char *)file, v->rule, v->path, *v->path ? ": " : "", v->message);
}

/* --rules: every format's rules, one per line. */
static int list_rules(void)
{
    for (size_t f = 0; f < rb_format_count(); f++)
        for (size_t i = 0; i < rb_format_rule_count(f); i++) {
            const char *description = NULL, *name = rb_format_rule(f, i, &description);
            printf("%-10s %-22s %s\n", rb_format_name(f), name, description);
        }
    return EXIT_OK;
}

static int check_file(const char *path)
{
    cli_loaded l;
    int rc = cli_load(path, &l);
    if (rc) return rc;
    size_t problems = rb_doc_check(l.doc, print_problem, (void *)path);
    if (!problems) printf("%s: ok\n", path);
    cli_unload(&l);
    return problems ? EXIT_DIFFERS : EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--rules")) return list_rules();
    if (argc < 2) return cli_usage_error("check", NULL);
    int rc = EXIT_OK;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("check", argv[i]);
        int one = check_file(argv[i]);
        /* the worst outcome decides: unreadable, unparsable, then a problem found */
        if (one != EXIT_OK && (rc == EXIT_OK || rc == EXIT_DIFFERS)) rc = one;
    }
    return rc;
}
