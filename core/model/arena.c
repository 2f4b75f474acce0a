#include "core/model/arena.h"
#include <stdlib.h>
#include <string.h>

/* A request above LARGE gets a block of its own, so the block serving small requests is not
 * abandoned half-used for it. */
enum { ARENA_BLOCK_MIN = 64 * 1024, ARENA_LARGE = ARENA_BLOCK_MIN / 4 };

void rb_arena_init(rb_arena *arena)
{
    arena->head = NULL;
    arena->used_total = 0;
    arena->spare = NULL;
}

static void free_blocks(rb_arena_block *b)
{
    while (b) {
        rb_arena_block *next = b->next;
        free(b);
        b = next;
    }
}

void rb_arena_free(rb_arena *arena)
{
    free_blocks(arena->head);
    free_blocks(arena->spare);
    rb_arena_init(arena);
}

/* A block the arena is done with: kept for the next request when of the usual size. */
static void let_go(rb_arena *arena, rb_arena_block *b)
{
    if (b->size == ARENA_BLOCK_MIN) {
        b->used = 0;
        b->next = arena->spare;
        arena->spare = b;
    } else {
        free(b); /* a large request's own block: sizes vary, not worth keeping */
    }
}

void rb_arena_recycle(rb_arena *arena)
{
    rb_arena_block *b = arena->head;
    while (b) {
        rb_arena_block *next = b->next;
        let_go(arena, b);
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
        b = arena->spare ? arena->spare : new_block(ARENA_BLOCK_MIN);
        if (!b) return NULL;
        if (b == arena->spare) arena->spare = b->next;
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

rb_arena_mark rb_arena_mark_here(const rb_arena *arena)
{
    rb_arena_mark m = {arena->head, arena->head ? arena->head->next : NULL, arena->head ? arena->head->used : 0,
                       arena->used_total};
    return m;
}

/* Blocks made since the mark are either in front of the marked head (a new head) or right behind
 * the head of their time (a large request's own block, rb_arena_alloc_slow): both are let go of,
 * the usual-sized ones kept for reuse: a deferred read resets the arena after every unit, and the
 * next unit takes the same blocks, still in the cache, instead of malloc's (and their faults). */
void rb_arena_reset(rb_arena *arena, const rb_arena_mark *mark)
{
    rb_arena_block *b = arena->head;
    while (b != mark->head) {
        rb_arena_block *next = b->next;
        let_go(arena, b);
        b = next;
    }
    if (mark->head) {
        b = mark->head->next;
        while (b != mark->after_head) {
            rb_arena_block *next = b->next;
            let_go(arena, b);
            b = next;
        }
        mark->head->next = mark->after_head;
        mark->head->used = mark->head_used;
    }
    arena->head = mark->head;
    arena->used_total = mark->used_total;
}
