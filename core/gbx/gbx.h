#ifndef RB_GBX_H
#define RB_GBX_H
#include "../doc.h"
extern const rb_format rb_format_gbx;
#endif
