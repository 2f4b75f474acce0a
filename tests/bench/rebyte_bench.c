/*
 * rebyte_bench: throughput and peak memory of read, write and round trip, per file and per format,
 * each beside a floor measured in the same run on the same files.
 *
 *   rebyte_bench [--runs N] [--format F] [--min-ms MS] [--no-peak] [--heap fresh|reused]
 *                [--peak-code prefault|lazy] [--defer] [--process [--cli REBYTE]] DIR|FILE...
 *
 * --process adds the process figures of the CLI itself (process_figures.c): verify -j1 over the GBX
 * files against their floor (process CPU over a floor process's, --floor-process, like for like;
 * and wall clock over the in-process floors), rewrite's peak less the bare program's, dump and
 * build of the largest map, verify -j1 / -j2 over the folders given.
 *
 * Operations (per file; times are medians over the runs):
 *   read   load the file (read(2) into a fresh buffer) + parse it into the model + free
 *   write  model -> bytes (original compressed streams passed through), the model already parsed
 *   rt     the full round trip: load + parse + write + free everything
 *   reenc  the same round trip with every compressed stream re-encoded (--reencode); files with
 *          compressed streams only
 *   diff-id  on the largest map with items and blocks: an item moved 8 m, three items and a block
 *          removed (the identity diff's measurement); both read + `rb_doc_diff --by-identity` of it
 *   apply-id rb_apply of that identity patch to the map (it must give the edited map back)
 * Floors:
 *   copy   load the file + copy it once into a second buffer (every format)
 *   lzo    lzo1x_decompress_safe of the file's LZO streams alone, into a fresh buffer (GBX bodies)
 *   lzo+enc  the same plus lzo1x_1_compress of the decoded content (the floor of reenc)
 * GBX files are compared with the lzo floors; a GBX file without an LZO body (an uncompressed
 * body) and every other format with the copy floor. Ratios are computed per run (floor and
 * operation measured back to back, so both see the same machine load) and the median is shown.
 *
 * The C library's heap is pinned to one of two regimes (--heap), because glibc's default moves
 * between them on its own: it raises its mmap threshold each time a large mapped block is freed,
 * so the same copy floor measured 1-2 GB/s in one run (every buffer freshly mapped: page faults)
 * and 13-20 GB/s in another that had read larger files first (buffers reused: memcpy alone).
 *   fresh   (default) blocks above 128 KiB are mapped when allocated and unmapped when freed, as
 *           in a command that handles one file: floors and operations all pay the page faults
 *   reused  freed memory stays in the heap for the next file, as in `rebyte verify` over many
 *           files (it sets the same): no page faults after the first sample
 *
 * Peak memory: each file is processed again in a fresh child process (this program re-executed
 * with --peak-child) that reads its own peak resident set (VmHWM in /proc/self/status) before
 * loading the file and after the round trip; the difference is the peak resident memory the round
 * trip added (the program's code and libraries are in the baseline: their read-only pages are read
 * before it, unless --peak-code lazy, which counts the code a round trip runs first as its memory, as
 * the benchmark did before the seventh session). It is compared with file
 * size + decoded size. (getrusage's ru_maxrss would not do: Linux keeps it across fork and exec,
 * so a child would report the parent's peak.)
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <lzo/lzo1x.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "core/doc/doc.h"
#include "tests/bench/process_figures.h"
#include "rebyte.h"

enum metric {
    M_COPY, M_LZO, M_LZO_ENC, M_READ, M_WRITE, M_RT, M_REENC, M_APPLY, M_DIFF, M_DIFF_EDIT, M_DIFF_MANY, M_APPLY_MANY,
    M_COUNT
};
static const char *const METRIC_NAMES[M_COUNT] = {"copy",  "lzo",  "lzo+enc", "read",    "write",  "rt",
                                                  "reenc", "apply", "diff",   "diff-ed", "diff-id", "apply-id"};
enum { MAX_RUNS = 99, MAX_LZO = 64 };

typedef struct bench_file {
    char *path;
    const char *format;
    size_t size;
    uint64_t decoded_size;        /* sum of the decoded sizes of its compressed streams */
    int stream_count;             /* compressed streams of any codec */
    int lzo_count;                /* LZO streams with their original bytes (the floor's input) */
    uint8_t *data;                /* the file, for the floors and the write measurement */
    const uint8_t *lzo_in[MAX_LZO];
    size_t lzo_in_size[MAX_LZO], lzo_out_size[MAX_LZO];
    uint8_t *lzo_content[MAX_LZO]; /* decoded once, the input of the encode floor */
    rb_doc *doc;                  /* parsed once, for the write measurement */
    unsigned iters[M_COUNT];      /* repetitions per sample, so a sample lasts at least --min-ms */
    double t[M_COUNT][MAX_RUNS];  /* seconds per operation, per run */
    long peak_kb, peak_reenc_kb;  /* -1 when not measured */
    /* the edit measurements: the format's one-field patch, and the file it makes */
    const char *patch_path;
    char patch_resolved[2048];    /* patch_path under the samples folder */
    rb_patch *patch;              /* NULL: no patch for the format, or it does not apply (why) */
    char patch_note[300];
    uint8_t *edited;
    size_t edited_size;
    int units;                    /* units the one-field apply built through the description */
    long peak_apply_kb;
    /* the many-edit measurements (the largest map with items): the map with three items and a
     * block removed and an item moved, the identity patch `diff --by-identity` makes of it */
    uint8_t *many;
    size_t many_size, many_ops;
    rb_patch *many_patch;
    int many_same;                /* applying that patch to the file gives `many` back */
} bench_file;

/* A one-field patch per format (FORMAT=FILE, relative to the samples folder unless absolute). */
typedef struct patch_choice {
    const char *format, *file;
} patch_choice;
enum { MAX_PATCH_CHOICES = 16 };

