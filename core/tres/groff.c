/*
 * GROFF containers (docs/formats/tres.md "GROFF layout"): .grf levels, .scn scenes and
 * savegames, plain or SZDD-packed.
 *
 *   header (48) | section directory (32 per section) | section payloads, contiguous | name table
 *
 * The game reads all of it sequentially by the size fields, so offsets, sizes and counts are
 * derived on write. Names are referenced everywhere by "symbol handles" (leftover heap
 * addresses of the exporter): payloads and the directory keep the handle, the model's
 * `symbols` list maps each handle to its text. On write the name table is rebuilt from that
 * list: sorted by strcmp, reference counts recounted from the typed uses (section names,
 * region instances, object blocks, material maps). Uses inside payloads this module does not
 * type are kept per symbol as `extraReferences` (absent when zero, as in every corpus file),
 * so counts stay right after edits of the typed parts.
 *
 * Payloads typed here: GRF .header, .region, object blocks, .geometry, .mapping, .material;
 * SCN/savegame Header, Partitions, the three hierarchies, base-instance blocks, SaveGameName,
 * SaveSCNName, SaveBMP. In files of their own (groff_parts.h): the GRF value table
 * (valuetable.c) and the class blocks of scenes (scn.c). What no description takes exactly is
 * kept as opaque bytes.
 */
#include <stdlib.h>
#include <string.h>
#include "core/tres/tres.h"
#include "core/tres/groff_names.h"
#include "core/tres/groff_parts.h"
#include "writers/szdd.h"

enum {
    GROFF_HEADER_BYTES = 48,
    GROFF_DIR_BYTES = 32,
    GROFF_MAGIC = 0x0ACEBABEu,
    SECTION_HANDLE_BASE = 0x80000000u,
    TYPE_HEADER = 0x1,
    TYPE_REGION = 0x2,
    TYPE_OBJECT = 0x4,
    TYPE_GEOMETRY = 0x8,
    TYPE_MAPPING = 0x10,
    TYPE_MATERIAL = 0x20,
    TYPE_VALUE_TABLE = 0x2000,
    TYPE_SPECIAL = 0x80000000u,
    SCN_HEADER_BYTES = 1348,
    SCN_PATH_SLOT = 256,
    SCN_PATH_SLOTS = 5
};

typedef struct groff_symbol {
    uint32_t handle;
    uint32_t uses;       /* references counted while describing */
    const uint8_t *text; /* READ: the name, from the look-ahead over the name table */
    size_t size;
} groff_symbol;

typedef struct groff_state {
    groff_symbol *symbols; /* in name-table order */
    size_t symbol_count;
    uint32_t *by_handle;   /* open addressing: 1 + the index of the first symbol with a handle */
    size_t by_handle_mask;
    uint8_t *names;        /* READ: the name bytes of the look-ahead */
    int file_order_sorted; /* READ: was the name table in strcmp order? */
    int32_t save_version;  /* SCN: from the Header block, -1 before it */
    int32_t animal_version;
    uint32_t section_name; /* name handle of the section being described */
} groff_state;

typedef struct groff_entry {
    uint32_t name, flags, offset, size, relocation_offset, relocation_count, type, handle;
} groff_entry;

/* ---------- look-ahead helpers (READ) ---------- */

/* Copies n bytes `at` bytes ahead of the cursor, through the archive's u32 peek. */
static int peek_bytes(rb_ar *ar, uint64_t at, uint8_t *dst, size_t n)
{
    uint64_t left = rb_ar_remaining(ar);
    if (n == 0) return at <= left;
    if (left < 4 || at > left || n > left - at) return 0;
    for (size_t i = 0; i < n;) {
        uint64_t pos = at + i, base = pos > left - 4 ? left - 4 : pos;
        uint32_t word;
        if (!rb_ar_peek_u32_at(ar, base, &word)) return 0;
        for (unsigned k = (unsigned)(pos - base); k < 4 && i < n; k++, i++) dst[i] = (uint8_t)(word >> (8 * k));
    }
    return 1;
}

