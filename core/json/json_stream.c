/*
 * A large JSON text read piecewise (json_stream.h). The scan below finds where values begin and
 * end (strings and nesting only); it decodes nothing: every value, key and element is decoded by
 * jansson from its own range of the text, which also checks it. A value of up to LOAD_AT_ONCE
 * bytes is decoded whole; a larger object member by member; a larger array is made of
 * placeholders, and its elements are decoded a window at a time when the archive reaches them
 * (archive.c json_member), the window before freed. Arrays are read in order by the descriptions,
 * so one window per open array is alive.
 */
#include "core/json/json_stream.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/json/json.h"

enum {
    LOAD_AT_ONCE = 64 * 1024, /* a value of up to this many bytes of text is decoded whole */
    WINDOW = 64 * 1024,       /* elements decoded together, about this many bytes of text */
    SCAN_BUFFER = 64 * 1024,
    MAX_NESTING = 2048,       /* jansson's own cap (JSON_PARSER_MAX_DEPTH), far deeper than any model */
};

typedef struct lazy_array {
    json_t *array;          /* in the tree, which owns it */
    uint64_t *starts, *ends; /* each element's text */
    size_t count;
    size_t lo, hi;          /* the decoded window */
    struct lazy_array *parent; /* decoded as part of this array's window (freed with it) */
    int pinned;             /* filled for good (rb_json_loader_fill) */
} lazy_array;

struct rb_json_loader {
    int fd;
    const uint8_t *memory;
    uint64_t size;
    const char *name;
    uint8_t *buffer;        /* scan window over a file */
    uint64_t buffer_at;
    size_t buffer_len;
    lazy_array **arrays;    /* live ones */
    size_t array_count, array_cap;
    lazy_array *loading;    /* whose window is being decoded: the parent of arrays made meanwhile */
    char *why;
    size_t why_size;
    int failed;
    uint64_t load_at_once, window; /* LOAD_AT_ONCE, WINDOW (tests make them small) */
    uint64_t *known_starts, *known_ends; /* ends_known: open addressing, a start stored plus one (0: free) */
    size_t known_count, known_cap;
};

/* ---------- the text ---------- */

static int fail(rb_json_loader *l, uint64_t at, const char *what);

/* The byte at `at`, -1 past the end. */
static int byte_at(rb_json_loader *l, uint64_t at)
{
    if (at >= l->size) return -1;
    if (l->memory) return l->memory[at];
    if (at < l->buffer_at || at >= l->buffer_at + l->buffer_len) {
        ssize_t n = pread(l->fd, l->buffer, SCAN_BUFFER, (off_t)at);
        if (n <= 0) return fail(l, at, "the text could not be read"), -1;
        l->buffer_at = at;
        l->buffer_len = (size_t)n;
    }
    return l->buffer[at - l->buffer_at];
}

/* The text [from, to) in a buffer (malloc'd, or the memory itself in *view). */
static const char *text_of(rb_json_loader *l, uint64_t from, uint64_t to, char **owned)
{
    *owned = NULL;
    if (l->memory) return (const char *)l->memory + from;
    size_t n = (size_t)(to - from);
    *owned = malloc(n ? n : 1);
    if (!*owned) return fail(l, from, "out of memory"), NULL;
    size_t done = 0;
    while (done < n) {
        ssize_t r = pread(l->fd, *owned + done, n - done, (off_t)(from + done));
        if (r <= 0) {
            free(*owned);
            *owned = NULL;
            return fail(l, from + done, "the text could not be read"), NULL;
        }
        done += (size_t)r;
    }
    return *owned;
}

/* Line and column of `at`, for messages that point into a text people open in an editor. */
static void line_of(rb_json_loader *l, uint64_t at, unsigned long *line, unsigned long *column)
{
    *line = 1;
    *column = 1;
    for (uint64_t i = 0; i < at; i++) {
        int c = byte_at(l, i);
        if (c < 0) break;
        if (c == '\n') { ++*line; *column = 1; }
        else ++*column;
    }
}

static int fail(rb_json_loader *l, uint64_t at, const char *what)
{
    if (l->failed) return 0;
    l->failed = 1;
    unsigned long line, column;
    line_of(l, at, &line, &column);
    if (l->why) snprintf(l->why, l->why_size, "not JSON: %lu:%lu: %s (byte %llu)", line, column, what,
                         (unsigned long long)at);
    return 0;
}

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static uint64_t skip_space(rb_json_loader *l, uint64_t at)
{
    while (is_space(byte_at(l, at))) at++;
    return at;
}