typedef struct options {
    patch_choice patches[MAX_PATCH_CHOICES];
    int patch_count;
    const char *samples;
    int runs;
    const char *format;
    double min_seconds;
    int peak;
    const char *heap; /* "fresh" or "reused" (--heap) */
    int peak_code_lazy; /* --peak-code lazy: code pages count as the operation's memory */
    int process;        /* --process: the process-level figures (process_figures.c) */
    const char *cli;    /* --cli: the rebyte program they run */
    const char *floor_list; /* --floor-list FILE: write the floor process's list and stop */
    const char *many_copy;  /* --many-copy FILE: write the many-edit copy of the largest map with items and stop */
    char *folders[64];  /* the folders given, for verify -j2 / -j1 */
    int folder_count;
} options;

/* ---------- small helpers ---------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "rebyte_bench: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

/* The file into a fresh buffer with plain read(2): the "read the file" part of every floor. */
static uint8_t *load(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0) close(fd);
        return NULL;
    }
    uint8_t *data = xmalloc((size_t)st.st_size);
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, data + got, (size_t)st.st_size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fd);
    if (got != (size_t)st.st_size) {
        free(data);
        return NULL;
    }
    *size = got;
    return data;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(const double *values, int n)
{
    double sorted[MAX_RUNS];
    memcpy(sorted, values, (size_t)n * sizeof *values);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_doubles);
    return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* ---------- the operations ---------- */

static void die_on(rb_status st, const rb_error *err)
{
    if (st == RB_OK) return;
    char text[1400];
    fprintf(stderr, "rebyte_bench: %s\n", rb_error_format(err, text, sizeof text));
    exit(2);
}

static void op_copy(bench_file *f)
{
    size_t size;
    uint8_t *data = load(f->path, &size);
    uint8_t *copy = xmalloc(size);
    memcpy(copy, data, size);
    /* keep the compiler from proving the copy useless */
    __asm__ volatile("" : : "r"(copy) : "memory");
    free(copy);
    free(data);
}

static void op_lzo(bench_file *f)
{
    for (int i = 0; i < f->lzo_count; i++) {
        uint8_t *out = xmalloc(f->lzo_out_size[i]);
        lzo_uint produced = f->lzo_out_size[i];
        lzo1x_decompress_safe(f->lzo_in[i], f->lzo_in_size[i], out, &produced, NULL);
        __asm__ volatile("" : : "r"(out) : "memory");
        free(out);
    }
}

static void op_lzo_enc(bench_file *f)
{
    op_lzo(f);
    void *work = xmalloc(LZO1X_1_MEM_COMPRESS);
    for (int i = 0; i < f->lzo_count; i++) {
        size_t n = f->lzo_out_size[i];
        uint8_t *out = xmalloc(n + n / 16 + 64 + 3);
        lzo_uint produced = 0;
        lzo1x_1_compress(f->lzo_content[i], n, out, &produced, work);
        __asm__ volatile("" : : "r"(out) : "memory");
        free(out);
    }
    free(work);
}

/* --defer: documents are read with the deferred model (rb_read_options.defer), as `rebyte
 * rewrite` and `verify` read them (docs/performance.md "The deferred model") */
static int defer_reads;

static rb_doc *parse(const char *path, const uint8_t *data, size_t size)
{
    rb_error err;
    rb_read_options ro = {.size = sizeof ro, .file_name = path, .defer = defer_reads};
    rb_doc *doc = rb_doc_parse(data, size, &ro, &err);
    if (!doc) die_on(err.status ? err.status : RB_E_FORMAT, &err);
    return doc;
}

static void op_read(bench_file *f)
{
    size_t size;
    uint8_t *data = load(f->path, &size);
    rb_doc_free(parse(f->path, data, size));
    free(data);
}

static void write_doc(rb_doc *doc, int reencode)
{
    rb_write_options wo = {.reencode = reencode};
    uint8_t *out;
    size_t out_size;
    rb_error err;
    die_on(rb_doc_write(doc, &wo, &out, &out_size, &err), &err);
    free(out);
}

static void op_write(bench_file *f) { write_doc(f->doc, 0); }

static void round_trip(bench_file *f, int reencode)
{
    size_t size;
    uint8_t *data = load(f->path, &size);
    rb_doc *doc = parse(f->path, data, size);
    write_doc(doc, reencode);
    rb_doc_free(doc);
    free(data);
}

static void op_rt(bench_file *f) { round_trip(f, 0); }
static void op_reenc(bench_file *f) { round_trip(f, 1); }

/* `rebyte apply` without the files: read, the one-field patch applied, written, read back and
 * compared (rb_apply). */
static void apply_once(bench_file *f, const rb_patch *patch)
{
    size_t size;
    uint8_t *data = load(f->path, &size);
    const rb_patch *const patches[1] = {patch};
    rb_apply_result r = RB_APPLY_RESULT_INIT;
    rb_error err;
    die_on(rb_apply(data, size, f->path, patches, 1, NULL, &r, &err), &err);
    rb_apply_result_free(&r);
    free(data);
}

static void op_apply(bench_file *f) { apply_once(f, f->patch); }

/* `rebyte diff A B` without the files: both read, the patch between them made. */
static void diff_with(bench_file *f, const uint8_t *other, size_t other_size, unsigned flags)
{
    size_t size;
    uint8_t *data = load(f->path, &size);
    rb_doc *a = parse(f->path, data, size), *b = parse(f->path, other, other_size);
    char *json;
    size_t ops;
    rb_error err;
    die_on(rb_doc_diff(a, data, size, b, flags, &json, &ops, &err), &err);
    free(json);
    rb_doc_free(a);
    rb_doc_free(b);
    free(data);
}

