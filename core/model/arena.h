/* Arena allocation: a document's model lives in one arena, freed at once. */
#ifndef RB_ARENA_H
#define RB_ARENA_H
#include <stddef.h>

typedef struct rb_arena_block rb_arena_block;
/* The block's header is public so that rb_arena_alloc_uninit's common case inlines (a model is
 * built one 48-byte node at a time: docs/performance.md). */
struct rb_arena_block {
    rb_arena_block *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
};
typedef struct rb_arena {
    rb_arena_block *head;
    size_t used_total;
    rb_arena_block *spare; /* emptied blocks kept for reuse (rb_arena_recycle, rb_arena_reset), NULL otherwise */
} rb_arena;

void rb_arena_init(rb_arena *arena);
void rb_arena_free(rb_arena *arena);
/* Zeroed, 16-byte aligned memory; NULL only when the system is out of memory. */
void *rb_arena_alloc(rb_arena *arena, size_t size);
/* The same without clearing, for memory the caller writes in full at once (nodes, copies). */
void *rb_arena_alloc_slow(rb_arena *arena, size_t size);
static inline void *rb_arena_alloc_uninit(rb_arena *arena, size_t size)
{
    rb_arena_block *b = arena->head;
    /* the common case: a small request the head block has room for */
    if (b && size <= 4096 && size && b->size - b->used >= ((size + 7) & ~(size_t)7)) {
        size = (size + 7) & ~(size_t)7; /* 8: enough for every type the model stores */
        void *p = b->data + b->used;
        b->used += size;
        arena->used_total += size;
        return p;
    }
    return rb_arena_alloc_slow(arena, size);
}
/* A point to go back to: rb_arena_reset frees everything allocated since rb_arena_mark_here
 * (a deferred unit's nodes once it is checked: docs/performance.md "The deferred model"). The
 * memory of the block that was the head is handed out again, still warm. */
typedef struct rb_arena_mark {
    rb_arena_block *head, *after_head; /* the head and the block behind it, at the mark */
    size_t head_used, used_total;
} rb_arena_mark;
rb_arena_mark rb_arena_mark_here(const rb_arena *arena);
void rb_arena_reset(rb_arena *arena, const rb_arena_mark *mark);
/* Everything allocated is given up, but the arena keeps its blocks of the usual size for its next
 * requests: memory read into again and again (a dump reading one deferred unit after another,
 * core/json/json_model.c) is not handed back to the system and faulted in again each time. */
void rb_arena_recycle(rb_arena *arena);
void *rb_arena_dup(rb_arena *arena, const void *src, size_t size);
char *rb_arena_strdup(rb_arena *arena, const char *s);
#endif
