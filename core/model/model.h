/*
 * The model: a tree of typed values that remember how they are stored on the wire.
 * Records have keyed children in file order; lists have unkeyed children.
 * Scalars keep their raw bits (float NaN payloads, -0.0, booleans that are neither 0 nor 1).
 * Strings and blobs are byte slices; slices of the input are zero-copy.
 */
#ifndef RB_MODEL_H
#define RB_MODEL_H
#include <stddef.h>
#include <stdint.h>
#include "core/model/arena.h"
#include "rebyte.h"

typedef enum rb_kind {
    RB_K_RECORD = 1,
    RB_K_LIST,
    RB_K_INT,
    RB_K_FLOAT,
    RB_K_BOOL,
    RB_K_STRING,
    RB_K_BLOB,   /* typed payload we do not interpret further (thumbnail, zip, ...) */
    RB_K_OPAQUE, /* bytes we cannot parse (yet); counted as opaque in coverage */
    RB_K_STREAM, /* a compressed stream: a record of content plus the original encoded bytes */
    RB_K_ID,     /* a GBX lookback id: a string, a number or empty, with how it was stored (aux) */
    RB_K_TABLE,  /* a list of fixed-layout elements kept packed as their wire bytes (see rb_layout) */
    RB_K_PACKED, /* one fixed-layout record kept as its wire bytes: a table of one element that
                    stands for the element itself (a record to JSON and to the C API) */
    RB_K_DEFERRED /* a unit (a GBX body chunk) read and checked but kept as its bytes: only in a
                     document read with rb_read_options.defer, until the model is navigated
                     (docs/performance.md "The deferred model") */
} rb_kind;

/* Wire description: low 4 bits = byte width; flags above. */
enum {
    RB_W_WIDTH = 0x0F,
    RB_W_SIGNED = 0x10,
    RB_W_BE = 0x20,
    RB_W_HEX = 0x40, /* show as hex in JSON (ids, flags) */
    RB_W_CHAR = 0x80, /* show a u8 as a one-character string when printable */
    /* wider than a byte, HEX and CHAR together (CHAR means nothing there): a symbol handle the
     * JSON shows as the symbol's text (rb_format.symbol_text; Trespasser names) */
    RB_W_SYMBOL = RB_W_HEX | RB_W_CHAR
};
/* Is `wire` a symbol handle (RB_W_SYMBOL)? */
#define RB_WIRE_IS_SYMBOL(wire) (((wire) & RB_W_SYMBOL) == RB_W_SYMBOL && ((wire) & RB_W_WIDTH) > 1)
#define RB_U8 1
#define RB_U16 2
#define RB_U32 4
#define RB_U64 8
#define RB_I8 (1 | RB_W_SIGNED)
#define RB_I16 (2 | RB_W_SIGNED)
#define RB_I32 (4 | RB_W_SIGNED)
#define RB_I64 (8 | RB_W_SIGNED)
#define RB_X32 (4 | RB_W_HEX)

/* RB_K_ID: the value's form (in `wire`) and how the file stored it (flags in `aux`; a deviation
 * from what a writer derives is kept so the original bytes come back). */
enum { RB_ID_EMPTY = 1, RB_ID_NUMBER = 2, RB_ID_STRING = 3 };
enum {
    RB_IDF_DEF31 = 1,     /* defined with bit 31 (0x80000000) instead of bit 30 */
    RB_IDF_REDEFINED = 2, /* written in full although the table already had it */
    RB_IDF_REF_INDEX = 4, /* a back-reference to another slot than the first with this string (aux2) */
    RB_IDF_REF31 = 8,     /* a back-reference with bit 31 set */
    RB_IDF_VERSION = 16   /* the scope's id version word (before this id) is not 3: value in aux >> 16 */
};

/* Original encoded bytes of a stream and what they decoded to. */
typedef struct rb_stream_info {
    const char *codec;
    const uint8_t *original; /* original encoded bytes (zero-copy slice of the input) or NULL */
    size_t original_size;
    uint32_t content_crc32;  /* digest of the decoded content the original encodes */
    uint32_t content_adler32;
    uint64_t content_size;
    /* the decoded content when this document decoded it: the digests are computed from it
     * only when asked for (rb_stream_digests), not on every read */
    const uint8_t *content;
    int digests_known;
    /* the content's CRC-32 as the read checked it against the one the file stores (a stream with a
     * CRC slot, rb_ar_stream_end_crc), so that a write of the unchanged content needs no digest;
     * set only while the document is read */
    uint32_t read_crc32;
    int read_crc_known;
    rb_stream_report report; /* filled on write */
    uint32_t content_section; /* the document section holding `content`, plus one (0: none) */
} rb_stream_info;

