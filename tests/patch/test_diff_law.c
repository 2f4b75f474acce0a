/*
 * The law of diff (docs/usage.md "Diffs"): for a file A and any B that apply makes from it,
 * apply(diff(A, B), A) gives B's bytes - plain, pinned by position (the default) and by
 * identity - and the diff of one edit is a handful of operations (its pins aside).
 *
 * Random edits that apply accepts (scalars anywhere in the model, names and strings among them;
 * the bytes of blobs and assets; list elements removed, moved, copied, inserted, duplicated beside
 * themselves or at the end, their equals inserted, on every list,
 * chunk lists included; a map's items and blocks; a map's name, which the header copies), drawn
 * with a fixed seed over every sample file (and with REBYTE_SHARED over every corpus file of every format),
 * each sequence applied one edit at a time; then the diff of A and the result is applied to A.
 * With --removals, every map of the corpus also has one item and one block removed (blocks of
 * every era: chunk 01F, 013 or 00F): apply must take it, and the diff must be at most 3
 * operations and give the same bytes back (the identity diff's acceptance bound). With --copies, one item and
 * one block of every map are copied (to the end, into the middle, twice): lists with equal
 * elements, which the diff matches by their order among equals. With --names, the names whose
 * copies the writer derives are renamed one at a time (a data.win room, object, sprite and the
 * game, whose texts STRG gains; a GROFF section and a name of the name table, which is
 * re-sorted): apply must give the same bytes back from a diff of exactly one operation, in
 * every spelling.
 *
 * Usage: test_diff_law [--seed N] [--sequences K] [--edits E] [--removals] [--copies] [--names] FILE|DIR...
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "rebyte.h"
#include "tests/test_util.h"
#include "core/doc/doc.h"
#include "core/json/json.h"

/* One edit's diff stays within this many operations that change something ("test" pins
 * aside): the edit itself, and what the replay could not leave to apply (a default a new
 * in-step entry gets where B has another value). */
enum { HANDFUL = 6, REMOVAL_MAX = 3, TRIES = 40 };

/* xorshift64: two streams, so the equal-making edits do not change the other edits' sequence */
static unsigned long long rng = 0x9E3779B97F4A7C15ULL, rng_equal = 0x2545F4914F6CDD1DULL;
static unsigned xorshift(unsigned long long *state, unsigned n)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return n ? (unsigned)(*state % n) : 0;
}
static unsigned rnd(unsigned n) { return xorshift(&rng, n); }
static unsigned rnd_equal(unsigned n) { return xorshift(&rng_equal, n); }

/* The kinds of edit drawn, counted when apply takes them (the run's coverage). */
enum { E_VALUE, E_BLOB, E_REMOVE, E_MOVE, E_COPY, E_ADD, E_DUPLICATE, E_INSERT_EQUAL, E_HEADER, E_KINDS };
static const char *const EDIT_KIND[E_KINDS] = {"values", "blobs", "removes", "moves", "copies", "adds",
                                               "duplicates", "equals inserted", "header facts"};

typedef struct stats {
    size_t files, sequences, edits, refused, diffs, ops_max_single, removals, maps, by_kind[E_KINDS], chunk_list_edits;
    size_t copies, copy_maps, copies_refused;
    size_t renames, renames_refused;
} stats;

/* ---------- random edits ---------- */

static void push_key(char *path, size_t size, const char *key)
{
    size_t o = strlen(path);
    if (o + 1 < size) path[o++] = '/';
    for (const char *k = key; *k && o + 2 < size; k++) {
        if (*k == '~' || *k == '/') { path[o++] = '~'; path[o++] = *k == '~' ? '0' : '1'; }
        else path[o++] = *k;
    }
    path[o] = 0;
}

static void push_index(char *path, size_t size, size_t i)
{
    size_t o = strlen(path);
    snprintf(path + o, size - o, "/%zu", i);
}

static int container(const rb_node *n)
{
    rb_node_kind k = rb_node_kind_of(n);
    return k == RB_NODE_RECORD || k == RB_NODE_LIST || k == RB_NODE_STREAM;
}

