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
#include "arena.h"
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
    RB_K_ID      /* a GBX lookback id: a string, a number or empty, with how it was stored (aux) */
} rb_kind;

/* Wire description: low 4 bits = byte width; flags above. */
enum {
    RB_W_WIDTH = 0x0F,
    RB_W_SIGNED = 0x10,
    RB_W_BE = 0x20,
    RB_W_HEX = 0x40, /* show as hex in JSON (ids, flags) */
    RB_W_CHAR = 0x80 /* show a u8 as a one-character string when printable */
};
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
    rb_stream_report report; /* filled on write */
} rb_stream_info;

/* 56 bytes: one per field of every file read, so its size is the model's memory (docs/performance.md).
 * Offsets and sizes are 32-bit: every supported format addresses its data with u32 offsets. */
struct rb_node {
    uint8_t kind;
    uint8_t wire;
    uint16_t section;     /* which byte space src_offset is in (file, body, ...) */
    uint32_t src_offset;  /* where it was read; used to locate differences (UINT32_MAX: beyond 4 GiB) */
    const char *key;      /* NULL inside lists */
    uint32_t src_size;
    uint32_t aux, aux2;   /* format-specific wire details (e.g. how a GBX id was stored) */
    union {
        uint64_t bits; /* INT (zero-extended raw), FLOAT bits, BOOL raw value */
        struct {
            const uint8_t *data;
            size_t size;
        } bytes; /* STRING, BLOB, OPAQUE */
        struct {
            rb_node **items;
            uint32_t count, cap;
        } kids; /* RECORD, LIST, STREAM */
    } v;
    rb_stream_info *stream; /* STREAM only */
};

/* Fills content_crc32/content_adler32 from the decoded content if not known yet. */
const rb_stream_info *rb_stream_digests(const rb_stream_info *s);
rb_node *rb_node_new(rb_arena *arena, rb_kind kind, const char *key);
int rb_node_append(rb_arena *arena, rb_node *parent, rb_node *child);
rb_node *rb_node_get(const rb_node *record, const char *key);
int rb_node_is_container(const rb_node *n);
/* Sign-extended integer value according to the wire type. */
int64_t rb_node_int(const rb_node *n);
uint64_t rb_node_uint(const rb_node *n);
#endif
