/*
 * Reads never write (docs/performance.md "Reads never write"): one document read from several
 * threads at once — navigation over every node, getters, JSON rendering, writing, checking,
 * info — gives every thread the results one thread alone gets. Built with ThreadSanitizer
 * (REBYTE_TSAN=ON, ctest label tsan) it also proves there is no data race. Each file is also read
 * with the deferred model (docs/performance.md "The deferred model"): first its threads write,
 * count coverage, dump it, describe and check it (reading the units they need again alone) while
 * it is deferred, and find the document still deferred; then it is
 * expanded (rb_doc_root: a call that has the document to itself) and read as any other.
 *
 * Usage: test_concurrent_reads FILE...  (the samples and, when present, corpus files)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "tests/test_util.h"
#include "rebyte.h"

enum { THREADS = 4, ROUNDS = 2 };

/* What one reader saw: a digest per kind of read. */
typedef struct reading {
    uint32_t walk, json, written, info;
    size_t nodes, written_size, problems;
    int failed;
    int dump_refused; /* a deferred document whose units cannot be read alone: RB_E_DEFERRED */
} reading;

typedef struct job {
    rb_doc *doc;
    const rb_node *root; /* NULL: the document is still deferred (only what needs no nodes) */
    reading seen;
} job;

static uint32_t crc_text(uint32_t crc, const char *text)
{
    return text ? (uint32_t)crc32(crc, (const unsigned char *)text, (uInt)strlen(text)) : crc;
}

/* Every node depth first, through the public navigation: kinds, keys, values and bytes. */
static void walk(const rb_node *n, reading *r)
{
    r->nodes++;
    rb_node_kind kind = rb_node_kind_of(n);
    uint8_t k = (uint8_t)kind;
    r->walk = (uint32_t)crc32(r->walk, &k, 1);
    r->walk = crc_text(r->walk, rb_node_key(n));
    if (kind == RB_NODE_INT || kind == RB_NODE_BOOL) {
        uint64_t v = 0;
        int64_t negative;
        if (rb_node_get_uint(n, &v) != RB_OK && rb_node_get_int(n, &negative) == RB_OK) v = (uint64_t)negative;
        r->walk = (uint32_t)crc32(r->walk, (const unsigned char *)&v, sizeof v);
    } else if (kind == RB_NODE_FLOAT) {
        double v = 0;
        if (rb_node_get_float(n, &v) != RB_OK) r->failed = 1;
        r->walk = (uint32_t)crc32(r->walk, (const unsigned char *)&v, sizeof v);
    } else if (kind == RB_NODE_STRING || kind == RB_NODE_BLOB || kind == RB_NODE_OPAQUE || kind == RB_NODE_ID) {
        size_t size = 0;
        const uint8_t *bytes = NULL;
        if (rb_node_get_bytes(n, &bytes, &size) == RB_OK) r->walk = (uint32_t)crc32(r->walk, bytes, (uInt)size);
    }
    size_t count = rb_node_child_count(n);
    for (size_t i = 0; i < count; i++) {
        const rb_node *child = rb_node_child(n, i);
        if (!child) {
            r->failed = 1;
            return;
        }
        walk(child, r);
    }
}

static void count_problem(void *count, const rb_rule_violation *violation)
{
    (void)violation;
    (*(size_t *)count)++;
}

static void write_and_count(rb_doc *doc, reading *r)
{
    uint8_t *out = NULL;
    rb_error err;
    if (rb_doc_write(doc, NULL, &out, &r->written_size, &err) != RB_OK) r->failed = 1;
    else r->written = (uint32_t)crc32(0, out, (uInt)r->written_size);
    rb_free(out);
    /* run for the race it may have with an expansion; not compared: a table counts its packed
     * bytes as typed, the nodes it becomes when navigated their fields' bytes */
    rb_coverage coverage = RB_COVERAGE_INIT;
    rb_doc_coverage(doc, &coverage);
}

static uint32_t dump_crc(rb_doc *doc, reading *r)
{
    char *json = NULL;
    r->failed |= rb_doc_dump(doc, RB_BLOBS_REF, NULL, &json, NULL) != RB_OK;
    uint32_t crc = crc_text(0, json);
    rb_free(json);
    return crc;
}

/* A deferred document: what needs no nodes, and what reads the units it needs alone (a dump, info,
 * check), the document unchanged (every round sees the same). */