/* A random place: descends from the root; stops at a scalar, or (when `list` is wanted) at a
 * list with elements, with some chance at each one passed. */
static const rb_node *pick(rb_doc *doc, char *path, size_t size, int list)
{
    const rb_node *n = rb_doc_root(doc), *found = NULL;
    char at[1024] = "";
    path[0] = 0;
    for (int depth = 0; n && depth < 40; depth++) {
        if (list && rb_node_kind_of(n) == RB_NODE_LIST && rb_node_child_count(n) && (rnd(3) == 0 || !found)) {
            found = n;
            snprintf(path, size, "%s", at);
            if (rnd(2)) return n;
        }
        if (!container(n)) return list ? found : n;
        size_t count = rb_node_child_count(n);
        if (!count) return list ? found : NULL;
        size_t i = rnd((unsigned)count);
        const rb_node *child = rb_node_child(n, i);
        if (rb_node_kind_of(n) == RB_NODE_LIST) push_index(at, sizeof at, i);
        else push_key(at, sizeof at, rb_node_key(child));
        n = child;
        if (!list) snprintf(path, size, "%s", at);
    }
    return list ? found : NULL;
}

/* Another value of the scalar's JSON type: numbers moved, strings lengthened, flags flipped. */
static json_t *other_value(const rb_doc *doc, const rb_node *n)
{
    json_t *v = rb_model_to_json(doc, n, RB_BLOBS_OMIT), *out = NULL;
    if (json_is_integer(v)) {
        json_int_t x = json_integer_value(v);
        out = json_integer(rnd(2) && x > 0 ? x - 1 : x + 1);
    } else if (json_is_real(v)) {
        out = json_real(json_real_value(v) * 0.5 + 0.25);
    } else if (json_is_boolean(v)) {
        out = json_boolean(!json_is_true(v));
    } else if (json_is_string(v)) {
        const char *s = json_string_value(v);
        char text[300];
        if (!strncmp(s, "0x", 2) && strlen(s) <= 18) { /* a hex spelled number: the same width */
            unsigned long long x = strtoull(s, NULL, 16) ^ 1;
            snprintf(text, sizeof text, "0x%0*llX", (int)strlen(s) - 2, x);
        } else {
            snprintf(text, sizeof text, "%.250s%c", s, "xyz"[rnd(3)]);
        }
        out = json_string(text);
    }
    json_decref(v);
    return out;
}

/* Other bytes for a blob or opaque bytes (an asset: a thumbnail, a texture, a sound): the last
 * byte changed, or one byte added to an empty one. */
static json_t *other_blob(const rb_doc *doc, const rb_node *n)
{
    json_t *v = rb_model_to_json(doc, n, RB_BLOBS_BASE64), *out = NULL;
    const char *text = json_string_value(json_object_get(v, "$base64"));
    size_t len = text ? strlen(text) : 0;
    uint8_t *bytes = text ? malloc(len / 4 * 3 + 4) : NULL;
    char *again = bytes ? malloc(len + 12) : NULL;
    if (again) {
        size_t size = rb_base64_decode(text, len, bytes);
        if (size) bytes[size - 1] ^= 1 + rnd(255);
        else bytes[size++] = (uint8_t)rnd(256);
        rb_base64_encode(bytes, size, again);
        out = json_pack("{s:s}", "$base64", again);
    }
    free(bytes);
    free(again);
    json_decref(v);
    return out;
}

/* Is the list at `path` a list of chunks (GBX "chunks" and "headerChunks", data.win, streamer)? */
static int chunk_list(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, "hunks") == 0;
}

/* A header fact of a map: the name the header's chunks copy from the block data chunk (01F,
 * TMPU's 013, TM 1.0's 00F), renamed (docs/formats/gbx.md "Header copies"); NULL for no map. */
