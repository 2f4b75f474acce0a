#ifndef RB_GBX_H
#define RB_GBX_H
#include "../doc.h"
extern const rb_format rb_format_gbx;
json_t *gbx_summary(const rb_doc *doc);
#endif
