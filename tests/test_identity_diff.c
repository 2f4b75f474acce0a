/*
 * The differs on synthetic JSON: rb_json_diff (lists matched by identity, moves) and
 * rb_identity_diff (selectors, "test" pins), with the pieces they stand on: the batch
 * rb_identity_selectors against rb_identity_selector element by element, rb_values_equal against
 * a copy stripped of its storage annotations, and rb_apply_stack (in place, selectors resolved
 * through indexes, conflicts found in sorted paths) against the selector engine.
 *
 * Lists of thousands of elements: reordered, with insertions, removals, duplicate keys (then
 * addressed by index); the patch each differ gives must turn A into B, and small cases must give
 * exactly the expected operations. No timings: the lists are sized so a quadratic differ would
 * still pass, but slowly.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "test_util.h"
#include "core/json.h"
#include "patch/jsondiff.h"
#include "patch/jsonpatch.h"
#include "patch/portable.h"
#include "patch/selector.h"

static unsigned long long rng_state = 88172645463325252ULL;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, JSON_DECODE_ANY, &e);
    if (!j) fprintf(stderr, "bad JSON in the test: %s: %s\n", text, e.text);
    return j;
}

static char *compact(const json_t *j) { return json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER); }

/* rb_json_diff of two texts is exactly `expected` (compact JSON). */
static void expect_diff(const char *a, const char *b, const char *expected)
{
    json_t *ja = parse(a), *jb = parse(b), *ops = json_array(), *want = parse(expected);
    rb_json_diff(ja, jb, ops, "");
    char *got = compact(ops), *w = compact(want);
    CHECK(got && w && strcmp(got, w) == 0, "diff %s -> %s\n  gives %s\n  wanted %s", a, b, got, w);
    char why[600];
    json_t *doc = json_deep_copy(ja);
    CHECK(rb_json_patch_apply(&doc, ops, why, sizeof why) == 0 && rb_json_equal(doc, jb), "diff %s -> %s applies", a, b);
    free(got);
    free(w);
    json_decref(doc);
    json_decref(ja);
    json_decref(jb);
    json_decref(ops);
    json_decref(want);
}

static int apply_identity(json_t *a, const json_t *ops, json_t **result, char *why, size_t why_size)
{
    const char *name = "identity";
    *result = json_deep_copy(a);
    return rb_apply_stack(result, &ops, &name, 1, RB_CONFLICT_STOP, NULL, NULL, why, why_size);
}

/* rb_identity_diff of two texts is exactly `expected`, and turns A into B. */
static void expect_identity(const char *a, const char *b, const char *expected)
{
    json_t *ja = parse(a), *jb = parse(b), *want = parse(expected);
    json_t *ops = rb_identity_diff(ja, jb), *doc;
    char *got = compact(ops), *w = compact(want), why[1400] = "";
    CHECK(got && w && strcmp(got, w) == 0, "identity diff %s -> %s\n  gives %s\n  wanted %s", a, b, got, w);
    CHECK(apply_identity(ja, ops, &doc, why, sizeof why) == 0 && rb_values_equal(doc, jb), "identity %s -> %s applies: %s",
          a, b, why);
    free(got);
    free(w);
    json_decref(doc);
    json_decref(ja);
    json_decref(jb);
    json_decref(ops);
    json_decref(want);
}

