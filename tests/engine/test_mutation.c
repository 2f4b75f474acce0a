/*
 * Mutation suite: damaged real files must end in a clean error (with an offset and a message)
 * or in a successful parse whose model writes and re-reads. Never a crash, a hang or a leak
 * (run under the sanitizer build too).
 *
 * Usage: test_mutation CORPUS_FOLDER [CASES_PER_FILE [MAX_FILE_SIZE]]
 * For every file: truncations at evenly spaced offsets and at every structure boundary the
 * reader reports (the offsets of the model's nodes), and byte flips in the integer fields of
 * the model and the derived values (sizes, counts) that lie in the file itself (an even sample
 * of at most ~120 per file) plus random offsets.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_parallel.h"
#include "tests/test_util.h"
#include "core/doc/doc.h"

typedef struct stats {
    size_t cases, parsed, clean_errors, bad;
    size_t written_as_read; /* parsed cases written back as the damaged input itself */
} stats;

/* Per thread, seeded from each file's name (seed_random): a file's cases are the same whichever
 * thread takes it and whatever ran before, so a failing case can be reproduced on the file alone. */
static _Thread_local uint64_t rng_state;

static void seed_random(const char *name)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const char *c = name; *c; c++) h = (h ^ (uint8_t)*c) * 1099511628211ull;
    rng_state = (h ^ 0x9E3779B97F4A7C15ull) | 1; /* xorshift needs a nonzero state */
}

