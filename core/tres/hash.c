/* Trespasser's hashes (docs/formats/tres.md "Hashes and ids"): names by zlib's crc32, palettes. */
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include "core/tres/tres.h"

/* The game's u4Hash: plain CRC-32 of the bytes, without a terminator. */
static uint32_t tres_hash(const void *bytes, size_t size)
{
    return (uint32_t)crc32(crc32(0, Z_NULL, 0), bytes, (uInt)size);
}

void rb_tres_block_name(const char *instance_name, char out[9])
{
    snprintf(out, 9, "%X", (unsigned)tres_hash(instance_name, strlen(instance_name)));
}

uint32_t rb_tres_sound_id(const uint8_t *name, size_t size)
{
    /* the game lower-cases a sound's name and turns its backslashes into slashes before hashing */
    uLong h = crc32(0, Z_NULL, 0);
    for (size_t i = 0; i < size; i++) {
        uint8_t c = name[i] == '\\' ? '/' : name[i] >= 'A' && name[i] <= 'Z' ? (uint8_t)(name[i] + 32) : name[i];
        h = crc32(h, &c, 1);
    }
    return (uint32_t)h;
}

uint32_t rb_tres_palette_hash(const uint32_t *colours, size_t count)
{
    uint32_t h = 0;
    for (size_t i = 0; i < count; i++) h ^= colours[i] << (h & 2);
    return h;
}