/* The text from `at` on, as many bytes as are at hand (*n > 0); NULL at the end. */
static const uint8_t *bytes_from(rb_json_loader *l, uint64_t at, size_t *n)
{
    if (byte_at(l, at) < 0) return NULL;
    if (l->memory) {
        *n = (size_t)(l->size - at);
        return l->memory + at;
    }
    *n = l->buffer_len - (size_t)(at - l->buffer_at);
    return l->buffer + (at - l->buffer_at);
}

/* Where strings and brackets are, followed a buffer at a time (this scan is most of the reader's
 * time on a large text). */
static const uint8_t SPECIAL[256] = {['"'] = 1, ['\\'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1};

typedef struct scan {
    size_t depth;
    int in_string, escaped;
} scan;

/* ---------- ends already found ---------- */

/* Every object or array of more than load_at_once bytes a scan passed over, by its start: each is
 * loaded on its own next (member by member, or element by element) and would be scanned again at
 * every level of nesting; with its end at hand the text is scanned once. */
static size_t known_slot(const rb_json_loader *l, uint64_t start)
{
    size_t i = (size_t)((start * 0x9E3779B97F4A7C15ull) >> 20) & (l->known_cap - 1);
    while (l->known_starts[i] && l->known_starts[i] != start + 1) i = (i + 1) & (l->known_cap - 1);
    return i;
}

static uint64_t known_end(const rb_json_loader *l, uint64_t start)
{
    if (!l->known_count) return 0;
    size_t i = known_slot(l, start);
    return l->known_starts[i] ? l->known_ends[i] : 0;
}

/* Remembered when there is memory for it (else the container is scanned again when loaded). */
static void remember_end(rb_json_loader *l, uint64_t start, uint64_t end)
{
    if (2 * (l->known_count + 1) > l->known_cap) {
        size_t cap = l->known_cap ? 2 * l->known_cap : 256;
        uint64_t *starts = calloc(cap, sizeof *starts), *ends = starts ? malloc(cap * sizeof *ends) : NULL;
        if (!ends) { free(starts); return; }
        rb_json_loader grown = {.known_starts = starts, .known_ends = ends, .known_cap = cap};
        for (size_t k = 0; k < l->known_cap; k++) {
            if (!l->known_starts[k]) continue;
            size_t i = known_slot(&grown, l->known_starts[k] - 1);
            starts[i] = l->known_starts[k];
            ends[i] = l->known_ends[k];
        }
        free(l->known_starts);
        free(l->known_ends);
        l->known_starts = starts;
        l->known_ends = ends;
        l->known_cap = cap;
    }
    size_t i = known_slot(l, start);
    l->known_count += !l->known_starts[i];
    l->known_starts[i] = start + 1;
    l->known_ends[i] = end;
}

/* The end of the string, object or array starting at `at` (0 and a failure when it does not end). */
static uint64_t structure_end(rb_json_loader *l, uint64_t at)
{
    uint64_t known = known_end(l, at);
    if (known) return known;
    scan st = {0};
    uint64_t opened[MAX_NESTING + 1]; /* where each open container began */
    for (uint64_t i = at;;) {
        size_t n;
        const uint8_t *p = bytes_from(l, i, &n);
        if (!p) return fail(l, at, "a string, object or array does not end"), 0;
        for (size_t k = 0; k < n; k++) {
            /* most bytes are neither quotes, backslashes nor brackets: passed over in a tight loop */
            while (k < n && !SPECIAL[p[k]] && !st.escaped) k++;
            if (k == n) break;
            uint8_t c = p[k];
            if (st.in_string) {
                if (st.escaped) st.escaped = 0;
                else if (c == '\\') st.escaped = 1;
                else if (c == '"') {
                    st.in_string = 0;
                    if (st.depth == 0) return i + k + 1;
                }
            } else if (c == '"') {
                st.in_string = 1;
            } else if (c == '{' || c == '[') {
                if (st.depth == MAX_NESTING) return fail(l, i + k, "nested too deep"), 0;
                opened[st.depth++] = i + k;
            } else if ((c == '}' || c == ']') && st.depth) {
                uint64_t start = opened[--st.depth], end = i + k + 1;
                if (end - start > l->load_at_once) remember_end(l, start, end);
                if (st.depth == 0) return end;
            }
        }
        i += n;
    }
}

static uint64_t string_end(rb_json_loader *l, uint64_t at) { return structure_end(l, at); }

/* The end of the value starting at `at`: strings and brackets followed, the rest left to jansson. */
static uint64_t value_end(rb_json_loader *l, uint64_t at)
{
    int c = byte_at(l, at);
    if (c == '"' || c == '{' || c == '[') return structure_end(l, at);
    uint64_t i = at;
    for (; (c = byte_at(l, i)) >= 0 && !is_space(c) && c != ',' && c != ']' && c != '}' && c != ':'; i++) {}
    return i > at ? i : (fail(l, at, c < 0 ? "a value is missing" : "a value was expected"), 0);
}

/* ---------- values ---------- */

static json_t *load_value(rb_json_loader *l, uint64_t from, uint64_t to);

/* [from, to) decoded by jansson; relative {"$file": ...} resolved beside the text. */
static json_t *decode(rb_json_loader *l, uint64_t from, uint64_t to)
{
    char *owned;
    const char *text = text_of(l, from, to, &owned);
    if (!text) return NULL;
    json_error_t jerr;
    json_t *v = json_loadb(text, (size_t)(to - from), JSON_ALLOW_NUL | JSON_DECODE_ANY, &jerr);
    free(owned);
    if (!v) {
        if (from == 0 && to == l->size) { /* the whole text: jansson's own place */
            if (l->why) snprintf(l->why, l->why_size, "not JSON: %d:%d: %s", jerr.line, jerr.column, jerr.text);
            l->failed = 1;
        } else {
            fail(l, from + (uint64_t)(jerr.position > 0 ? jerr.position - 1 : 0), jerr.text);
        }
        return NULL;
    }
    rb_json_resolve_files(v, l->name);
    return v;
}

static int add_array(rb_json_loader *l, lazy_array *a)
{
    if (l->array_count == l->array_cap) {
        size_t cap = l->array_cap ? l->array_cap * 2 : 16;
        lazy_array **bigger = realloc(l->arrays, cap * sizeof *bigger);
        if (!bigger) return 0;
        l->arrays = bigger;
        l->array_cap = cap;
    }
    l->arrays[l->array_count++] = a;
    return 1;
}

static void free_array(lazy_array *a)
{
    free(a->starts);
    free(a->ends);
    free(a);
}

/* A large array: each element's range found, placeholders (null) in their place. */
static json_t *lazy_array_of(rb_json_loader *l, uint64_t from)
{
    lazy_array *a = calloc(1, sizeof *a);
    json_t *array = json_array();
    size_t cap = 0;
    uint64_t at = skip_space(l, from + 1);
    int ok = a && array;
    if (ok && byte_at(l, at) == ']') at = 0; /* empty */
    while (ok && at) {
        uint64_t end = value_end(l, at);
        if (!end) { ok = 0; break; }
        if (a->count == cap) {
            cap = cap ? cap * 2 : 64;
            uint64_t *s = realloc(a->starts, cap * sizeof *s), *e = s ? realloc(a->ends, cap * sizeof *e) : NULL;
            if (s) a->starts = s;
            if (!e) { ok = fail(l, at, "out of memory"); break; }
            a->ends = e;
        }
        a->starts[a->count] = at;
        a->ends[a->count++] = end;
        ok = json_array_append_new(array, json_null()) == 0;
        at = skip_space(l, end);
        int c = byte_at(l, at);
        if (c == ']') break;
        if (c != ',') { ok = fail(l, at, "',' or ']' expected"); break; }
        at = skip_space(l, at + 1);
    }
    if (ok) {
        a->array = array;
        a->parent = l->loading;
        ok = add_array(l, a);
    }
    if (!ok) {
        fail(l, from, "out of memory");
        if (a) free_array(a);
        json_decref(array);
        return NULL;
    }
    return array;
}

static lazy_array *lazy_of(rb_json_loader *l, const json_t *array);
static void release_window(rb_json_loader *l, lazy_array *a);

/* A value a repeated member name replaces (the last one counts, as in jansson): what of it was not
 * decoded yet is decoded and dropped, so the text is checked as a whole read would check it, and
 * its arrays leave the list before their memory is freed. 0 when that text is not JSON. */
static int retire_value(rb_json_loader *l, json_t *v)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *m;
        json_object_foreach(v, k, m) if (!retire_value(l, m)) return 0;
        return 1;
    }
    if (!json_is_array(v)) return 1;
    lazy_array *a = lazy_of(l, v);
    for (size_t i = 0; i < json_array_size(v); i++) {
        if (a && !a->pinned && (i < a->lo || i >= a->hi)) {
            json_t *e = decode(l, a->starts[i], a->ends[i]);
            json_decref(e);
            if (!e) return 0;
        } else if (!retire_value(l, json_array_get(v, i))) {
            return 0;
        }
    }
    if (!a) return 1;
    release_window(l, a);
    for (size_t i = 0; i < l->array_count; i++)
        if (l->arrays[i] == a) l->arrays[i] = l->arrays[--l->array_count];
    free_array(a);
    return 1;
}

