/*
 * Writing a document (include/rebyte.h rb_doc_write, rb_doc_write_against): the format's
 * description run in the write direction, then the race-recording guard (core/doc/recording_guard.c) on
 * the bytes. Apart from doc.c so that the guard, which parses the original through doc.c, is a
 * layer above the document and not in a loop with it (tests/structure/symbol_cycles.py).
 */
#include <stdlib.h>
#include <string.h>
#include "core/doc/doc.h"
#include "core/error.h"
#include "core/options.h"
#include "core/doc/recording_guard.h"

/* The write both rb_doc_write and rb_doc_write_against do; `expected` may be NULL. */
static rb_status write_model(rb_doc *doc, const rb_write_options *options, const uint8_t *expected,
                                    size_t expected_size, int *identical, uint8_t **out, size_t *out_size,
                                    rb_error *err);

/* A write reads the model (several may run at once); its stream reports are kept under the
 * document's report lock (rb_doc_stream_report). */
static rb_status write_doc(rb_doc *doc, const rb_write_options *caller, const uint8_t *expected,
                           size_t expected_size, int *identical, uint8_t **out, size_t *out_size, rb_error *err)
{
    rb_write_options options;
    char why[200];
    if (rb_options_take(&options, sizeof options, caller, sizeof options, "rb_write_options", why, sizeof why)) {
        *out = NULL;
        *out_size = 0;
        rb_error_set(err, RB_E_USAGE, doc->file_name, NULL, "%s", why);
        return RB_E_USAGE;
    }
    /* the race-recording guard compares the recordings with another file's by their nodes: a parsed
     * document's deferred units may hold recordings, a build's never do (rb_ar_unit_write). A
     * document that is its own blob source (apply's) has no other original: its units still
     * deferred are its file's (core/doc/recording_guard.c rb_records_guard) */
    int parsed = doc->section_count && doc->sections[0].data;
    int other = doc->original || (doc->blob_source && doc->blob_source != doc);
    if (other && parsed &&
        rb_doc_refuse_deferred(doc, "a write against another original", err)) {
        *out = NULL;
        *out_size = 0;
        return RB_E_DEFERRED;
    }
    /* a deferred unit is written as its bytes: no expansion */
    return write_model(doc, &options, expected, expected_size, identical, out, out_size, err);
}

/* No write forges a race recording, whichever path made the model (core/doc/recording_guard.c). */
static rb_status guard_recordings(const rb_doc *doc, const uint8_t *out, size_t out_size, rb_error *err)
{
    rb_error why;
    if (rb_records_guard(doc, out, out_size, &why) == 0) return RB_OK;
    if (err) rb_error_copy(err, &why);
    return why.status;
}

static rb_status write_model(rb_doc *doc, const rb_write_options *options, const uint8_t *expected,
                                    size_t expected_size, int *identical, uint8_t **out, size_t *out_size,
                                    rb_error *err)
{
    *out = NULL;
    *out_size = 0;
    rb_ar *ar = rb_ar_new_write(doc, doc->root, options ? options->reencode : 0, options ? options->decoded : 0);
    if (ar && options) rb_ar_set_reencode_codec(ar, options->reencode_codec);
    if (!ar) { rb_error_set(err, RB_E_NOMEM, doc->file_name, NULL, "out of memory"); return RB_E_NOMEM; }
    if (expected) rb_buf_expect(rb_ar_output(ar), expected, expected_size);
    doc->format->describe(ar);
    int ok = rb_ar_finish(ar);
    if (!ok) {
        if (err) rb_error_copy(err, rb_ar_error(ar));
        rb_status st = rb_ar_error(ar)->status;
        rb_ar_free(ar);
        return st ? st : RB_E_MODEL;
    }
    if (identical) *identical = rb_buf_holds_expected(rb_ar_output(ar));
    if (identical && *identical) {
        *out_size = expected_size;
        rb_ar_free(ar);
        return guard_recordings(doc, expected, expected_size, err);
    }
    *out = rb_buf_take(rb_ar_output(ar), out_size);
    rb_ar_free(ar);
    if (!*out) return RB_E_NOMEM;
    /* the buffer's verdict is conservative: it leaves its compare mode at a byte put unlike the
     * expected one (or a patch of part of a placeholder) even when later patches make the bytes
     * equal; then the bytes decide */
    rb_status guarded = guard_recordings(doc, *out, *out_size, err);
    if (guarded != RB_OK) {
        free(*out);
        *out = NULL;
        *out_size = 0;
        return guarded;
    }
    if (identical && *out_size == expected_size && memcmp(*out, expected, expected_size) == 0) {
        *identical = 1;
        free(*out);
        *out = NULL;
    }
    return RB_OK;
}

rb_status rb_doc_write(rb_doc *doc, const rb_write_options *options, uint8_t **out, size_t *out_size, rb_error *err)
{
    return write_doc(doc, options, NULL, 0, NULL, out, out_size, err);
}

rb_status rb_doc_write_against(rb_doc *doc, const rb_write_options *options, const uint8_t *expected,
                               size_t expected_size, int *identical, uint8_t **out, size_t *out_size,
                               rb_error *err)
{
    *identical = 0;
    if (!expected) expected_size = 0;
    static const uint8_t nothing[1];
    return write_doc(doc, options, expected ? expected : nothing, expected_size, identical, out, out_size, err);
}