static uint32_t peek_u32(rb_ar *ar, uint64_t at)
{
    uint8_t b[4] = {0};
    peek_bytes(ar, at, b, 4);
    return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/* strcmp order: unsigned bytes, a name ends at its first NUL. */
static int name_compare(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    for (size_t i = 0;; i++) {
        int ca = i < an ? a[i] : 0, cb = i < bn ? b[i] : 0;
        if (ca != cb) return ca - cb;
        if (ca == 0) return 0;
    }
}

static size_t handle_slot(uint32_t handle, size_t mask) { return (size_t)(handle * 2654435761u) & mask; }

static groff_symbol *find_symbol(groff_state *st, uint32_t handle)
{
    if (!st->by_handle) return NULL;
    for (size_t i = handle_slot(handle, st->by_handle_mask);; i = (i + 1) & st->by_handle_mask) {
        uint32_t at = st->by_handle[i];
        if (!at) return NULL;
        if (st->symbols[at - 1].handle == handle) return &st->symbols[at - 1];
    }
}

static void count_use(groff_state *st, uint32_t handle)
{
    groff_symbol *s = find_symbol(st, handle);
    if (s) s->uses++;
}

static const groff_symbol *name_of(groff_state *st, uint32_t handle) { return find_symbol(st, handle); }

static int name_is(groff_state *st, uint32_t handle, const char *text)
{
    const groff_symbol *s = name_of(st, handle);
    size_t n = strlen(text);
    return s && s->text && s->size == n && memcmp(s->text, text, n) == 0;
}

/* The handle index over the symbols (at most half full, so every probe ends). Returns 0 when out
 * of memory. */
static int index_handles(groff_state *st)
{
    size_t cap = 16;
    while (cap < 2 * st->symbol_count + 2) cap *= 2;
    st->by_handle = calloc(cap, sizeof *st->by_handle);
    if (!st->by_handle) return 0;
    st->by_handle_mask = cap - 1;
    for (size_t k = 0; k < st->symbol_count; k++) {
        size_t i = handle_slot(st->symbols[k].handle, st->by_handle_mask);
        while (st->by_handle[i] && st->symbols[st->by_handle[i] - 1].handle != st->symbols[k].handle)
            i = (i + 1) & st->by_handle_mask;
        if (!st->by_handle[i]) st->by_handle[i] = (uint32_t)k + 1; /* a repeated handle: the first counts */
    }
    return 1;
}

/* READ: walk the directory sizes to the name table and read it ahead, so section names are
 * known when payloads are classified and reference counts can be compared with the uses. */
static int prescan_names(rb_ar *ar, groff_state *st)
{
    uint64_t left = rb_ar_remaining(ar);
    uint32_t sections = peek_u32(ar, 8), names = peek_u32(ar, 12);
    if (left < GROFF_HEADER_BYTES || sections > (left - GROFF_HEADER_BYTES) / GROFF_DIR_BYTES) return 1;
    uint64_t at = GROFF_HEADER_BYTES + (uint64_t)GROFF_DIR_BYTES * sections;
    for (uint32_t i = 0; i < sections; i++) at += peek_u32(ar, GROFF_HEADER_BYTES + (uint64_t)GROFF_DIR_BYTES * i + 12);
    if (at > left || names > (left - at) / 12) return 1; /* the description reports it */
    st->symbols = calloc(names + 1, sizeof *st->symbols);
    st->names = malloc(left - at + 1);
    if (!st->symbols || !st->names) return 0;
    size_t used = 0;
    st->file_order_sorted = 1;
    for (uint32_t i = 0; i < names; i++) {
        if (at + 12 > left) break;
        uint32_t length = peek_u32(ar, at + 4);
        if (length > left - at - 12) break;
        groff_symbol *s = &st->symbols[st->symbol_count++];
        s->handle = peek_u32(ar, at);
        s->text = st->names + used;
        s->size = length && (peek_bytes(ar, at + 12 + length - 1, st->names + used, 1), st->names[used] == 0)
                      ? length - 1 : length;
        peek_bytes(ar, at + 12, st->names + used, length);
        if (i > 0 && name_compare(s[-1].text, s[-1].size, s->text, s->size) > 0) st->file_order_sorted = 0;
        used += length;
        at += 12 + (uint64_t)length;
    }
    return index_handles(st);
}

/* WRITE: the handles of the model's symbols, for counting uses. */
static int collect_model_symbols(rb_ar *ar, groff_state *st)
{
    const rb_node *list = rb_node_get(rb_ar_current(ar), "symbols");
    if (!list || list->kind != RB_K_LIST) return 1; /* the description reports it */
    st->symbols = calloc(list->v.kids.count + 1, sizeof *st->symbols);
    if (!st->symbols) return 0;
    for (size_t i = 0; i < list->v.kids.count; i++) {
        const rb_node *handle = rb_node_get(list->v.kids.items[i], "handle");
        const rb_node *name = rb_node_get(list->v.kids.items[i], "name");
        groff_symbol *s = &st->symbols[st->symbol_count++];
        s->handle = handle ? (uint32_t)rb_node_uint(handle) : 0;
        if (name && name->kind == RB_K_STRING) {
            s->text = name->v.bytes.data;
            s->size = name->v.bytes.size;
        }
    }
    return index_handles(st);
}

/* ---------- small shared pieces ---------- */

/* Layouts of the fixed-size records meshes are made of: long lists of them are tables (packed). */
static const rb_layout_field VEC3_FIELDS[] = {{"x", RB_K_FLOAT, 4}, {"y", RB_K_FLOAT, 4}, {"z", RB_K_FLOAT, 4}};
static const rb_layout VEC3 = {"vector", VEC3_FIELDS, 3};

static void vec3(rb_ar *ar, const char *key) { rb_ar_layout_record(ar, key, &VEC3); }

/* A fixed-size char buffer: the text up to its NUL, then whatever the original program left in
 * the rest of the buffer (uninitialised memory). A tail of zeros is not stored; new or shortened
 * texts are zero-filled. docs/formats/tres.md "Principles applied here" */
static void fixed_text(rb_ar *ar, const char *key, size_t slot_size)
{
    rb_ar_record_begin(ar, key);
    uint8_t *slot = NULL;
    size_t text = slot_size, tail_nonzero = 0;
    if (rb_ar_direction(ar) == RB_AR_READ) {
        slot = malloc(slot_size);
        if (!slot || !peek_bytes(ar, 0, slot, slot_size)) {
            free(slot);
            rb_ar_bytes(ar, "text", RB_K_STRING, slot_size); /* reports the truncation */
            rb_ar_record_end(ar);
            return;
        }
        const uint8_t *nul = memchr(slot, 0, slot_size);
        text = nul ? (size_t)(nul - slot) : slot_size;
        for (size_t i = text + 1; i < slot_size; i++) tail_nonzero |= slot[i];
        free(slot);
    }
    int unterminated = rb_ar_has(ar, "unterminated", text == slot_size);
    if (unterminated) rb_ar_bool_detached(ar, "unterminated", 1, 1);
    const rb_node *t = rb_ar_bytes(ar, "text", RB_K_STRING, text);
    if (!t) { rb_ar_record_end(ar); return; }
    size_t used = t->v.bytes.size;
    if (!unterminated) {
        rb_ar_expect(ar, "terminating NUL", "", 1);
        used++;
    }
    if (rb_ar_has(ar, "tail", tail_nonzero != 0)) {
        const rb_node *tail = rb_ar_bytes(ar, "tail", RB_K_BLOB, slot_size - text - 1);
        if (tail) used += tail->v.bytes.size;
    }
    if (rb_ar_ok(ar) && used > slot_size) {
        rb_ar_fail(ar, RB_E_MODEL, "text and tail take %zu bytes of a %zu-byte buffer (shorten the text or remove "
                   "\"tail\")", used, slot_size);
    } else if (rb_ar_direction(ar) == RB_AR_WRITE) {
        for (size_t i = used; i < slot_size && rb_ar_ok(ar); i++) rb_ar_slot(ar, "zero fill", RB_U8);
    } else if (rb_ar_direction(ar) == RB_AR_READ && !tail_nonzero && !unterminated) {
        rb_ar_range_begin(ar, "zero tail", slot_size - text - 1);
        while (rb_ar_ok(ar) && !rb_ar_at_end(ar)) rb_ar_slot(ar, "zero fill", RB_U8);
        rb_ar_range_end(ar);
    }
    rb_ar_record_end(ar);
}

/* ---------- GRF payloads (docs/formats/tres.md "GRF sections") ---------- */

static void grf_header(rb_ar *ar, groff_state *st, uint64_t size)
{
    rb_ar_x32(ar, "magic");
    rb_ar_x32(ar, "version"); /* bit 31: optimized by the game; low bits: data version 11..15 */
}

/* 44-byte entries and a trailing value-table handle from data version 12 on; 36 bytes before. */
static int region_entry_bytes(rb_ar *ar, uint64_t size)
{
    uint64_t n = peek_u32(ar, 0);
    if (size == 8 + 44 * n) return 44;
    if (size == 4 + 36 * n) return 36;
    return 0;
}

#define REGION_INSTANCE_FIELDS                                                                               \
    {"objectSection", RB_K_INT, RB_X32}, {"name", RB_K_INT, GROFF_NAME_WIRE},                                \
        {"position", RB_K_RECORD, .record = &VEC3}, {"rotation", RB_K_RECORD, .record = &VEC3}, {"scale", RB_K_FLOAT, 4}
static const rb_layout_field REGION_INSTANCE_FIELDS_36[] = {REGION_INSTANCE_FIELDS};
static const rb_layout REGION_INSTANCE = {"region instance", REGION_INSTANCE_FIELDS_36, 5};
static const rb_layout_field VALUE_HANDLES_FIELDS[] = {{"id", RB_K_INT, RB_U32}, {"count", RB_K_INT, RB_U32}};
static const rb_layout VALUE_HANDLES = {"value table handles", VALUE_HANDLES_FIELDS, 2};
static const rb_layout_field REGION_INSTANCE_FIELDS_44[] = {REGION_INSTANCE_FIELDS,
                                                            {"values", RB_K_RECORD, .record = &VALUE_HANDLES}};
static const rb_layout REGION_INSTANCE_WITH_VALUES = {"region instance with values", REGION_INSTANCE_FIELDS_44, 6};

static void grf_region(rb_ar *ar, groff_state *st, uint64_t size)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    int has_values = rb_ar_has(ar, "valueTableSection", reading && region_entry_bytes(ar, size) == 44);
    uint64_t n = rb_ar_table(ar, "instances", RB_U32, has_values ? &REGION_INSTANCE_WITH_VALUES : &REGION_INSTANCE);
    /* each instance refers to its name once (the name table keeps the names in use) */
    const rb_node *instances = rb_node_get(rb_ar_current(ar), "instances");
    RB_AR_EACH(ar, i, n) count_use(st, (uint32_t)rb_element_uint(instances, i, "name"));
    if (has_values) rb_ar_x32(ar, "valueTableSection");
}

