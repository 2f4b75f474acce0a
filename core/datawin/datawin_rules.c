/*
 * The game rules of data.win files (the datawin format's rules, core/doc/rules.h): what the runner
 * relies on that the byte format does not enforce. Most of a data.win's cross references are
 * plain indices into another chunk's list (an instance's object, a TPAG item's texture page, a
 * sound's audio group): the bytes hold any number, the runner indexes its asset arrays with it
 * and crashes or draws garbage when it is out of range. docs/formats/datawin.md "Game rules".
 *
 * A rule only checks what the model types: a reference whose chunk is kept opaque, or whose
 * target list is not in the model (no such chunk, or an opaque one), is not checked.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "core/doc/rules.h"
#include "core/datawin/datawin.h"

/* ---------- walking the model ---------- */

enum { MAX_DEPTH = 8, PATH_SIZE = 400 };

/* How a reference is spelled besides a plain index (flags of datawin_reference). */
enum {
    REF_MINUS_ONE_NONE = 1, /* -1: no reference (a sprite-less object, a null TPAG pointer) */
    REF_ZERO_DEFAULT = 2,   /* 0: the built-in default (audio group 0 exists without an AGRP entry) */
    REF_CODE_FLAG = 4,      /* bit 31 is a flag, the index is below it (2.3+ constructor scripts) */
    REF_EMBEDDED_AUDIO = 8, /* an AUDO index only when the sound is in the default audio group */
    /* may name an entry the compiler removed (GMAC's unused-asset removal leaves a null pointer
     * in SPRT and the texture group still lists it: TeaTree's data.win in tests/public/datawin.tsv) */
    REF_REMOVED_OK = 16
};

/* The values at `path` (keys, "*" for every element of a list) in chunk `chunk` index list
 * `list` of chunk `target` (docs/formats/datawin.md "Game rules" says why each one). */
typedef struct datawin_reference {
    const char *chunk, *path;
    const char *target, *list;
    unsigned flags;
    int64_t none; /* another value meaning "no reference" (OBJT's parent: -100), or 0 */
} datawin_reference;