/* A large object: member by member (each value loaded by its own size). */
static json_t *object_of(rb_json_loader *l, uint64_t from)
{
    json_t *object = json_object();
    uint64_t at = skip_space(l, from + 1);
    if (object && byte_at(l, at) == '}') return object;
    while (object) {
        uint64_t key_end = byte_at(l, at) == '"' ? string_end(l, at) : (fail(l, at, "a member name expected"), 0);
        json_t *key = key_end ? decode(l, at, key_end) : NULL;
        if (key && strlen(json_string_value(key)) != json_string_length(key)) {
            fail(l, at, "a member name holds a NUL byte"); /* as jansson refuses it */
            json_decref(key);
            key = NULL;
        }
        uint64_t colon = skip_space(l, key_end);
        uint64_t value_at = skip_space(l, colon + 1);
        if (key && byte_at(l, colon) != ':') fail(l, colon, "':' expected");
        uint64_t end = key && !l->failed ? value_end(l, value_at) : 0;
        json_t *value = end ? load_value(l, value_at, end) : NULL;
        json_t *earlier = value ? json_object_get(object, json_string_value(key)) : NULL;
        if (earlier && !retire_value(l, earlier)) {
            json_decref(value);
            value = NULL;
        }
        int ok = value && json_object_set_new(object, json_string_value(key), value) == 0;
        json_decref(key);
        at = ok ? skip_space(l, end) : 0;
        int c = ok ? byte_at(l, at) : -1;
        if (c == '}') return object;
        if (ok && c != ',') fail(l, at, "',' or '}' expected");
        if (c != ',') break;
        at = skip_space(l, at + 1);
    }
    json_decref(object);
    return NULL;
}

