/*
 * data.win's deferred units replay what their nodes would have given the writer
 * (core/datawin/datawin_defer.c, docs/formats/datawin.md "The deferred model"). A deferred read
 * keeps every chunk it can as its bytes, so the replays are met only against chunks that were
 * deferred too; here each chunk is written beside the others in the other form: for every chunk a
 * deferred read kept as its bytes, a model where it (with what must stay nodes with it) is nodes
 * and every other chunk its bytes, and a model where it (with what must be bytes with it) is
 * bytes and every other chunk nodes, must write the full read's bytes, plainly and compared
 * against the input. That is how STRG's string table, TPAG's placement and CODE's occurrences
 * are checked against the links, TPAG references, counts and chain ends of chunks kept as nodes.
 *
 * Usage: test_datawin_units FILE|FOLDER...  (files of other formats are skipped)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/doc/doc.h"
#include "core/registry/registry.h"
#include "core/model/doc_state.h"
#include "tests/test_util.h"

static size_t files, mixed_models;

static rb_doc *read_as(const uint8_t *data, size_t size, int defer)
{
    rb_limits limits = RB_LIMITS_INIT;
    rb_limits_default(&limits);
    rb_read_options options = {.size = sizeof options, .file_name = "input", .limits = &limits, .defer = defer};
    rb_error err;
    return rb_doc_parse_as(rb_registry_detect(data, size), data, size, &options, &err);
}

/* The chunk list of a document, as read (not navigated: that would expand the deferred one). */
static rb_node *chunks_of(rb_doc *doc) { return (rb_node *)rb_node_get(doc->root, "chunks"); }

static int is_chunk(const rb_node *full_chunk, const char *id)
{
    const rb_node *n = rb_node_get(full_chunk, "id");
    return n && n->v.bytes.size == 4 && memcmp(n->v.bytes.data, id, 4) == 0;
}

/* What goes with chunk `i` when it changes form (datawin_defer.c): VARI and FUNC are bytes only
 * after a CODE kept as bytes, since CODE's nodes leave their chains' ends for theirs to write. */
static int goes_with(const rb_node *full, size_t i, size_t k, int to_nodes)
{
    const rb_node *a = full->v.kids.items[i], *b = full->v.kids.items[k];
    if (i == k) return 1;
    if (to_nodes) return is_chunk(a, "CODE") && (is_chunk(b, "VARI") || is_chunk(b, "FUNC"));
    return (is_chunk(a, "VARI") || is_chunk(a, "FUNC")) && is_chunk(b, "CODE");
}

/* Exchanges the chunks marked in `group` between the two lists: the deferred document gets the
 * full read's nodes of them and the full document their bytes; done again, each gets its own
 * back. */
static void exchange(rb_node *full, rb_node *deferred, const int *group)
{
    for (size_t k = 0; k < full->v.kids.count; k++) {
        if (!group[k]) continue;
        rb_node *t = full->v.kids.items[k];
        full->v.kids.items[k] = deferred->v.kids.items[k];
        deferred->v.kids.items[k] = t;
    }
}

/* Chunk i and what goes with it, among the chunks the deferred read kept as bytes. */
static void group_of(const rb_node *full, const rb_node *deferred, size_t i, int to_nodes, int *group)
{
    for (size_t k = 0; k < full->v.kids.count; k++)
        group[k] = deferred->v.kids.items[k]->kind == RB_K_DEFERRED && goes_with(full, i, k, to_nodes);
}

static void writes_as_expected(rb_doc *doc, const uint8_t *expected, size_t expected_size, const uint8_t *input,
                               size_t input_size, const char *path, const char *what)
{
    uint8_t *out = NULL;
    size_t out_size = 0;
    rb_error err;
    rb_status st = rb_doc_write(doc, NULL, &out, &out_size, &err);
    CHECK(st == RB_OK && out_size == expected_size && memcmp(out, expected, expected_size) == 0, "%s, %s: %s", path,
          what, st == RB_OK ? "other bytes" : err.message);
    rb_free(out);
    int identical = 0;
    out = NULL;
    st = rb_doc_write_against(doc, NULL, input, input_size, &identical, &out, &out_size, &err);
    int same_as_input = expected_size == input_size && memcmp(expected, input, input_size) == 0;
    CHECK(st == RB_OK && identical == same_as_input, "%s, %s, compared as written: %s", path, what,
          st == RB_OK ? "not what the plain write gave" : err.message);
    rb_free(out);
    mixed_models++;
}

static void check_file(const char *path)
{
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    const rb_format *format = data ? rb_registry_detect(data, size) : NULL;
    rb_doc *full = format && strcmp(format->name, "datawin") == 0 ? read_as(data, size, 0) : NULL;
    rb_doc *deferred = full ? read_as(data, size, 1) : NULL;
    uint8_t *expected = NULL;
    size_t expected_size = 0;
    rb_error err;
    if (deferred && rb_doc_write(full, NULL, &expected, &expected_size, &err) == RB_OK) {
        files++;
        rb_node *a = chunks_of(full), *b = chunks_of(deferred);
        CHECK(a && b && a->v.kids.count == b->v.kids.count, "%s: the chunk lists differ", path);
        int *group = a && b && a->v.kids.count == b->v.kids.count ? calloc(a->v.kids.count + 1, sizeof *group) : NULL;
        for (size_t i = 0; group && i < a->v.kids.count; i++) {
            if (b->v.kids.items[i]->kind != RB_K_DEFERRED) continue;
            const rb_node *id = rb_node_get(a->v.kids.items[i], "id");
            for (int to_nodes = 1; to_nodes >= 0; to_nodes--) {
                char what[96];
                snprintf(what, sizeof what, "chunk %zu (%.4s) %s", i, (const char *)id->v.bytes.data,
                         to_nodes ? "as nodes among bytes" : "as bytes among nodes");
                group_of(a, b, i, to_nodes, group);
                exchange(a, b, group);
                writes_as_expected(to_nodes ? deferred : full, expected, expected_size, data, size, path, what);
                exchange(a, b, group);
            }
        }
        free(group);
    }
    rb_free(expected);
    rb_doc_free(deferred);
    rb_doc_free(full);
    free(data);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) test_each_file(argv[i], check_file);
    CHECK(files > 0 && mixed_models > 0, "no data.win with deferred chunks given");
    printf("data.win chunks kept as bytes among nodes and as nodes among bytes: %zu files, %zu mixed models written; "
           "%d failures\n",
           files, mixed_models, test_failures);
    return test_failures ? 1 : 0;
}
