/* The archive: byte ranges, compressed streams, sections, and building blocks for format
 * modules (archive_internal.h). */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "core/archive/archive_internal.h"

/* ---------- ranges ---------- */

static ar_range *push_range(rb_ar *ar, const char *what)
{
    if (ar->range_count >= AR_MAX_RANGES) {
        rb_ar_fail(ar, RB_E_LIMIT, "more than %d nested byte ranges", AR_MAX_RANGES);
        return NULL;
    }
    ar_range *parent = ar_top_range(ar);
    ar_range *r = &ar->ranges[ar->range_count++];
    memset(r, 0, sizeof(*r));
    r->what = what;
    r->section = parent->section;
    return r;
}

/* Text: a byte line ends where a range begins or ends (READ: it must be used up by then). */
static int raw_line_done(rb_ar *ar, const char *what)
{
    if (ar->dir == RB_AR_WRITE) ar_close_raw_line(ar);
    if (ar->dir != RB_AR_READ || !ar->raw_left) return 1;
    ar_fail_at(ar, RB_E_FORMAT, what, "%zu bytes of the byte line before were not used", ar->raw_left);
    return 0;
}

void rb_ar_range_begin(rb_ar *ar, const char *what, uint64_t size)
{
    if (ar->failed || !raw_line_done(ar, what)) return;
    if (ar->dir == RB_AR_READ && size > rb_ar_remaining(ar)) {
        ar_fail_at(ar, RB_E_FORMAT, what, "declares %" PRIu64 " bytes, only %" PRIu64 " left", size,
                rb_ar_remaining(ar));
        return;
    }
    ar_range *parent = ar_top_range(ar);
    ar_range *r = push_range(ar, what);
    if (!r) return;
    if (ar->dir == RB_AR_READ) {
        r->base = parent->base + parent->pos;
        r->size = (size_t)size;
        r->section_base = parent->section_base + parent->pos;
        parent->pos += (size_t)size;
    } else if (ar->dir == RB_AR_WRITE) {
        r->out_start = ar_out(ar)->size;
    }
}

/* A description that ends more ranges than it began is a bug; say so instead of underflowing. */
static int range_open(rb_ar *ar)
{
    if (ar->range_count > 1) return 1;
    rb_ar_fail(ar, RB_E_MODEL, "internal: a range ends that was never begun");
    return 0;
}

void rb_ar_range_end(rb_ar *ar)
{
    if (ar->failed || !raw_line_done(ar, NULL) || !range_open(ar)) return;
    ar_range *r = ar_top_range(ar);
    if (ar->dir == RB_AR_READ && r->pos != r->size) {
        rb_ar_fail(ar, RB_E_FORMAT, "%s: %zu of its %zu bytes were not consumed", r->what, r->size - r->pos, r->size);
        return;
    }
    if (ar->dir == RB_AR_WRITE && r->size_slot.valid) rb_ar_slot_set(ar, &r->size_slot, ar_out(ar)->size - r->out_start);
    if (ar->failed) return;
    ar->range_count--;
}

void rb_ar_sized_begin(rb_ar *ar, const char *what, unsigned size_wire)
{
    rb_slot s = rb_ar_slot(ar, what, size_wire);
    if (ar->failed) return;
    rb_ar_range_begin(ar, what, s.value);
    if (!ar->failed && ar->dir == RB_AR_WRITE) ar_top_range(ar)->size_slot = s;
}

void rb_ar_sized_end(rb_ar *ar) { rb_ar_range_end(ar); }

/* ---------- streams and sections ---------- */