static json_t *load_value(rb_json_loader *l, uint64_t from, uint64_t to)
{
    int c = byte_at(l, from);
    if (to - from <= l->load_at_once || (c != '{' && c != '[')) return decode(l, from, to);
    return c == '{' ? object_of(l, from) : lazy_array_of(l, from);
}

/* ---------- windows ---------- */

static lazy_array *lazy_of(rb_json_loader *l, const json_t *array)
{
    for (size_t i = l->array_count; i-- > 0;)
        if (l->arrays[i]->array == array) return l->arrays[i];
    return NULL;
}

/* The arrays decoded as part of `parent`'s window go with it (their memory is about to be freed):
 * taken out of the list (left NULL), theirs with them. */
static void drop_children(rb_json_loader *l, const lazy_array *parent)
{
    for (size_t i = 0; i < l->array_count; i++) {
        lazy_array *a = l->arrays[i];
        if (!a || a->parent != parent) continue;
        l->arrays[i] = NULL;
        drop_children(l, a);
        free_array(a);
    }
}

static void forget_children(rb_json_loader *l, const lazy_array *parent)
{
    drop_children(l, parent);
    size_t kept = 0;
    for (size_t i = 0; i < l->array_count; i++)
        if (l->arrays[i]) l->arrays[kept++] = l->arrays[i];
    l->array_count = kept;
}

static void release_window(rb_json_loader *l, lazy_array *a)
{
    forget_children(l, a);
    for (size_t i = a->lo; i < a->hi; i++) json_array_set_new(a->array, i, json_null());
    a->lo = a->hi = 0;
}

/* Elements from `index` on, about WINDOW bytes of text (at least one), decoded in place. */
static int load_window(rb_json_loader *l, lazy_array *a, size_t index)
{
    release_window(l, a);
    lazy_array *outer = l->loading;
    l->loading = a;
    size_t i = index;
    uint64_t budget = 0;
    do {
        json_t *v = load_value(l, a->starts[i], a->ends[i]);
        if (!v || json_array_set_new(a->array, i, v) != 0) break;
        budget += a->ends[i] - a->starts[i];
        i++;
    } while (i < a->count && budget + (a->ends[i] - a->starts[i]) <= l->window);
    l->loading = outer;
    a->lo = index;
    a->hi = i;
    if (l->failed || i == index) {
        release_window(l, a);
        return 0;
    }
    return 1;
}

