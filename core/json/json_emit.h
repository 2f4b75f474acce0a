/*
 * One walk, two outputs. The model's JSON view (json_model.c) and a jansson tree (json_print.c)
 * are walked into an emitter: the text emitter prints the stable layout (two-space indent, small
 * vectors on one line) piece by piece to a buffer or a sink, without a tree of the whole value;
 * the tree emitter builds jansson values for callers that edit or compare JSON. The spelling of
 * values is written once (json_model.c) and the layout once (json_print.c). docs/performance.md
 * "Streaming dump and build" says why.
 */
#ifndef RB_JSON_EMIT_H
#define RB_JSON_EMIT_H
#include <jansson.h>
#include "core/buf.h"
#include "core/model/model.h"

typedef struct rb_json_emitter rb_json_emitter;
typedef struct rb_json_emitter_ops {
    /* An object or array of `count` members; `flat`: a small array of scalars (one line). Returns
     * 1 when the caller goes on with the members and an end(); 0 for an empty one (complete). */
    int (*begin)(rb_json_emitter *e, int object, size_t count, int flat);
    void (*key)(rb_json_emitter *e, const char *key);
    void (*end)(rb_json_emitter *e);
    void (*string)(rb_json_emitter *e, const char *s, size_t n);
    void (*integer)(rb_json_emitter *e, json_int_t v);
    void (*real)(rb_json_emitter *e, double v);
    void (*literal)(rb_json_emitter *e, json_type type); /* JSON_TRUE, JSON_FALSE, JSON_NULL */
} rb_json_emitter_ops;

/* The open containers, innermost last. */
typedef struct rb_json_level {
    size_t index;  /* members or elements emitted so far */
    unsigned char object, flat;
    json_t *tree;  /* tree emitter: the container being filled */
} rb_json_level;

/* Text goes to `sink` in pieces (then returns nonzero to stop), or stays in `out`. */
typedef int (*rb_json_sink)(void *context, const char *text, size_t size);

struct rb_json_emitter {
    const rb_json_emitter_ops *ops;
    rb_json_level *levels, inline_levels[32];
    size_t depth, cap;
    int failed;
    /* text */
    rb_buf *out;
    rb_buf own;
    int compact;
    rb_json_sink sink;
    void *sink_context;
    /* tree */
    json_t *result;
    const char *pending_key;
};

/* Text into `out` (compact: on one line), or with `sink` streamed out (out is then internal). */
void rb_json_text_emitter(rb_json_emitter *e, rb_buf *out, int compact, rb_json_sink sink, void *context);
/* Sends what is buffered to the sink; 0, or -1 when the sink or memory failed. Call at the end. */
int rb_json_emitter_finish(rb_json_emitter *e);
void rb_json_tree_emitter(rb_json_emitter *e);
/* The tree built (the reference is the caller's), NULL when out of memory. */
json_t *rb_json_tree_result(rb_json_emitter *e);

typedef struct rb_doc rb_doc;
/* Where --blobs=files puts a blob: the file name to spell it as ({"$file": name}), NULL on failure.
 * `key` is the member that holds it (the nearest one). dump_files.c */
typedef const char *(*rb_blob_to_file)(void *context, const char *key, const uint8_t *data, size_t size);
/* A document as `rebyte dump` shows it, walked into an emitter: "$format", "$source" (when
 * source_name is given and blobs are references), then the root's members as rb_model_to_json
 * spells them; blobs through `to_file` when it is given (the mode is then RB_BLOBS_REF). Takes
 * the document's lock itself: deferred units are read again one at a time as they are printed
 * (docs/performance.md "One unit at a time"). 0, or -1 with `err` when a
 * unit could not be read again (out of memory); the emitter has then failed. */
int rb_doc_emit(rb_json_emitter *e, const rb_doc *doc, rb_blob_mode mode, const char *source_name,
                rb_blob_to_file to_file, void *to_file_context, rb_error *err);
#endif
