/*
 * libFuzzer harness for every registered reader: parse; when the parse succeeds, write, re-parse
 * and require the round trip to be exact, and require the write compared against the input
 * (rb_doc_write_against) to call it identical, and draw it (rb_doc_render: a picture, or a reason
 * why there is none). Every input, parsed or not, must read the same with
 * the deferred model (rb_read_options.defer) as in full: the same error, or the same coverage,
 * notes, bytes and model (deferred_agree.c). Any crash, hang, leak, sanitizer finding or
 * abort() here is a bug.
 *
 * The registry drives it: REBYTE_FUZZ_FORMAT=<name> (a name `rebyte formats` lists) fuzzes that
 * reader alone; without it each input goes to the format detection picks, so one run reaches every
 * reader. A format added to core/registry/registry.c is fuzzed with no change here (docs/reliability.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/doc.h"
#include "core/registry/registry.h"
#include "tests/fuzz/deferred_agree.h"
#include "tests/fuzz/fuzz_reader.h"

static const rb_format *forced_format;

int rb_fuzz_choose_format(const char *name)
{
    forced_format = NULL;
    if (!name || !*name) return 0;
    forced_format = rb_format_by_name(name);
    if (forced_format) return 0;
    size_t count = 0;
    const rb_format *const *formats = rb_formats(&count);
    fprintf(stderr, "REBYTE_FUZZ_FORMAT=%s is not a registered format; registered:", name);
    for (size_t i = 0; i < count; i++) fprintf(stderr, " %s", formats[i]->name);
    fprintf(stderr, "\n");
    return -1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (rb_fuzz_choose_format(getenv("REBYTE_FUZZ_FORMAT")) != 0) exit(64);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const rb_format *format = forced_format ? forced_format : rb_registry_detect(data, size);
    if (!format) return 0;
    rb_limits limits = RB_LIMITS_INIT;
    rb_limits_default(&limits);
    limits.max_decompressed_size = 64u << 20; /* keep single inputs cheap */
    rb_read_options opt = {.file_name = "fuzz", .limits = &limits};
    rb_error err;
    char why[2000];
    size_t units = 0;
    if (!rb_deferred_agrees(format, data, size, &limits, &units, why, sizeof why)) {
        fprintf(stderr, "deferred and full reads disagree: %s\n", why);
        abort();
    }
    rb_doc *doc = rb_doc_parse_as(format, data, size, &opt, &err);
    if (!doc) {
        if (!err.message[0]) abort(); /* every failure must say why */
        return 0;
    }
    uint8_t *out = NULL;
    size_t out_size = 0;
    if (rb_doc_write(doc, NULL, &out, &out_size, &err) != RB_OK) abort(); /* a parsed model must write */
    /* unchanged models write back the input itself */
    if (out_size != size || memcmp(out, data, size) != 0) abort();
    int identical = 0;
    uint8_t *differing = NULL;
    size_t differing_size = 0;
    if (rb_doc_write_against(doc, NULL, data, size, &identical, &differing, &differing_size, &err) != RB_OK ||
        !identical || differing)
        abort(); /* the compared write must agree with the plain one */
    rb_render_options render = RB_RENDER_OPTIONS_INIT;
    render.max_side = 256; /* the plan is the same at any size; a small picture keeps inputs cheap */
    uint8_t *png = NULL;
    size_t png_size = 0;
    char *report = NULL;
    rb_status drawn = rb_doc_render(doc, &render, &png, &png_size, &report, &err);
    if (drawn == RB_OK ? !png || !report : !err.message[0]) abort(); /* a picture, or why not */
    rb_free(png);
    rb_free(report);
    rb_doc *again = rb_doc_parse_as(format, out, out_size, &opt, &err);
    if (!again) abort();
    rb_doc_free(again);
    free(out);
    rb_doc_free(doc);
    return 0;
}
