/*
 * The game rules of GBX maps (the gbx format's rules, core/doc/rules.h): invariants the game relies
 * on that the byte format does not enforce, found before the game finds them ("Couldn't load
 * map!"). `rebyte check` runs them; apply refuses an edit that breaks one. Chunk ids are matched
 * as stored: TM 2003-2006 maps use the engine-0x24 ids (docs/formats/gbx.md "Game rules").
 */
#define _GNU_SOURCE /* FNM_CASEFOLD */
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/json/json.h"
#include "core/doc/rules.h"
#include "core/gbx/map/map.h"
#include "core/gbx/map/map_header.h"

/* The map chunk `low` (0x01F, ...) of chunk list `chunks` under either id family: 0x03043xxx
 * or the legacy 0x24003xxx. NULL for none or several. */
static const rb_node *map_chunk(const rb_node *chunks, uint32_t low, uint32_t *id_out)
{
    const rb_node *found = NULL;
    for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
        const rb_node *c = chunks->v.kids.items[i];
        uint32_t id = (uint32_t)rb_node_uint(rb_node_get(c, "id"));
        if ((id & 0xFFF) != low || ((id >> 12) != 0x03043 && (id >> 12) != 0x24003)) continue;
        if (found) return NULL;
        found = c;
        if (id_out) *id_out = id;
    }
    return found;
}

static const rb_node *body_chunks(const rb_doc *doc) { return rb_node_get(rb_node_get(doc->root, "body"), "chunks"); }

/* The block data chunk (01F, or TMPU's 013), its id in *id. */
static const rb_node *block_data(const rb_doc *doc, uint32_t *id)
{
    const rb_node *chunk = map_chunk(body_chunks(doc), 0x01F, id);
    return chunk ? chunk : map_chunk(body_chunks(doc), 0x013, id);
}

/* A value as content: how it was stored (id flags, stream encodings) left out. */
static json_t *content(const rb_doc *doc, const rb_node *n)
{
    json_t *wrapped = json_pack("[o]", rb_model_to_json(doc, n, RB_BLOBS_BASE64));
    rb_json_strip_storage(wrapped);
    json_t *v = json_incref(json_array_get(wrapped, 0));
    json_decref(wrapped);
    return v;
}

/* ---------- header-copies ---------- */

/* A copy the model keeps agrees with the body value it copies (content, not storage). */
static void copy_agrees(void *context, uint32_t chunk_id, int in_body, const rb_node *copy, const rb_node *source)
{
    rb_rule_run *r = context;
    /* maps saved before validation store the decoration without its name (the game's own way) */
    const rb_node *id = copy->key && !strcmp(copy->key, "decoration") ? rb_node_get(copy, "id") : NULL;
    if (id && id->kind == RB_K_ID && id->wire == RB_ID_EMPTY) return;
    json_t *cj = content(r->doc, copy), *sj = content(r->doc, source);
    if (!json_equal(cj, sj)) {
        char *cs = json_dumps(cj, JSON_ENCODE_ANY | JSON_COMPACT), *ss = json_dumps(sj, JSON_ENCODE_ANY | JSON_COMPACT);
        char path[160];
        if (in_body)
            snprintf(path, sizeof path, "/body/chunks/[id=0x03043011]/challengeParameters/chunks/[id=0x%08X]/%s",
                     chunk_id, copy->key);
        else snprintf(path, sizeof path, "/headerChunks/[id=0x%08X]/%s", chunk_id, copy->key);
        rb_rule_violated(r, path, "this copy of %s holds %.120s, the body %.120s (remove the copy: the writer derives it)",
                         copy->key, cs ? cs : "?", ss ? ss : "?");
        free(cs);
        free(ss);
    }
    json_decref(cj);
    json_decref(sj);
}

/* An XML attribute that says something else than the body: the game lists the map by the XML
 * and loads it by the body, so it is a warning (real maps have some: docs/formats/gbx.md
 * "Header copies"). */
