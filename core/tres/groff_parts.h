/* Payload descriptions of GROFF sections kept in files of their own (groff.c dispatches to them):
 * the GRF value table (valuetable.c) and the class payloads of SCN/savegame blocks (scn.c). */
#ifndef RB_TRES_GROFF_PARTS_H
#define RB_TRES_GROFF_PARTS_H
#include "core/tres/tres.h"

/* The GRF `.valuetable` (docs/formats/tres.md "Value table"). */
void groff_value_table(rb_ar *ar, uint64_t size);

/* What is known when an SCN/savegame block is described: the versions from the Header block (-1
 * before it) and the block's name (docs/formats/tres.md "SCN block classes"). */
typedef struct scn_context {
    int32_t save_version;
    int32_t animal_version;
    const char *block_name; /* the block's name text (NUL-terminated copy), "" when unknown */
} scn_context;

/* The block's class record (e.g. `animal`, `trigger`, `camera`). READ: decided from the name and
 * the bytes; returns 0 without consuming anything when no typed class takes exactly the block's
 * bytes (the caller keeps them opaque). WRITE/FROM_JSON: returns 0 when the model's block has
 * none of the class keys. */
int scn_block(rb_ar *ar, const scn_context *cx, uint64_t size);
#endif
