/*
 * The document's state: what one parse owns (sections, streams, notes, the model; what a format
 * is, its hook table, is format.h). The archive fills it and the JSON renderer reads it; both
 * include this header alone, so neither depends on the parsing and registry code in doc.c (no
 * include cycle: tests/structure/include_cycles.py).
 */
#ifndef RB_DOC_STATE_H
#define RB_DOC_STATE_H
#include <jansson.h>
#include <pthread.h>
#include "core/model/arena.h"
#include "core/model/format.h"
#include "core/model/model.h"
#include "rebyte.h"

/* Byte spaces are numbered with 16 bits in the model's nodes. */
enum { RB_MAX_SECTIONS = 65535 };
/* The file name a document keeps for its messages (and a deferred build to build again from). */
enum { RB_DOC_NAME_SIZE = 256 };

/* Where a deferred unit is in the model: child `index` of `parent`, and the containers above
 * `parent` (nearest first), which the unit's description may look at (rb_ar_enclosing). */
/* The deepest chain of containers a unit read alone sees (its own and those above it). */
enum { RB_UNIT_CHAIN = 64 };
typedef struct rb_unit_place {
    const rb_node *unit; /* RB_K_DEFERRED */
    const rb_node *parent;
    size_t index;
    const rb_node *const *above;
    size_t above_count;
} rb_unit_place;

typedef struct rb_section {
    const char *name;
    const uint8_t *data; /* content of this byte space (the input file, a decompressed stream) */
    size_t size;
} rb_section;

struct rb_doc {
    rb_arena arena;
    const rb_format *format;
    rb_node *root;
    char file_name[RB_DOC_NAME_SIZE];
    rb_limits limits;
    rb_section *sections; /* [0] is the input file; decoded streams follow */
    size_t section_count, section_cap;
    void **owned;         /* malloc'd buffers the document owns (decoded streams) */
    size_t owned_count, owned_cap;
    rb_node **streams;    /* every compressed stream, in file order, for reports */
    size_t stream_count, stream_cap;
    uint64_t *derived_offsets; /* where the input stores derived values (sizes, counts), for tests */
    size_t derived_count, derived_cap;
    int record_derived_offsets; /* rb_read_options: only the tests that damage files want them */
    /* the model was edited since it was read: a write checks what edits may break
     * (rb_ar_checks_edits) the way building it from JSON does */
    int edited;
    /* FROM_JSON: blob references ({"$blob": ...}) resolve against this parsed original */
    const rb_doc *blob_source;
    /* rb_doc_set_original: the file this document was made from (a text form's or a dump's
     * original), whose race recordings a write must keep (core/doc/recording_guard.c); not owned */
    const rb_doc *original;
    /* rb_doc_author_recordings: a model built from JSON whose records no game wrote (a test
     * fixture), written without an original */
    int authored_recordings;
    /* the one editor of this model proved its recordings the original's since it was read (apply's
     * edit trace, patch/apply_recordings.c: no edit reached a recording, or each one reached compared
     * unchanged with a fresh read of the original): the write's guard has nothing left to
     * compare. Set for one write and cleared after it, so no later edit passes unchecked. */
    int recordings_proven;
    /* rb_doc_set_companion: the other file of a pair whose assets are split (a .pid and its
     * .spz or .swp), parsed when its format is known (else NULL; freed with this one), and its
     * bytes */
    rb_doc *companion;
    const uint8_t *companion_data;
    size_t companion_size;
    /* the format's lookup over the model (rb_format.free_index), or NULL */
    void *format_index;
    /* the patch engine's indexes of lists selectors searched (patch/model_select.c), or NULL,
     * and what frees them */
    void *select_index;
    void (*select_index_free)(struct rb_doc *doc);
    /* apply's drafts: parts of the model held as JSON until the description builds them
     * (patch/model_draft.c), or NULL; apply discards them before it returns */
    struct rb_drafts *drafts;
    /* deviations the reader kept (rb_ar_note): the texts and the array malloc'd */
    const char **notes;
    size_t note_count, note_cap, notes_dropped;
    /* rb_doc_root turned every packed table and record into nodes: set by a call that has the
     * document to itself (docs/performance.md "Reads never write") */
    int navigable;
    /* The deferred model (docs/performance.md "The deferred model"): read with
     * rb_read_options.defer, formats may keep units as checked bytes (RB_K_DEFERRED, counted in
     * deferred_units); `expand` (set by the parse or the build) makes them nodes again (the file
     * read or built again in full) when rb_doc_expand is called: 0 and `err` when it cannot. */
    int defer_units;
    int check_units; /* rb_read_options.check_units: a unit deferred only when its nodes write its bytes */
    size_t deferred_units;
    /* read beside a document whose units the input holds unchanged (rb_doc_parse_beside): a unit
     * whose bytes are at the same offset is taken from it, not read again (rb_ar_unit_known) */
    const struct rb_doc *units_known;
    int (*expand)(struct rb_doc *doc, rb_error *err);
    /* reads one deferred unit again alone into the caller's arena, the model untouched
     * (core/archive/archive_unit.c rb_doc_expand_unit; set by the parse): how a dump prints one unit at a
     * time (docs/performance.md "One unit at a time") */
    rb_node *(*expand_unit)(const struct rb_doc *doc, const rb_unit_place *place, rb_arena *arena, rb_error *err);
    /* The one lock of a document: writes may run on one document from several threads at once
     * (a write only reads the model), and each publishes its stream reports
     * (rb_stream_info.report) under this lock; rb_doc_stream_report reads them under it.
     * test_concurrent_reads checks the law: every thread sees what one reader alone sees. */
    pthread_mutex_t report_lock;
};

/* Exchanges the models of two documents (the nodes, their arena, sections, streams, derived
 * offsets and notes): how a document with deferred units moves its model out before it reads
 * the file again in full. */
void rb_doc_swap_model(rb_doc *a, rb_doc *b);
/* Frees what one read made besides the arena (notes, owned buffers, sections, streams, derived
 * offsets): a document's model when the arena goes too, a unit read alone when its arena is
 * handed back to the caller. */
void rb_doc_free_read_products(rb_doc *doc);
/* A call that needs the model's nodes where the document keeps deferred units: RB_E_DEFERRED,
 * naming `what` (the call), and the way out (rb_doc_expand). 0 when there are none. */
int rb_doc_refuse_deferred(const rb_doc *doc, const char *what, rb_error *err);
/* Can every deferred unit of the document be read alone (`expand_unit` set, the format reads
 * units, each unit has its start record)? Else only reading the whole file again expands them. */
int rb_doc_units_read_alone(const rb_doc *doc);

/* Registers a byte space; returns its index (0 is the input file). */
/* Records a note (copied); past a cap only the count grows. 0 on success, -1 out of memory. */
int rb_doc_add_note(rb_doc *doc, const char *text);
int rb_doc_add_section(rb_doc *doc, const char *name, const uint8_t *data, size_t size, void *owned);
/* Remembers a compressed stream for reports. 0 on success, -1 out of memory. */
int rb_doc_add_stream(rb_doc *doc, rb_node *stream);
void rb_doc_add_derived_offset(rb_doc *doc, uint64_t offset);
#endif