static json_t *header_fact_edit(rb_doc *doc)
{
    rb_node *chunks = rb_node_at_edit(rb_doc_root(doc), "/body/chunks");
    for (size_t c = 0; chunks && c < rb_node_child_count(chunks); c++) {
        rb_node *chunk = rb_node_child_edit(chunks, c), *id = rb_node_member_edit(chunk, "id"), *name;
        uint64_t v = 0;
        if (id) rb_node_get_uint(id, &v);
        unsigned low = (unsigned)(v & 0xFFF);
        if ((low != 0x01F && low != 0x013 && low != 0x00F) || !(name = rb_node_member_edit(chunk, "mapName"))) continue;
        json_t *other = other_value(doc, name);
        char path[80];
        snprintf(path, sizeof path, "/body/chunks/%zu/mapName", c);
        return other ? json_pack("{s:s,s:s,s:o}", "op", "replace", "path", path, "value", other) : NULL;
    }
    return NULL;
}

/* One random operation on doc's model (NULL when the place drawn takes none); its kind in *kind. */
static json_t *random_edit(rb_doc *doc, int *kind, int *on_chunks)
{
    char path[1024], from[1100], to[1100];
    *on_chunks = 0;
    if (rnd(8) == 0) { /* random places seldom reach the few facts the header copies */
        json_t *fact = header_fact_edit(doc);
        *kind = E_HEADER;
        if (fact) return fact;
    }
    if (rnd(2)) {
        const rb_node *n = pick(doc, path, sizeof path, 0);
        if (!n || !*path || container(n)) return NULL;
        rb_node_kind k = rb_node_kind_of(n);
        int blob = k == RB_NODE_BLOB || k == RB_NODE_OPAQUE;
        json_t *v = blob ? other_blob(doc, n) : other_value(doc, n);
        *kind = blob ? E_BLOB : E_VALUE;
        return v ? json_pack("{s:s,s:s,s:o}", "op", "replace", "path", path, "value", v) : NULL;
    }
    const rb_node *list = pick(doc, path, sizeof path, 1);
    if (!list) return NULL;
    size_t count = rb_node_child_count(list), i = rnd((unsigned)count), j = rnd((unsigned)count);
    snprintf(from, sizeof from, "%s/%zu", path, i);
    snprintf(to, sizeof to, "%s/%zu", path, j);
    /* chunk lists too: a second copy of a chunk is a file no game writes, but apply takes it
     * where the format allows it (and refuses it, saying why, where it does not) */
    *on_chunks = chunk_list(path);
    *kind = E_REMOVE + (int)rnd(4);
    /* a copy or an addition becomes, one time in three, one that makes equal elements; drawn
     * from a generator of its own, so that a seed's other draws stay what they were */
    if ((*kind == E_COPY || *kind == E_ADD) && rnd_equal(3) == 0) *kind += E_DUPLICATE - E_COPY;
    switch (*kind) {
    case E_REMOVE: return json_pack("{s:s,s:s}", "op", "remove", "path", from);
    case E_MOVE: return i == j ? NULL : json_pack("{s:s,s:s,s:s}", "op", "move", "from", from, "path", to);
    case E_COPY: return json_pack("{s:s,s:s,s:s}", "op", "copy", "from", from, "path", to);
    case E_DUPLICATE: /* an element and its copy side by side, or the copy at the end: equal elements */
        if (rnd_equal(2)) snprintf(to, sizeof to, "%s/-", path);
        else snprintf(to, sizeof to, "%s/%zu", path, i + rnd_equal(2));
        return json_pack("{s:s,s:s,s:s}", "op", "copy", "from", from, "path", to);
    case E_INSERT_EQUAL: { /* an element's equal inserted before or after it, spelled out */
        json_t *v = rb_model_to_json(doc, rb_node_child(list, i), RB_BLOBS_BASE64);
        rb_json_strip_storage(v);
        snprintf(to, sizeof to, "%s/%zu", path, i + rnd_equal(2));
        return json_pack("{s:s,s:s,s:o}", "op", "add", "path", to, "value", v);
    }
    default: {
        json_t *v = rb_model_to_json(doc, rb_node_child(list, i), RB_BLOBS_BASE64);
        rb_json_strip_storage(v);
        return json_pack("{s:s,s:s,s:o}", "op", "add", "path", to, "value", v);
    }
    }
}

/* ---------- applying ---------- */