static void op_diff(bench_file *f) { diff_with(f, f->data, f->size, 0); }
static void op_diff_edit(bench_file *f) { diff_with(f, f->edited, f->edited_size, 0); }
static void op_diff_many(bench_file *f) { diff_with(f, f->many, f->many_size, RB_DIFF_BY_IDENTITY); }
static void op_apply_many(bench_file *f) { apply_once(f, f->many_patch); }

typedef void (*op_fn)(bench_file *f);
static const op_fn OPS[M_COUNT] = {op_copy, op_lzo, op_lzo_enc, op_read, op_write, op_rt, op_reenc,
                                   op_apply, op_diff, op_diff_edit, op_diff_many, op_apply_many};

static int metric_applies(const bench_file *f, int m)
{
    if (m == M_LZO || m == M_LZO_ENC) return f->lzo_count > 0;
    if (m == M_REENC) return f->stream_count > 0;
    if (m == M_APPLY || m == M_DIFF_EDIT) return f->patch != NULL;
    if (m == M_DIFF_MANY || m == M_APPLY_MANY) return f->many_patch != NULL;
    return 1;
}

/* Seconds per operation over one sample of f->iters[m] repetitions. */
static double time_sample(bench_file *f, int m)
{
    double start = now();
    for (unsigned i = 0; i < f->iters[m]; i++) OPS[m](f);
    return (now() - start) / f->iters[m];
}

/* Enough repetitions that one sample lasts min_seconds (short files are timed in batches). */
static void calibrate(bench_file *f, int m, double min_seconds)
{
    f->iters[m] = 1;
    double once = time_sample(f, m); /* also warms caches and the allocator */
    once = time_sample(f, m);
    double want = once > 0 ? min_seconds / once : 1e6;
    f->iters[m] = want < 1 ? 1 : want > 1e6 ? 1000000 : (unsigned)want + 1;
}

/* ---------- preparing a file ---------- */

static void find_streams(bench_file *f)
{
    const rb_doc *doc = f->doc;
    for (size_t i = 0; i < doc->stream_count; i++) {
        const rb_stream_info *s = doc->streams[i]->stream;
        f->stream_count++;
        f->decoded_size += s->content_size;
        if (!s->original || strcmp(s->codec, "lzo1x") != 0 || f->lzo_count == MAX_LZO) continue;
        int k = f->lzo_count++;
        f->lzo_in[k] = s->original;
        f->lzo_in_size[k] = s->original_size;
        f->lzo_out_size[k] = (size_t)s->content_size;
        f->lzo_content[k] = xmalloc(f->lzo_out_size[k]);
        lzo_uint produced = f->lzo_out_size[k];
        lzo1x_decompress_safe(s->original, s->original_size, f->lzo_content[k], &produced, NULL);
    }
}

static char *read_text(const char *path, size_t *size)
{
    uint8_t *text = load(path, size);
    return (char *)text;
}

/* The format's one-field patch, applied once: the edited file diff-ed measures against, and
 * whether the model path took it. A patch that does not apply is reported, not fatal. */
static void prepare_patch(bench_file *f, const options *o)
{
    for (int i = 0; i < o->patch_count && !f->patch_path; i++)
        if (strcmp(o->patches[i].format, f->format) == 0) f->patch_path = o->patches[i].file;
    if (!f->patch_path) {
        snprintf(f->patch_note, sizeof f->patch_note, "no one-field patch for %s (--patch %s=FILE)", f->format, f->format);
        return;
    }
    char path[2048];
    snprintf(path, sizeof path, "%s%s%s", f->patch_path[0] == '/' ? "" : o->samples, f->patch_path[0] == '/' ? "" : "/",
             f->patch_path);
    size_t size = 0;
    char *text = read_text(path, &size);
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    rb_error err = {.message = "cannot be read"};
    rb_patch *patch = text ? rb_patch_parse(text, size, path, &err) : NULL;
    free(text);
    snprintf(f->patch_resolved, sizeof f->patch_resolved, "%s", path);
    if (!patch) {
        snprintf(f->patch_note, sizeof f->patch_note, "%.60s: %.200s", name, err.message);
        return;
    }
    const rb_patch *const patches[1] = {patch};
    rb_apply_result r = RB_APPLY_RESULT_INIT;
    if (rb_apply(f->data, f->size, f->path, patches, 1, NULL, &r, &err) != RB_OK) {
        snprintf(f->patch_note, sizeof f->patch_note, "%.60s does not apply: %.200s", name, err.message);
        rb_patch_free(patch);
        return;
    }
    f->patch = patch;
    f->edited = r.bytes;
    f->edited_size = r.bytes_size;
    f->units = r.drafts;
    if (r.drafts) snprintf(f->patch_note, sizeof f->patch_note, "drafts built: %s", r.first_draft);
    free(r.changes);
}

/* ---------- the many-edit identity patch ---------- */

/* "/body/chunks/<c>/<key>" of the map chunk numbered `number` (current and legacy ids alike)
 * when it holds a list `key` of at least `least` elements; its length in *count. */
/* The checked getters' values, 0 where the node holds none. */
static uint64_t uint_of(const rb_node *n)
{
    uint64_t v = 0;
    rb_node_get_uint(n, &v);
    return v;
}

static double float_of(const rb_node *n)
{
    double v = 0;
    rb_node_get_float(n, &v);
    return v;
}

static int map_list(rb_doc *doc, unsigned number, const char *key, size_t least, char *path, size_t size, size_t *count)
{
    rb_node *chunks = rb_node_at_edit(rb_doc_root(doc), "/body/chunks");
    for (size_t c = 0; chunks && c < rb_node_child_count(chunks); c++) {
        rb_node *chunk = rb_node_child_edit(chunks, c), *id = rb_node_member_edit(chunk, "id");
        rb_node *list = id && (uint_of(id) & 0xFFF) == number ? rb_node_member_edit(chunk, key) : NULL;
        if (!list || rb_node_kind_of(list) != RB_NODE_LIST || rb_node_child_count(list) < least) continue;
        snprintf(path, size, "/body/chunks/%zu/%s", c, key);
        *count = rb_node_child_count(list);
        return 1;
    }
    return 0;
}