static void grf_object(rb_ar *ar, groff_state *st, uint64_t size)
{
    /* the exporter inserted the object's name once for the section and the block together:
     * only a name that differs from the section's is a reference of its own */
    uint32_t name = (uint32_t)rb_ar_uint(ar, "name", GROFF_NAME_WIRE);
    if (name != st->section_name) count_use(st, name);
    rb_ar_x32(ar, "geometrySection");
    rb_ar_x32(ar, "mappingSection");
    rb_ar_x32(ar, "physics");
    rb_ar_x32(ar, "ai");
    rb_ar_x32(ar, "sound");
    rb_ar_x32(ar, "special");
}

static int material_fits(rb_ar *ar, uint64_t size)
{
    uint64_t n = peek_u32(ar, 0);
    return size >= 4 && (size == 24 + 24 * n || size == 24 + 12 * n);
}

/* One column of the material's per-slot arrays; every column has the slot count. */
static const rb_layout_field COLOUR_FIELDS[] = {{"r", RB_K_INT, RB_U32}, {"g", RB_K_INT, RB_U32}, {"b", RB_K_INT, RB_U32}};
static const rb_layout COLOUR = {"colour", COLOUR_FIELDS, 3};
static const rb_layout_field SYMBOL_HANDLE_FIELDS[] = {{NULL, RB_K_INT, GROFF_NAME_WIRE}};
static const rb_layout SYMBOL_HANDLE = {"name (symbol handle)", SYMBOL_HANDLE_FIELDS, 1};

/* One of a material's parallel columns: n colours, or n texture names (each a use of its name). */
static void material_column(rb_ar *ar, groff_state *st, const char *key, uint64_t n, int colours)
{
    uint64_t got = rb_ar_table_n(ar, key, n, colours ? &COLOUR : &SYMBOL_HANDLE);
    if (rb_ar_ok(ar) && got != n) {
        rb_ar_fail(ar, RB_E_MODEL, "has %llu entries, textureMaps has %llu", (unsigned long long)got,
                   (unsigned long long)n);
    }
    const rb_node *column = colours ? NULL : rb_node_get(rb_ar_current(ar), key);
    for (uint64_t i = 0; column && i < got && rb_ar_ok(ar); i++) count_use(st, (uint32_t)rb_element_uint(column, i, NULL));
}

static void grf_material(rb_ar *ar, groff_state *st, uint64_t size)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    rb_slot count = rb_ar_slot(ar, "slot count", RB_U32);
    uint64_t n = rb_ar_count_of(ar, "textureMaps", count.value);
    rb_ar_slot_set(ar, &count, n);
    material_column(ar, st, "textureMaps", n, 0);
    material_column(ar, st, "opacityMaps", n, 0);
    material_column(ar, st, "bumpMaps", n, 0);
    if (rb_ar_has(ar, "colours", reading && size == 24 + 24 * n)) material_column(ar, st, "colours", n, 1);
    rb_ar_f32(ar, "ambient");
    rb_ar_f32(ar, "diffuse");
    rb_ar_f32(ar, "specular");
    rb_ar_f32(ar, "opacity");
    rb_ar_f32(ar, "bumpiness");
}


/* .geometry, raw GROFF v13+ encoding: pivot, counts, default colour, arrays. */
static uint64_t raw_geometry_size(rb_ar *ar)
{
    return 40 + 12 * ((uint64_t)peek_u32(ar, 12) + 2 * (uint64_t)peek_u32(ar, 16) + peek_u32(ar, 20) + peek_u32(ar, 24));
}

/* .geometry as the game's optimized mesh-heap dump. */
static uint64_t optimized_geometry_size(rb_ar *ar)
{
    return 44 + 12 * (uint64_t)peek_u32(ar, 24) + 32 * (uint64_t)peek_u32(ar, 28) + 4 * (uint64_t)peek_u32(ar, 32) +
           12 * (uint64_t)peek_u32(ar, 36) + 40 * (uint64_t)peek_u32(ar, 40);
}

static void vec3_list(rb_ar *ar, const char *key, uint64_t n) { rb_ar_table_n(ar, key, n, &VEC3); }

static const rb_layout_field U32_TRIPLE_FIELDS[] = {{"a", RB_K_INT, RB_U32}, {"b", RB_K_INT, RB_U32}, {"c", RB_K_INT, RB_U32}};
static const rb_layout U32_TRIPLE = {"face (three vertex indices)", U32_TRIPLE_FIELDS, 3};

/* A count stored in a header before other fields: derived from its list on write. */
static rb_slot count_slot(rb_ar *ar, const char *what) { return rb_ar_slot(ar, what, RB_U32); }

static uint64_t list_length(rb_ar *ar, const char *key, const rb_slot *slot)
{
    return rb_ar_count_of(ar, key, slot->value);
}

static void grf_raw_geometry(rb_ar *ar, groff_state *st, uint64_t size)
{
    vec3(ar, "pivot");
    rb_slot a = count_slot(ar, "vertex count"), b = count_slot(ar, "face count");
    rb_slot c = count_slot(ar, "vertex normal count"), d = count_slot(ar, "wrap count");
    uint64_t na = list_length(ar, "vertices", &a), nb = list_length(ar, "faces", &b);
    uint64_t nc = list_length(ar, "vertexNormals", &c), nd = list_length(ar, "wrap", &d);
    rb_ar_record_begin(ar, "defaultColour");
    rb_ar_u32(ar, "r");
    rb_ar_u32(ar, "g");
    rb_ar_u32(ar, "b");
    rb_ar_record_end(ar);
    vec3_list(ar, "vertices", na);
    rb_ar_table_n(ar, "faces", nb, &U32_TRIPLE);
    vec3_list(ar, "faceNormals", nb);
    vec3_list(ar, "vertexNormals", nc);
    vec3_list(ar, "wrap", nd);
    rb_ar_slot_set(ar, &a, na);
    rb_ar_slot_set(ar, &b, nb);
    rb_ar_slot_set(ar, &c, nc);
    rb_ar_slot_set(ar, &d, nd);
}

static const rb_layout_field MESH_VERTEX_FIELDS[] = {
    {"point", RB_K_INT, RB_U32},
    {"normal", RB_K_RECORD, .record = &VEC3},
    {"u", RB_K_FLOAT, 4},
    {"v", RB_K_FLOAT, 4},
    {"normalSpecified", RB_K_INT, RB_U8},
    {"unionRest", RB_K_BLOB, .size = 7},
};
static const rb_layout MESH_VERTEX = {"mesh vertex", MESH_VERTEX_FIELDS, 6};

static const rb_layout_field VERTEX_REF_FIELDS[] = {{NULL, RB_K_INT, RB_U32}};
static const rb_layout VERTEX_REF = {"vertex reference", VERTEX_REF_FIELDS, 1};