static const datawin_reference REFERENCES[] = {
    {"GEN8", "roomOrder/*", "ROOM", "rooms", 0, 0},
    {"TPAG", "items/*/texturePage", "TXTR", "textures", 0, 0},
    {"SPRT", "sprites/*/frames/*", "TPAG", "items", REF_MINUS_ONE_NONE, 0},
    {"BGND", "backgrounds/*/texture", "TPAG", "items", REF_MINUS_ONE_NONE, 0},
    {"FONT", "fonts/*/texture", "TPAG", "items", REF_MINUS_ONE_NONE, 0},
    {"EMBI", "images/*/texture", "TPAG", "items", REF_MINUS_ONE_NONE, 0},
    /* GM:S 1.4 games (jtool in the corpus) have no AGRP entry and every sound in group 0 */
    {"SOND", "sounds/*/audioGroup", "AGRP", "groups", REF_ZERO_DEFAULT, 0},
    /* other groups' audio is in audiogroupN.dat, not in this file's AUDO */
    {"SOND", "sounds/*/audioFile", "AUDO", "sounds", REF_MINUS_ONE_NONE | REF_EMBEDDED_AUDIO, 0},
    {"OBJT", "objects/*/spriteId", "SPRT", "sprites", REF_MINUS_ONE_NONE, 0},
    {"OBJT", "objects/*/maskSpriteId", "SPRT", "sprites", REF_MINUS_ONE_NONE, 0},
    {"OBJT", "objects/*/parentId", "OBJT", "objects", REF_MINUS_ONE_NONE, -100},
    {"OBJT", "objects/*/eventTypes/*/events/*/actions/*/codeId", "CODE", "entries", REF_MINUS_ONE_NONE, 0},
    {"SCPT", "scripts/*/codeId", "CODE", "entries", REF_MINUS_ONE_NONE | REF_CODE_FLAG, 0},
    {"GLOB", "codeIds/*", "CODE", "entries", 0, 0},
    {"CODE", "entries/*/parent", "CODE", "entries", 0, 0},
    {"CODE", "entries/*/variableReferences/*/variable", "VARI", "variables", 0, 0},
    {"CODE", "entries/*/functionReferences/*/function", "FUNC", "functions", 0, 0},
    {"TGIN", "groups/*/texturePages/*", "TXTR", "textures", REF_REMOVED_OK, 0},
    {"TGIN", "groups/*/sprites/*", "SPRT", "sprites", REF_REMOVED_OK, 0},
    {"TGIN", "groups/*/spineSprites/*", "SPRT", "sprites", REF_REMOVED_OK, 0},
    {"TGIN", "groups/*/fonts/*", "FONT", "fonts", REF_REMOVED_OK, 0},
    {"TGIN", "groups/*/tilesets/*", "BGND", "backgrounds", REF_REMOVED_OK, 0}, /* GMS2 tile sets live in BGND */
    {"PSEM", "emitters/*/spriteId", "SPRT", "sprites", REF_MINUS_ONE_NONE, 0},
    {"PSYS", "systems/*/emitters/*", "PSEM", "emitters", 0, 0},
    {"ROOM", "rooms/*/creationCodeId", "CODE", "entries", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/backgrounds/*/backgroundId", "BGND", "backgrounds", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/views/*/objectId", "OBJT", "objects", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/instances/*/objectId", "OBJT", "objects", 0, 0},
    {"ROOM", "rooms/*/instances/*/creationCodeId", "CODE", "entries", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/instances/*/preCreateCodeId", "CODE", "entries", REF_MINUS_ONE_NONE, 0},
    /* a tile names a background in GM:S 1.x, a sprite in GMS2 (the model's key says which) */
    {"ROOM", "rooms/*/tiles/*/backgroundId", "BGND", "backgrounds", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/tiles/*/spriteId", "SPRT", "sprites", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/layers/*/spriteId", "SPRT", "sprites", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/layers/*/backgroundId", "BGND", "backgrounds", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/layers/*/legacyTiles/*/spriteId", "SPRT", "sprites", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/layers/*/sprites/*/spriteId", "SPRT", "sprites", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/layers/*/sequences/*/sequenceId", "SEQN", "sequences", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/layers/*/nineSlices/*/spriteId", "SPRT", "sprites", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/layers/*/particleSystems/*/particleSystemId", "PSYS", "systems", REF_MINUS_ONE_NONE, 0},
    {"ROOM", "rooms/*/layers/*/textItems/*/fontId", "FONT", "fonts", REF_MINUS_ONE_NONE, 0},
};

/* One step from the chunk down to a value: a key, or element `index` of `list`. */
typedef struct step {
    const char *key;
    const rb_node *list;
    size_t index;
} step;

typedef struct walk {
    rb_rule_run *run;
    const char *chunk;
    step steps[MAX_DEPTH];
    size_t depth;
    /* called with each value the path names (the step list says where it is) */
    void (*visit)(struct walk *w, const rb_node *value, const rb_node *holder);
    const void *context;
} walk;

static const rb_node *chunk_named(const rb_doc *doc, const char *id)
{
    const rb_node *chunks = rb_node_get(doc->root, "chunks");
    for (size_t i = 0; chunks && chunks->kind == RB_K_LIST && i < chunks->v.kids.count; i++) {
        const rb_node *c = chunks->v.kids.items[i], *name = rb_node_get(c, "id");
        if (name && name->kind == RB_K_STRING && name->v.bytes.size == 4 && !memcmp(name->v.bytes.data, id, 4))
            return c;
    }
    return NULL;
}

/* Element `i` of a list or a table, a packed record seen as a record (in `scratch`). */
static const rb_node *element_at(const rb_node *list, size_t i, rb_record_scratch *scratch)
{
    if (list->kind == RB_K_TABLE) return rb_table_element(list, i, scratch->nodes, scratch->kids);
    return rb_record_view(list->v.kids.items[i], scratch);
}

static int is_list(const rb_node *n) { return n && (n->kind == RB_K_LIST || n->kind == RB_K_TABLE); }

/* A string field as text, or NULL. */
static const rb_node *text_field(const rb_node *record, const char *key)
{
    const rb_node *n = record && record->kind == RB_K_RECORD ? rb_node_get(record, key) : NULL;
    return n && n->kind == RB_K_STRING ? n : NULL;
}

static int same_text(const rb_node *a, const rb_node *b)
{
    return a && b && a->v.bytes.size == b->v.bytes.size && !memcmp(a->v.bytes.data, b->v.bytes.data, a->v.bytes.size);
}

/* Appends `[name=...]` for element `index` of `list` when its name is unique there (assets,
 * layers), else its index; RFC 6901 and selector escapes:
 * docs/usage.md "Portable patches: identity, fingerprints, stacking". */
static void append_element(char *path, size_t size, const rb_node *list, size_t index)
{
    size_t n = strlen(path);
    rb_record_scratch a, b;
    const rb_node *name = list->kind == RB_K_LIST ? text_field(element_at(list, index, &a), "name") : NULL;
    for (size_t i = 0; name && i < rb_element_count(list); i++)
        if (i != index && same_text(name, text_field(element_at(list, i, &b), "name"))) name = NULL;
    if (!name || !name->v.bytes.size) {
        snprintf(path + n, size - n, "/%zu", index);
        return;
    }
    static const char SPECIAL[] = "~/,]";
    n += (size_t)snprintf(path + n, size - n, "/[name=");
    for (size_t i = 0; i < name->v.bytes.size && n + 3 < size; i++) {
        char c = (char)name->v.bytes.data[i];
        const char *special = c ? strchr(SPECIAL, c) : NULL;
        if (special) path[n++] = '~', path[n++] = (char)('0' + (special - SPECIAL));
        else path[n++] = c;
    }
    snprintf(path + n, size - n, "]");
}

/* The model path of the value the walk is at. */
static void walk_path(const walk *w, char *path, size_t size)
{
    snprintf(path, size, "/chunks/[id=%s]", w->chunk);
    for (size_t i = 0; i < w->depth; i++) {
        size_t n = strlen(path);
        if (w->steps[i].key) snprintf(path + n, size - n, "/%s", w->steps[i].key);
        else append_element(path, size, w->steps[i].list, w->steps[i].index);
    }
}

/* Follows `path` (keys and stars, as in REFERENCES) from `node`; `holder` is the record the value is in. */
static void walk_down(walk *w, const rb_node *node, const char *path, const rb_node *holder)
{
    if (!*path) {
        w->visit(w, node, holder);
        return;
    }
    if (w->depth >= MAX_DEPTH) return;
    const char *slash = strchr(path, '/');
    size_t len = slash ? (size_t)(slash - path) : strlen(path);
    const char *rest = slash ? slash + 1 : path + len;
    if (len == 1 && *path == '*') {
        if (!is_list(node)) return;
        for (size_t i = 0; i < rb_element_count(node); i++) {
            rb_record_scratch scratch;
            const rb_node *e = element_at(node, i, &scratch);
            w->steps[w->depth++] = (step){NULL, node, i};
            walk_down(w, e, rest, e && e->kind == RB_K_RECORD ? e : holder);
            w->depth--;
        }
        return;
    }
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)len, path);
    const rb_node *next = node && node->kind == RB_K_RECORD ? rb_node_get(node, key) : NULL;
    if (!next) return;
    w->steps[w->depth++] = (step){next->key, NULL, 0};
    walk_down(w, next, rest, holder);
    w->depth--;
}

