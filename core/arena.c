#include "arena.h"
#include <stdlib.h>
#include <string.h>

struct rb_arena_block {
    rb_arena_block *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
};

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

/* Blocks come zeroed from calloc (fresh pages are zero without a memset) and memory is never
 * handed out twice, so allocations need no clearing of their own. */
static rb_arena_block *new_block(size_t cap)
{
    rb_arena_block *b = calloc(1, sizeof(*b) + cap);
    if (!b) return NULL;
    b->size = cap;
    return b;
}

void *rb_arena_alloc(rb_arena *arena, size_t size)
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
