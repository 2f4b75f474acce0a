/* What a run of the apply engine reports (apply.h apply_outcome): its report lines and the first
 * reason it failed. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "patch/apply_outcome.h"

/* A line is kept with its kind first ('W' warning, 'I' information) and a newline last. */
static void put_line(apply_outcome *out, char kind, const char *fmt, va_list ap)
{
    char line[1600];
    vsnprintf(line, sizeof line, fmt, ap);
    rb_buf_put_u8(&out->lines, (uint8_t)kind);
    rb_buf_put(&out->lines, line, strlen(line));
    rb_buf_put_u8(&out->lines, '\n');
}

void apply_line(apply_outcome *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_line(out, 'I', fmt, ap);
    va_end(ap);
}

void apply_warning(apply_outcome *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_line(out, 'W', fmt, ap);
    va_end(ap);
}

void apply_fail(apply_outcome *out, rb_status status, const char *fmt, ...)
{
    char message[sizeof out->error.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    if (out->error.status) return; /* the first reason stands */
    out->error.status = status;
    snprintf(out->error.message, sizeof out->error.message, "%s", message);
}
