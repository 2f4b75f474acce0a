/* The public diff (include/rebyte.h rb_doc_diff): two files checked to be comparable, their
 * models walked together (patch/model_diff.c), the operations pinned and put in the envelope. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "core/archive/codec.h"
#include "core/doc/doc.h"
#include "core/error.h"
#include "core/json/json.h"
#include "core/model/model_equal.h"
#include "patch/in_step.h"
#include "patch/diff_units.h"
#include "patch/model_diff.h"

/* What the file holds as its format names it (rb_format.summary's "class": a map, a replay),
 * malloc'd; NULL when the format names none. */
static char *class_of(const rb_doc *doc)
{
    json_t *summary = doc->format->summary ? doc->format->summary(doc) : NULL;
    const char *name = json_string_value(json_object_get(summary, "class"));
    char *out = name ? strdup(name) : NULL;
    json_decref(summary);
    return out;
}

/* Two files a diff can join: one format, and the same class of object in it (the diff of a map
 * and a replay would be the whole of both). */
static int diffable(const rb_doc *a, const rb_doc *b, rb_error *err)
{
    if (a->format != b->format) {
        rb_error_set(err, RB_E_USAGE, a->file_name, NULL, "%s is %s, %s is %s: diff needs two files of one format",
                     a->file_name, a->format->name, b->file_name, b->format->name);
        return 0;
    }
    char *class_a = class_of(a), *class_b = class_of(b);
    int same = !class_a || !class_b || strcmp(class_a, class_b) == 0;
    if (!same)
        rb_error_set(err, RB_E_USAGE, a->file_name, NULL,
                     "%s holds a %s, %s a %s: diff needs two files of one class", a->file_name, class_a,
                     b->file_name, class_b);
    free(class_a);
    free(class_b);
    return same;
}

/* ---------- can apply give B's bytes? ---------- */

static const rb_codec *codec_named(const char *name)
{
    static const rb_codec *const KNOWN[] = {&rb_codec_lzo1x, &rb_codec_zlib, &rb_codec_deflate};
    for (size_t i = 0; name && i < sizeof KNOWN / sizeof *KNOWN; i++)
        if (!strcmp(KNOWN[i]->name, name)) return KNOWN[i];
    return NULL;
}

/* Does A hold B's stream as it is (the same encoded bytes)? apply leaves a stream whose content
 * it does not change as its original bytes, wherever a move or a copy puts it. */
static int carried(const rb_doc *a, const rb_stream_info *s)
{
    for (size_t i = 0; i < a->stream_count; i++) {
        const rb_stream_info *as = a->streams[i]->stream;
        if (as && as->original && as->original_size == s->original_size &&
            memcmp(as->original, s->original, s->original_size) == 0)
            return 1;
    }
    return 0;
}

/* apply writes each of B's compressed streams that A does not hold as it is encoded anew
 * (docs/usage.md "Diffs": a stream's content is the model, its encoded bytes are derived): B's
 * bytes come out only when rebyte's encoder gives B's original bytes for that content. Another
 * encoder's stream (the older games' LZO, another zlib level) would come out as other bytes of
 * the same content: a diff that cannot give B's bytes is refused, naming the stream. 1 when
 * every stream comes out as B has it. */
static int streams_come_out(const rb_doc *a, const rb_doc *b, rb_error *err)
{
    for (size_t i = 0; i < b->stream_count; i++) {
        const rb_stream_info *s = b->streams[i]->stream;
        const rb_codec *codec = codec_named(s->codec);
        if (!s->original || !s->content || !codec || carried(a, s)) continue; /* nothing to check against */
        rb_buf again;
        rb_buf_init(&again);
        char why[200];
        int same = codec->encode(s->content, (size_t)s->content_size, &again, why, sizeof why) == 0 && !again.failed &&
                   again.size == s->original_size && memcmp(again.data, s->original, again.size) == 0;
        rb_buf_free(&again);
        if (same) continue;
        const char *key = b->streams[i]->key ? b->streams[i]->key : "a stream";
        const char *name = b->file_name[0] ? b->file_name : "B";
        rb_error_set(err, RB_E_MODEL, a->file_name, NULL,
                     "no patch can give %s's bytes: its %s stream (%s, %zu bytes) is not what rebyte's %s encoder "
                     "writes for its content (another encoder or level wrote it), and apply writes a changed stream "
                     "encoded anew: the patch would give %s's model with that stream in other bytes",
                     name, key, s->codec, s->original_size, s->codec, name);
        return 0;
    }
    return 1;
}

