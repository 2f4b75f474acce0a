/* The document: parsing, building and the format registry (its state: doc_state.h). */
#ifndef RB_DOC_H
#define RB_DOC_H
#include "archive.h"
#include "doc_state.h"
#include "model.h"
#include "rebyte.h"

const rb_format *const *rb_formats(size_t *count);
const rb_format *rb_format_by_name(const char *name);
const rb_format *rb_format_detect(const uint8_t *data, size_t size);

rb_doc *rb_doc_parse_as(const rb_format *format, const uint8_t *data, size_t size, const rb_read_options *options,
                        rb_error *err);
/* Builds a model from JSON through the format's description (validating it). Blob references
 * resolve against `blob_source` (may be NULL). */
rb_doc *rb_doc_from_json(const rb_format *format, json_t *json, const rb_doc *blob_source, const char *name,
                         rb_error *err);
void rb_doc_path_at_section(const rb_doc *doc, uint16_t section, uint64_t offset, char *out, size_t size);
/* `doc` borrows bytes from `original`: free the original together with doc. */
void rb_doc_keep_alive(rb_doc *doc, rb_doc *original);
void rb_doc_init(rb_doc *doc, const char *file_name, const rb_limits *limits);
/* Fills `err` (may be NULL) with a status and a message about `file`, no offset. */
void rb_error_set(rb_error *err, rb_status status, const char *file, const char *message);
#endif