static void xml_copy_stale(void *context, const char *attribute, const uint8_t *stored, size_t stored_size,
                           const uint8_t *body, size_t body_size)
{
    rb_rule_run *r = context;
    rb_rule_warned(r, "/headerChunks/[id=0x03043005]/xml",
                   "the header XML's %s=\"%.*s\" is not what the body gives (\"%.*s\"): the writer derives it when the "
                   "XML holds the body's value",
                   attribute, (int)(stored_size > 120 ? 120 : stored_size), (const char *)stored,
                   (int)(body_size > 120 ? 120 : body_size), (const char *)body);
}

static void header_copies(rb_rule_run *r)
{
    gbx_visit_copies(r->doc->root, copy_agrees, r);
    const rb_node *xml = map_chunk(rb_node_get(r->doc->root, "headerChunks"), 0x005, NULL);
    if (xml) gbx_xml_stale_copies(r->doc->root, xml, xml_copy_stale, r);
}

/* ---------- copied-chunks-once ---------- */

/* The body chunks the header and the parameters' medals copy from (map_header.c gbx_map_fact):
 * with two of one, which one a copy comes from is ambiguous, and no game writes a second one. */
static const uint32_t COPIED_CHUNKS[] = {0x00F, 0x011, 0x013, 0x018, 0x01F, 0x042};

static void copied_chunks_once(rb_rule_run *r)
{
    const rb_node *chunks = body_chunks(r->doc);
    for (size_t k = 0; k < sizeof COPIED_CHUNKS / sizeof COPIED_CHUNKS[0]; k++) {
        size_t seen = 0, first = 0;
        for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
            uint32_t id = (uint32_t)rb_node_uint(rb_node_get(chunks->v.kids.items[i], "id"));
            if ((id & 0xFFF) != COPIED_CHUNKS[k] || ((id >> 12) != 0x03043 && (id >> 12) != 0x24003)) continue;
            if (seen++ == 0) {
                first = i;
                continue;
            }
            char path[64];
            snprintf(path, sizeof path, "/body/chunks/%zu", i);
            rb_rule_violated(r, path,
                             "a second chunk 0x%08X (the first is /body/chunks/%zu): the header copies its facts "
                             "from one, and the game reads each once (remove one of them)",
                             id, first);
        }
    }
}

/* ---------- items-snapping ---------- */

static void items_snapping(rb_rule_run *r)
{
    const rb_node *items = map_chunk(body_chunks(r->doc), 0x040, NULL);
    const rb_node *snapped = rb_node_get(items, "snappedOnIndexes"), *objects = rb_node_get(items, "anchoredObjects");
    if (!snapped || !objects || rb_element_count(snapped) == rb_element_count(objects)) return;
    rb_rule_violated(r, "/body/chunks/[id=0x03043040]/snappedOnIndexes", "%zu snapped-on entries for %zu items",
                     rb_element_count(snapped), rb_element_count(objects));
}

/* ---------- blocks ---------- */

/* A block's place, spelled only when a rule is violated (a map holds up to tens of thousands). */
typedef struct block_at {
    uint32_t id;
    size_t index;
} block_at;

static void block_path(const block_at *b, const char *rest, char *at, size_t size)
{
    snprintf(at, size, "/body/chunks/[id=0x%08X]/blocks/%zu/%s", b->id, b->index, rest);
}

/* Block versions 6 and later store grid coordinates shifted by (1, 0, 1): x and z run 1 to the
 * size, earlier versions 0 to size - 1 (every corpus map agrees). */
typedef struct block_facts {
    int sized;              /* the block data has a size of 3 elements */
    uint64_t size[3];       /* x, y, z */
    uint64_t shift;         /* 1 for block versions 6 and later, else 0 */
} block_facts;

/* What the blocks are checked against, looked up once per walk and not once per block (the
 * lookups by name were nine tenths of the rules' time on a map of 52,000 blocks). */
