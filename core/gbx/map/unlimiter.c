/*
 * TMUnlimiter's map chunks 0x3F001002 and 0x3F001003 (a TMF mod: its own block list with offsets,
 * rotations and scales, scripts, parameter sets, embedded blocks and images). Layout: GBX.NET's
 * CGameCtnChallenge.TMUnlimiter.cs, versions 1, 6 and 7; what the corpus has is typed and the
 * rest refused, so such a chunk stays bytes (docs/formats/gbx_mapextra.md "TMUnlimiter chunks").
 */
#include "core/gbx/engine/gbx_internal.h"

enum {
    DECORATION_NOTHING = 3,           /* flags & 3: sky decoration visibility */
    DECORATION_MOVED = 1 << 2,
    DECORATION_SCALED = 1 << 3,
    CHALLENGE_FLAGS_KNOWN = 0x3FF,    /* visibility, moved, scaled, pylons, base, collisions,
                                         random start, server communication, motion time sync */
    V6_DECORATION_MOVED = 1 << 0,     /* version 6's own flag byte: moved, scaled, visibility */
    V6_DECORATION_SCALED = 1 << 1,    /* in bits 2-3, pylons, empty base */
    V6_FLAGS_KNOWN = 0x3F,
    BLOCK_HAS_AUTHOR_AND_SKIN = 1 << 15,
    BLOCK_FLAGS2_KNOWN = 0x7FFF
};

/* Refuses what this module does not describe: the chunk is skippable, so it stays bytes. */
static int refuse(rb_ar *ar, const char *what)
{
    if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_UNSUPPORTED, "TMUnlimiter %s is not described here", what);
    return 0;
}

/* a list this module only knows empty (GBX.NET reads it; no corpus file has one) */
static void empty_list(rb_ar *ar, const char *key) { rb_ar_empty_list(ar, key, RB_U32, key); }

static void script_modules(rb_ar *ar)
{
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "angelScriptModules", RB_U32, 1)) {
        uint8_t flags = (uint8_t)rb_ar_uint(ar, "flags", RB_U8 | RB_W_HEX); /* 1 empty, 2 core module */
        if (!(flags & 2)) gbx_string(ar, "moduleName");
        if (!(flags & 1)) refuse(ar, "script byte code"); /* GBX.NET cannot parse it either */
    }
}

static void material_refs(rb_ar *ar)
{
    gbx_fields_list(ar, "materialModelRefs", 8, GBX_FIELDS({'i', "instanceIndex"}, {'s', "materialModelRelativePath"}));
}

/* replacement textures: a flag byte, then an instance index per flag set */
static void replacement_textures(rb_ar *ar)
{
    static const char *const names[] = {"specularInstanceIndex", "normalInstanceIndex", "whiteInstanceIndex",
                                        "blackInstanceIndex"};
    uint8_t flags = (uint8_t)rb_ar_uint(ar, "replacementTextureFlags", RB_U8 | RB_W_HEX);
    RB_AR_EACH(ar, bit, 4) if (flags & (1u << bit)) rb_ar_i32(ar, names[bit]);
    if (flags & 0xF0) refuse(ar, "replacement texture flag");
}

static void vehicle_identifiers(rb_ar *ar)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "vehicleIdentifiers", RB_U32, 12)) gbx_meta(ar, NULL);
}

/* a game block as the mod stores it: model, coordinate (three bytes in version 1, else three
 * i32), direction, flags, and the author and skin when the flags say so */
static void game_block_base(rb_ar *ar, int byte_coord)
{
    gbx_id(ar, "name");
    gbx_id(ar, "collection");
    if (byte_coord) gbx_byte3(ar, "coord");
    else gbx_int3(ar, "coord");
    rb_ar_u8(ar, "direction");
    uint32_t flags = rb_ar_x32(ar, "flags");
    if (flags & BLOCK_HAS_AUTHOR_AND_SKIN) {
        gbx_id(ar, "author");
        gbx_noderef(ar, "skin");
    }
}

/* a game block of the mod's list (version 7): the base, then the mod's own placement
 * properties by the bits of flags2 */