static void set_why(rb_json_loader *l, char *why, size_t why_size)
{
    l->why = why;
    l->why_size = why_size;
    if (why_size) why[0] = 0;
}

json_t *rb_json_loader_element(rb_json_loader *l, json_t *array, size_t index, char *why, size_t why_size)
{
    set_why(l, why, why_size);
    lazy_array *a = lazy_of(l, array);
    if (!a || a->pinned) return json_array_get(array, index);
    if (index >= a->count) return NULL;
    if ((index < a->lo || index >= a->hi) && !load_window(l, a, index)) return NULL;
    return json_array_get(array, index);
}

int rb_json_loader_fill(rb_json_loader *l, json_t *value, char *why, size_t why_size)
{
    set_why(l, why, why_size);
    lazy_array *a = json_is_array(value) ? lazy_of(l, value) : NULL;
    if (!a || a->pinned) return 1;
    release_window(l, a);
    for (size_t i = 0; i < a->count; i++) {
        json_t *v = decode(l, a->starts[i], a->ends[i]); /* whole: the caller indexes it freely */
        if (!v || json_array_set_new(a->array, i, v) != 0) return 0;
    }
    a->pinned = 1;
    return 1;
}

/* ---------- the loader ---------- */

static rb_json_loader *loader_new(const char *name)
{
    rb_json_loader *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->name = name;
    l->load_at_once = LOAD_AT_ONCE;
    l->window = WINDOW;
    return l;
}

rb_json_loader *rb_json_loader_fd(int fd, uint64_t size, const char *name)
{
    rb_json_loader *l = loader_new(name);
    if (!l) return NULL;
    l->fd = fd;
    l->size = size;
    l->buffer = malloc(SCAN_BUFFER);
    if (!l->buffer) { free(l); return NULL; }
    return l;
}

rb_json_loader *rb_json_loader_memory(const char *text, size_t size, const char *name)
{
    rb_json_loader *l = loader_new(name);
    if (!l) return NULL;
    l->memory = (const uint8_t *)text;
    l->size = size;
    return l;
}

/* The arrays of an earlier root are forgotten: its tree is gone or going, and an array of the new
 * one may be given the same address. */
static void forget_all(rb_json_loader *l)
{
    for (size_t i = 0; i < l->array_count; i++) free_array(l->arrays[i]);
    l->array_count = 0;
}

void rb_json_loader_set_sizes(rb_json_loader *l, uint64_t load_at_once, uint64_t window)
{
    l->load_at_once = load_at_once;
    l->window = window;
}

void rb_json_loader_free(rb_json_loader *l)
{
    if (!l) return;
    forget_all(l);
    free(l->arrays);
    free(l->buffer);
    free(l->known_starts);
    free(l->known_ends);
    free(l);
}

json_t *rb_json_loader_root(rb_json_loader *l, char *why, size_t why_size)
{
    set_why(l, why, why_size);
    l->failed = 0;
    forget_all(l);
    uint64_t from = skip_space(l, 0);
    int c = byte_at(l, from);
    if (l->size <= l->load_at_once || (c != '{' && c != '[')) return decode(l, 0, l->size);
    uint64_t end = value_end(l, from);
    if (!end) return NULL;
    if (skip_space(l, end) != l->size) return fail(l, skip_space(l, end), "end of file expected"), NULL;
    return load_value(l, from, end);
}

json_t *rb_json_loader_member(rb_json_loader *l, const char *key)
{
    set_why(l, NULL, 0);
    l->failed = 0;
    uint64_t at = skip_space(l, 0);
    if (byte_at(l, at) != '{') return NULL;
    at = skip_space(l, at + 1);
    while (byte_at(l, at) == '"' && !l->failed) {
        uint64_t key_end = string_end(l, at);
        json_t *name = key_end ? decode(l, at, key_end) : NULL;
        uint64_t colon = skip_space(l, key_end), value_at = skip_space(l, colon + 1);
        uint64_t end = name && byte_at(l, colon) == ':' ? value_end(l, value_at) : 0;
        int found = end && strcmp(json_string_value(name), key) == 0;
        json_decref(name);
        if (!end) return NULL;
        if (found) return decode(l, value_at, end);
        at = skip_space(l, end);
        if (byte_at(l, at) != ',') return NULL;
        at = skip_space(l, at + 1);
    }
    return NULL;
}