static void small_cases(void)
{
    /* re-sorted: one move, then the change inside, addressed where the element now is */
    expect_diff("[{\"id\":1},{\"id\":2},{\"id\":3}]", "[{\"id\":3},{\"id\":1},{\"id\":2,\"x\":1}]",
                "[{\"op\":\"move\",\"from\":\"/2\",\"path\":\"/0\"},{\"op\":\"add\",\"path\":\"/2/x\",\"value\":1}]");
    /* removed from the end first, then moved into B's order, then added */
    expect_diff("[\"a\",\"b\",\"c\"]", "[\"c\",\"d\",\"a\"]",
                "[{\"op\":\"remove\",\"path\":\"/1\"},{\"op\":\"move\",\"from\":\"/1\",\"path\":\"/0\"},"
                "{\"op\":\"add\",\"path\":\"/1\",\"value\":\"d\"}]");
    expect_diff("[\"a\",\"b\",\"c\",\"d\"]", "[\"d\",\"c\",\"b\",\"a\"]",
                "[{\"op\":\"move\",\"from\":\"/3\",\"path\":\"/0\"},{\"op\":\"move\",\"from\":\"/3\",\"path\":\"/1\"},"
                "{\"op\":\"move\",\"from\":\"/3\",\"path\":\"/2\"}]");
    /* a key shared by two elements: by position */
    expect_diff("[{\"id\":1,\"v\":1},{\"id\":1,\"v\":2}]", "[{\"id\":1,\"v\":2},{\"id\":1,\"v\":1}]",
                "[{\"op\":\"replace\",\"path\":\"/0/v\",\"value\":2},{\"op\":\"replace\",\"path\":\"/1/v\",\"value\":1}]");
    /* integer 1 and real 1.0 are one key (RFC 6902 equality): by position */
    expect_diff("[{\"id\":1,\"v\":1},{\"id\":1.0,\"v\":2}]", "[{\"id\":1,\"v\":3},{\"id\":1.0,\"v\":2}]",
                "[{\"op\":\"replace\",\"path\":\"/0/v\",\"value\":3}]");
    /* numbers are not identities: by position, removed from the end, appended */
    expect_diff("[1,2,3]", "[1,5]", "[{\"op\":\"replace\",\"path\":\"/1\",\"value\":5},{\"op\":\"remove\",\"path\":\"/2\"}]");
    expect_diff("{\"a\":[1],\"b\":2}", "{\"a\":[1,2],\"c\":3}",
                "[{\"op\":\"add\",\"path\":\"/a/-\",\"value\":2},{\"op\":\"remove\",\"path\":\"/b\"},"
                "{\"op\":\"add\",\"path\":\"/c\",\"value\":3}]");

    expect_identity("{\"list\":[{\"id\":\"x\",\"v\":1},{\"id\":\"y\",\"v\":2}]}",
                    "{\"list\":[{\"id\":\"x\",\"v\":1},{\"id\":\"y\",\"v\":3}]}",
                    "[{\"op\":\"test\",\"path\":\"/list/[id=y]/v\",\"value\":2},"
                    "{\"op\":\"replace\",\"path\":\"/list/[id=y]/v\",\"value\":3}]");
    /* ids shared: the name singles the element out; nothing unique: its index */
    expect_identity("[{\"id\":1,\"name\":\"a\",\"v\":1},{\"id\":1,\"name\":\"b\",\"v\":2},{\"id\":2,\"v\":0}]",
                    "[{\"id\":1,\"name\":\"a\",\"v\":1},{\"id\":1,\"name\":\"b\",\"v\":5},{\"id\":2,\"v\":1}]",
                    "[{\"op\":\"test\",\"path\":\"/[name=b]/v\",\"value\":2},{\"op\":\"replace\",\"path\":\"/[name=b]/v\",\"value\":5},"
                    "{\"op\":\"test\",\"path\":\"/[id=2]/v\",\"value\":0},{\"op\":\"replace\",\"path\":\"/[id=2]/v\",\"value\":1}]");
    expect_identity("[{\"id\":1,\"v\":1},{\"id\":1,\"v\":2}]", "[{\"id\":1,\"v\":1},{\"id\":1,\"v\":3}]",
                    "[{\"op\":\"test\",\"path\":\"/1/v\",\"value\":2},{\"op\":\"replace\",\"path\":\"/1/v\",\"value\":3}]");
    /* removals by identity from the end; additions before the element that follows them */
    expect_identity("[\"a\",\"b\",\"c\",\"d\"]", "[\"a\",\"d\"]",
                    "[{\"op\":\"remove\",\"path\":\"/[=c]\"},{\"op\":\"remove\",\"path\":\"/[=b]\"}]");
    expect_identity("[\"a\",\"d\"]", "[\"a\",\"b\",\"c\",\"d\"]",
                    "[{\"op\":\"add\",\"path\":\"/[=d]\",\"value\":\"b\"},{\"op\":\"add\",\"path\":\"/[=d]\",\"value\":\"c\"}]");
    expect_identity("[\"a\"]", "[\"a\",\"b\"]", "[{\"op\":\"add\",\"path\":\"/-\",\"value\":\"b\"}]");
    /* blocks by name and coordinates */
    expect_identity("{\"blocks\":[{\"name\":\"Road\",\"coord\":[1,2,3],\"dir\":0},{\"name\":\"Road\",\"coord\":[1,2,4],\"dir\":0}]}",
                    "{\"blocks\":[{\"name\":\"Road\",\"coord\":[1,2,3],\"dir\":0},{\"name\":\"Road\",\"coord\":[1,2,4],\"dir\":2}]}",
                    "[{\"op\":\"test\",\"path\":\"/blocks/[name=Road,coord/0=1,coord/1=2,coord/2=4]/dir\",\"value\":0},"
                    "{\"op\":\"replace\",\"path\":\"/blocks/[name=Road,coord/0=1,coord/1=2,coord/2=4]/dir\",\"value\":2}]");
}

