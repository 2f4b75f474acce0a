/*
 * Shared state of the data.win description (core/datawin/): the link machinery.
 *
 * A "link" is how the model spells an absolute pointer: not the number stored in the file but the
 * index of the thing it points at (a STRG string, a TPAG item, ...). READ turns addresses into
 * indices through maps built by a pre-pass over the whole file; WRITE reserves the pointer's bytes
 * as a slot and records a fixup; once every target has been laid out (STRG, TXTR and AUDO come
 * last) the fixups are patched with the targets' new addresses. The file is written in one pass.
 */
#ifndef RB_GM_INTERNAL_H
#define RB_GM_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "core/archive/archive.h"

typedef struct datawin_addr { uint32_t address, index; } datawin_addr;

/* address -> index, sorted by address */
typedef struct datawin_addr_map {
    datawin_addr *items;
    size_t count;
} datawin_addr_map;

/* What a link names: its target's new address is known only once the target is laid out. */
typedef enum datawin_link_kind {
    DATAWIN_LINK_STRING, /* a STRG string: the address of its first character */
    DATAWIN_LINK_STRING_TEXT, /* the same, named by text (`text`) and occurrence (`index`) */
    DATAWIN_LINK_TPAG,   /* a TPAG item */
    DATAWIN_LINK_CODE,   /* a place in a code entry's bytecode: index = entry << 32 | byte offset (datawin_code.c) */
    DATAWIN_LINK_STRING_INDEX /* a STRG string's INDEX (bytecode operands: docs/formats/datawin.md "STRG"),
                          * named like DATAWIN_LINK_STRING_TEXT; the word's bits in `kept_mask` keep what
                          * was written there (datawin_code.c) */
} datawin_link_kind;

typedef struct datawin_fixup {
    size_t position;  /* output offset of the u32 to patch */
    uint32_t kind;    /* datawin_link_kind */
    uint64_t index;   /* the target's index in its list */
    const rb_node *text; /* DATAWIN_LINK_STRING_TEXT: the string named */
    const char *key;     /* for messages */
    uint32_t kept_mask;  /* DATAWIN_LINK_STRING_INDEX: bits of the written word that are not the index */
} datawin_fixup;

typedef struct datawin_chunk_span { char id[5]; uint32_t data, size; } datawin_chunk_span;

/* WRITE: STRG's texts by content (text -> first string index with it), open addressing over
 * datawin_state.string_texts; built when STRG is written, used to resolve every text link. */
typedef struct datawin_text_index { size_t *slots; size_t mask, used; } datawin_text_index;

/* WRITE: one STRG string's text: a view of its model node's bytes, or of a deferred STRG's bytes
 * (datawin_defer.c); `is_text` 0 for a list element that is not a text (writing it fails). */
typedef struct datawin_text { const uint8_t *data; size_t size; int is_text; } datawin_text;

typedef struct datawin_state {
    /* READ: the whole input (the chunk descriptions follow pointers anywhere); the document
     * keeps it alive, so model strings may point into it */
    const uint8_t *file;
    size_t file_size;
    datawin_chunk_span *chunks;
    size_t chunk_count;
    uint64_t chunk_base;     /* absolute offset of the current chunk's data */
    int strings_linked;      /* STRG is typed: string references become links */
    datawin_addr_map strings;     /* first-character address -> string index */
    uint32_t *string_occurrence; /* per string index: how many earlier strings have its text */
    uint32_t strg_data;      /* where STRG's data starts (READ, when strings are linked) */
    unsigned bytecode, major, build;
    /* TPAG items: READ where they are; WRITE where they were laid out */
    uint64_t tpag_first, tpag_count;
    int tpag_known;
    int tpag_pinned;         /* WRITE: an opaque chunk holds raw TPAG pointers: TPAG may not move */
    struct datawin_code_map *code; /* CODE entries' bytecode spans (READ: input, WRITE: output); datawin_code.c */
    uint32_t last_object, last_tile; /* GEN8: highest instance and tile ids */
    int code_chains_in_nodes; /* READ, deferring: a typed CODE stayed nodes, so VARI and FUNC must too
                               * (their write completes its chains' ends: datawin_defer.c) */
    /* WRITE */
    uint32_t *string_address; /* new first-character address per string index */
    datawin_text *string_texts; /* per string index: its text */
    size_t string_count, string_cap;
    datawin_text_index texts;      /* the texts of string_texts */
    uint64_t strg_at;         /* where STRG was written (0: not yet): links written later cannot add to it */
    datawin_fixup *fixups;
    size_t fixup_count, fixup_cap;
    unsigned alignment;      /* chunk alignment: 16, 4 or 1 */
    int is_last_chunk;
} datawin_state;

