/*
 * The header chunks of maps (0x03043002 TmDesc, 003 Common, 004, 005 XML, 007 thumbnail, 008
 * author) and the copies of body facts they hold. The game repeats the map's name, identity,
 * decoration, medals and author in the header (and ManiaPlanet repeats the medals in the
 * parameters' 00A) so its browser need not read the body. One fact, one place
 * (docs/formats/gbx.md "Header copies"): the body holds the fact; a copy equal to what the
 * writer derives leaves the model when the file is read (gbx_after_read), and the writer
 * fills it in from the body. A copy that differs in the file stays in the model, is written
 * back as it was, and `verify` notes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/gbx/engine/gbx_internal.h"
#include "core/gbx/map/map_header.h"

/* ---------- a copy in a description ---------- */

void gbx_copy(rb_ar *ar, const char *key, gbx_fact fact, const char *fact_key, void (*describe)(rb_ar *, const char *))
{
    rb_ar_dir dir = rb_ar_direction(ar);
    if (dir != RB_AR_READ && !rb_ar_has(ar, key, 1)) {
        if (dir == RB_AR_FROM_JSON) return; /* derived: the writer fills it in */
        const rb_node *source = gbx_map_fact(gbx_ctx_of(ar)->file, fact, fact_key ? fact_key : key);
        if (!source) {
            rb_ar_fail(ar, RB_E_MODEL, "\"%s\" copies a body value the model does not have; give it a value", key);
            return;
        }
        rb_ar_derived(ar, key, source);
    }
    describe(ar, key);
}

static void i32(rb_ar *ar, const char *key) { rb_ar_i32(ar, key); }
static void u32(rb_ar *ar, const char *key) { rb_ar_u32(ar, key); }

/* TmDesc's nbCheckpoints: derived from the blocks and items as gbx_copy derives a copy (a file
 * whose count differs keeps its own in the model). */
static void checkpoint_count(rb_ar *ar)
{
    static const char KEY[] = "nbCheckpoints";
    rb_ar_dir dir = rb_ar_direction(ar);
    if (dir != RB_AR_READ && !rb_ar_has(ar, KEY, 1)) {
        if (dir == RB_AR_FROM_JSON) return; /* derived: the writer fills it in */
        rb_node count = {.kind = RB_K_INT, .wire = RB_U32, .key = KEY};
        uint32_t n = 0;
        if (!gbx_map_checkpoints(gbx_ctx_of(ar)->file, &n)) {
            rb_ar_fail(ar, RB_E_MODEL, "\"%s\" counts the map's checkpoints, whose blocks or items are not typed; "
                       "give it a value", KEY);
            return;
        }
        count.v.bits = n;
        rb_ar_derived(ar, KEY, &count);
        rb_ar_u32(ar, KEY); /* the derived node lives until here */
        return;
    }
    rb_ar_u32(ar, KEY);
}

/* ---------- the header chunks ---------- */

/* 002 "TmDesc": medals and race settings for quick listing. */
static void header_002_tmdesc(rb_ar *ar)
{
    uint8_t version = rb_ar_u8(ar, "version");
    if (version <= 2) {
        gbx_copy(ar, "mapInfo", GBX_FACT_BLOCK_DATA, NULL, gbx_meta);
        gbx_copy(ar, "mapName", GBX_FACT_BLOCK_DATA, NULL, gbx_string);
    }
    gbx_bool(ar, "needUnlock");
    if (version < 1) return;
    gbx_copy(ar, "bronzeTime", GBX_FACT_MEDALS, NULL, i32);
    gbx_copy(ar, "silverTime", GBX_FACT_MEDALS, NULL, i32);
    gbx_copy(ar, "goldTime", GBX_FACT_MEDALS, NULL, i32);
    gbx_copy(ar, "authorTime", GBX_FACT_MEDALS, NULL, i32);
    if (version == 2) rb_ar_u8(ar, "u01");
    if (version < 4) return;
    rb_ar_u32(ar, "cost");
    if (version < 5) return;
    gbx_bool(ar, "isLapRace");
    if (version == 6) gbx_bool(ar, "isMultilap");
    if (version < 7) return;
    rb_ar_u32(ar, "mode");
    if (version < 9) return;
    rb_ar_u32(ar, "hasClones");
    if (version < 10) return;
    gbx_copy(ar, "authorScore", GBX_FACT_STUNTS, NULL, i32);
    if (version < 11) return;
    rb_ar_u32(ar, "editor");
    if (version < 12) return;
    rb_ar_u32(ar, "u02");
    if (version < 13) return;
    checkpoint_count(ar);
    rb_ar_u32(ar, "nbLaps");
}

