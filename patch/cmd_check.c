/*
 * rebyte check: game-level invariants the byte format does not enforce, found before the game
 * finds them ("Couldn't load map!"). For GBX maps: the header chunks' copies of the map's name,
 * identity and medal times agree with the body; the TM2020 items chunk's snapping data has one
 * entry per item. Other formats: their structure checks run while reading.
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_util.h"
#include "jsonpatch.h"
#include "portable.h"
#include "selector.h"
#include "../core/doc.h" /* until the checks are a format hook of the library */
#include "../core/json.h"

/* The value at a selector path, or NULL. */
static json_t *at(json_t *model, const char *path)
{
    char *plain = NULL, why[300];
    if (rb_pointer_resolve(model, path, &plain, why, sizeof why) != 0) return NULL;
    json_t *v = rb_json_pointer_get(model, plain, NULL, 0);
    free(plain);
    return v;
}

static int agree(json_t *model, const char *file, const char *header_path, const char *body_path, const char *what)
{
    json_t *h = at(model, header_path), *b = at(model, body_path);
    if (!h || !b || rb_values_equal(h, b)) return 0;
    char *hs = json_dumps(h, JSON_ENCODE_ANY | JSON_COMPACT), *bs = json_dumps(b, JSON_ENCODE_ANY | JSON_COMPACT);
    printf("%s: %s differs: header %s = %.120s, body %s = %.120s\n", file, what, header_path, hs ? hs : "?", body_path,
           bs ? bs : "?");
    free(hs);
    free(bs);
    return 1;
}

/* Chunk ids as stored: TM 2003-2006 maps use the engine-0x24 ids. */
static int check_map(json_t *model, const char *file)
{
    int problems = 0;
    static const char *const prefixes[][2] = {{"0x0304", "0x0305B"}, {"0x2400", "0x2400C"}};
    for (int p = 0; p < 2; p++) {
        const char *map = prefixes[p][0], *params = prefixes[p][1];
        char h3[96], h2[96], b[96], m[160], hp[128], bp[192];
        snprintf(h3, sizeof h3, "/headerChunks/[id=%s3003]", map);
        snprintf(h2, sizeof h2, "/headerChunks/[id=%s3002]", map);
        snprintf(b, sizeof b, "/body/chunks/[id=%s301F]", map);
        snprintf(m, sizeof m, "/body/chunks/[id=%s3011]/challengeParameters/chunks/[id=%s004]", map, params);
        /* (the decoration is not compared: real maps store it partly empty in the header) */
        static const char *const same[][2] = {{"mapName", "mapName"}, {"mapInfo", "mapInfo"}};
        for (int i = 0; i < 2; i++) {
            snprintf(hp, sizeof hp, "%s/%s", h3, same[i][0]);
            snprintf(bp, sizeof bp, "%s/%s", b, same[i][1]);
            problems += agree(model, file, hp, bp, same[i][0]);
        }
        static const char *const medals[] = {"bronzeTime", "silverTime", "goldTime", "authorTime"};
        for (int i = 0; i < 4; i++) {
            snprintf(hp, sizeof hp, "%s/%s", h2, medals[i]);
            snprintf(bp, sizeof bp, "%s/%s", m, medals[i]);
            problems += agree(model, file, hp, bp, medals[i]);
        }
    }
    json_t *items = at(model, "/body/chunks/[id=0x03043040]");
    json_t *snapped = items ? json_object_get(items, "snappedOnIndexes") : NULL;
    json_t *objects = items ? json_object_get(items, "anchoredObjects") : NULL;
    if (snapped && objects && json_array_size(snapped) != json_array_size(objects)) {
        printf("%s: the items chunk has %zu snapped-on entries for %zu items\n", file, json_array_size(snapped),
               json_array_size(objects));
        problems++;
    }
    return problems;
}

int cmd_check(int argc, char **argv)
{
    if (argc < 2) return cli_usage_error("check", NULL);
    int rc = EXIT_OK;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("check", argv[i]);
        uint8_t *data;
        size_t size;
        if (cli_read_file(argv[i], &data, &size) != 0) { rc = EXIT_IO; continue; }
        rb_error err;
        rb_doc *doc = cli_parse(argv[i], data, size, &err);
        if (!doc) {
            cli_print_error(&err);
            free(data);
            rc = EXIT_BAD_INPUT;
            continue;
        }
        int problems = 0;
        if (strcmp(doc->format->name, "gbx") == 0) {
            json_t *model = rb_model_to_json(doc, doc->root, RB_BLOBS_REF);
            problems = check_map(model, argv[i]);
            json_decref(model);
        }
        if (problems) {
            if (rc == EXIT_OK) rc = EXIT_DIFFERS;
        } else {
            printf("%s: ok\n", argv[i]);
        }
        rb_doc_free(doc);
        free(data);
    }
    return rc;
}