static const rb_layout_field MESH_POLYGON_FIELDS[] = {
    {"vertexCount", RB_K_INT, RB_U32},
    {"firstVertexRef", RB_K_INT, RB_U32},
    {"normal", RB_K_RECORD, .record = &VEC3},
    {"planeD", RB_K_FLOAT, 4},
    {"surface", RB_K_INT, RB_U32},
    {"flagsAndPadding", RB_K_INT, RB_X32}, /* u8 flags (bit2 curved) + 3 pad bytes */
    {"textureMatrix", RB_K_INT, RB_X32},
    {"worldArea", RB_K_FLOAT, 4}, /* uninitialised in the original (junk), kept by bits */
};
static const rb_layout MESH_POLYGON = {"mesh polygon", MESH_POLYGON_FIELDS, 8};

static void grf_mesh_geometry(rb_ar *ar, groff_state *st, uint64_t size)
{
    rb_ar_x32(ar, "materialSection");
    rb_ar_u32(ar, "needsDefaultColour");
    rb_ar_x32(ar, "defaultColour");
    vec3(ar, "pivot");
    rb_slot p = count_slot(ar, "point count"), v = count_slot(ar, "vertex count"), r = count_slot(ar, "vertex ref count");
    rb_slot w = count_slot(ar, "wrap count"), q = count_slot(ar, "polygon count");
    uint64_t np = list_length(ar, "points", &p), nv = list_length(ar, "vertices", &v);
    uint64_t nr = list_length(ar, "vertexRefs", &r), nw = list_length(ar, "wrap", &w);
    uint64_t nq = list_length(ar, "polygons", &q);
    vec3_list(ar, "points", np);
    nv = rb_ar_table_n(ar, "vertices", nv, &MESH_VERTEX);
    nr = rb_ar_table_n(ar, "vertexRefs", nr, &VERTEX_REF);
    nq = rb_ar_table_n(ar, "polygons", nq, &MESH_POLYGON);
    vec3_list(ar, "wrap", nw);
    rb_ar_slot_set(ar, &p, np);
    rb_ar_slot_set(ar, &v, nv);
    rb_ar_slot_set(ar, &r, nr);
    rb_ar_slot_set(ar, &w, nw);
    rb_ar_slot_set(ar, &q, nq);
}

/* .mapping: material, uv list, per-face uv indices and material slots. */
static int mapping_fits(rb_ar *ar, uint64_t size)
{
    if (size < 12) return 0;
    uint64_t t = peek_u32(ar, 4), f = peek_u32(ar, 8);
    return size == 12 + 8 * t + 16 * f;
}

static const rb_layout_field UV_FIELDS[] = {{"u", RB_K_FLOAT, 4}, {"v", RB_K_FLOAT, 4}};
static const rb_layout UV = {"texture coordinate", UV_FIELDS, 2};
static const rb_layout_field FACE_SLOT_FIELDS[] = {{NULL, RB_K_INT, RB_U32}};
static const rb_layout FACE_SLOT = {"face material slot", FACE_SLOT_FIELDS, 1};

static void grf_mapping(rb_ar *ar, groff_state *st, uint64_t size)
{
    rb_ar_x32(ar, "materialSection");
    rb_slot t = count_slot(ar, "uv count"), f = count_slot(ar, "face count");
    uint64_t nt = list_length(ar, "uvs", &t), nf = list_length(ar, "faceUvs", &f);
    nt = rb_ar_table_n(ar, "uvs", nt, &UV);
    rb_ar_table_n(ar, "faceUvs", nf, &U32_TRIPLE);
    uint64_t slots = rb_ar_table_n(ar, "faceSlots", nf, &FACE_SLOT);
    if (rb_ar_ok(ar) && slots != nf) rb_ar_fail(ar, RB_E_MODEL, "faceSlots has %llu entries, faceUvs has %llu",
                                                (unsigned long long)slots, (unsigned long long)nf);
    rb_ar_slot_set(ar, &t, nt);
    rb_ar_slot_set(ar, &f, nf);
}

/* The 4-byte mapping an optimizing game run left: only the material section handle. */
static void grf_material_link(rb_ar *ar, groff_state *st, uint64_t size) { rb_ar_x32(ar, "materialSection"); }

/* ---------- SCN and savegame payloads ---------- */
/* docs/formats/tres.md "SCN and savegame blocks" */

static void scn_header(rb_ar *ar, groff_state *st, uint64_t size)
{
    st->save_version = rb_ar_i32(ar, "saveVersion");
    uint64_t n = rb_ar_list_begin_n(ar, "groffPaths", SCN_PATH_SLOTS, SCN_PATH_SLOT);
    if (rb_ar_ok(ar) && n != SCN_PATH_SLOTS) rb_ar_fail(ar, RB_E_MODEL, "must have exactly 5 path slots");
    RB_AR_LIST(ar, i, n) fixed_text(ar, NULL, SCN_PATH_SLOT);
    rb_ar_bool(ar, "brief", 1);
    rb_ar_bytes(ar, "padding", RB_K_BLOB, 3);
    rb_ar_f32(ar, "gameTime");
    st->animal_version = rb_ar_i32(ar, "animalVersion");
    rb_ar_f32(ar, "realTime");
    rb_ar_bytes(ar, "slop", RB_K_BLOB, 48);
}

/* Partition and instance records carry 4 flag bytes except in save versions 13..16. */
static void scn_partitions(rb_ar *ar, groff_state *st, uint64_t size)
{
    rb_ar_u8(ar, "version");
    unsigned record = tres_save_has_flags(st->save_version) ? 28 : 24;
    RB_AR_RECORDS(ar, i, rb_ar_list_begin_n(ar, "records", size > 0 ? (size - 1) / record : 0, record)) {
        if (rb_ar_has(ar, "flags", tres_save_has_flags(st->save_version))) rb_ar_x32(ar, "flags");
        vec3(ar, "centre");
        vec3(ar, "corner");
    }
}

static void scn_hierarchy(rb_ar *ar, groff_state *st, uint64_t size)
{
    RB_AR_RECORDS(ar, i, rb_ar_list_begin_n(ar, "pairs", size / 8, 8)) {
        rb_ar_x32(ar, "node");
        rb_ar_x32(ar, "parent");
    }
}

/* Base CInstance update: position, rotation quaternion, scale, partition flags (absent in save
 * versions 13..16); subclasses append data, kept as `extra` bytes. */
static void scn_instance(rb_ar *ar, groff_state *st, uint64_t size)
{
    vec3(ar, "position");
    rb_ar_record_begin(ar, "rotation");
    rb_ar_f32(ar, "w");
    rb_ar_f32(ar, "x");
    rb_ar_f32(ar, "y");
    rb_ar_f32(ar, "z");
    rb_ar_record_end(ar);
    rb_ar_f32(ar, "scale");
    if (rb_ar_has(ar, "flags", tres_save_has_flags(st->save_version))) rb_ar_x32(ar, "flags");
    if (rb_ar_has(ar, "extra", rb_ar_remaining(ar) > 0)) rb_ar_rest(ar, "extra");
}

static void grf_value_table(rb_ar *ar, groff_state *st, uint64_t size) { groff_value_table(ar, size); }

static void save_game_name(rb_ar *ar, groff_state *st, uint64_t size) { fixed_text(ar, "text", 21); }
static void save_scn_name(rb_ar *ar, groff_state *st, uint64_t size) { fixed_text(ar, "text", 20); }

