/*
 * The archive's internals, shared by its parts: the engine (archive.c: lifetime, errors, the
 * READ cursor, text lines, fields, scalars, strings, structure), tables and packed records
 * (archive_table.c), ranges, streams and sections (archive_stream.c). Not for format modules:
 * they use archive.h.
 */
#ifndef RB_ARCHIVE_INTERNAL_H
#define RB_ARCHIVE_INTERNAL_H
#include <stdarg.h>
#include "core/archive/archive.h"
#include "core/archive/archive_text.h"
#include "core/model/doc_state.h"
#include "core/json/json.h"

enum { AR_MAX_FRAMES = 256, AR_MAX_RANGES = 128, AR_MAX_OUTPUTS = 16, AR_MAX_PACKED_LAYOUTS = 32, AR_LAYOUT_CACHE = 32 };
_Static_assert(AR_LAYOUT_CACHE <= 32, "layout_facts_set has a bit for each entry of the cache");

/* What a table needs to know of its layout, computed once per layout and archive instead of for
 * every table (a GBX map reads 28 000 tables of a handful of layouts; walking the layout's fields
 * each time was 3% of its round trip). A direct-mapped cache keyed by the layout's address. */
enum { AR_LAYOUT_CONSTANTS = 8 };
typedef struct ar_layout_facts {
    const rb_layout *layout;
    const rb_layout_field *fields;
    size_t field_count;
    size_t stride, nodes;
    /* the constants (RB_LAYOUT_CONSTANT, nested records included) in wire order with their offset
     * in an element; constant_count > AR_LAYOUT_CONSTANTS: too many to list, walk the layout */
    size_t constant_count;
    struct {
        size_t offset;
        const rb_layout_field *field;
    } constants[AR_LAYOUT_CONSTANTS];
} ar_layout_facts;

/* READ: the side data every packed record of one layout shares (layout, stride, arena). */
typedef struct ar_packed_table {
    const rb_layout *layout;
    rb_table *table;
} ar_packed_table;

typedef struct ar_frame {
    rb_node *node;   /* container being built (READ, FROM_JSON) or walked (WRITE) */
    size_t next;     /* index of the next child */
    size_t current;  /* index of the child being described (for paths) */
    json_t *json;    /* FROM_JSON: the object or array matching node */
    size_t json_used;/* FROM_JSON records: members consumed, to reject unknown ones */
    int open_list;   /* READ: list without a count */
    size_t dropped;  /* READ, FROM_JSON: elements a deferred unit let go of already (rb_ar_unit_drop_elements) */
} ar_frame;

/* FROM_JSON: the element of the frame's array its next child is built from (the elements a
 * deferred unit let go of count). */
static inline size_t ar_json_index(const ar_frame *f) { return f->node->v.kids.count + f->dropped; }

typedef struct ar_range {
    const uint8_t *base;
    size_t size, pos;
    uint16_t section;
    uint64_t section_base; /* offset of base inside its section */
    const char *what;
    /* WRITE side of a sized range */
    rb_slot size_slot;
    size_t out_start;
    /* stream bookkeeping */
    rb_node *stream;
    const rb_codec *codec;
    int is_stream;
    rb_slot *crc_slot; /* WRITE: gets the CRC-32 of the content (rb_ar_stream_end_crc) */
} ar_range;

/* How scalars are spelled: binary (their wire bytes) or text GBX (a CR LF line each,
 * archive_text.h). Chosen once when the archive learns its encoding (ar_set_encoding), so the
 * scalar functions do not test the encoding per value. */
typedef struct ar_encoding {
    /* READ: the scalar `kind` of `wire` at the cursor into *bits; 0 when it fails (said why) */
    int (*take_scalar)(rb_ar *ar, const char *key, rb_kind kind, unsigned wire, uint64_t *bits);
    /* WRITE: the scalar's spelling */
    void (*emit_scalar)(rb_ar *ar, rb_kind kind, uint64_t bits, unsigned wire);
    /* READ: the u32 `offset` bytes (text: lines) ahead of the cursor, without moving; 0 at the end */
    int (*peek_u32)(rb_ar *ar, uint64_t offset, uint32_t *value);
} ar_encoding;
void ar_set_encoding(rb_ar *ar, int text);

