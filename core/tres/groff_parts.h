/* Payload descriptions of GROFF sections kept in files of their own (groff.c dispatches to them):
 * the GRF value table (valuetable.c) and the class payloads of SCN/savegame blocks (scn.c). */
#ifndef RB_TRES_GROFF_PARTS_H
#define RB_TRES_GROFF_PARTS_H
#include "tres.h"

/* The GRF `.valuetable` (docs/formats/trespasser.md "Value table"). */
void groff_value_table(rb_ar *ar, uint64_t size);

/* What an SCN/savegame block was saved by (docs/formats/trespasser.md "SCN block classes").
 * `save_version` and `animal_version` come from the Header block. READ: the class whose layout
 * takes exactly the block's bytes (tried in turn), or NULL; the caller keeps the bytes opaque then. */
typedef struct scn_context {
    int32_t save_version;
    int32_t animal_version;
    const char *block_name; /* the block's name text (NUL-terminated copy), "" when unknown */
} scn_context;

/* The key of the class record for a block (READ: decided from the bytes; other directions: from the
 * model), or NULL when the block is not one of the typed classes. */
const char *scn_class_key(rb_ar *ar, const scn_context *cx, uint64_t size);
/* Describes the block's class record (the caller opens no record: this makes `key`). READ may
 * fail; the caller rewinds and keeps the bytes opaque. */
void scn_class_payload(rb_ar *ar, const scn_context *cx, const char *key);
#endif
