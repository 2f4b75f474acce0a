/*
 * How diff matches list elements, on streamer maps the test builds (thousands of objects in one
 * group): one element moved is one `move`, k removed are k `remove`s, k inserted k `add`s, one
 * value changed one `replace`, a shuffle is moves only, and a list of identical elements with one
 * removed is one `remove`. Every diff, plain and by identity, must give B's bytes when applied to
 * A (the law of tests/patch/test_diff_law.c), and the operations are counted exactly. No timings: the
 * lists are sized so that a quadratic matcher would still pass, but slowly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "tests/test_util.h"
#include "rebyte.h"

enum { N = 3000 };

static unsigned long long rng = 0x2028ULL;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* Object k: its own model and place, or the same for every k when `same`. */
static json_t *object(unsigned k, int same)
{
    unsigned v = same ? 7 : k;
    return json_pack("{s:s,s:i,s:f,s:f,s:f,s:f,s:f,s:f}", "id", "_Obj", "modelId", 1000 + (int)v, "x", v * 2.0, "y",
                     v * 0.5, "z", 10.0, "rotX", 0.0, "rotY", 0.0, "rotZ", (double)(v % 360));
}

/* A streamer map of the objects, as bytes (the project's writer makes them). */
static uint8_t *build(json_t *objects, size_t *size)
{
    json_t *chunks = json_array();
    json_array_append_new(chunks, json_pack("{s:s,s:s}", "id", "GrpH", "data", "objects"));
    json_array_extend(chunks, objects);
    json_t *model = json_pack("{s:s,s:[{s:o}],s:{s:s}}", "$format", "streamer", "groups", "chunks", chunks, "eof", "id", "_EOF");
    char *text = json_dumps(model, JSON_COMPACT | JSON_PRESERVE_ORDER);
    rb_error err;
    rb_doc *doc = rb_doc_build(text, strlen(text), "objects.json", NULL, &err);
    uint8_t *bytes = NULL;
    CHECK(doc && rb_doc_write(doc, NULL, &bytes, size, &err) == RB_OK, "building the map: %s", err.message);
    rb_doc_free(doc);
    free(text);
    json_decref(model);
    return bytes;
}

static size_t count_kind(const json_t *ops, const char *kind)
{
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(ops); i++)
        n += strcmp(json_string_value(json_object_get(json_array_get(ops, i), "op")), kind) == 0;
    return n;
}

/* The diff of A and B (plain: `plain_ops` when it holds), and the law, plain and by identity. */
static json_t *check(const char *what, json_t *a_objects, json_t *b_objects)
{
    size_t na = 0, nb = 0;
    uint8_t *a = build(a_objects, &na), *b = build(b_objects, &nb);
    json_t *plain = NULL;
    rb_error err;
    rb_doc *da = a ? rb_doc_parse(a, na, NULL, &err) : NULL, *db = b ? rb_doc_parse(b, nb, NULL, &err) : NULL;
    for (unsigned flags = RB_DIFF_PLAIN; da && db && flags <= (RB_DIFF_PLAIN | RB_DIFF_BY_IDENTITY); flags++) {
        char *text = NULL;
        size_t count = 0;
        CHECK(rb_doc_diff(da, a, na, db, flags, &text, &count, &err) == RB_OK, "%s: diff: %s", what, err.message);
        rb_patch *patch = text ? rb_patch_parse(text, strlen(text), what, &err) : NULL;
        const rb_patch *const patches[1] = {patch};
        rb_apply_result r = RB_APPLY_RESULT_INIT;
        int applied = patch && rb_apply(a, na, what, patches, 1, NULL, &r, &err) == RB_OK;
        CHECK(applied && r.bytes_size == nb && memcmp(r.bytes, b, nb) == 0, "%s%s: the diff does not give B back: %s", what,
              flags & RB_DIFF_BY_IDENTITY ? " (by identity)" : "", applied ? "other bytes" : err.message);
        if (!(flags & RB_DIFF_BY_IDENTITY)) plain = json_loads(text, 0, NULL);
        rb_apply_result_free(&r);
        rb_patch_free(patch);
        free(text);
    }
    rb_doc_free(da);
    rb_doc_free(db);
    free(a);
    free(b);
    json_decref(a_objects);
    json_decref(b_objects);
    return plain ? plain : json_array();
}

static json_t *objects(int same)
{
    json_t *list = json_array();
    for (unsigned k = 0; k < N; k++) json_array_append_new(list, object(k, same));
    return list;
}

int main(void)
{
    json_t *ops, *b;

    b = objects(0); /* one moved forward */
    json_t *moved = json_incref(json_array_get(b, 10));
    json_array_remove(b, 10);
    json_array_insert_new(b, 2500, moved);
    ops = check("one moved", objects(0), b);
    CHECK(json_array_size(ops) == 1 && count_kind(ops, "move") == 1, "one moved: %zu ops", json_array_size(ops));
    json_decref(ops);

    b = objects(0); /* three removed */
    json_array_remove(b, 2900);
    json_array_remove(b, 1500);
    json_array_remove(b, 3);
    ops = check("three removed", objects(0), b);
    CHECK(json_array_size(ops) == 3 && count_kind(ops, "remove") == 3, "three removed: %zu ops", json_array_size(ops));
    json_decref(ops);

    b = objects(0); /* two inserted */
    json_array_insert_new(b, 100, object(N + 1, 0));
    json_array_insert_new(b, 2000, object(N + 2, 0));
    ops = check("two inserted", objects(0), b);
    CHECK(json_array_size(ops) == 2 && count_kind(ops, "add") == 2, "two inserted: %zu ops", json_array_size(ops));
    json_decref(ops);

    b = objects(0); /* one value changed, one removed far away */
    json_object_set_new(json_array_get(b, 700), "z", json_real(12.5));
    json_array_remove(b, 2200);
    ops = check("changed and removed", objects(0), b);
    CHECK(json_array_size(ops) == 2 && count_kind(ops, "replace") == 1 && count_kind(ops, "remove") == 1,
          "changed and removed: %zu ops", json_array_size(ops));
    json_decref(ops);

    b = objects(0); /* shuffled: moves only, fewer than the elements */
    for (size_t i = N - 1; i > 0; i--) {
        size_t j = rnd((unsigned)i + 1);
        json_t *x = json_incref(json_array_get(b, i));
        json_array_set(b, i, json_array_get(b, j));
        json_array_set_new(b, j, x);
    }
    ops = check("shuffled", objects(0), b);
    CHECK(count_kind(ops, "move") == json_array_size(ops) && json_array_size(ops) < N, "shuffled: %zu ops, %zu moves",
          json_array_size(ops), count_kind(ops, "move"));
    json_decref(ops);

    b = objects(1); /* identical elements, one removed */
    json_array_remove(b, 1234);
    ops = check("identical, one removed", objects(1), b);
    CHECK(json_array_size(ops) == 1 && count_kind(ops, "remove") == 1, "identical, one removed: %zu ops",
          json_array_size(ops));
    json_decref(ops);

    if (test_failures) fprintf(stderr, "%d check(s) failed\n", test_failures);
    else printf("model diff: all checks passed\n");
    return test_failures ? 1 : 0;
}