static void uint128(rb_ar *ar, const char *key) { rb_ar_bytes(ar, key, RB_K_BLOB, 16); }

/* 003 "Common": uid, environment, author, name, kind, decoration, map type/style, title. */
static void header_003_common(rb_ar *ar)
{
    uint8_t version = rb_ar_u8(ar, "version");
    gbx_copy(ar, "mapInfo", GBX_FACT_BLOCK_DATA, NULL, gbx_meta);
    gbx_copy(ar, "mapName", GBX_FACT_BLOCK_DATA, NULL, gbx_string);
    rb_ar_u8(ar, "kindInHeader");
    if (version < 1) return;
    gbx_bool(ar, "locked");
    gbx_string(ar, "password");
    if (version < 2) return;
    gbx_copy(ar, "decoration", GBX_FACT_BLOCK_DATA, NULL, gbx_meta);
    if (version < 3) return;
    gbx_vec2(ar, "mapCoordOrigin");
    if (version < 4) return;
    gbx_vec2(ar, "mapCoordTarget");
    if (version < 5) return;
    uint128(ar, "packMask");
    if (version < 6) return;
    gbx_copy(ar, "mapType", GBX_FACT_MAP_TYPE, NULL, gbx_string);
    gbx_copy(ar, "mapStyle", GBX_FACT_MAP_TYPE, NULL, gbx_string);
    if (version <= 8) rb_ar_u32(ar, "u01");
    if (version < 8) return;
    rb_ar_u64(ar, "lightmapCacheUid");
    if (version < 9) return;
    rb_ar_u8(ar, "lightmapVersion");
    if (version < 11) return;
    gbx_id(ar, "titleId");
}

static void header_004_version(rb_ar *ar) { rb_ar_u32(ar, "version"); }

static void expect_text(rb_ar *ar, const char *text) { rb_ar_expect(ar, text, text, strlen(text)); }

/* 007: the thumbnail JPEG between literal tags, then the comments. */
static void header_007_thumbnail(rb_ar *ar)
{
    uint32_t version = rb_ar_u32(ar, "version");
    if (version == 0) return;
    rb_slot size = rb_ar_slot(ar, "thumbnail size", RB_U32);
    expect_text(ar, "<Thumbnail.jpg>");
    const rb_node *jpeg = rb_ar_bytes(ar, "thumbnail", RB_K_BLOB, size.value);
    rb_ar_slot_set(ar, &size, jpeg ? jpeg->v.bytes.size : 0);
    expect_text(ar, "</Thumbnail.jpg>");
    expect_text(ar, "<Comments>");
    gbx_string(ar, "comments");
    expect_text(ar, "</Comments>");
}

/* 008: the author, a copy of the body's 042. */
static void header_008_author(rb_ar *ar)
{
    rb_ar_u32(ar, "version");
    gbx_copy(ar, "authorVersion", GBX_FACT_AUTHOR, NULL, u32);
    gbx_copy(ar, "authorLogin", GBX_FACT_AUTHOR, NULL, gbx_string);
    gbx_copy(ar, "authorNickname", GBX_FACT_AUTHOR, NULL, gbx_string);
    gbx_copy(ar, "authorZone", GBX_FACT_AUTHOR, NULL, gbx_string);
    gbx_copy(ar, "authorExtraInfo", GBX_FACT_AUTHOR, NULL, gbx_string);
}

static const gbx_chunk_def MAP_HEADER_CHUNKS[] = {
    {0x03043002, 0, "TmDesc", header_002_tmdesc},
    {0x03043003, 0, "Common", header_003_common},
    {0x03043004, 0, "Version", header_004_version},
    {0x03043005, 0, "Community (XML)", gbx_map_header_xml},
    {0x03043007, 0, "Thumbnail", header_007_thumbnail},
    {0x03043008, 0, "Author", header_008_author},
};

const gbx_chunk_table gbx_map_header_chunks = {MAP_HEADER_CHUNKS, sizeof MAP_HEADER_CHUNKS / sizeof MAP_HEADER_CHUNKS[0]};

/* ---------- after a read: copies equal to their source leave the model ---------- */

/* Would writing `source` in place of `copy` give the copy's bytes? Same kind, wire and value
 * (ids: the same storage too), member by member. */
