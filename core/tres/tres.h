/*
 * Trespasser (1998) formats: GROFF containers (.grf, .scn, savegames, also SZDD-packed),
 * .pid texture directories, .tpa audio packs, .wtd wavelet terrain, .spz packed swap files.
 * Layouts: docs/formats/trespasser.md (one section per format).
 */
#ifndef RB_TRES_H
#define RB_TRES_H
#include <stddef.h>
#include <stdint.h>
#include "../doc.h"

extern const rb_format rb_format_groff;
extern const rb_format rb_format_tres_pid;
extern const rb_format rb_format_tres_tpa;
extern const rb_format rb_format_tres_wtd;
extern const rb_format rb_format_tres_spz;

/* The game's u4Hash: plain CRC-32 (zlib crc32) of the bytes, without a terminator
 * (docs/formats/trespasser.md "Hashes and ids"). */
uint32_t rb_tres_hash(const void *bytes, size_t size);
/* Name of the SCN/savegame block that holds an instance's state: "%X" of the hash of its name. */
void rb_tres_block_name(const char *instance_name, char out[9]);
/* Sound and sound-material ids: the hash of the name lower-cased with '\' turned into '/'. */
uint32_t rb_tres_sound_id(const char *name);
/* Partition node id: hash(12 bytes of centre) + hash(12 bytes of box corner), mod 2^32. */
uint32_t rb_tres_partition_id(const uint8_t centre[12], const uint8_t corner[12]);
/* Palette hash of a .pid palette: h ^= colour << (h & 2) over the colours. */
uint32_t rb_tres_palette_hash(const uint32_t *colours, size_t count);

/* The .wtd asset: the terrain's height map as a 16-bit greyscale PNG (rb_format.assets). */
int rb_tres_wtd_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
                       size_t why_size);

/* The GROFF description, usable inside another container (the SZDD wrapper). */
void rb_tres_groff_describe(rb_ar *ar);
#endif