static int64_t int_value(const rb_node *n)
{
    return n->wire & RB_W_SIGNED ? rb_node_int(n) : (int64_t)rb_node_uint(n);
}

/* ---------- references-in-range ---------- */

typedef struct target {
    const datawin_reference *ref;
    const rb_node *list;
} target;

static int is_removed(const rb_node *list, int64_t index)
{
    if (list->kind != RB_K_LIST) return 0;
    const rb_node *e = list->v.kids.items[index];
    const rb_node *removed = e->kind == RB_K_RECORD ? rb_node_get(e, "removed") : NULL;
    return removed && rb_node_uint(removed);
}

/* Whether `value` (of a record `holder`) needs no entry of the target list. */
static int needs_no_entry(const datawin_reference *ref, int64_t value, const rb_node *holder)
{
    if ((ref->flags & REF_MINUS_ONE_NONE) && value == -1) return 1;
    if (ref->none && value == ref->none) return 1;
    if ((ref->flags & REF_ZERO_DEFAULT) && value == 0) return 1;
    if (ref->flags & REF_EMBEDDED_AUDIO) {
        const rb_node *group = rb_node_get(holder, "audioGroup");
        if (group && rb_node_int(group) != 0) return 1;
    }
    return 0;
}

static void reference_in_range(walk *w, const rb_node *value, const rb_node *holder)
{
    const target *t = w->context;
    if (!value || value->kind != RB_K_INT) return;
    int64_t v = int_value(value);
    if (needs_no_entry(t->ref, v, holder)) return;
    if ((t->ref->flags & REF_CODE_FLAG) && v < 0) v &= 0x7FFFFFFF;
    size_t count = rb_element_count(t->list);
    const char *problem = v < 0 || (uint64_t)v >= count                            ? "is outside"
                          : !(t->ref->flags & REF_REMOVED_OK) && is_removed(t->list, v) ? "names a removed entry of"
                                                                                        : NULL;
    if (!problem) return;
    char path[PATH_SIZE];
    walk_path(w, path, sizeof path);
    rb_rule_violated(w->run, path, "%lld %s %s's %s (%zu entr%s)", (long long)int_value(value), problem,
                     t->ref->target, t->ref->list, count, count == 1 ? "y" : "ies");
}

