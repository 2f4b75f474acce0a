/* Map header chunks and the body facts they copy (map_facts.c, map_header.c, map_header_xml.c). */
#ifndef RB_GBX_MAP_HEADER_H
#define RB_GBX_MAP_HEADER_H
#include "core/gbx/engine/gbx_internal.h"

/* Where the body keeps a fact the header (or the parameters' 00A) repeats. */
typedef enum gbx_fact {
    GBX_FACT_BLOCK_DATA, /* 01F (013, 00F): mapInfo, mapName, decoration */
    GBX_FACT_MEDALS,     /* ChallengeParameters 004: bronzeTime .. authorTime */
    GBX_FACT_STUNTS,     /* ChallengeParameters 008: timeLimit, authorScore */
    GBX_FACT_TIPS,       /* ChallengeParameters 001: tip */
    GBX_FACT_MAP_TYPE,   /* ChallengeParameters 00E: mapType, mapStyle */
    GBX_FACT_AUTHOR,     /* 042: authorLogin, authorNickname, authorZone, ... */
    GBX_FACT_LAPS,       /* 018: isLapRace, nbLaps */
    /* items, macroblocks, blocks (CGameCtnCollector 0x2E001000): the header's 0x2E001003 repeats */
    GBX_FACT_COLLECTOR_IDENT,   /* 00B (or 002): ident */
    GBX_FACT_COLLECTOR_PAGE,    /* 009: pageName, parentCollectorId */
    GBX_FACT_COLLECTOR_NAME,    /* 00C: name */
    GBX_FACT_COLLECTOR_CATALOG, /* 011: catalogPosition, prodState */
    /* collections (CGameCtnCollection 0x03033000): the header's 0x03033001 repeats */
    GBX_FACT_COLLECTION,      /* 009: collection, needUnlock, vehicle */
    GBX_FACT_COLLECTION_SORT  /* 00E: sortIndex */
} gbx_fact;

/* The body's node for `fact`'s field `key` in the map whose file record is `file`; NULL when the
 * map does not have it. */
const rb_node *gbx_map_fact(const rb_node *file, gbx_fact fact, const char *key);

/* Does the body chunk with this stored id hold a fact a header copy repeats (gbx_map_fact reads
 * it when the header is written)? Such a chunk is never deferred (core/gbx/engine/gbx_node.c). */
int gbx_chunk_holds_copied_facts(uint32_t raw_id);

/* The header's nbCheckpoints (TmDesc 002 version 13) as the games write it (docs/formats/gbx.md
 * "Header copies"): the blocks of 01F and the items of 040 that are checkpoints, plus one; 0
 * when the map's block or item list is not typed (the count is unknown). The predicates are the
 * lists' gbx_list.counted. */
int gbx_map_checkpoints(const rb_node *file, uint32_t *count);
int gbx_block_is_checkpoint(const rb_node *block);
/* The tag of a waypoint property (CGameWaypointSpecialProperty chunk 000: "Spawn", "Goal",
 * "Checkpoint", "StartFinish", ...), NULL when it has none. */
const uint8_t *gbx_waypoint_tag(const rb_node *waypoint, size_t *size);
int gbx_item_is_checkpoint(const rb_node *item);

/* ChallengeParameters' chunk `low` (001 tips, 004 medals, 008 stunts, 00A the medals' copy, 00E
 * map type) of the map whose file record is `file`, current or legacy id; NULL without it. */
rb_node *gbx_map_params_chunk(const rb_node *file, uint32_t low);

/* A field that copies a body fact (`fact_key`, NULL: the same key): READ reads it; WRITE writes
 * the model's copy when it keeps one (a file whose copy differs), else the body's value;
 * FROM_JSON takes it only when the JSON has it. */
void gbx_copy(rb_ar *ar, const char *key, gbx_fact fact, const char *fact_key, void (*describe)(rb_ar *, const char *));

/* 005: the XML, whole or as a template whose copies of body facts are derived. */
void gbx_map_header_xml(rb_ar *ar);

/* READ side: the template of a read XML string whose attributes derive from the body of `file`
 * (NULL when none does, or out of memory: the XML then stays a string). */
rb_node *gbx_xml_template(rb_doc *doc, const rb_node *file, const rb_node *xml);

/* Every attribute of the header XML (chunk 005's record `chunk`: its `xml` or `xmlTemplate`)
 * that copies a body fact but does not say what the writer derives from the body (a copy the
 * file kept in its own words, or one a patch left): its stored text and the body's. */
typedef void (*gbx_xml_stale_visit)(void *context, const char *attribute, const uint8_t *stored, size_t stored_size,
                                    const uint8_t *body, size_t body_size);
void gbx_xml_stale_copies(const rb_node *file, const rb_node *chunk, gbx_xml_stale_visit visit, void *context);

/* Every copy the model keeps (a file whose copy differs, or one a patch added) with the body
 * value it copies: header chunks (stored id `chunk_id`) and the parameters' 00A (`in_body`). */
typedef void (*gbx_copy_visit)(void *context, uint32_t chunk_id, int in_body, const rb_node *copy,
                               const rb_node *source);
void gbx_visit_copies(const rb_node *file, gbx_copy_visit visit, void *context);

/* After a read: copies equal to what the writer derives leave the model; the others are noted. */
void gbx_settle_copies(rb_doc *doc);
#endif
