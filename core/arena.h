/* Arena allocation: a document's model lives in one arena, freed at once. */
#ifndef RB_ARENA_H
#define RB_ARENA_H
#include <stddef.h>

typedef struct rb_arena_block rb_arena_block;
typedef struct rb_arena {
    rb_arena_block *head;
    size_t used_total;
} rb_arena;

void rb_arena_init(rb_arena *arena);
void rb_arena_free(rb_arena *arena);
/* Zeroed, 16-byte aligned memory; NULL only when the system is out of memory. */
void *rb_arena_alloc(rb_arena *arena, size_t size);
void *rb_arena_dup(rb_arena *arena, const void *src, size_t size);
char *rb_arena_strdup(rb_arena *arena, const char *s);
#endif
