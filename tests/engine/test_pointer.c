/*
 * The one pointer module (core/model/pointer.c) and the places that read pointers through it: the C
 * API (rb_node_at) and the JSON Patch engine (rb_json_pointer_get) accept and refuse the same
 * pointers, escapes are decoded in one pass and never accepted loosely, indexes have one
 * spelling, and tokens have no length limit.
 */
#include <string.h>
#include "tests/test_util.h"
#include "rebyte.h"
#include "core/doc/doc.h"
#include "core/json/json.h"
#include "core/model/pointer.h"
#include "patch/jsonpatch.h"

static int decodes_to(const char *raw, const char *want, size_t want_length)
{
    char out[64];
    size_t length;
    return rb_pointer_decode(raw, strlen(raw), out, &length) == 0 && length == want_length &&
           memcmp(out, want, length) == 0;
}

static void escapes(void)
{
    CHECK(decodes_to("a~1b", "a/b", 3), "~1 is '/'\n");
    CHECK(decodes_to("~01", "~1", 2), "one pass: ~01 is ~1, not /\n");
    CHECK(decodes_to("~0~1", "~/", 2), "~0~1\n");
    size_t length;
    char out[16];
    CHECK(rb_pointer_decode("a~2", 3, out, &length) != 0, "~2 is refused\n");
    CHECK(rb_pointer_decode("a~", 2, out, &length) != 0, "a lone ~ is refused\n");
    const char *plain = "x/y~z";
    char escaped[16];
    CHECK(rb_pointer_escape(plain, strlen(plain), escaped) == 7 && strcmp(escaped, "x~1y~0z") == 0,
          "escape: %s\n", escaped);
    CHECK(decodes_to(escaped, plain, strlen(plain)), "escape then decode gives the text back\n");
}

static void indexes(void)
{
    size_t i;
    CHECK(rb_pointer_index("0", 1, &i) == 0 && i == 0, "0\n");
    CHECK(rb_pointer_index("17", 2, &i) == 0 && i == 17, "17\n");
    CHECK(rb_pointer_index("01", 2, &i) != 0, "01 is no index\n");
    CHECK(rb_pointer_index("+1", 2, &i) != 0, "+1 is no index\n");
    CHECK(rb_pointer_index("1e0", 3, &i) != 0, "1e0 is no index\n");
    CHECK(rb_pointer_index("", 0, &i) != 0, "empty is no index\n");
    CHECK(rb_pointer_index("99999999999999999999999", 23, &i) == 0 && i == SIZE_MAX, "huge saturates\n");
}

static void walks(void)
{
    rb_pointer_walk w;
    const char *raw;
    size_t n;
    const char *p = "/a/[k/x=1]/b";
    CHECK(rb_pointer_walk_begin(&w, p, strlen(p), 1) == 0, "begin\n");
    CHECK(rb_pointer_next(&w, &raw, &n) == 1 && n == 1 && raw[0] == 'a', "first token\n");
    CHECK(rb_pointer_next(&w, &raw, &n) == 1 && n == 7 && memcmp(raw, "[k/x=1]", 7) == 0, "a selector is one token\n");
    CHECK(rb_pointer_next(&w, &raw, &n) == 1 && n == 1 && rb_pointer_at_end(&w), "last token\n");
    CHECK(rb_pointer_next(&w, &raw, &n) == 0, "end\n");
    CHECK(rb_pointer_walk_begin(&w, p, strlen(p), 0) == 0 && rb_pointer_next(&w, &raw, &n) == 1 &&
              rb_pointer_next(&w, &raw, &n) == 1 && n == 2,
          "without selectors '[' is an ordinary character\n");
    CHECK(rb_pointer_walk_begin(&w, "a/b", 3, 0) != 0, "a pointer starts with '/'\n");
    p = "/[id=1]x";
    CHECK(rb_pointer_walk_begin(&w, p, strlen(p), 1) == 0 && rb_pointer_next(&w, &raw, &n) == 1 &&
              rb_pointer_next(&w, &raw, &n) < 0,
          "a token running on after its selector is refused\n");
}

/* The C API and the JSON engine agree on every pointer into the sample map. */
static void api_on_sample(const char *sample)
{
    size_t size;
    uint8_t *data = test_read_file(sample, &size);
    rb_error err;
    rb_doc *doc = data ? rb_doc_parse(data, size, &(rb_read_options){.file_name = sample}, &err) : NULL;
    CHECK(doc != NULL, "sample %s does not parse\n", sample);
    if (!doc) { free(data); return; }
    rb_node *root = rb_doc_root(doc);
    json_t *model = rb_model_to_json(doc, root, RB_BLOBS_REF);
    static const char *const pointers[] = {"/body/chunks/0", "/body/chunks/00", "/body/chunks/+0", "/body/chunks/0~",
                                           "/body/chunks/0~2", "/body/chunks/-", "/version", "version", "",
                                           "/body/chunks/1e0", "/headerChunks/0/id"};
    for (size_t i = 0; i < sizeof pointers / sizeof *pointers; i++) {
        int by_api = rb_node_at(root, pointers[i]) != NULL;
        int by_json = rb_json_pointer_get(model, pointers[i], NULL, 0) != NULL;
        CHECK(by_api == by_json, "%s: rb_node_at %s, the JSON engine %s\n", pointers[i], by_api ? "finds it" : "does not",
              by_json ? "does" : "does not");
    }
    json_decref(model);
    rb_doc_free(doc);
    free(data);
}

int main(int argc, char **argv)
{
    escapes();
    indexes();
    walks();
    if (argc > 1) api_on_sample(argv[1]);
    printf("%s\n", test_failures ? "FAILED" : "pointer module: ok");
    return test_failures ? 1 : 0;
}
