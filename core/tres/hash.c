/* The CRC-32 based ids of Trespasser (docs/formats/trespasser.md "Hashes and ids"), from zlib's crc32. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "tres.h"

uint32_t rb_tres_hash(const void *bytes, size_t size)
{
    return (uint32_t)crc32(crc32(0, Z_NULL, 0), bytes, (uInt)size);
}

void rb_tres_block_name(const char *instance_name, char out[9])
{
    snprintf(out, 9, "%X", (unsigned)rb_tres_hash(instance_name, strlen(instance_name)));
}

uint32_t rb_tres_sound_id(const char *name)
{
    uLong crc = crc32(0, Z_NULL, 0);
    for (const char *p = name; *p; p++) {
        unsigned char c = (unsigned char)(*p == '\\' ? '/' : tolower((unsigned char)*p));
        crc = crc32(crc, &c, 1);
    }
    return (uint32_t)crc;
}

uint32_t rb_tres_partition_id(const uint8_t centre[12], const uint8_t corner[12])
{
    return rb_tres_hash(centre, 12) + rb_tres_hash(corner, 12);
}

uint32_t rb_tres_palette_hash(const uint32_t *colours, size_t count)
{
    uint32_t h = 0;
    for (size_t i = 0; i < count; i++) h ^= colours[i] << (h & 2);
    return h;
}
