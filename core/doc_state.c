/* The document's state: registering sections, streams, notes and owned buffers (doc_state.h). */
#include <stdlib.h>
#include "doc_state.h"

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
    const char *copy = rb_arena_strdup(&doc->arena, text);
    if (!copy) return -1;
    doc->notes[doc->note_count++] = copy;
    return 0;
}

/* The lock is the document's own synchronisation, not part of its value: taking it on a const
 * document is a read. */
void rb_doc_read_begin(const rb_doc *doc) { pthread_rwlock_rdlock((pthread_rwlock_t *)&doc->lock); }
void rb_doc_read_end(const rb_doc *doc) { pthread_rwlock_unlock((pthread_rwlock_t *)&doc->lock); }
