/*
 * GROFF names as text (docs/formats/tres.md "Names"). The file refers to every name by a
 * symbol handle (a leftover heap address of the exporter) and lists handle and text in its name
 * table, the model's `symbols`. Wherever the model holds a handle (RB_W_SYMBOL fields: section
 * names, region instances, object blocks, material textures) the JSON shows the text, when that
 * text leads back to this one handle; a text the file does not have gets a new symbol, whose
 * handle is the highest one plus 16 (the exporter's handles are 16 apart). The handles the file
 * has stay in `symbols`, so the round trip is exact.
 */
#include <stdlib.h>
#include <string.h>
#include "core/tres/groff_names.h"

enum { SECTION_HANDLES = 0x80000000u, HANDLE_STEP = 0x10 };

static const rb_node *symbols_of(const rb_doc *doc) { return rb_node_get(doc->root, "symbols"); }

/* The one handle `text` names in `symbols`: 0 found, -1 none, -2 several. */
static int handle_of_text(const rb_node *symbols, const char *text, size_t length, uint32_t *handle)
{
    int found = -1;
    for (size_t i = 0; symbols && i < symbols->v.kids.count; i++) {
        const rb_node *s = symbols->v.kids.items[i];
        if (!rb_node_text_equals(rb_node_get(s, "name"), text, length)) continue;
        uint32_t h = (uint32_t)rb_node_uint(rb_node_get(s, "handle"));
        if (found == 0 && h != *handle) return -2;
        *handle = h;
        found = 0;
    }
    return found;
}

/* ---------- the index: handle -> text and text -> handle, rebuilt after a read and each edit ---------- */

typedef struct name_entry {
    uint32_t handle;
    const uint8_t *text;
    size_t length;
} name_entry;

typedef struct name_index {
    name_entry *by_handle, *by_text;
    size_t count;
} name_index;

static int compare_handle(const void *x, const void *y)
{
    const name_entry *a = x, *b = y;
    return (a->handle > b->handle) - (a->handle < b->handle);
}

static int compare_text(const void *x, const void *y)
{
    const name_entry *a = x, *b = y;
    size_t n = a->length < b->length ? a->length : b->length;
    int c = n ? memcmp(a->text, b->text, n) : 0;
    return c ? c : (a->length > b->length) - (a->length < b->length);
}

void groff_names_free_index(void *index)
{
    name_index *x = index;
    if (!x) return;
    free(x->by_handle);
    free(x->by_text);
    free(x);
}

void groff_names_index(rb_doc *doc)
{
    groff_names_free_index(doc->format_index);
    doc->format_index = NULL;
    const rb_node *symbols = symbols_of(doc);
    size_t n = symbols ? symbols->v.kids.count : 0;
    name_index *x = calloc(1, sizeof *x);
    if (!x) return;
    x->by_handle = malloc((n ? n : 1) * sizeof *x->by_handle);
    x->by_text = malloc((n ? n : 1) * sizeof *x->by_text);
    if (!x->by_handle || !x->by_text) { groff_names_free_index(x); return; }
    for (size_t i = 0; i < n; i++) {
        const rb_node *s = symbols->v.kids.items[i], *name = rb_node_get(s, "name");
        if (!name || name->kind != RB_K_STRING) continue;
        name_entry e = {(uint32_t)rb_node_uint(rb_node_get(s, "handle")), name->v.bytes.data, name->v.bytes.size};
        x->by_handle[x->count] = e;
        x->by_text[x->count++] = e;
    }
    qsort(x->by_handle, x->count, sizeof *x->by_handle, compare_handle);
    qsort(x->by_text, x->count, sizeof *x->by_text, compare_text);
    doc->format_index = x;
}

/* The first entry of the run of `key` in `sorted` (by `compare`), or NULL. */
static const name_entry *run_of(const name_entry *sorted, size_t count, const name_entry *key,
                                int (*compare)(const void *, const void *))
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (compare(&sorted[mid], key) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < count && compare(&sorted[lo], key) == 0 ? &sorted[lo] : NULL;
}

/* Every entry of the run starting at `first` agrees on `what` (handle or text). */
static int run_agrees(const name_entry *first, const name_entry *end, int (*compare)(const void *, const void *),
                      int (*what)(const void *, const void *))
{
    for (const name_entry *e = first + 1; e < end && compare(e, first) == 0; e++)
        if (what(e, first) != 0) return 0;
    return 1;
}

static const char *indexed_text(const name_index *x, uint32_t handle, size_t *length)
{
    name_entry key = {handle, NULL, 0};
    const name_entry *h = run_of(x->by_handle, x->count, &key, compare_handle);
    if (!h || !run_agrees(h, x->by_handle + x->count, compare_handle, compare_text)) return NULL;
    const name_entry *t = run_of(x->by_text, x->count, h, compare_text);
    if (!t || !run_agrees(t, x->by_text + x->count, compare_text, compare_handle)) return NULL;
    const char *text = (const char *)h->text;
    if (!h->length || memchr(text, 0, h->length) || (h->length >= 2 && text[0] == '0' && text[1] == 'x')) return NULL;
    *length = h->length;
    return text;
}

