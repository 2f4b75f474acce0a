/*
 * What ghosts (CGameCtnGhost 011/019/025/02D) and replays (CGameCtnReplayRecord 00D/00F) store
 * alike to validate a run: the player's input events and the validating game's build.
 * Layouts: docs/formats/gbx_ghost.md, from GBX.NET's CInputEventsStore and
 * SGameGhostValidationData.
 */
#include "core/gbx/ghost/ghost.h"

/* CInputEventsStore without its leading u32. */
static void input_events(rb_ar *ar)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "inputNames", RB_U32, 4)) gbx_id(ar, NULL);
    rb_slot count = rb_ar_slot(ar, "numInputs", RB_U32);
    rb_ar_u32(ar, "u02");
    uint64_t k = rb_ar_count_of(ar, "inputs", count.value);
    rb_ar_slot_set(ar, &count, k);
    k = rb_ar_list_begin_n(ar, "inputs", k, 9);
    RB_AR_RECORDS(ar, i, k) {
        rb_ar_i32(ar, "time"); /* milliseconds + 100000, as stored */
        rb_ar_u8(ar, "nameIndex");
        rb_ar_u32(ar, "data");
    }
}

void gbx_ghost_inputs(rb_ar *ar)
{
    rb_ar_u32(ar, "u01");
    input_events(ar);
}

void gbx_ghost_validating_build(rb_ar *ar)
{
    gbx_fields(ar, GBX_FIELDS({'s', "validateExeVersion"}, {'u', "validateExeChecksum"}, {'i', "validateOsKind"},
                               {'i', "validateCpuKind"}));
}

void gbx_ghost_validation_data(rb_ar *ar)
{
    gbx_ghost_validating_build(ar);
    gbx_string(ar, "validateRaceSettings");
}