/* The layout of one element of a table: a static description of a fixed-size record (or of one
 * bare scalar) that drives reading, writing and JSON like the primitives it stands for. A table
 * keeps its elements as the bytes they were read from (zero-copy) instead of one node per field:
 * the model of a mesh or of a long list of numbers then costs one node. Fields, in wire order:
 * RB_K_INT, RB_K_FLOAT, RB_K_BOOL (`wire` as for rb_ar_uint / rb_ar_f32 / rb_ar_bool), RB_K_BLOB
 * and RB_K_STRING (`size` bytes, as rb_ar_bytes / rb_ar_fixed_string), RB_K_RECORD (a nested record laid out by `record`) and RB_LAYOUT_CONSTANT (a
 * value the format fixes, `constant` of `wire`, named by `key`: checked on read, written, not a
 * model field). A layout of one field with key NULL describes bare scalars (a list of numbers).
 * Little-endian wires only: the packed bytes are the wire bytes. */
enum { RB_LAYOUT_CONSTANT = 0x40 };
typedef struct rb_layout rb_layout;
typedef struct rb_layout_field {
    const char *key;
    uint8_t kind;
    uint8_t wire;
    uint16_t size;
    const rb_layout *record;
    uint32_t constant;
} rb_layout_field;

/* Fields of one element, nested records included, at most (a table's element is built in caller memory). */
enum { RB_LAYOUT_MAX_FIELDS = 64 };

struct rb_layout {
    const char *name; /* what an element is, for errors ("mesh vertex") */
    const rb_layout_field *fields;
    uint16_t field_count;
};

/* Nodes below an element (every field, nested ones included). */
size_t rb_layout_node_count(const rb_layout *layout);
/* Bytes one field (a nested record: all of it) takes on the wire. */
size_t rb_layout_field_bytes(const rb_layout_field *field);
/* Bytes one element takes on the wire. */
size_t rb_layout_stride(const rb_layout *layout);

/* A table's side data (one per table, in the document's arena). */
typedef struct rb_table {
    const rb_layout *layout;
    rb_arena *arena; /* where the nodes go when the table is turned into a list (rb_table_expand) */
    uint32_t count;
    uint32_t stride;
} rb_table;

/* A deferred unit's side data (one per RB_K_DEFERRED node, in the document's arena): what the
 * check-only read saw of it, so that coverage and writing need not expand it. */
typedef struct rb_deferred {
    rb_coverage coverage;    /* rb_coverage of the unit's nodes (an opaque tail in them too) */
    rb_coverage_kinds kinds; /* and rb_coverage_kinds */
    /* the format's record of what the unit did to the reader's state, replayed on write
     * (GBX: the lookback strings it defined, in order); NULL when it did nothing */
    const void *replay;
    uint32_t replay_count;
    uint32_t flags; /* the format's (GBX: the scope's id version word was read in the unit) */
    uint32_t elements; /* a list's elements (rb_element_count: siblings count them as they read) */
    /* the format's record of the reader state the unit began with, so that it can be read again
     * alone (rb_format.read_unit, rb_doc_expand_unit); NULL: it cannot be, the document is read
     * again in full instead */
    const void *start;
    /* the format's: do two units begin with the same reader state, so that equal bytes are equal
     * nodes (GBX: the lookback strings and node indices defined before them)? NULL: never known
     * (docs/usage.md "Diffs": units whose bytes are equal) */
    int (*same_start)(const struct rb_deferred *a, const struct rb_deferred *b);
    /* the unit's description read nodes outside it (rb_ar_enclosing: the length of a sibling's
     * list), so its bytes alone do not say what it holds */
    int reads_around;
    /* a record unit's first member when it is an integer (GBX: a chunk's id), a copy in the
     * document's arena: it names the unit without reading it (the views of apply's in-step
     * lists, patch/in_step.c, look chunks up by it); NULL otherwise */
    const struct rb_node *first;
} rb_deferred;

/* 48 bytes: one per field of every file read, so its size is the model's memory (docs/performance.md).
 * Offsets and sizes are 32-bit: every supported format addresses its data with u32 offsets. */
struct rb_node {
    uint8_t kind;
    uint8_t wire;
    uint16_t section;     /* which byte space src_offset is in (file, body, ...) */
    uint32_t src_offset;  /* where it was read; used to locate differences (UINT32_MAX: beyond 4 GiB) */
    const char *key;      /* NULL inside lists */
    uint32_t src_size;
    uint32_t aux;         /* format-specific wire details (e.g. how a GBX id was stored) */
    union {
        uint32_t aux2;           /* more of them (IDs only) */
        rb_stream_info *stream;  /* STREAM only */
        rb_table *table;         /* TABLE only: the packed elements are v.bytes */
        rb_deferred *deferred;   /* DEFERRED only: the unit's bytes are v.bytes */
    };
    union {
        uint64_t bits; /* INT (zero-extended raw), FLOAT bits, BOOL raw value */
        struct {
            const uint8_t *data;
            size_t size;
        } bytes; /* STRING, BLOB, OPAQUE, TABLE, PACKED, DEFERRED */
        struct {
            rb_node **items;
            uint32_t count, cap;
        } kids; /* RECORD, LIST, STREAM */
    } v;
};
_Static_assert(sizeof(struct rb_node) == 48, "rb_node is the model's memory: keep it at 48 bytes");

