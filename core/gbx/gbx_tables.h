/*
 * The one registration point of GBX classes: every chunk table a class description file defines
 * (`const gbx_chunk_table gbx_..._chunks = {...}` in its own file), listed once. The list
 * declares the tables (gbx_classes.h) and is what the chunk lookup walks (gbx_classes.c); no id
 * is defined twice in the body tables nor in the header tables (test_gbx_tables), so the order
 * below decides nothing. Adding a class: docs/formats/adding.md "Adding a GBX chunk or class".
 */
#ifndef RB_GBX_TABLES_H
#define RB_GBX_TABLES_H

/* Body chunks (and GBX_WHOLE_NODE classes), by the file that describes them. */
#define GBX_BODY_TABLES(X)                                                                        \
    X(gbx_challenge_chunks)        /* map/challenge.c: CGameCtnChallenge */                        \
    X(gbx_game_chunks)             /* map/nested.c: collector list, parameters, blocks, skins */   \
    X(gbx_anchored_chunks)         /* map/anchored.c: items chunk 0x03043040, anchored objects */  \
    X(gbx_unlimiter_chunks)        /* map/unlimiter.c: TMUnlimiter map chunks 0x3F001002/003 */    \
    X(gbx_campaign_chunks)         /* map/campaign.c: campaigns and their map groups */            \
    X(gbx_map_extra_chunks)        /* map/map_extra.c: skippable map chunks */                     \
    X(gbx_media_clip_chunks)       /* mediatracker/clip.c: clips, clip groups, tracks */           \
    X(gbx_media_camera_chunks)     /* mediatracker/camera.c: camera media blocks */                \
    X(gbx_media_effects_chunks)    /* mediatracker/effects.c: effect media blocks */               \
    X(gbx_media_replay_ui_chunks)  /* mediatracker/replay_ui.c: TMN/TMU replay events, UI controls */ \
    X(gbx_media_entity_chunks)     /* mediatracker/tm2020_blocks.c: entity, object, skel, decal 2d blocks */ \
    X(gbx_ghost_chunks)            /* ghost/ghost.c: CGameGhost, CGameCtnGhost, records */         \
    X(gbx_replay_chunks)           /* ghost/replay.c: CGameCtnReplayRecord */                      \
    X(gbx_item_chunks)             /* item/item.c: CGameCtnCollector, CGameItemModel, macros */    \
    X(gbx_entity_chunks)           /* item/entity_models.c: entity models, block items, placement */      \
    X(gbx_prefab_chunks)           /* item/prefab.c: prefabs, dynamic objects, their animation */  \
    X(gbx_game_model_chunks)       /* item/game_models.c: spawn models, train wagons */            \
    X(gbx_fid_cache_chunks)        /* item/fid_cache.c: file indexes (CMwRefBuffer, fid caches) */ \
    X(gbx_light_chunks)            /* item/lights.c: old solids' lights and light functions */     \
    X(gbx_crystal_chunks)          /* item/crystal.c: CPlugCrystal meshes, material instances */   \
    X(gbx_surface_chunks)          /* item/surface.c: CPlugSurface collision shapes */             \
    X(gbx_solid_chunks)            /* item/solid2.c: CPlugSolid2Model meshes and visuals */        \
    X(gbx_object_chunks)           /* item/object.c: physical and visual models, lights */         \
    X(gbx_old_solid_chunks)        /* item/solid.c: CPlugSolid and its CPlugTree nodes */          \
    X(gbx_block_info_chunks)       /* item/block_info.c: TM 1.0 collections, block infos */

/* Header chunks (user data) with a known layout. */
#define GBX_HEADER_TABLES(X)                                                                      \
    X(gbx_map_header_chunks)       /* map/map_header.c: header chunks of maps */                   \
    X(gbx_replay_header_chunks)    /* ghost/replay.c: header chunks of replays */                  \
    X(gbx_item_header_chunks)      /* item/item.c: header chunks of items, macroblocks */          \
    X(gbx_block_info_header_chunks) /* item/block_info.c: the collection's chunk 0x03033001 */
#endif
