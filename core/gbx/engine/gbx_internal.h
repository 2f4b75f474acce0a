/*
 * GBX building blocks shared by the class descriptions: lookback ids, node references,
 * chunk streams, encapsulation, embedded files, the chunk definitions. Layouts: docs/formats/gbx.md
 * "Lookback ids", "Node references", "Chunk streams", "Encapsulation", "Legacy ids". The engine
 * (core/gbx/engine/) sits below the class folders and names none of them: what it needs of the
 * classes (the chunk lookup, the file layout) it asks through the context's gbx_class_hooks, set
 * by core/gbx/gbx.c above them.
 */
#ifndef RB_GBX_INTERNAL_H
#define RB_GBX_INTERNAL_H
#include <stdint.h>
#include "core/archive/archive.h"
#include "core/doc/doc.h"

enum {
    GBX_FACADE = 0xFACADE01u,
    GBX_SKIP = 0x534B4950u, /* "PIKS" read little-endian */
    GBX_HEAVY = 0x80000000u,
    GBX_ID_VERSION = 3
};

/* ---------- lookback-string scopes ---------- */
typedef struct gbx_id_entry {
    const uint8_t *data;
    uint32_t size;
    /* no earlier entry of the scope holds the string: this is the one a writer refers to (set when
     * the entry is added, so a read's back-reference is known canonical without a lookup) */
    uint32_t first;
} gbx_id_entry;

typedef struct gbx_id_scope {
    gbx_id_entry *entries;
    size_t count, cap;
    int version_seen;
} gbx_id_scope;

struct gbx_class_hooks;

/* Per-archive GBX state (the archive's user pointer). */
typedef struct gbx_ctx {
    const struct gbx_class_hooks *classes; /* set by whoever makes a context; copied to one made inside */
    unsigned header_version;
    gbx_id_scope scopes[16]; /* [0] = body; header chunks and encapsulations push fresh ones */
    size_t scope_count;
    uint8_t *node_seen;      /* READ: node indices defined so far (bitmap) */
    size_t node_seen_bits;
    uint32_t *node_log;      /* indices marked, in order, so a speculative read can undo them */
    size_t node_log_count, node_log_cap;
    const uint32_t *external_nodes; /* node indices of the reference table */
    size_t external_count;
    char opaque_reason[600]; /* why the typed parse of the main node stopped, if it did */
    const rb_node *file;     /* WRITE: the file record being written (header copies read its body) */
    int deferring;           /* READ / FROM_JSON: the document's own file, its units deferred */
    int checking;            /* READ, deferring: a unit deferred only when its nodes write its bytes */
    struct gbx_read_end *read_end; /* READ, deferring: what units read alone start from (gbx_unit.c) */
    const struct gbx_list *unit_list; /* WRITE of one list unit at build time (gbx_defer_built) */
} gbx_ctx;

gbx_ctx *gbx_ctx_of(rb_ar *ar);
void gbx_ctx_free(gbx_ctx *ctx);
void gbx_scope_push(rb_ar *ar);
void gbx_scope_pop(rb_ar *ar);

/* Snapshot of the GBX state for speculative reads (paired with rb_ar_mark). */
typedef struct gbx_mark {
    rb_ar_mark ar;
    size_t scope_count, id_count, node_log;
    int version_seen;
} gbx_mark;
gbx_mark gbx_mark_here(rb_ar *ar);
/* Deferred body chunks (docs/performance.md "The deferred model"): the ids a chunk defined in the
 * current scope since `ids_before`, kept with it as its replay (RB_K_DEFERRED), and read back
 * into the writer's scope when the chunk is written as its bytes. */
enum { GBX_UNIT_READ_ID_VERSION = 1 }; /* rb_deferred.flags: the scope's version word is in the unit */
rb_node *gbx_defer_ids(rb_ar *ar, const rb_ar_unit *unit, size_t ids_before, int version_seen_before);
size_t gbx_id_count(rb_ar *ar, int *version_seen);
void gbx_replay_ids(rb_ar *ar, const rb_node *unit);

/* Deferred units read again alone (core/gbx/gbx_unit.c;
 * docs/performance.md "One unit at a time"). The state of the body scope and of node references when the read
 * ends holds every unit's start as a prefix (a speculative read that is undone takes back what
 * it added, and the units it held): kept once per document, in its arena. */
