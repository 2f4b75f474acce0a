/* Option structs that can grow: what a caller built against another release passes is read as
 * far as both know it (docs/api.md "Structs that grow"). */
#include "core/options.h"
#include <stdio.h>
#include <string.h>

int rb_options_take(void *out, size_t known, const void *in, size_t first_size, const char *what, char *why,
                    size_t why_size)
{
    memset(out, 0, known);
    if (!in) {
        memcpy(out, &known, sizeof known);
        return 0;
    }
    size_t size;
    memcpy(&size, in, sizeof size);
    if (size == 0) size = first_size;
    if (size < first_size) {
        snprintf(why, why_size, "%s: size %zu is smaller than any release's (initialise it with its _INIT macro)",
                 what, size);
        return -1;
    }
    const unsigned char *extra = (const unsigned char *)in + known;
    for (size_t i = 0; size > known && i < size - known; i++) {
        if (extra[i]) {
            snprintf(why, why_size, "%s: set a field this library (%zu bytes of it) does not know", what, known);
            return -1;
        }
    }
    memcpy(out, in, size < known ? size : known);
    memcpy(out, &known, sizeof known);
    return 0;
}

size_t rb_result_take(void *out, size_t known, size_t first_size, const char *what, char *why, size_t why_size)
{
    size_t size;
    memcpy(&size, out, sizeof size);
    size_t given = size ? size : first_size;
    if (given < first_size) {
        snprintf(why, why_size, "%s: size %zu is smaller than any release's (initialise it with its _INIT macro)",
                 what, size);
        return 0;
    }
    size_t fill = given < known ? given : known;
    memset(out, 0, fill);
    memcpy(out, &size, sizeof size);
    return fill;
}

int rb_result_fill(void *out, const void *value, size_t known, size_t first_size, const char *what, char *why,
                   size_t why_size)
{
    size_t fill = rb_result_take(out, known, first_size, what, why, why_size);
    if (!fill) return -1;
    memcpy((unsigned char *)out + sizeof fill, (const unsigned char *)value + sizeof fill, fill - sizeof fill);
    return 0;
}
