/*
 * Diff by units (docs/usage.md "Diffs", patch/diff_units.c): two maps read deferred are paired
 * unit by unit, and a unit stays bytes only when it is equal in both. The rule is checked against
 * what the units hold: every pair kept as bytes is read alone on both sides and must give the same
 * nodes; every pair whose bytes are equal but whose reader state at the start differs (a lookback
 * string defined before it in one file only) must have been read; a unit the caller names is
 * read on both sides; and the diff by units is the diff of the full reads, byte for byte. The
 * edits: the first block renamed to a name no block has (a new lookback string in the block
 * list), the second block removed, and the first free block removed (apply's in-step lists then
 * read the baked blocks, a chunk equal in both: read on both sides for the diff).
 *
 * Usage: test_diff_units MAP.Gbx...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/doc.h"
#include "core/model/model_equal.h"
#include "patch/diff_units.h"
#include "tests/test_util.h"

typedef struct tally {
    size_t kept, read, equal_bytes_other_start;
    size_t kept_bytes, read_bytes; /* A's */
} tally;

/* The unit child `i` of `parent` read alone into `arena`. */
static rb_node *alone(const rb_doc *doc, const rb_node *parent, size_t i, const rb_node *const *above, size_t count,
                      rb_arena *arena)
{
    rb_unit_place place = {parent->v.kids.items[i], parent, i, above, count};
    rb_error err;
    return doc->expand_unit(doc, &place, arena, &err);
}

/* `x` and `y` (of the deferred reads `da`, `db`) against `ux`, `uy` (the same places in the models
 * paired by units). */
static void check_pairs(const char *name, const rb_doc *da, const rb_node *x, const rb_doc *db, const rb_node *y,
                        const rb_node *ux, const rb_node *uy, const rb_node **above_a, const rb_node **above_b,
                        size_t count, tally *t)
{
    if (!rb_node_is_container(x) || !rb_node_is_container(y) || x->v.kids.count != y->v.kids.count ||
        !rb_node_is_container(ux) || !rb_node_is_container(uy) || count + 1 >= RB_UNIT_CHAIN)
        return;
    const rb_node *chain_a[RB_UNIT_CHAIN], *chain_b[RB_UNIT_CHAIN];
    chain_a[0] = x;
    chain_b[0] = y;
    memcpy(chain_a + 1, above_a, count * sizeof *chain_a);
    memcpy(chain_b + 1, above_b, count * sizeof *chain_b);
    for (size_t i = 0; i < x->v.kids.count; i++) {
        const rb_node *kx = x->v.kids.items[i], *ky = y->v.kids.items[i];
        const rb_node *kux = ux->v.kids.items[i], *kuy = uy->v.kids.items[i];
        if (kx->kind != RB_K_DEFERRED || ky->kind != RB_K_DEFERRED) {
            check_pairs(name, da, kx, db, ky, kux, kuy, chain_a, chain_b, count + 1, t);
            continue;
        }
        int same_bytes = kx->v.bytes.size == ky->v.bytes.size &&
                         memcmp(kx->v.bytes.data, ky->v.bytes.data, kx->v.bytes.size) == 0;
        int kept = kux->kind == RB_K_DEFERRED && kuy->kind == RB_K_DEFERRED;
        CHECK(kept == (kux->kind == RB_K_DEFERRED || kuy->kind == RB_K_DEFERRED),
              "%s: unit %zu (%s) is read on one side only", name, i, kx->key ? kx->key : "-");
        if (same_bytes && !rb_deferred_same(kx, ky)) {
            t->equal_bytes_other_start++;
            CHECK(!kept, "%s: unit %zu (%s): equal bytes from another start, kept as bytes", name, i,
                  kx->key ? kx->key : "-");
        }
        if (!kept) {
            t->read++;
            t->read_bytes += kx->v.bytes.size;
            continue;
        }
        t->kept++;
        t->kept_bytes += kx->v.bytes.size;
        rb_arena arena_a = {0}, arena_b = {0};
        rb_node *na = alone(da, x, i, above_a, count, &arena_a), *nb = alone(db, y, i, above_b, count, &arena_b);
        CHECK(na && nb && rb_model_same(na, nb), "%s: unit %zu (%s) kept as bytes holds other nodes in A and B", name, i,
              kx->key ? kx->key : "-");
        rb_arena_free(&arena_a);
        rb_arena_free(&arena_b);
    }
}