static int same_value(const rb_node *copy, const rb_node *source)
{
    if (copy->kind != source->kind) return 0;
    switch (copy->kind) {
    case RB_K_INT:
    case RB_K_BOOL:
    case RB_K_FLOAT: return copy->v.bits == source->v.bits;
    case RB_K_STRING:
    case RB_K_BLOB:
        return copy->v.bytes.size == source->v.bytes.size &&
               (!copy->v.bytes.size || !memcmp(copy->v.bytes.data, source->v.bytes.data, copy->v.bytes.size));
    case RB_K_ID:
        if (copy->wire != source->wire || copy->aux != source->aux || copy->aux2 != source->aux2) return 0;
        if (copy->wire == RB_ID_NUMBER) return copy->v.bits == source->v.bits;
        return copy->v.bytes.size == source->v.bytes.size &&
               (!copy->v.bytes.size || !memcmp(copy->v.bytes.data, source->v.bytes.data, copy->v.bytes.size));
    case RB_K_RECORD:
        if (copy->v.kids.count != source->v.kids.count) return 0;
        for (size_t i = 0; i < copy->v.kids.count; i++) {
            const rb_node *a = copy->v.kids.items[i], *b = source->v.kids.items[i];
            if (!a->key || !b->key || strcmp(a->key, b->key) || !same_value(a, b)) return 0;
        }
        return 1;
    default: return 0;
    }
}

/* The copies each chunk holds: (family of the chunk, low id, key, where the body keeps it). */
static const struct copy_site {
    uint32_t family, low;
    const char *key;
    gbx_fact fact;
} COPY_SITES[] = {
    {0x03043, 0x002, "mapInfo", GBX_FACT_BLOCK_DATA},     {0x03043, 0x002, "mapName", GBX_FACT_BLOCK_DATA},
    {0x03043, 0x002, "bronzeTime", GBX_FACT_MEDALS},      {0x03043, 0x002, "silverTime", GBX_FACT_MEDALS},
    {0x03043, 0x002, "goldTime", GBX_FACT_MEDALS},        {0x03043, 0x002, "authorTime", GBX_FACT_MEDALS},
    {0x03043, 0x002, "authorScore", GBX_FACT_STUNTS},     {0x03043, 0x003, "mapInfo", GBX_FACT_BLOCK_DATA},
    {0x03043, 0x003, "mapName", GBX_FACT_BLOCK_DATA},     {0x03043, 0x003, "decoration", GBX_FACT_BLOCK_DATA},
    {0x03043, 0x003, "mapType", GBX_FACT_MAP_TYPE},       {0x03043, 0x003, "mapStyle", GBX_FACT_MAP_TYPE},
    {0x03043, 0x008, "authorVersion", GBX_FACT_AUTHOR},   {0x03043, 0x008, "authorLogin", GBX_FACT_AUTHOR},
    {0x03043, 0x008, "authorNickname", GBX_FACT_AUTHOR},  {0x03043, 0x008, "authorZone", GBX_FACT_AUTHOR},
    {0x03043, 0x008, "authorExtraInfo", GBX_FACT_AUTHOR}, {0x0305B, 0x00A, "tip", GBX_FACT_TIPS},
    {0x0305B, 0x00A, "bronzeTime", GBX_FACT_MEDALS},      {0x0305B, 0x00A, "silverTime", GBX_FACT_MEDALS},
    {0x0305B, 0x00A, "goldTime", GBX_FACT_MEDALS},        {0x0305B, 0x00A, "authorTime", GBX_FACT_MEDALS},
    {0x0305B, 0x00A, "timeLimit", GBX_FACT_STUNTS},       {0x0305B, 0x00A, "authorScore", GBX_FACT_STUNTS},
    {0x2E001, 0x003, "ident", GBX_FACT_COLLECTOR_IDENT},  {0x2E001, 0x003, "pageName", GBX_FACT_COLLECTOR_PAGE},
    {0x2E001, 0x003, "parentCollectorId", GBX_FACT_COLLECTOR_PAGE},
    {0x2E001, 0x003, "catalogPosition", GBX_FACT_COLLECTOR_CATALOG},
    {0x2E001, 0x003, "name", GBX_FACT_COLLECTOR_NAME},    {0x2E001, 0x003, "prodState", GBX_FACT_COLLECTOR_CATALOG},
    {0x03033, 0x001, "collection", GBX_FACT_COLLECTION},  {0x03033, 0x001, "needUnlock", GBX_FACT_COLLECTION},
    {0x03033, 0x001, "vehicle", GBX_FACT_COLLECTION},     {0x03033, 0x001, "sortIndex", GBX_FACT_COLLECTION_SORT},
};

