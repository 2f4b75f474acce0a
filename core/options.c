/* Option structs that can grow: what a caller built against another release passes is read as
 * far as both know it (docs/api.md "Option structs"). */
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