/* The edits of the identity diff's measurement: an item moved 8 m, three items and a block removed. */
static json_t *many_edits(rb_doc *doc)
{
    char items[160], blocks[160], path[300];
    size_t n, m;
    if (!map_list(doc, 0x040, "anchoredObjects", 8, items, sizeof items, &n) ||
        !map_list(doc, 0x01F, "blocks", 1, blocks, sizeof blocks, &m))
        return NULL;
    snprintf(path, sizeof path, "%s/1/chunks/0/absolutePositionInMap", items);
    rb_node *at = rb_node_at_edit(rb_doc_root(doc), path);
    if (!at || rb_node_child_count(at) != 3) return NULL;
    json_t *ops = json_array(), *position = json_array();
    for (size_t i = 0; i < 3; i++) json_array_append_new(position, json_real(float_of(rb_node_child(at, i)) + (i != 1) * 8.0));
    json_array_append_new(ops, json_pack("{s:s,s:s,s:o}", "op", "replace", "path", path, "value", position));
    for (size_t k = 3; k > 0; k--) {
        snprintf(path, sizeof path, "%s/%zu", items, k * n / 4);
        json_array_append_new(ops, json_pack("{s:s,s:s}", "op", "remove", "path", path));
    }
    snprintf(path, sizeof path, "%s/%zu", blocks, m / 2);
    json_array_append_new(ops, json_pack("{s:s,s:s}", "op", "remove", "path", path));
    return ops;
}

static uint8_t *apply_text(bench_file *f, const char *text, rb_patch **kept, size_t *size)
{
    rb_error err;
    rb_patch *patch = rb_patch_parse(text, strlen(text), "many edits", &err);
    const rb_patch *const patches[1] = {patch};
    rb_apply_result r = RB_APPLY_RESULT_INIT;
    uint8_t *out = NULL;
    if (patch && rb_apply(f->data, f->size, f->path, patches, 1, NULL, &r, &err) == RB_OK) {
        out = r.bytes;
        *size = r.bytes_size;
        r.bytes = NULL;
    }
    rb_apply_result_free(&r);
    if (kept && out) *kept = patch;
    else rb_patch_free(patch);
    return out;
}

/* The edited map, the identity patch diff makes of it, and whether that patch gives the edited
 * map back. 0 when the file is no map with items and blocks. */
static int prepare_many(bench_file *f)
{
    rb_error err;
    rb_doc *doc = strcmp(f->format, "gbx") == 0 ? rb_doc_parse(f->data, f->size, NULL, &err) : NULL;
    json_t *edits = doc ? many_edits(doc) : NULL;
    rb_doc_free(doc);
    char *text = edits ? json_dumps(edits, JSON_COMPACT) : NULL;
    json_decref(edits);
    f->many = text ? apply_text(f, text, NULL, &f->many_size) : NULL;
    free(text);
    if (!f->many) return 0;
    rb_doc *a = parse(f->path, f->data, f->size), *b = parse(f->path, f->many, f->many_size);
    char *patch = NULL;
    if (rb_doc_diff(a, f->data, f->size, b, RB_DIFF_BY_IDENTITY, &patch, &f->many_ops, &err) == RB_OK) {
        size_t size = 0;
        uint8_t *again = apply_text(f, patch, &f->many_patch, &size);
        f->many_same = again && size == f->many_size && memcmp(again, f->many, size) == 0;
        free(again);
    }
    free(patch);
    rb_doc_free(a);
    rb_doc_free(b);
    return f->many_patch != NULL;
}

/* Loads and parses the file once; 0 when it is not a format rebyte knows (or not --format F). */
static int prepare(bench_file *f, const options *o)
{
    f->data = load(f->path, &f->size);
    if (!f->data) return 0;
    const char *format = rb_format_detect(f->data, f->size);
    if (!format || (o->format && strcmp(format, o->format) != 0)) {
        free(f->data);
        return 0;
    }
    f->format = format;
    f->doc = parse(f->path, f->data, f->size);
    find_streams(f);
    f->peak_kb = f->peak_reenc_kb = f->peak_apply_kb = -1;
    prepare_patch(f, o);
    return 1;
}

static void release(bench_file *f)
{
    for (int i = 0; i < f->lzo_count; i++) free(f->lzo_content[i]);
    rb_doc_free(f->doc);
    rb_patch_free(f->patch);
    rb_patch_free(f->many_patch);
    free(f->many);
    free(f->edited);
    free(f->data);
    free(f->path);
}

/* ---------- peak memory in a child process ---------- */

/* This process's peak resident set (VmHWM) in KiB. Not getrusage's ru_maxrss: Linux carries that
 * over fork and exec from the parent's image, which holds every file of the run. */
static long peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) kb = strtol(line + 6, NULL, 10);
    if (f) fclose(f);
    return kb;
}

/* Reads one byte of every page of the program's and its libraries' file-backed read-only
 * mappings (code, constants), so that they are resident before the baseline. Without it the
 * pages of code a round trip runs for the first time count as its memory: 0.3-0.6 MiB that does
 * not grow with the file and is shared with every other process running the library, but made
 * small files look like x4-x6 of (file + decoded) (pv.wtd: 52 KiB). `--peak-code lazy` keeps the
 * old measure (the figures of the sessions before the seventh). */
static void prefault_code(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    long page = sysconf(_SC_PAGESIZE);
    while (maps && fgets(line, sizeof line, maps)) {
        unsigned long start, end;
        char perms[8] = "", path[400] = "";
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %399s", &start, &end, perms, path) < 3) continue;
        if (path[0] != '/' || perms[0] != 'r' || perms[1] != '-') continue; /* file-backed, read-only */
        for (unsigned long a = start; a < end; a += (unsigned long)page) (void)*(volatile const char *)a;
    }
    if (maps) fclose(maps);
}

