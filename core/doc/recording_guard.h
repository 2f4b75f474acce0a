/*
 * Race recordings are never written changed, on any path that writes
 * (docs/usage.md "Race recordings"): every write of a document that holds a recording (the format's
 * is_recording hook: GBX ghosts and replays) takes this guard (core/doc/recording_guard.c).
 */
#ifndef RB_RECORDING_GUARD_H
#define RB_RECORDING_GUARD_H
#include "core/model/doc_state.h"

/* Does the model hold a race recording anywhere? */
int rb_doc_holds_recording(const rb_doc *doc);

/* 0 when every outermost recording node of `doc` is, unchanged, one of `original`'s (removing one
 * forges nothing); else -1 and `path_out` gets the changed recording's JSON pointer ("" the whole
 * file). -2 out of memory. */
int rb_records_unchanged(const rb_doc *doc, const rb_doc *original, char *path_out, size_t path_size);

/* The guard of a write whose output is `out` (out_size bytes): 0 when it forges no recording, else
 * -1 with `err` saying why. The recordings are compared with the file the document came from (the
 * bytes it was parsed from, or rb_doc_set_original's / a build's source); an output equal to
 * those bytes is the original itself and costs nothing more. */
int rb_records_guard(const rb_doc *doc, const uint8_t *out, size_t out_size, rb_error *err);
#endif
