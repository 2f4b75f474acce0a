/*
 * rebyte downgrade-items: rewrite a TM2020 map's items chunk (0x03043040, versions 5-7) at
 * version 4, so item lists can be edited without breaking snapping data.
 *
 * The downgrade is built as an RFC 6902 patch over the map's model and applied like any other
 * patch: the JSON->model direction validates that the result has exactly version 4's fields,
 * then the map is written, re-read and compared. `--print-patch` shows that patch, so the same
 * change can be reviewed, kept and applied with `rebyte apply`.
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_util.h"
#include "jsonpatch.h"
#include "../core/doc.h" /* until the downgrade is a format transform of the library */

enum { ITEMS_CHUNK = 0x03043040, ANCHORED_OBJECT_CHUNK = 0x03101002 };

typedef struct downgrade_options {
    int target;        /* items chunk version to write (0..4) */
    int items_version; /* anchored object version to write (4..8), 0 = keep */
    int dry_run, print_patch, in_place, quiet;
    const char *out;
} downgrade_options;

/* What a downgrade drops, for the report. */
typedef struct loss_report {
    int from_version;
    size_t objects, block_links, item_links, groups, snapped;
    size_t objects_rewritten;
} loss_report;

static uint32_t chunk_id(const json_t *chunk)
{
    const char *id = json_string_value(json_object_get(chunk, "id"));
    return id ? (uint32_t)strtoul(id, NULL, 16) : 0;
}

/* Index of the typed chunk `id` in a chunks array, -1 if absent. */
static long find_chunk(const json_t *chunks, uint32_t id)
{
    for (size_t i = 0; i < json_array_size(chunks); i++)
        if (chunk_id(json_array_get(chunks, i)) == id) return (long)i;
    return -1;
}

static void add_op(json_t *ops, const char *op, const char *path, json_t *value)
{
    json_t *o = json_pack("{s:s,s:s}", "op", op, "path", path);
    if (value) json_object_set_new(o, "value", value);
    json_array_append_new(ops, o);
}

static size_t count_not_minus_one(const json_t *list)
{
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(list); i++)
        if (json_integer_value(json_array_get(list, i)) != -1) n++;
    return n;
}

/* Fields of the items chunk that the target version does not have. */
static void drop_items_fields(json_t *ops, const char *base, const json_t *items, int target, loss_report *loss)
{
    static const char *const SNAP_FIELDS[] = {"blockIndexes", "snapItemGroups", "itemIndexes", "u01", "snappedOnIndexes"};
    char path[256];
    loss->block_links = count_not_minus_one(json_object_get(items, "blockIndexes"));
    loss->item_links = count_not_minus_one(json_object_get(items, "itemIndexes"));
    loss->groups = count_not_minus_one(json_object_get(items, "snapItemGroups"));
    loss->snapped = count_not_minus_one(json_object_get(items, "snappedOnIndexes"));
    for (size_t i = 0; i < sizeof SNAP_FIELDS / sizeof SNAP_FIELDS[0]; i++) {
        if (!json_object_get(items, SNAP_FIELDS[i])) continue;
        snprintf(path, sizeof path, "%s/%s", base, SNAP_FIELDS[i]);
        add_op(ops, "remove", path, NULL);
    }
    int has_pairs = json_object_get(items, "itemsOnItem") != NULL;
    snprintf(path, sizeof path, "%s/itemsOnItem", base);
    /* version 5 has no items-on-item list: version 4's is written empty (see docs: the v5 snap
     * arrays link items to blocks and groups, not the "placed on item" pairs it holds) */
    if (target >= 1 && !has_pairs) add_op(ops, "add", path, json_array());
    if (target == 0 && has_pairs) add_op(ops, "remove", path, NULL);
    snprintf(path, sizeof path, "%s/version", base);
    add_op(ops, "replace", path, json_integer(target));
}