const char *groff_symbol_text(const rb_doc *doc, uint32_t handle, size_t *length)
{
    if (doc->format_index) return indexed_text(doc->format_index, handle, length);
    const rb_node *symbols = symbols_of(doc), *text = NULL;
    for (size_t i = 0; symbols && i < symbols->v.kids.count; i++) {
        const rb_node *s = symbols->v.kids.items[i];
        if ((uint32_t)rb_node_uint(rb_node_get(s, "handle")) != handle) continue;
        const rb_node *name = rb_node_get(s, "name");
        if (!name || name->kind != RB_K_STRING || (text && !rb_node_text_equals(name, (const char *)text->v.bytes.data, text->v.bytes.size)))
            return NULL;
        text = name;
    }
    if (!text || !text->v.bytes.size || memchr(text->v.bytes.data, 0, text->v.bytes.size)) return NULL;
    const char *t = (const char *)text->v.bytes.data;
    size_t n = text->v.bytes.size;
    uint32_t back = 0;
    /* a text spelled like a handle, or shared with another handle, stays a handle */
    if ((n >= 2 && t[0] == '0' && t[1] == 'x') || handle_of_text(symbols, t, n, &back) != 0 || back != handle) return NULL;
    *length = n;
    return t;
}

static uint32_t next_handle(uint32_t highest)
{
    uint32_t h = (highest | (HANDLE_STEP - 1)) + 1;
    return h && h < SECTION_HANDLES ? h : 0;
}

/* A symbol record as the description reads one: the handle, then the text. */
static rb_node *new_symbol(rb_arena *arena, uint32_t handle, const char *text, size_t length)
{
    rb_node *s = rb_node_new(arena, RB_K_RECORD, NULL), *h = rb_node_new(arena, RB_K_INT, "handle");
    rb_node *name = rb_node_new(arena, RB_K_STRING, "name");
    uint8_t *copy = rb_arena_alloc(arena, length ? length : 1);
    if (!s || !h || !name || !copy) return NULL;
    h->wire = RB_X32;
    h->v.bits = handle;
    memcpy(copy, text, length);
    name->v.bytes.data = copy;
    name->v.bytes.size = length;
    return rb_node_append(arena, s, h) && rb_node_append(arena, s, name) ? s : NULL;
}

/* ---------- scene block names: the hash of an instance's name ---------- */

/* The blocks of a scene or savegame that are not an instance's; every other block is named by
 * the hash of an instance's name (docs/formats/tres.md "SCN and savegame blocks"). */
static const char *const SCENE_FIXED_NAMES[] = {"Header", "Partitions", "Hierarchy", "TerrainHierarchy",
                                                "TriggerHierarchy", "SaveGameName", "SaveSCNName", "SaveBMP"};

int groff_is_block_hash(const char *text, size_t length)
{
    if (length == 0 || length > 8 || (length > 1 && text[0] == '0')) return 0;
    for (size_t i = 0; i < length; i++)
        if (!((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'A' && text[i] <= 'F'))) return 0;
    return 1;
}

int groff_is_scene_fixed_name(const char *text, size_t length)
{
    for (size_t i = 0; i < sizeof SCENE_FIXED_NAMES / sizeof *SCENE_FIXED_NAMES; i++)
        if (strlen(SCENE_FIXED_NAMES[i]) == length && !memcmp(SCENE_FIXED_NAMES[i], text, length)) return 1;
    return 0;
}

/* In a scene (its name table has "Header"), a new name that is neither a fixed block name nor a
 * hash already is an instance's name: the block takes its hash (rb_tres_block_name) in `hashed`,
 * so renaming a block by the instance's name is one edit. Returns the text to use. */
static const char *scene_block_text(const rb_node *symbols, const char *text, size_t *length, char hashed[9])
{
    uint32_t unused;
    if (handle_of_text(symbols, "Header", 6, &unused) == -1 || groff_is_block_hash(text, *length) ||
        groff_is_scene_fixed_name(text, *length))
        return text;
    char name[256];
    if (*length >= sizeof name || memchr(text, 0, *length)) return text;
    memcpy(name, text, *length);
    name[*length] = 0;
    rb_tres_block_name(name, hashed);
    *length = strlen(hashed);
    return hashed;
}