/* The child: baseline, the operation (0 round trip, 1 re-encoding round trip, 2 apply of the
 * patch file `patch`), peak; prints the difference in KiB. */
enum { PEAK_RT = 0, PEAK_REENC = 1, PEAK_APPLY = 2 };
enum { PEAK_CODE_LAZY = 16 }; /* added to `what`: code pages count as the operation's (--peak-code lazy) */
enum { PEAK_DEFER = 32 };     /* added to `what`: the deferred model (--defer) */
static int peak_child(const char *path, int what, const char *patch_path)
{
    bench_file f = {.path = (char *)path};
    if (what & PEAK_DEFER) {
        defer_reads = 1;
        what -= PEAK_DEFER;
    }
    if (what & PEAK_CODE_LAZY) what -= PEAK_CODE_LAZY;
    else prefault_code();
    if (what == PEAK_APPLY) {
        size_t size = 0;
        char *text = read_text(patch_path, &size);
        rb_error err;
        f.patch = text ? rb_patch_parse(text, size, patch_path, &err) : NULL;
        free(text);
        if (!f.patch) return 1;
    }
    long before = peak_rss_kb();
    if (what == PEAK_APPLY) apply_once(&f, f.patch);
    else round_trip(&f, what == PEAK_REENC);
    long after = peak_rss_kb();
    rb_patch_free(f.patch);
    if (before < 0 || after < 0) return 1;
    printf("%ld\n", after - before);
    return 0;
}

static long measure_peak(const char *self, const char *path, int what, const char *patch_path)
{
    char mode[8];
    snprintf(mode, sizeof mode, "%d", what);
    char *args[] = {(char *)self, "--peak-child", (char *)path, mode, (char *)(patch_path ? patch_path : "-"), NULL};
    char text[64] = "";
    if (bench_child_output(args, text, sizeof text) != 0) return -1;
    return strtol(text, NULL, 10);
}

/* ---------- collecting files ---------- */

typedef struct file_list {
    bench_file *items;
    size_t count, cap;
} file_list;

static void add_path(file_list *l, const char *path)
{
    if (l->count == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->items = realloc(l->items, l->cap * sizeof *l->items);
        if (!l->items) exit(2);
    }
    memset(&l->items[l->count], 0, sizeof l->items[0]);
    l->items[l->count++].path = strdup(path);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files of a folder (recursively), in name order so runs are comparable. */
static void walk(file_list *l, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "rebyte_bench: %s: %s\n", path, strerror(errno));
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        add_path(l, path);
        return;
    }
    DIR *d = opendir(path);
    if (!d) return;
    char **names = NULL;
    size_t count = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        if (count == cap && !(names = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names))) exit(2);
        names[count] = xmalloc(strlen(path) + strlen(e->d_name) + 2);
        sprintf(names[count++], "%s/%s", path, e->d_name);
    }
    closedir(d);
    qsort(names, count, sizeof *names, compare_names);
    for (size_t i = 0; i < count; i++) {
        walk(l, names[i]);
        free(names[i]);
    }
    free(names);
}

/* ---------- report ---------- */

/* The floor an operation is compared with: lzo for GBX files with an LZO body, else copy. */
static int floor_of(const bench_file *f, int m)
{
    if (strcmp(f->format, "gbx") == 0 && f->lzo_count) return m == M_REENC ? M_LZO_ENC : M_LZO;
    return M_COPY;
}

static double ratio(const bench_file *f, int m, int runs)
{
    double r[MAX_RUNS];
    int fl = floor_of(f, m);
    for (int i = 0; i < runs; i++) r[i] = f->t[m][i] / f->t[fl][i];
    return median(r, runs);
}

static double mbps(size_t bytes, double seconds) { return seconds > 0 ? (double)bytes / seconds / 1e6 : 0; }

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void print_header(void)
{
    printf("%-44s %9s %5s | %8s %8s | %8s %6s | %8s %6s | %8s %6s | %8s %8s %6s | %8s %6s %8s\n", "file", "KiB",
           "floor", "floor", "enc-fl", "read", "x", "write", "x", "rt", "x", "reenc", "x", "", "peakMiB", "x",
           "reencMiB");
    printf("%-44s %9s %5s | %8s %8s | %8s %6s | %8s %6s | %8s %6s | %8s %8s %6s | %8s %6s %8s\n", "", "",
           "", "MB/s", "MB/s", "MB/s", "floor", "MB/s", "floor", "MB/s", "floor", "MB/s", "x floor", "",
           "", "f+dec", "");
}

static void print_file(const bench_file *f, int runs)
{
    double med[M_COUNT] = {0};
    for (int m = 0; m < M_COUNT; m++)
        if (metric_applies(f, m)) med[m] = median(f->t[m], runs);
    int fl = floor_of(f, M_RT);
    double denom = (double)f->size + (double)f->decoded_size;
    printf("%-44.44s %9.1f %5s | %8.1f %8s | %8.1f %6.2f | %8.1f %6.2f | %8.1f %6.2f | ", base_name(f->path),
           (double)f->size / 1024, METRIC_NAMES[fl], mbps(f->size, med[fl]), "", mbps(f->size, med[M_READ]),
           ratio(f, M_READ, runs), mbps(f->size, med[M_WRITE]), ratio(f, M_WRITE, runs), mbps(f->size, med[M_RT]),
           ratio(f, M_RT, runs));
    if (f->stream_count)
        printf("%8.1f %8.2f %6s | ", mbps(f->size, med[M_REENC]), ratio(f, M_REENC, runs), "");
    else
        printf("%8s %8s %6s | ", "-", "-", "");
    if (f->peak_kb >= 0)
        printf("%8.2f %6.2f ", f->peak_kb / 1024.0, f->peak_kb * 1024.0 / denom);
    else
        printf("%8s %6s ", "-", "-");
    if (f->peak_reenc_kb >= 0) printf("%8.2f", f->peak_reenc_kb / 1024.0);
    printf("\n");
}

