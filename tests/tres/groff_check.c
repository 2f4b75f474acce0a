/*
 * An independent GROFF checker for the tests (it does not use the library): the rules the
 * game and the original exporter follow (docs/formats/tres.md "GROFF layout"), checked on
 * a written file.
 *   groff_check FILE              header totals, contiguity, the name table sorted by strcmp,
 *                                 handles unique, every reference count equal to a recount
 *   groff_check --same-payloads A B   directories and all section payloads are identical
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct file { uint8_t *data; size_t size; } file;
typedef struct name { uint32_t handle, length, count, recount; const char *text; } name;

static uint32_t u32(const file *f, size_t at) { return at + 4 <= f->size ? f->data[at] | f->data[at + 1] << 8 | f->data[at + 2] << 16 | (uint32_t)f->data[at + 3] << 24 : 0; }

static int load(const char *path, file *f)
{
    FILE *h = fopen(path, "rb");
    if (!h) { fprintf(stderr, "cannot open %s\n", path); return 0; }
    fseek(h, 0, SEEK_END);
    f->size = (size_t)ftell(h);
    fseek(h, 0, SEEK_SET);
    f->data = malloc(f->size + 1);
    int ok = fread(f->data, 1, f->size, h) == f->size;
    fclose(h);
    return ok;
}

static int fail(const char *what) { fprintf(stderr, "FAIL: %s\n", what); return 1; }

static name *find(name *names, uint32_t n, uint32_t handle)
{
    for (uint32_t i = 0; i < n; i++) if (names[i].handle == handle) return &names[i];
    return NULL;
}

static void use(name *names, uint32_t n, uint32_t handle)
{
    name *s = find(names, n, handle);
    if (s) s->recount++;
}

/* Counts the references the exporter counted: section names, region instance names, object
 * names that differ from their section's, material maps. */
static void recount(const file *f, uint32_t sections, name *names, uint32_t n)
{
    size_t at = 48 + 32 * (size_t)sections;
    for (uint32_t i = 0; i < sections; i++) {
        size_t dir = 48 + 32 * (size_t)i;
        uint32_t section_name = u32(f, dir), size = u32(f, dir + 12), type = u32(f, dir + 24);
        use(names, n, section_name);
        if (type == 2) {
            uint32_t k = u32(f, at), entry = size == 8 + 44 * k ? 44 : 36;
            for (uint32_t j = 0; j < k; j++) use(names, n, u32(f, at + 4 + entry * j + 4));
        } else if (type == 4 && size == 28 && u32(f, at) != section_name) {
            use(names, n, u32(f, at));
        } else if (type == 0x20) {
            uint32_t k = u32(f, at);
            for (uint32_t j = 0; j < 3 * k; j++) use(names, n, u32(f, at + 4 + 4 * j));
        }
        at += size;
    }
}

static int check(const file *f)
{
    if (f->size < 48 || u32(f, 0) != 0x0ACEBABEu) return fail("not a GROFF file");
    uint32_t sections = u32(f, 8), count = u32(f, 12);
    size_t at = 48 + 32 * (size_t)sections;
    for (uint32_t i = 0; i < sections; i++) {
        if (u32(f, 48 + 32 * i + 8) != at) return fail("section offsets are not contiguous");
        if (u32(f, 48 + 32 * i + 28) != 0x80000000u + i) return fail("section handle is not 0x80000000 + index");
        at += u32(f, 48 + 32 * i + 12);
    }
    if (u32(f, 20) != at) return fail("name table offset is not the end of the sections");
    name *names = calloc(count + 1, sizeof *names);
    size_t table = at;
    for (uint32_t i = 0; i < count; i++) {
        if (at + 12 > f->size) return fail("name table runs past the end");
        names[i] = (name){u32(f, at), u32(f, at + 4), u32(f, at + 8), 0, (const char *)f->data + at + 12};
        if (names[i].length == 0 || at + 12 + names[i].length > f->size || names[i].text[names[i].length - 1])
            return fail("name is not NUL-terminated inside the file");
        if (i && strcmp(names[i - 1].text, names[i].text) >= 0) return fail("names are not in strcmp order");
        if (names[i].handle == 0) return fail("a handle is zero");
        for (uint32_t j = 0; j < i; j++) if (names[j].handle == names[i].handle) return fail("handles are not unique");
        at += 12 + names[i].length;
    }
    if (at != f->size) return fail("bytes after the name table");
    if (u32(f, 16) != at - table || u32(f, 4) != f->size) return fail("header sizes are wrong");
    recount(f, sections, names, count);
    for (uint32_t i = 0; i < count; i++) {
        if (names[i].count != names[i].recount) {
            fprintf(stderr, "FAIL: %s: stored reference count %u, recount %u\n", names[i].text, names[i].count,
                    names[i].recount);
            return 1;
        }
    }
    printf("ok: %u sections, %u names sorted, reference counts agree\n", sections, count);
    free(names);
    return 0;
}

static int same_payloads(const file *a, const file *b)
{
    uint32_t sections = u32(a, 8);
    if (u32(b, 8) != sections) return fail("section counts differ");
    size_t end = 48 + 32 * (size_t)sections;
    for (uint32_t i = 0; i < sections; i++) end += u32(a, 48 + 32 * i + 12);
    if (end > a->size || end > b->size || memcmp(a->data + 48, b->data + 48, end - 48) != 0)
        return fail("directory or section payloads differ");
    printf("ok: directory and %u section payloads identical\n", sections);
    return 0;
}

int main(int argc, char **argv)
{
    file a = {0}, b = {0};
    int rc = 2;
    if (argc == 2) rc = load(argv[1], &a) ? check(&a) : 2;
    else if (argc == 4 && strcmp(argv[1], "--same-payloads") == 0)
        rc = load(argv[2], &a) && load(argv[3], &b) ? same_payloads(&a, &b) : 2;
    else fprintf(stderr, "usage: groff_check FILE | groff_check --same-payloads A B\n");
    /* freed so that the sanitizer build's leak check passes */
    free(a.data);
    free(b.data);
    return rc;
}
