/* Ghost archives shared with replays (core/gbx/ghost.c). */
#ifndef RB_GBX_GHOST_H
#define RB_GBX_GHOST_H
#include "../gbx_internal.h"

/* CInputEventsStore without its leading u32: input names (ids), then 9-byte input events.
 * Used by CGameCtnGhost 011/019/025 and CGameCtnReplayRecord 00D. */
void gbx_ghost_input_events(rb_ar *ar);

/* An i32 length + raw bytes ("data" in GBX.NET), kept as a blob; the length is derived. */
void gbx_data_blob(rb_ar *ar, const char *key);
#endif