/* An element of a big list: a unique id (or a shared one when `dup`), a name, a nested list. */
static json_t *element(unsigned id, unsigned version)
{
    char name[32];
    snprintf(name, sizeof name, "n%u/%u", id, id % 7);
    return json_pack("{s:I,s:s,s:{s:i,s:[s,s]}}", "id", (json_int_t)id, "name", name, "body", "v", (int)version, "tags",
                     "t", id % 3 ? "u" : "w");
}

static json_t *wrap(json_t *list) { return json_pack("{s:o,s:i}", "list", list, "rest", 1); }

/* Both differs turn A into B (the identity differ is not asked to re-sort: see below). */
static void check_pair(const char *what, json_t *a, json_t *b, int identity_too)
{
    json_t *ops = json_array();
    rb_json_diff(a, b, ops, "");
    json_t *doc = json_deep_copy(a);
    char why[1400] = "";
    CHECK(rb_json_patch_apply(&doc, ops, why, sizeof why) == 0 && rb_json_equal(doc, b), "%s: rb_json_diff applies: %s", what, why);
    json_decref(doc);
    json_decref(ops);
    if (!identity_too) return;
    ops = rb_identity_diff(a, b);
    CHECK(apply_identity(a, ops, &doc, why, sizeof why) == 0 && rb_values_equal(doc, b), "%s: identity diff applies: %s", what, why);
    json_decref(doc);
    json_decref(ops);
}

static size_t count_ops(const json_t *ops, const char *kind)
{
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(ops); i++)
        n += strcmp(json_string_value(json_object_get(json_array_get(ops, i), "op")), kind) == 0;
    return n;
}