/* A file read once for every law on it: its bytes, a read to find places in, and the reads
 * every diff of it starts from (full for the bare diff, deferred as `rebyte diff` reads it).
 * A diff does not change its documents (rb_doc_diff), so one pair serves every edit's diff. */
typedef struct base {
    const char *name;
    uint8_t *data;
    size_t size;
    rb_doc *places, *full, *deferred;
} base;

/* The file read as a base, or 0 when it is of no format rebyte reads. */
static int base_read(const char *file, base *a)
{
    rb_error err;
    rb_read_options deferred = {.size = sizeof deferred, .file_name = file, .defer = 1};
    *a = (base){.name = file};
    a->data = test_read_file(file, &a->size);
    a->places = a->data ? rb_doc_parse(a->data, a->size, NULL, &err) : NULL;
    a->full = a->places ? rb_doc_parse(a->data, a->size, NULL, &err) : NULL;
    a->deferred = a->full ? rb_doc_parse(a->data, a->size, &deferred, &err) : NULL;
    CHECK(!a->places || (a->full && a->deferred), "%s: read once, not again: %s", file, err.message);
    return a->deferred != NULL;
}

static void base_free(base *a)
{
    rb_doc_free(a->places);
    rb_doc_free(a->full);
    rb_doc_free(a->deferred);
    free(a->data);
}

/* `ops` applied to `data`: the new file (malloc'd) or NULL, with the reason in `why`. */
static uint8_t *apply_ops(const char *name, const uint8_t *data, size_t size, const json_t *ops, size_t *out_size,
                          char *why, size_t why_size)
{
    char *text = json_dumps(ops, JSON_COMPACT);
    uint8_t *out = text ? test_apply_text(name, data, size, text, out_size, why, why_size) : NULL;
    free(text);
    return out;
}

/* The law for A and B, plain and by identity; the largest diff's count of changes. */
static size_t check_law(const base *base_a, const uint8_t *b, size_t nb, const json_t *edits, stats *st)
{
    rb_error err;
    /* A and B as full models (the bare diff), and both deferred as `rebyte diff` reads them (the
     * pinned diffs: by units, the units equal in both left as bytes); A's reads are the base's */
    const char *name = base_a->name;
    const uint8_t *a = base_a->data;
    size_t na = base_a->size;
    rb_read_options deferred = {.size = sizeof deferred, .file_name = name, .defer = 1};
    const rb_doc *da = base_a->full, *da_deferred = base_a->deferred;
    rb_doc *db = rb_doc_parse(b, nb, NULL, &err);
    rb_doc *db_deferred = db ? rb_doc_parse(b, nb, &deferred, &err) : NULL;
    size_t most = 0;
    char *edit_text = json_dumps(edits, JSON_COMPACT);
    CHECK(da && db && da_deferred && db_deferred, "%s: A or B does not parse: %s", name, err.message);
    /* bare and unpinned; pinned in the envelope (what a user shares), by position and by identity */
    static const unsigned KINDS[] = {RB_DIFF_PLAIN, 0, RB_DIFF_BY_IDENTITY};
    for (size_t k = 0; da && db && da_deferred && db_deferred && k < sizeof KINDS / sizeof *KINDS; k++) {
        unsigned flags = KINDS[k];
        char *text = NULL, why[2048] = "";
        size_t count = 0, got_size = 0;
        rb_status s = rb_doc_diff(k == 0 ? da : da_deferred, a, na, k == 0 ? db : db_deferred, flags, &text, &count, &err);
        CHECK(s == RB_OK, "%s: diff%s fails after %.300s: %s", name, flags & RB_DIFF_BY_IDENTITY ? " --by-identity" : "",
              edit_text, err.message);
        json_t *file = s == RB_OK ? json_loads(text, 0, NULL) : NULL;
        json_t *ops = json_is_object(file) ? json_incref(json_object_get(file, "operations")) : json_incref(file);
        uint8_t *got = ops ? apply_ops(name, a, na, file, &got_size, why, sizeof why) : NULL;
        if (ops) {
            st->diffs++;
            CHECK(got && got_size == nb && memcmp(got, b, nb) == 0,
                  "%s: apply(diff%s(A, B), A) is not B (%s) after %.300s; the diff: %.600s", name,
                  flags & RB_DIFF_BY_IDENTITY ? " --by-identity" : flags & RB_DIFF_PLAIN ? " --plain" : "",
                  got ? "other bytes" : why, edit_text, text);
            if (test_changes(ops) > most) most = test_changes(ops);
        }
        free(got);
        json_decref(ops);
        json_decref(file);
        free(text);
    }
    free(edit_text);
    rb_doc_free(db);
    rb_doc_free(db_deferred);
    return most;
}