/* `full` is A's model (`a` itself, a full read of a deferred `a`, or its copy paired by units with
 * `b`'s: rb_diff_unit_models); `own`: `full` when the diff may change it (rb_model_diff_docs). */
static rb_status diff_models(const rb_doc *a, const rb_doc *full, rb_doc *own, const uint8_t *a_bytes, size_t a_size,
                             const rb_doc *b, unsigned flags, char **patch_json, size_t *operation_count,
                             rb_error *err)
{
    *patch_json = NULL;
    *operation_count = 0;
    if (!diffable(full, b, err)) return RB_E_USAGE;
    json_t *ops, *pinned = NULL; /* pinned: as the settling replayed the patch, when it did */
    char why[512];
    if (rb_model_equal(full->root, b->root, "", NULL)) {
        ops = json_array();
    } else if (rb_model_diff_docs(full, own, a_bytes, a_size, b,
                                  flags & RB_DIFF_BY_IDENTITY ? RB_MODEL_DIFF_IDENTITY : RB_MODEL_DIFF_PLAIN, &ops,
                                  flags & RB_DIFF_PLAIN ? NULL : &pinned, why, sizeof why) != 0) {
        rb_error_set(err, RB_E_MODEL, a->file_name, NULL, "%s", why);
        return RB_E_MODEL;
    }
    json_t *out = ops;
    if (!(flags & RB_DIFF_PLAIN) && json_array_size(ops)) { /* a diff to share: every operation pinned */
        size_t met = in_step_deferred_met();
        if (!pinned && (rb_model_diff_pin(full, a_bytes, a_size, ops, &pinned, why, sizeof why) != 0 ||
                        in_step_deferred_met() != met)) { /* by units: apply's in-step lists met bytes */
            int met_bytes = pinned != NULL; /* the pins were made, from a unit kept as bytes */
            json_decref(ops);
            json_decref(pinned);
            rb_error_set(err, RB_E_MODEL, a->file_name, NULL, "%s", met_bytes ? "a unit kept as bytes was read" : why);
            return RB_E_MODEL;
        }
        json_decref(ops);
        out = ops = pinned;
    } else {
        json_decref(pinned);
    }
    *operation_count = json_array_size(ops);
    if (!(flags & RB_DIFF_PLAIN)) {
        char crc[16];
        snprintf(crc, sizeof crc, "0x%08x", (unsigned)crc32(0, a_bytes, (uInt)a_size));
        out = json_pack("{s:i,s:{s:s,s:I,s:s,s:s},s:o}", "rebytePatch", 1, "base", "format", a->format->name, "size",
                        (json_int_t)a_size, "crc32", crc, "addressing",
                        flags & RB_DIFF_BY_IDENTITY ? "identity" : "index", "operations", ops);
    }
    *patch_json = rb_json_print_text(out);
    json_decref(out);
    if (!*patch_json) { rb_error_set(err, RB_E_NOMEM, a->file_name, NULL, "out of memory"); return RB_E_NOMEM; }
    return RB_OK;
}

/* A document's model in full: `doc` itself, or a full read of it in *spare (the caller frees it). */
static const rb_doc *in_full(const rb_doc *doc, const uint8_t *bytes, size_t size, rb_doc **spare, rb_error *err)
{
    *spare = NULL;
    if (!doc->deferred_units) return doc;
    if (!bytes) {
        rb_doc_refuse_deferred(doc, "diff", err); /* built, not read: there is no file to read again */
        return NULL;
    }
    rb_read_options ro = {.file_name = doc->file_name, .limits = &doc->limits};
    rb_error read_err;
    if (!(*spare = rb_doc_parse_as(doc->format, bytes, size, &ro, &read_err)) && err) *err = read_err;
    return *spare;
}