typedef struct gbx_read_end {
    const gbx_id_entry *body_ids; /* the body scope's strings */
    const uint32_t *node_log;     /* node indices in the order they were defined */
    const uint32_t *external_nodes;
    size_t body_id_count, node_log_count, external_count;
    int complete; /* the read reached its end and filled the above */
    const struct gbx_class_hooks *classes; /* the read's, for a unit read again alone */
} gbx_read_end;
/* A unit's start (rb_deferred.start). */
typedef struct gbx_unit_start {
    const gbx_read_end *read_end;
    const gbx_id_entry *scope_ids; /* a nested scope's strings at the start (the body's: read_end) */
    uint32_t id_count, node_log;   /* strings in the scope, node references defined, at the start */
    uint8_t scope_depth, version_seen;
    const struct gbx_list *list;   /* a list unit: its elements' description (a copy) */
} gbx_unit_start;
/* READ, deferring: the record kept at the start of the read and filled at its end. */
void gbx_read_end_begin(rb_ar *ar);
void gbx_read_end_fill(rb_ar *ar);
/* After gbx_defer_ids made `unit` deferred: its start (`start`, taken before it was read; `list`
 * for a list unit) recorded with it. */
void gbx_unit_remember_start(rb_ar *ar, rb_node *unit, const struct gbx_mark *start, const struct gbx_list *list);
/* rb_format.read_unit. */
int gbx_read_unit(rb_ar *ar, const rb_node *unit);
/* The state the unit began with put back in `ctx` (gbx_id.c: the scope; gbx_node.c: node
 * references); 0 when out of memory. */
int gbx_restore_scope(rb_ar *ar, const gbx_unit_start *start);
int gbx_restore_nodes(rb_ar *ar, const gbx_unit_start *start);
/* Describes one chunk of a chunk list, or the list `list` (gbx_node.c). */
void gbx_describe_chunk(rb_ar *ar);
void gbx_counted_list(rb_ar *ar, const struct gbx_list *list);
/* A long counted list (u32 count) inside a chunk that cannot be deferred whole (a map's blocks,
 * baked blocks and anchored objects: header copies and sibling chunks read the chunk's other
 * fields and the list's length): in a deferring read its elements are read and checked a few at
 * a time and the list is kept as its bytes, and written as them
 * (docs/performance.md "The deferred model"). Elsewhere the list of `element`s it describes. */
typedef struct gbx_list gbx_list;
struct gbx_list {
    const char *key;
    uint64_t min_element_bytes;
    void (*element)(rb_ar *ar, uint32_t argument);
    uint32_t argument;
    /* NULL, or: does this element count toward a fact the header keeps (a map's checkpoints,
     * map/map_facts.c)? A deferred list keeps how many did (GBX_UNIT_COUNTED_SHIFT), so the
     * writer counts without reading it. */
    int (*counted)(const rb_node *element);
};
/* rb_deferred.flags >> GBX_UNIT_COUNTED_SHIFT: a deferred list's elements that gbx_list.counted
 * counts (below it, GBX_UNIT_READ_ID_VERSION). */
enum { GBX_UNIT_COUNTED_SHIFT = 8 };
void gbx_deferrable_list(rb_ar *ar, const gbx_list *list);
/* The current id scope, and a string added to a scope (the build's writer contexts, gbx_built.c). */
gbx_id_scope *gbx_scope(rb_ar *ar);
int gbx_scope_add(rb_ar *ar, gbx_id_scope *scope, const uint8_t *data, size_t size);
/* `to` holds what `from` holds (a fresh `to` takes a copy of its table and index at once, else the
 * strings it lacks are added); 0 when out of memory (the archive failed). */
int gbx_scope_copy(rb_ar *ar, gbx_id_scope *to, const gbx_id_scope *from);

/* FROM_JSON of a deferring build (rebyte build; gbx_built.c,
 * docs/performance.md "Build within 3x"): a unit is built and checked from its JSON, written at once from
 * the writer's id scope as it will be there (the build tracks it), and kept as those bytes with
 * the ids it defined as its replay, like a unit of a deferred read. A list unit is written and let
 * go of GBX_ELEMENTS_AT_ONCE elements at a time. */