/* One anchored object's chunk 002 from its version down to `target` (facts §7.3 step 5). */
static void downgrade_object(json_t *ops, const char *base, const json_t *chunk, int target)
{
    char path[320];
    int version = (int)json_integer_value(json_object_get(chunk, "version"));
    const char *flags_text = json_string_value(json_object_get(chunk, "flags"));
    unsigned long flags = flags_text ? strtoul(flags_text, NULL, 16) : 0;
#define DROP(field)                                                               \
    do {                                                                          \
        if (json_object_get(chunk, field)) {                                      \
            snprintf(path, sizeof path, "%s/%s", base, field);                    \
            add_op(ops, "remove", path, NULL);                                    \
        }                                                                         \
    } while (0)
    if (version >= 8 && target < 8) { DROP("u02"); DROP("u03"); }
    if (version >= 7 && target < 7) {
        DROP("packDesc");
        if (flags & 4) { /* the skin flag announces the packdesc that version 6 cannot hold */
            char hex[24];
            flags &= ~4ul;
            snprintf(hex, sizeof hex, "0x%04lX", flags);
            snprintf(path, sizeof path, "%s/flags", base);
            add_op(ops, "replace", path, json_string(hex));
        }
    }
    if (version >= 6 && target < 6) DROP("scale");
    if (version >= 5 && target < 5) {
        DROP("pivotPosition");
        snprintf(path, sizeof path, "%s/u01", base); /* version 4 carries a u32 before the flags */
        add_op(ops, "add", path, json_integer(0));
    }
#undef DROP
    snprintf(path, sizeof path, "%s/version", base);
    add_op(ops, "replace", path, json_integer(target));
}

static void downgrade_objects(json_t *ops, const char *base, const json_t *items, int target, loss_report *loss)
{
    const json_t *objects = json_object_get(items, "anchoredObjects");
    loss->objects = json_array_size(objects);
    for (size_t i = 0; i < json_array_size(objects); i++) {
        const json_t *chunks = json_object_get(json_array_get(objects, i), "chunks");
        long k = find_chunk(chunks, ANCHORED_OBJECT_CHUNK);
        if (k < 0) continue;
        const json_t *chunk = json_array_get(chunks, (size_t)k);
        if (json_integer_value(json_object_get(chunk, "version")) <= target) continue;
        char path[256];
        snprintf(path, sizeof path, "%s/anchoredObjects/%zu/chunks/%ld", base, i, k);
        downgrade_object(ops, path, chunk, target);
        loss->objects_rewritten++;
    }
}

/* The patch that downgrades `model`; NULL with a message when the map has no typed items chunk. */
static json_t *build_downgrade_patch(const json_t *model, const downgrade_options *o, loss_report *loss,
                                     const char *name, int *already)
{
    const json_t *chunks = json_object_get(json_object_get(model, "body"), "chunks");
    long i = find_chunk(chunks, ITEMS_CHUNK);
    *already = 0;
    if (i < 0) {
        int tail = json_object_get(json_object_get(model, "body"), "opaqueTail") != NULL;
        fprintf(stderr, "rebyte: %s: %s\n", name,
                tail ? "the items chunk 0x03043040 is not reached by the typed parse (see `rebyte verify` notes)"
                     : "the map has no items chunk 0x03043040");
        return NULL;
    }
    const json_t *items = json_array_get(chunks, (size_t)i);
    if (!json_object_get(items, "version")) {
        fprintf(stderr, "rebyte: %s: the items chunk could not be typed; it is kept as raw bytes\n", name);
        return NULL;
    }
    char base[64];
    snprintf(base, sizeof base, "/body/chunks/%ld", i);
    json_t *ops = json_array();
    loss->from_version = (int)json_integer_value(json_object_get(items, "version"));
    if (loss->from_version > o->target) drop_items_fields(ops, base, items, o->target, loss);
    if (o->items_version) downgrade_objects(ops, base, items, o->items_version, loss);
    else loss->objects = json_array_size(json_object_get(items, "anchoredObjects"));
    *already = json_array_size(ops) == 0;
    return ops;
}

static void print_loss(const char *name, const loss_report *l, const downgrade_options *o)
{
    printf("%s: items chunk version %d -> %d, %zu anchored objects kept in order", name, l->from_version,
           l->from_version > o->target ? o->target : l->from_version, l->objects);
    if (o->items_version) printf(", %zu rewritten at object version %d", l->objects_rewritten, o->items_version);
    printf("\n  dropped: %zu block snap links, %zu item snap links, %zu snap groups, %zu snapped-on entries\n",
           l->block_links, l->item_links, l->groups, l->snapped);
}