/* Median over runs of an operation's time against the round trip's in the same run. */
static double ratio_to_rt(const bench_file *f, int m, int runs)
{
    double r[MAX_RUNS];
    for (int i = 0; i < runs; i++) r[i] = f->t[m][i] / f->t[M_RT][i];
    return median(r, runs);
}

/* The edits: apply of the one-field patch, diff against itself and against the edited copy. */
static void print_edits(const bench_file *files, size_t count, const char *format, int runs)
{
    printf("%-44s %8s | %8s %6s | %8s %6s | %8s %6s | %8s %6s\n", "edits", "rt ms", "apply ms", "x rt", "diff ms",
           "x rt", "diff-ed", "x rt", "applyMiB", "f+dec");
    for (size_t i = 0; i < count; i++) {
        const bench_file *f = &files[i];
        if (strcmp(f->format, format) != 0) continue;
        printf("%-44.44s %8.2f | ", base_name(f->path), median(f->t[M_RT], runs) * 1e3);
        if (f->patch)
            printf("%8.2f %6.2f | ", median(f->t[M_APPLY], runs) * 1e3, ratio_to_rt(f, M_APPLY, runs));
        else
            printf("%8s %6s | ", "-", "-");
        printf("%8.2f %6.2f | ", median(f->t[M_DIFF], runs) * 1e3, ratio_to_rt(f, M_DIFF, runs));
        if (f->patch)
            printf("%8.2f %6.2f | ", median(f->t[M_DIFF_EDIT], runs) * 1e3, ratio_to_rt(f, M_DIFF_EDIT, runs));
        else
            printf("%8s %6s | ", "-", "-");
        if (f->peak_apply_kb >= 0)
            printf("%8.2f %6.2f", f->peak_apply_kb / 1024.0,
                   f->peak_apply_kb * 1024.0 / ((double)f->size + (double)f->decoded_size));
        else
            printf("%8s %6s", "-", "-");
        printf("%s%s\n", f->patch_note[0] ? "  " : "", f->patch_note);
    }
}

/* The many-edit identity patch, on the map it was made for. */
static void print_many(const bench_file *files, size_t count, const char *format, int runs)
{
    for (size_t i = 0; i < count; i++) {
        const bench_file *f = &files[i];
        if (strcmp(f->format, format) != 0 || !f->many_patch) continue;
        printf("many edits on %s (an item moved, three items and a block removed): diff --by-identity %zu operations "
               "%.2f ms = x%.2f rt; apply of it %.2f ms = x%.2f rt; gives the edited map back: %s\n",
               base_name(f->path), f->many_ops, median(f->t[M_DIFF_MANY], runs) * 1e3,
               ratio_to_rt(f, M_DIFF_MANY, runs), median(f->t[M_APPLY_MANY], runs) * 1e3,
               ratio_to_rt(f, M_APPLY_MANY, runs), f->many_same ? "yes" : "NO");
    }
}

/* Totals of one format: sums of the per-file medians; the ratio of the sums. */
static void print_total(bench_file *files, size_t count, const char *format, int runs)
{
    double sum[M_COUNT] = {0}, floor_rt = 0, floor_reenc = 0;
    size_t bytes = 0, n = 0, reenc_bytes = 0;
    const bench_file *largest = NULL;
    for (size_t i = 0; i < count; i++) {
        const bench_file *f = &files[i];
        if (strcmp(f->format, format) != 0) continue;
        n++;
        bytes += f->size;
        for (int m = 0; m < M_COUNT; m++)
            if (metric_applies(f, m)) sum[m] += median(f->t[m], runs);
        floor_rt += median(f->t[floor_of(f, M_RT)], runs);
        if (f->stream_count) {
            floor_reenc += median(f->t[floor_of(f, M_REENC)], runs);
            reenc_bytes += f->size;
        }
        if (!largest || f->size > largest->size) largest = f;
    }
    printf("TOTAL %s: %zu files, %.1f MiB | read %.1f MB/s (x%.2f) | write %.1f MB/s (x%.2f) | rt %.1f MB/s "
           "(x%.2f of floor %.1f MB/s)",
           format, n, bytes / 1048576.0, mbps(bytes, sum[M_READ]), sum[M_READ] / floor_rt, mbps(bytes, sum[M_WRITE]),
           sum[M_WRITE] / floor_rt, mbps(bytes, sum[M_RT]), sum[M_RT] / floor_rt, mbps(bytes, floor_rt));
    if (floor_reenc > 0)
        printf(" | reenc %.1f MB/s (x%.2f of floor %.1f MB/s)", mbps(reenc_bytes, sum[M_REENC]),
               sum[M_REENC] / floor_reenc, mbps(reenc_bytes, floor_reenc));
    printf("\n");
    if (largest && largest->peak_kb >= 0)
        printf("      largest %s: %.1f KiB file + %.1f KiB decoded, peak %.2f MiB = x%.2f of (file + decoded)%s\n",
               base_name(largest->path), largest->size / 1024.0, largest->decoded_size / 1024.0,
               largest->peak_kb / 1024.0,
               largest->peak_kb * 1024.0 / ((double)largest->size + (double)largest->decoded_size),
               largest->peak_reenc_kb >= 0 ? " (round trip)" : "");
    if (largest && largest->peak_reenc_kb >= 0)
        printf("      largest with --reencode: peak %.2f MiB = x%.2f\n", largest->peak_reenc_kb / 1024.0,
               largest->peak_reenc_kb * 1024.0 / ((double)largest->size + (double)largest->decoded_size));
}

/* ---------- main ---------- */

