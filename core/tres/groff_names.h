/* GROFF names as text wherever the file uses a symbol handle (groff_names.c). */
#ifndef RB_TRES_GROFF_NAMES_H
#define RB_TRES_GROFF_NAMES_H
#include "core/tres/tres.h"

/* The wire of a field holding a symbol handle: shown as the symbol's text. */
#define GROFF_NAME_WIRE (RB_W_SYMBOL | 4)

/* rb_format.symbol_text and symbol_handle over the model's `symbols`. */
const char *groff_symbol_text(const rb_doc *doc, uint32_t handle, size_t *length);
int groff_symbol_handle(rb_doc *doc, const char *text, size_t length, int create, uint32_t *handle);

/* The handle/text index in rb_doc.format_index: built after a read and after each edit
 * (rb_format.after_read, after_edit), freed by free_index. */
/* Is the text spelled the way a scene block's name is (the %X hash of an instance's name)? */
int groff_is_block_hash(const char *text, size_t length);
/* Is it the name of a scene block that is not an instance's (Header, Partitions, ...)? */
int groff_is_scene_fixed_name(const char *text, size_t length);

void groff_names_index(rb_doc *doc);
/* The `written_lists` hook: the name table, which the writer sorts and prunes. */
json_t *groff_written_lists(const rb_doc *doc);
void groff_names_free_index(void *index);

/* The format's game rules (groff_rules.c). */
struct rb_rule;
const struct rb_rule *groff_rules(size_t *count);

/* FROM_JSON: the texts the JSON's sections use, resolved against its `symbols`; a text it does
 * not have gets a new symbol, appended to the model's list at the end. */
enum { GROFF_MAX_NEW_NAMES = 256 };
typedef struct groff_json_names {
    const json_t *symbols;
    const rb_doc *original; /* the file the JSON was made from, when known */
    uint32_t highest;
    size_t added_count;
    const char *added_text[GROFF_MAX_NEW_NAMES];
    size_t added_length[GROFF_MAX_NEW_NAMES];
    uint32_t added_handle[GROFF_MAX_NEW_NAMES];
} groff_json_names;
void groff_names_from_json_begin(rb_ar *ar, groff_json_names *names);
void groff_names_from_json_end(rb_ar *ar, groff_json_names *names, rb_node *symbols);
#endif