/* The places apply's in-step lists read in units kept as bytes since `met` (patch/in_step.c),
 * added to `read` (up to `cap`, copies in `kept`): 0 when none was, or one is not known. */
static size_t add_met_units(size_t met, char (*kept)[RB_DIFF_UNIT_POINTER_MAX], const char **read, size_t count,
                            size_t cap)
{
    size_t added = 0;
    for (size_t i = met; i < in_step_met_places(); i++) {
        const char *at = in_step_met_place(i);
        if (!at || !*at || count + added == cap) return 0;
        int known = 0;
        for (size_t k = 0; k < count + added && !known; k++) known = !strcmp(read[k], at);
        if (known) continue;
        snprintf(kept[count + added], sizeof *kept, "%s", at);
        read[count + added] = kept[count + added];
        added++;
    }
    return added;
}

/* The diff on the units of `a` and `b` paired (rb_diff_unit_models). When apply's in-step lists
 * read a unit kept as bytes (what they derive would be less than apply derives), those units are
 * read on both sides and the diff made again; RB_E_DEFERRED when the units cannot give the diff
 * (the whole models are diffed then). */
static rb_status diff_by_units(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const rb_doc *b,
                               unsigned flags, char **patch_json, size_t *operation_count, rb_error *err)
{
    enum { TRIES = 4, READ_MAX = 32 };
    char kept[READ_MAX][RB_DIFF_UNIT_POINTER_MAX];
    const char *read[READ_MAX];
    size_t read_count = 0;
    for (int try = 0; try < TRIES; try++) {
        rb_doc *ua, *ub;
        if (!rb_diff_unit_models(a, b, read, read_count, &ua, &ub)) return RB_E_DEFERRED;
        rb_error unit_err;
        size_t met = in_step_met_places();
        rb_status st = diff_models(a, ua, ua, a_bytes, a_size, ub, flags, patch_json, operation_count, &unit_err);
        rb_doc_free(ua);
        rb_doc_free(ub);
        if (st == RB_OK || st == RB_E_USAGE || st == RB_E_NOMEM) {
            if (st != RB_OK && err) rb_error_copy(err, &unit_err);
            return st;
        }
        size_t added = add_met_units(met, kept, read, read_count, READ_MAX);
        if (!added) return RB_E_DEFERRED;
        read_count += added;
    }
    return RB_E_DEFERRED;
}

static rb_status diff_docs(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, unsigned flags,
                           char **patch_json, size_t *operation_count, rb_error *err)
{
    if (patch_json) *patch_json = NULL;
    /* Deferred documents are diffed by units: what is equal in both stays bytes; what that
     * cannot settle (an operation meeting a unit kept as bytes) is diffed on the whole models */
    if (a->deferred_units || b->deferred_units) {
        rb_status st = diff_by_units(a, a_bytes, a_size, b, flags, patch_json, operation_count, err);
        if (st != RB_E_DEFERRED) return st;
    }
    rb_doc *spare_a, *spare_b = NULL;
    const rb_doc *full_a = in_full(a, a_bytes, a_size, &spare_a, err);
    const rb_doc *full_b = full_a ? in_full(b, b->section_count ? b->sections[0].data : NULL,
                                            b->section_count ? b->sections[0].size : 0, &spare_b, err)
                                  : NULL;
    rb_status st = full_b ? diff_models(a, full_a, NULL, a_bytes, a_size, full_b, flags, patch_json, operation_count, err)
                          : err ? err->status : RB_E_DEFERRED;
    rb_doc_free(spare_a);
    rb_doc_free(spare_b);
    return st;
}

rb_status rb_doc_diff(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, unsigned flags,
                      char **patch_json, size_t *operation_count, rb_error *err)
{
    size_t count = 0;
    rb_status st = diff_docs(a, a_bytes, a_size, b, flags, patch_json, &count, err);
    if (st == RB_OK && count && !streams_come_out(a, b, err)) { /* the documents as read: their streams */
        if (patch_json) {
            rb_free(*patch_json);
            *patch_json = NULL;
        }
        count = 0;
        st = RB_E_MODEL;
    }
    if (operation_count) *operation_count = count;
    return st;
}
