/* A deferred read and a full read of the same bytes agree (tests/fuzz/deferred_agree.c). */
#ifndef RB_DEFERRED_AGREE_H
#define RB_DEFERRED_AGREE_H
#include <stddef.h>
#include <stdint.h>
#include "core/doc/doc.h"

/* Reads `data` as `format` in full and with rb_read_options.defer, and requires the two to
 * agree (docs/performance.md "The deferred model"): both fail with the same message (file,
 * offset, structure path), or both succeed with the same coverage, coverage by kind and notes,
 * the same bytes written (plain, and with the streams decoded), and, once the deferred document
 * is navigated, the same model node by node (core/model/model_equal.c); before that, each deferred
 * unit read again alone (core/archive/archive_unit.c) equals the full read's subtree at its place, and the
 * dump of the deferred document, printed so, is the full read's. A third read, deferred with its
 * units checked (rb_read_options.check_units, as `rebyte verify` reads), succeeds with the same
 * reports and written bytes, and keeps no unit the plain deferred read does not. 1 when they agree; else 0 and
 * `why` says where they part. *units gets the deferred read's number of deferred units. */
int rb_deferred_agrees(const rb_format *format, const uint8_t *data, size_t size, const rb_limits *limits,
                       size_t *units, char *why, size_t why_size);
#endif
