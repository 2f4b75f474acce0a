#include "arena.h"
#include <stdlib.h>
#include <string.h>

struct rb_arena_block {
    rb_arena_block *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
};

enum { ARENA_BLOCK_MIN = 64 * 1024 };

void rb_arena_init(rb_arena *arena) { arena->head = NULL; arena->used_total = 0; }

void rb_arena_free(rb_arena *arena)
{
    rb_arena_block *b = arena->head;
    while (b) {
        rb_arena_block *next = b->next;
        free(b);
        b = next;
    }
    arena->head = NULL;
    arena->used_total = 0;
}

void *rb_arena_alloc(rb_arena *arena, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size == 0) size = 16;
    rb_arena_block *b = arena->head;
    if (!b || b->size - b->used < size) {
        size_t cap = size > ARENA_BLOCK_MIN ? size : ARENA_BLOCK_MIN;
        b = malloc(sizeof(*b) + cap);
        if (!b) return NULL;
        b->size = cap;
        b->used = 0;
        b->next = arena->head;
        arena->head = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    arena->used_total += size;
    memset(p, 0, size);
    return p;
}

void *rb_arena_dup(rb_arena *arena, const void *src, size_t size)
{
    void *p = rb_arena_alloc(arena, size);
    if (p && size) memcpy(p, src, size);
    return p;
}

char *rb_arena_strdup(rb_arena *arena, const char *s)
{
    return rb_arena_dup(arena, s, strlen(s) + 1);
}