static uint64_t next_random(void)
{
    /* xorshift64*: deterministic, so a failing case can be reproduced */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

/* One damaged input: parse; if it parses, the model must write and the output re-read. An output
 * that is the damaged input itself (the damage kept as read, as a byte-exact writer does) is
 * bytes that have just been read with the same options: it is not read a second time. */
static void run_case(const char *name, const char *what, const uint8_t *data, size_t size, stats *st)
{
    st->cases++;
    if (getenv("REBYTE_MUTATION_TRACE")) fprintf(stderr, "case %s: %s\n", name, what);
    rb_error err;
    memset(&err, 0, sizeof err);
    rb_read_options opt = {.file_name = name};
    rb_doc *doc = rb_doc_parse(data, size, &opt, &err);
    if (!doc) {
        if (err.message[0] && (err.has_offset || err.status == RB_E_UNSUPPORTED)) {
            st->clean_errors++;
        } else {
            st->bad++;
            fprintf(stderr, "BAD %s (%s): error without offset or message: \"%s\"\n", name, what, err.message);
        }
        return;
    }
    st->parsed++;
    uint8_t *out = NULL;
    size_t out_size = 0;
    int identical = 0;
    if (rb_doc_write_against(doc, NULL, data, size, &identical, &out, &out_size, &err) != RB_OK) {
        st->bad++;
        fprintf(stderr, "BAD %s (%s): parsed but does not write: %s\n", name, what, err.message);
    } else if (identical) {
        st->written_as_read++;
    } else {
        rb_doc *again = rb_doc_parse(out, out_size, &opt, &err);
        if (!again) {
            st->bad++;
            fprintf(stderr, "BAD %s (%s): written output does not re-read: %s\n", name, what, err.message);
        }
        rb_doc_free(again);
    }
    free(out);
    rb_doc_free(doc);
}

/* Offsets of the model's nodes read from the file itself (section 0): structure boundaries
 * and, for integers, the fields worth flipping. */
typedef struct offsets {
    uint64_t *items;
    size_t count, cap;
} offsets;

static void add_offset(offsets *o, uint64_t v)
{
    if (o->count == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 256;
        o->items = realloc(o->items, o->cap * sizeof(uint64_t));
    }
    o->items[o->count++] = v;
}

static void collect(const rb_node *n, offsets *boundaries, offsets *ints)
{
    if (n->section == 0) {
        add_offset(boundaries, n->src_offset);
        if (n->kind == RB_K_INT) add_offset(ints, n->src_offset);
    }
    if (rb_node_is_container(n))
        for (size_t i = 0; i < n->v.kids.count; i++) collect(n->v.kids.items[i], boundaries, ints);
    if (n->kind == RB_K_TABLE) { /* a table's elements are structures too: the nodes they stand for */
        rb_node nodes[RB_LAYOUT_MAX_FIELDS + 1];
        rb_node *kids[RB_LAYOUT_MAX_FIELDS];
        for (size_t i = 0; i < n->table->count; i++) collect(rb_table_element(n, i, nodes, kids), boundaries, ints);
    }
}

/* The unmutated file: the write compared against it (rb_doc_write_against) calls it identical
 * exactly when rb_doc_write gives its bytes back, and then hands nothing back. */
static void check_write_against(rb_doc *doc, const char *name, const uint8_t *data, size_t size, stats *st)
{
    uint8_t *plain = NULL, *differing = NULL;
    size_t plain_size = 0, differing_size = 0;
    int identical = 0;
    rb_error err;
    if (rb_doc_write(doc, NULL, &plain, &plain_size, &err) != RB_OK ||
        rb_doc_write_against(doc, NULL, data, size, &identical, &differing, &differing_size, &err) != RB_OK) {
        st->bad++;
        fprintf(stderr, "BAD %s: the original does not write: %s\n", name, err.message);
    } else {
        int exact = plain_size == size && memcmp(plain, data, size) == 0;
        if (identical != exact || (identical && differing) || (!identical && !differing)) {
            st->bad++;
            fprintf(stderr, "BAD %s: rb_doc_write_against says %s, rb_doc_write's bytes are %s\n", name,
                    identical ? "identical" : "different", exact ? "the file's" : "other");
        }
    }
    free(plain);
    free(differing);
}

/* 1 when the file was of a known format and damaged, 0 when it was left out (not a format, empty,
 * over max_size). */
static int mutate_file(const char *path, const char *name, int random_cases, size_t max_size, stats *st)
{
    uint8_t *data;
    size_t size;
    if (!(data = test_read_file(path, &size))) return 0;
    if (size == 0 || (max_size && size > max_size)) { free(data); return 0; }
    rb_read_options opt = {.size = sizeof opt, .file_name = name, .record_derived_offsets = 1};
    rb_error err;
    rb_doc *doc = rb_doc_parse(data, size, &opt, &err);
    if (!doc) { free(data); return 0; } /* not a known format (MANIFEST) */
    check_write_against(doc, name, data, size, st);
    offsets boundaries = {0}, ints = {0};
    collect(doc->root, &boundaries, &ints);
    /* derived values the file stores (sizes, counts) are not model fields: flip them too */
    for (size_t i = 0; i < doc->derived_count; i++) add_offset(&ints, doc->derived_offsets[i]);
    rb_doc_free(doc);
    seed_random(name);
    uint8_t *copy = malloc(size);
    char what[96];
    for (int i = 0; i < random_cases; i++) { /* evenly spaced truncations */
        size_t len = (size_t)((double)size * i / random_cases);
        memcpy(copy, data, len);
        snprintf(what, sizeof what, "truncated at %zu", len);
        run_case(name, what, copy, len, st);
    }
    /* big files have tens of thousands of fields: an even sample keeps the run short */
    size_t boundary_step = boundaries.count > 120 ? boundaries.count / 120 : 1;
    size_t int_step = ints.count > 120 ? ints.count / 120 : 1;
    for (size_t i = 0; i < boundaries.count; i += boundary_step) { /* truncations at structure boundaries */
        size_t len = (size_t)boundaries.items[i];
        if (len >= size) continue;
        memcpy(copy, data, len);
        snprintf(what, sizeof what, "truncated at boundary %zu", len);
        run_case(name, what, copy, len, st);
    }
    static const uint8_t flips[] = {0xFF, 0x80, 0x01, 0x7F};
    for (size_t i = 0; i < ints.count; i += int_step) { /* integer fields of the file: flip their bytes */
        for (size_t k = 0; k < sizeof flips; k++) {
            memcpy(copy, data, size);
            size_t at = (size_t)ints.items[i] + (k % 4 < 2 ? 0 : 3);
            if (at >= size) continue;
            copy[at] ^= flips[k];
            snprintf(what, sizeof what, "byte %zu ^= 0x%02x", at, flips[k]);
            run_case(name, what, copy, size, st);
        }
    }
    for (int i = 0; i < random_cases; i++) { /* random byte flips anywhere */
        memcpy(copy, data, size);
        size_t at = (size_t)(next_random() % size);
        copy[at] ^= (uint8_t)(1 + next_random() % 255);
        snprintf(what, sizeof what, "random flip at %zu", at);
        run_case(name, what, copy, size, st);
    }
    free(boundaries.items);
    free(ints.items);
    free(copy);
    free(data);
    return 1;
}

/* A folder that is not there: skipped (77) only when it is in the shared corpus and the shared
 * folder itself is absent (REBYTE_SHARED unset or missing); a corpus with a folder missing, or a
 * samples folder missing, is a failure. */
static int missing_folder(const char *folder)
{
    const char *shared = getenv("REBYTE_SHARED");
    size_t n = shared ? strlen(shared) : 0;
    int in_shared = n && strncmp(folder, shared, n) == 0 && folder[n] == '/';
    struct stat st;
    if (in_shared && (stat(shared, &st) != 0 || !S_ISDIR(st.st_mode))) {
        printf("SKIP: the shared folder %s is absent (set REBYTE_SHARED)\n", shared);
        return 77;
    }
    printf("FAIL: folder %s not found%s\n", folder, in_shared ? " although the shared folder is there" : "");
    return 1;
}

/* The folder's files, taken by REBYTE_TEST_JOBS threads (default 2) one at a time
 * (tests/test_parallel.h); each file's figures are added to the totals under the lock. */
typedef struct work {
    const char *folder;
    char **names;
    size_t count, mutated;
    int cases;
    size_t max_size;
    stats total;
    pthread_mutex_t lock;
} work;

static void mutate_one(void *context, size_t index)
{
    work *w = context;
    stats mine = {0};
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", w->folder, w->names[index]);
    int mutated = mutate_file(path, w->names[index], w->cases, w->max_size, &mine);
    pthread_mutex_lock(&w->lock);
    w->mutated += (size_t)mutated;
    w->total.cases += mine.cases;
    w->total.parsed += mine.parsed;
    w->total.clean_errors += mine.clean_errors;
    w->total.bad += mine.bad;
    w->total.written_as_read += mine.written_as_read;
    pthread_mutex_unlock(&w->lock);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The entries of the folder but hidden ones, sorted (NULL-terminated count in *count). */
static char **list_folder(DIR *d, size_t *count)
{
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown) break;
            names = grown;
        }
        names[n++] = strdup(e->d_name);
    }
    if (n) qsort(names, n, sizeof *names, by_name);
    *count = n;
    return names;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_mutation CORPUS_FOLDER [CASES_PER_FILE [MAX_FILE_SIZE]]\n");
        return 2;
    }
    DIR *d = opendir(argv[1]);
    if (!d) return missing_folder(argv[1]);
    work w = {.folder = argv[1], .cases = argc > 2 ? atoi(argv[2]) : 20,
              .max_size = argc > 3 ? (size_t)strtoull(argv[3], NULL, 10) : 0 /* 0: every file */};
    w.names = list_folder(d, &w.count);
    closedir(d);
    pthread_mutex_init(&w.lock, NULL);
    test_run_parallel(w.count, mutate_one, &w);
    pthread_mutex_destroy(&w.lock);
    for (size_t i = 0; i < w.count; i++) free(w.names[i]);
    free(w.names);
    printf("mutation: %zu files (%zu of a known format damaged), %zu cases: %zu parsed and round-tripped (%zu written "
           "back as the damaged input), %zu clean errors, %zu bad\n",
           w.count, w.mutated, w.total.cases, w.total.parsed, w.total.written_as_read, w.total.clean_errors, w.total.bad);
    if (w.mutated == 0) {
        printf("FAIL: no file of a known format%s in %s: nothing was tested\n", w.max_size ? " within the size limit" : "",
               argv[1]);
        return 1;
    }
    return w.total.bad ? 1 : 0;
}