static inline uint32_t datawin_le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
/* Growable arrays: `items` reallocated to twice its capacity (`first` elements to begin with).
 * Returns the grown array and updates *cap, or NULL (the array unchanged) when out of memory. */
void *datawin_grown(void *items, size_t *cap, size_t element_size, size_t first);
static inline void datawin_put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}
static inline uint16_t datawin_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* Absolute file offset of the next byte (READ: inside the current chunk; WRITE: the output). */
uint64_t datawin_abs(rb_ar *ar, const datawin_state *st);
const datawin_chunk_span *datawin_find_chunk(const datawin_state *st, const char *id);
void datawin_sort_addr_map(datawin_addr_map *map);
/* qsort order of uint32_t values. */
int datawin_compare_u32(const void *a, const void *b);
/* Index of the string whose first character is at `address`, or -1. */
long datawin_string_at(const datawin_state *st, uint32_t address);
/* A string reference field. The model holds the string's text (a link by identity: strings
 * may be inserted anywhere in STRG), absent for a null pointer; writing finds the STRG string
 * with that text (STRG gets it when it lacks it: datawin_chunk_strg). Returns 1 when the reference is
 * not null. */
int datawin_strref(rb_ar *ar, datawin_state *st, const char *key);
/* The text of string `index` and how many earlier strings share it (READ). */
const uint8_t *datawin_string_text(const datawin_state *st, long index, uint32_t *size);
/* WRITE: patch the u32 at output `position` with the link's target (a string's address, a TPAG
 * item's, ...) once it is known. */
void datawin_add_link(rb_ar *ar, datawin_state *st, size_t position, datawin_link_kind kind, uint64_t index);
/* WRITE: a link to the string with this text (the `occurrence`th of that text), resolved once
 * STRG is laid out; `key` names the holder in messages. */
void datawin_add_text_link(rb_ar *ar, datawin_state *st, size_t position, const rb_node *text, uint64_t occurrence,
                      const char *key);
/* Zero fill up to `alignment` (absolute), or the recorded bytes when the file had others there.
 * READ: the fill runs up to absolute offset `next` (where the next structure starts). */
void datawin_gap(rb_ar *ar, datawin_state *st, const char *key, unsigned alignment, uint64_t next);

/* ---------- the deferred model (datawin_defer.c; docs/formats/datawin.md "The deferred model") ---------- */
/* READ, deferring: the chunk just read (`typed` or opaque, since `unit`) is kept as its bytes when
 * its write can be copied and replayed. */
void datawin_defer_chunk(rb_ar *ar, datawin_state *st, const rb_ar_unit *unit, const char *id, int typed);
/* WRITE: when the chunk list's next element is a chunk kept as its bytes, replays what its nodes'
 * write would have left in the state, copies its bytes and returns 1; else 0. */
int datawin_write_deferred_chunk(rb_ar *ar, datawin_state *st);
/* rb_format.unit_reads and unit_member of data.win (datawin_defer.c). */
extern const char *const datawin_unit_reads[];
int datawin_unit_member(const rb_node *list, const rb_node *unit, const char *key, rb_node *member);

