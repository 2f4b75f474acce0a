/* A deferred read and a full read of the same bytes agree: see deferred_agree.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/archive/archive_unit.h"
#include "core/model/model_equal.h"
#include "tests/fuzz/deferred_agree.h"

/* defer: 0 a full read, 1 deferred, 2 deferred with its units checked (rb_read_options.check_units) */
static rb_doc *read_as(const rb_format *format, const uint8_t *data, size_t size, const rb_limits *limits, int defer,
                       char *error, size_t error_size)
{
    rb_read_options options = {
        .size = sizeof options, .file_name = "input", .limits = limits, .defer = defer != 0, .check_units = defer == 2};
    rb_error err;
    rb_doc *doc = rb_doc_parse_as(format, data, size, &options, &err);
    if (!doc) rb_error_format(&err, error, error_size);
    return doc;
}

static int same_notes(const rb_doc *a, const rb_doc *b)
{
    if (rb_doc_note_count(a) != rb_doc_note_count(b)) return 0;
    for (size_t i = 0; i < rb_doc_note_count(a); i++)
        if (strcmp(rb_doc_note(a, i), rb_doc_note(b, i)) != 0) return 0;
    return 1;
}

/* Both documents write the same bytes (or fail alike) with these options. */
static int same_write(rb_doc *a, rb_doc *b, const rb_write_options *options)
{
    uint8_t *out_a = NULL, *out_b = NULL;
    size_t size_a = 0, size_b = 0;
    rb_error err;
    rb_status st_a = rb_doc_write(a, options, &out_a, &size_a, &err);
    rb_status st_b = rb_doc_write(b, options, &out_b, &size_b, &err);
    int same = st_a == st_b && size_a == size_b && (size_a == 0 || memcmp(out_a, out_b, size_a) == 0);
    rb_free(out_a);
    rb_free(out_b);
    return same;
}

static int reports_agree(rb_doc *full, rb_doc *deferred, char *why, size_t why_size)
{
    rb_coverage c_full = RB_COVERAGE_INIT, c_deferred = RB_COVERAGE_INIT;
    rb_coverage_kinds k_full = RB_COVERAGE_KINDS_INIT, k_deferred = RB_COVERAGE_KINDS_INIT;
    rb_doc_coverage(full, &c_full);
    rb_doc_coverage(deferred, &c_deferred);
    rb_doc_coverage_kinds(full, &k_full);
    rb_doc_coverage_kinds(deferred, &k_deferred);
    if (memcmp(&c_full, &c_deferred, sizeof c_full) != 0 || memcmp(&k_full, &k_deferred, sizeof k_full) != 0)
        snprintf(why, why_size, "coverage differs: typed %llu / %llu, opaque %llu / %llu, opaque tail %d / %d, or by kind",
                 (unsigned long long)c_full.typed_bytes, (unsigned long long)c_deferred.typed_bytes,
                 (unsigned long long)c_full.opaque_bytes, (unsigned long long)c_deferred.opaque_bytes,
                 c_full.opaque_tail, c_deferred.opaque_tail);
    else if (!same_notes(full, deferred))
        snprintf(why, why_size, "the notes differ (%zu / %zu)", rb_doc_note_count(full), rb_doc_note_count(deferred));
    else
        return 1;
    return 0;
}

static int writes_agree(rb_doc *full, rb_doc *deferred, char *why, size_t why_size)
{
    rb_write_options plain = {.size = sizeof plain}, decoded = {.size = sizeof decoded, .decoded = 1};
    if (same_write(full, deferred, &plain) && same_write(full, deferred, &decoded)) return 1;
    snprintf(why, why_size, "the written bytes differ");
    return 0;
}

/* ---------- units read alone ---------- */

enum { MAX_CHAIN = 64 };

typedef struct unit_walk {
    const rb_doc *deferred;
    rb_arena arena;
    const rb_node *chain[MAX_CHAIN]; /* the containers walked into, innermost first */
    size_t depth, units;
    char *why;
    size_t why_size;
} unit_walk;

static int is_walked(const rb_node *n)
{
    return n->kind == RB_K_RECORD || n->kind == RB_K_LIST || n->kind == RB_K_STREAM;
}