struct rb_ar {
    rb_ar_dir dir;
    rb_doc *doc;
    rb_arena scratch; /* WRITE: rb_ar_scratch_arena, made on first use */
    int scratch_used;
    int failed;
    int reencode;
    const char *reencode_codec; /* NULL: every codec */
    int decoded;
    void *user;
    /* text encoding (text GBX): every primitive is one line ended by CR LF (archive_text.h) */
    int text;
    const struct ar_encoding *enc; /* the spelling of scalars, chosen with `text` (ar_set_encoding) */
    const uint8_t *raw_next; /* text READ: bytes of a "0x" line rb_ar_take has not handed out yet */
    size_t raw_left;
    int raw_open;            /* text WRITE: rb_ar_emit is filling an open "0x" line */
    size_t frame_count;
    size_t range_count;
    size_t output_count;
    size_t kids_depths; /* the depths whose `kids` and `enclosing_reads` are set (the rest never used) */
    size_t packed_table_count;
    uint32_t layout_facts_set; /* bit i: layout_facts[i] holds a layout's facts */
    /* FROM_JSON: a text read piecewise (rb_ar_set_json_loader; NULL: the tree is whole) */
    struct rb_json_loader *json_loader;
    /* FROM_JSON: how a text spells a symbol handle (rb_ar_set_symbol_resolver) */
    rb_ar_symbol_resolver symbol_resolver;
    void *symbol_context;
    /* WRITE: a value the format derives for the next field `derived_key` (rb_ar_derived) */
    const char *derived_key;
    rb_node derived_value; /* a copy: the field gets a node of the write's own, not the format's */
    /* FROM_JSON of one draft (rb_ar_new_draft_from_json): the model's containers around it, from
     * the one the root stands in for upwards, for rb_ar_enclosing past the root */
    const rb_node *const *around;
    size_t around_count;
    /* What follows is not cleared when the archive is made (a checked read makes one for every
     * unit it writes back, and clearing all 46 KB was 4.5% of `verify`: docs/performance.md
     * "Verify, the engine made cheaper"). The error is blank until a failure fills it whole
     * (ar_vfail); a layout's facts are read only when layout_facts_set says so; the stacks' entries
     * are set as they are pushed (ar_push_frame, a range's and an output's push) and read only
     * below their count; a depth's `kids` and `enclosing_reads` are cleared when a frame first
     * reaches it (kids_depths). */
    rb_error err;
    ar_layout_facts layout_facts[AR_LAYOUT_CACHE];
    ar_packed_table packed_tables[AR_MAX_PACKED_LAYOUTS];
    /* rb_ar_enclosing calls that reached each depth's container (past the root: depth 0), so that
     * a unit knows whether its description read nodes outside it (rb_deferred.reads_around) */
    uint32_t enclosing_reads[AR_MAX_FRAMES];
    ar_frame frames[AR_MAX_FRAMES];
    ar_range ranges[AR_MAX_RANGES];
    rb_buf outputs[AR_MAX_OUTPUTS];
    /* READ/FROM_JSON: the children of the open container at each depth gather here and move to
     * the arena at their exact count when it closes (no abandoned or half-empty arrays there) */
    rb_node **kids[AR_MAX_FRAMES];
    size_t kids_cap[AR_MAX_FRAMES];
    rb_node *kids_owner[AR_MAX_FRAMES];
};

/* ---------- what the parts share (archive.c) ---------- */
void ar_vfail(rb_ar *ar, rb_status status, const char *leaf, const char *fmt, va_list ap);
ar_frame *ar_top_frame(rb_ar *ar);
ar_range *ar_top_range(rb_ar *ar);
/* A WRITE archive for a part of the document (a unit): rb_ar_new_write without the room reserved
 * for the whole file. */
