/*
 * libFuzzer harness for one registered format (FUZZ_FORMAT, set per executable by CMake):
 * parse; when the parse succeeds, write, re-parse and require the round trip to be exact, and
 * require the write compared against the input (rb_doc_write_against) to call it identical.
 * Any crash, hang, leak, sanitizer finding or abort() here is a bug.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc.h"

#ifndef FUZZ_FORMAT
#error "FUZZ_FORMAT must name a registered format"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const rb_format *format = rb_format_by_name(FUZZ_FORMAT);
    if (!format) abort();
    rb_limits limits;
    rb_limits_default(&limits);
    limits.max_decompressed_size = 64u << 20; /* keep single inputs cheap */
    rb_read_options opt = {.file_name = "fuzz", .limits = &limits};
    rb_error err;
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
    rb_doc *again = rb_doc_parse_as(format, out, out_size, &opt, &err);
    if (!again) abort();
    rb_doc_free(again);
    free(out);
    rb_doc_free(doc);
    return 0;
}
