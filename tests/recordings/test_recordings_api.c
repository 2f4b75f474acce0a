/*
 * No forged record through the C API (docs/usage.md "Race recordings"): for every ghost and replay
 * of a folder, an unchanged document writes its own bytes; a string of the record changed with
 * rb_node_set_bytes, or a float with rb_node_set_float, is refused at rb_doc_write and
 * rb_doc_write_against (RB_E_UNSUPPORTED, nothing handed out); set back, it writes again.
 * Usage: test_records_api FOLDER (exit 77 when the folder is absent).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/doc.h"
#include "core/doc/recording_guard.h"
#include "rebyte.h"

static int failures;
#define FAIL(...) (fprintf(stderr, "FAIL " __VA_ARGS__), fputc('\n', stderr), failures++)

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(n > 0 ? (size_t)n : 1);
    *size = data && fread(data, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
    fclose(f);
    return data;
}

/* The first race recording (the format's is_recording) at or below `n`, depth first. */
static rb_node *first_recording(const rb_doc *doc, rb_node *n)
{
    if (doc->format->is_recording(n)) return n;
    for (size_t i = 0; i < rb_node_child_count(n); i++) {
        rb_node *found = first_recording(doc, rb_node_child_edit(n, i));
        if (found) return found;
    }
    return NULL;
}

/* The first (or last) node of `kind` below `n`, depth first; strings only when not empty. */
static rb_node *find_kind(rb_node *n, rb_node_kind kind, int last)
{
    if (rb_node_kind_of(n) == kind) {
        const uint8_t *bytes;
        size_t size;
        if (kind != RB_NODE_STRING || (rb_node_get_bytes(n, &bytes, &size) == RB_OK && size > 0)) return n;
    }
    rb_node *found = NULL;
    for (size_t i = 0; i < rb_node_child_count(n) && (last || !found); i++) {
        rb_node *here = find_kind(rb_node_child_edit(n, i), kind, last);
        if (here) found = here;
    }
    return found;
}

/* Writes `doc` both ways: RB_OK and the original's bytes, or the refusal with nothing handed out. */
static int writes(rb_doc *doc, const char *name, const uint8_t *data, size_t size, int expect_ok)
{
    uint8_t *out = NULL;
    size_t out_size = 0;
    rb_error err;
    rb_status st = rb_doc_write(doc, NULL, &out, &out_size, &err);
    int ok = st == RB_OK;
    if (expect_ok && (!ok || out_size != size || memcmp(out, data, size) != 0))
        FAIL("%s: the unchanged record does not write its own bytes (%d: %s)", name, st, ok ? "" : err.message);
    if (!expect_ok && (ok || st != RB_E_UNSUPPORTED || out || !strstr(err.message, "race recording")))
        FAIL("%s: a changed record was written (status %d, output %p: %s)", name, st, (void *)out,
             ok ? "" : err.message);
    free(out);
    int identical = 0;
    out = NULL;
    st = rb_doc_write_against(doc, NULL, data, size, &identical, &out, &out_size, &err);
    if (!expect_ok && (st != RB_E_UNSUPPORTED || out)) FAIL("%s: rb_doc_write_against wrote a changed record", name);
    if (expect_ok && (st != RB_OK || !identical)) FAIL("%s: rb_doc_write_against of the unchanged record differs", name);
    free(out);
    return ok;
}

static int check_file(const char *path)
{
    size_t size = 0;
    uint8_t *data = read_all(path, &size);
    rb_read_options ro = {.file_name = path};
    rb_error err;
    rb_doc *doc = data ? rb_doc_parse(data, size, &ro, &err) : NULL;
    int record = doc && rb_doc_holds_recording(doc);
    if (record) {
        rb_node *root = first_recording(doc, rb_doc_root(doc)), *text = find_kind(root, RB_NODE_STRING, 0),
               *number = find_kind(root, RB_NODE_FLOAT, 1);
        writes(doc, path, data, size, 1);
        if (text) { /* the same length, one byte other: only the content changes */
            size_t was_size = 0;
            const uint8_t *was = NULL;
            rb_node_get_bytes(text, &was, &was_size);
            uint8_t *saved = malloc(was_size), *forged = malloc(was_size);
            memcpy(saved, was, was_size);
            memcpy(forged, was, was_size);
            forged[0] = forged[0] == 'X' ? 'Y' : 'X';
            rb_node_set_bytes(doc, text, forged, was_size);
            writes(doc, path, data, size, 0);
            rb_node_set_bytes(doc, text, saved, was_size);
            writes(doc, path, data, size, 1);
            free(saved);
            free(forged);
        }
        if (number) { /* a float is a value, never a version or a count the layout hangs on */
            double was = 0;
            rb_node_get_float(number, &was);
            if (rb_node_set_float(number, was + 1.0) == RB_OK) writes(doc, path, data, size, 0);
            rb_node_set_float(number, was);
            writes(doc, path, data, size, 1);
        }
        if (!text && !number) FAIL("%s: no value to change", path);
    }
    rb_doc_free(doc);
    free(data);
    return record;
}

int main(int argc, char **argv)
{
    DIR *dir = argc > 1 ? opendir(argv[1]) : NULL;
    if (!dir) {
        printf("skipped: no folder %s\n", argc > 1 ? argv[1] : "(none given)");
        return 77;
    }
    size_t records = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        records += check_file(path);
    }
    closedir(dir);
    printf("%zu race recordings: unchanged ones write their bytes, changed ones are refused (%d failures)\n", records,
           failures);
    if (!records) FAIL("no race recording in %s", argv[1]);
    return failures ? 1 : 0;
}