/* Fills content_crc32/content_adler32 from the decoded content if not known yet. */
const rb_stream_info *rb_stream_digests(const rb_stream_info *s);
rb_node *rb_node_new(rb_arena *arena, rb_kind kind, const char *key);
int rb_node_append(rb_arena *arena, rb_node *parent, rb_node *child);
rb_node *rb_node_get(const rb_node *record, const char *key);
int rb_node_is_container(const rb_node *n);
/* Is `n`, or a node below it, one that `is` says yes to? */
int rb_node_holds(const rb_node *n, int (*is)(const rb_node *n));
/* TABLE: element `index` as nodes in caller memory: `nodes` holds rb_layout_node_count + 1 nodes
 * and `kids` rb_layout_node_count pointers (RB_LAYOUT_MAX_FIELDS + 1 and RB_LAYOUT_MAX_FIELDS do). Returns the element (a record, or the bare scalar). */
rb_node *rb_table_element(const rb_node *table, size_t index, rb_node *nodes, rb_node **kids);
/* Turns a table into the list of nodes it stands for, and a packed record into the record, in
 * place (for callers that edit nodes). Returns 0 when out of memory (the node is then unchanged). */
int rb_table_expand(rb_node *table);
/* The same nodes built in `arena`, the table or packed record left as it is: a list node (a copy
 * of the table's, its elements as nodes) or the record (with the packed node's key). For a write
 * that spells them out (a text encoding) without changing the model. NULL when out of memory. */
rb_node *rb_table_nodes(const rb_node *table, rb_arena *arena);
/* A record whichever form it has: `record` itself, or for a packed record (RB_K_PACKED) its
 * fields built in `scratch` (valid while `scratch` is). For code that only reads a few fields and
 * should not turn the record into nodes for good. */
typedef struct rb_record_scratch {
    rb_node nodes[RB_LAYOUT_MAX_FIELDS + 1];
    rb_node *kids[RB_LAYOUT_MAX_FIELDS];
} rb_record_scratch;
const rb_node *rb_record_view(const rb_node *record, rb_record_scratch *scratch);
/* Child `index` of a record, stream, list or table, read-only whatever form it has: a packed
 * record seen through rb_record_view, a table's element built in `scratch` (valid while
 * `scratch` is). NULL past the end or for a node that has no children. For walks over a const
 * document that must see a table's elements without turning the table into nodes (reads never
 * write). */
const rb_node *rb_child_view(const rb_node *n, size_t index, rb_record_scratch *scratch);
/* Scalar `key` (a field at the top of the element; NULL: the element is a bare scalar) of element
 * `index` of a table or of a list, as raw bits; 0 when there is no such field. For descriptions that act on every
 * element (counting the names a list refers to) whichever form the list has. */
uint64_t rb_element_uint(const rb_node *list, size_t index, const char *key);
/* Elements of a table, a list, or a list kept as its bytes (RB_K_DEFERRED). */
size_t rb_element_count(const rb_node *list);
/* Element `index` of a table or a list as the packed wire bytes of `layout` (rb_layout_stride
 * bytes at `out`): for descriptions that store elements in another arrangement than one after
 * the other (e.g. transposed). 0 when the element does not have the layout's fields and sizes. */
int rb_element_pack(const rb_node *list, size_t index, const rb_layout *layout, uint8_t *out);
/* Read-only steps that never turn a packed table or record into nodes (reads never write,
 * docs/performance.md "Reads never write"): element `index` of a list of nodes, a member of a
 * record; NULL past the end, for a missing key, or for any other kind of node. */
const rb_node *rb_list_element(const rb_node *list, size_t index);
const rb_node *rb_record_member(const rb_node *record, const char *key);
/* Is `n` a string node holding exactly the `length` bytes of `text` (or the C string `text`)? */
int rb_node_text_equals(const rb_node *n, const void *text, size_t length);
int rb_node_text_is(const rb_node *n, const char *text);
/* Sign-extended integer value according to the wire type. */
int64_t rb_node_int(const rb_node *n);
uint64_t rb_node_uint(const rb_node *n);
/* For format code that knows its model's kinds (the public getters check them): a float node's
 * value by its width, and the bytes of a string, id kept as a string, blob or opaque node (NULL
 * and 0 for any other node, or NULL). */
double rb_node_float(const rb_node *n);
const uint8_t *rb_node_bytes(const rb_node *n, size_t *size);
#endif