/* --many-copy FILE: the many-edit copy written (its source named on stdout); 0 when written. */
static int write_many_copy(const file_list *l, const char *path)
{
    for (size_t i = 0; i < l->count; i++) {
        const bench_file *f = &l->items[i];
        if (!f->many_patch) continue;
        FILE *out = fopen(path, "wb");
        int written = out && fwrite(f->many, 1, f->many_size, out) == f->many_size;
        if (out && fclose(out) != 0) written = 0;
        if (written) printf("%s\n", f->path);
        return written ? 0 : 1;
    }
    fprintf(stderr, "rebyte_bench: no map with items and blocks for the many-edit copy\n");
    return 1;
}

static int usage(void)
{
    fprintf(stderr, "usage: rebyte_bench [--runs N] [--format F] [--min-ms MS] [--no-peak] [--heap fresh|reused] "
                    "[--peak-code prefault|lazy] [--defer] [--samples DIR] [--patch FORMAT=FILE]... [--process [--cli REBYTE]] DIR|FILE...\n");
    return 2;
}

static int parse_options(int argc, char **argv, options *o, file_list *files)
{
    *o = (options){.runs = 5, .min_seconds = 0.02, .peak = 1, .heap = "fresh", .samples = REBYTE_SAMPLES_DIR,
                   .cli = REBYTE_CLI};
    static const patch_choice defaults[] = {
        {"gbx", "gbx/cookbook/rename.patch.json"},        {"datawin", "datawin/one-field-datawin.patch.json"},
        {"groff", "tres/one-field-groff.patch.json"},     {"tpa", "tres/one-field-tpa.patch.json"},
        {"pid", "tres/one-field-pid.patch.json"},         {"wtd", "tres/one-field-wtd.patch.json"},
        {"streamer", "streamer/one-field-streamer.patch.json"}};
    for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++) o->patches[o->patch_count++] = defaults[i];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) o->runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) o->format = argv[++i];
        else if (strcmp(argv[i], "--min-ms") == 0 && i + 1 < argc) o->min_seconds = atof(argv[++i]) / 1000;
        else if (strcmp(argv[i], "--no-peak") == 0) o->peak = 0;
        else if (strcmp(argv[i], "--defer") == 0) defer_reads = 1;
        else if (strcmp(argv[i], "--heap") == 0 && i + 1 < argc) o->heap = argv[++i];
        else if (strcmp(argv[i], "--peak-code") == 0 && i + 1 < argc) {
            const char *code = argv[++i];
            if (strcmp(code, "lazy") != 0 && strcmp(code, "prefault") != 0) return 0;
            o->peak_code_lazy = strcmp(code, "lazy") == 0;
        }
        else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) o->samples = argv[++i];
        else if (strcmp(argv[i], "--patch") == 0 && i + 1 < argc && strchr(argv[i + 1], '=')) {
            /* FORMAT=FILE: taken before the defaults (the first match wins) */
            char *choice = argv[++i], *eq = strchr(choice, '=');
            *eq = 0;
            if (o->patch_count == MAX_PATCH_CHOICES) return 0;
            memmove(&o->patches[1], &o->patches[0], (size_t)o->patch_count * sizeof o->patches[0]);
            o->patches[0] = (patch_choice){choice, eq + 1};
            o->patch_count++;
        }
        else if (strcmp(argv[i], "--process") == 0) o->process = 1;
        else if (strcmp(argv[i], "--cli") == 0 && i + 1 < argc) o->cli = argv[++i];
        else if (strcmp(argv[i], "--floor-list") == 0 && i + 1 < argc) o->floor_list = argv[++i];
        else if (strcmp(argv[i], "--many-copy") == 0 && i + 1 < argc) o->many_copy = argv[++i];
        else if (argv[i][0] == '-') return 0;
        else {
            struct stat st;
            if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode) && o->folder_count < 64) o->folders[o->folder_count++] = argv[i];
            walk(files, argv[i]);
        }
    }
    int heap_known = strcmp(o->heap, "fresh") == 0 || strcmp(o->heap, "reused") == 0;
    return heap_known && o->runs >= 1 && o->runs <= MAX_RUNS && files->count > 0;
}

/* The heap regime (see the top of this file). Setting the thresholds turns glibc's own moving of
 * them off. Elsewhere than glibc the library's defaults stay. */
static void pin_heap(const char *heap)
{
#ifdef __GLIBC__
    int reused = strcmp(heap, "reused") == 0;
    mallopt(M_MMAP_THRESHOLD, reused ? 32 << 20 : 128 << 10); /* 32 MiB: glibc's largest */
    mallopt(M_TRIM_THRESHOLD, reused ? 1 << 30 : 128 << 10);
#else
    (void)heap;
#endif
}

/* Keeps the files of a known format (and --format), drops the rest. */
static size_t prepare_all(file_list *l, const options *o)
{
    size_t kept = 0;
    for (size_t i = 0; i < l->count; i++) {
        if (prepare(&l->items[i], o)) l->items[kept++] = l->items[i];
        else free(l->items[i].path);
    }
    return l->count = kept;
}

static void measure_all(file_list *l, const options *o)
{
    for (size_t i = 0; i < l->count; i++)
        for (int m = 0; m < M_COUNT; m++)
            if (metric_applies(&l->items[i], m)) calibrate(&l->items[i], m, o->min_seconds);
    /* run after run over all files: a burst of load on the shared machine hits one run, and the
     * floor and the operation of one file are timed back to back inside it */
    for (int r = 0; r < o->runs; r++) {
        fprintf(stderr, "\rrun %d/%d", r + 1, o->runs);
        for (size_t i = 0; i < l->count; i++)
            for (int m = 0; m < M_COUNT; m++)
                if (metric_applies(&l->items[i], m)) l->items[i].t[m][r] = time_sample(&l->items[i], m);
    }
    fprintf(stderr, "\r\033[K");
}

