/*
 * The format table (core/registry/registry.c): every format the library knows, listed above the
 * formats, so no format and no part of the engine below depends on the list. What needs every
 * format includes this header: the entry points that find a file's format (any_format.c), the
 * patch engine and the CLI. Nothing in core/ outside this folder does.
 */
#ifndef RB_REGISTRY_H
#define RB_REGISTRY_H
#include <stddef.h>
#include <stdint.h>
#include "core/model/format.h"

const rb_format *const *rb_formats(size_t *count);
const rb_format *rb_format_by_name(const char *name);
/* The format of highest confidence for these bytes (the first of equal confidence), or NULL. */
const rb_format *rb_registry_detect(const uint8_t *data, size_t size);
#endif