static int unit_matches(unit_walk *w, const rb_node *parent, size_t index, const rb_node *full_unit)
{
    rb_unit_place place = {parent->v.kids.items[index], parent, index, w->chain + 1, w->depth - 1};
    rb_arena_mark mark = rb_arena_mark_here(&w->arena);
    rb_error err;
    const rb_node *alone = rb_doc_expand_unit(w->deferred, &place, &w->arena, &err);
    rb_buf where;
    rb_buf_init(&where);
    int same = alone && rb_model_equal(full_unit, alone, "", &where);
    char text[1600];
    if (!alone)
        snprintf(w->why, w->why_size, "unit %zu could not be read alone: %s", w->units, rb_error_format(&err, text, sizeof text));
    else if (!same)
        snprintf(w->why, w->why_size, "unit %zu read alone differs from the full read at %.*s", w->units, (int)where.size,
                 (const char *)where.data);
    rb_buf_free(&where);
    rb_arena_reset(&w->arena, &mark);
    w->units++;
    return same;
}

/* The deferred model `d` and the full model `f` side by side: every unit of `d` read alone equals
 * the node of `f` at its place. */
static int units_match(unit_walk *w, const rb_node *d, const rb_node *f)
{
    if (!is_walked(d)) return 1;
    if (f->kind != d->kind || f->v.kids.count != d->v.kids.count || w->depth >= MAX_CHAIN) {
        snprintf(w->why, w->why_size, "the deferred model's shape differs from the full read's around unit %zu", w->units);
        return 0;
    }
    memmove(w->chain + 1, w->chain, w->depth * sizeof w->chain[0]);
    w->chain[0] = d;
    w->depth++;
    int ok = 1;
    for (size_t i = 0; i < d->v.kids.count && ok; i++) {
        const rb_node *kid = d->v.kids.items[i];
        ok = kid->kind == RB_K_DEFERRED ? unit_matches(w, d, i, f->v.kids.items[i]) : units_match(w, kid, f->v.kids.items[i]);
    }
    w->depth--;
    memmove(w->chain, w->chain + 1, w->depth * sizeof w->chain[0]);
    return ok;
}

/* The dump with blobs as files: the same text and the same files (a blob of a unit read again is
 * copied before the unit's memory is reused: core/json/dump_files.c). */
static int same_dump_files(const rb_doc *full, const rb_doc *deferred)
{
    char *text[2] = {NULL, NULL};
    rb_dump_files *files[2] = {NULL, NULL};
    rb_error err;
    rb_status st_full = rb_doc_dump_files(full, "files", &text[0], &files[0], &err);
    rb_status st_deferred = rb_doc_dump_files(deferred, "files", &text[1], &files[1], &err);
    size_t count = rb_dump_files_count(files[0]);
    int same = st_full == st_deferred && count == rb_dump_files_count(files[1]) &&
               (!text[0] || strcmp(text[0], text[1]) == 0);
    for (size_t i = 0; same && i < count; i++) {
        size_t size[2] = {0, 0};
        const uint8_t *data[2] = {rb_dump_files_data(files[0], i, &size[0]), rb_dump_files_data(files[1], i, &size[1])};
        same = strcmp(rb_dump_files_name(files[0], i), rb_dump_files_name(files[1], i)) == 0 && size[0] == size[1] &&
               (!size[0] || memcmp(data[0], data[1], size[0]) == 0);
    }
    for (int k = 0; k < 2; k++) {
        rb_free(text[k]);
        rb_dump_files_free(files[k]);
    }
    return same;
}

/* Each unit read alone (core/archive/archive_unit.c) equals the full read's subtree at its place, and the
 * dump, which reads them so, is the full read's dump, the deferred document left unexpanded. A
 * document whose units cannot be read alone is not dumped: the dump says so (RB_E_DEFERRED), and
 * the document stays as it was. */
