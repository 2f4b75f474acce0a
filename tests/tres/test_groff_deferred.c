/*
 * GROFF's deferred unit (docs/formats/tres.md "The deferred model"), checked on every GROFF file
 * given (a file, or every file of a folder, plain or SZDD-packed):
 *   - a deferred read keeps the directory and the section payloads as one unit: its bytes run from
 *     the end of the 48-byte header to the name table the header points at, its element count is
 *     the header's section count;
 *   - the unit's replay record is what its nodes would have given the name table: for every name
 *     of the file's table, the uses replayed plus the symbol's `extraReferences` are the
 *     reference count the file stores (the name table is derived from them when it is written);
 *   - the deferred model's arena holds less than the full model's, and at most a quarter of it
 *     for a file of 1 MiB or more (the deferred model's memory is met by what is not built);
 *   - read beside its own deferred read (rb_doc_parse_beside: the check of a kept apply's write,
 *     patch/apply_kept.c), a plain file's unit is taken, not read again, and the model is the
 *     deferred read's; with one byte of the unit changed the unit is read again (and so refused,
 *     or kept as the new bytes), never taken.
 * That deferred and full reads agree in everything else is the deferred law's (tests/engine/law_deferred.c).
 *
 * Usage: test_groff_deferred PATH... [--shared PATH...]  (the paths after --shared are real files
 * outside the project: absent, they are skipped and the program exits 77 when nothing failed)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/doc/doc.h"
#include "core/model/model_equal.h"
#include "core/registry/registry.h"
#include "core/tres/tres.h"
#include "tests/test_util.h"

enum { GROFF_HEADER_BYTES = 48, LARGE_FILE = 1 << 20 };

static size_t groff_files, names_checked;
static int shared_missing;

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

static rb_doc *read_groff(const uint8_t *data, size_t size, int defer)
{
    rb_read_options options = {.size = sizeof options, .file_name = "input", .defer = defer};
    rb_error err;
    return rb_doc_parse_as(&rb_format_groff, data, size, &options, &err);
}

/* The uses the unit's replay record gives `handle` (pairs of handle and uses). */
static uint32_t replayed_uses(const rb_deferred *unit, uint32_t handle)
{
    const uint32_t *pairs = unit->replay;
    for (uint32_t i = 0; i < unit->replay_count; i++)
        if (pairs[2 * i] == handle) return pairs[2 * i + 1];
    return 0;
}

static const rb_node *symbol_with(const rb_node *symbols, uint32_t handle)
{
    for (size_t i = 0; symbols && i < symbols->v.kids.count; i++)
        if ((uint32_t)rb_node_uint(rb_node_get(symbols->v.kids.items[i], "handle")) == handle)
            return symbols->v.kids.items[i];
    return NULL;
}

/* Every name of the table at `header`'s offset: stored count = replayed uses + extraReferences. */
static void check_replay(const char *path, const uint8_t *header, const rb_node *unit, const rb_node *symbols)
{
    uint32_t names = le32(header + 12), at = le32(header + 20);
    const uint8_t *entry = header + at;
    for (uint32_t i = 0; i < names; i++) {
        uint32_t handle = le32(entry), length = le32(entry + 4), stored = le32(entry + 8);
        const rb_node *extra = rb_node_get(symbol_with(symbols, handle), "extraReferences");
        uint32_t derived = replayed_uses(unit->deferred, handle) + (extra ? (uint32_t)rb_node_uint(extra) : 0);
        CHECK(derived == stored, "%s: name %u (handle 0x%X): %u uses replayed (+ extra), the file stores %u", path,
              i, handle, derived, stored);
        names_checked++;
        entry += 12 + (size_t)length;
    }
}

/* The sections unit of a plain GROFF model, or NULL. */
static const rb_node *sections_unit(const rb_doc *doc)
{
    const rb_node *unit = doc ? rb_node_get(doc->root, "sections") : NULL;
    return unit && unit->kind == RB_K_DEFERRED ? unit : NULL;
}