/* ---------- layout helpers (datawin_layout.c) ---------- */
/* READ: `count` elements of at least `min_bytes_each` must fit in what is left (before any
 * allocation); fails the archive otherwise. Always 1 in the other directions. */
int datawin_count_fits(rb_ar *ar, uint64_t count, uint64_t min_bytes_each, const char *what);
/* Zero fill up to an absolute multiple of `alignment` (READ: the bytes must be zero). */
void datawin_align(rb_ar *ar, const datawin_state *st, unsigned alignment);
/* One element of a pointer list: describe it at the cursor (index = its place in the list). */
typedef void (*datawin_element_fn)(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx);
/* PointerList<T> (docs/formats/datawin.md "Lists"): u32 count, count pointers, then the
 * elements in list order, each aligned to `element_alignment` (1 = none). The model is the list
 * `key` of element records; count and pointers are computed. A null pointer (2024.11+) is an
 * element {"removed": true}. */
void datawin_pointer_list(rb_ar *ar, datawin_state *st, const char *key, unsigned element_alignment, datawin_element_fn element,
                     void *ctx);
/* A pointer to a TPAG item, in the model the item's index (-1 = null pointer). */
int64_t datawin_tpag_ref(rb_ar *ar, datawin_state *st, const char *key);
/* READ: what is left of the chunk must be its zero padding (< 16 bytes), else fail saying how many
 * bytes are left after `what` (datawin_content_ends_here: after "the content"). */
void datawin_content_ends_after(rb_ar *ar, const char *what);
void datawin_content_ends_here(rb_ar *ar);
/* READ, after describing the chunk with one variant from `mark`: 1 when that variant is the one to
 * keep (it reproduced the chunk up to its padding, or the archive had failed before `mark`), else 0
 * with the archive rewound to `mark` for the next variant. */
int datawin_variant_fits(rb_ar *ar, const rb_ar_mark *mark, const char *what);
/* SimpleList of ids (u32 count, then the ids, each of wire `wire`). */
void datawin_id_list(rb_ar *ar, const char *key, unsigned wire);
/* A "pointer-then-data" pointer: READ fails unless it names where its data is read; WRITE sets it. */
void datawin_data_lands_here(rb_ar *ar, const datawin_state *st, rb_slot *slot, const char *what);
/* A chunk-level layout choice kept in the model (READ: the variant being tried); must be in `allowed`. */
unsigned datawin_layout_field(rb_ar *ar, const char *key, unsigned read_value, const unsigned *allowed, size_t n);
typedef void (*datawin_variant_fn)(rb_ar *ar, datawin_state *st, unsigned variant);
/* READ: the first variant (most likely first) whose description reproduces the chunk with only
 * padding left; when none does, the most likely one's error (the chunk is then kept opaque).
 * WRITE and FROM_JSON: tries[0], which the description replaces with the model's field. */
void datawin_try_variants(rb_ar *ar, datawin_state *st, datawin_variant_fn fn, const unsigned *tries, size_t n);
/* SimpleListString (u32 count, then string references; docs/formats/datawin.md "Lists"): each
 * element is a record {"name": text}, because a string link is a keyed model field. */
void datawin_string_list(rb_ar *ar, datawin_state *st, const char *key);
void datawin_note_tpag(datawin_state *st, const datawin_chunk_span *tpag);

/* STRG (datawin_strg.c) */
int datawin_build_string_map(datawin_state *st, const datawin_chunk_span *strg);
/* WRITE, before its strings: STRG is a copy the writer derives from the references (links by
 * text): a text that a link written so far names and STRG lacks is appended to the model's
 * list, so the table written and the model agree (a re-read equals the model). */
