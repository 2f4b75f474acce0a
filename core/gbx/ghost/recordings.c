/*
 * Race recordings (docs/usage.md "Race recordings"): ghosts (CGameCtnGhost, CGameGhost,
 * CPlugEntRecordData) and replays (CGameCtnReplayRecord) are what record sites and leaderboards
 * take as proof of a run. rebyte reads them and writes them back exactly, but never writes one
 * changed: a changed nickname, time or sample passes a run off as someone else's, which is why
 * the community's main library keeps replays read-only. The apply pipeline asks this hook which
 * nodes are recordings (patch/apply_recordings.c).
 */
#include "core/gbx/ghost/ghost.h"

enum {
    CLASS_GHOST = 0x03092000,       /* CGameCtnGhost: player, times, checkpoints, inputs */
    CLASS_GHOST_SAMPLES = 0x0303F000, /* CGameGhost: the recorded samples */
    CLASS_RECORD_DATA = 0x0911F000, /* CPlugEntRecordData: TM2020 recorded entities */
    CLASS_REPLAY = 0x03093000       /* CGameCtnReplayRecord: ghosts and the map they ran on */
};

int gbx_is_recording(const rb_node *node)
{
    const rb_node *class_id = rb_node_get(node, "classId");
    if (!class_id || class_id->kind != RB_K_INT) return 0;
    uint32_t id = gbx_remap_id((uint32_t)rb_node_uint(class_id)) & 0xFFFFF000u;
    return id == CLASS_GHOST || id == CLASS_GHOST_SAMPLES || id == CLASS_RECORD_DATA || id == CLASS_REPLAY;
}
