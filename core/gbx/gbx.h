#ifndef RB_GBX_H
#define RB_GBX_H
#include "../doc.h"
extern const rb_format rb_format_gbx;
json_t *gbx_summary(const rb_doc *doc);
size_t gbx_check(const rb_doc *doc, rb_check_report report, void *context);
#endif