/* ---------- payload dispatch ---------- */

typedef void (*payload_fn)(rb_ar *ar, groff_state *st, uint64_t size);

typedef enum payload_kind {
    P_GRF_HEADER, P_REGION, P_OBJECT, P_MATERIAL, P_RAW_GEOMETRY, P_MESH_GEOMETRY, P_MAPPING, P_MATERIAL_LINK, P_SCN_HEADER, P_PARTITIONS, P_HIERARCHY, P_INSTANCE,
    P_SAVE_NAME, P_SAVE_SCN, P_VALUE_TABLE, P_BITMAP, P_SCN_CLASS, P_OPAQUE, P_COUNT
} payload_kind;

static const struct {
    const char *key;
    payload_fn describe; /* NULL: plain bytes */
} PAYLOADS[P_COUNT] = {
    [P_GRF_HEADER] = {"header", grf_header},       [P_REGION] = {"region", grf_region},
    [P_OBJECT] = {"object", grf_object},           [P_MATERIAL] = {"material", grf_material},
    [P_RAW_GEOMETRY] = {"geometry", grf_raw_geometry}, [P_MESH_GEOMETRY] = {"meshGeometry", grf_mesh_geometry},
    [P_MAPPING] = {"mapping", grf_mapping},        [P_MATERIAL_LINK] = {"materialLink", grf_material_link},
    [P_SCN_HEADER] = {"saveHeader", scn_header},   [P_PARTITIONS] = {"partitions", scn_partitions},
    [P_HIERARCHY] = {"hierarchy", scn_hierarchy},  [P_INSTANCE] = {"instance", scn_instance},
    [P_SAVE_NAME] = {"saveGameName", save_game_name}, [P_SAVE_SCN] = {"saveScnName", save_scn_name},
    [P_VALUE_TABLE] = {"valueTable", grf_value_table},
    [P_BITMAP] = {"bitmap", NULL},
    [P_SCN_CLASS] = {NULL, NULL}, /* scn.c: the key names the class */                 [P_OPAQUE] = {"data", NULL},
};

/* Subsystem blocks are CRC-named like instances but hold other classes
 * (docs/formats/tres.md "Hashes and ids"). */
static int is_subsystem_block(const groff_symbol *s)
{
    static const char *const subsystems[] = {"80A9DC71", "9FB57F53", "4C56C6CC", "A9AC56AE",
                                             "5DF133BB", "454D9C65", "85DFA9CD", "7CB6A2D"};
    for (size_t i = 0; i < sizeof subsystems / sizeof *subsystems; i++)
        if (s->size == strlen(subsystems[i]) && memcmp(s->text, subsystems[i], s->size) == 0) return 1;
    return 0;
}

static int is_instance_block_name(const groff_symbol *s)
{
    if (!s || !s->text || s->size == 0 || s->size > 8 || is_subsystem_block(s)) return 0;
    for (size_t i = 0; i < s->size; i++)
        if (!((s->text[i] >= '0' && s->text[i] <= '9') || (s->text[i] >= 'A' && s->text[i] <= 'F'))) return 0;
    return 1;
}

static payload_kind classify_special(rb_ar *ar, groff_state *st, const groff_entry *e)
{
    uint64_t size = e->size;
    if (name_is(st, e->name, "Header") && size == SCN_HEADER_BYTES) return P_SCN_HEADER;
    if (name_is(st, e->name, "SaveGameName") && size == 21) return P_SAVE_NAME;
    if (name_is(st, e->name, "SaveSCNName") && size == 20) return P_SAVE_SCN;
    if (name_is(st, e->name, "SaveBMP")) return P_BITMAP;
    if ((name_is(st, e->name, "Hierarchy") || name_is(st, e->name, "TriggerHierarchy") ||
         name_is(st, e->name, "TerrainHierarchy")) && size % 8 == 0)
        return P_HIERARCHY;
    if (st->save_version < 0) return P_OPAQUE; /* record sizes depend on the save version */
    unsigned record = tres_save_has_flags(st->save_version) ? 28 : 24;
    if (name_is(st, e->name, "Partitions") && size >= 1 && (size - 1) % record == 0)
        return P_PARTITIONS;
    if (is_instance_block_name(name_of(st, e->name)) && size == (tres_save_has_flags(st->save_version) ? 36u : 32u)) return P_INSTANCE;
    return P_SCN_CLASS; /* scn.c decides, or keeps the bytes */
}

/* Both encodings live in one file; the sizes tell them apart, and a section both
 * could be stays opaque rather than guessed. */
static payload_kind classify_geometry(rb_ar *ar, uint64_t size)
{
    if (size < 44) return size == 40 && raw_geometry_size(ar) == 40 ? P_RAW_GEOMETRY : P_OPAQUE;
    int raw = raw_geometry_size(ar) == size, mesh = optimized_geometry_size(ar) == size;
    return raw && !mesh ? P_RAW_GEOMETRY : mesh && !raw ? P_MESH_GEOMETRY : P_OPAQUE;
}

static payload_kind classify(rb_ar *ar, groff_state *st, const groff_entry *e)
{
    switch (e->type) {
    case TYPE_HEADER: return name_is(st, e->name, ".header") && e->size == 8 ? P_GRF_HEADER : P_OPAQUE;
    case TYPE_REGION: return region_entry_bytes(ar, e->size) ? P_REGION : P_OPAQUE;
    case TYPE_OBJECT: return e->size == 28 ? P_OBJECT : P_OPAQUE;
    case TYPE_MATERIAL: return material_fits(ar, e->size) ? P_MATERIAL : P_OPAQUE;
    case TYPE_GEOMETRY: return classify_geometry(ar, e->size);
    case TYPE_MAPPING: return e->size == 4 ? P_MATERIAL_LINK : mapping_fits(ar, e->size) ? P_MAPPING : P_OPAQUE;
    case TYPE_SPECIAL: return classify_special(ar, st, e);
    case TYPE_VALUE_TABLE: return P_VALUE_TABLE; /* tried; kept opaque when it does not parse */
    default: return P_OPAQUE;
    }
}

static void typed_payload(rb_ar *ar, groff_state *st, const groff_entry *e, payload_kind kind)
{
    rb_ar_record_begin(ar, PAYLOADS[kind].key);
    PAYLOADS[kind].describe(ar, st, e->size);
    rb_ar_record_end(ar);
}

