/*
 * The archive: one description of a structure drives every direction.
 *
 *   RB_AR_READ      bytes -> model     (primitives read the cursor, create nodes)
 *   RB_AR_WRITE     model -> bytes     (primitives take the next node, emit it)
 *   RB_AR_FROM_JSON JSON  -> model     (primitives take the JSON member, validate, create nodes)
 *
 * model -> JSON needs no description: nodes carry their wire types (see json.c).
 *
 * Every primitive returns the value it handled, so descriptions branch on versions
 * the same way in every direction. After the first error every call is a no-op that
 * returns 0; loops check rb_ar_ok(). Derived values (sizes, counts, encoded streams)
 * are not model fields: they are read in READ and computed in WRITE.
 */
#ifndef RB_ARCHIVE_H
#define RB_ARCHIVE_H
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include "core/buf.h"
#include "core/model/model.h"
#include "core/archive/codec.h"

typedef enum rb_ar_dir { RB_AR_READ = 1, RB_AR_WRITE, RB_AR_FROM_JSON } rb_ar_dir;

typedef struct rb_ar rb_ar;

/* A derived value written before the content it depends on: reserved in WRITE, patched later. */
typedef struct rb_slot {
    uint64_t value;    /* READ: the value read */
    size_t position;   /* WRITE: where it was reserved */
    uint8_t wire;
    int valid;
} rb_slot;

typedef struct rb_doc rb_doc_state; /* core/doc/doc.h */

/* --- lifetime (used by the document layer) --- */
rb_ar *rb_ar_new_read(rb_doc_state *doc, const uint8_t *data, size_t size, rb_node *root);
rb_ar *rb_ar_new_write(rb_doc_state *doc, rb_node *root, int reencode, int decoded);
/* With re-encoding: only streams of this codec (NULL = all). */
void rb_ar_set_reencode_codec(rb_ar *ar, const char *codec);
rb_ar *rb_ar_new_from_json(rb_doc_state *doc, json_t *json, rb_node *root);
/* FROM_JSON of one draft of a model (patch/model_draft.c): `root` is a fresh list standing in for
 * the model's container around[0] (the list the draft belongs in), `json` the array of the one
 * element; rb_ar_enclosing reaches the model's containers around[1..] above it, so a description
 * that reads its siblings or its node's class finds them as in a whole build. */
rb_ar *rb_ar_new_draft_from_json(rb_doc_state *doc, json_t *json, rb_node *root, const rb_node *const *around,
                                 size_t around_count);
/* FROM_JSON: `json` came from this loader, its large lists filled as they are reached
 * (json_stream.h). */
struct rb_json_loader;
void rb_ar_set_json_loader(rb_ar *ar, struct rb_json_loader *loader);
/* Finishes: checks that everything was consumed. Returns 1 when no error happened. */
int rb_ar_finish(rb_ar *ar);
void rb_ar_free(rb_ar *ar);
rb_buf *rb_ar_output(rb_ar *ar);

rb_ar_dir rb_ar_direction(const rb_ar *ar);
int rb_ar_ok(const rb_ar *ar);
/* Should the description check what an edit can break (lists kept in step, ...)? In FROM_JSON,
 * and in WRITE of a model edited since it was read; a file as read keeps its deviations. */
int rb_ar_checks_edits(const rb_ar *ar);
const rb_error *rb_ar_error(const rb_ar *ar);
const rb_limits *rb_ar_limits(const rb_ar *ar);
rb_arena *rb_ar_arena(rb_ar *ar);
/* Memory for what a description needs while it runs (not model nodes): the document's arena
 * while the model is built, the archive's own while writing, since several writes of one
 * document may run at once and a write never changes the document (docs/performance.md). */
rb_arena *rb_ar_scratch_arena(rb_ar *ar);
rb_doc_state *rb_ar_doc(rb_ar *ar);
/* Format-specific state (e.g. the GBX lookback-string table). */
void rb_ar_set_user(rb_ar *ar, void *user);
void *rb_ar_user(rb_ar *ar);