typedef struct gbx_built {
    rb_ar_unit unit;
    size_t ids_before, ids_kept; /* the scope's count before the unit, and up to which its strings moved */
    int version_seen;            /* the scope's version word before the unit */
    const gbx_list *list;        /* a list unit's description */
    gbx_ctx *writer;             /* the writer's state at the unit (made on first write) */
    rb_buf bytes;                /* a list unit's elements written so far */
    rb_arena strings;            /* the strings of ids defined by elements let go of */
    int checking;                /* READ: the unit is written and compared before it is let go */
    int differs;                 /* READ, checking: some of it would be written otherwise */
} gbx_built;
enum { GBX_ELEMENTS_AT_ONCE = 256 }; /* elements a deferred list keeps as nodes at most */
void gbx_built_begin(rb_ar *ar, gbx_built *built, const gbx_list *list);
/* A list unit's elements built so far written and let go of (the list open at the top). */
void gbx_built_flush(rb_ar *ar, gbx_built *built, void (*describe_elements)(rb_ar *ar));
/* The unit (closed: the current container's last child) kept as its bytes: a chunk written by
 * `describe`, a list as its count and the elements flushed. NULL when it stays nodes. Frees what
 * the build of the unit held. */
rb_node *gbx_built_defer(rb_ar *ar, gbx_built *built, void (*describe)(rb_ar *ar));
/* The same bracket over a deferring READ (gbx_built_begin first): with rb_read_options.check_units,
 * does the unit (closed: the current container's last child), written from the writer's state at
 * it by `describe`, give the bytes it was read from? 1 when it does or nothing is checked. */
int gbx_built_writes_back(rb_ar *ar, gbx_built *built, void (*describe)(rb_ar *ar));
/* The same for a list unit's elements read since the last drop (the list open at the top); when
 * they would be written otherwise, the list stops letting go of its elements (built->differs). */
int gbx_built_elements_write_back(rb_ar *ar, gbx_built *built, void (*describe_elements)(rb_ar *ar));
/* What gbx_built_begin and the checks held, freed. */
void gbx_built_end(gbx_built *built);
void gbx_rewind(rb_ar *ar, const gbx_mark *mark, char *why, size_t why_size);

/* ---------- primitives ---------- */
void gbx_string(rb_ar *ar, const char *key);            /* i32 length + bytes */
void gbx_id(rb_ar *ar, const char *key);                /* lookback string */
void gbx_meta(rb_ar *ar, const char *key);              /* ident: id, collection, author */
void gbx_fileref(rb_ar *ar, const char *key);           /* packdesc */
void gbx_vec2(rb_ar *ar, const char *key);
void gbx_vec3(rb_ar *ar, const char *key);
void gbx_int3(rb_ar *ar, const char *key);
void gbx_byte3(rb_ar *ar, const char *key); /* three u8 (a block coordinate) */
void gbx_floats(rb_ar *ar, const char *key, int count); /* a fixed array of f32 */
uint32_t gbx_bool(rb_ar *ar, const char *key);          /* u32 boolean, raw value kept */

/* ---------- field runs (gbx_fields.c) ----------
 * A fixed sequence of simple fields, one letter per wire type: b bool32, B bool8, i i32, u u32,
 * X u32 shown in hex, h u16, y u8, f f32, q i64 (filetime), Q u64, s string, I id, M ident,
 * p packdesc, n node reference, 2 int2, 3 int3, v vec3, x 16 bytes, L list of i32, S list of
 * strings, P list of packdescs, N list of node references. */
typedef struct gbx_field {
    char type;
    const char *key;
} gbx_field;
void gbx_fields(rb_ar *ar, const gbx_field *fields, size_t count);
/* The fields and their number, for the functions that take both:
 * gbx_fields_list(ar, "checkpoints", 8, GBX_FIELDS({'i', "time"}, {'f', "speed"})). */
#define GBX_FIELDS(...) (const gbx_field[]){__VA_ARGS__}, sizeof((const gbx_field[]){__VA_ARGS__}) / sizeof(gbx_field)
/* A list (u32 count, derived) of records that are each one field run; `min_element_bytes`
 * bounds the count against the bytes left (rb_ar_list_begin). Returns its length. */