static void measure_peaks(file_list *l, int code)
{
    for (size_t i = 0; i < l->count; i++) {
        bench_file *f = &l->items[i];
        f->peak_kb = measure_peak("/proc/self/exe", f->path, PEAK_RT + code, NULL);
        if (f->stream_count) f->peak_reenc_kb = measure_peak("/proc/self/exe", f->path, PEAK_REENC + code, NULL);
        if (f->patch)
            f->peak_apply_kb = measure_peak("/proc/self/exe", f->path, PEAK_APPLY + code, rb_patch_name(f->patch));
    }
}

static void report(file_list *l, const options *o)
{
    const char *formats[32];
    size_t format_count = 0;
    for (size_t i = 0; i < l->count; i++) {
        size_t k = 0;
        while (k < format_count && strcmp(formats[k], l->items[i].format) != 0) k++;
        if (k == format_count && format_count < 32) formats[format_count++] = l->items[i].format;
    }
    for (size_t k = 0; k < format_count; k++) {
        printf("\n== %s (median of %d runs; x = ratio to the floor, median of per-run ratios)\n", formats[k],
               o->runs);
        print_header();
        for (size_t i = 0; i < l->count; i++)
            if (strcmp(l->items[i].format, formats[k]) == 0) print_file(&l->items[i], o->runs);
        print_total(l->items, l->count, formats[k], o->runs);
        print_edits(l->items, l->count, formats[k], o->runs);
        print_many(l->items, l->count, formats[k], o->runs);
    }
}

/* The files as the process figures see them: sizes, this run's floors, the LZO streams. */
static process_file *process_files(const file_list *l, const options *o)
{
    process_file *files = xmalloc(l->count * sizeof *files);
    for (size_t i = 0; i < l->count; i++) {
        const bench_file *f = &l->items[i];
        double floor = median(f->t[M_COPY], o->runs) + (f->lzo_count ? median(f->t[M_LZO], o->runs) : 0);
        process_file *p = &files[i];
        *p = (process_file){f->path, f->format, f->size, f->decoded_size, floor, 0, {0}, {0}, {0}, NULL, NULL, 0};
        p->patch_path = f->patch ? f->patch_resolved : NULL;
        p->many = f->many_patch ? f->many : NULL;
        p->many_size = f->many_size;
        for (int k = 0; k < f->lzo_count && p->lzo_count < PROCESS_MAX_LZO; k++) {
            if (f->lzo_in[k] < f->data || f->lzo_in[k] + f->lzo_in_size[k] > f->data + f->size) continue; /* nested */
            p->lzo_offset[p->lzo_count] = (uint64_t)(f->lzo_in[k] - f->data);
            p->lzo_in_size[p->lzo_count] = f->lzo_in_size[k];
            p->lzo_out_size[p->lzo_count++] = f->lzo_out_size[k];
        }
    }
    return files;
}

/* The process figures of the CLI run as a user runs it, with this run's floors. */
static void process_figures(const file_list *l, const options *o)
{
    process_file *files = process_files(l, o);
    bench_process_figures("/proc/self/exe", o->cli, files, l->count, (char **)o->folders, o->folder_count, o->runs);
    free(files);
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--run-measure") == 0) return bench_run_measure(argv + 2);
    if (argc == 3 && strcmp(argv[1], "--floor-process") == 0) return bench_floor_process(argv[2]);
    if (argc == 5 && strcmp(argv[1], "--peak-child") == 0) {
        pin_heap("fresh"); /* peaks are a one-file command's */
        return peak_child(argv[2], atoi(argv[3]), argv[4]);
    }
    if (lzo_init() != LZO_E_OK) return 2;
    options o;
    file_list files = {0};
    if (!parse_options(argc, argv, &o, &files)) return usage();
    if (!prepare_all(&files, &o)) {
        fprintf(stderr, "rebyte_bench: no file of a known format%s%s\n", o.format ? " " : "", o.format ? o.format : "");
        return 1;
    }
    /* the many-edit patch on the largest map that has items and blocks */
    bench_file **by_size = malloc(files.count * sizeof *by_size);
    for (size_t i = 0; by_size && i < files.count; i++) by_size[i] = &files.items[i];
    for (size_t i = 0; by_size && i < files.count; i++) {
        size_t largest = i;
        for (size_t j = i + 1; j < files.count; j++)
            if (by_size[j]->size > by_size[largest]->size) largest = j;
        bench_file *t = by_size[i];
        by_size[i] = by_size[largest];
        by_size[largest] = t;
        if (prepare_many(by_size[i])) break;
    }
    free(by_size);
    if (o.many_copy) return write_many_copy(&files, o.many_copy); /* for timing diff from outside */
    if (o.floor_list) { /* the floor process's input, for timing it beside the CLI from outside */
        process_file *listed = process_files(&files, &o);
        int written = bench_write_floor_list(o.floor_list, listed, files.count);
        free(listed);
        return written == 0 ? 0 : 1;
    }
    pin_heap(o.heap);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    printf("rebyte_bench: %zu files, %d runs, samples of at least %.0f ms, %ld online CPUs, heap %s%s\n", files.count,
           o.runs, o.min_seconds * 1000, cpus, o.heap, defer_reads ? ", deferred model (--defer)" : "");
    measure_all(&files, &o);
    if (o.peak) {
        printf("peaks: %s\n", o.peak_code_lazy ? "code pages counted when first run (--peak-code lazy)"
                                              : "code and constants resident before the baseline (--peak-code prefault)");
        measure_peaks(&files, (o.peak_code_lazy ? PEAK_CODE_LAZY : 0) | (defer_reads ? PEAK_DEFER : 0));
    }
    report(&files, &o);
    if (o.process) process_figures(&files, &o);
    for (size_t i = 0; i < files.count; i++) release(&files.items[i]);
    free(files.items);
    return 0;
}
