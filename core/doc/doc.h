/* The document: parsing and building as a given format (its state: doc_state.h; the format
 * table and the entry points that find a format: core/registry/). */
#ifndef RB_DOC_H
#define RB_DOC_H
#include "core/archive/archive.h"
#include "core/model/doc_state.h"
#include "core/model/model.h"
#include "rebyte.h"

rb_doc *rb_doc_parse_as(const rb_format *format, const uint8_t *data, size_t size, const rb_read_options *options,
                        rb_error *err);
/* rb_doc_parse_as with options.defer, beside `known`, a document read deferred from bytes the
 * input holds unchanged around values no unit's read takes: each of its units found at the same
 * offset with the same bytes is taken as it is instead of read again (rb_ar_unit_known), side
 * data shared, so the result must not outlive `known`. The caller proves the inputs the same
 * (patch/apply_kept.c, the check of apply's write). */
rb_doc *rb_doc_parse_beside(const rb_format *format, const uint8_t *data, size_t size, const rb_read_options *options,
                            const rb_doc *known, rb_error *err);
/* A document holding a copy of `doc`'s model, to edit without reading the file again (what a diff
 * replays its operations on): containers copied, the values' bytes and the streams' and deferred
 * units' side data still `doc`'s, so it must not outlive `doc`. NULL when out of memory. */
/* Every table and packed record below `n` becomes the nodes it stands for, deferred units left
 * as they are (rb_doc_root's second step); 0: out of memory. */
int rb_doc_tables_to_nodes(rb_node *n);
rb_doc *rb_doc_copy_model(const rb_doc *doc);
/* Builds a model from JSON through the format's description (validating it). Blob references
 * resolve against `blob_source` (may be NULL). A tree read piecewise by `loader` (json_stream.h;
 * NULL for a tree in memory) has its large lists filled as the description reaches them; `defer`:
 * the format keeps the units it can as the bytes they write (rb_doc_build_file_deferred). */
struct rb_json_loader;
rb_doc *rb_doc_from_json_loader(const rb_format *format, json_t *json, struct rb_json_loader *loader,
                                const rb_doc *blob_source, const char *name, int defer, rb_error *err);
#endif