static int add_section(rb_ar *ar, const char *name, const uint8_t *data, size_t size, void *owned)
{
    /* names must be unique: blob references in JSON name their section ("body", "body#2", ...) */
    int copies = 0;
    for (size_t i = 0; i < ar->doc->section_count; i++)
        if (strncmp(ar->doc->sections[i].name, name, strlen(name)) == 0 &&
            (ar->doc->sections[i].name[strlen(name)] == 0 || ar->doc->sections[i].name[strlen(name)] == '#'))
            copies++;
    if (copies) {
        char unique[96];
        snprintf(unique, sizeof unique, "%s#%d", name, copies + 1);
        name = rb_arena_strdup(&ar->doc->arena, unique);
        if (!name) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return -1; }
    }
    int idx = rb_doc_add_section(ar->doc, name, data, size, owned);
    if (idx < 0) rb_ar_fail(ar, RB_E_LIMIT, "more than %d compressed streams (or out of memory)", RB_MAX_SECTIONS);
    return idx;
}

static void begin_read_stream(rb_ar *ar, rb_node *n, const char *key, const rb_codec *codec, uint64_t content_size,
                              uint64_t encoded_size)
{
    if (content_size > ar->doc->limits.max_decompressed_size) {
        ar_fail_at(ar, RB_E_LIMIT, key,
                "declared content size %" PRIu64 " exceeds the limit max_decompressed_size (%" PRIu64
                "); raise it (REBYTE_LIMITS=max_decompressed_size=N, or rb_limits) to read this file",
                content_size, ar->doc->limits.max_decompressed_size);
        return;
    }
    if (codec->max_expansion && content_size > 64 + encoded_size * codec->max_expansion) {
        ar_fail_at(ar, RB_E_FORMAT, key,
                "declared content size %" PRIu64 " cannot come from %" PRIu64 " bytes of %s (at most %u bytes per byte)",
                content_size, encoded_size, codec->name, codec->max_expansion);
        return;
    }
    const uint8_t *encoded = ar_take(ar, key, encoded_size);
    if (!encoded) return;
    uint8_t *content = malloc(content_size ? (size_t)content_size : 1);
    if (!content) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %" PRIu64 " bytes of content", content_size);
        return;
    }
    char why[200];
    if (codec->decode(encoded, (size_t)encoded_size, content, (size_t)content_size, why, sizeof why) != 0) {
        free(content);
        ar_top_range(ar)->pos -= (size_t)encoded_size;
        ar_fail_at(ar, RB_E_FORMAT, key, "%s", why);
        return;
    }
    int section = add_section(ar, key, content, (size_t)content_size, content);
    if (section < 0) {
        free(content);
        return;
    }
    rb_stream_info *info = n->stream;
    info->original = encoded;
    info->original_size = (size_t)encoded_size;
    info->content_size = content_size;
    info->content = content;
    info->content_section = (uint32_t)section + 1;
    ar_range *r = push_range(ar, key);
    if (!r) return;
    r->base = content;
    r->size = (size_t)content_size;
    r->section = (uint16_t)section;
    r->is_stream = 1;
}

/* A stream in text. Its lines are
 *   the size of the content the original encoded stream decodes to (0 when there is none),
 *   the original encoded stream as a "0x" line ("0x" alone when there is none),
 *   the content, as lines;
 * and the two slots before it hold text sizes: of the content's lines (content_size) and of all
 * the stream's lines (encoded_size). The original is carried because an encoder does not
 * reproduce it in general (docs/formats/gbx.md "Compressed body"); READ decodes it, so that
 * writing binary passes it through when the content written equals what it decodes to, and
 * re-encodes when it does not. */