void datawin_chunk_strg(rb_ar *ar, datawin_state *st);
/* WRITE: the index of the `occurrence`-th STRG string with this text, or -1. */
long datawin_string_with_text(const datawin_state *st, const rb_node *text, uint64_t occurrence);
/* WRITE: how many STRG strings have this text. */
uint64_t datawin_strings_with_text(const datawin_state *st, const rb_node *text);
void datawin_strg_free(datawin_state *st);
/* WRITE, STRG kept as its bytes (`data`, `size` bytes of chunk data at absolute offset `at`): the
 * string table its nodes would have given (datawin_defer.c). */
void datawin_strg_replay(rb_ar *ar, datawin_state *st, const uint8_t *data, size_t size, uint64_t at);
/* Strref positions of an opaque chunk (offsets in its data); 1 = found by a structure walk, 0 = by scan. */
int datawin_find_strrefs(const datawin_state *st, const datawin_chunk_span *chunk, uint32_t **offsets, size_t *count);

/* GEN8, TPAG, TXTR, AUDO (datawin_chunks.c) */
int datawin_gen8_fits(const datawin_state *st, const datawin_chunk_span *c);
void datawin_chunk_gen8(rb_ar *ar, datawin_state *st);
int datawin_tpag_fits(const datawin_state *st, const datawin_chunk_span *c);
void datawin_chunk_tpag(rb_ar *ar, datawin_state *st);
int datawin_txtr_fits(const datawin_state *st, const datawin_chunk_span *c);
void datawin_chunk_txtr(rb_ar *ar, datawin_state *st);
int datawin_audo_fits(const datawin_state *st, const datawin_chunk_span *c);
void datawin_chunk_audo(rb_ar *ar, datawin_state *st);

/* SPRT, BGND, FONT (datawin_sprt.c) */
void datawin_chunk_sprt(rb_ar *ar, datawin_state *st);
void datawin_chunk_bgnd(rb_ar *ar, datawin_state *st);
void datawin_chunk_font(rb_ar *ar, datawin_state *st);

/* Sequences (datawin_sprt.c): a sprite's embedded sequence and SEQN's elements (datawin_misc.c) share one
 * description (docs/formats/datawin.md "SEQN"). The layout is what the file does not say: */
typedef struct datawin_sequence_layout {
    unsigned has_size;      /* 2024.13+: a sequence has a width and height */
    unsigned all_tracks;    /* SEQN: curves, colour, real, text, particle, group tracks (sprites: 0) */
    unsigned bezier_points; /* 2.3.1+: animation curve points carry Bezier handles */
    unsigned text_layout;   /* 2024.14+: text keyframes have a wrap mode and origin */
} datawin_sequence_layout;
void datawin_sequence(rb_ar *ar, datawin_state *st, const datawin_sequence_layout *layout);
/* An animation curve (datawin_misc.c, ACRV's element): [strref name], u32 graph type, channels. */
void datawin_animation_curve(rb_ar *ar, datawin_state *st, int named, unsigned bezier);

/* CODE, VARI, FUNC (datawin_code.c) */
void datawin_chunk_code(rb_ar *ar, datawin_state *st);
void datawin_chunk_vari(rb_ar *ar, datawin_state *st);
void datawin_chunk_func(rb_ar *ar, datawin_state *st);
/* DATAWIN_LINK_CODE: the address of byte `offset` of entry `entry`'s bytecode, once CODE is written. */
int datawin_code_link_address(rb_ar *ar, const datawin_state *st, uint64_t link, uint64_t *address);
/* WRITE, for messages: when output `position` is an operand in a code entry's bytecode, says
 * which entry and instruction (`CODE entry "name" (entries/3), the instruction at byte 8`); else
 * leaves `out` empty. */
void datawin_code_where(const datawin_state *st, uint64_t position, char *out, size_t size);
void datawin_code_free(datawin_state *st);
/* The deferred model (datawin_defer.c). READ: the occurrences CODE's chains hold (count entries,
 * `size` bytes: the record a CODE kept as its bytes replays), and, once CODE is kept as its bytes,
 * forget what pointed at its nodes. WRITE: the state writing CODE's nodes would have left for VARI
 * and FUNC, from that record. */
