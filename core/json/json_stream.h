/*
 * Reading a large JSON text piecewise (`rebyte build`): the outer structure is scanned here, every
 * value is decoded by jansson, and the elements of a large array are decoded only when the
 * description reaches them, a window at a time, and freed when it moves on. Memory is bounded by
 * the model and the largest element, not by the text. docs/performance.md "Streaming dump and build".
 */
#ifndef RB_JSON_STREAM_H
#define RB_JSON_STREAM_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rb_json_loader rb_json_loader;

/* A loader over a file (read through `fd`, which stays the caller's) or over text in memory.
 * `name` names the text in messages and resolves relative {"$file": ...} beside it. NULL when out
 * of memory. */
rb_json_loader *rb_json_loader_fd(int fd, uint64_t size, const char *name);
rb_json_loader *rb_json_loader_memory(const char *text, size_t size, const char *name);
void rb_json_loader_free(rb_json_loader *loader);
/* Values of up to `load_at_once` bytes of text are decoded whole, and array elements about
 * `window` bytes at a time (64 KiB each by default; tests and the fuzzer make them small so small
 * texts take every path). */
void rb_json_loader_set_sizes(rb_json_loader *loader, uint64_t load_at_once, uint64_t window);

/* The whole text as a value whose large arrays are filled on demand (the reference is the
 * caller's; free it before the loader). NULL with the reason ("not JSON: ...") in `why`. One root
 * at a time: a second call forgets the first root's arrays (the first must not be used after). */
json_t *rb_json_loader_root(rb_json_loader *loader, char *why, size_t why_size);

/* Element `index` of `array` (a value of this loader's tree): decoded now if the array is filled
 * on demand, the elements before it freed. NULL with `why` set when the text there is not JSON;
 * NULL with why[0] == 0 when there is no such element. */
json_t *rb_json_loader_element(rb_json_loader *loader, json_t *array, size_t index, char *why, size_t why_size);
/* Every element of `value` (an array filled on demand) decoded, for callers that index it
 * themselves. 0 with `why` set on failure. */
int rb_json_loader_fill(rb_json_loader *loader, json_t *value, char *why, size_t why_size);

/* The value of the top-level member `key` of the text (e.g. a dump's "$source"), decoded alone;
 * NULL when there is none or the text is not JSON. */
json_t *rb_json_loader_member(rb_json_loader *loader, const char *key);
#endif