static void section_payload(rb_ar *ar, groff_state *st, const groff_entry *e)
{
    payload_kind kind = P_OPAQUE;
    if (rb_ar_direction(ar) == RB_AR_READ) {
        kind = classify(ar, st, e);
    } else {
        for (kind = 0; kind < P_OPAQUE; kind++)
            if (PAYLOADS[kind].key && rb_ar_has(ar, PAYLOADS[kind].key, 0)) break;
        if (kind == P_OPAQUE && !rb_ar_has(ar, "data", 0)) kind = P_SCN_CLASS;
    }
    if (kind == P_SCN_CLASS) {
        scn_context cx = {st->save_version, st->animal_version, ""};
        char name[16] = "";
        const groff_symbol *s = name_of(st, e->name);
        if (s && s->text && s->size < sizeof name) memcpy(name, s->text, s->size);
        cx.block_name = name;
        if (!scn_block(ar, &cx, e->size)) rb_ar_rest(ar, "data");
    } else if (kind == P_OPAQUE) {
        rb_ar_rest(ar, "data");
    } else if (kind == P_BITMAP) {
        rb_ar_bytes(ar, "bitmap", RB_K_BLOB, rb_ar_remaining(ar));
    } else if (rb_ar_direction(ar) == RB_AR_READ && kind == P_VALUE_TABLE) {
        /* no size check tells a value table in advance: a payload that does not parse as one
         * is kept as bytes, with a note saying why */
        rb_ar_mark mark = rb_ar_mark_here(ar);
        typed_payload(ar, st, e, kind);
        if (rb_ar_ok(ar) || mark.failed) return;
        char why[300];
        rb_ar_rewind(ar, &mark, why, sizeof why);
        rb_ar_note(ar, "value table kept opaque: %s", why);
        rb_ar_rest(ar, "data");
    } else {
        typed_payload(ar, st, e, kind);
    }
}

/* ---------- directory and sections ---------- */

static void read_directory(rb_ar *ar, groff_entry *dir, uint64_t count)
{
    RB_AR_EACH(ar, i, count) {
        uint32_t *f = &dir[i].name;
        for (int k = 0; k < 8; k++) f[k] = (uint32_t)rb_ar_slot(ar, "directory entry", RB_U32).value;
    }
}

static uint32_t model_u32(const rb_node *record, const char *key, uint32_t fallback)
{
    const rb_node *n = rb_node_get(record, key);
    return n ? (uint32_t)rb_node_uint(n) : fallback;
}

/* WRITE: the directory from the model; offsets and sizes are patched after the payloads. */
static void write_directory(rb_ar *ar, const rb_node *sections, rb_slot *offsets, rb_slot *sizes)
{
    RB_AR_EACH(ar, i, sections->v.kids.count) {
        const rb_node *s = sections->v.kids.items[i];
        uint32_t fields[8] = {model_u32(s, "name", 0), model_u32(s, "flags", 0), 0, 0,
                              model_u32(s, "relocationOffset", 0), model_u32(s, "relocationCount", 0),
                              model_u32(s, "type", 0), model_u32(s, "handle", SECTION_HANDLE_BASE + (uint32_t)i)};
        for (int k = 0; k < 8; k++) {
            rb_slot slot = rb_ar_slot(ar, "directory entry", RB_U32);
            if (k == 2) offsets[i] = slot;
            else if (k == 3) sizes[i] = slot;
            else rb_ar_slot_set(ar, &slot, fields[k]);
        }
    }
}

/* A directory field the game ignores and the writer normally derives: kept only when it differs. */
static uint32_t optional_field(rb_ar *ar, const char *key, uint32_t read_value, uint32_t usual)
{
    if (!rb_ar_has(ar, key, read_value != usual)) return usual;
    return (uint32_t)rb_ar_uint_detached(ar, key, RB_X32, read_value);
}

/* The directory and the section payloads. `unit` (READ, deferring) lets go of each section's nodes
 * once it is read; returns the number of sections. */
static uint64_t describe_sections(rb_ar *ar, groff_state *st, uint64_t base, uint64_t count_read, rb_ar_unit *unit)
{
    int dir = rb_ar_direction(ar);
    const rb_node *model = dir == RB_AR_WRITE ? rb_node_get(rb_ar_current(ar), "sections") : NULL;
    uint64_t count = dir == RB_AR_READ ? count_read : dir == RB_AR_WRITE ? (model ? model->v.kids.count : 0)
                                                                        : rb_ar_count_of(ar, "sections", 0);
    /* bounded before allocating: each section has a directory entry in the file */
    if (dir == RB_AR_READ && (count > rb_ar_limits(ar)->max_count || count > rb_ar_remaining(ar) / GROFF_DIR_BYTES)) {
        rb_ar_fail(ar, RB_E_FORMAT, "%llu sections cannot fit in the %llu bytes left (limit max_count %llu)",
                   (unsigned long long)count, (unsigned long long)rb_ar_remaining(ar),
                   (unsigned long long)rb_ar_limits(ar)->max_count);
        return 0;
    }
    groff_entry *entries = calloc(count + 1, sizeof *entries);
    rb_slot *offsets = calloc(count + 1, sizeof *offsets), *sizes = calloc(count + 1, sizeof *sizes);
    if (!entries || !offsets || !sizes) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu sections", (unsigned long long)count);
        goto done;
    }
    if (dir == RB_AR_READ) read_directory(ar, entries, count);
    if (dir == RB_AR_WRITE && model) write_directory(ar, model, offsets, sizes);
    uint64_t expected_offset = GROFF_HEADER_BYTES + (uint64_t)GROFF_DIR_BYTES * count;
    count = rb_ar_list_begin_n(ar, "sections", count, 0);
    if (unit) rb_ar_unit_elements(ar, unit);
    RB_AR_LIST(ar, i, count) {
        groff_entry *e = &entries[i];
        rb_ar_record_begin(ar, NULL);
        e->name = (uint32_t)rb_ar_uint_detached(ar, "name", GROFF_NAME_WIRE, e->name);
        count_use(st, e->name);
        st->section_name = e->name;
        e->type = (uint32_t)rb_ar_uint_detached(ar, "type", RB_X32, e->type);
        optional_field(ar, "flags", e->flags, 0);
        optional_field(ar, "relocationOffset", e->relocation_offset, 0);
        optional_field(ar, "relocationCount", e->relocation_count, 0);
        optional_field(ar, "handle", e->handle, SECTION_HANDLE_BASE + (uint32_t)i);
        /* the game never reads offsets (it reads sequentially): a stale one is kept as it was */
        uint32_t offset = optional_field(ar, "storedOffset", e->offset, (uint32_t)expected_offset);
        uint64_t start = rb_ar_tell(ar) - base;
        rb_ar_range_begin(ar, "section payload", e->size);
        section_payload(ar, st, e);
        rb_ar_range_end(ar);
        uint64_t size = dir == RB_AR_READ ? e->size : rb_ar_tell(ar) - base - start;
        rb_ar_slot_set(ar, &offsets[i], offset);
        rb_ar_slot_set(ar, &sizes[i], size);
        expected_offset += size;
        rb_ar_record_end(ar);
        if (unit) rb_ar_unit_drop_elements(ar, unit);
    }
done:
    free(entries);
    free(offsets);
    free(sizes);
    return count;
}

/* ---------- the sections as one deferred unit (docs/formats/tres.md "The deferred model") ---------- */

/* What the sections did to the writer's state, for a write that copies their bytes: the name uses
 * they counted, as (handle, uses) pairs of the symbols that have any. The name table's reference
 * counts are derived from them. (The save and animal versions matter to later sections only.) */
static rb_node *defer_sections(rb_ar *ar, groff_state *st, const rb_ar_unit *unit)
{
    uint32_t *uses = malloc((2 * st->symbol_count + 1) * sizeof *uses);
    if (!uses) {
        rb_ar_fail(ar, RB_E_NOMEM, "out of memory");
        return NULL;
    }
    size_t pairs = 0;
    for (size_t i = 0; i < st->symbol_count; i++) {
        if (!st->symbols[i].uses) continue;
        uses[2 * pairs] = st->symbols[i].handle;
        uses[2 * pairs + 1] = st->symbols[i].uses;
        pairs++;
    }
    rb_node *d = rb_ar_unit_defer(ar, unit, uses, pairs * 2 * sizeof *uses, (uint32_t)pairs, 0);
    free(uses);
    return d;
}