/* The diff by units (deferred reads) is the diff of the full reads, byte for byte, in both
 * addressings: what apply's in-step lists read in units kept as bytes was read on both sides. */
static void check_same_diff(const char *name, const uint8_t *a, size_t na, const rb_doc *da, const rb_doc *db,
                            const uint8_t *b, size_t nb)
{
    rb_read_options full = {.size = sizeof full, .file_name = name};
    rb_error err;
    rb_doc *fa = rb_doc_parse(a, na, &full, &err), *fb = rb_doc_parse(b, nb, &full, &err);
    CHECK(fa && fb, "%s: the full reads fail", name);
    for (unsigned flags = 0; fa && fb && flags <= RB_DIFF_BY_IDENTITY; flags++) {
        char *by_units = NULL, *whole = NULL;
        size_t n = 0;
        rb_status su = rb_doc_diff(da, a, na, db, flags, &by_units, &n, &err);
        rb_status sw = rb_doc_diff(fa, a, na, fb, flags, &whole, &n, &err);
        CHECK(su == RB_OK && sw == RB_OK && !strcmp(by_units, whole),
              "%s: the diff by units (flags %u) is not the diff of the full reads", name, flags);
        rb_free(by_units);
        rb_free(whole);
    }
    rb_doc_free(fa);
    rb_doc_free(fb);
}

/* The body's chunk list of a model, or NULL. */
static const rb_node *body_chunks(const rb_doc *doc)
{
    const rb_node *body = rb_node_get(doc->root, "body");
    return body ? rb_node_get(body, "chunks") : NULL;
}

/* A unit the caller names (a place inside it) is read on both sides though its bytes are equal. */
static void check_read_anyway(const char *name, const rb_doc *da, const rb_doc *db, const rb_doc *ua)
{
    const rb_node *chunks = body_chunks(ua);
    size_t i = 0;
    while (chunks && i < chunks->v.kids.count && chunks->v.kids.items[i]->kind != RB_K_DEFERRED) i++;
    if (!chunks || i == chunks->v.kids.count) return; /* every chunk read: nothing to name */
    char place[64];
    snprintf(place, sizeof place, "/body/chunks/%zu/inside", i);
    const char *read[] = {place};
    rb_doc *ra = NULL, *rb = NULL;
    CHECK(rb_diff_unit_models(da, db, read, 1, &ra, &rb), "%s: the models are not paired by units", name);
    const rb_node *in_a = ra ? body_chunks(ra) : NULL, *in_b = rb ? body_chunks(rb) : NULL;
    CHECK(in_a && in_b && in_a->v.kids.items[i]->kind != RB_K_DEFERRED && in_b->v.kids.items[i]->kind != RB_K_DEFERRED,
          "%s: chunk %zu, named, is kept as bytes", name, i);
    rb_doc_free(ra);
    rb_doc_free(rb);
}

