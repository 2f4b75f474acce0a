#ifndef RB_GBX_H
#define RB_GBX_H
#include "../doc.h"
extern const rb_format rb_format_gbx;
json_t *gbx_summary(const rb_doc *doc);
size_t gbx_check(const rb_doc *doc, rb_check_report report, void *context);
const char *gbx_encoding(const rb_doc *doc);
int gbx_set_encoding(rb_doc *doc, const char *encoding);
int gbx_transform(const rb_doc *doc, const char *name, const json_t *options, json_t **patch, json_t **report,
                  char *why, size_t why_size);
#endif
