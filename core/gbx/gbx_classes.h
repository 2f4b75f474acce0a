/*
 * The chunk lookup: every class table of the class folders (core/gbx/gbx_tables.h, the one
 * registration point), walked above them (core/gbx/gbx_classes.c). The engine below reaches it
 * through its context's hooks (gbx_class_hooks), never by name.
 */
#ifndef RB_GBX_CLASSES_H
#define RB_GBX_CLASSES_H
#include <stdint.h>
#include "core/gbx/engine/gbx_internal.h"
#include "core/gbx/gbx_tables.h"

/* The definition of a body chunk or GBX_WHOLE_NODE class (legacy ids remapped), NULL if none. */
const gbx_chunk_def *gbx_find_chunk(uint32_t raw_chunk_id);
/* Header chunks (user data) with a known layout. */
const gbx_chunk_def *gbx_find_header_chunk(uint32_t raw_chunk_id);

/* Tables of the class description files (one per file), declared from their one list. */
#define GBX_DECLARE_TABLE(table) extern const gbx_chunk_table table;
GBX_BODY_TABLES(GBX_DECLARE_TABLE)
GBX_HEADER_TABLES(GBX_DECLARE_TABLE)
#undef GBX_DECLARE_TABLE
#endif
