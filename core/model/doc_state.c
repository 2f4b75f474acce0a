/* The document's state: registering sections, streams, notes and owned buffers (doc_state.h). */
#include <stdlib.h>
#include <string.h>
#include "core/model/doc_state.h"
#include "core/error.h"

/* Grows an array of `item` sized elements to hold one more; 0 when out of memory. */
static int grow(void **items, size_t *cap, size_t count, size_t item)
{
    if (count < *cap) return 1;
    size_t new_cap = *cap ? *cap * 2 : 8;
    void *p = realloc(*items, new_cap * item);
    if (!p) return 0;
    *items = p;
    *cap = new_cap;
    return 1;
}

int rb_doc_add_section(rb_doc *doc, const char *name, const uint8_t *data, size_t size, void *owned)
{
    if (doc->section_count >= RB_MAX_SECTIONS) return -1;
    if (!grow((void **)&doc->sections, &doc->section_cap, doc->section_count, sizeof(rb_section)) ||
        (owned && !grow((void **)&doc->owned, &doc->owned_cap, doc->owned_count, sizeof(void *))))
        return -1;
    rb_section *s = &doc->sections[doc->section_count];
    s->name = name;
    s->data = data;
    s->size = size;
    if (owned) doc->owned[doc->owned_count++] = owned;
    return (int)doc->section_count++;
}

void rb_doc_add_derived_offset(rb_doc *doc, uint64_t offset)
{
    if (doc->record_derived_offsets && doc->derived_count < (1u << 20) &&
        grow((void **)&doc->derived_offsets, &doc->derived_cap, doc->derived_count, sizeof(uint64_t)))
        doc->derived_offsets[doc->derived_count++] = offset;
}

int rb_doc_add_stream(rb_doc *doc, rb_node *stream)
{
    if (!grow((void **)&doc->streams, &doc->stream_cap, doc->stream_count, sizeof(rb_node *))) return -1;
    doc->streams[doc->stream_count++] = stream;
    return 0;
}

enum { RB_MAX_NOTES = 1000 };

int rb_doc_add_note(rb_doc *doc, const char *text)
{
    if (doc->note_count >= RB_MAX_NOTES) {
        doc->notes_dropped++;
        return 0;
    }
    if (doc->note_count == doc->note_cap) {
        size_t cap = doc->note_cap ? doc->note_cap * 2 : 8;
        const char **notes = realloc(doc->notes, cap * sizeof(*notes));
        if (!notes) return -1;
        doc->notes = notes;
        doc->note_cap = cap;
    }
    /* malloc'd, not in the arena: a deferred unit's nodes are freed by an arena reset, its notes
     * stay (core/archive/archive_defer.c) */
    const char *copy = strdup(text);
    if (!copy) return -1;
    doc->notes[doc->note_count++] = copy;
    return 0;
}

int rb_doc_refuse_deferred(const rb_doc *doc, const char *what, rb_error *err)
{
    if (!doc->deferred_units) return 0;
    rb_error_set(err, RB_E_DEFERRED, doc->file_name, NULL,
                 "%s needs the model's nodes, and the document keeps %zu units deferred (read with "
                 "rb_read_options.defer): expand it first (rb_doc_expand)",
                 what, doc->deferred_units);
    return RB_E_DEFERRED;
}

/* Deferred units read one at a time (docs/performance.md "One unit at a time"). */
static int units_alone_below(const rb_node *n)
{
    if (n->kind == RB_K_DEFERRED) return n->deferred && n->deferred->start != NULL;
    if (n->kind != RB_K_RECORD && n->kind != RB_K_LIST && n->kind != RB_K_STREAM) return 1;
    for (size_t i = 0; i < n->v.kids.count; i++)
        if (!units_alone_below(n->v.kids.items[i])) return 0;
    return 1;
}

int rb_doc_units_read_alone(const rb_doc *doc)
{
    if (!doc->deferred_units) return 1;
    return doc->expand_unit && doc->format->read_unit && doc->root && units_alone_below(doc->root);
}

#define SWAP(field)                                                                                                    \
    do {                                                                                                               \
        __typeof__(a->field) swapped = a->field;                                                                       \
        a->field = b->field;                                                                                           \
        b->field = swapped;                                                                                            \
    } while (0)

void rb_doc_free_read_products(rb_doc *doc)
{
    for (size_t i = 0; i < doc->note_count; i++) free((void *)doc->notes[i]);
    free(doc->notes);
    for (size_t i = 0; i < doc->owned_count; i++) free(doc->owned[i]);
    free(doc->owned);
    free(doc->sections);
    free(doc->streams);
    free(doc->derived_offsets);
}

void rb_doc_swap_model(rb_doc *a, rb_doc *b)
{
    SWAP(arena);
    SWAP(root);
    SWAP(sections);
    SWAP(section_count);
    SWAP(section_cap);
    SWAP(owned);
    SWAP(owned_count);
    SWAP(owned_cap);
    SWAP(streams);
    SWAP(stream_count);
    SWAP(stream_cap);
    SWAP(derived_offsets);
    SWAP(derived_count);
    SWAP(derived_cap);
    SWAP(notes);
    SWAP(note_count);
    SWAP(note_cap);
    SWAP(notes_dropped);
}
#undef SWAP