static const struct copy_site *copy_site(uint32_t family, uint32_t low, const char *key)
{
    for (size_t i = 0; i < sizeof COPY_SITES / sizeof COPY_SITES[0]; i++)
        if (COPY_SITES[i].family == family && COPY_SITES[i].low == low && !strcmp(COPY_SITES[i].key, key))
            return &COPY_SITES[i];
    return NULL;
}

static void note_deviation(rb_doc *doc, uint32_t id, const char *key)
{
    char note[200];
    snprintf(note, sizeof note, "chunk 0x%08X keeps its own %s, which differs from the body's (written back as it is)",
             id, key);
    rb_doc_add_note(doc, note);
}

/* Is `member` TmDesc's checkpoint count, equal to what the writer derives? (When it differs the
 * file keeps its own count, noted.) */
static int derived_checkpoints(rb_doc *doc, const rb_node *member, uint32_t family, uint32_t id)
{
    uint32_t n = 0;
    if (family != 0x03043 || (id & 0xFFF) != 0x002 || !member->key || strcmp(member->key, "nbCheckpoints") != 0 ||
        !gbx_map_checkpoints(doc->root, &n))
        return 0;
    if (rb_node_uint(member) == n) return 1;
    note_deviation(doc, id, member->key);
    return 0;
}

/* The members of `chunk` (stored id `id`) that copy a body fact equal to it leave the model. */
static void settle_chunk(rb_doc *doc, rb_node *chunk, uint32_t family, uint32_t id)
{
    size_t kept = 0;
    for (size_t i = 0; i < chunk->v.kids.count; i++) {
        rb_node *member = chunk->v.kids.items[i];
        if (derived_checkpoints(doc, member, family, id)) continue;
        const struct copy_site *site = member->key ? copy_site(family, id & 0xFFF, member->key) : NULL;
        const rb_node *source = site ? gbx_map_fact(doc->root, site->fact, member->key) : NULL;
        if (source && same_value(member, source)) continue;
        if (source) note_deviation(doc, id, member->key);
        if (member->key && !strcmp(member->key, "xml") && (id & 0xFFF) == 0x005) {
            rb_node *template = gbx_xml_template(doc, doc->root, member);
            if (template) member = template;
        }
        chunk->v.kids.items[kept++] = member;
    }
    chunk->v.kids.count = (uint32_t)kept;
}

/* The family of a header chunk whose copies are known (maps, collectors), or 0. */
static uint32_t copy_family(uint32_t id)
{
    uint32_t family = gbx_remap_id(id) >> 12;
    return family == 0x03043 || family == 0x2E001 || family == 0x03033 ? family : 0;
}

void gbx_settle_copies(rb_doc *doc)
{
    rb_node *headers = rb_node_get(doc->root, "headerChunks");
    for (size_t i = 0; headers && i < headers->v.kids.count; i++) {
        rb_node *chunk = headers->v.kids.items[i];
        uint32_t id = (uint32_t)rb_node_uint(rb_node_get(chunk, "id"));
        if (copy_family(id)) settle_chunk(doc, chunk, copy_family(id), id);
    }
    rb_node *medals = gbx_map_params_chunk(doc->root, 0x00A);
    if (medals) settle_chunk(doc, medals, 0x0305B, (uint32_t)rb_node_uint(rb_node_get(medals, "id")));
}

void gbx_visit_copies(const rb_node *file, gbx_copy_visit visit, void *context)
{
    const rb_node *headers = rb_node_get(file, "headerChunks");
    const rb_node *medals = gbx_map_params_chunk(file, 0x00A);
    for (size_t i = 0; headers && i <= headers->v.kids.count; i++) {
        const rb_node *chunk = i < headers->v.kids.count ? headers->v.kids.items[i] : medals;
        uint32_t id = (uint32_t)rb_node_uint(rb_node_get(chunk, "id"));
        uint32_t family = i < headers->v.kids.count ? copy_family(id) : 0x0305B;
        if (!chunk || !family) continue;
        for (size_t k = 0; k < chunk->v.kids.count; k++) {
            const rb_node *member = chunk->v.kids.items[k];
            const struct copy_site *site = member->key ? copy_site(family, id & 0xFFF, member->key) : NULL;
            const rb_node *source = site ? gbx_map_fact(file, site->fact, member->key) : NULL;
            if (source) visit(context, id, i == headers->v.kids.count, member, source);
        }
    }
}
