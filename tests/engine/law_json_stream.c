/*
 * Streaming dump and build (docs/performance.md "Streaming dump and build"), a corpus law
 * (tests/engine/laws.h) over every file given (the samples; the corpus with the label long):
 *   - the dump streamed in pieces is rb_doc_dump's text, and that text is the stable printer's
 *     text of the tree rb_model_to_json builds (one printer, two walks);
 *   - the piecewise reader, with sizes small enough that every list is read piecewise,
 *     gives the tree jansson reads from the whole text; building from it writes the file's bytes
 *     (rb_doc_build_file, from the dump in a file too: the one the laws share, tests/engine/laws.h);
 *   - a text damaged deep inside a list fails with the place (line, column, byte).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rebyte.h"
#include "core/doc/doc.h"
#include "core/json/json.h"
#include "core/json/json_stream.h"
#include "tests/engine/laws.h"
#include "tests/test_util.h"

typedef struct pieces {
    rb_buf text;
    size_t count;
} pieces;

static int collect(void *context, const char *text, size_t size)
{
    pieces *p = context;
    rb_buf_put(&p->text, text, size);
    p->count++;
    return 0;
}

static int refuse(void *context, const char *text, size_t size)
{
    (void)context, (void)text, (void)size;
    return 1;
}

/* rb_doc_dump's text (no "$source") as the tree path prints it. */
static char *tree_text(const rb_doc *doc)
{
    json_t *body = rb_model_to_json(doc, doc->root, RB_BLOBS_REF);
    json_t *out = json_pack("{s:s}", "$format", doc->format->name);
    json_object_update(out, body);
    char *text = rb_json_print_text(out);
    json_decref(body);
    json_decref(out);
    return text;
}

static void check_dump(const char *path, const rb_doc *doc, const char *text)
{
    pieces p = {0};
    rb_buf_init(&p.text);
    rb_error err;
    CHECK(rb_doc_dump_to(doc, RB_BLOBS_REF, NULL, collect, &p, &err) == RB_OK, "%s: %s", path, err.message);
    CHECK(p.text.size == strlen(text) && memcmp(p.text.data, text, p.text.size) == 0,
          "%s: the streamed dump differs from rb_doc_dump's text", path);
    CHECK(p.count >= 1 + strlen(text) / (1024 * 1024), "%s: %zu pieces for %zu bytes: not streamed", path, p.count,
          strlen(text));
    rb_buf_free(&p.text);
    char *tree = tree_text(doc);
    CHECK(tree && strcmp(tree, text) == 0, "%s: the tree's text differs from the streamed dump", path);
    free(tree);
    CHECK(rb_doc_dump_to(doc, RB_BLOBS_REF, NULL, refuse, NULL, &err) == RB_E_IO, "%s: a refusing sink", path);
}

/* Every array of `v` walked through the loader, compared with jansson's whole tree. */
static int same_through_loader(rb_json_loader *l, json_t *v, const json_t *whole)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *m;
        if (json_object_size(v) != json_object_size(whole)) return 0;
        json_object_foreach(v, k, m) if (!same_through_loader(l, m, json_object_get(whole, k))) return 0;
        return 1;
    }
    if (!json_is_array(v)) return json_equal(v, whole);
    if (json_array_size(v) != json_array_size(whole)) return 0;
    char why[256];
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *e = rb_json_loader_element(l, v, i, why, sizeof why);
        if (!e || !same_through_loader(l, e, json_array_get(whole, i))) return 0;
    }
    return 1;
}

/* Small enough that every list is read piecewise, a few thousand pieces at most (large corpus
 * dumps would take minutes at 64 bytes). */
static size_t piece_size(size_t length) { return length / 4096 > 64 ? length / 4096 : 64; }