static int units_alone_agree(const rb_doc *full, const rb_doc *deferred, char *why, size_t why_size)
{
    if (!deferred->deferred_units) return 1;
    if (deferred->format->read_unit && !rb_doc_units_read_alone(deferred)) {
        snprintf(why, why_size, "%zu units deferred, not every one can be read alone", deferred->deferred_units);
        return 0;
    }
    int alone = rb_doc_units_read_alone(deferred);
    unit_walk w = {.deferred = deferred, .why = why, .why_size = why_size};
    rb_arena_init(&w.arena);
    int ok = !alone || units_match(&w, deferred->root, full->root);
    rb_arena_free(&w.arena);
    if (!ok) return 0;
    /* the library's comparison that reads units alone (what apply verifies with) says the same */
    rb_buf where;
    rb_buf_init(&where);
    rb_error err;
    ok = !alone || rb_model_equal_units(full->root, deferred, &where, &err);
    if (!ok)
        snprintf(why, why_size, "rb_model_equal_units finds the full read different at %s: %s",
                 where.data ? (const char *)where.data : "?", err.message);
    rb_buf_free(&where);
    if (!ok) return 0;
    char *text_full = NULL, *text_deferred = NULL;
    rb_status st_full = rb_doc_dump(full, RB_BLOBS_REF, "input", &text_full, &err);
    size_t units = deferred->deferred_units;
    rb_status st_deferred = rb_doc_dump(deferred, RB_BLOBS_REF, "input", &text_deferred, &err);
    if (!alone)
        ok = st_deferred == RB_E_DEFERRED && !text_deferred;
    else
        ok = st_full == st_deferred && (!text_full || strcmp(text_full, text_deferred) == 0);
    if (!ok) snprintf(why, why_size, "the dump of the deferred read differs from the full read's");
    else if (alone && !(ok = same_dump_files(full, deferred)))
        snprintf(why, why_size, "the dump with blob files of the deferred read differs from the full read's");
    else if (deferred->deferred_units != units)
        snprintf(why, why_size, "the dump changed the deferred document"), ok = 0;
    rb_free(text_full);
    rb_free(text_deferred);
    return ok;
}

/* The deferred read whose units are checked (what `rebyte verify` reads) agrees with the full
 * read as the plain deferred read does, and keeps no unit the plain one does not. */
static int checked_agrees(const rb_format *format, const uint8_t *data, size_t size, const rb_limits *limits,
                          rb_doc *full, size_t units, char *why, size_t why_size)
{
    char error[1600] = "";
    rb_doc *checked = read_as(format, data, size, limits, 2, error, sizeof error);
    int agree = 0;
    if (!checked) snprintf(why, why_size, "checked deferred read: %.700s", error);
    else if (checked->deferred_units > units)
        snprintf(why, why_size, "the checked read kept %zu units as bytes, the plain one %zu", checked->deferred_units, units);
    else
        agree = reports_agree(full, checked, why, why_size) && writes_agree(full, checked, why, why_size);
    rb_doc_free(checked);
    return agree;
}

int rb_deferred_agrees(const rb_format *format, const uint8_t *data, size_t size, const rb_limits *limits,
                       size_t *units, char *why, size_t why_size)
{
    char error_full[1600] = "", error_deferred[1600] = "";
    rb_doc *full = read_as(format, data, size, limits, 0, error_full, sizeof error_full);
    rb_doc *deferred = read_as(format, data, size, limits, 1, error_deferred, sizeof error_deferred);
    *units = deferred ? deferred->deferred_units : 0;
    int agree = 0;
    if (!full || !deferred) {
        agree = !full && !deferred && strcmp(error_full, error_deferred) == 0;
        if (!agree) snprintf(why, why_size, "full read: %.700s; deferred read: %.700s", full ? "ok" : error_full,
                             deferred ? "ok" : error_deferred);
    } else if (reports_agree(full, deferred, why, why_size) && writes_agree(full, deferred, why, why_size) &&
               checked_agrees(format, data, size, limits, full, *units, why, why_size) &&
               units_alone_agree(full, deferred, why, why_size)) {
        rb_buf where;
        rb_buf_init(&where);
        rb_error err;
        agree = rb_doc_expand(deferred, &err) == RB_OK && rb_doc_root(deferred) &&
                rb_model_equal(rb_doc_root(full), rb_doc_root(deferred), "", &where) && !deferred->deferred_units;
        if (!agree) snprintf(why, why_size, "the expanded model differs at %.*s", (int)where.size, (const char *)where.data);
        rb_buf_free(&where);
    }
    rb_doc_free(full);
    rb_doc_free(deferred);
    return agree;
}
