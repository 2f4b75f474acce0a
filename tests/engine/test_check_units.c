/*
 * A read that checks its units (rb_read_options.check_units, what `rebyte verify` reads with):
 * a deferred unit stands for its bytes only when its nodes write them, so a file whose re-write
 * would differ inside a unit is still reported, at the offset where it differs. The test format
 * below has one unit whose description reads a byte its write leaves out, as a reader/writer
 * asymmetry would; the same format without the lost byte is kept as its bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "core/doc/doc.h"
#include "core/model/doc_state.h"

static int loses_a_byte; /* the unit's READ takes a byte its WRITE does not give back */

static void describe_unit(rb_ar *ar)
{
    rb_ar_record_begin(ar, "unit");
    rb_ar_u32(ar, "a");
    if (loses_a_byte && rb_ar_direction(ar) == RB_AR_READ) rb_ar_take(ar, "a byte the write leaves out", 1);
    rb_ar_u32(ar, "b");
    rb_ar_record_end(ar);
}

static void describe_file(rb_ar *ar)
{
    rb_ar_expect(ar, "magic", "UNT1", 4);
    if (rb_ar_next_deferred(ar)) {
        rb_ar_copy_deferred(ar); /* WRITE: kept as its bytes */
    } else {
        rb_ar_unit unit = rb_ar_unit_begin(ar);
        describe_unit(ar);
        if (unit.open && (!rb_ar_checks_units(ar) || rb_ar_unit_writes_back(ar, &unit, describe_unit, NULL)))
            rb_ar_unit_defer(ar, &unit, NULL, 0, 0, 0);
    }
    rb_ar_u32(ar, "tail");
}

static int detect(const uint8_t *d, size_t n) { return n >= 4 && memcmp(d, "UNT1", 4) == 0 ? 100 : 0; }
static const rb_format unit_format = {"unit-test", "a format with one deferred unit", detect, describe_file};

/* magic, a, [the lost byte], b, tail */
static size_t make_input(uint8_t *out)
{
    static const uint8_t A[] = {1, 0, 0, 0}, B[] = {0x44, 0x33, 0x22, 0x11}, TAIL[] = {9, 9, 9, 9};
    size_t n = 0;
    memcpy(out + n, "UNT1", 4), n += 4;
    memcpy(out + n, A, 4), n += 4;
    if (loses_a_byte) out[n++] = 0xEE;
    memcpy(out + n, B, 4), n += 4;
    memcpy(out + n, TAIL, 4), n += 4;
    return n;
}

typedef struct outcome {
    int parsed, identical;
    size_t units;
    uint64_t first_difference;
    char path[256];
} outcome;

/* What `rebyte verify` sees: the read (deferred, checked or not), the write compared with the
 * input, the first difference and its structure path. */
static outcome verify_like(const uint8_t *in, size_t size, int check)
{
    outcome o = {0};
    rb_read_options opt = {.size = sizeof opt, .file_name = "unit.bin", .defer = 1, .check_units = check};
    rb_error err;
    rb_doc *doc = rb_doc_parse_as(&unit_format, in, size, &opt, &err);
    if (!doc) return o;
    o.parsed = 1;
    o.units = doc->deferred_units;
    uint8_t *out = NULL;
    size_t out_size = 0;
    if (rb_doc_write_against(doc, NULL, in, size, &o.identical, &out, &out_size, &err) == RB_OK && !o.identical) {
        size_t n = out_size < size ? out_size : size;
        while (o.first_difference < n && out[o.first_difference] == in[o.first_difference]) o.first_difference++;
        rb_doc_path_at(doc, o.first_difference, o.path, sizeof o.path);
    }
    rb_free(out);
    rb_doc_free(doc);
    return o;
}

int main(void)
{
    uint8_t in[32];
    loses_a_byte = 0;
    size_t size = make_input(in);
    outcome plain = verify_like(in, size, 1);
    CHECK(plain.parsed && plain.identical && plain.units == 1, "a unit whose nodes write its bytes is kept as them");

    loses_a_byte = 1;
    size = make_input(in);
    outcome unchecked = verify_like(in, size, 0);
    /* why the check exists: a copied unit hides what its nodes would write */
    CHECK(unchecked.parsed && unchecked.identical && unchecked.units == 1, "unchecked: the unit's bytes copied");
    outcome checked = verify_like(in, size, 1);
    CHECK(checked.parsed && checked.units == 0, "checked: the unit that writes otherwise stays nodes");
    CHECK(!checked.identical && checked.first_difference == 8,
          "checked: the write differs where the byte was lost (offset %llu)",
          (unsigned long long)checked.first_difference);
    CHECK(strstr(checked.path, "unit") != NULL, "the difference's path names the unit: \"%s\"", checked.path);

    if (test_failures) {
        fprintf(stderr, "test_check_units: %d failure(s)\n", test_failures);
        return 1;
    }
    printf("test_check_units: all passed (difference at %llu, %s)\n", (unsigned long long)checked.first_difference,
           checked.path);
    return 0;
}