static void begin_read_text_stream(rb_ar *ar, rb_node *n, const char *key, const rb_codec *codec,
                                   uint64_t content_size, uint64_t encoded_size)
{
    ar_range *parent = ar_top_range(ar);
    if (encoded_size > rb_ar_remaining(ar) || content_size > encoded_size) {
        ar_fail_at(ar, RB_E_FORMAT, key,
                "stream of %" PRIu64 " bytes of lines (%" PRIu64 " of content) does not fit the %" PRIu64 " left",
                encoded_size, content_size, rb_ar_remaining(ar));
        return;
    }
    size_t start = parent->pos, original_size = 0;
    uint64_t decoded_size = 0;
    if (!ar_read_uint_line(ar, key, RB_U64, &decoded_size)) return;
    const uint8_t *original = ar_read_hex_line(ar, key, &original_size);
    if (!original) return;
    if (parent->pos - start + content_size != encoded_size) {
        ar_fail_at(ar, RB_E_FORMAT, key, "the stream's lines take %" PRIu64 " bytes, its size says %" PRIu64,
                (uint64_t)(parent->pos - start) + content_size, encoded_size);
        return;
    }
    if (original_size) {
        if (decoded_size > ar->doc->limits.max_decompressed_size) {
            ar_fail_at(ar, RB_E_LIMIT, key, "declared content size %" PRIu64 " exceeds the limit max_decompressed_size (%" PRIu64 ")",
                    decoded_size, ar->doc->limits.max_decompressed_size);
            return;
        }
        uint8_t *decoded = malloc(decoded_size ? (size_t)decoded_size : 1);
        char why[200];
        if (!decoded) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
        if (codec->decode(original, original_size, decoded, (size_t)decoded_size, why, sizeof why) != 0) {
            free(decoded);
            ar_fail_at(ar, RB_E_FORMAT, key, "original stream: %s", why);
            return;
        }
        int section = add_section(ar, key, decoded, (size_t)decoded_size, decoded);
        if (section < 0) { free(decoded); return; }
        rb_stream_info *info = n->stream;
        info->original = original;
        info->original_size = original_size;
        info->content_size = decoded_size;
        info->content = decoded;
        info->content_section = (uint32_t)section + 1;
    }
    ar_range *r = push_range(ar, key);
    if (!r) return;
    r->base = parent->base + parent->pos;
    r->size = (size_t)content_size;
    r->section_base = parent->section_base + parent->pos;
    parent->pos += (size_t)content_size;
    r->is_stream = 1;
}

/* Text WRITE: the stream's first two lines (see begin_read_text_stream); returns where they start. */
static size_t write_text_stream_header(rb_ar *ar, const rb_node *n)
{
    ar_close_raw_line(ar);
    size_t start = ar_out(ar)->size;
    const rb_stream_info *info = n->stream;
    ar_write_uint_line(ar, info->original ? info->content_size : 0, RB_U64);
    ar_write_hex_line(ar, info->original, info->original ? info->original_size : 0);
    return start;
}

/* The decoded content this document read for `info`, or NULL (a model built from JSON). */
static const rb_section *read_content(const rb_ar *ar, const rb_stream_info *info)
{
    uint32_t section = info->content_section;
    if (!info->original || !section || section - 1 >= ar->doc->section_count) return NULL;
    const rb_section *s = &ar->doc->sections[section - 1];
    return s->size == info->content_size ? s : NULL;
}

/* Does this write pass the original encoded stream through when the content is unchanged? */
static int passes_original_through(const rb_ar *ar, const rb_codec *codec)
{
    return !ar->decoded && !(ar->reencode && (!ar->reencode_codec || strcmp(ar->reencode_codec, codec->name) == 0));
}

/* WRITE: the buffer a stream's content is written to. When the original can be passed through,
 * the content is compared with what was read as it is written (expect mode), and stored only from
 * its first difference: an unchanged body costs no second copy. Otherwise: room for the content it
 * had, so the buffer does not copy itself while it grows. */
static void prepare_stream_output(rb_ar *ar, const rb_stream_info *info, const rb_codec *codec)
{
    if (!info) return;
    const rb_section *read = ar->text ? NULL : read_content(ar, info);
    if (read && passes_original_through(ar, codec))
        rb_buf_expect(ar_out(ar), read->data, read->size);
    else if (info->content_size <= ar->doc->limits.max_decompressed_size)
        rb_buf_reserve_hint(ar_out(ar), (size_t)info->content_size);
}

