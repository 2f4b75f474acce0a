/*
 * Ghost samples through the library (docs/formats/gbx_ghost.md "Samples", "Entity records"): in every corpus
 * file with car ghosts, every state buffer is decoded into sample records (none left as a blob),
 * each sample has a finite position, the number of samples is the stored numSamples; every
 * TM2020 entity record is decoded (entities, timed samples in order, none left opaque); the
 * content written from those records is the original content byte for byte (the writer then
 * passes each original zlib stream through: its report says not re-encoded), and a write that
 * re-encodes every stream from the records reads back to the same model.
 *
 * Usage: test_ghost_samples CORPUS_GBX_FOLDER (exit 77 when it is absent)
 */
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rebyte.h"
#include "tests/test_util.h"

typedef struct tally {
    size_t lists, samples, blobs, bad_positions, bad_counts;
    size_t records, entities, entity_samples, opaque_records; /* CPlugEntRecordData content */
} tally;

static const rb_node *member(const rb_node *record, const char *key)
{
    rb_node_kind kind = rb_node_kind_of(record);
    return kind == RB_NODE_RECORD || kind == RB_NODE_STREAM ? rb_node_member(record, key) : NULL;
}

/* A sample list: each element's state has a position of three finite floats. */
static void check_samples(const rb_node *sample_data, const rb_node *samples, tally *t)
{
    size_t n = rb_node_child_count(samples);
    const rb_node *stored = member(sample_data, "numSamples");
    t->lists++;
    t->samples += n;
    if (!stored || (size_t)test_int(stored) != n) t->bad_counts++;
    for (size_t i = 0; i < n; i++) {
        const rb_node *state = member(rb_node_child(samples, i), "state");
        const rb_node *position = state ? member(state, "position") : NULL;
        const rb_node *position9 = state ? member(state, "position9") : NULL; /* the network state */
        int ok = position9 != NULL;
        if (position) {
            ok = 1;
            for (size_t k = 0; k < 3; k++) {
                const rb_node *c = rb_node_child(position, k);
                ok &= c && rb_node_kind_of(c) == RB_NODE_FLOAT && isfinite(test_float(c));
            }
        }
        t->bad_positions += !ok;
    }
}

/* TM2020 entity records: the entities and their timed samples (times never decrease). */
static void check_entities(const rb_node *entities, tally *t)
{
    t->records++;
    for (size_t e = 0; e < rb_node_child_count(entities); e++) {
        const rb_node *samples = member(rb_node_child(entities, e), "samples");
        size_t n = samples ? rb_node_child_count(samples) : 0;
        int64_t last = INT64_MIN;
        for (size_t i = 0; i < n; i++) {
            const rb_node *time = member(rb_node_child(samples, i), "time");
            int64_t now = time ? test_int(time) : INT64_MIN;
            if (!time || now < last) t->bad_positions++;
            last = now;
        }
        t->entities++;
        t->entity_samples += n;
    }
}

static void walk(const rb_node *n, tally *t)
{
    const rb_node *entities = member(n, "entities");
    if (entities && member(n, "objects")) check_entities(entities, t);
    if (rb_node_kind_of(n) == RB_NODE_STREAM && member(n, "data") && rb_node_key(n) &&
        strcmp(rb_node_key(n), "compressedData") == 0)
        t->opaque_records++;
    const rb_node *samples = member(n, "samples");
    if (samples && member(n, "savedMobilClassId")) check_samples(n, samples, t);
    if (member(n, "savedMobilClassId") && member(n, "stateBuffer")) t->blobs++;
    for (size_t i = 0; i < rb_node_child_count(n); i++) walk(rb_node_child(n, i), t);
}

static int same_model(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const rb_doc *b)
{
    char *patch = NULL;
    size_t ops = 1;
    rb_error err;
    if (rb_doc_diff(a, a_bytes, a_size, b, RB_DIFF_PLAIN, &patch, &ops, &err) != RB_OK) ops = 1;
    free(patch);
    return ops == 0;
}

static void check_file(const char *path, tally *total)
{
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    rb_error err;
    rb_doc *doc = data ? rb_doc_parse(data, size, NULL, &err) : NULL;
    if (!doc) {
        free(data);
        return;
    }
    tally t = {0};
    walk(rb_doc_root(doc), &t);
    if (t.lists || t.blobs || t.records || t.opaque_records) {
        CHECK(t.blobs == 0, "%s: %zu state buffers left as blobs", path, t.blobs);
        CHECK(t.opaque_records == 0, "%s: %zu entity records left opaque", path, t.opaque_records);
        CHECK(t.bad_positions == 0 && t.bad_counts == 0, "%s: %zu samples without a finite position, %zu lists "
              "whose numSamples differs", path, t.bad_positions, t.bad_counts);
        uint8_t *out = NULL;
        size_t out_size = 0;
        CHECK(rb_doc_write(doc, NULL, &out, &out_size, &err) == RB_OK && out_size == size && !memcmp(out, data, size),
              "%s: writes back exactly", path);
        free(out);
        for (size_t i = 0; i < rb_doc_stream_report_count(doc); i++) {
            rb_stream_report report = RB_STREAM_REPORT_INIT;
            rb_doc_stream_report(doc, i, &report);
            if (strcmp(report.name, "sampleData") == 0 || strcmp(report.name, "compressedData") == 0)
                CHECK(!report.reencoded, "%s: the content written from the sample records differs from the "
                      "original (stream %zu re-encoded)", path, i);
        }
        rb_write_options reencode = {.reencode = 1};
        out = NULL;
        CHECK(rb_doc_write(doc, &reencode, &out, &out_size, &err) == RB_OK, "%s: re-encodes", path);
        rb_doc *again = out ? rb_doc_parse(out, out_size, NULL, &err) : NULL;
        CHECK(again && same_model(doc, data, size, again), "%s: re-encoded from the records, reads back the same", path);
        rb_doc_free(again);
        free(out);
        printf("%-60.60s %zu ghosts, %zu samples; %zu entity records, %zu entities, %zu samples\n",
               strrchr(path, '/') ? strrchr(path, '/') + 1 : path, t.lists, t.samples, t.records, t.entities,
               t.entity_samples);
    }
    total->lists += t.lists;
    total->samples += t.samples;
    total->records += t.records;
    total->entity_samples += t.entity_samples;
    rb_doc_free(doc);
    free(data);
}

int main(int argc, char **argv)
{
    DIR *dir = argc > 1 ? opendir(argv[1]) : NULL;
    if (!dir) {
        printf("SKIP: no corpus folder (%s); set REBYTE_SHARED\n", argc > 1 ? argv[1] : "none given");
        return 77;
    }
    tally total = {0};
    struct dirent *e;
    char path[4096];
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        check_file(path, &total);
    }
    closedir(dir);
    CHECK(total.lists > 0 && total.records > 0, "the corpus has ghosts with decoded samples and entity records");
    printf("%zu ghosts, %zu samples decoded; %zu entity records, %zu samples; %d failures\n", total.lists,
           total.samples, total.records, total.entity_samples, test_failures);
    return test_failures ? 1 : 0;
}
