/*
 * Layout helpers shared by the typed data.win chunks (docs/formats/datawin.md "Lists", "Padding",
 * "Pointers"): pointer lists whose pointers are computed from where the elements land, zero
 * fills, and links to TPAG items.
 *
 * Typed chunks are read speculatively (datawin.c): whatever a description would not write back
 * exactly (a pointer that is not where the element is, a non-zero fill) must make READ fail, and
 * the chunk is then kept opaque. These helpers fail that way.
 */
#include <stdlib.h>
#include <string.h>
#include "core/datawin/datawin_internal.h"

int datawin_count_fits(rb_ar *ar, uint64_t count, uint64_t min_bytes_each, const char *what)
{
    if (rb_ar_direction(ar) != RB_AR_READ || !rb_ar_ok(ar)) return rb_ar_ok(ar);
    if (min_bytes_each == 0) min_bytes_each = 1;
    if (count <= rb_ar_limits(ar)->max_count && count <= rb_ar_remaining(ar) / min_bytes_each) return 1;
    rb_ar_fail(ar, RB_E_FORMAT, "%llu %s cannot fit in the %llu bytes left", (unsigned long long)count, what,
               (unsigned long long)rb_ar_remaining(ar));
    return 0;
}

void datawin_align(rb_ar *ar, const datawin_state *st, unsigned alignment)
{
    static const uint8_t zeros[128];
    if (alignment <= 1 || alignment > sizeof zeros) return;
    uint64_t here = datawin_abs(ar, st);
    uint64_t n = (alignment - here % alignment) % alignment;
    if (n && rb_ar_direction(ar) != RB_AR_FROM_JSON) rb_ar_expect(ar, "zero fill", zeros, (size_t)n);
}

/* READ: a pointer must name the place where the structure it points at is read. */
static void pointer_lands_here(rb_ar *ar, const datawin_state *st, const char *key, uint64_t index, uint64_t pointer)
{
    uint64_t here = datawin_abs(ar, st);
    if (rb_ar_ok(ar) && pointer != here)
        rb_ar_fail(ar, RB_E_FORMAT, "%s[%llu]: pointer 0x%llx, but the element is laid out at 0x%llx", key,
                   (unsigned long long)index, (unsigned long long)pointer, (unsigned long long)here);
}

void datawin_pointer_list(rb_ar *ar, datawin_state *st, const char *key, unsigned element_alignment, datawin_element_fn element,
                     void *ctx)
{
    rb_ar_dir dir = rb_ar_direction(ar);
    rb_slot count_slot = rb_ar_slot(ar, "count", RB_U32);
    uint64_t count = rb_ar_count_of(ar, key, count_slot.value);
    rb_ar_slot_set(ar, &count_slot, count);
    if (!datawin_count_fits(ar, count, 4, key)) return;
    rb_slot *table = calloc(count ? (size_t)count : 1, sizeof *table);
    if (!table) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu pointers", (unsigned long long)count); return; }
    RB_AR_EACH(ar, i, count) table[i] = rb_ar_slot(ar, "pointer", RB_U32);
    count = rb_ar_list_begin_n(ar, key, count, 0);
    RB_AR_RECORDS(ar, i, count) {
        /* GM 2024.11+ "remove unused assets" leaves null pointers: nothing is laid out for them */
        if (rb_ar_has(ar, "removed", dir == RB_AR_READ && table[i].value == 0)) {
            rb_ar_bool_detached(ar, "removed", 1, 1);
        } else {
            datawin_align(ar, st, element_alignment);
            if (dir == RB_AR_READ) pointer_lands_here(ar, st, key, i, table[i].value);
            rb_ar_slot_set(ar, &table[i], datawin_abs(ar, st));
            element(ar, st, i, ctx);
        }
    }
    free(table);
}

/* ---------- links to TPAG items ---------- */

