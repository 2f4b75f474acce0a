/* Trespasser's palette hash (docs/formats/trespasser.md "Hashes and ids"). */
#include "tres.h"

uint32_t rb_tres_palette_hash(const uint32_t *colours, size_t count)
{
    uint32_t h = 0;
    for (size_t i = 0; i < count; i++) h ^= colours[i] << (h & 2);
    return h;
}
