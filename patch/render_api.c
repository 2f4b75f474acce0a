/*
 * The public render (include/rebyte.h rb_doc_render, docs/render.md): core/render draws; a diff's
 * other side (the file given, or the document with a patch applied) and the plain operations
 * that lead there are worked out here, above the patch engine they need, and handed down as data.
 */
#include <stdlib.h>
#include <string.h>
#include "core/doc/doc.h"
#include "core/error.h"
#include "core/render/render.h"

/* The two sides of `o`'s diff: `*made` the document with o->diff_patch applied (NULL for a diff
 * to o->diff_to), `*ops` the plain operations from `doc` to the other side. */
static rb_status diff_sides(const rb_doc *doc, const rb_render_options *o, rb_doc **made, json_t **ops, rb_error *err)
{
    const uint8_t *bytes = doc->section_count ? doc->sections[0].data : NULL;
    size_t size = doc->section_count ? doc->sections[0].size : 0;
    rb_apply_result applied = RB_APPLY_RESULT_INIT;
    const rb_doc *other = o->diff_to;
    rb_status st = RB_OK;
    if (!bytes) {
        rb_error_set(err, RB_E_USAGE, doc->file_name, NULL, "render --diff: the document was not read from a file");
        return RB_E_USAGE;
    }
    if (o->diff_patch) {
        const rb_patch *patches[] = {o->diff_patch};
        st = rb_apply(bytes, size, doc->file_name, patches, 1, NULL, &applied, err);
        if (st == RB_OK) {
            rb_read_options read = RB_READ_OPTIONS_INIT;
            read.file_name = doc->file_name;
            *made = rb_doc_parse(applied.bytes, applied.bytes_size, &read, err);
            if (!*made) st = err ? err->status : RB_E_FORMAT;
            other = *made;
        }
    }
    char *text = NULL;
    size_t count = 0;
    if (st == RB_OK) st = rb_doc_diff(doc, bytes, size, other, RB_DIFF_PLAIN, &text, &count, err);
    if (st == RB_OK && !(*ops = json_loads(text, 0, NULL))) {
        st = RB_E_NOMEM;
        rb_error_set(err, st, doc->file_name, NULL, "out of memory while reading the diff");
    }
    rb_free(text);
    rb_apply_result_free(&applied);
    return st;
}

rb_status rb_doc_render(rb_doc *doc, const rb_render_options *options, uint8_t **png, size_t *png_size,
                        char **report_json, rb_error *err)
{
    rb_error_clear(err);
    if (!png || !png_size || !doc) return RB_E_USAGE;
    *png = NULL;
    *png_size = 0;
    if (report_json) *report_json = NULL;
    rb_render_options o;
    rb_status st = rb_render_start(doc, options, &o, err);
    if (st != RB_OK) return st;
    if (!o.diff_to && !o.diff_patch) return rb_render_draw(doc, &o, NULL, png, png_size, report_json, err);
    rb_doc *made = NULL;
    json_t *ops = NULL;
    st = diff_sides(doc, &o, &made, &ops, err);
    rb_render_diff diff = {made ? made : o.diff_to, ops};
    if (st == RB_OK) st = rb_render_draw(doc, &o, &diff, png, png_size, report_json, err);
    json_decref(ops);
    rb_doc_free(made);
    return st;
}