static void references_in_range(rb_rule_run *r)
{
    for (size_t i = 0; i < sizeof REFERENCES / sizeof REFERENCES[0]; i++) {
        const datawin_reference *ref = &REFERENCES[i];
        const rb_node *source = chunk_named(r->doc, ref->chunk);
        const rb_node *list = rb_node_get(chunk_named(r->doc, ref->target), ref->list);
        if (!source || !is_list(list)) continue; /* only what the model types */
        target t = {ref, list};
        walk w = {.run = r, .chunk = ref->chunk, .visit = reference_in_range, .context = &t};
        walk_down(&w, source, ref->path, NULL);
    }
}

/* ---------- room-size-positive ---------- */

/* A room of width or height 0 has no area for its views and instances (every corpus room is at
 * least 400 by 400). */
static void size_positive(walk *w, const rb_node *value, const rb_node *holder)
{
    (void)holder;
    if (!value || value->kind != RB_K_INT || int_value(value) > 0) return;
    char path[PATH_SIZE];
    walk_path(w, path, sizeof path);
    rb_rule_violated(w->run, path, "a room's %s is %lld: it must be more than 0", value->key,
                     (long long)int_value(value));
}

static void room_size_positive(rb_rule_run *r)
{
    static const char *const PATHS[] = {"rooms/*/width", "rooms/*/height"};
    for (size_t i = 0; i < 2; i++) {
        walk w = {.run = r, .chunk = "ROOM", .visit = size_positive};
        walk_down(&w, chunk_named(r->doc, "ROOM"), PATHS[i], NULL);
    }
}

/* The references the rule checks, as `check --rules` lists them: "CHUNK path" -> "TARGET list"
 * and the values that name nothing. */
static json_t *references_data(void)
{
    json_t *o = json_object();
    for (size_t i = 0; i < sizeof REFERENCES / sizeof REFERENCES[0]; i++) {
        const datawin_reference *r = &REFERENCES[i];
        char key[128], value[256];
        snprintf(key, sizeof key, "%s %s", r->chunk, r->path);
        snprintf(value, sizeof value, "%s %s%s%s%s%s%s", r->target, r->list,
                 r->flags & REF_MINUS_ONE_NONE ? "; -1: none" : "", r->none ? "; -100: none" : "",
                 r->flags & REF_ZERO_DEFAULT ? "; 0: the default group" : "",
                 r->flags & REF_CODE_FLAG ? "; bit 31 a flag" : "",
                 r->flags & REF_REMOVED_OK ? "; may name a removed entry" : "");
        json_object_set_new(o, key, json_string(value));
    }
    return o;
}

/* What the rules read (rb_rule_reads.values): GEN8's room order and every chunk REFERENCES names, as
 * source or target (keep the two together); room-size-positive reads the rooms. */
static const char *const REFERENCE_READS[] = {
    "/chunks/[id=GEN8]/roomOrder", "/chunks/[id=ROOM]", "/chunks/[id=TPAG]", "/chunks/[id=TXTR]",
    "/chunks/[id=SPRT]", "/chunks/[id=BGND]", "/chunks/[id=FONT]", "/chunks/[id=EMBI]", "/chunks/[id=SOND]",
    "/chunks/[id=AGRP]", "/chunks/[id=AUDO]", "/chunks/[id=OBJT]", "/chunks/[id=CODE]", "/chunks/[id=SCPT]",
    "/chunks/[id=GLOB]", "/chunks/[id=VARI]", "/chunks/[id=FUNC]", "/chunks/[id=TGIN]", "/chunks/[id=PSEM]",
    "/chunks/[id=PSYS]", "/chunks/[id=SEQN]", NULL
};
static const char *const ROOM_READS[] = {"/chunks/[id=ROOM]", NULL};

static const rb_rule DATAWIN_RULES[] = {
    {"references-in-range",
     "an index one entry uses to name another (an instance's object, a sprite frame's TPAG item, a TPAG item's "
     "texture page, a sound's audio group, ...) is inside the list it indexes",
     references_in_range, RB_RULE_REFUSAL, references_data, .reads = {.values = REFERENCE_READS}},
    {"room-size-positive", "each room's width and height are more than 0", room_size_positive, RB_RULE_REFUSAL, NULL, .reads = {.values = ROOM_READS}},
};

const rb_rule *datawin_rules(size_t *count)
{
    *count = sizeof DATAWIN_RULES / sizeof DATAWIN_RULES[0];
    return DATAWIN_RULES;
}
