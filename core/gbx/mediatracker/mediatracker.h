/*
 * The media tracker: CGameCtnMediaClip (0x03079000), CGameCtnMediaClipGroup (0x0307A000),
 * CGameCtnMediaTrack (0x03078000), every media block class and CControlEffectSimi (0x07010000).
 *
 * Most blocks are a list of keys ("keys(k)": u32 count, then keys that start with their time,
 * a timefloat) or a start and an end time. Keys are records with named fields so a patch can
 * address e.g. /…/keys/3/fov. Legacy ids (0x24061000 tracks, 0x2406D000 game cameras, ...)
 * reach these descriptions through gbx_remap_id; the raw id is what the model keeps.
 *
 * Two chunk ids are shared by two classes and the chunk id alone does not say which layout
 * follows (docs/formats/gbx_mediatracker.md "The model"): 0x03085000 (Time keys, or TimeSpeed
 * keys in CGameCtnMediaBlockTimeSpeed) and 0x030A1000..002 (CameraPath keys, or
 * CGameCtnMediaBlockCameraSimple). The chunk description
 * does not see the node's class, so the reader picks the layout after which the node ends (or one
 * of its later chunks follows), preferring the chunk id's own class when both fit; the model names
 * the foreign variant's fields differently ("timeSpeedKeys", "simpleKeys") so writing and building
 * from JSON know the layout from the model.
 */
#ifndef RB_GBX_MEDIA_H
#define RB_GBX_MEDIA_H
#include "core/gbx/engine/gbx_internal.h"

typedef void (*key_fields_fn)(rb_ar *ar, uint32_t version);

void mt_f32s(rb_ar *ar, const char *const *names, int count);
void mt_i32s(rb_ar *ar, const char *const *names, int count);
void mt_bools(rb_ar *ar, const char *const *names, int count);
void mt_start_end(rb_ar *ar);
void mt_key_list(rb_ar *ar, const char *name, uint64_t key_bytes, key_fields_fn fields, uint32_t version);
int mt_version_known(rb_ar *ar, uint32_t version, uint32_t max, const char *what);
/* The player's badge, in the Entity media block (entity.c) and in a ghost's appearance
 * (CGameCtnGhost 000, ghost/ghost.c): its own version (`version_wire`: RB_U32 in entity blocks,
 * RB_I32 in ghosts), colour, stickers (two strings each) and layers. */
void gbx_player_badge(rb_ar *ar, unsigned version_wire);
int mt_chunk_boundary_at(rb_ar *ar, uint64_t offset, uint32_t class_a, uint32_t class_b, uint32_t after);
uint64_t mt_peek_count(rb_ar *ar);

#endif