/* One sequence of 1..max_edits edits that apply accepts, applied one by one; then the law. */
static void sequence(const base *a, unsigned max_edits, stats *st)
{
    const char *name = a->name;
    unsigned want = 1 + rnd(max_edits);
    uint8_t *cur = malloc(a->size ? a->size : 1);
    size_t cur_size = a->size;
    memcpy(cur, a->data, a->size);
    json_t *edits = json_array();
    /* the current file's read, made again only when an edit was taken (a refused edit leaves
     * the file as it was); before the first edit, the base's */
    rb_doc *doc = NULL;
    for (unsigned tries = 0; json_array_size(edits) < want && tries < TRIES; tries++) {
        rb_error err;
        if (!doc && json_array_size(edits)) doc = rb_doc_parse(cur, cur_size, NULL, &err);
        rb_doc *now = json_array_size(edits) ? doc : a->places;
        if (!now) break;
        int kind = E_VALUE, on_chunks = 0;
        json_t *op = random_edit(now, &kind, &on_chunks);
        if (!op) continue;
        json_t *one = json_pack("[O]", op);
        char why[2048];
        size_t next_size = 0;
        uint8_t *next = apply_ops(name, cur, cur_size, one, &next_size, why, sizeof why);
        json_decref(one);
        if (!next || (next_size == cur_size && !memcmp(next, cur, cur_size))) { /* refused, or no change */
            st->refused++;
            free(next);
            json_decref(op);
            continue;
        }
        json_array_append_new(edits, op);
        rb_doc_free(doc);
        doc = NULL;
        st->by_kind[kind]++;
        st->chunk_list_edits += on_chunks;
        free(cur);
        cur = next;
        cur_size = next_size;
    }
    rb_doc_free(doc);
    if (json_array_size(edits)) {
        st->sequences++;
        st->edits += json_array_size(edits);
        size_t most = check_law(a, cur, cur_size, edits, st);
        if (json_array_size(edits) == 1) {
            char *t = json_dumps(edits, JSON_COMPACT);
            CHECK(most <= HANDFUL, "%s: one edit (%.300s) diffs to %zu changes", name, t, most);
            free(t);
            if (most > st->ops_max_single) st->ops_max_single = most;
        }
    }
    json_decref(edits);
    free(cur);
}

/* ---------- a map's items and blocks ---------- */

/* The pointer of the list `key` of the body chunk `id` (current or legacy id), or 0. */
static int map_list(rb_doc *doc, uint32_t id, const char *key, char *path, size_t size, size_t *count)
{
    rb_node *chunks = rb_node_at_edit(rb_doc_root(doc), "/body/chunks");
    for (size_t c = 0; chunks && c < rb_node_child_count(chunks); c++) {
        rb_node *chunk = rb_node_child_edit(chunks, c), *cid = rb_node_member_edit(chunk, "id");
        uint64_t v = 0;
        if (cid) rb_node_get_uint(cid, &v);
        if ((v & 0xFFF) != (id & 0xFFF)) continue; /* the chunk's number: current and legacy ids alike */
        rb_node *list = rb_node_member_edit(chunk, key);
        if (!list || rb_node_kind_of(list) != RB_NODE_LIST || !rb_node_child_count(list)) return 0;
        snprintf(path, size, "/body/chunks/%zu/%s", c, key);
        *count = rb_node_child_count(list);
        return 1;
    }
    return 0;
}

