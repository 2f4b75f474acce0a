/*
 * libFuzzer harness for the data.win assets hooks (docs/formats/datawin.md "Assets"): a
 * data.win that parses has its assets extracted (pages decoded, TPAG items cut with whatever
 * fields the input gives them, bytecode listed), and each of its first pictures and sounds is
 * put back unchanged, which must give no operations. A refusal must say why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/doc.h"
#include "core/datawin/datawin.h"

typedef struct kept {
    char path[160];
    uint8_t *data;
    size_t size;
} kept;

typedef struct sink_state {
    kept items[4];
    size_t count;
} sink_state;

static int keep(void *context, const rb_asset *a)
{
    sink_state *s = context;
    if (!a->name || !a->kind || !a->path || (a->data_size && !a->data)) abort();
    if (!a->replaceable || s->count == 4 || strlen(a->path) >= sizeof s->items[0].path) return 0;
    kept *k = &s->items[s->count++];
    strcpy(k->path, a->path);
    k->data = malloc(a->data_size ? a->data_size : 1);
    if (!k->data) abort();
    memcpy(k->data, a->data, a->data_size);
    k->size = a->data_size;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rb_limits limits = RB_LIMITS_INIT;
    rb_limits_default(&limits);
    limits.max_decompressed_size = 16u << 20; /* keep single inputs cheap */
    rb_read_options opt = {.file_name = "fuzz", .limits = &limits};
    rb_error err;
    rb_doc *doc = rb_doc_parse_as(&rb_format_datawin, data, size, &opt, &err);
    if (!doc) return 0;
    sink_state s;
    memset(&s, 0, sizeof s);
    char why[512] = "";
    if (doc->format->assets(doc, NULL, keep, &s, why, sizeof why) != 0 && !why[0]) abort();
    for (size_t i = 0; i < s.count; i++) {
        why[0] = 0;
        json_t *ops = doc->format->asset_patch(doc, s.items[i].path, s.items[i].data, s.items[i].size, why, sizeof why);
        if (!ops && !why[0]) abort();                /* a path extract named is an asset's */
        if (ops && json_array_size(ops) != 0) abort(); /* unchanged: nothing to do */
        json_decref(ops);
        free(s.items[i].data);
    }
    rb_doc_free(doc);
    return 0;
}