void rb_ar_stream_begin(rb_ar *ar, const char *key, const rb_codec *codec, uint64_t content_size,
                        uint64_t encoded_size)
{
    if (ar->failed || !ar_depth_ok(ar)) return;
    json_t *jv = NULL;
    rb_node *n = ar_field(ar, key, RB_K_STREAM, 0, &jv);
    if (!n) return;
    if (ar->dir != RB_AR_WRITE) {
        n->stream = rb_arena_alloc(&ar->doc->arena, sizeof(*n->stream));
        if (!n->stream) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
        n->stream->codec = codec->name;
        if (rb_doc_add_stream(ar->doc, n) != 0) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return; }
    }
    if (ar->dir == RB_AR_READ) {
        n->section = ar_top_range(ar)->section;
        n->src_offset = ar_clamp32(ar_top_range(ar)->section_base + ar_top_range(ar)->pos);
        n->src_size = ar_clamp32(encoded_size);
        if (ar->text) begin_read_text_stream(ar, n, key, codec, content_size, encoded_size);
        else begin_read_stream(ar, n, key, codec, content_size, encoded_size);
    } else if (ar->dir == RB_AR_WRITE) {
        if (ar->output_count >= AR_MAX_OUTPUTS) { rb_ar_fail(ar, RB_E_LIMIT, "streams nested too deeply"); return; }
        size_t header_start = ar->text ? write_text_stream_header(ar, n) : 0;
        rb_buf_init(&ar->outputs[ar->output_count++]);
        prepare_stream_output(ar, n->stream, codec);
        ar_range *r = push_range(ar, key);
        if (!r) return;
        r->is_stream = 1;
        r->out_start = header_start;
    } else {
        if (!json_is_object(jv)) { ar_fail_at(ar, RB_E_MODEL, key, "must be a JSON object"); return; }
        char why[200];
        if (!rb_json_to_stream_info(ar->doc, json_object_get(jv, "$stream"), n->stream, why, sizeof why)) {
            ar_fail_at(ar, RB_E_MODEL, key, "%s", why);
            return;
        }
        push_range(ar, key);
    }
    if (ar->failed) return;
    ar_top_range(ar)->stream = n;
    ar_top_range(ar)->codec = codec;
    ar_push_frame(ar, n, jv);
}

/* Does the written content equal what the original stream decodes to? Against the decoded
 * content itself when this document read it (a compare is cheaper than two digests), else
 * (a model built from JSON) against the digests. */
static int content_unchanged(const rb_ar *ar, const rb_node *stream, rb_buf *content)
{
    const rb_stream_info *info = stream->stream;
    if (rb_buf_holds_expected(content)) return 1;
    if (!rb_buf_materialize(content)) return 0; /* a placeholder never patched, or a shorter content */
    if (!info->original || content->size != info->content_size) return 0;
    const rb_section *read = read_content(ar, info);
    if (read) return content->size == 0 || memcmp(content->data, read->data, content->size) == 0;
    rb_stream_digests(info);
    return (uint32_t)crc32(0, content->data, (uInt)content->size) == info->content_crc32 &&
           (uint32_t)adler32(1, content->data, (uInt)content->size) == info->content_adler32;
}

/* The write's report of a stream becomes the document's (rb_doc_stream_report) under the
 * document's report lock: several writes may run at once (docs/performance.md "Reads never write"). */
static void publish_report(rb_ar *ar, rb_stream_info *info, const rb_stream_report *rep)
{
    pthread_mutex_lock(&ar->doc->report_lock);
    info->report = *rep;
    pthread_mutex_unlock(&ar->doc->report_lock);
}

/* WRITE: the CRC-32 of the content written: while it is unchanged (the buffer only compared it),
 * the one the read checked, or else the original's digest; otherwise computed. */
static void derive_content_crc(rb_ar *ar, const ar_range *r, const rb_buf *content)
{
    if (!r->crc_slot) return;
    uint32_t crc;
    const rb_stream_info *info = r->stream->stream;
    if (rb_buf_holds_expected(content) || !content->data)
        crc = info->read_crc_known ? info->read_crc32 : rb_stream_digests(info)->content_crc32;
    else crc = (uint32_t)crc32(0, content->data, (uInt)content->size);
    rb_ar_slot_set(ar, r->crc_slot, crc);
}