/* One element of the map's list removed: apply must take it, its diff must give the same bytes
 * back and be at most REMOVAL_MAX operations. Returns whether the map has that list. */
static int removal(const base *a, uint32_t id, const char *key, stats *st)
{
    const char *name = a->name;
    char path[200], at[240], why[2048];
    size_t count = 0;
    if (!map_list(a->places, id, key, path, sizeof path, &count)) return 0;
    snprintf(at, sizeof at, "%s/%u", path, rnd((unsigned)count));
    json_t *ops = json_pack("[{s:s,s:s}]", "op", "remove", "path", at);
    size_t b_size = 0;
    uint8_t *b = apply_ops(name, a->data, a->size, ops, &b_size, why, sizeof why);
    CHECK(b, "%s: apply refuses to remove %s: %s", name, at, why);
    if (b) {
        size_t most = check_law(a, b, b_size, ops, st);
        CHECK(most <= REMOVAL_MAX, "%s: removing %s diffs to %zu operations", name, at, most);
        st->removals++;
    }
    free(b);
    json_decref(ops);
    return 1;
}

/* Copies of one element of the map's list: to the end, into the middle (before another
 * element), and twice to the end; each is a list with equal elements, matched by their order
 * among equals. Apply may refuse a copy (a rule it names); a copy it takes must diff to at most
 * REMOVAL_MAX operations (HANDFUL for two copies) and give the same bytes back. Returns whether
 * the map has that list. */
static int duplication(const base *a, uint32_t id, const char *key, stats *st)
{
    const char *name = a->name;
    char path[200], from[240], to[240], why[2048];
    size_t count = 0;
    if (!map_list(a->places, id, key, path, sizeof path, &count)) return 0;
    snprintf(from, sizeof from, "%s/%u", path, rnd((unsigned)count));
    for (int shape = 0; shape < 3; shape++) {
        if (shape == 1) snprintf(to, sizeof to, "%s/%u", path, rnd((unsigned)count));
        else snprintf(to, sizeof to, "%s/-", path);
        json_t *ops = json_pack("[{s:s,s:s,s:s}]", "op", "copy", "from", from, "path", to);
        if (shape == 2) json_array_append(ops, json_array_get(ops, 0));
        size_t b_size = 0;
        uint8_t *b = apply_ops(name, a->data, a->size, ops, &b_size, why, sizeof why);
        if (b) {
            size_t most = check_law(a, b, b_size, ops, st);
            size_t allowed = shape == 2 ? HANDFUL : REMOVAL_MAX;
            CHECK(most <= allowed, "%s: copying %s to %s%s diffs to %zu operations", name, from, to,
                  shape == 2 ? " twice" : "", most);
            st->copies++;
        } else {
            st->copies_refused++;
        }
        free(b);
        json_decref(ops);
    }
    return 1;
}

/* ---------- renames: names whose copies the writer derives ---------- */

/* Names of data.win (links by text: STRG gains the new text) and of GROFF files (symbol
 * handles: the name table gains the new name, sorted, and drops an unused one). A path a file
 * does not have is refused by apply and skipped. */
static const char *const RENAMED[] = {
    "/chunks/[id=ROOM]/rooms/0/name", "/chunks/[id=OBJT]/objects/0/name", "/chunks/[id=SPRT]/sprites/0/name",
    "/chunks/[id=GEN8]/name", "/sections/2/name", "/sections/3/name", "/symbols/1/name",
};

static void renames(const base *a, stats *st)
{
    const char *name = a->name;
    for (size_t k = 0; k < sizeof RENAMED / sizeof *RENAMED; k++) {
        json_t *ops = json_pack("[{s:s,s:s,s:s}]", "op", "replace", "path", RENAMED[k], "value", "Rebyte-Renamed-01");
        char why[2048];
        size_t b_size = 0;
        uint8_t *b = apply_ops(name, a->data, a->size, ops, &b_size, why, sizeof why);
        if (b) {
            size_t most = check_law(a, b, b_size, ops, st);
            CHECK(most == 1, "%s: renaming %s diffs to %zu operations, not 1", name, RENAMED[k], most);
            st->renames++;
        } else {
            st->renames_refused++;
        }
        free(b);
        json_decref(ops);
    }
}