static block_facts facts_of(const rb_node *data)
{
    block_facts f = {0};
    const rb_node *size = rb_node_get(data, "size");
    f.sized = size && rb_element_count(size) == 3;
    for (size_t a = 0; f.sized && a < 3; a++) f.size[a] = rb_element_uint(size, a, NULL);
    f.shift = rb_node_uint(rb_node_get(data, "blockVersion")) >= 6 ? 1 : 0;
    return f;
}

typedef void (*block_visit)(rb_rule_run *r, const block_facts *facts, const rb_node *block, const block_at *path);

/* A blocks list still deferred (apply expands only what a patch reaches) is skipped: its verdict
 * is its bytes' and its start's, under the facts below (rb_rule_reads, RB_RULE_READS_UNITS). */
static void each_block(rb_rule_run *r, block_visit visit)
{
    uint32_t id = 0;
    const rb_node *data = block_data(r->doc, &id), *blocks = rb_node_get(data, "blocks");
    block_facts facts = facts_of(data);
    if (blocks && blocks->kind == RB_K_DEFERRED) return;
    for (size_t i = 0; blocks && i < blocks->v.kids.count; i++) {
        rb_record_scratch scratch;
        const rb_node *block = rb_record_view(blocks->v.kids.items[i], &scratch);
        block_at path = {id, i};
        visit(r, &facts, block, &path);
    }
}

/* Free and ghost blocks (TM2020) are not on the grid; their coordinates do not count. */
enum { BLOCK_FLAG_FREE = 0x20000000, BLOCK_FLAG_GHOST = 0x10000000, BLOCK_FLAGS_MARKER = 0xFFFFFFFFu };

static void direction_in_range(rb_rule_run *r, const block_facts *facts, const rb_node *block, const block_at *path)
{
    (void)facts;
    const rb_node *direction = rb_node_get(block, "direction");
    if (!direction || rb_node_uint(direction) <= 3) return;
    if (rb_node_uint(rb_node_get(block, "flags")) == BLOCK_FLAGS_MARKER) return; /* TMUnlimiter's marker: 255 */
    char at[128];
    block_path(path, "direction", at, sizeof at);
    rb_rule_violated(r, at, "direction %llu: the game knows 0 (north) to 3 (west)",
                     (unsigned long long)rb_node_uint(direction));
}

/* What the block rules check each block against: the block data chunk's id (in the paths they
 * report) and its facts. */
static void block_rule_facts(const rb_doc *doc, rb_buf *out)
{
    uint32_t id = 0;
    const rb_node *data = block_data(doc, &id);
    block_facts facts = facts_of(data);
    rb_buf_put(out, &id, sizeof id);
    rb_buf_put(out, &facts.sized, sizeof facts.sized);
    rb_buf_put(out, facts.size, sizeof facts.size);
    rb_buf_put(out, &facts.shift, sizeof facts.shift);
}

static void block_direction(rb_rule_run *r) { each_block(r, direction_in_range); }

static void coord_in_map(rb_rule_run *r, const block_facts *facts, const rb_node *block, const block_at *path)
{
    const rb_node *coord = rb_node_get(block, "coord");
    uint64_t flags = rb_node_uint(rb_node_get(block, "flags"));
    if (!coord || !facts->sized || rb_element_count(coord) != 3) return;
    if (flags == BLOCK_FLAGS_MARKER || (flags & (BLOCK_FLAG_FREE | BLOCK_FLAG_GHOST))) return;
    uint64_t shift = facts->shift;
    for (int a = 0; a < 3; a += 2) { /* heights are not bounded by the size's y (bases sit below) */
        uint64_t c = rb_element_uint(coord, a, NULL), s = facts->size[a];
        if (c >= shift && c - shift < s) continue;
        char at[128];
        block_path(path, a ? "coord/2" : "coord/0", at, sizeof at);
        rb_rule_violated(r, at, "%c = %llu is outside the map (%llu to %llu for this block version)", a ? 'z' : 'x',
                         (unsigned long long)c, (unsigned long long)shift, (unsigned long long)(s + shift - 1));
    }
}