static void big_lists(void)
{
    enum { N = 4000 };
    json_t *base = json_array();
    for (unsigned i = 0; i < N; i++) json_array_append_new(base, element(i, 0));
    json_t *a = wrap(json_deep_copy(base));

    /* re-sorted (a shuffle) with some elements changed inside: n moves at most, and no
     * element is added or removed */
    json_t *shuffled = json_deep_copy(base);
    for (size_t i = N - 1; i > 0; i--) {
        size_t j = rnd((unsigned)i + 1);
        json_t *x = json_incref(json_array_get(shuffled, i));
        json_array_set(shuffled, i, json_array_get(shuffled, j));
        json_array_set_new(shuffled, j, x);
    }
    for (size_t i = 0; i < N; i += 97) json_object_set_new(json_object_get(json_array_get(shuffled, i), "body"), "v", json_integer(1));
    json_t *b = wrap(shuffled);
    json_t *ops = json_array();
    rb_json_diff(a, b, ops, "");
    CHECK(count_ops(ops, "move") < N && count_ops(ops, "add") == 0 && count_ops(ops, "remove") == 0,
          "a re-sort is moves: %zu ops", json_array_size(ops));
    json_decref(ops);
    check_pair("re-sorted", a, b, 0);
    json_decref(b);

    /* insertions and removals spread over the list, and changes inside kept elements */
    json_t *edited = json_array();
    size_t inserted = 0;
    for (unsigned i = 0; i < N; i++) {
        if (i % 7 == 0) { json_array_append_new(edited, element(N + i, 0)); inserted++; } /* inserted */
        if (i % 5 == 3) continue; /* removed */
        json_array_append_new(edited, element(i, i % 11 == 0));
    }
    b = wrap(edited);
    check_pair("inserted and removed", a, b, 1);
    ops = json_array();
    rb_json_diff(a, b, ops, "");
    CHECK(count_ops(ops, "remove") == N / 5 && count_ops(ops, "add") == inserted && count_ops(ops, "move") == 0,
          "matched by identity: %zu removals, %zu additions", count_ops(ops, "remove"), count_ops(ops, "add"));
    json_decref(ops);
    json_decref(b);

    /* same length, every element changed inside: each addressed by its id */
    json_t *changed = json_array();
    for (unsigned i = 0; i < N; i++) json_array_append_new(changed, element(i, 2));
    b = wrap(changed);
    check_pair("changed inside", a, b, 1);
    json_t *iops = rb_identity_diff(a, b);
    const char *path = json_string_value(json_object_get(json_array_get(iops, 0), "path"));
    CHECK(path && strncmp(path, "/list/[id=0]/", 13) == 0, "addressed by id: %s", path ? path : "?");
    json_decref(iops);
    json_decref(b);

    /* appended and cut at the end; a block in the middle removed; one in the middle inserted */
    json_t *grown = json_deep_copy(base), *cut = json_array(), *gap = json_array(), *filled = json_deep_copy(base);
    for (unsigned i = 0; i < 500; i++) json_array_append_new(grown, element(N + i, 0));
    for (unsigned i = 0; i < N / 2; i++) json_array_append_new(cut, element(i, 0));
    for (unsigned i = 0; i < N; i++)
        if (i < 1000 || i >= 1500) json_array_append_new(gap, element(i, 0));
    for (unsigned i = 0; i < 300; i++) json_array_insert_new(filled, 2000, element(2 * N + i, 0));
    json_t *cases[][2] = {{a, wrap(grown)}, {a, wrap(cut)}, {a, wrap(gap)}, {a, wrap(filled)}};
    const char *names[] = {"appended", "cut", "block removed", "block inserted"};
    for (int c = 0; c < 4; c++) {
        check_pair(names[c], cases[c][0], cases[c][1], 1);
        check_pair(names[c], cases[c][1], cases[c][0], 1); /* and back */
        json_decref(cases[c][1]);
    }

    /* duplicate keys: one id twice makes the whole list positional for rb_json_diff */
    json_t *dup_a = json_deep_copy(base), *dup_b;
    json_object_set_new(json_array_get(dup_a, 10), "id", json_integer(11));
    json_object_set_new(json_array_get(dup_a, 10), "name", json_string("n11/4"));
    dup_b = json_deep_copy(dup_a);
    json_array_remove(dup_b, 3000);
    json_t *da = wrap(dup_a), *db = wrap(dup_b);
    ops = json_array();
    rb_json_diff(da, db, ops, "");
    json_t *last = json_array_get(ops, json_array_size(ops) - 1);
    CHECK(count_ops(ops, "move") == 0 && strcmp(json_string_value(json_object_get(last, "op")), "remove") == 0 &&
              strcmp(json_string_value(json_object_get(last, "path")), "/list/3999") == 0 &&
              strcmp(json_string_value(json_object_get(json_array_get(ops, 0), "path")), "/list/3000/id") == 0,
          "duplicates: by position (%zu ops)", json_array_size(ops));
    json_decref(ops);
    check_pair("duplicate keys", da, db, 1);
    json_decref(da);
    json_decref(db);

    json_decref(a);
    json_decref(base);
}