static void read_deferred(rb_doc *doc, reading *r)
{
    memset(r, 0, sizeof *r);
    write_and_count(doc, r);
    /* a deferred document is dumped reading its units again one at a time, each thread into
     * memory of its own (core/archive/archive_unit.c); one whose units cannot be read alone is refused */
    char *json = NULL;
    rb_status dumped = rb_doc_dump(doc, RB_BLOBS_REF, NULL, &json, NULL);
    r->dump_refused = dumped == RB_E_DEFERRED;
    r->failed |= dumped != RB_OK && !r->dump_refused;
    r->json = crc_text(0, json);
    rb_free(json);
    /* info reads the units it needs alone, each thread into memory of its own (core/doc/info.c) */
    rb_error err;
    char *info = NULL;
    r->failed |= rb_doc_info(doc, "file", r->written_size, &info, &err) != RB_OK;
    r->info = crc_text(0, info);
    rb_free(info);
    /* and check runs its rules, those reading inside units on the units they read (core/doc/info.c) */
    r->failed |= rb_doc_check(doc, count_problem, &r->problems, NULL, &err) != RB_OK;
}

static void read_everything(rb_doc *doc, const rb_node *root, reading *r)
{
    memset(r, 0, sizeof *r);
    walk(root, r);
    r->json = dump_crc(doc, r);
    write_and_count(doc, r);
    rb_error err;
    r->failed |= rb_doc_check(doc, count_problem, &r->problems, NULL, &err) != RB_OK;
    char *info = NULL;
    r->failed |= rb_doc_info(doc, "file", r->written_size, &info, NULL) != RB_OK;
    r->info = crc_text(0, info);
    rb_free(info);
}

static void *reader(void *arg)
{
    job *j = arg;
    reading r;
    for (int round = 0; round < ROUNDS; round++) {
        if (j->root) read_everything(j->doc, j->root, &r);
        else read_deferred(j->doc, &r);
        if (round == 0) j->seen = r;
        else if (memcmp(&r, &j->seen, sizeof r) != 0) j->seen.failed = 1;
    }
    return NULL;
}

/* THREADS readers of `docs` at once (thread t reads docs[t % 2]); each must see `expected`, or
 * its written bytes and dump when `deferred_only`. */
static void read_at_once(const char *path, const char *phase, rb_doc *const docs[2], int deferred_only,
                         const reading *expected)
{
    pthread_t threads[THREADS];
    job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t].doc = docs[t % 2];
        jobs[t].root = deferred_only ? NULL : rb_doc_root(docs[t % 2]); /* expanded already: reads only */
        pthread_create(&threads[t], NULL, reader, &jobs[t]);
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        const reading *seen = &jobs[t].seen;
        int same = deferred_only ? seen->written == expected->written && seen->written_size == expected->written_size &&
                                       (seen->json == expected->json || seen->dump_refused)
                                 : memcmp(seen, expected, sizeof *expected) == 0;
        CHECK(!seen->failed && same,
              "%s, %s: thread %d saw what one reader sees (%zu nodes, json %08x, written %08x; alone %zu, %08x, %08x)",
              path, phase, t, seen->nodes, seen->json, seen->written, expected->nodes, expected->json,
              expected->written);
    }
}

static void check_file(const char *path)
{
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    if (!data || !rb_format_detect(data, size)) {
        free(data);
        return;
    }
    rb_error err;
    /* the reference: a document of its own, read by one thread */
    rb_doc *alone = rb_doc_parse(data, size, NULL, &err);
    rb_doc *shared = rb_doc_parse(data, size, NULL, &err);
    rb_read_options defer = {.size = sizeof defer, .defer = 1};
    rb_doc *deferred = rb_doc_parse(data, size, &defer, &err);
    CHECK(alone && shared && deferred, "%s parses", path);
    if (alone && shared && deferred) {
        reading expected;
        read_everything(alone, rb_doc_root(alone), &expected);
        CHECK(!expected.failed && expected.written_size == size, "%s reads alone", path);
        rb_doc *const deferred_docs[2] = {deferred, deferred};
        read_at_once(path, "deferred", deferred_docs, 1, &expected);
        /* the expansion has the document to itself: no thread reads it meanwhile */
        CHECK(rb_doc_root(shared) && rb_doc_root(deferred), "%s expands", path);
        rb_doc *const docs[2] = {shared, deferred};
        read_at_once(path, "expanded", docs, 0, &expected);
    }
    rb_doc_free(alone);
    rb_doc_free(shared);
    rb_doc_free(deferred);
    free(data);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE...\n", argv[0]);
        return 64;
    }
    for (int i = 1; i < argc; i++) check_file(argv[i]);
    printf("%d files read by %d threads at once, %d failures\n", argc - 1, THREADS, test_failures);
    return test_failures ? 1 : 0;
}