static void check_build(const law_file *file, const char *text)
{
    const char *path = file->path, *built_why = NULL;
    const uint8_t *data = file->data;
    size_t size = file->size;
    const rb_doc *doc = file->doc;
    size_t length = strlen(text);
    json_t *whole = json_loadb(text, length, JSON_ALLOW_NUL, NULL);
    rb_json_loader *l = rb_json_loader_memory(text, length, path);
    rb_json_loader_set_sizes(l, piece_size(length), 4 * piece_size(length));
    char why[256];
    json_t *root = rb_json_loader_root(l, why, sizeof why);
    CHECK(root && whole && same_through_loader(l, root, whole), "%s: the piecewise tree differs", path);
    json_decref(root);
    /* built from the piecewise reader: element by element */
    root = rb_json_loader_root(l, why, sizeof why);
    rb_error err;
    rb_doc *built = root ? rb_doc_from_json_loader(doc->format, root, l, doc, path, 0, &err) : NULL;
    uint8_t *out = NULL;
    size_t out_size = 0;
    CHECK(built && rb_doc_write(built, NULL, &out, &out_size, &err) == RB_OK && out_size == size &&
              memcmp(out, data, size) == 0,
          "%s: built piecewise, not the file's bytes (%s)", path, built ? err.message : why);
    rb_free(out);
    rb_doc_free(built);
    json_decref(root);
    rb_json_loader_free(l);
    json_decref(whole);
    /* and from a file: the dump the laws share (its full build is law_build_deferred's too) */
    CHECK(law_full_build(file, &built_why) && law_full_build_exact(file), "%s: rb_doc_build_file, not the file's bytes%s%s",
          path, built_why && *built_why ? ": " : "", built_why ? built_why : "");
}

/* A byte deep inside (in the last third, a digit turned into a letter) fails with its place. */
static void check_damage(const char *path, const rb_doc *doc, const char *text)
{
    size_t length = strlen(text);
    char *bad = strdup(text);
    size_t at = length;
    for (size_t i = length * 2 / 3; i < length && at == length; i++)
        if (bad[i] >= '0' && bad[i] <= '9' && bad[i - 1] == ' ') at = i;
    if (at == length) { free(bad); return; }
    bad[at] = 'x';
    rb_json_loader *l = rb_json_loader_memory(bad, length, path);
    rb_json_loader_set_sizes(l, piece_size(length), 4 * piece_size(length));
    char why[256] = "";
    json_t *root = rb_json_loader_root(l, why, sizeof why);
    rb_error err = {0};
    rb_doc *built = root ? rb_doc_from_json_loader(doc->format, root, l, doc, path, 0, &err) : NULL;
    const char *message = root ? err.message : why;
    CHECK(!built && strstr(message, "not JSON") && strstr(message, "byte"), "%s: damage at byte %zu: \"%s\"", path,
          at, message);
    rb_doc_free(built);
    json_decref(root);
    rb_json_loader_free(l);
    free(bad);
}

static size_t files_streamed;

static void check_file(const law_file *file, const law_settings *settings)
{
    (void)settings;
    char *text = NULL;
    rb_error err;
    if (file->doc && rb_doc_dump(file->doc, RB_BLOBS_REF, NULL, &text, &err) == RB_OK) {
        __atomic_fetch_add(&files_streamed, 1, __ATOMIC_RELAXED);
        check_dump(file->path, file->doc, text);
        check_build(file, text);
        check_damage(file->path, file->doc, text);
    }
    rb_free(text);
}

/* A repeated member name: the last value counts (as in jansson), and the earlier one, a list read
 * piecewise and never reached, is still checked (found by fuzz_json_stream). */
static void check_repeated_names(void)
{
    static const char good[] = "{\"a\": [1, [2, 3], {\"b\": [4, 5]}], \"a\": [6, 7]}";
    static const char bad[] = "{\"a\": [1, [2, 3], \"x\001y\"], \"a\": [6, 7]}";
    json_t *whole = json_loads(good, 0, NULL);
    rb_json_loader *l = rb_json_loader_memory(good, strlen(good), "repeated.json");
    rb_json_loader_set_sizes(l, 2, 4);
    char why[256];
    json_t *root = rb_json_loader_root(l, why, sizeof why);
    CHECK(root && same_through_loader(l, root, whole), "a repeated name: not jansson's tree (%s)", why);
    json_decref(root);
    rb_json_loader_free(l);
    json_decref(whole);
    l = rb_json_loader_memory(bad, strlen(bad), "repeated.json");
    rb_json_loader_set_sizes(l, 2, 4);
    root = rb_json_loader_root(l, why, sizeof why);
    CHECK(!root && strstr(why, "not JSON"), "a control character under a replaced name was let through");
    json_decref(root);
    rb_json_loader_free(l);
}

static void finish(const law_settings *settings)
{
    (void)settings;
    check_repeated_names();
    printf("json_stream: %zu files streamed and built piecewise\n", files_streamed);
}

const law law_json_stream = {"json_stream", check_file, finish};