static void check_beside(const char *path, const uint8_t *data, size_t size, const rb_doc *deferred)
{
    const rb_node *known = sections_unit(deferred);
    if (!known) return; /* a packed file: its unit is inside the stream */
    rb_read_options options = {.size = sizeof options, .file_name = "input", .defer = 1};
    rb_error err;
    rb_doc *again = rb_doc_parse_beside(&rb_format_groff, data, size, &options, deferred, &err);
    const rb_node *taken = sections_unit(again);
    CHECK(taken && taken->deferred == known->deferred, "%s: read beside itself, the unit was not taken", path);
    CHECK(again && rb_model_equal_kept_units(deferred->root, again->root, NULL),
          "%s: read beside itself, the model is not the deferred read's", path);
    rb_doc_free(again);
    uint8_t *damaged = malloc(size);
    if (!damaged) return;
    memcpy(damaged, data, size);
    damaged[known->src_offset + known->v.bytes.size / 2] ^= 0x5A;
    again = rb_doc_parse_beside(&rb_format_groff, damaged, size, &options, deferred, &err);
    taken = sections_unit(again);
    CHECK(!taken || taken->deferred != known->deferred, "%s: a unit with a byte changed was taken", path);
    rb_doc_free(again);
    free(damaged);
}

static void check_groff(const char *path, const uint8_t *data, size_t size)
{
    rb_doc *full = read_groff(data, size, 0), *deferred = read_groff(data, size, 1);
    CHECK(!full == !deferred, "%s: one read failed and the other did not", path);
    if (!full || !deferred) {
        rb_doc_free(full);
        rb_doc_free(deferred);
        return;
    }
    groff_files++;
    /* a packed file's GROFF content is its stream's */
    const rb_node *container = rb_node_get(deferred->root, "content") ? rb_node_get(deferred->root, "content")
                                                                      : deferred->root;
    const rb_node *unit = rb_node_get(container, "sections");
    CHECK(unit && unit->kind == RB_K_DEFERRED, "%s: the sections are not one deferred unit", path);
    if (unit && unit->kind == RB_K_DEFERRED) {
        const uint8_t *header = unit->v.bytes.data - GROFF_HEADER_BYTES;
        CHECK(unit->src_offset == GROFF_HEADER_BYTES, "%s: the unit starts at %u, not after the header", path,
              unit->src_offset);
        CHECK(unit->v.bytes.size == le32(header + 20) - GROFF_HEADER_BYTES,
              "%s: the unit holds %zu bytes, the header puts the name table at %u", path, unit->v.bytes.size,
              le32(header + 20));
        CHECK(unit->deferred->elements == le32(header + 8), "%s: %u sections in the unit, %u in the header", path,
              unit->deferred->elements, le32(header + 8));
        check_replay(path, header, unit, rb_node_get(container, "symbols"));
    }
    size_t full_arena = full->arena.used_total, deferred_arena = deferred->arena.used_total;
    CHECK(deferred_arena < full_arena, "%s: deferred model %zu bytes, full %zu", path, deferred_arena, full_arena);
    if (size >= LARGE_FILE)
        CHECK(deferred_arena * 4 <= full_arena, "%s: deferred model %zu bytes, more than a quarter of the full %zu",
              path, deferred_arena, full_arena);
    check_beside(path, data, size, deferred);
    printf("%s: model %zu -> %zu bytes deferred\n", path, full_arena, deferred_arena);
    rb_doc_free(full);
    rb_doc_free(deferred);
}

static void check_file(const char *path)
{
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    if (data && rb_registry_detect(data, size) == &rb_format_groff) check_groff(path, data, size);
    free(data);
}

int main(int argc, char **argv)
{
    int shared = 0;
    struct stat st;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--shared") == 0) shared = 1;
        else if (shared && stat(argv[i], &st) != 0) shared_missing = 1, printf("%s absent: skipped\n", argv[i]);
        else test_each_file(argv[i], check_file);
    }
    CHECK(groff_files > 0, "no GROFF file given");
    printf("GROFF deferred units: %zu files, %zu names' reference counts from the replay; %d failures\n", groff_files,
           names_checked, test_failures);
    return test_failures ? 1 : shared_missing ? 77 : 0;
}