/* A random list whose elements share keys, miss them, spell one number two ways, ... */
static json_t *random_list(unsigned n)
{
    json_t *list = json_array();
    for (unsigned i = 0; i < n; i++) {
        json_t *e;
        switch (rnd(6)) {
        case 0: e = json_integer(rnd(8)); break;
        case 1: e = json_real(rnd(8)); break;
        case 2: {
            char s[8];
            snprintf(s, sizeof s, "s%u", rnd(12));
            e = json_string(s);
            break;
        }
        default:
            e = json_object();
            if (rnd(3)) json_object_set_new(e, "id", rnd(2) ? json_integer(rnd(n)) : json_real(rnd(n)));
            if (rnd(2)) {
                char s[16];
                snprintf(s, sizeof s, "nm,%u]/~", rnd(n / 2 + 1));
                json_object_set_new(e, "name", json_string(s));
                json_object_set_new(e, "coord", json_pack("[i,i,i]", (int)rnd(2), (int)rnd(2), (int)rnd(3)));
            }
            if (!rnd(4)) json_object_set_new(e, "handle", json_pack("{s:i}", "h", (int)rnd(3)));
            if (!rnd(4)) json_object_set_new(e, "instanceId", json_integer(rnd(4)));
        }
        json_array_append_new(list, e);
    }
    return list;
}

static void selectors_batch(void)
{
    for (int round = 0; round < 300; round++) {
        json_t *list = random_list(1 + rnd(round < 250 ? 40 : 400));
        size_t n = json_array_size(list), first = rnd((unsigned)n), count = rnd((unsigned)(n - first) + 2);
        char **batch = rb_identity_selectors(list, first, count);
        size_t got = count > n - first ? n - first : count;
        CHECK(batch != NULL, "batch");
        for (size_t i = 0; batch && i < got; i++) {
            char one[1024];
            int named = rb_identity_selector(list, first + i, one, sizeof one);
            CHECK(named ? batch[i] && strcmp(batch[i], one) == 0 : !batch[i], "element %zu of %zu: %s vs %s",
                  first + i, n, batch[i] ? batch[i] : "(index)", named ? one : "(index)");
        }
        for (size_t i = 0; batch && i < got; i++) free(batch[i]);
        free(batch);
        json_decref(list);
    }
}

/* rb_values_equal as it was: copies stripped of their storage annotations, compared. */
static int values_equal_by_copy(const json_t *a, const json_t *b)
{
    json_t *wx = json_pack("[o]", json_deep_copy(a)), *wy = json_pack("[o]", json_deep_copy(b));
    rb_json_strip_storage(wx);
    rb_json_strip_storage(wy);
    int same = rb_json_equal(wx, wy);
    json_decref(wx);
    json_decref(wy);
    return same;
}

static json_t *random_annotated(int depth)
{
    unsigned k = rnd(depth > 0 ? 7 : 3);
    switch (k) {
    case 0: return rnd(2) ? json_integer(rnd(3)) : json_real(rnd(3));
    case 1: return json_string(rnd(2) ? "a" : "b");
    case 2: return rnd(2) ? json_null() : json_true();
    case 3: return json_pack("{s:o,s:i}", "$id", random_annotated(depth - 1), "flags", (int)rnd(2));
    case 4: {
        json_t *o = json_object();
        for (unsigned i = rnd(3); i > 0; i--) json_object_set_new(o, rnd(2) ? "x" : "y", random_annotated(depth - 1));
        if (rnd(2)) json_object_set_new(o, "$stream", json_integer(rnd(2)));
        return o;
    }
    default: {
        json_t *l = json_array();
        for (unsigned i = rnd(3); i > 0; i--) json_array_append_new(l, random_annotated(depth - 1));
        return l;
    }
    }
}

static void values_equal(void)
{
    size_t equal = 0;
    for (int round = 0; round < 20000; round++) {
        json_t *a = random_annotated(3), *b = rnd(3) ? random_annotated(3) : json_deep_copy(a);
        if (rnd(2) && json_is_object(b)) json_object_set_new(b, "$stream", json_integer(7));
        int want = values_equal_by_copy(a, b);
        equal += want;
        CHECK(rb_values_equal(a, b) == want, "rb_values_equal %s %s", compact(a), compact(b));
        json_decref(a);
        json_decref(b);
    }
    CHECK(equal > 1000, "some equal pairs (%zu)", equal);
}