int64_t datawin_tpag_ref(rb_ar *ar, datawin_state *st, const char *key)
{
    rb_ar_dir dir = rb_ar_direction(ar);
    if (dir == RB_AR_READ) {
        rb_slot raw = rb_ar_slot(ar, key, RB_U32);
        int64_t index = -1;
        if (raw.value) {
            uint64_t offset = raw.value - st->tpag_first;
            if (!st->tpag_known || raw.value < st->tpag_first || offset % 22 || offset / 22 >= st->tpag_count) {
                if (rb_ar_ok(ar))
                    rb_ar_fail(ar, RB_E_FORMAT, "%s: pointer 0x%llx is not a TPAG item", key,
                               (unsigned long long)raw.value);
                return -1;
            }
            index = (int64_t)(offset / 22);
        }
        return (int32_t)rb_ar_uint_detached(ar, key, RB_I32, (uint32_t)(int32_t)index);
    }
    int64_t index = (int32_t)rb_ar_uint_detached(ar, key, RB_I32, 0);
    rb_slot slot = rb_ar_slot(ar, key, RB_U32);
    if (dir == RB_AR_WRITE && index >= 0) datawin_add_link(ar, st, slot.position, DATAWIN_LINK_TPAG, (uint64_t)index);
    return index;
}

/* ---------- shared by the typed chunks ---------- */

void datawin_content_ends_after(rb_ar *ar, const char *what)
{
    if (rb_ar_direction(ar) != RB_AR_READ || !rb_ar_ok(ar)) return;
    uint64_t left = rb_ar_remaining(ar);
    if (left == 0) return;
    const uint8_t *rest = left < 16 ? rb_ar_peek_bytes(ar, left) : NULL; /* chunk padding is < 16 bytes */
    int zero = rest != NULL;
    for (uint64_t i = 0; rest && i < left; i++) zero &= rest[i] == 0;
    if (!zero) rb_ar_fail(ar, RB_E_FORMAT, "%llu bytes left after the %s", (unsigned long long)left, what);
}

void datawin_content_ends_here(rb_ar *ar)
{
    datawin_content_ends_after(ar, "content");
}

int datawin_variant_fits(rb_ar *ar, const rb_ar_mark *mark, const char *what)
{
    datawin_content_ends_after(ar, what);
    if (rb_ar_ok(ar) || mark->failed) return 1;
    rb_ar_rewind(ar, mark, NULL, 0);
    return 0;
}

void datawin_id_list(rb_ar *ar, const char *key, unsigned wire)
{
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, key, RB_U32, 4)) rb_ar_uint(ar, NULL, wire);
}

void datawin_data_lands_here(rb_ar *ar, const datawin_state *st, rb_slot *slot, const char *what)
{
    uint64_t here = datawin_abs(ar, st);
    if (rb_ar_direction(ar) == RB_AR_READ && rb_ar_ok(ar) && slot->value != here) {
        rb_ar_fail(ar, RB_E_FORMAT, "%s: pointer 0x%llx, but the data is laid out at 0x%llx", what,
                   (unsigned long long)slot->value, (unsigned long long)here);
        return;
    }
    rb_ar_slot_set(ar, slot, here);
}

unsigned datawin_layout_field(rb_ar *ar, const char *key, unsigned read_value, const unsigned *allowed, size_t n)
{
    unsigned value = (unsigned)rb_ar_uint_detached(ar, key, RB_U32, read_value);
    for (size_t i = 0; i < n; i++)
        if (value == allowed[i]) return value;
    if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_MODEL, "%s: %u is not a known layout", key, value);
    return allowed[0];
}

void datawin_try_variants(rb_ar *ar, datawin_state *st, datawin_variant_fn fn, const unsigned *tries, size_t n)
{
    if (rb_ar_direction(ar) != RB_AR_READ) {
        fn(ar, st, tries[0]);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        rb_ar_mark mark = rb_ar_mark_here(ar);
        fn(ar, st, tries[i]);
        if (datawin_variant_fits(ar, &mark, "content")) return;
    }
    fn(ar, st, tries[0]);
    datawin_content_ends_here(ar);
}

void datawin_string_list(rb_ar *ar, datawin_state *st, const char *key)
{
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, key, RB_U32, 4)) datawin_strref(ar, st, "name");
}