static int downgrade_file(const char *path, const downgrade_options *o)
{
    uint8_t *data = NULL, *bytes = NULL;
    size_t size, out_size;
    if (cli_read_file(path, &data, &size) != 0) return EXIT_IO;
    rb_error err;
    int rc = EXIT_BAD_INPUT, already = 0;
    rb_doc *doc = cli_parse(path, data, size, &err), *patched = NULL;
    json_t *model = NULL, *ops = NULL;
    loss_report loss = {0};
    if (!doc) { cli_print_error(&err); goto done; }
    if (strcmp(doc->format->name, "gbx") != 0) { fprintf(stderr, "rebyte: %s: not a GBX map\n", path); goto done; }
    model = cli_doc_json(doc, path, RB_BLOBS_REF);
    ops = build_downgrade_patch(model, o, &loss, path, &already);
    if (!ops) goto done;
    if (o->print_patch) cli_print_json(ops, NULL);
    if (already) {
        if (!o->quiet) fprintf(stderr, "rebyte: %s: items chunk is already at version %d; unchanged\n", path, loss.from_version);
        rc = (o->dry_run || o->in_place) ? EXIT_OK : (cli_write_atomic(o->out, data, size) == 0 ? EXIT_OK : EXIT_IO);
        goto done;
    }
    char why[1024];
    if (rb_json_patch_apply(&model, ops, why, sizeof why) != 0) {
        fprintf(stderr, "rebyte: %s: %s\n", path, why);
        goto done;
    }
    patched = rb_doc_from_json(doc->format, model, doc, path, &err);
    if (!patched) { cli_print_error(&err); goto done; }
    if (rb_doc_write(patched, NULL, &bytes, &out_size, &err) != RB_OK) { cli_print_error(&err); goto done; }
    rb_doc *again = cli_parse(path, bytes, out_size, &err);
    if (!again) {
        fprintf(stderr, "rebyte: %s: the downgraded map does not re-read: %s\n", path, err.message);
        rc = EXIT_DIFFERS;
        goto done;
    }
    rb_doc_free(again);
    if (!o->quiet || o->dry_run) print_loss(path, &loss, o);
    rc = o->dry_run ? EXIT_OK : (cli_write_atomic(o->in_place ? path : o->out, bytes, out_size) == 0 ? EXIT_OK : EXIT_IO);
done:
    free(bytes);
    json_decref(ops);
    json_decref(model);
    rb_doc_free(patched);
    rb_doc_free(doc);
    free(data);
    return rc;
}

int cmd_downgrade_items(int argc, char **argv)
{
    downgrade_options o = {.target = 4};
    char **inputs = calloc((size_t)argc + 1, sizeof(char *));
    int n = 0, r;
    const char *v;
    if (!inputs) return EXIT_IO;
    for (int i = 1; i < argc; i++) {
        if ((r = cli_opt_value(argc, argv, &i, "-o", &v))) { if (r < 0) goto usage; o.out = v; }
        else if ((r = cli_opt_value(argc, argv, &i, "--to", &v))) { if (r < 0) goto usage; o.target = atoi(v); }
        else if ((r = cli_opt_value(argc, argv, &i, "--items-version", &v))) { if (r < 0) goto usage; o.items_version = atoi(v); }
        else if (strcmp(argv[i], "--in-place") == 0) o.in_place = 1;
        else if (strcmp(argv[i], "--dry-run") == 0) o.dry_run = 1;
        else if (strcmp(argv[i], "--print-patch") == 0) o.print_patch = 1;
        else if (strcmp(argv[i], "-q") == 0) o.quiet = 1;
        else if (argv[i][0] == '-' && argv[i][1]) { free(inputs); return cli_usage_error("downgrade-items", argv[i]); }
        else inputs[n++] = argv[i];
    }
    if (o.target < 0 || o.target > 4) {
        fprintf(stderr, "rebyte: --to must be 0 to 4 (the versions before TM2020's snapping data)\n");
        goto usage;
    }
    if (o.items_version && (o.items_version < 4 || o.items_version > 8)) {
        fprintf(stderr, "rebyte: --items-version must be 4 to 8\n");
        goto usage;
    }
    if (!n || (!o.dry_run && !o.in_place == !o.out) || (n > 1 && o.out)) goto usage;
    int rc = EXIT_OK;
    for (int i = 0; i < n; i++) {
        int one = downgrade_file(inputs[i], &o);
        if (one != EXIT_OK && rc == EXIT_OK) rc = one;
    }
    free(inputs);
    return rc;
usage:
    free(inputs);
    return cli_usage_error("downgrade-items", NULL);
}
