/* Errors: filling one and spelling it (error.h). */
#include "core/error.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void rb_error_clear(rb_error *err)
{
    if (!err) return;
    size_t size = err->size;
    memset(err, 0, sizeof *err);
    err->size = size;
}

void rb_error_copy(rb_error *err, const rb_error *from)
{
    if (!err || err == from) return;
    size_t size = err->size;
    memcpy(err, from, sizeof *err);
    err->size = size;
}

void rb_error_set(rb_error *err, rb_status status, const char *file, const char *path, const char *fmt, ...)
{
    if (!err) return;
    rb_error_clear(err);
    err->status = status;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    snprintf(err->path, sizeof err->path, "%s", path ? path : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

const char *rb_error_format(const rb_error *e, char *out, size_t size)
{
    char where[96] = "";
    if (e->has_offset) snprintf(where, sizeof where, "%s @0x%" PRIx64 ": ", e->section, e->offset);
    else if (e->section[0]) snprintf(where, sizeof where, "%s: ", e->section);
    snprintf(out, size, "%s%s%s%s%s%s", e->file[0] ? e->file : "", e->file[0] ? ": " : "", where, e->path,
             e->path[0] ? ": " : "", e->message);
    return out;
}