/* WRITE, and READ beside a document that has the unit: the uses a deferred sections unit counted
 * when it was read. */
static void replay_uses(groff_state *st, const rb_deferred *unit)
{
    const uint32_t *uses = unit->replay;
    for (uint32_t i = 0; i < unit->replay_count; i++) {
        groff_symbol *s = find_symbol(st, uses[2 * i]);
        if (s) s->uses += uses[2 * i + 1];
    }
}

/* READ again after a refused unit: the state the sections build starts over, and the notes the
 * first attempt left go (the second leaves them again). */
static void restart_sections(rb_ar *ar, groff_state *st, const rb_ar_mark *mark, size_t notes)
{
    rb_ar_rewind(ar, mark, NULL, 0);
    for (size_t i = 0; i < st->symbol_count; i++) st->symbols[i].uses = 0;
    st->save_version = -1;
    st->animal_version = 0;
    rb_doc_state *doc = rb_ar_doc(ar);
    while (doc->note_count > notes) free((void *)doc->notes[--doc->note_count]);
}

/* The directory and the payloads. Read with rb_read_options.defer, they are checked in full and
 * kept as one unit of bytes (the directory is derived from the payloads, and nothing but the
 * name table reads their nodes: it gets their uses from the unit's replay record); each
 * section's nodes go as soon as it is read, so the read holds one section at a time. Returns the
 * number of sections. */
static uint64_t groff_sections(rb_ar *ar, groff_state *st, uint64_t base, uint64_t count_read)
{
    const rb_node *deferred = rb_ar_next_deferred(ar);
    if (deferred) { /* WRITE: the sections as read */
        replay_uses(st, deferred->deferred);
        rb_ar_copy_deferred(ar);
        return deferred->deferred->elements;
    }
    /* Only a read keeps the sections as their bytes: a build (FROM_JSON) has no bytes to keep
     * yet, and letting go of sections it built would make it build them all again. */
    /* A read that checks its units (rb_ar_checks_units) keeps the sections as nodes: their write
     * is not made alone (the name uses it counts go to the name table written after them). */
    int keeps_bytes = rb_ar_direction(ar) == RB_AR_READ && !rb_ar_checks_units(ar);
    const rb_node *known = keeps_bytes ? rb_ar_unit_known(ar) : NULL;
    if (known) { /* READ beside a document with these sections: the name uses their read counted */
        replay_uses(st, known->deferred);
        return known->deferred->elements;
    }
    rb_ar_mark mark = rb_ar_mark_here(ar);
    size_t notes = rb_ar_doc(ar)->note_count;
    rb_ar_unit unit = keeps_bytes ? rb_ar_unit_begin(ar) : (rb_ar_unit){0};
    if (!unit.open) return describe_sections(ar, st, base, count_read, NULL);
    uint64_t count = describe_sections(ar, st, base, count_read, &unit);
    if (!rb_ar_ok(ar) || defer_sections(ar, st, &unit) || !rb_ar_ok(ar) || !unit.dropped) return count;
    /* sections were let go but the list cannot stand as its bytes (a stream opened in it, which
     * no GROFF payload does yet): read it again, whole */
    restart_sections(ar, st, &mark, notes);
    return describe_sections(ar, st, base, count_read, NULL);
}

/* ---------- name table ---------- */

static int symbol_node_by_text(const void *a, const void *b)
{
    const rb_node *x = rb_node_get(*(const rb_node *const *)a, "name");
    const rb_node *y = rb_node_get(*(const rb_node *const *)b, "name");
    if (!x || !y) return (x != NULL) - (y != NULL);
    return name_compare(x->v.bytes.data, x->v.bytes.size, y->v.bytes.data, y->v.bytes.size);
}

static int symbol_is_referenced(groff_state *st, const rb_node *symbol)
{
    const groff_symbol *s = find_symbol(st, (uint32_t)rb_node_uint(rb_node_get(symbol, "handle")));
    return (s && s->uses) || rb_node_get(symbol, "extraReferences") || rb_node_get(symbol, "unreferenced");
}

/* WRITE, the name-table layout: names nothing refers to any more are dropped and the rest put
 * in strcmp order, in the model itself, so the model stays what a re-read of the output gives.
 * (The game puts the names in ordered sets; the order in the file is the exporter's.) */
static void layout_symbols(rb_ar *ar, groff_state *st, int keep_order)
{
    rb_node *list = rb_ar_own(ar, rb_node_get(rb_ar_current(ar), "symbols"));
    if (!list || list->kind != RB_K_LIST) return;
    /* A model the file was read into is laid out already: then nothing is stored, so writes of an
     * unedited document only read it (docs/performance.md "Reads never write"). */
    size_t kept = 0;
    for (size_t i = 0; i < list->v.kids.count; i++) {
        rb_node *symbol = list->v.kids.items[i];
        if (!symbol_is_referenced(st, symbol)) continue;
        if (list->v.kids.items[kept] != symbol) list->v.kids.items[kept] = symbol;
        kept++;
    }
    if (list->v.kids.count != kept) list->v.kids.count = (uint32_t)kept;
    /* insertion sort: stable, and the list is nearly sorted after an edit */
    for (size_t i = 1; i < kept && !keep_order; i++) {
        rb_node *symbol = list->v.kids.items[i];
        if (symbol_node_by_text(&list->v.kids.items[i - 1], &symbol) <= 0) continue; /* in place */
        size_t j = i;
        for (; j > 0 && symbol_node_by_text(&list->v.kids.items[j - 1], &symbol) > 0; j--)
            list->v.kids.items[j] = list->v.kids.items[j - 1];
        list->v.kids.items[j] = symbol;
    }
}

static void symbol_entry(rb_ar *ar, groff_state *st)
{
    rb_ar_record_begin(ar, NULL);
    uint32_t handle = rb_ar_x32(ar, "handle");
    rb_slot length = rb_ar_slot(ar, "name length", RB_U32);
    rb_slot references = rb_ar_slot(ar, "reference count", RB_U32);
    const groff_symbol *s = find_symbol(st, handle);
    uint32_t counted = s ? s->uses : 0;
    uint32_t extra = (uint32_t)(references.value - counted);
    if (rb_ar_has(ar, "extraReferences", extra != 0))
        extra = (uint32_t)rb_ar_uint_detached(ar, "extraReferences", RB_U32, extra);
    else
        extra = 0;
    /* a name the file lists with no reference at all (none in known files) is kept as such */
    if (rb_ar_has(ar, "unreferenced", references.value == 0)) rb_ar_bool_detached(ar, "unreferenced", 1, 1);
    uint8_t last = 1;
    if (length.value) peek_bytes(ar, length.value - 1, &last, 1);
    int unterminated = rb_ar_has(ar, "unterminated", length.value == 0 || last != 0);
    if (unterminated) rb_ar_bool_detached(ar, "unterminated", 1, 1);
    const rb_node *name = rb_ar_bytes(ar, "name", RB_K_STRING, unterminated ? length.value : length.value - 1);
    if (!unterminated) rb_ar_expect(ar, "name terminator", "", 1);
    if (rb_ar_direction(ar) == RB_AR_WRITE && name) {
        rb_ar_slot_set(ar, &length, (uint32_t)name->v.bytes.size + !unterminated);
        rb_ar_slot_set(ar, &references, counted + extra);
    }
    rb_ar_record_end(ar);
}