/* WRITE: the report of a stream being finished, before its bytes are written. */
static void start_report(rb_stream_report *rep, const ar_range *r, const rb_buf *content)
{
    memset(rep, 0, sizeof(*rep));
    snprintf(rep->name, sizeof rep->name, "%s", r->what);
    snprintf(rep->codec, sizeof rep->codec, "%s", r->codec->name);
    rep->content_size = content->size;
    rep->original_size = r->stream->stream->original_size;
}

/* WRITE: the stream's sizes into their slots, its report to the document. */
static void finish_report(rb_ar *ar, rb_stream_info *info, rb_stream_report *rep, rb_slot *content_slot,
                          rb_slot *encoded_slot)
{
    rb_ar_slot_set(ar, content_slot, rep->content_size);
    rb_ar_slot_set(ar, encoded_slot, rep->written_size);
    publish_report(ar, info, rep);
}

/* Text WRITE: the content's lines follow the stream's header lines; the slots get text sizes. */
static void finish_write_text_stream(rb_ar *ar, ar_range *r, rb_slot *content_slot, rb_slot *encoded_slot)
{
    rb_buf content = ar->outputs[--ar->output_count];
    rb_stream_info *info = r->stream->stream;
    rb_stream_report report, *rep = &report;
    start_report(rep, r, &content);
    if (r->crc_slot) /* text: the content is lines; the CRC stays the binary content's */
        rb_ar_slot_set(ar, r->crc_slot, rb_stream_digests(info)->content_crc32);
    if (content.failed) ar_out(ar)->failed = 1;
    rb_buf_put(ar_out(ar), content.data, content.size);
    rep->written_size = ar_out(ar)->size - r->out_start;
    rb_buf_free(&content);
    finish_report(ar, info, rep, content_slot, encoded_slot);
}

/* WRITE: choose between the original encoded bytes and a fresh encoding. */
static void finish_write_stream(rb_ar *ar, ar_range *r, rb_slot *content_slot, rb_slot *encoded_slot)
{
    if (ar->text) {
        finish_write_text_stream(ar, r, content_slot, encoded_slot);
        return;
    }
    rb_buf content = ar->outputs[--ar->output_count];
    rb_stream_info *info = r->stream->stream;
    int unchanged = content_unchanged(ar, r->stream, &content);
    derive_content_crc(ar, r, &content);
    rb_stream_report report, *rep = &report;
    start_report(rep, r, &content);
    size_t encoded_start = ar_out(ar)->size;
    if (unchanged && passes_original_through(ar, r->codec)) {
        rb_buf_put(ar_out(ar), info->original, info->original_size);
    } else if (!rb_buf_materialize(&content)) {
        rb_buf_free(&content);
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return;
    } else if (ar->decoded) {
        rb_buf_put(ar_out(ar), content.data, content.size);
    } else {
        char why[200];
        if (r->codec->encode(content.data, content.size, ar_out(ar), why, sizeof why) != 0) {
            rb_buf_free(&content);
            rb_ar_fail(ar, RB_E_IO, "%s", why);
            return;
        }
        rep->reencoded = 1;
    }
    rep->written_size = ar_out(ar)->size - encoded_start;
    rep->identical = info->original && rep->written_size == info->original_size &&
                     rb_buf_equals_at(ar_out(ar), encoded_start, info->original, info->original_size);
    rb_buf_free(&content);
    finish_report(ar, info, rep, content_slot, encoded_slot);
}