static void block_inside_map(rb_rule_run *r) { each_block(r, coord_in_map); }

/* ---------- medals ---------- */

/* ChallengeParameters' chunk `low` (004 medals, 00A, 00E map type) and its path. */
static const rb_node *medals_chunk(const rb_doc *doc, uint32_t low, char *path, size_t path_size)
{
    uint32_t params_id = 0;
    const rb_node *params = map_chunk(body_chunks(doc), 0x011, &params_id);
    const rb_node *chunks = rb_node_get(rb_node_get(params, "challengeParameters"), "chunks");
    for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
        const rb_node *c = chunks->v.kids.items[i];
        uint32_t id = (uint32_t)rb_node_uint(rb_node_get(c, "id"));
        if ((id & 0xFFF) != low || ((id >> 12) != 0x0305B && (id >> 12) != 0x2400C)) continue;
        snprintf(path, path_size, "/body/chunks/[id=0x%08X]/challengeParameters/chunks/[id=0x%08X]", params_id, id);
        return c;
    }
    return NULL;
}

/* Times are milliseconds; -1 means "not set" (an unvalidated map). */
static void medals_in(rb_rule_run *r, const rb_node *medals, const char *path)
{
    static const char *const KEYS[] = {"bronzeTime", "silverTime", "goldTime", "authorTime"};
    int64_t t[4];
    for (int i = 0; i < 4; i++) {
        const rb_node *n = rb_node_get(medals, KEYS[i]);
        if (!n) return;
        t[i] = (int32_t)rb_node_int(n);
        if (t[i] == -1) return;
    }
    char at[224];
    for (int i = 0; i < 4; i++) {
        if (t[i] > 0) continue;
        snprintf(at, sizeof at, "%s/%s", path, KEYS[i]);
        rb_rule_violated(r, at, "%s is %lld: a time is more than 0 ms", KEYS[i], (long long)t[i]);
        return;
    }
    for (int i = 0; i < 3; i++) {
        if (t[i] >= t[i + 1]) continue;
        snprintf(at, sizeof at, "%s/%s", path, KEYS[i + 1]);
        /* real maps have an author time slower than gold (TMU's IslandA1): the game loads them */
        (i == 2 ? rb_rule_warned : rb_rule_violated)(r, at, "%s %lld ms is slower than %s %lld ms (bronze >= silver >= gold%s)",
                         KEYS[i + 1], (long long)t[i + 1], KEYS[i], (long long)t[i], i == 2 ? "; author <= gold is usual" : "");
    }
}

/* Stunt and platform maps keep scores and respawn counts in the medal fields: race maps only. */
static int is_race_map(const rb_doc *doc)
{
    char path[160];
    const rb_node *type = rb_node_get(medals_chunk(doc, 0x00E, path, sizeof path), "mapType");
    if (type && type->kind == RB_K_STRING) {
        const char *t = (const char *)type->v.bytes.data;
        size_t n = type->v.bytes.size;
        for (size_t i = 0; i + 5 <= n; i++)
            if (!memcmp(t + i, "Stunt", 5) || !memcmp(t + i, "Platf", 5) || !memcmp(t + i, "Royal", 5)) return 0;
    }
    /* TmDesc's mode (v7+): 1 platform, 5 stunts */
    uint64_t mode = rb_node_uint(rb_node_get(map_chunk(rb_node_get(doc->root, "headerChunks"), 0x002, NULL), "mode"));
    return mode != 1 && mode != 5;
}

static void medals_ordered(rb_rule_run *r)
{
    if (!is_race_map(r->doc)) return;
    static const uint32_t LOWS[] = {0x004, 0x00A};
    for (int i = 0; i < 2; i++) {
        char path[160];
        const rb_node *medals = medals_chunk(r->doc, LOWS[i], path, sizeof path);
        if (medals) medals_in(r, medals, path);
    }
}

/* ---------- decoration ---------- */