static void groff_symbols(rb_ar *ar, groff_state *st, uint64_t count_read, int keep_order)
{
    if (rb_ar_direction(ar) == RB_AR_WRITE) layout_symbols(ar, st, keep_order);
    RB_AR_LIST(ar, i, rb_ar_list_begin_n(ar, "symbols", count_read, 12)) symbol_entry(ar, st);
}

/* ---------- the container ---------- */

/* A header field derived on write; a differing stored value is kept as `key`. */
static void derived_header_field(rb_ar *ar, const char *key, rb_slot *slot, uint64_t computed)
{
    uint64_t value = computed;
    if (rb_ar_has(ar, key, slot->value != computed)) value = rb_ar_uint_detached(ar, key, RB_U32, slot->value);
    rb_ar_slot_set(ar, slot, value);
}

/* The GROFF description, usable inside another container (the SZDD wrapper). */
static void groff_container(rb_ar *ar)
{
    groff_state st = {.save_version = -1, .file_order_sorted = 1};
    groff_json_names json_names;
    groff_names_from_json_begin(ar, &json_names);
    int dir = rb_ar_direction(ar);
    uint64_t base = rb_ar_tell(ar);
    int ok = dir == RB_AR_READ ? prescan_names(ar, &st) : dir == RB_AR_WRITE ? collect_model_symbols(ar, &st) : 1;
    if (!ok) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory for the name table"); goto done; }
    static const uint8_t magic[4] = {0xBE, 0xBA, 0xCE, 0x0A};
    rb_ar_expect(ar, "GROFF magic 0x0ACEBABE", magic, 4);
    rb_slot file_size = rb_ar_slot(ar, "file size", RB_U32);
    rb_slot section_count = rb_ar_slot(ar, "section count", RB_U32);
    rb_slot name_count = rb_ar_slot(ar, "name count", RB_U32);
    rb_slot table_size = rb_ar_slot(ar, "name table size", RB_U32);
    rb_slot table_offset = rb_ar_slot(ar, "name table offset", RB_U32);
    rb_ar_u32(ar, "timeStamp");
    rb_ar_x32(ar, "flags");
    uint32_t version = rb_ar_u32(ar, "containerVersion");
    if (rb_ar_ok(ar) && dir == RB_AR_READ && version != 10)
        rb_ar_fail(ar, RB_E_UNSUPPORTED, "GROFF container version %u (the game accepts only 10)", version);
    rb_ar_u32(ar, "reserved1");
    rb_ar_u32(ar, "reserved2");
    rb_ar_x32(ar, "headerCrc");
    uint64_t sections = groff_sections(ar, &st, base, section_count.value);
    rb_ar_slot_set(ar, &section_count, sections);
    uint64_t names_at = rb_ar_tell(ar) - base;
    int keep_order = rb_ar_has(ar, "unsortedNameTable", !st.file_order_sorted);
    if (keep_order) rb_ar_bool_detached(ar, "unsortedNameTable", 1, 1);
    groff_symbols(ar, &st, name_count.value, keep_order);
    const rb_node *symbols = rb_node_get(rb_ar_current(ar), "symbols");
    groff_names_from_json_end(ar, &json_names, rb_ar_own(ar, symbols));
    uint64_t names = dir == RB_AR_READ ? name_count.value : symbols ? symbols->v.kids.count : 0;
    uint64_t end = rb_ar_tell(ar) - base;
    /* the game stops after the last name; anything behind it is kept */
    if (rb_ar_has(ar, "trailing", !rb_ar_at_end(ar))) rb_ar_rest(ar, "trailing");
    derived_header_field(ar, "storedNameCount", &name_count, names);
    derived_header_field(ar, "storedNameTableOffset", &table_offset, names_at);
    derived_header_field(ar, "storedNameTableSize", &table_size, end - names_at);
    derived_header_field(ar, "storedFileSize", &file_size, end);
done:
    free(st.symbols);
    free(st.by_handle);
    free(st.names);
}

/* ---------- the format: plain or inside SZDD ---------- */

static int groff_detect(const uint8_t *data, size_t size)
{
    static const uint8_t magic[4] = {0xBE, 0xBA, 0xCE, 0x0A};
    if (size >= GROFF_HEADER_BYTES && memcmp(data, magic, 4) == 0) return 100;
    /* SZDD: the first flag byte announces four literals, the GROFF magic */
    if (size >= 19 && memcmp(data, RB_SZDD_MAGIC, 8) == 0 && (data[14] & 0x0F) == 0x0F &&
        memcmp(data + 15, magic, 4) == 0)
        return 100;
    return 0;
}

static void groff_describe(rb_ar *ar)
{
    int packed = rb_ar_direction(ar) == RB_AR_READ ? rb_ar_remaining(ar) >= 8 && peek_u32(ar, 0) == 0x44445A53u
                                                   : rb_ar_has(ar, "szdd", 0);
    if (!packed) {
        groff_container(ar);
        return;
    }
    rb_ar_expect(ar, "SZDD magic", RB_SZDD_MAGIC, 8);
    rb_ar_record_begin(ar, "szdd");
    rb_ar_uint(ar, "mode", RB_U8 | RB_W_CHAR);
    rb_ar_u8(ar, "missingCharacter");
    rb_ar_record_end(ar);
    rb_slot content_size = rb_ar_slot(ar, "uncompressed size", RB_U32);
    rb_ar_stream_begin(ar, "content", &rb_codec_szdd, content_size.value, rb_ar_remaining(ar));
    groff_container(ar);
    rb_slot no_encoded_size = {0}; /* SZDD stores only the content size */
    rb_ar_stream_end(ar, &content_size, &no_encoded_size);
}

/* Natural keys: a symbol by its handle, since its text is what a rename edits. */
static const rb_key_set GROFF_IDENTITY_KEYS[] = {{20, {"handle", NULL}}};

/* What the sections unit's read takes from outside it (rb_format.unit_reads): the name table and the
 * stored counts and offsets that place it (prescan_names), the container's version, and all of an
 * SZDD-packed file's content (one stream: an edit there re-encodes around the unit). */
static const char *const GROFF_UNIT_READS[] = {"/symbols", "/unsortedNameTable", "/storedNameCount",
                                               "/storedNameTableOffset", "/storedNameTableSize", "/storedFileSize",
                                               "/containerVersion", "/content", "/szdd", NULL};

const rb_format rb_format_groff = {
    .name = "groff",
    .description = "Trespasser GROFF container (.grf level, .scn scene, savegame; plain or SZDD-packed)",
    .summary = groff_summary,
    .detect = groff_detect,
    .describe = groff_describe,
    .symbol_text = groff_symbol_text,
    .symbol_handle = groff_symbol_handle,
    .after_read = groff_names_index,
    .after_edit = groff_names_index,
    .free_index = groff_names_free_index,
    .written_lists = groff_written_lists,
    .rules = groff_rules,
    .identity_keys = GROFF_IDENTITY_KEYS,
    .identity_key_count = 1,
    .unit_reads = GROFF_UNIT_READS,
};