/* Fail with a message; the archive adds file, section, offset and structure path. */
void rb_ar_fail(rb_ar *ar, rb_status status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* --- scalars: return the value (raw bits for floats and booleans) --- */
uint64_t rb_ar_uint(rb_ar *ar, const char *key, unsigned wire);
int64_t rb_ar_sint(rb_ar *ar, const char *key, unsigned wire);
static inline uint8_t rb_ar_u8(rb_ar *ar, const char *key) { return (uint8_t)rb_ar_uint(ar, key, RB_U8); }
static inline uint16_t rb_ar_u16(rb_ar *ar, const char *key) { return (uint16_t)rb_ar_uint(ar, key, RB_U16); }
static inline uint32_t rb_ar_u32(rb_ar *ar, const char *key) { return (uint32_t)rb_ar_uint(ar, key, RB_U32); }
static inline uint32_t rb_ar_x32(rb_ar *ar, const char *key) { return (uint32_t)rb_ar_uint(ar, key, RB_X32); }
static inline uint64_t rb_ar_u64(rb_ar *ar, const char *key) { return rb_ar_uint(ar, key, RB_U64); }
static inline int32_t rb_ar_i32(rb_ar *ar, const char *key) { return (int32_t)rb_ar_sint(ar, key, RB_I32); }
uint32_t rb_ar_f32(rb_ar *ar, const char *key);   /* returns the bits */
uint64_t rb_ar_f64(rb_ar *ar, const char *key);
uint32_t rb_ar_bool(rb_ar *ar, const char *key, unsigned width); /* raw value; width 1 or 4 */
/* A value the caller already knows (e.g. a magic): READ checks it, WRITE emits it; not in the model. */
int rb_ar_expect(rb_ar *ar, const char *what, const void *bytes, size_t size);
/* Peek the next `width` bytes as little-endian (READ only; 0 in other directions or at the end). */
int rb_ar_peek_u32(rb_ar *ar, uint32_t *value);
/* Peek the little-endian u32 `offset` bytes ahead (READ only). */
int rb_ar_peek_u32_at(rb_ar *ar, uint64_t offset, uint32_t *value);
uint64_t rb_ar_remaining(const rb_ar *ar);
int rb_ar_at_end(const rb_ar *ar);
/* The next `size` bytes of the current range, not consumed (READ only; NULL in other directions or
 * when fewer are left). For checks over a whole structure before describing it (e.g. a checksum). */
const uint8_t *rb_ar_peek_bytes(rb_ar *ar, uint64_t size);
/* The bytes written since output position `from` (a value of rb_ar_tell; WRITE only, else NULL). */
const uint8_t *rb_ar_written_since(rb_ar *ar, uint64_t from, uint64_t *size);
/* WRITE: copies the n bytes written at `at` of the current output (a few bytes: unlike
 * rb_ar_written_since it leaves a compare-as-you-go output in its mode). 0 when not written. */
int rb_ar_read_written(rb_ar *ar, uint64_t at, void *out, size_t n);

/* A deviation the reader found and keeps (READ only; a no-op in other directions): a stored derived
 * value that is not what it should be, kept so the file writes back byte for byte. The note gets
 * the section, offset and structure path the way errors do; `verify` lists a document's notes. */
void rb_ar_note(rb_ar *ar, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* WRITE: the current record's next member `key` is a recorded deviation the writer does not
 * reproduce (the data it depended on changed): it leaves the model, which then describes what is
 * written (so a re-read of the output equals the model). Returns 1 when it was dropped. */
int rb_ar_drop(rb_ar *ar, const char *key);

/* WRITE: when the current record does not hold the next field `key`, write `value` in its place
 * (a copy the format derives from elsewhere in the model, e.g. a GBX header's copy of a body
 * field). Applies to the next field described only; READ and FROM_JSON ignore it. */
void rb_ar_derived(rb_ar *ar, const char *key, const rb_node *value);

/* FROM_JSON: a symbol handle field (RB_W_SYMBOL) spelled as text gets its handle from the
 * format's resolver (0 found or made, -1 none); the JSON object being described, member `key`. */
typedef int (*rb_ar_symbol_resolver)(void *context, const char *text, size_t length, uint32_t *handle);
void rb_ar_set_symbol_resolver(rb_ar *ar, rb_ar_symbol_resolver resolver, void *context);
const json_t *rb_ar_json_member(rb_ar *ar, const char *key);

/* A field whose bytes live elsewhere (e.g. in a table before the payloads it describes):
 * READ stores `read_value`; WRITE returns the model's value without emitting; FROM_JSON parses. */
uint64_t rb_ar_uint_detached(rb_ar *ar, const char *key, unsigned wire, uint64_t read_value);
/* A string held by the model but not stored at the cursor (READ: read_data must outlive the
 * document, e.g. point into the input). WRITE emits nothing; returns the model's node. */
const rb_node *rb_ar_string_detached(rb_ar *ar, const char *key, const uint8_t *read_data, size_t read_size);
/* WRITE/FROM_JSON inside a list: is the next element a string? (lists mixing strings and
 * numbers, e.g. string links where a number spells "no string") */
int rb_ar_next_is_string(rb_ar *ar);
uint32_t rb_ar_bool_detached(rb_ar *ar, const char *key, unsigned width, uint64_t read_value);
/* Is optional field `key` present? READ: `read_answer` (the description decides from the bytes);
 * WRITE: whether the model's current record has it; FROM_JSON: whether the JSON object has it. */
int rb_ar_has(rb_ar *ar, const char *key, int read_answer);
/* Length of list `key` of the current record, for counts stored before other fields.
 * READ: `read_value`; WRITE: the model list's length; FROM_JSON: the JSON array's length. */
uint64_t rb_ar_count_of(rb_ar *ar, const char *key, uint64_t read_value);

/* --- strings and bytes --- */
/* Length-prefixed string (prefix wire RB_U32/RB_I32/RB_U16/RB_U8). Returns the node (NULL on error). */
const rb_node *rb_ar_string(rb_ar *ar, const char *key, unsigned length_wire);
const rb_node *rb_ar_fixed_string(rb_ar *ar, const char *key, size_t size);
/* A NUL-terminated string: the text, then its terminator (READ fails when the range has no NUL;
 * WRITE and FROM_JSON refuse a text holding a NUL, which would end it early). */
const rb_node *rb_ar_cstring(rb_ar *ar, const char *key);
/* Blob/opaque of a size the caller knows (READ); WRITE emits the model's bytes. In the text
 * encoding's READ, size UINT64_MAX takes the line's bytes whatever their number. */
const rb_node *rb_ar_bytes(rb_ar *ar, const char *key, rb_kind kind, uint64_t size);
/* rb_ar_bytes whose WRITE puts the `width`-byte words at `deferred` (increasing offsets into the
 * bytes) as ones the description patches afterwards (rb_ar_slot_set on a slot there), so writing
 * against the original (rb_doc_write_against) compares them once patched instead of stopping at
 * them. READ, FROM_JSON and text: rb_ar_bytes. */
const rb_node *rb_ar_bytes_deferring(rb_ar *ar, const char *key, rb_kind kind, uint64_t size, const uint32_t *deferred,
                                     size_t count, unsigned width);
/* Everything up to the end of the current range, kept opaque. */
const rb_node *rb_ar_rest(rb_ar *ar, const char *key);

/* --- derived values --- */
/* READ: reads and returns the stored value. WRITE: reserves room; patch it with rb_ar_slot_set.
 * Never a model field. */
rb_slot rb_ar_slot(rb_ar *ar, const char *what, unsigned wire);
void rb_ar_slot_set(rb_ar *ar, rb_slot *slot, uint64_t value);
/* Bytes written so far in the current output (WRITE) / consumed in the current range (READ). */
uint64_t rb_ar_tell(const rb_ar *ar);

/* --- structure --- */
void rb_ar_record_begin(rb_ar *ar, const char *key);
void rb_ar_record_end(rb_ar *ar);
/* Counted list. count_wire = RB_U32 etc.: the count is read (READ) or derived from the model (WRITE).
 * min_item_bytes bounds the count against the bytes left before anything is allocated. */
uint64_t rb_ar_list_begin(rb_ar *ar, const char *key, unsigned count_wire, uint64_t min_item_bytes);
/* A list whose length is known from elsewhere (READ uses `count`; other directions the model's). */
uint64_t rb_ar_list_begin_n(rb_ar *ar, const char *key, uint64_t count, uint64_t min_item_bytes);
/* A list that runs until the description stops it (READ); WRITE/JSON know its length. */
void rb_ar_list_begin_open(rb_ar *ar, const char *key);
/* In WRITE/FROM_JSON: 1 while the model still has an element; in READ: always 1. */
int rb_ar_list_has_more(rb_ar *ar);
void rb_ar_list_end(rb_ar *ar);
/* A list whose elements have no known layout and that every known file has empty: the model
 * holds it as an empty list, its count derived like any list's.
 * READ refuses a stored count other than 0 and WRITE / FROM_JSON refuse elements, both as
 * RB_E_UNSUPPORTED naming `what`. Returns 1 when the list is empty. */
int rb_ar_empty_list(rb_ar *ar, const char *key, unsigned count_wire, const char *what);
/* Length of the list being described (for WRITE-side loops). */
uint64_t rb_ar_list_length(const rb_ar *ar);

/* The loops of the description language. Every one stops at the first error, so that a
 * description never goes on past a failed element (after an error every primitive is a no-op).
 *
 *   RB_AR_EACH(ar, i, n)     elements 0..n-1 of a list the caller ends (or any run of n fields)
 *   RB_AR_LIST(ar, i, n)     the elements of the list just begun (n: what rb_ar_list_begin or
 *                            _n returned), then rb_ar_list_end
 *   RB_AR_RECORDS(ar, i, n)  the same, each element a record (rb_ar_record_begin(ar, NULL) before
 *                            the body, rb_ar_record_end after)
 *
 * `i` is the element's index (uint64_t) inside the body. The body of RB_AR_LIST and RB_AR_RECORDS
 * must not leave by break, return or goto: the list (and record) would stay open. */
#define RB_AR_EACH(ar, i, n) for (uint64_t i = 0; i < (n) && rb_ar_ok(ar); i++)
#define RB_AR_LIST(ar, i, n) for (uint64_t i = UINT64_MAX, i##_count = (n); rb_ar_list_next((ar), &i, i##_count, 0);)
#define RB_AR_RECORDS(ar, i, n) for (uint64_t i = UINT64_MAX, i##_count = (n); rb_ar_list_next((ar), &i, i##_count, 1);)
/* The step of RB_AR_LIST / RB_AR_RECORDS: ends the element at *index (none when UINT64_MAX),
 * begins the next one and returns 1, or ends the list and returns 0. */
int rb_ar_list_next(rb_ar *ar, uint64_t *index, uint64_t count, int records);

/* Tables: a list of elements of one static layout (rb_layout, model.h), the same as
 * rb_ar_list_begin (or _n), one element described per iteration, rb_ar_list_end — only faster and
 * smaller. Binary READ keeps the elements as their packed bytes (one node for the list); WRITE
 * copies a table out whole, or writes field by field a list (a table that an edit turned into
 * nodes); FROM_JSON and the text encoding go field by field. Returns the number of elements. */
uint64_t rb_ar_table(rb_ar *ar, const char *key, unsigned count_wire, const rb_layout *layout);
uint64_t rb_ar_table_n(rb_ar *ar, const char *key, uint64_t count, const rb_layout *layout);
/* A table whose elements are not stored at the cursor (values a description derives from other
 * bytes, e.g. where bytecode names variables). READ: a table over `read_bytes` (`read_count`
 * packed elements; they must outlive the document: the arena); WRITE takes the model's table or
 * list and emits nothing; FROM_JSON builds it from the JSON array. Returns the element count;
 * rb_element_uint reads the elements (rb_node_get(rb_ar_current(ar), key) is the node). */
uint64_t rb_ar_table_detached(rb_ar *ar, const char *key, const rb_layout *layout, const uint8_t *read_bytes,
                              uint64_t read_count);
/* One record laid out by `layout` (e.g. a single vector where a table holds many). */
void rb_ar_layout_record(rb_ar *ar, const char *key, const rb_layout *layout);
/* The fields of `layout` from its field `first` on, spelled out in the current record (a record
 * whose first fields the description spells itself). */
void rb_ar_layout_fields(rb_ar *ar, const rb_layout *layout, size_t first);
/* The same, kept packed: binary READ keeps the record as its bytes (one RB_K_PACKED node instead
 * of a node per field, for formats made of many small records of a few layouts); WRITE copies a
 * packed record out whole, or spells out a record an edit turned into nodes; FROM_JSON and text
 * spell it out. To JSON, the C API and error paths it is the record rb_ar_layout_record makes.
 * Returns the packed node (READ and WRITE, binary; its bytes are a slice of the input, the ones
 * it was read from), NULL when the record was spelled out. */
const rb_node *rb_ar_packed_record(rb_ar *ar, const char *key, const rb_layout *layout);
/* WRITE, binary: the layout of the model's next node when it is a packed record, else NULL (for
 * descriptions whose layout depends on the record: they describe it with rb_ar_packed_record). */
const rb_layout *rb_ar_next_packed(rb_ar *ar);

/* A byte range with a size prefix: READ limits parsing to it; WRITE computes the size. */
void rb_ar_sized_begin(rb_ar *ar, const char *what, unsigned size_wire);
void rb_ar_sized_end(rb_ar *ar);
/* A range of known size (READ), no prefix. */
void rb_ar_range_begin(rb_ar *ar, const char *what, uint64_t size);
void rb_ar_range_end(rb_ar *ar);

/* A compressed stream. READ: decodes `encoded_size` bytes to `content_size` and parses the content
 * in its own section (offsets in errors are content offsets). WRITE: content goes to a buffer; at
 * the end the original encoded bytes are emitted when the content is unchanged (and re-encoding was
 * not forced), else the codec encodes it; the slots receive content and encoded sizes. */
void rb_ar_stream_begin(rb_ar *ar, const char *key, const rb_codec *codec, uint64_t content_size,
                        uint64_t encoded_size);
void rb_ar_stream_end(rb_ar *ar, rb_slot *content_size_slot, rb_slot *encoded_size_slot);
/* The same for formats that store the CRC-32 of the content (zip entries): READ checks the stored
 * value against the decoded content (binary only), WRITE derives it. */
void rb_ar_stream_end_crc(rb_ar *ar, rb_slot *content_size_slot, rb_slot *encoded_size_slot, rb_slot *crc_slot);

/* --- the text encoding (text GBX, format byte 'T'; spellings in archive_text.h) ---
 * From here on every primitive is one line ended by CR LF: READ parses lines, WRITE spells them.
 * A size stays a byte count: of the text it covers (a sized range, a stream), or of the bytes
 * it measures (a blob's length, which a "0x" line holds). A description switches it where its
 * format says (GBX: after the format and compression bytes); FROM_JSON ignores it. */
void rb_ar_set_text(rb_ar *ar, int text);
int rb_ar_is_text(const rb_ar *ar);
/* A format's own spelling of a value: one line (text only; NULL in binary). */
const uint8_t *rb_ar_take_line(rb_ar *ar, const char *what, size_t *len);

/* --- building blocks for format-specific primitives (e.g. GBX lookback strings) --- */
/* READ: a number of this wire (binary: its bytes; text: its line), the inverse of rb_ar_emit_uint. */
int rb_ar_take_uint(rb_ar *ar, const char *what, unsigned wire, uint64_t *value);
/* A length-prefixed byte string (binary: length of `length_wire`, then the bytes; text: a string
 * line). READ returns the bytes (NULL on error), WRITE emits them. */
const uint8_t *rb_ar_take_lstring(rb_ar *ar, const char *what, unsigned length_wire, size_t *size);
void rb_ar_emit_lstring(rb_ar *ar, const void *data, size_t size, unsigned length_wire);
/* The node for the next field: created (READ, FROM_JSON; *json gets the JSON value) or taken
 * from the model and checked (WRITE). NULL after an error. */
rb_node *rb_ar_field(rb_ar *ar, const char *key, rb_kind kind, unsigned wire, json_t **json);
/* READ: consume n bytes (NULL and an error when they are not there). Text: from "0x" lines,
 * piecewise (consecutive rb_ar_emit calls fill one line; takes may split it differently). */
const uint8_t *rb_ar_take(rb_ar *ar, const char *what, uint64_t n);
/* WRITE: append bytes to the output (text: to the open "0x" line). */
void rb_ar_emit(rb_ar *ar, const void *bytes, size_t n);
/* WRITE: a number of this wire (text: its own line, spelled by the wire). */
void rb_ar_emit_uint(rb_ar *ar, uint64_t value, unsigned wire);
void rb_ar_fail_field(rb_ar *ar, rb_status status, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Close the record the node was read for, so its byte span is known (READ). */
void rb_ar_note_size(rb_ar *ar, rb_node *node);

/* --- speculative reading: try a layout, fall back to keeping the bytes opaque --- */
typedef struct rb_ar_mark {
    size_t frame_count, range_count, range_pos, kids, next, sections, owned, streams;
    const uint8_t *raw_next; /* text: the rest of a byte line being taken */
    size_t raw_left;
    int text;
    int failed; /* taken after an error: rewinding it must not clear that earlier error */
} rb_ar_mark;
rb_ar_mark rb_ar_mark_here(rb_ar *ar);
/* Back to the mark: nodes made since are dropped, the error (if any) is cleared — unless the
 * archive had already failed when the mark was taken, then nothing changes; the message
 * of that error is copied to `why` so the caller can report why it fell back. */
void rb_ar_rewind(rb_ar *ar, const rb_ar_mark *mark, char *why, size_t why_size);

/* --- deferred units (docs/performance.md "The deferred model"; core/archive/archive_defer.c) ---
 * In a document read with rb_read_options.defer, a unit the format has read and checked in full
 * (a GBX body chunk) may be kept as its bytes: rb_ar_unit_begin before describing it,
 * rb_ar_unit_defer after. READ (and FROM_JSON, rb_ar_unit_write); elsewhere both do nothing. */
typedef struct rb_ar_unit {
    rb_arena_mark arena;
    const uint8_t *start;
    uint64_t offset; /* of start in its section */
    uint16_t section;
    size_t range_count, frame_count, kids, sections, streams, packed_tables;
    uint64_t outside_reads; /* rb_ar_enclosing calls that had reached the containers around it */
    int open;
    /* a list unit letting go of its elements as it reads them (rb_ar_unit_elements) */
    int dropping;
    const uint8_t *elements_start; /* the input of the elements read since the last drop */
    rb_arena_mark elements;
    size_t element_packed_tables, dropped;
    rb_coverage dropped_coverage;
    rb_coverage_kinds dropped_kinds;
} rb_ar_unit;
rb_ar_unit rb_ar_unit_begin(rb_ar *ar);
/* The unit described since `unit` (the last child of the current container) becomes one
 * RB_K_DEFERRED node holding its bytes, its coverage and `replay` (replay_size bytes the format
 * reads back on write: what the unit did to its state), and the nodes its read built are freed.
 * NULL when it cannot be (an error, text, a stream or section opened inside it): the unit then
 * stays as read. */
/* READ beside a document whose units the input holds (rb_doc.units_known, rb_doc_parse_beside):
 * when its unit that begins at this offset has its bytes here, a deferred node of those bytes of
 * the input (its side data, replay record included, the known unit's: the known document must
 * outlive this one) is put in the current container and the cursor moved past it, and the known
 * unit is returned so the format can take what its read would have left in the reader state;
 * else NULL, and the caller reads the unit. Sound only where equal bytes at one offset read the
 * same: the caller of rb_doc_parse_beside proves that (patch/apply_kept.c). */
const rb_node *rb_ar_unit_known(rb_ar *ar);
rb_node *rb_ar_unit_defer(rb_ar *ar, const rb_ar_unit *unit, const void *replay, size_t replay_size,
                          uint32_t replay_count, uint32_t flags);
/* FROM_JSON (a build with rb_doc_state.defer_units): the unit built since `unit` written now
 * into `out` by `describe` in the WRITE direction, with `user` as the format's state (the
 * writer's state at the unit, which the format carries in document order while it builds), the
 * unit alone in a copy of its container and the model's containers above it reachable
 * (rb_ar_enclosing). 1 when written (appended to `out`, the caller's); 0 when the unit cannot be
 * deferred (nothing happened: a stream or section in it, a race recording in or around it) or the
 * write failed (the archive has failed with the write's error). */
int rb_ar_unit_write(rb_ar *ar, const rb_ar_unit *unit, void (*describe)(rb_ar *ar), void *user, rb_buf *out);
/* FROM_JSON, a list unit letting go of its elements (rb_ar_unit_elements): the elements built
 * since the last rb_ar_unit_drop_elements written by `describe` (the list's own count is not:
 * the caller puts it before them), appended to `out`; 1 when written, then drop them. */
int rb_ar_unit_write_elements(rb_ar *ar, const rb_ar_unit *unit, void (*describe)(rb_ar *ar), void *user, rb_buf *out);
/* FROM_JSON: rb_ar_unit_defer with the unit's bytes as rb_ar_unit_write wrote them (copied). */
rb_node *rb_ar_unit_defer_written(rb_ar *ar, const rb_ar_unit *unit, const rb_buf *bytes, const void *replay,
                                  size_t replay_size, uint32_t replay_count, uint32_t flags);
/* A unit that is one list (opened just before, at the top): rb_ar_unit_elements right after
 * rb_ar_list_begin, then rb_ar_unit_drop_elements between elements frees the elements read so
 * far (their coverage and number are kept; error paths keep their indices), so that reading a
 * long list costs the memory of a few elements. Once elements were dropped the list must be
 * deferred: when rb_ar_unit_defer refuses it (unit->dropped is not 0), the caller reads the list
 * again from a mark taken before the unit. */
void rb_ar_unit_elements(rb_ar *ar, rb_ar_unit *unit);
void rb_ar_unit_drop_elements(rb_ar *ar, rb_ar_unit *unit);
/* READ, checking (rb_doc_state.check_units, what `rebyte verify` reads with): does the unit read
 * since `unit` (the last child of the current container), written by `describe` in the WRITE
 * direction with `user` as the format's state (the writer's state at the unit), give exactly the
 * bytes it was read from? A unit is kept as its bytes only when it does, so that its bytes stand
 * for what its nodes write; one that would be written otherwise stays nodes and the document's
 * write shows the difference where it is. 0 also when the write fails (the archive is not
 * failed: the final write says why). */
int rb_ar_unit_writes_back(rb_ar *ar, const rb_ar_unit *unit, void (*describe)(rb_ar *ar), void *user);
/* READ in a document read with rb_read_options.check_units: a format that cannot write a unit
 * alone to check it (rb_ar_unit_writes_back) keeps it as nodes. */
int rb_ar_checks_units(const rb_ar *ar);
/* READ, checking, a list unit letting go of its elements: the same for the elements read since
 * the last rb_ar_unit_drop_elements (the list's count is not written: it is the number of
 * elements read), to be asked before they are dropped. */
int rb_ar_unit_elements_write_back(rb_ar *ar, const rb_ar_unit *unit, void (*describe)(rb_ar *ar), void *user);
/* WRITE: the model's next child when it is a deferred unit (the format replays its state), else
 * NULL; rb_ar_copy_deferred emits its bytes unchanged and moves past it. */
const rb_node *rb_ar_next_deferred(rb_ar *ar);
void rb_ar_copy_deferred(rb_ar *ar);

/* --- path access for descriptions that must look ahead in WRITE/FROM_JSON --- */
/* The model node of the current container with this key (WRITE and after creation in others). */
const rb_node *rb_ar_current(rb_ar *ar);
/* The container `up` levels above the current one (0: rb_ar_current), in every direction; NULL
 * above the root. */
const rb_node *rb_ar_enclosing(rb_ar *ar, size_t up);
/* `n`, a child of the current container, as the archive holds it: a node READ or FROM_JSON built
 * (for the description to finish: a size known later, bytes it masks), or in WRITE the model
 * rb_doc_write was handed (a document it may change: the GROFF name table's layout). NULL when
 * `n` is not a child of the current container. How a description gets a node it may change
 * without a cast. */
rb_node *rb_ar_own(rb_ar *ar, const rb_node *n);
#endif
