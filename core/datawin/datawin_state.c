/*
 * The data.win reader's state as the chunk descriptions share it (datawin_internal.h): absolute
 * offsets, the chunk spans, string references and the links the writer resolves, zero fills.
 * Every file of the folder may use these; they use no other file of it (tests/structure/symbol_cycles.py),
 * so datawin.c, which calls the chunk descriptions, is the only file above them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/datawin/datawin_internal.h"

uint64_t datawin_abs(rb_ar *ar, const datawin_state *st)
{
    return rb_ar_direction(ar) == RB_AR_READ ? st->chunk_base + rb_ar_tell(ar) : rb_ar_tell(ar);
}

static int compare_addr(const void *a, const void *b)
{
    uint32_t x = ((const datawin_addr *)a)->address, y = ((const datawin_addr *)b)->address;
    return x < y ? -1 : x > y;
}

long datawin_string_at(const datawin_state *st, uint32_t address)
{
    datawin_addr key = {address, 0};
    const datawin_addr *hit = bsearch(&key, st->strings.items, st->strings.count, sizeof key, compare_addr);
    return hit ? (long)hit->index : -1;
}

void datawin_sort_addr_map(datawin_addr_map *map) { qsort(map->items, map->count, sizeof *map->items, compare_addr); }

void *datawin_grown(void *items, size_t *cap, size_t element_size, size_t first)
{
    size_t want = *cap ? *cap * 2 : first;
    void *grown = want <= SIZE_MAX / element_size ? realloc(items, want * element_size) : NULL;
    if (grown) *cap = want;
    return grown;
}

void datawin_add_link(rb_ar *ar, datawin_state *st, size_t position, datawin_link_kind kind, uint64_t index)
{
    if (st->fixup_count == st->fixup_cap) {
        datawin_fixup *grown = datawin_grown(st->fixups, &st->fixup_cap, sizeof *grown, 256);
        if (!grown) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory for links"); return; }
        st->fixups = grown;
    }
    st->fixups[st->fixup_count++] = (datawin_fixup){position, (uint32_t)kind, index};
}

const uint8_t *datawin_string_text(const datawin_state *st, long index, uint32_t *size)
{
    uint32_t record = datawin_le32(st->file + st->strg_data + 4 + 4 * (uint64_t)index);
    *size = datawin_le32(st->file + record);
    return st->file + record + 4;
}

void datawin_add_text_link(rb_ar *ar, datawin_state *st, size_t position, const rb_node *text, uint64_t occurrence,
                      const char *key)
{
    datawin_add_link(ar, st, position, DATAWIN_LINK_STRING_TEXT, occurrence);
    if (rb_ar_ok(ar)) {
        st->fixups[st->fixup_count - 1].text = text;
        st->fixups[st->fixup_count - 1].key = key;
    }
}

/* Inside a list an element cannot be absent: a null reference is the number 0 there. */
static int null_list_element(rb_ar *ar, const char *key)
{
    if (key || rb_ar_next_is_string(ar)) return 0;
    if (rb_ar_uint_detached(ar, NULL, RB_U32, 0) != 0 && rb_ar_ok(ar))
        rb_ar_fail(ar, RB_E_MODEL, "a string link is a text, or 0 for a null reference");
    return 1;
}

int datawin_strref(rb_ar *ar, datawin_state *st, const char *key)
{
    rb_ar_dir dir = rb_ar_direction(ar);
    if (dir == RB_AR_READ) {
        uint64_t at = datawin_abs(ar, st);
        rb_slot raw = rb_ar_slot(ar, key ? key : "string reference", RB_U32);
        if (!rb_ar_ok(ar)) return 0;
        if (!raw.value) {
            if (!key) rb_ar_uint_detached(ar, NULL, RB_U32, 0);
            return 0;
        }
        long index = datawin_string_at(st, (uint32_t)raw.value);
        if (index < 0) {
            rb_ar_fail(ar, RB_E_FORMAT, "string reference 0x%llx at 0x%llx does not point at a STRG string",
                       (unsigned long long)raw.value, (unsigned long long)at);
            return 0;
        }
        /* a field names its string by text alone: a later duplicate could not be told apart
         * (no corpus file has one; the chunk is then kept opaque, where references keep it) */
        if (st->string_occurrence[index]) {
            rb_ar_fail(ar, RB_E_FORMAT, "%s: string reference to a repeated text (string %ld)", key ? key : "list",
                       index);
            return 0;
        }
        uint32_t size;
        const uint8_t *text = datawin_string_text(st, index, &size);
        rb_ar_has(ar, key, 1);
        rb_ar_string_detached(ar, key, text, size);
        return 1;
    }
    int present = key ? rb_ar_has(ar, key, 0) : !null_list_element(ar, key);
    const rb_node *text = present && rb_ar_ok(ar) ? rb_ar_string_detached(ar, key, NULL, 0) : NULL;
    rb_slot slot = rb_ar_slot(ar, key ? key : "string reference", RB_U32);
    if (dir == RB_AR_WRITE && text) datawin_add_text_link(ar, st, slot.position, text, 0, key ? key : "string list");
    return present;
}

static uint64_t zero_fill(uint64_t position, unsigned alignment)
{
    return alignment > 1 ? (alignment - position % alignment) % alignment : 0;
}

static int all_zero(const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

void datawin_gap(rb_ar *ar, datawin_state *st, const char *key, unsigned alignment, uint64_t next)
{
    uint64_t here = datawin_abs(ar, st);
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    int deviates = 0;
    if (reading) {
        if (next < here || next - here > rb_ar_remaining(ar)) {
            rb_ar_fail(ar, RB_E_FORMAT, "next structure at 0x%llx is outside this chunk", (unsigned long long)next);
            return;
        }
        deviates = next - here != zero_fill(here, alignment) || !all_zero(st->file + here, next - here);
    }
    if (rb_ar_has(ar, key, deviates)) {
        rb_ar_bytes(ar, key, RB_K_OPAQUE, reading ? next - here : 0);
    } else if (rb_ar_direction(ar) == RB_AR_WRITE) {
        static const uint8_t zeros[128];
        uint64_t n = zero_fill(here, alignment);
        if (n) rb_ar_expect(ar, "zero fill", zeros, (size_t)n);
    } else if (reading && next > here) {
        static const uint8_t zeros[128];
        rb_ar_expect(ar, "zero fill", zeros, (size_t)(next - here));
    }
}

const datawin_chunk_span *datawin_find_chunk(const datawin_state *st, const char *id)
{
    for (size_t i = 0; i < st->chunk_count; i++)
        if (memcmp(st->chunks[i].id, id, 4) == 0) return &st->chunks[i];
    return NULL;
}

/* qsort order of uint32_t values. */
int datawin_compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}