uint64_t gbx_fields_list(rb_ar *ar, const char *key, uint64_t min_element_bytes, const gbx_field *fields, size_t count);
/* A chunk that is one field run: GBX_FIELDS_CHUNK(name, {'u', "version"}, {'s', "u01"}). */
#define GBX_FIELDS_CHUNK(fn, ...)                                                                  \
    static const gbx_field fn##_fields[] = {__VA_ARGS__};                                          \
    static void fn(rb_ar *ar) { gbx_fields(ar, fn##_fields, sizeof fn##_fields / sizeof fn##_fields[0]); }
/* int2 / int4: exactly `width` i32, a list in the model. */
void gbx_int_tuple(rb_ar *ar, const char *key, int width);

/* One entry of a map's block list (chunks 013, 01F, and 048's baked blocks), block version v. */
void gbx_block(rb_ar *ar, uint32_t version);

/* Counted lists (u32 count, derived on write) of one primitive each. */
void gbx_i32_list(rb_ar *ar, const char *key);
void gbx_string_list(rb_ar *ar, const char *key);
void gbx_fileref_list(rb_ar *ar, const char *key);
void gbx_int3_list(rb_ar *ar, const char *key);
void gbx_noderef_list(rb_ar *ar, const char *key);
void gbx_noderef_deprec_list(rb_ar *ar, const char *key); /* u32 list version first */

/* ---------- nodes ---------- */
/* A node reference with an index (outside encapsulation): -1, a back-reference, an external
 * node, or a new node (class id + chunks) defined in place. */
void gbx_noderef(rb_ar *ar, const char *key);
/* Inside an encapsulated section: u32 class id (0xFFFFFFFF = none) + chunks, no index. */
void gbx_noderef_encapsulated(rb_ar *ar, const char *key);
/* A node whose class is implied by its place: chunks only. */
void gbx_node_direct(rb_ar *ar, const char *key);
/* The body's main node of class `class_id`: its chunks, or the archive of a class without chunks. */
void gbx_main_node(rb_ar *ar, uint32_t class_id);

/* The payload of a sized chunk: typed when `def` knows its layout and the layout consumes all
 * of its bytes, else kept opaque as "data". */
struct gbx_chunk_def;
void gbx_typed_or_opaque(rb_ar *ar, const struct gbx_chunk_def *def);

/* Encapsulated section: u32 0, u32 size, payload with a fresh id scope. */
void gbx_encapsulation_begin(rb_ar *ar);
void gbx_encapsulation_end(rb_ar *ar);

/* ---------- chunk registry ---------- */
typedef struct gbx_chunk_def {
    uint32_t id;         /* current (not legacy) chunk id */
    uint8_t skippable;   /* 1: skippable; GBX_WHOLE_NODE: `id` is a class whose nodes have no chunks */
    const char *name;
    void (*describe)(rb_ar *ar);
} gbx_chunk_def;

typedef struct gbx_chunk_table {
    const gbx_chunk_def *defs;
    size_t count;
} gbx_chunk_table;

/* A class whose nodes are one archive instead of a chunk stream (no chunk ids, no end marker:
 * GBX.NET's classes described by a bare `archive`, e.g. CPlugStaticObjectModel). Its table entry
 * has the class id and this value as `skippable`; a node of that class is its description. */
enum { GBX_WHOLE_NODE = 2 };

/* Legacy class/chunk ids (TM 2003-2006 engine ids) mapped to current ones, for dispatch only:
 * the raw id is what the model keeps and writes. */
uint32_t gbx_remap_id(uint32_t raw);
/* rb_format.era_id and era_spellings: legacy and current ids are one id to selectors. */
int gbx_era_id(const rb_node *member, uint64_t value, uint64_t *current);
size_t gbx_era_spellings(uint64_t current, uint64_t *others, size_t max);
/* rb_format.unit_member: a deferred body chunk's id is its first four bytes. */
int gbx_unit_member(const rb_node *list, const rb_node *unit, const char *key, rb_node *member);

/* What the engine asks of the classes above it (core/gbx/gbx.c fills it). */
typedef struct gbx_class_hooks {
    /* the definition of a body chunk or GBX_WHOLE_NODE class (legacy ids too), NULL if none */
    const gbx_chunk_def *(*find_chunk)(uint32_t raw_chunk_id);
    /* does a header copy read this body chunk's nodes (then it is never deferred)? */
    int (*holds_copied_facts)(uint32_t raw_chunk_id);
    /* a whole GBX file: header, reference table, body (an embedded file's description) */
    void (*describe_file)(rb_ar *ar);
} gbx_class_hooks;

/* A complete GBX file inside another (a replay's map): its own header, ids and node indices. */
void gbx_embedded_file(rb_ar *ar, const char *key);
/* The same without the size: the enclosing range (a zip entry's content) bounds the file. 1 when
 * it is typed to its end; 0 when its typed parse stopped (why in `stopped`). */
int gbx_embedded_file_content(rb_ar *ar, const char *key, char *stopped, size_t stopped_size);
/* A map's embedded items zip (u32 size + zip) as its files (map/embedded_zip.c). */
void gbx_embedded_zip(rb_ar *ar, const char *key);
/* Anchored object infos {bool, i32, 3 f32, i32} with a u32 count: the Object media block's
 * version 0 and replay chunk 0x0309301F's (mediatracker/tm2020_blocks.c) */
void gbx_anchored_object_infos(rb_ar *ar, const char *key);
#endif
