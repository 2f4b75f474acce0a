/* RFC 6901 JSON Pointers, read in one place (see pointer.h). */
#include "core/model/pointer.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int rb_pointer_walk_begin(rb_pointer_walk *walk, const char *path, size_t length, int selectors)
{
    walk->path = path;
    walk->length = length;
    walk->at = 0;
    walk->selectors = selectors;
    return length == 0 || path[0] == '/' ? 0 : -1;
}

/* Length of the token at p (p < end): up to the next '/', or a selector's closing ']'. */
static size_t token_length(const char *p, const char *end, int selectors)
{
    if (selectors && *p == '[') {
        const char *close = memchr(p, ']', (size_t)(end - p));
        if (close) return (size_t)(close - p) + 1;
    }
    const char *slash = memchr(p, '/', (size_t)(end - p));
    return slash ? (size_t)(slash - p) : (size_t)(end - p);
}

int rb_pointer_next(rb_pointer_walk *walk, const char **raw, size_t *raw_length)
{
    if (walk->at >= walk->length) return 0;
    if (walk->path[walk->at] != '/') return -1; /* what follows a selector's ']' */
    const char *p = walk->path + walk->at + 1, *end = walk->path + walk->length;
    size_t n = p < end ? token_length(p, end, walk->selectors) : 0;
    *raw = p;
    *raw_length = n;
    walk->at += 1 + n;
    return 1;
}

int rb_pointer_at_end(const rb_pointer_walk *walk) { return walk->at >= walk->length; }

int rb_pointer_decode(const char *raw, size_t n, char *out, size_t *length)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char c = raw[i];
        if (c == '~') {
            char next = i + 1 < n ? raw[i + 1] : 0;
            if (next != '0' && next != '1') return -1;
            c = next == '0' ? '~' : '/';
            i++;
        }
        out[o++] = c;
    }
    out[o] = 0;
    *length = o;
    return 0;
}

char *rb_pointer_decode_dup(const char *raw, size_t n, size_t *length, int *bad_escape)
{
    char *out = malloc(n + 1);
    size_t ignored;
    *bad_escape = 0;
    if (out && rb_pointer_decode(raw, n, out, length ? length : &ignored) != 0) {
        *bad_escape = 1;
        free(out);
        return NULL;
    }
    return out;
}

size_t rb_pointer_escape(const char *s, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        const char *escaped = s[i] == '~' ? "~0" : s[i] == '/' ? "~1" : NULL;
        if (escaped && out) memcpy(out + o, escaped, 2);
        else if (out) out[o] = s[i];
        o += escaped ? 2 : 1;
    }
    if (out) out[o] = 0;
    return o;
}

int rb_pointer_index(const char *token, size_t n, size_t *index)
{
    size_t v = 0;
    if (n == 0 || (n > 1 && token[0] == '0')) return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned char)token[i] - (unsigned)'0';
        if (d > 9) return -1;
        v = v > (SIZE_MAX - d) / 10 ? SIZE_MAX : v * 10 + d;
    }
    *index = v;
    return 0;
}