static void check_edit(const char *name, const uint8_t *a, size_t na, const char *edit, tally *t)
{
    char why[600] = "";
    size_t nb = 0;
    uint8_t *b = test_apply_text(name, a, na, edit, &nb, why, sizeof why);
    CHECK(b, "%s: %s does not apply: %s", name, edit, why);
    rb_read_options deferred = {.size = sizeof deferred, .file_name = name, .defer = 1};
    rb_error err;
    rb_doc *da = rb_doc_parse(a, na, &deferred, &err), *db = b ? rb_doc_parse(b, nb, &deferred, &err) : NULL;
    rb_doc *ua = NULL, *ub = NULL;
    CHECK(da && db && rb_diff_unit_models(da, db, NULL, 0, &ua, &ub), "%s: the models are not paired by units", name);
    if (ua && ub) check_pairs(name, da, da->root, db, db->root, ua->root, ub->root, NULL, NULL, 0, t);
    if (ua && ub) check_read_anyway(name, da, db, ua);
    if (da && db) check_same_diff(name, a, na, da, db, b, nb);
    rb_doc_free(ua);
    rb_doc_free(ub);
    rb_doc_free(da);
    rb_doc_free(db);
    free(b);
}

/* The index of the map's first free block (flag 0x20000000: its removal edits the free-block
 * positions, whose count takes in the baked blocks too), or -1. */
static long first_free_block(const char *name, const uint8_t *data, size_t size)
{
    rb_read_options full = {.size = sizeof full, .file_name = name};
    rb_error err;
    rb_doc *doc = rb_doc_parse(data, size, &full, &err);
    const rb_node *chunks = doc ? body_chunks(doc) : NULL;
    long found = -1;
    for (size_t c = 0; chunks && c < chunks->v.kids.count && found < 0; c++) {
        const rb_node *id = rb_node_get(chunks->v.kids.items[c], "id");
        const rb_node *blocks = rb_node_get(chunks->v.kids.items[c], "blocks");
        if (!id || rb_node_uint(id) != 0x0304301F || !blocks || blocks->kind != RB_K_LIST) continue;
        for (size_t k = 0; k < blocks->v.kids.count && found < 0; k++) {
            const rb_node *flags = rb_node_get(blocks->v.kids.items[k], "flags");
            if (flags && (rb_node_uint(flags) & 0x20000000)) found = (long)k;
        }
    }
    rb_doc_free(doc);
    return found;
}

int main(int argc, char **argv)
{
    static const char *EDITS[] = {
        "[{\"op\":\"replace\",\"path\":\"/body/chunks/[id=0x0304301F]/blocks/0/name\",\"value\":\"RebyteUnitsTest\"}]",
        "[{\"op\":\"remove\",\"path\":\"/body/chunks/[id=0x0304301F]/blocks/1\"}]"};
    tally t = {0};
    for (int f = 1; f < argc; f++) {
        size_t size = 0;
        uint8_t *data = test_read_file(argv[f], &size);
        CHECK(data, "%s: cannot read", argv[f]);
        char free_edit[160] = "";
        long free_block = data ? first_free_block(argv[f], data, size) : -1;
        if (free_block >= 0)
            snprintf(free_edit, sizeof free_edit, "[{\"op\":\"remove\",\"path\":\"/body/chunks/[id=0x0304301F]/blocks/%ld\"}]",
                     free_block);
        const char *edits[] = {EDITS[0], EDITS[1], free_edit};
        for (size_t e = 0; data && e < sizeof edits / sizeof *edits && *edits[e]; e++) {
            tally one = {0};
            check_edit(argv[f], data, size, edits[e], &one);
            printf("%s, edit %zu: %zu units kept as bytes (%zu bytes of A), %zu read (%zu bytes), %zu of them with equal "
                   "bytes from another reader state\n",
                   argv[f], e + 1, one.kept, one.kept_bytes, one.read, one.read_bytes, one.equal_bytes_other_start);
            t.kept += one.kept;
            t.read += one.read;
            t.equal_bytes_other_start += one.equal_bytes_other_start;
        }
        free(data);
    }
    printf("diff by units: %zu unit pairs kept as bytes (each read alone: the same nodes), %zu read, %zu of them "
           "with equal bytes from another reader state\n",
           t.kept, t.read, t.equal_bytes_other_start);
    CHECK(t.kept > 0, "no unit was kept as bytes: the pairing was not exercised");
    return test_failures ? 1 : 0;
}