const void *datawin_code_occurrences(const datawin_state *st, size_t *count, size_t *size);
void datawin_code_let_go_of_nodes(datawin_state *st);
void datawin_code_replay(rb_ar *ar, datawin_state *st, const void *occurrences, size_t count);
/* READ: chunk `id` is kept opaque; when VARI or FUNC, CODE's chain ends keep their raw indices. */
void datawin_code_chunk_opaque(datawin_state *st, const char *id);

/* OBJT, SOND, AGRP, SCPT, PATH, GLOB, TMLN, SHDR, OPTN, LANG, EXTN (datawin_objt.c) */
void datawin_chunk_objt(rb_ar *ar, datawin_state *st);
void datawin_chunk_sond(rb_ar *ar, datawin_state *st);
void datawin_chunk_agrp(rb_ar *ar, datawin_state *st);
void datawin_chunk_scpt(rb_ar *ar, datawin_state *st);
void datawin_chunk_path(rb_ar *ar, datawin_state *st);
void datawin_chunk_glob(rb_ar *ar, datawin_state *st);
void datawin_chunk_tmln(rb_ar *ar, datawin_state *st);
void datawin_chunk_shdr(rb_ar *ar, datawin_state *st);
void datawin_chunk_optn(rb_ar *ar, datawin_state *st);
void datawin_chunk_lang(rb_ar *ar, datawin_state *st);
void datawin_chunk_extn(rb_ar *ar, datawin_state *st);

/* ROOM (datawin_room.c) */
void datawin_chunk_room(rb_ar *ar, datawin_state *st);
/* Room elements that 2024.13+ UI layers (UILR, datawin_uilr.c) place too, with the same fields: each
 * structure is described once, here. Which fields a room instance has depends on the version: */
typedef struct datawin_instance_layout {
    unsigned image_speed;   /* 2.2.2.302+: image speed and index */
    unsigned pre_create;    /* bytecode >= 16: a pre-create code id */
} datawin_instance_layout;
/* An object instance (docs/formats/datawin.md "ROOM"). */
void datawin_room_instance(rb_ar *ar, const datawin_instance_layout *layout);
/* A sprite, nine-slice or sequence instance of an assets layer; `asset_key` names the asset id. */
void datawin_room_placed_asset(rb_ar *ar, datawin_state *st, const char *asset_key);
/* A text item (2024.6+); 2024.14 added paragraph spacing, wrap mode and origin. */
void datawin_room_text_item(rb_ar *ar, datawin_state *st, unsigned gm2024_14);
/* One property of an effect: kind, name and value (the caller opens its record). */
void datawin_room_effect_property(rb_ar *ar, datawin_state *st);
/* TGIN, EMBI, FEAT, DAFL, TAGS, FEDS, ACRV, SEQN, PSEM, PSYS (datawin_misc.c) */
void datawin_chunk_tgin(rb_ar *ar, datawin_state *st);
void datawin_chunk_embi(rb_ar *ar, datawin_state *st);
void datawin_chunk_feat(rb_ar *ar, datawin_state *st);
void datawin_chunk_dafl(rb_ar *ar, datawin_state *st);
void datawin_chunk_tags(rb_ar *ar, datawin_state *st);
void datawin_chunk_feds(rb_ar *ar, datawin_state *st);
void datawin_chunk_acrv(rb_ar *ar, datawin_state *st);
void datawin_chunk_seqn(rb_ar *ar, datawin_state *st);
void datawin_chunk_psem(rb_ar *ar, datawin_state *st);
void datawin_chunk_psys(rb_ar *ar, datawin_state *st);
/* UILR (datawin_uilr.c) */
void datawin_chunk_uilr(rb_ar *ar, datawin_state *st);
#endif
