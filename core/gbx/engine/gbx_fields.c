/*
 * Runs of simple fields (gbx_internal.h "field runs"): many chunks are a fixed sequence of
 * scalars, strings and ids, written as a field list, one letter per wire type, so each reads like
 * the chunkl it comes from (docs/formats/adding.md).
 */
#include "core/gbx/engine/gbx_internal.h"

void gbx_int_tuple(rb_ar *ar, const char *key, int width)
{
    uint64_t n = rb_ar_list_begin_n(ar, key, (uint64_t)width, 4);
    if (rb_ar_ok(ar) && n != (uint64_t)width) {
        rb_ar_fail(ar, RB_E_MODEL, "needs exactly %d integers, has %llu", width, (unsigned long long)n);
        return;
    }
    RB_AR_LIST(ar, i, n) rb_ar_i32(ar, NULL);
}

static void field(rb_ar *ar, const gbx_field *f)
{
    switch (f->type) {
    case 'b': gbx_bool(ar, f->key); break;
    case 'B': rb_ar_bool(ar, f->key, 1); break;
    case 'i': rb_ar_i32(ar, f->key); break;
    case 'u': rb_ar_u32(ar, f->key); break;
    case 'X': rb_ar_x32(ar, f->key); break;
    case 'h': rb_ar_u16(ar, f->key); break;
    case 'y': rb_ar_u8(ar, f->key); break;
    case 'f': rb_ar_f32(ar, f->key); break;
    case 'q': rb_ar_sint(ar, f->key, RB_I64); break;
    case 'Q': rb_ar_u64(ar, f->key); break;
    case 's': gbx_string(ar, f->key); break;
    case 'I': gbx_id(ar, f->key); break;
    case 'M': gbx_meta(ar, f->key); break;
    case 'p': gbx_fileref(ar, f->key); break;
    case 'n': gbx_noderef(ar, f->key); break;
    case '2': gbx_int_tuple(ar, f->key, 2); break;
    case '3': gbx_int3(ar, f->key); break;
    case 'v': gbx_vec3(ar, f->key); break;
    case 'x': rb_ar_bytes(ar, f->key, RB_K_BLOB, 16); break;
    case 'L': gbx_i32_list(ar, f->key); break;
    case 'S': gbx_string_list(ar, f->key); break;
    case 'P': gbx_fileref_list(ar, f->key); break;
    case 'N': gbx_noderef_list(ar, f->key); break;
    default: rb_ar_fail(ar, RB_E_UNSUPPORTED, "internal: unknown field type '%c'", f->type); break;
    }
}

void gbx_fields(rb_ar *ar, const gbx_field *fields, size_t count)
{
    RB_AR_EACH(ar, i, count) field(ar, &fields[i]);
}

uint64_t gbx_fields_list(rb_ar *ar, const char *key, uint64_t min_element_bytes, const gbx_field *fields, size_t count)
{
    uint64_t n = rb_ar_list_begin(ar, key, RB_U32, min_element_bytes);
    RB_AR_RECORDS(ar, i, n) gbx_fields(ar, fields, count);
    return n;
}