void rb_ar_stream_end_crc(rb_ar *ar, rb_slot *content_size_slot, rb_slot *encoded_size_slot, rb_slot *crc_slot)
{
    if (ar->failed || !range_open(ar)) return;
    ar_range *r = ar_top_range(ar);
    if (ar->dir == RB_AR_READ && !ar->text) {
        uint32_t crc = (uint32_t)crc32(0, r->base, (uInt)r->size);
        if (crc != (uint32_t)crc_slot->value) {
            rb_ar_fail(ar, RB_E_FORMAT, "%s: the stored CRC-32 0x%08x is not its content's (0x%08x)", r->what,
                       (unsigned)crc_slot->value, (unsigned)crc);
            return;
        }
        if (r->stream) {
            r->stream->stream->read_crc32 = crc;
            r->stream->stream->read_crc_known = 1;
        }
    }
    r->crc_slot = crc_slot;
    rb_ar_stream_end(ar, content_size_slot, encoded_size_slot);
}

void rb_ar_stream_end(rb_ar *ar, rb_slot *content_size_slot, rb_slot *encoded_size_slot)
{
    if (ar->failed || !raw_line_done(ar, NULL) || !range_open(ar)) return;
    ar_range *r = ar_top_range(ar);
    if (ar->dir == RB_AR_READ && r->pos != r->size) {
        rb_ar_fail(ar, RB_E_FORMAT, "%zu bytes of decoded %s left after its last structure", r->size - r->pos,
                   r->what);
        return;
    }
    ar_end_container(ar);
    if (ar->failed) return;
    if (ar->dir == RB_AR_WRITE) finish_write_stream(ar, r, content_size_slot, encoded_size_slot);
    if (ar->failed) return;
    ar->range_count--;
}

int rb_ar_finish(rb_ar *ar)
{
    if (ar->failed) return 0;
    if (ar->frame_count != 1 || ar->range_count != 1) {
        rb_ar_fail(ar, RB_E_MODEL, "internal: description left %zu containers open", ar->frame_count - 1);
        return 0;
    }
    ar_end_container(ar); /* checks the root's members */
    ar->frame_count = 1;
    if (ar->failed) return 0;
    if (ar->dir == RB_AR_READ && rb_ar_remaining(ar) != 0) {
        rb_ar_fail(ar, RB_E_FORMAT, "%" PRIu64 " bytes after the end of the structure", rb_ar_remaining(ar));
        return 0;
    }
    if (ar->dir == RB_AR_WRITE) ar_close_raw_line(ar);
    if (ar->dir == RB_AR_WRITE && ar_out(ar)->failed) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory writing");
        return 0;
    }
    return 1;
}

/* ---------- building blocks for format modules ---------- */

rb_node *rb_ar_field(rb_ar *ar, const char *key, rb_kind kind, unsigned wire, json_t **json)
{
    json_t *dummy = NULL;
    return ar_field(ar, key, kind, wire, json ? json : &dummy);
}

const uint8_t *rb_ar_take(rb_ar *ar, const char *what, uint64_t n)
{
    if (ar->failed || ar->dir != RB_AR_READ) return NULL;
    return ar->text ? ar_take_raw_text(ar, what, n) : ar_take(ar, what, n);
}

void rb_ar_emit(rb_ar *ar, const void *bytes, size_t n)
{
    if (ar->failed || ar->dir != RB_AR_WRITE) return;
    if (ar->text) ar_emit_raw_text(ar, bytes, n);
    else rb_buf_put(ar_out(ar), bytes, n);
}

void rb_ar_emit_uint(rb_ar *ar, uint64_t value, unsigned wire)
{
    if (ar->failed || ar->dir != RB_AR_WRITE) return;
    if (ar->text) ar_write_uint_line(ar, value, wire);
    else ar_emit_int(ar, value, wire);
}

int rb_ar_take_uint(rb_ar *ar, const char *what, unsigned wire, uint64_t *value)
{
    if (ar->failed || ar->dir != RB_AR_READ) return 0;
    if (ar->text) return ar_read_uint_line(ar, what, wire, value);
    const uint8_t *p = ar_take(ar, what, wire & RB_W_WIDTH);
    if (p) *value = ar_decode_int(p, wire);
    return p != NULL;
}