/* A random valid patch over a list of objects, made one operation at a time against the selector
 * engine (only the operations that apply are kept); rb_apply_stack must give what the engine
 * gives, through its indexes. */
static void stack_against_engine(void)
{
    for (int round = 0; round < 6; round++) {
        unsigned n = round < 3 ? 60 : 250;
        json_t *list = json_array();
        for (unsigned i = 0; i < n; i++) json_array_append_new(list, element(i, 0));
        json_t *start = wrap(list), *ref = json_deep_copy(start), *patch = json_array();
        for (int step = 0; step < (int)n * 2; step++) {
            char path[128], path2[64];
            unsigned id = rnd(n + n / 4), other = rnd(n + n / 4);
            snprintf(path2, sizeof path2, rnd(4) ? "/list/[id=%u]" : "/list/[name=n%u~1%u]", id, id % 7);
            json_t *op;
            switch (rnd(9)) {
            case 0: op = json_pack("{s:s,s:s}", "op", "remove", "path", path2); break;
            case 1:
                snprintf(path, sizeof path, "/list/%u", rnd(n));
                op = json_pack("{s:s,s:s,s:o}", "op", "add", "path", rnd(3) ? path2 : rnd(2) ? "/list/-" : path, "value",
                               element(other, 1));
                break;
            case 2: op = json_pack("{s:s,s:s,s:o}", "op", "replace", "path", path2, "value", element(other, 2)); break;
            case 3:
                snprintf(path, sizeof path, "%s/id", path2);
                op = json_pack("{s:s,s:s,s:i}", "op", "replace", "path", path, "value", (int)other); /* may duplicate */
                break;
            case 4:
                snprintf(path, sizeof path, "%s/body/tags/[=t]", path2);
                op = json_pack("{s:s,s:s,s:s}", "op", "replace", "path", path, "value", rnd(2) ? "t2" : "u");
                break;
            case 5:
                snprintf(path, sizeof path, "%s/body/v", path2);
                op = json_pack("{s:s,s:s,s:i}", "op", "test", "path", path, "value", (int)rnd(3));
                break;
            case 6:
                snprintf(path, sizeof path, "%s/body/tags/-", path2);
                op = json_pack("{s:s,s:s,s:s}", "op", "add", "path", path, "value", rnd(2) ? "t" : "w");
                break;
            case 7:
                snprintf(path, sizeof path, "/list/%u", rnd(n));
                op = json_pack("{s:s,s:s,s:s}", "op", "move", "from", path, "path", "/list/0"); /* the general path */
                break;
            default:
                snprintf(path, sizeof path, "%s/name", path2);
                op = json_pack("{s:s,s:s,s:s}", "op", "replace", "path", path, "value", rnd(2) ? "n1/1" : "n2/2");
            }
            json_t *one = json_pack("[O]", op);
            char why[1400];
            const char *kind = json_string_value(json_object_get(op, "op"));
            if (strcmp(kind, "test") == 0 ? rb_check_pins(ref, one, NULL) == 0
                                          : rb_json_patch_apply_selectors(&ref, one, NULL, why, sizeof why) == 0)
                json_array_append(patch, op);
            json_decref(one);
            json_decref(op);
        }
        json_t *doc;
        char why[1400] = "";
        CHECK(apply_identity(start, patch, &doc, why, sizeof why) == 0 && rb_json_equal(doc, ref),
              "round %d: the stack gives what the engine gives (%zu operations): %s", round, json_array_size(patch), why);
        json_decref(doc);
        /* a selector that names no element, or two, is refused by the stack as by the engine */
        json_array_append_new(patch, json_pack("{s:s,s:s}", "op", "remove", "path", "/list/[id=999999]"));
        CHECK(apply_identity(start, patch, &doc, why, sizeof why) != 0 && strstr(why, "matches 0 elements"),
              "refused: %s", why);
        json_decref(doc);
        json_decref(patch);
        json_decref(start);
        json_decref(ref);
    }
}

