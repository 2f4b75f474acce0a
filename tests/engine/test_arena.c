/*
 * The arena's mark and reset (core/model/arena.h), which the deferred model uses to give a unit's nodes
 * back (docs/performance.md "The deferred model"): after a reset the arena is as it was at the
 * mark — the same head block, its memory handed out again from the same place, the same total —
 * whatever was allocated since (small requests that filled new blocks, large requests with blocks
 * of their own behind the head), and nothing allocated before the mark is touched. Leaks of the
 * freed blocks show under ASan (the sanitized build).
 */
#include <stdint.h>
#include <string.h>
#include "core/model/arena.h"
#include "tests/test_util.h"

/* Small and large requests: enough to need new blocks in front of the head and own blocks behind it. */
static void allocate_a_lot(rb_arena *arena, unsigned seed)
{
    for (unsigned i = 0; i < 5000; i++) {
        size_t size = (i * 7919u + seed) % 37 == 0 ? 20000 + (i % 5) * 4096 : 8 + (i * 31u + seed) % 200;
        unsigned char *p = rb_arena_alloc_uninit(arena, size);
        if (p) memset(p, 0xAB, size); /* the memory is really there */
    }
}

static void reset_law(int empty_before)
{
    rb_arena arena;
    rb_arena_init(&arena);
    uint64_t *kept = NULL;
    if (!empty_before) {
        allocate_a_lot(&arena, 1);
        kept = rb_arena_alloc(&arena, 64 * sizeof *kept);
        for (int i = 0; kept && i < 64; i++) kept[i] = 0x0123456789ABCDEFull + (uint64_t)i;
    }
    for (unsigned round = 0; round < 3; round++) {
        rb_arena_mark mark = rb_arena_mark_here(&arena);
        void *first = rb_arena_alloc_uninit(&arena, 48);
        allocate_a_lot(&arena, round + 2);
        CHECK(arena.used_total > mark.used_total, "allocations count");
        rb_arena_reset(&arena, &mark);
        CHECK(arena.head == mark.head, "round %u: the head at the mark is the head again", round);
        CHECK(arena.used_total == mark.used_total, "round %u: the total is the mark's", round);
        CHECK(!arena.head || arena.head->used == mark.head_used, "round %u: the head's use is the mark's", round);
        CHECK(!arena.head || arena.head->next == mark.after_head, "round %u: the chain behind the head is the mark's", round);
        void *again = rb_arena_alloc_uninit(&arena, 48);
        int head_had_room = mark.head && mark.head->size - mark.head_used >= 48;
        CHECK(!head_had_room || again == first, "round %u: the memory after the mark is handed out again", round);
    }
    for (int i = 0; kept && i < 64; i++) CHECK(kept[i] == 0x0123456789ABCDEFull + (uint64_t)i, "before the mark: untouched");
    rb_arena_free(&arena);
}

/* Recycling (a dump reading one deferred unit after another, core/json/json_model.c): the arena is
 * empty after it, and its next requests take the blocks it kept before asking for new ones, so the
 * same work after a recycle holds no more blocks than the first time. */
static size_t blocks_of(const rb_arena_block *b)
{
    size_t n = 0;
    for (; b; b = b->next) n++;
    return n;
}

static void recycle_law(void)
{
    rb_arena arena;
    rb_arena_init(&arena);
    allocate_a_lot(&arena, 7);
    size_t blocks = blocks_of(arena.head);
    for (unsigned round = 0; round < 3; round++) {
        rb_arena_recycle(&arena);
        CHECK(arena.head == NULL && arena.used_total == 0, "round %u: recycled arena is empty", round);
        CHECK(arena.spare != NULL, "round %u: blocks are kept", round);
        const rb_arena_block *spare = arena.spare;
        uint64_t *p = rb_arena_alloc(&arena, 64 * sizeof *p);
        CHECK(p && arena.head == spare, "round %u: the first request takes a kept block", round);
        for (int i = 0; p && i < 64; i++) CHECK(p[i] == 0, "round %u: rb_arena_alloc clears kept memory", round);
        allocate_a_lot(&arena, 7);
        CHECK(blocks_of(arena.head) + blocks_of(arena.spare) <= blocks,
              "round %u: the same work takes no more blocks (%zu + %zu spare, %zu the first time)", round,
              blocks_of(arena.head), blocks_of(arena.spare), blocks);
    }
    rb_arena_free(&arena);
    CHECK(arena.head == NULL && arena.spare == NULL, "freed: no block left");
}

int main(void)
{
    reset_law(0);
    reset_law(1);
    recycle_law();
    printf("arena mark, reset and recycle: %d failures\n", test_failures);
    return test_failures ? 1 : 0;
}
