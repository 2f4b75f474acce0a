/*
 * Trespasser (1998) formats: GROFF containers (.grf, .scn, savegames, also SZDD-packed),
 * .pid texture directories, .tpa audio packs, .wtd wavelet terrain, .spz packed swap files.
 * Layouts: docs/formats/tres.md (one section per format).
 */
#ifndef RB_TRES_H
#define RB_TRES_H
#include <stddef.h>
#include <stdint.h>
#include "core/doc/doc.h"

extern const rb_format rb_format_groff;
extern const rb_format rb_format_pid;
extern const rb_format rb_format_tpa;
extern const rb_format rb_format_wtd;
extern const rb_format rb_format_spz;

/* Save versions 13 to 16 have no instance flags: their partition records and base-instance
 * blocks are 4 bytes shorter (docs/formats/tres.md "SCN and savegame blocks"). */
static inline int tres_save_has_flags(int32_t save_version) { return save_version < 13 || save_version > 16; }
/* Palette hash of a .pid palette: h ^= colour << (h & 2) over the colours. */
/* Name of the SCN/savegame block that holds an instance's state: "%X" of the game's u4Hash (plain
 * CRC-32 of the name's bytes, no terminator) of its name. */
void rb_tres_block_name(const char *instance_name, char out[9]);
uint32_t rb_tres_palette_hash(const uint32_t *colours, size_t count);
/* Id of a sound (a .tpa's id table) from its name: CRC-32 of the name lower-cased, `\` as `/`. */
uint32_t rb_tres_sound_id(const uint8_t *name, size_t size);

/* The .wtd asset: the terrain's height map as a 16-bit greyscale PNG (rb_format.assets). */
int wtd_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
                    size_t why_size);

/* `rebyte info` "origin" (tres_origin.c): the game, and which of its files the document is. */
json_t *tres_origin(const char *file_kind, const char *detected_from);
json_t *groff_summary(const rb_doc *doc);
json_t *tres_summary_pid(const rb_doc *doc);
json_t *tres_summary_spz(const rb_doc *doc);
json_t *tres_summary_tpa(const rb_doc *doc);

#endif