/* The decorations real maps of each environment use (docs/formats/gbx.md "Game rules"), as
 * case-insensitive patterns: every map of shared/corpus and of the public set
 * (tests/public/maps.tsv), and the names seen on 2,119 held-out maps ("30x30", "20x60",
 * "20x60Sunrise", "20x60Sunset", "64x64Day"). The older games spell one "30x30sunset"; TM2020
 * composes its names around the 48x48 base ("NoStadium48x48Night", "48x48Screen155Day"). A
 * name outside the list is a warning: the games have more decorations than any sample shows. */
#define MOODS(prefix, suffix) prefix "Day" suffix, prefix "Night" suffix, prefix "Sunrise" suffix, prefix "Sunset" suffix
#define SIZES(mood) mood, "30x30" mood, "20x60" mood, "64x64" mood
static const char *const DECORATIONS_TM1[] = {"Simple", "30x30", "20x60", "64x64", SIZES("Day"), SIZES("Night"),
                                              SIZES("Sunrise"), SIZES("Sunset"), NULL};
static const char *const DECORATIONS_MP[] = {MOODS("", ""), MOODS("", "48"), MOODS("64x64", ""), NULL};
static const char *const DECORATIONS_TM2020[] = {"*48x48*", NULL};
static const struct {
    const char *environment; /* as stored (older maps), or a collection number (below) */
    uint32_t number;         /* the collection number stored for it, or UINT32_MAX */
    const char *const *decorations;
} ENVIRONMENTS[] = {
    {"Alpine", UINT32_MAX, DECORATIONS_TM1}, {"Snow", 1, DECORATIONS_TM1},    {"Speed", UINT32_MAX, DECORATIONS_TM1},
    {"Desert", 0, DECORATIONS_TM1},          {"Rally", 2, DECORATIONS_TM1},   {"Island", 3, DECORATIONS_TM1},
    {"Bay", 4, DECORATIONS_TM1},             {"Coast", 5, DECORATIONS_TM1},   {"Stadium", 6, DECORATIONS_TM1},
    {"Valley", 11, DECORATIONS_MP},          {"Canyon", 12, DECORATIONS_MP},  {"Lagoon", 13, DECORATIONS_MP},
    {NULL, 26, DECORATIONS_TM2020},
};
enum { ENVIRONMENT_COUNT = sizeof ENVIRONMENTS / sizeof ENVIRONMENTS[0] };

/* The known decorations of the environment `collection` names (an id node), or NULL. */
static const char *const *decorations_of(const rb_node *collection, size_t *entry)
{
    if (!collection || collection->kind != RB_K_ID) return NULL;
    for (size_t i = 0; i < ENVIRONMENT_COUNT; i++) {
        const char *name = ENVIRONMENTS[i].environment;
        if (collection->wire == RB_ID_NUMBER ? collection->v.bits == ENVIRONMENTS[i].number
                                             : collection->wire == RB_ID_STRING && name &&
                                                   collection->v.bytes.size == strlen(name) &&
                                                   !memcmp(collection->v.bytes.data, name, strlen(name))) {
            *entry = i;
            return ENVIRONMENTS[i].decorations;
        }
    }
    return NULL;
}

static void decoration_known(rb_rule_run *r)
{
    uint32_t id = 0;
    size_t entry = 0;
    const rb_node *data = block_data(r->doc, &id);
    const char *const *known = decorations_of(rb_node_get(rb_node_get(data, "mapInfo"), "collection"), &entry);
    const rb_node *decoration = rb_node_get(rb_node_get(data, "decoration"), "id");
    if (!known || !decoration || decoration->kind != RB_K_ID || decoration->wire != RB_ID_STRING) return;
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)decoration->v.bytes.size, (const char *)decoration->v.bytes.data);
    /* TMNF's Coast stores "Sunrise " (and its game loads it): trailing spaces do not count */
    for (size_t n = strlen(name); n > 0 && name[n - 1] == ' '; n--) name[n - 1] = 0;
    for (size_t i = 0; known[i]; i++)
        if (!fnmatch(known[i], name, FNM_CASEFOLD)) return;
    char path[96], environment[24];
    snprintf(path, sizeof path, "/body/chunks/[id=0x%08X]/decoration/id", id);
    snprintf(environment, sizeof environment, "%s", ENVIRONMENTS[entry].environment ? ENVIRONMENTS[entry].environment : "TM2020 Stadium");
    rb_rule_violated(r, path,
                     "\"%s\" is no decoration a real %s map was seen using (the list: rebyte check --rules, "
                     "decoration-known)",
                     name, environment);
}