const uint8_t *rb_ar_take_line(rb_ar *ar, const char *what, size_t *len)
{
    if (ar->failed || ar->dir != RB_AR_READ || !ar->text) return NULL;
    return ar_next_line(ar, what, len);
}

const uint8_t *rb_ar_take_lstring(rb_ar *ar, const char *what, unsigned length_wire, size_t *size)
{
    if (ar->failed || ar->dir != RB_AR_READ) return NULL;
    if (ar->text) return ar_read_string_line(ar, what, size);
    uint64_t length = 0;
    if (!rb_ar_take_uint(ar, what, length_wire, &length)) return NULL;
    if ((length_wire & RB_W_SIGNED) && (length_wire & RB_W_WIDTH) == 4 && length > INT32_MAX) {
        ar_fail_at(ar, RB_E_FORMAT, what, "negative length %" PRId32, (int32_t)length);
        return NULL;
    }
    if (length > ar->doc->limits.max_string || length > rb_ar_remaining(ar)) {
        ar_fail_at(ar, length > ar->doc->limits.max_string ? RB_E_LIMIT : RB_E_FORMAT, what,
                "length %" PRIu64 " exceeds the %" PRIu64 " bytes left (or the limit max_string)", length,
                rb_ar_remaining(ar));
        return NULL;
    }
    *size = (size_t)length;
    return ar_take(ar, what, length);
}

void rb_ar_emit_lstring(rb_ar *ar, const void *data, size_t size, unsigned length_wire)
{
    if (ar->failed || ar->dir != RB_AR_WRITE) return;
    if (ar->text) {
        ar_write_string_line(ar, data, size);
        return;
    }
    ar_emit_int(ar, size, length_wire);
    rb_buf_put(ar_out(ar), data, size);
}

void rb_ar_fail_field(rb_ar *ar, rb_status status, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ar_vfail(ar, status, key, fmt, ap);
    va_end(ap);
}

void rb_ar_note_size(rb_ar *ar, rb_node *node) { ar_note_size(ar, node); }

rb_ar_mark rb_ar_mark_here(rb_ar *ar)
{
    rb_ar_mark m = {0};
    m.failed = ar->failed;
    m.frame_count = ar->frame_count;
    m.range_count = ar->range_count;
    m.range_pos = ar_top_range(ar)->pos;
    m.kids = ar_top_frame(ar)->node->v.kids.count;
    m.next = ar_top_frame(ar)->next;
    m.sections = ar->doc->section_count;
    m.owned = ar->doc->owned_count;
    m.streams = ar->doc->stream_count;
    m.raw_next = ar->raw_next;
    m.raw_left = ar->raw_left;
    m.text = ar->text;
    return m;
}

void rb_ar_rewind(rb_ar *ar, const rb_ar_mark *m, char *why, size_t why_size)
{
    if (m->failed) { /* the error predates the attempt: it stands */
        if (why && why_size) rb_error_format(&ar->err, why, why_size);
        return;
    }
    if (why && why_size) {
        if (ar->failed) rb_error_format(&ar->err, why, why_size);
        else why[0] = 0;
    }
    ar->failed = 0;
    memset(&ar->err, 0, sizeof ar->err);
    ar->frame_count = m->frame_count;
    ar->range_count = m->range_count;
    ar_top_range(ar)->pos = m->range_pos;
    ar_top_frame(ar)->node->v.kids.count = m->kids;
    ar_top_frame(ar)->next = m->next;
    /* decoded streams opened since the mark belong to the abandoned attempt */
    for (size_t i = m->owned; i < ar->doc->owned_count; i++) free(ar->doc->owned[i]);
    ar->doc->owned_count = m->owned;
    ar->doc->section_count = m->sections;
    ar->doc->stream_count = m->streams;
    ar->raw_next = m->raw_next;
    ar->raw_left = m->raw_left;
    ar_set_encoding(ar, m->text);
    while (ar->output_count > 1 && ar->dir == RB_AR_WRITE) rb_buf_free(&ar->outputs[--ar->output_count]);
}