static void game_block(rb_ar *ar)
{
    game_block_base(ar, 0);
    uint16_t flags2 = (uint16_t)rb_ar_uint(ar, "flags2", RB_U16 | RB_W_HEX);
    if (flags2 & ~BLOCK_FLAGS2_KNOWN) refuse(ar, "block flag");
    if (flags2 & 1) gbx_vec3(ar, "offset");
    if (flags2 & 2) gbx_vec3(ar, "rotation");
    if (flags2 & 4) gbx_vec3(ar, "scale");
    if (flags2 & 8) refuse(ar, "block motion");
    if (flags2 & 16) gbx_vec3(ar, "originOffset");
    if (flags2 & 32) gbx_i32_list(ar, "blockGroups");
    if (((flags2 >> 9) & 3) == 1) { /* spawn point altered by hand */
        gbx_vec3(ar, "spawnOffset");
        gbx_vec3(ar, "spawnRotation");
    }
}

static void blocks(rb_ar *ar)
{
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "blocks", RB_U32, 24)) {
        uint8_t type = rb_ar_u8(ar, "blockType"); /* 0 game, 1 trigger, 2 external, 3 embedded */
        if (type == 0) game_block(ar);
        else refuse(ar, "trigger, external or embedded block");
    }
}

/* version 1: the mod's list of game blocks alone (GBX.NET ReadV1), coordinates in bytes */
static void blocks_v1(rb_ar *ar)
{
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "blocks", RB_U32, 14)) game_block_base(ar, 1);
}

/* version 6 (GBX.NET ReadV6): a flag byte of its own, the decoration, the old scripts, parameter
 * sets, media clip mappings and block groups (known here only empty), then the blocks as in 7 */
static void unlimiter_v6(rb_ar *ar)
{
    uint8_t flags = (uint8_t)rb_ar_uint(ar, "flags", RB_U8 | RB_W_HEX);
    if (flags & ~V6_FLAGS_KNOWN) refuse(ar, "map flag");
    if (((flags >> 2) & 3) != DECORATION_NOTHING) {
        if (flags & V6_DECORATION_MOVED) gbx_vec3(ar, "decorationOffset");
        if (flags & V6_DECORATION_SCALED) gbx_vec3(ar, "decorationScale");
    }
    empty_list(ar, "legacyScripts");
    empty_list(ar, "parameterSets");
    empty_list(ar, "mediaClipMappings");
    empty_list(ar, "blockGroups");
    blocks(ar);
}

/* 3F001002 and 3F001003: a version byte; 0 is a vanilla map, 1 a list of blocks, 6 and 7 the
 * mod's settings and blocks (7 below) */
static void unlimiter_chunk(rb_ar *ar)
{
    uint8_t version = rb_ar_u8(ar, "version");
    if (version == 0) return;
    if (version == 1) {
        blocks_v1(ar);
        return;
    }
    if (version == 6) {
        unlimiter_v6(ar);
        return;
    }
    if (version != 7) {
        refuse(ar, "chunk version other than 0, 1, 6 and 7");
        return;
    }
    uint16_t flags = (uint16_t)rb_ar_uint(ar, "flags", RB_U16 | RB_W_HEX);
    if (flags & ~CHALLENGE_FLAGS_KNOWN) refuse(ar, "map flag");
    if ((flags & 3) != DECORATION_NOTHING) {
        if (flags & DECORATION_MOVED) gbx_vec3(ar, "decorationOffset");
        if (flags & DECORATION_SCALED) gbx_vec3(ar, "decorationScale");
    }
    script_modules(ar);
    empty_list(ar, "parameterSets");
    empty_list(ar, "triggerGroups");
    empty_list(ar, "blockGroups");
    /* the count of the embedded block data read further on, which this module only knows empty */
    rb_ar_empty_list(ar, "embeddedBlocks", RB_I32, "embedded blocks");
    material_refs(ar);
    replacement_textures(ar);
    empty_list(ar, "embeddedImages");
    vehicle_identifiers(ar);
    blocks(ar);
}

static const gbx_chunk_def UNLIMITER_CHUNKS[] = {
    {0x3F001002, 1, "TMUnlimiter 1.2", unlimiter_chunk},
    {0x3F001003, 1, "TMUnlimiter 2", unlimiter_chunk},
};

const gbx_chunk_table gbx_unlimiter_chunks = {UNLIMITER_CHUNKS, sizeof UNLIMITER_CHUNKS / sizeof UNLIMITER_CHUNKS[0]};
