/*
 * "offset" (docs/usage.md "One patch, every element"): the relative edit. A number gets a number
 * added, a list of numbers (a block's coordinates, an item's position) an array of as many, element
 * by element. The sum is computed in the field's own type: an integer in its width and signedness
 * (a sum that does not fit is refused, naming the path and the value), an f32 in single precision
 * (so the result is the f32 the game would compute, not a double rounded afterwards). The result
 * is spelled as the dump spells the field, so the "replace" it becomes reads back to those bits.
 */
#include "patch/offset.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/json/json.h"

/* An integer sum in `wire`'s width and signedness; 0 when it does not fit. */
static int add_int(uint64_t bits, unsigned wire, json_int_t by, uint64_t *sum)
{
    unsigned width = wire & RB_W_WIDTH;
    int is_signed = (wire & RB_W_SIGNED) != 0;
    if (width == 0 || width > 8) return 0;
    if (is_signed) {
        int64_t value = width == 8 ? (int64_t)bits : (int64_t)(bits << (64 - 8 * width)) >> (64 - 8 * width), result;
        if (__builtin_add_overflow(value, (int64_t)by, &result)) return 0;
        int64_t max = width == 8 ? INT64_MAX : ((int64_t)1 << (8 * width - 1)) - 1;
        if (result > max || result < -max - 1) return 0;
        *sum = width == 8 ? (uint64_t)result : (uint64_t)result & ((UINT64_C(1) << (8 * width)) - 1);
        return 1;
    }
    uint64_t max = width == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * width)) - 1, result;
    if (by < 0) {
        uint64_t down = by == INT64_MIN ? (uint64_t)INT64_MAX + 1 : (uint64_t)-by;
        if (down > bits) return 0;
        result = bits - down;
    } else if (__builtin_add_overflow(bits, (uint64_t)by, &result) || result > max) {
        return 0;
    }
    *sum = result;
    return 1;
}

static const char *type_name(const rb_node *node)
{
    static const char *const names[2][9] = {{"", "u8", "u16", "", "u32", "", "", "", "u64"},
                                            {"", "i8", "i16", "", "i32", "", "", "", "i64"}};
    unsigned width = node->wire & RB_W_WIDTH;
    if (node->kind == RB_K_FLOAT) return width == 4 ? "f32" : "f64";
    return width <= 8 ? names[(node->wire & RB_W_SIGNED) != 0][width] : "?";
}

/* A scalar node plus `by`. */
static json_t *offset_scalar(rb_doc *doc, const rb_node *node, const json_t *by, const char *path, char *why,
                             size_t why_size)
{
    rb_node sum = *node;
    if (node->kind == RB_K_INT && !RB_WIRE_IS_SYMBOL(node->wire)) {
        if (!json_is_integer(by)) {
            snprintf(why, why_size, "%s: an integer field (%s) takes a whole offset", path, type_name(node));
            return NULL;
        }
        if (!add_int(node->v.bits, node->wire, json_integer_value(by), &sum.v.bits)) {
            json_t *was = rb_model_to_json(doc, node, RB_BLOBS_REF);
            char *text = was ? rb_json_compact_text(was) : NULL;
            json_int_t add = json_integer_value(by);
            snprintf(why, why_size, "%s: %s %c %" PRIu64 " does not fit a %s", path, text ? text : "?", add < 0 ? '-' : '+',
                     add < 0 ? (uint64_t)0 - (uint64_t)add : (uint64_t)add, type_name(node));
            free(text);
            json_decref(was);
            return NULL;
        }
    } else if (node->kind == RB_K_FLOAT && json_is_number(by)) {
        double add = json_number_value(by), result;
        if ((node->wire & RB_W_WIDTH) == 4) {
            float value, single;
            uint32_t bits = (uint32_t)node->v.bits;
            memcpy(&value, &bits, 4);
            volatile float computed = value + (float)add; /* in single precision, as the field holds it */
            single = computed;
            result = single;
            memcpy(&bits, &single, 4);
            sum.v.bits = bits;
        } else {
            double value;
            memcpy(&value, &node->v.bits, 8);
            result = value + add;
            memcpy(&sum.v.bits, &result, 8);
        }
        if (!isfinite(result)) {
            snprintf(why, why_size, "%s: adding %g goes out of the range of a %s", path, add, type_name(node));
            return NULL;
        }
    } else {
        snprintf(why, why_size, "%s: \"offset\" adds to numbers and lists of numbers%s", path,
                 node->kind == RB_K_FLOAT ? " (its value must be a number)" : "");
        return NULL;
    }
    json_t *out = rb_model_to_json(doc, &sum, RB_BLOBS_REF);
    if (!out) snprintf(why, why_size, "out of memory");
    return out;
}

json_t *rb_offset_node(rb_doc *doc, const rb_node *node, const json_t *by, const char *path, char *why,
                       size_t why_size)
{
    if (node->kind != RB_K_LIST && node->kind != RB_K_TABLE) return offset_scalar(doc, node, by, path, why, why_size);
    size_t count = rb_element_count(node);
    if (!json_is_array(by) || json_array_size(by) != count) {
        snprintf(why, why_size, "%s: a list of %zu takes an offset of %zu numbers ([...])", path, count, count);
        return NULL;
    }
    json_t *out = json_array();
    rb_record_scratch scratch;
    for (size_t i = 0; out && i < count; i++) {
        const rb_node *element = node->kind == RB_K_TABLE ? rb_table_element(node, i, scratch.nodes, scratch.kids)
                                                          : node->v.kids.items[i];
        char at[1100];
        snprintf(at, sizeof at, "%s/%zu", path, i);
        json_t *sum = element ? offset_scalar(doc, element, json_array_get(by, i), at, why, why_size) : NULL;
        if (!sum || json_array_append_new(out, sum) != 0) {
            json_decref(out);
            return NULL;
        }
    }
    if (!out) snprintf(why, why_size, "out of memory");
    return out;
}

json_t *rb_offset_json(const json_t *value, const json_t *by, const char *path, char *why, size_t why_size)
{
    if (json_is_array(value)) {
        size_t count = json_array_size(value);
        if (!json_is_array(by) || json_array_size(by) != count) {
            snprintf(why, why_size, "%s: a list of %zu takes an offset of %zu numbers ([...])", path, count, count);
            return NULL;
        }
        json_t *out = json_array();
        for (size_t i = 0; out && i < count; i++) {
            char at[1100];
            snprintf(at, sizeof at, "%s/%zu", path, i);
            json_t *sum = rb_offset_json(json_array_get(value, i), json_array_get(by, i), at, why, why_size);
            if (!sum || json_array_append_new(out, sum) != 0) {
                json_decref(out);
                return NULL;
            }
        }
        return out;
    }
    if (!json_is_number(value) || !json_is_number(by)) {
        snprintf(why, why_size, "%s: \"offset\" adds a number to a number or a list of numbers", path);
        return NULL;
    }
    if (json_is_integer(value) && json_is_integer(by)) {
        json_int_t sum;
        if (__builtin_add_overflow(json_integer_value(value), json_integer_value(by), &sum)) {
            snprintf(why, why_size, "%s: %" JSON_INTEGER_FORMAT " + %" JSON_INTEGER_FORMAT " does not fit 64 bits",
                     path, json_integer_value(value), json_integer_value(by));
            return NULL;
        }
        return json_integer(sum);
    }
    double sum = json_number_value(value) + json_number_value(by);
    if (!isfinite(sum)) {
        snprintf(why, why_size, "%s: the sum is out of the range of a number", path);
        return NULL;
    }
    return json_real(sum);
}