int groff_symbol_handle(rb_doc *doc, const char *text, size_t length, int create, uint32_t *handle)
{
    rb_node *symbols = rb_node_get(doc->root, "symbols");
    if (handle_of_text(symbols, text, length, handle) == 0) return 0;
    char hashed[9];
    if (create) text = scene_block_text(symbols, text, &length, hashed);
    if (handle_of_text(symbols, text, length, handle) == 0) return 0;
    if (!create || !symbols || symbols->kind != RB_K_LIST || !length) return -1;
    uint32_t highest = 0;
    for (size_t i = 0; i < symbols->v.kids.count; i++) {
        uint32_t h = (uint32_t)rb_node_uint(rb_node_get(symbols->v.kids.items[i], "handle"));
        if (h < SECTION_HANDLES && h > highest) highest = h;
    }
    *handle = next_handle(highest);
    rb_node *s = *handle ? new_symbol(&doc->arena, *handle, text, length) : NULL;
    if (!s || !rb_node_append(&doc->arena, symbols, s)) return -1;
    groff_names_index(doc);
    return 0;
}

/* ---------- FROM_JSON: the names of the JSON's name table ---------- */

static const char *json_text(const json_t *symbol, size_t *length)
{
    const json_t *name = json_object_get(symbol, "name");
    *length = json_string_length(name);
    return json_string_value(name);
}

static uint32_t json_handle(const json_t *symbol)
{
    const char *h = json_string_value(json_object_get(symbol, "handle"));
    return h ? (uint32_t)strtoul(h, NULL, 16) : (uint32_t)json_integer_value(json_object_get(symbol, "handle"));
}

/* Does the JSON's name table still have `handle`? */
static int json_has_handle(const groff_json_names *names, uint32_t handle)
{
    for (size_t i = 0; i < json_array_size(names->symbols); i++)
        if (json_handle(json_array_get(names->symbols, i)) == handle) return 1;
    return 0;
}

static int resolve_from_json(void *context, const char *text, size_t length, uint32_t *handle)
{
    groff_json_names *names = context;
    /* a text the original file has names the handle it had there, whatever the JSON's table now
     * calls it: renaming a symbol renames its uses, as an edit of the model does */
    if (names->original && handle_of_text(symbols_of(names->original), text, length, handle) == 0 &&
        json_has_handle(names, *handle))
        return 0;
    int found = -1;
    for (size_t i = 0; i < json_array_size(names->symbols); i++) {
        size_t n;
        const json_t *s = json_array_get(names->symbols, i);
        const char *t = json_text(s, &n);
        if (!t || n != length || memcmp(t, text, length)) continue;
        if (found == 0 && json_handle(s) != *handle) return -1; /* ambiguous: the JSON must give the handle */
        *handle = json_handle(s);
        found = 0;
    }
    if (found == 0) return 0;
    for (size_t i = 0; i < names->added_count; i++)
        if (names->added_length[i] == length && !memcmp(names->added_text[i], text, length)) {
            *handle = names->added_handle[i];
            return 0;
        }
    if (names->added_count == GROFF_MAX_NEW_NAMES || !length) return -1;
    *handle = next_handle(names->highest);
    if (!*handle) return -1;
    names->highest = *handle;
    names->added_text[names->added_count] = text;
    names->added_length[names->added_count] = length;
    names->added_handle[names->added_count++] = *handle;
    return 0;
}

void groff_names_from_json_begin(rb_ar *ar, groff_json_names *names)
{
    memset(names, 0, sizeof *names);
    if (rb_ar_direction(ar) != RB_AR_FROM_JSON) return;
    names->symbols = rb_ar_json_member(ar, "symbols");
    names->original = rb_ar_doc(ar)->blob_source;
    if (names->original && names->original->format != rb_ar_doc(ar)->format) names->original = NULL;
    /* its name table is read: a source read deferred (rebyte build's) keeps it as nodes
     * (docs/formats/tres.md "The deferred model") */
    for (size_t i = 0; i < json_array_size(names->symbols); i++) {
        uint32_t h = json_handle(json_array_get(names->symbols, i));
        if (h < SECTION_HANDLES && h > names->highest) names->highest = h;
    }
    rb_ar_set_symbol_resolver(ar, resolve_from_json, names);
}

void groff_names_from_json_end(rb_ar *ar, groff_json_names *names, rb_node *symbols)
{
    if (rb_ar_direction(ar) != RB_AR_FROM_JSON) return;
    rb_ar_set_symbol_resolver(ar, NULL, NULL);
    RB_AR_EACH(ar, i, names->added_count) {
        rb_node *s = symbols ? new_symbol(rb_ar_arena(ar), names->added_handle[i], names->added_text[i], names->added_length[i])
                             : NULL;
        if (!s || !rb_node_append(rb_ar_arena(ar), symbols, s)) rb_ar_fail(ar, RB_E_NOMEM, "out of memory for a new name");
    }
}

json_t *groff_written_lists(const rb_doc *doc)
{
    return symbols_of(doc) ? json_pack("[s]", "/symbols") : NULL;
}
