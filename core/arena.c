#include "arena.h"
#include <stdlib.h>
#include <string.h>

/* A request above LARGE gets a block of its own, so the block serving small requests is not
 * abandoned half-used for it. */
enum { ARENA_BLOCK_MIN = 64 * 1024, ARENA_LARGE = ARENA_BLOCK_MIN / 4 };

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

/* Blocks come from malloc, not calloc: calloc cleared every 64 KiB block whenever the C library
 * reused memory (a `verify` batch, the `reused` heap), although most of an arena is nodes and
 * copies that are written in full right away (rb_arena_alloc_uninit); rb_arena_alloc clears what
 * it hands out instead. */
static rb_arena_block *new_block(size_t cap)
{
    rb_arena_block *b = malloc(sizeof(*b) + cap);
    if (!b) return NULL;
    b->next = NULL;
    b->size = cap;
    b->used = 0;
    return b;
}

void *rb_arena_alloc_slow(rb_arena *arena, size_t size)
{
    if (size > ((size_t)-1 >> 1)) return NULL; /* no rounding or block header can overflow */
    size = (size + 7) & ~(size_t)7; /* 8: enough for every type the model stores */
    if (size == 0) size = 8;
    rb_arena_block *b = arena->head;
    if (size > ARENA_LARGE && (!b || b->size - b->used < size)) {
        rb_arena_block *own = new_block(size);
        if (!own) return NULL;
        /* behind the head: the head keeps serving small requests */
        if (b) {
            own->next = b->next;
            b->next = own;
        } else {
            arena->head = own;
        }
        b = own;
    } else if (!b || b->size - b->used < size) {
        b = new_block(ARENA_BLOCK_MIN);
        if (!b) return NULL;
        b->next = arena->head;
        arena->head = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    arena->used_total += size;
    return p;
}

void *rb_arena_alloc(rb_arena *arena, size_t size)
{
    void *p = rb_arena_alloc_uninit(arena, size);
    if (p) memset(p, 0, size);
    return p;
}

void *rb_arena_dup(rb_arena *arena, const void *src, size_t size)
{
    void *p = rb_arena_alloc_uninit(arena, size);
    if (p && size) memcpy(p, src, size);
    return p;
}

char *rb_arena_strdup(rb_arena *arena, const char *s)
{
    return rb_arena_dup(arena, s, strlen(s) + 1);
}
