/*
 * The pieces portable patches stand on, on synthetic JSON: rb_values_equal against a copy
 * stripped of its storage annotations, and the stack on plain JSON that `rebyte json-patch` runs
 * (rb_json_patch_apply_extended: in place, selectors resolved through indexes, conflicts found in
 * sorted paths) against the selector engine. The differ itself works
 * on models and is tested by its law over real files (tests/patch/test_diff_law.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "tests/test_util.h"
#include "core/json/json.h"
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

/* A patch applied as the stack applies it, to a copy of `a`. */
static int apply_identity(json_t *a, const json_t *ops, json_t **result, char *why, size_t why_size)
{
    const char *name = "identity";
    *result = json_deep_copy(a);
    return rb_json_patch_apply_extended(result, &ops, &name, 1, RB_CONFLICTS_STOP, NULL, why, why_size);
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

/* Integral reals (the test's only reals) as integers, in place, so that jansson's json_equal
 * compares numbers by value as RFC 6902 4.6 does. */
static json_t *numbers_by_value(json_t *v)
{
    if (json_is_real(v)) {
        json_int_t i = (json_int_t)json_real_value(v);
        json_decref(v);
        return json_integer(i);
    }
    if (json_is_array(v))
        for (size_t i = 0; i < json_array_size(v); i++)
            json_array_set_new(v, i, numbers_by_value(json_incref(json_array_get(v, i))));
    const char *key;
    json_t *member;
    void *tmp;
    if (json_is_object(v))
        json_object_foreach_safe(v, tmp, key, member) json_object_set_new(v, key, numbers_by_value(json_incref(member)));
    return v;
}

static int values_equal_by_copy(const json_t *a, const json_t *b)
{
    json_t *wx = json_pack("[o]", json_deep_copy(a)), *wy = json_pack("[o]", json_deep_copy(b));
    rb_json_strip_storage(wx);
    rb_json_strip_storage(wy);
    wx = numbers_by_value(wx);
    wy = numbers_by_value(wy);
    int same = json_equal(wx, wy);
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
 * engine (only the operations that apply are kept); the stack must give what the engine
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
            json_t *trial = json_deep_copy(ref);
            if (rb_json_patch_apply_selectors_in_place(&trial, one, why, sizeof why) == 0) {
                json_array_append(patch, op);
                json_decref(ref);
                ref = trial;
            } else {
                json_decref(trial);
            }
            json_decref(one);
            json_decref(op);
        }
        json_t *doc;
        char why[1400] = "";
        CHECK(apply_identity(start, patch, &doc, why, sizeof why) == 0 && rb_values_equal(doc, ref),
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
        int rc = rb_json_patch_apply_extended(&work, patches, names, 2, RB_CONFLICTS_STOP, NULL, why, sizeof why);
        if (cases[c].message)
            CHECK(rc != 0 && strncmp(why, cases[c].message, strlen(cases[c].message)) == 0, "case %zu: %s", c, why);
        else
            CHECK(rc == 0, "case %zu: no conflict: %s", c, why);
        json_decref(work);
        /* the first patch wins: the second's overlapping change is skipped */
        work = json_deep_copy(doc);
        rc = rb_json_patch_apply_extended(&work, patches, names, 2, RB_CONFLICTS_FIRST_WINS, NULL, why, sizeof why);
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
    CHECK(rb_json_patch_apply_extended(&work, (const json_t *const *)p, names, 3, RB_CONFLICTS_STOP, NULL, why,
                                       sizeof why) != 0 &&
              strncmp(why, "p1 and p3 both change /a", 24) == 0,
          "first owner: %s", why);
    json_decref(work);
    for (int i = 0; i < 3; i++) json_decref(p[i]);
    json_decref(doc);
}

int main(void)
{
    values_equal();
    stack_against_engine();
    conflicts();
    if (test_failures) fprintf(stderr, "%d check(s) failed\n", test_failures);
    else printf("identity diff: all checks passed\n");
    return test_failures ? 1 : 0;
}