/* ---------- files ---------- */

typedef struct options {
    unsigned sequences, edits;
    int removals, copies, names;
} options;

static int is_input(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && strcmp(name, "MANIFEST.tsv") && !(n > 5 && !strcmp(name + n - 5, ".json")) &&
           !(n > 3 && !strcmp(name + n - 3, ".md"));
}

/* `edit` on a map's item list and on its block list (01F, TMPU's 013 or TM 1.0's 00F): 1 when
 * either list was there to edit. */
typedef int list_edit(const base *, uint32_t, const char *, stats *);
static int on_lists(const base *a, stats *st, list_edit *edit)
{
    int items = edit(a, 0x03043040, "anchoredObjects", st);
    int blocks = edit(a, 0x0304301F, "blocks", st) || edit(a, 0x03043013, "blocks", st) || edit(a, 0x0304300F, "blocks", st);
    return items || blocks;
}

static void one_file(const char *file, const options *o, stats *st)
{
    base a;
    if (base_read(file, &a)) {
        st->files++;
        for (unsigned s = 0; s < o->sequences; s++) sequence(&a, o->edits, st);
        if (o->removals) st->maps += on_lists(&a, st, removal);
        if (o->copies) st->copy_maps += on_lists(&a, st, duplication);
        if (o->names) renames(&a, st);
    }
    base_free(&a);
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

static void walk_path(const char *path, const options *o, stats *st)
{
    struct dirent **names;
    int n = scandir(path, &names, NULL, by_name);
    if (n < 0) { one_file(path, o, st); return; }
    for (int i = 0; i < n; i++) {
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, names[i]->d_name);
        if (names[i]->d_name[0] != '.' && names[i]->d_type == DT_DIR) walk_path(child, o, st);
        else if (is_input(names[i]->d_name)) one_file(child, o, st);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    options o = {3, 3, 0, 0, 0};
    stats st = {0};
    int paths = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) rng = strtoull(argv[++i], NULL, 0) | 1;
        else if (!strcmp(argv[i], "--sequences") && i + 1 < argc) o.sequences = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--edits") && i + 1 < argc) o.edits = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--removals")) o.removals = 1;
        else if (!strcmp(argv[i], "--copies")) o.copies = 1;
        else if (!strcmp(argv[i], "--names")) o.names = 1;
        else {
            struct stat sb;
            if (stat(argv[i], &sb) != 0) {
                printf("SKIP: %s is absent (set REBYTE_SHARED)\n", argv[i]);
                return 77;
            }
            walk_path(argv[i], &o, &st);
            paths++;
        }
    }
    printf("diff law: %zu files, %zu sequences of %zu edits (%zu drawn edits refused by apply), %zu diffs "
           "re-applied, %zu removals on %zu maps; one edit's diff: at most %zu changes\n",
           st.files, st.sequences, st.edits, st.refused, st.diffs, st.removals, st.maps, st.ops_max_single);
    if (o.copies)
        printf("copies: %zu taken and diffed on %zu maps (%zu refused by apply)\n", st.copies, st.copy_maps,
               st.copies_refused);
    if (o.names)
        printf("renames: %zu taken, each diffed to one operation (%zu paths a file does not have)\n", st.renames,
               st.renames_refused);
    printf("edits taken:");
    for (int k = 0; k < E_KINDS; k++) printf(" %zu %s%s", st.by_kind[k], EDIT_KIND[k], k + 1 < E_KINDS ? "," : "");
    printf("; %zu of them on chunk lists\n", st.chunk_list_edits);
    CHECK(paths && (st.sequences || o.sequences == 0), "no sequence was drawn");
    CHECK(!o.copies || st.copies, "--copies, but no copy of a map's item or block was taken");
    CHECK(!o.removals || st.maps, "--removals, but no map with items or blocks was found");
    CHECK(!o.names || st.renames, "--names, but no name was renamed");
    if (test_failures) fprintf(stderr, "%d check(s) failed\n", test_failures);
    return test_failures ? 1 : 0;
}
