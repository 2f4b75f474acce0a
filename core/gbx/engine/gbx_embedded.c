/*
 * A complete GBX file inside another (a replay's map, a map's embedded item; gbx_internal.h
 * gbx_embedded_file): described by the file layout above the engine (gbx_class_hooks), with a
 * context of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include "core/gbx/engine/gbx_internal.h"

/* A file inside another (a replay's map, a map's embedded item): fresh ids, node indices and
 * reference table; the outer file's state is restored afterwards. `sized`: behind a u32 size
 * (else the enclosing range, a zip entry's content, bounds it). */
static int embedded_file(rb_ar *ar, const char *key, int sized, char *stopped, size_t stopped_size)
{
    gbx_ctx *outer = gbx_ctx_of(ar);
    gbx_ctx *inner = calloc(1, sizeof(*inner));
    if (!inner) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory"); return 0; }
    int outer_text = rb_ar_is_text(ar); /* the inner file's format byte decides for its own body */
    inner->classes = outer->classes;
    inner->scope_count = 1;
    rb_ar_set_user(ar, inner);
    if (sized) rb_ar_sized_begin(ar, "embedded file size", RB_U32);
    rb_ar_record_begin(ar, key);
    outer->classes->describe_file(ar);
    rb_ar_record_end(ar);
    rb_ar_set_text(ar, outer_text);
    if (sized) rb_ar_sized_end(ar);
    int typed = !inner->opaque_reason[0];
    if (!typed && stopped) {
        snprintf(stopped, stopped_size, "%s", inner->opaque_reason);
    } else if (!typed && rb_ar_direction(ar) == RB_AR_READ && rb_ar_ok(ar)) {
        char note[700];
        snprintf(note, sizeof note, "embedded file: typed parse stopped, the rest is kept opaque: %s", inner->opaque_reason);
        rb_doc_add_note(rb_ar_doc(ar), note);
    }
    rb_ar_set_user(ar, outer);
    free((void *)inner->external_nodes);
    gbx_ctx_free(inner);
    return typed;
}

void gbx_embedded_file(rb_ar *ar, const char *key) { embedded_file(ar, key, 1, NULL, 0); }
int gbx_embedded_file_content(rb_ar *ar, const char *key, char *stopped, size_t stopped_size)
{
    return embedded_file(ar, key, 0, stopped, stopped_size);
}
