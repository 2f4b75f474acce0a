/* The JSON view of the model, and the JSON spellings that lose nothing. */
#ifndef RB_JSON_H
#define RB_JSON_H
#include <jansson.h>
#include "core/buf.h"
#include "core/model/model.h"

typedef struct rb_doc rb_doc;

/* rb_blob_mode: include/rebyte.h */

/* model -> JSON. Needs no description: nodes carry their wire types (json_model.c; walked into a
 * printer without a tree: json_emit.h). */
json_t *rb_model_to_json(const rb_doc *doc, const rb_node *node, rb_blob_mode blobs);


/* Drop what describes how values were stored rather than what they are ("$stream" annotations,
 * "$id" storage flags), so two models can be compared for content. In place. */
void rb_json_strip_storage(json_t *json);
/* Drop only the "$stream" annotations (what the writer derives of a stream): an id stored the
 * file's own way keeps its flags, as the dump shows them. In place. */
void rb_json_strip_streams(json_t *json);

/* Stable text (json_print.c): keys in model order, two-space indent, reals in their shortest exact spelling. */
void rb_json_print(const json_t *json, rb_buf *out);
/* The same as a NUL-terminated text (malloc'd), NULL when out of memory. */
char *rb_json_print_text(const json_t *json);
/* On one line, reals spelled as the dump spells them (messages, selectors): NULL when out of memory. */
char *rb_json_compact_text(const json_t *json);

/* JSON -> wire values, with the reason on failure. */
int rb_json_to_int(const json_t *v, unsigned wire, uint64_t *bits, char *why, size_t why_size);
int rb_json_to_float_bits(const json_t *v, unsigned width, uint64_t *bits, char *why, size_t why_size);
int rb_json_to_bool(const json_t *v, unsigned width, uint64_t *bits, char *why, size_t why_size);
/* Strings: a JSON string or {"$hex": ...}. Blobs: {"$base64": ...}, {"$hex": ...}, {"$blob": ref},
 * {"$file": path}. The bytes are allocated in the document's arena. */
int rb_json_to_bytes(rb_doc *doc, const json_t *v, int is_string, uint8_t **data, size_t *size, char *why,
                     size_t why_size);
/* A GBX lookback id: "Name", a number, null, or {"$id": ..., storage flags} (json.c id_json). */
int rb_json_to_id(rb_arena *arena, const json_t *v, rb_node *n, char *why, size_t why_size);
int rb_json_to_stream_info(rb_doc *doc, const json_t *v, rb_stream_info *info, char *why, size_t why_size);

/* Shortest decimal spelling of a float/double that reads back to the same bits. */
void rb_format_f32(uint32_t bits, char *out, size_t size);
void rb_format_f64(uint64_t bits, char *out, size_t size);

size_t rb_base64_encode(const uint8_t *in, size_t n, char *out); /* out: 4*((n+2)/3)+1 bytes */
/* Returns decoded length or (size_t)-1 on malformed input; out: 3*(len/4)+3 bytes. */
size_t rb_base64_decode(const char *in, size_t len, uint8_t *out);
/* Appends one RFC 6902 operation to `ops`: {op, path, from (unless NULL), value (unless NULL;
 * the reference is taken)}. 0, or -1 when out of memory (the value is then freed). */
int rb_json_patch_op(json_t *ops, const char *op, const char *path, const char *from, json_t *value);
/* Relative {"$file": ...} paths of a JSON read from `json_path` resolved beside it (dump_files.c). */
void rb_json_resolve_files(json_t *v, const char *json_path);
#endif