static void conflicts(void)
{
    json_t *doc = parse("{\"a\":{\"b\":{\"c\":1},\"bb\":2},\"x\":[1,2,3,4,5,6,7,8,9,10,11,12]}");
    struct {
        const char *first, *second;
        const char *message; /* NULL: no conflict */
    } cases[] = {
        {"[{\"op\":\"replace\",\"path\":\"/a/b/c\",\"value\":2}]", "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":0}]",
         "p1 and p2 both change /a"},
        {"[{\"op\":\"replace\",\"path\":\"/a\",\"value\":{\"b\":{\"c\":5}}}]",
         "[{\"op\":\"replace\",\"path\":\"/a/b/c\",\"value\":0}]", "p1 and p2 both change /a/b/c"},
        {"[{\"op\":\"replace\",\"path\":\"/a/b/c\",\"value\":2}]", "[{\"op\":\"replace\",\"path\":\"/a/bb\",\"value\":0}]", NULL},
        {"[{\"op\":\"replace\",\"path\":\"/x/10\",\"value\":0}]", "[{\"op\":\"replace\",\"path\":\"/x/1\",\"value\":0}]", NULL},
        {"[{\"op\":\"replace\",\"path\":\"/x/1\",\"value\":0},{\"op\":\"replace\",\"path\":\"/x/1\",\"value\":3}]",
         "[{\"op\":\"replace\",\"path\":\"/x/2\",\"value\":0},{\"op\":\"remove\",\"path\":\"/x/1\"}]", "p1 and p2 both change /x/1"},
        {"[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"a\":1}}]", "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":0}]",
         "p1 and p2 both change /a"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        json_t *p1 = parse(cases[c].first), *p2 = parse(cases[c].second), *work = json_deep_copy(doc);
        const json_t *patches[] = {p1, p2};
        const char *names[] = {"p1", "p2"};
        char why[600] = "";
        int rc = rb_apply_stack(&work, patches, names, 2, RB_CONFLICT_STOP, NULL, NULL, why, sizeof why);
        if (cases[c].message)
            CHECK(rc != 0 && strncmp(why, cases[c].message, strlen(cases[c].message)) == 0, "case %zu: %s", c, why);
        else
            CHECK(rc == 0, "case %zu: no conflict: %s", c, why);
        json_decref(work);
        /* the first patch wins: the second's overlapping change is skipped */
        work = json_deep_copy(doc);
        rc = rb_apply_stack(&work, patches, names, 2, RB_CONFLICT_FIRST_WINS, NULL, NULL, why, sizeof why);
        CHECK(rc == 0, "case %zu first-wins: %s", c, why);
        json_decref(work);
        json_decref(p1);
        json_decref(p2);
    }
    /* three patches: the owner named is the first earlier patch that touched an overlapping path */
    json_t *p[3] = {parse("[{\"op\":\"replace\",\"path\":\"/a/bb\",\"value\":1}]"),
                    parse("[{\"op\":\"replace\",\"path\":\"/a/b/c\",\"value\":1}]"),
                    parse("[{\"op\":\"replace\",\"path\":\"/a\",\"value\":1}]")};
    const char *names[] = {"p1", "p2", "p3"};
    json_t *work = json_deep_copy(doc);
    char why[600] = "";
    CHECK(rb_apply_stack(&work, (const json_t *const *)p, names, 3, RB_CONFLICT_STOP, NULL, NULL, why, sizeof why) != 0 &&
              strncmp(why, "p1 and p3 both change /a", 24) == 0,
          "first owner: %s", why);
    json_decref(work);
    for (int i = 0; i < 3; i++) json_decref(p[i]);
    json_decref(doc);
}

int main(void)
{
    small_cases();
    selectors_batch();
    values_equal();
    big_lists();
    stack_against_engine();
    conflicts();
    if (test_failures) fprintf(stderr, "%d check(s) failed\n", test_failures);
    else printf("identity diff: all checks passed\n");
    return test_failures ? 1 : 0;
}
