/*
 * The law of the code listing (docs/formats/datawin.md "Code listings"): every root code entry's
 * listing, as `extract` writes it, read back by the assembler at its entry's path gives no
 * operation, that is exactly the model's bytecode, string operands, references and child
 * offsets, so the file keeps its bytes.
 *   test_datawin_asm FILE|DIR...   every .win file given (folders: every one in them)
 * It prints, per file, the listings read back; a file without typed CODE has none. Each listing
 * is also read back damaged a few ways (cut short, a byte changed to one the syntax gives a
 * meaning): the assembler must give operations or a refusal, never crash (run under ASan by
 * hand: docs/reliability.md). The files are taken REBYTE_TEST_JOBS at a time, the largest first
 * (tests/test_parallel.h); each file's figures are its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rebyte.h"
#include "tests/test_parallel.h"
#include "tests/test_util.h"

typedef struct listings {
    rb_doc *doc;
    const char *file;
    size_t count, lines, refused;
    uint32_t seed;
} listings;

static uint32_t next_random(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

/* The listing cut short or with one byte changed: operations or a refusal, nothing else. */
static void damaged(listings *l, const rb_asset *asset)
{
    static const char tricky[] = "\"\\#[].~=:;-+0x L\n";
    uint8_t *copy = malloc(asset->data_size + 1);
    if (!copy || !asset->data_size) { free(copy); return; }
    for (int round = 0; round < 4; round++) {
        memcpy(copy, asset->data, asset->data_size);
        size_t size = asset->data_size, at = next_random(&l->seed) % size;
        if (round == 0) size = at;
        else copy[at] = (uint8_t)tricky[next_random(&l->seed) % (sizeof tricky - 1)];
        char *ops = NULL;
        rb_error err;
        rb_status st = rb_doc_asset_patch(l->doc, asset->path, copy, size, &ops, &err);
        CHECK(st == RB_OK || (st != RB_E_NOMEM && err.message[0]), "%s: %s damaged at %zu: status %d", l->file, asset->name, at, (int)st);
        l->refused += st != RB_OK;
        free(ops);
    }
    free(copy);
}

static int put_back(void *context, const rb_asset *asset)
{
    listings *l = context;
    size_t n = strlen(asset->name);
    if (strcmp(asset->kind, "code") != 0 || n < 4 || strcmp(asset->name + n - 4, ".txt") != 0) return 0;
    CHECK(asset->replaceable, "%s: %s is not marked replaceable", l->file, asset->name);
    char *ops = NULL;
    rb_error err;
    rb_status st = rb_doc_asset_patch(l->doc, asset->path, asset->data, asset->data_size, &ops, &err);
    CHECK(st == RB_OK, "%s: %s (%s): %s", l->file, asset->name, asset->path, err.message);
    size_t end = st == RB_OK ? strlen(ops) : 0;
    while (end && (ops[end - 1] == '\n' || ops[end - 1] == ' ')) end--;
    if (st == RB_OK) CHECK(end == 2 && memcmp(ops, "[]", 2) == 0, "%s: %s read back gives %.400s", l->file, asset->name, ops);
    free(ops);
    l->count++;
    for (size_t i = 0; i < asset->data_size; i++) l->lines += asset->data[i] == '\n';
    damaged(l, asset);
    return 0;
}

static void check_file(const char *path)
{
    size_t size, n = strlen(path);
    if (n < 4 || strcmp(path + n - 4, ".win") != 0) return; /* MANIFEST.tsv and the like */
    uint8_t *data = test_read_file(path, &size);
    if (!data) return;
    rb_error err;
    rb_doc *doc = rb_doc_parse(data, size, NULL, &err);
    CHECK(doc != NULL, "%s: %s", path, err.message);
    listings l = {doc, path, 0, 0, 0, 12345};
    char *manifest = NULL;
    if (doc) CHECK(rb_doc_extract(doc, "code", put_back, &l, &manifest, &err) == RB_OK, "%s: extract: %s", path, err.message);
    printf("%s: %zu listings (%zu lines) read back unchanged; of %zu damaged copies %zu refused\n", path, l.count, l.lines,
           4 * l.count, l.refused);
    free(manifest);
    rb_doc_free(doc);
    free(data);
}

int main(int argc, char **argv)
{
    test_each_file_parallel(argv + 1, argc - 1, check_file);
    return test_failures ? 1 : 0;
}
