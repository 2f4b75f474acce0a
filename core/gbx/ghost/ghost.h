/* Ghost archives shared with replays (core/gbx/ghost/ghost.c) and the samples (ghost_samples.c). */
#ifndef RB_GBX_GHOST_H
#define RB_GBX_GHOST_H
#include "core/gbx/engine/gbx_internal.h"

/* ---------- what ghosts and replays share to validate a run (validation.c) ---------- */
/* CInputEventsStore: a u32 (u01), input names (ids), then 9-byte input events. Used by
 * CGameCtnGhost 011/019/025 and CGameCtnReplayRecord 00D. */
void gbx_ghost_inputs(rb_ar *ar);
/* The validating game's exe version and checksum, OS and CPU kinds. */
void gbx_ghost_validating_build(rb_ar *ar);
/* SGameGhostValidationData: the validating build, then the race settings (ghost 011/019/025,
 * replay 00F). */
void gbx_ghost_validation_data(rb_ar *ar);

/* An i32 length + raw bytes ("data" in GBX.NET), kept as a blob; the length is derived
 * (ghost_samples.c). */
void gbx_data_blob(rb_ar *ar, const char *key);

/* ---------- samples (ghost_samples.c, docs/formats/gbx_ghost.md "Samples") ---------- */
enum { GHOST_MAX_SAMPLES = 1 << 20 };
/* How the state buffer is cut into samples: READ from the sizes stored after it, WRITE the
 * sizes of the samples written (checked against the stored ones). */
typedef struct ghost_sample_sizes {
    int typed;      /* the samples are records (else the buffer is a blob) */
    uint32_t count;
    uint32_t *size_of; /* `count` sizes (scratch memory of the archive) */
} ghost_sample_sizes;
/* The state buffer: its samples as records where they are known and cut exactly, else a blob. */
void gbx_ghost_state_buffer(rb_ar *ar, uint32_t mobil_class, int32_t version, ghost_sample_sizes *cut);
/* The decoded content of CPlugEntRecordData (ent_record.c, docs/formats/gbx_ghost.md "Entity records"). */
void gbx_ent_record_content(rb_ar *ar);
/* An entity's samples from record version 11 on (ent_samples.c); `entity_class` is the class id
 * of the recorded object (0 when unknown): the car's samples are typed. */
void gbx_ent_encoded_samples(rb_ar *ar, uint32_t entity_class);
/* Is a state of `size` bytes of an entity of this class one the car's fields type (CSceneVehicleVis)? */
int gbx_ent_is_car_state(uint32_t entity_class, uint32_t size);
/* A car sample's state before version 11: its length, the typed state, the bytes after it (u103). */
void gbx_ent_car_state(rb_ar *ar);
/* rb_format.is_recording (recordings.c): a ghost or a replay's record, which no write changes. */
int gbx_is_recording(const rb_node *node);
#endif