static json_t *decoration_data(void)
{
    json_t *o = json_object();
    for (size_t i = 0; i < ENVIRONMENT_COUNT; i++) {
        json_t *list = json_array();
        for (const char *const *d = ENVIRONMENTS[i].decorations; *d; d++) json_array_append_new(list, json_string(*d));
        char key[48];
        if (ENVIRONMENTS[i].environment && ENVIRONMENTS[i].number != UINT32_MAX)
            snprintf(key, sizeof key, "%s (%u)", ENVIRONMENTS[i].environment, ENVIRONMENTS[i].number);
        else if (ENVIRONMENTS[i].environment) snprintf(key, sizeof key, "%s", ENVIRONMENTS[i].environment);
        else snprintf(key, sizeof key, "Stadium (%u, TM2020)", ENVIRONMENTS[i].number);
        json_object_set_new(o, key, list);
    }
    return o;
}

static json_t *medals_data(void)
{
    return json_pack("{s:s,s:s,s:s}", "refusal", "bronze >= silver >= gold, every time > 0 ms (-1: not set)",
                     "warning", "author <= gold (TMU's official IslandA1: author 16200 ms, gold 16170 ms)", "skipped",
                     "stunt, platform and royal maps (their medal fields hold scores and counts)");
}

/* The units the block rules read: the block data chunk's blocks (the list, or the chunk when the
 * read deferred it whole). */
static int reads_blocks(const rb_doc *doc, const rb_node *unit)
{
    (void)doc;
    const rb_node *id = unit->deferred->first;
    if (!id) return unit->key && strcmp(unit->key, "blocks") == 0;
    uint32_t chunk = gbx_remap_id((uint32_t)id->v.bits);
    return chunk == 0x0304301F || chunk == 0x03043013;
}

static const rb_rule GBX_RULES[] = {
    {"header-copies",
     "a copy the file keeps of a body fact (header name, medals, author, ...) agrees with it; an XML attribute "
     "that does not is a warning",
     header_copies, RB_RULE_REFUSAL, NULL, {RB_RULE_READS_NODES}},
    {"copied-chunks-once",
     "a body chunk the header copies from (block data, parameters, author, laps) appears once in the map",
     copied_chunks_once, RB_RULE_REFUSAL, NULL, {RB_RULE_READS_NODES}},
    {"items-snapping", "the TM2020 items chunk has one snapped-on entry per item", items_snapping, RB_RULE_REFUSAL, NULL, {RB_RULE_READS_NODES}},
    {"block-direction", "a block's direction is 0 to 3", block_direction, RB_RULE_REFUSAL, NULL,
     {RB_RULE_READS_UNITS, .facts = block_rule_facts, .unit = reads_blocks}},
    {"block-inside-map", "a block on the grid lies inside the map's size", block_inside_map, RB_RULE_REFUSAL, NULL,
     {RB_RULE_READS_UNITS, .facts = block_rule_facts, .unit = reads_blocks}},
    {"medals-ordered", "race medals: bronze >= silver >= gold > 0 ms; an author time slower than gold is a warning",
     medals_ordered, RB_RULE_REFUSAL, medals_data, {RB_RULE_READS_NODES}},
    {"decoration-known", "the decoration is one real maps of the environment use", decoration_known, RB_RULE_WARNING,
     decoration_data, {RB_RULE_READS_NODES}},
};

const rb_rule *gbx_rules(size_t *count)
{
    *count = sizeof GBX_RULES / sizeof GBX_RULES[0];
    return GBX_RULES;
}