rb_ar *ar_new_write_part(rb_doc *doc, rb_node *root);
rb_buf *ar_out(rb_ar *ar);
void ar_fail_at(rb_ar *ar, rb_status status, const char *leaf, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int ar_bytes_left(rb_ar *ar, const char *leaf, uint64_t n);
const uint8_t *ar_take(rb_ar *ar, const char *leaf, uint64_t n);
/* The integer of `wire` at `p`. Inline: every scalar read and every scalar a checked read
 * writes back decodes one. */
static inline uint64_t ar_decode_int(const uint8_t *p, unsigned wire)
{
    unsigned width = wire & RB_W_WIDTH;
    /* the common widths spelled out: the compiler makes each one load */
    if (!(wire & RB_W_BE) && width == 4) return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
    if (!(wire & RB_W_BE) && width == 1) return p[0];
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        unsigned shift = (wire & RB_W_BE) ? 8 * (width - 1 - i) : 8 * i;
        v |= (uint64_t)p[i] << shift;
    }
    return v;
}
void ar_emit_int(rb_ar *ar, uint64_t v, unsigned wire);
rb_node *ar_field(rb_ar *ar, const char *key, rb_kind kind, unsigned wire, json_t **json);
void ar_note_size(rb_ar *ar, rb_node *n);
uint64_t ar_float_field(rb_ar *ar, const char *key, unsigned width);
int ar_count_is_plausible(rb_ar *ar, const char *key, uint64_t count, uint64_t min_item_bytes, uint64_t reserved);
uint64_t ar_list_begin(rb_ar *ar, const char *key, uint64_t read_count, uint64_t min_item_bytes);
uint64_t ar_read_binary_count(rb_ar *ar, const char *key, unsigned count_wire, uint64_t min_item_bytes);
void ar_close_raw_line(rb_ar *ar);
const uint8_t *ar_next_line(rb_ar *ar, const char *leaf, size_t *len);
/* A text line written (text GBX: one a value). */
void ar_put_line(rb_ar *ar, const void *text, size_t n);
/* Appends to the open container at the top frame, in the buffer of its depth (archive.c). The
 * common case inline: every node a read makes is appended. */
int ar_append_child_slow(rb_ar *ar, rb_node *parent, rb_node *child);
static inline int ar_append_child(rb_ar *ar, rb_node *parent, rb_node *child)
{
    size_t depth = ar->frame_count - 1;
    if (ar->kids_owner[depth] == parent && parent->v.kids.items == ar->kids[depth] &&
        parent->v.kids.count < ar->kids_cap[depth]) {
        parent->v.kids.items[parent->v.kids.count++] = child;
        return 1;
    }
    return ar_append_child_slow(ar, parent, child);
}
int ar_read_uint_line(rb_ar *ar, const char *leaf, unsigned wire, uint64_t *value);
void ar_write_uint_line(rb_ar *ar, uint64_t value, unsigned wire);
const uint8_t *ar_read_hex_line(rb_ar *ar, const char *leaf, size_t *size);
void ar_write_hex_line(rb_ar *ar, const uint8_t *data, size_t size);
const uint8_t *ar_read_string_line(rb_ar *ar, const char *leaf, size_t *size);
void ar_write_string_line(rb_ar *ar, const uint8_t *data, size_t size);
const uint8_t *ar_take_raw_text(rb_ar *ar, const char *leaf, uint64_t n);
void ar_emit_raw_text(rb_ar *ar, const void *bytes, size_t n);
int ar_depth_ok(rb_ar *ar);
/* Source locations are 32-bit in the model (every supported format uses u32 offsets). */
static inline uint32_t ar_clamp32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v; }
void ar_push_frame(rb_ar *ar, rb_node *node, json_t *json);
/* FROM_JSON: element `index` of `array`, decoded now when the text is read piecewise (NULL and a
 * failure when that text is not JSON; NULL alone when there is no such element). */
json_t *ar_json_element(rb_ar *ar, json_t *array, size_t index, const char *key);
void ar_end_container(rb_ar *ar);
/* FROM_JSON (archive_defer.c): the unit described since `unit` (the current container's last
 * child) when it can stand alone, else NULL; and its nodes given back to the arena. */
rb_node *ar_unit_node(rb_ar *ar, const rb_ar_unit *unit);
void ar_unit_free(rb_ar *ar, const rb_ar_unit *unit);
#endif
