/*
 * The asset-list chunks of data.win that modders edit most (layouts: docs/formats/datawin.md,
 * one section per chunk, e.g. "OBJT"; checked against UndertaleModTool's models): OBJT (game
 * objects: physics vertices, events, actions), SOND and AGRP (sounds, audio groups), SCPT, PATH,
 * GLOB, TMLN, SHDR (shaders and their compiled blobs), OPTN (game options), LANG, EXTN (extensions).
 *
 * Where a layout changed in a GameMaker version the file does not name (OBJT "managed" 2022.5,
 * SOND length 2024.6, AGRP path 2024.14, EXTN 2022.6 / 2023.4), the variant is a chunk-level model
 * field that READ decides by trying the variants, most likely first, keeping the first one that
 * reproduces the chunk exactly (the pointer checks of datawin_pointer_list reject a wrong stride).
 */
#include <stdlib.h>
#include <string.h>
#include "core/datawin/datawin_internal.h"

static void bool32(rb_ar *ar, const char *key) { rb_ar_bool(ar, key, 4); }

/* ---------- OBJT (docs/formats/datawin.md "OBJT") ---------- */

/* EventAction: also the element of timeline moments (TMLN). */
static void event_action(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    rb_ar_u32(ar, "libId");
    rb_ar_u32(ar, "id");
    rb_ar_u32(ar, "kind");
    bool32(ar, "useRelative");
    bool32(ar, "isQuestion");
    bool32(ar, "useApplyTo");
    rb_ar_u32(ar, "exeType");
    datawin_strref(ar, st, "actionName");
    rb_ar_i32(ar, "codeId");
    rb_ar_u32(ar, "argumentCount");
    rb_ar_i32(ar, "who");
    bool32(ar, "relative");
    bool32(ar, "isNot");
    rb_ar_u32(ar, "unknownAlwaysZero");
}

static void object_event(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    rb_ar_u32(ar, "subtype");
    datawin_pointer_list(ar, st, "actions", 1, event_action, NULL);
}

/* One entry of the per-type list (13 event types in GM:S 1.4, 15 in GMS2): the events of that type. */
static void events_of_type(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    datawin_pointer_list(ar, st, "events", 1, object_event, NULL);
}

/* The physics fields; the vertex count sits among them, the vertices follow them. */
static void object_physics(rb_ar *ar)
{
    bool32(ar, "usesPhysics");
    bool32(ar, "isSensor");
    rb_ar_u32(ar, "collisionShape");
    rb_ar_f32(ar, "density");
    rb_ar_f32(ar, "restitution");
    rb_ar_u32(ar, "group");
    rb_ar_f32(ar, "linearDamping");
    rb_ar_f32(ar, "angularDamping");
    rb_slot count_slot = rb_ar_slot(ar, "physicsVertexCount", RB_U32);
    rb_ar_f32(ar, "friction");
    bool32(ar, "awake");
    bool32(ar, "kinematic");
    uint64_t count = rb_ar_count_of(ar, "physicsVertices", count_slot.value);
    if (!datawin_count_fits(ar, count, 8, "physics vertices")) return;
    count = rb_ar_list_begin_n(ar, "physicsVertices", count, 8);
    rb_ar_slot_set(ar, &count_slot, count);
    RB_AR_RECORDS(ar, i, count) {
        rb_ar_f32(ar, "x");
        rb_ar_f32(ar, "y");
    }
}

enum { OBJT_MANAGED = 1 }; /* 2022.5+: bool32 "managed" after "visible" */

static void game_object(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    unsigned variant = *(const unsigned *)ctx;
    datawin_strref(ar, st, "name");
    rb_ar_i32(ar, "spriteId");
    bool32(ar, "visible");
    if (variant & OBJT_MANAGED) bool32(ar, "managed");
    bool32(ar, "solid");
    rb_ar_i32(ar, "depth");
    bool32(ar, "persistent");
    rb_ar_i32(ar, "parentId"); /* -100 = none */
    rb_ar_i32(ar, "maskSpriteId");
    object_physics(ar);
    datawin_pointer_list(ar, st, "eventTypes", 1, events_of_type, NULL);
}

static void objt_chunk(rb_ar *ar, datawin_state *st, unsigned variant)
{
    static const unsigned layouts[] = {0, OBJT_MANAGED};
    variant = datawin_layout_field(ar, "managedFlag", variant, layouts, 2);
    datawin_pointer_list(ar, st, "objects", 1, game_object, &variant);
}

void datawin_chunk_objt(rb_ar *ar, datawin_state *st)
{
    /* FEAT (2022.8+) means the managed flag is there; earlier files most likely lack it
     * (docs/formats/datawin.md "Version clues") */
    unsigned likely = datawin_find_chunk(st, "FEAT") ? OBJT_MANAGED : 0;
    const unsigned tries[2] = {likely, likely ^ OBJT_MANAGED};
    datawin_try_variants(ar, st, objt_chunk, tries, 2);
}

/* ---------- SOND, AGRP (docs/formats/datawin.md "SOND", "AGRP") ---------- */

enum { SOND_REGULAR = 0x64 }; /* all "regular" flag bits: the entry names an audio group */

static void sound(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    unsigned has_length = *(const unsigned *)ctx;
    datawin_strref(ar, st, "name");
    uint32_t flags = rb_ar_x32(ar, "flags");
    datawin_strref(ar, st, "type");
    datawin_strref(ar, st, "file");
    rb_ar_u32(ar, "effects");
    rb_ar_f32(ar, "volume");
    rb_ar_f32(ar, "pitch");
    /* bytecode >= 14 with the regular bits: i32 audio group, else bool32 preload (same size);
     * the model says which by the key, so WRITE needs no version facts */
    if (rb_ar_has(ar, "audioGroup", (flags & SOND_REGULAR) == SOND_REGULAR && st->bytecode >= 14))
        rb_ar_i32(ar, "audioGroup");
    else
        bool32(ar, "preload");
    rb_ar_i32(ar, "audioFile"); /* AUDO index, -1 = external file */
    if (has_length) rb_ar_f32(ar, "audioLength");
}

static void sond_chunk(rb_ar *ar, datawin_state *st, unsigned variant)
{
    static const unsigned layouts[] = {0, 1};
    variant = datawin_layout_field(ar, "audioLengthField", variant, layouts, 2); /* 2024.6+: entries of 40 bytes */
    datawin_pointer_list(ar, st, "sounds", 1, sound, &variant);
}

void datawin_chunk_sond(rb_ar *ar, datawin_state *st)
{
    static const unsigned tries[2] = {0, 1};
    datawin_try_variants(ar, st, sond_chunk, tries, 2);
}

static void audio_group(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    datawin_strref(ar, st, "name");
    if (*(const unsigned *)ctx) datawin_strref(ar, st, "path");
}

static void agrp_chunk(rb_ar *ar, datawin_state *st, unsigned variant)
{
    static const unsigned layouts[] = {0, 1};
    variant = datawin_layout_field(ar, "pathField", variant, layouts, 2); /* 2024.14+ */
    datawin_pointer_list(ar, st, "groups", 1, audio_group, &variant);
}

void datawin_chunk_agrp(rb_ar *ar, datawin_state *st)
{
    static const unsigned tries[2] = {0, 1};
    datawin_try_variants(ar, st, agrp_chunk, tries, 2);
}

/* ---------- SCPT, PATH, GLOB, TMLN (docs/formats/datawin.md "SCPT, PATH, GLOB, TMLN") ---------- */

static void script(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    datawin_strref(ar, st, "name");
    rb_ar_i32(ar, "codeId"); /* 2.3+ constructors set bit 31 (kept as stored) */
}

void datawin_chunk_scpt(rb_ar *ar, datawin_state *st)
{
    datawin_pointer_list(ar, st, "scripts", 1, script, NULL);
    datawin_content_ends_here(ar);
}

static void path(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    datawin_strref(ar, st, "name");
    bool32(ar, "smooth");
    bool32(ar, "closed");
    rb_ar_u32(ar, "precision");
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "points", RB_U32, 12)) {
        rb_ar_f32(ar, "x");
        rb_ar_f32(ar, "y");
        rb_ar_f32(ar, "speed");
    }
}

void datawin_chunk_path(rb_ar *ar, datawin_state *st)
{
    datawin_pointer_list(ar, st, "paths", 1, path, NULL);
    datawin_content_ends_here(ar);
}

/* GLOB: SimpleList<i32 code id> (global init scripts). */
void datawin_chunk_glob(rb_ar *ar, datawin_state *st)
{
    (void)st;
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "codeIds", RB_U32, 4)) rb_ar_i32(ar, NULL);
    datawin_content_ends_here(ar);
}

/* Timeline: u32 moment count, count x {u32 step, ptr actions}, then each moment's
 * action list (PointerList<EventAction>) in moment order, where its pointer says. */
static void timeline_moments(rb_ar *ar, datawin_state *st)
{
    rb_slot count_slot = rb_ar_slot(ar, "momentCount", RB_U32);
    uint64_t count = rb_ar_count_of(ar, "moments", count_slot.value);
    rb_ar_slot_set(ar, &count_slot, count);
    if (!datawin_count_fits(ar, count, 8, "moments")) return;
    rb_slot *table = calloc(count ? 2 * (size_t)count : 1, sizeof *table);
    if (!table) { rb_ar_fail(ar, RB_E_NOMEM, "out of memory for %llu moments", (unsigned long long)count); return; }
    RB_AR_EACH(ar, i, count) {
        table[2 * i] = rb_ar_slot(ar, "step", RB_U32);
        table[2 * i + 1] = rb_ar_slot(ar, "actionsPointer", RB_U32);
    }
    count = rb_ar_list_begin_n(ar, "moments", count, 0);
    RB_AR_RECORDS(ar, i, count) {
        rb_ar_slot_set(ar, &table[2 * i], rb_ar_uint_detached(ar, "step", RB_U32, table[2 * i].value));
        datawin_data_lands_here(ar, st, &table[2 * i + 1], "moment actions");
        datawin_pointer_list(ar, st, "actions", 1, event_action, NULL);
    }
    free(table);
}

static void timeline(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    datawin_strref(ar, st, "name");
    timeline_moments(ar, st);
}

void datawin_chunk_tmln(rb_ar *ar, datawin_state *st)
{
    datawin_pointer_list(ar, st, "timelines", 1, timeline, NULL);
    datawin_content_ends_here(ar);
}

/* ---------- SHDR (docs/formats/datawin.md "SHDR") ---------- */

/* A compiled shader blob: a pointer in the entry header (PSSL, Cg: followed by a u32 size, kept
 * as stored: GameMaker's sizes need not match the distance between blobs), the bytes after the
 * header, each after a zero fill to 8 (PS3: 16). */
typedef struct shader_blob {
    const char *key;
    unsigned alignment;
    rb_slot pointer;
} shader_blob;

enum { SHADER_BLOBS = 8 };

/* READ: where the structure after entry `index` starts: the next entry, or the chunk end. */
static uint64_t shader_entry_end(const datawin_state *st, uint64_t index, int *last)
{
    const datawin_chunk_span *c = datawin_find_chunk(st, "SHDR");
    uint32_t n = datawin_le32(st->file + c->data); /* datawin_pointer_list checked that the table fits */
    *last = 0;
    for (uint64_t i = index + 1; i < n; i++) {
        uint32_t p = datawin_le32(st->file + c->data + 4 + 4 * i);
        if (p) return p;
    }
    *last = 1;
    return (uint64_t)c->data + c->size;
}

/* READ: a blob's length: up to the next blob or entry (blob lengths are not all stored); the
 * chunk's last blob ends where its DXBC container says, the rest being chunk padding. */
static uint64_t shader_blob_length(const datawin_state *st, const shader_blob *b, size_t i, size_t n, uint64_t here,
                                   uint64_t index)
{
    int last = 0;
    uint64_t next = 0;
    for (size_t k = i + 1; k < n && !next; k++) next = b[k].pointer.value;
    if (!next) next = shader_entry_end(st, index, &last);
    if (next < here) return UINT64_MAX;
    uint64_t length = next - here;
    if (last && length >= 28 && memcmp(st->file + here, "DXBC", 4) == 0) {
        uint64_t stored = datawin_le32(st->file + here + 24);
        if (stored >= 28 && stored <= length) length = stored;
    }
    return length;
}

static void shader_blobs(rb_ar *ar, datawin_state *st, shader_blob *b, size_t n, uint64_t index)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    RB_AR_EACH(ar, i, n) {
        if (!rb_ar_has(ar, b[i].key, b[i].pointer.value != 0)) {
            rb_ar_slot_set(ar, &b[i].pointer, 0);
            continue;
        }
        datawin_align(ar, st, b[i].alignment);
        datawin_data_lands_here(ar, st, &b[i].pointer, b[i].key);
        uint64_t length = reading ? shader_blob_length(st, b, i, n, datawin_abs(ar, st), index) : 0;
        if (reading && length > rb_ar_remaining(ar)) {
            if (rb_ar_ok(ar)) rb_ar_fail(ar, RB_E_FORMAT, "%s: blob does not end before the next structure", b[i].key);
            return;
        }
        rb_ar_bytes(ar, b[i].key, RB_K_BLOB, length);
    }
}

static void shader(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)ctx;
    static const char *const sources[] = {"glslEsVertex", "glslEsFragment", "glslVertex",
                                          "glslFragment", "hlsl9Vertex",    "hlsl9Fragment"};
    static const char *const sized[] = {"psslVertex", "psslPixel", "cgPsVitaVertex", "cgPsVitaPixel",
                                        "cgPs3Vertex", "cgPs3Pixel"};
    static const char *const sizes[] = {"psslVertexSize",    "psslPixelSize",   "cgPsVitaVertexSize",
                                        "cgPsVitaPixelSize", "cgPs3VertexSize", "cgPs3PixelSize"};
    shader_blob b[SHADER_BLOBS] = {{"hlsl11Vertex", 8, {0}}, {"hlsl11Pixel", 8, {0}}};
    datawin_strref(ar, st, "name");
    rb_ar_x32(ar, "type"); /* bit 31 set */
    for (size_t i = 0; i < 6; i++) datawin_strref(ar, st, sources[i]);
    b[0].pointer = rb_ar_slot(ar, "hlsl11VertexPointer", RB_U32);
    b[1].pointer = rb_ar_slot(ar, "hlsl11PixelPointer", RB_U32);
    datawin_string_list(ar, st, "vertexAttributes");
    size_t n = 2;
    /* bytecode > 13: version and the console blobs; WRITE follows the model's "version" */
    if (rb_ar_has(ar, "version", st->bytecode > 13)) {
        int32_t version = rb_ar_i32(ar, "version");
        size_t consoles = version >= 2 ? 6 : 4;
        for (size_t i = 0; i < consoles && rb_ar_ok(ar); i++, n++) {
            b[n] = (shader_blob){sized[i], i >= 4 ? 16 : 8, rb_ar_slot(ar, "blobPointer", RB_U32)};
            rb_ar_u32(ar, sizes[i]);
        }
    }
    shader_blobs(ar, st, b, n, index);
}

void datawin_chunk_shdr(rb_ar *ar, datawin_state *st)
{
    datawin_pointer_list(ar, st, "shaders", 1, shader, NULL);
    datawin_content_ends_here(ar);
}

/* ---------- OPTN (docs/formats/datawin.md "OPTN") ---------- */

static void options_new(rb_ar *ar, datawin_state *st)
{
    rb_ar_i32(ar, "shaderExtensionFlag");
    rb_ar_i32(ar, "shaderExtensionVersion");
    rb_ar_uint(ar, "info", RB_U64 | RB_W_HEX);
    rb_ar_i32(ar, "scale");
    rb_ar_x32(ar, "windowColor");
    static const char *const numbers[] = {"colorDepth", "resolution", "frequency", "vertexSync", "priority"};
    for (size_t i = 0; i < 5; i++) rb_ar_u32(ar, numbers[i]);
    datawin_tpag_ref(ar, st, "backImage");
    datawin_tpag_ref(ar, st, "frontImage");
    datawin_tpag_ref(ar, st, "loadImage");
    rb_ar_u32(ar, "loadAlpha");
}

/* Early GM:S: 35 u32 fields, the flags one bool32 each. Kind: b bool32, i i32,
 * u u32, x colour, t TPAG item. */
static void options_old(rb_ar *ar, datawin_state *st)
{
    static const struct { char kind; const char *key; } fields[] = {
        {'b', "fullScreen"}, {'b', "interpolatePixels"}, {'b', "useNewAudio"}, {'b', "noBorder"},
        {'b', "showCursor"}, {'i', "scale"}, {'b', "sizeable"}, {'b', "stayOnTop"}, {'x', "windowColor"},
        {'b', "changeResolution"}, {'u', "colorDepth"}, {'u', "resolution"}, {'u', "frequency"},
        {'b', "noButtons"}, {'u', "vertexSync"}, {'b', "screenKey"}, {'b', "helpKey"}, {'b', "quitKey"},
        {'b', "saveKey"}, {'b', "screenShotKey"}, {'b', "closeSec"}, {'u', "priority"}, {'b', "freeze"},
        {'b', "showProgress"}, {'t', "backImage"}, {'t', "frontImage"}, {'t', "loadImage"},
        {'b', "loadTransparent"}, {'u', "loadAlpha"}, {'b', "scaleProgress"}, {'b', "displayErrors"},
        {'b', "writeErrors"}, {'b', "abortErrors"}, {'b', "variableErrors"}, {'b', "creationEventOrder"},
    };
    RB_AR_EACH(ar, i, sizeof fields / sizeof fields[0]) {
        switch (fields[i].kind) {
        case 'b': bool32(ar, fields[i].key); break;
        case 'i': rb_ar_i32(ar, fields[i].key); break;
        case 'x': rb_ar_x32(ar, fields[i].key); break;
        case 't': datawin_tpag_ref(ar, st, fields[i].key); break;
        default: rb_ar_u32(ar, fields[i].key); break;
        }
    }
}

void datawin_chunk_optn(rb_ar *ar, datawin_state *st)
{
    uint32_t first = 0;
    if (rb_ar_direction(ar) == RB_AR_READ) rb_ar_peek_u32(ar, &first);
    /* the new format starts with i32 0x80000000; WRITE follows the model's keys */
    if (rb_ar_has(ar, "shaderExtensionFlag", first == 0x80000000u))
        options_new(ar, st);
    else
        options_old(ar, st);
    RB_AR_RECORDS(ar, i, rb_ar_list_begin(ar, "constants", RB_U32, 8)) {
        datawin_strref(ar, st, "name");
        datawin_strref(ar, st, "value");
    }
    datawin_content_ends_here(ar);
}

/* ---------- LANG (docs/formats/datawin.md "LANG") ---------- */

/* `count` string references, each a record {"name"}; every language has one per entry id. */
static void string_row(rb_ar *ar, datawin_state *st, const char *key, uint64_t count)
{
    uint64_t n = rb_ar_list_begin_n(ar, key, count, 4);
    if (rb_ar_ok(ar) && n != count) {
        rb_ar_fail(ar, RB_E_MODEL, "%s: %llu strings, but there are %llu entry ids", key, (unsigned long long)n,
                   (unsigned long long)count);
        return;
    }
    RB_AR_RECORDS(ar, i, n) datawin_strref(ar, st, "name");
}

void datawin_chunk_lang(rb_ar *ar, datawin_state *st)
{
    rb_ar_u32(ar, "unknown1");
    rb_slot languages_slot = rb_ar_slot(ar, "languageCount", RB_U32);
    rb_slot entries_slot = rb_ar_slot(ar, "entryCount", RB_U32);
    uint64_t entries = rb_ar_count_of(ar, "entryIds", entries_slot.value);
    rb_ar_slot_set(ar, &entries_slot, entries);
    if (!datawin_count_fits(ar, entries, 4, "entry ids")) return;
    string_row(ar, st, "entryIds", entries);
    uint64_t languages = rb_ar_count_of(ar, "languages", languages_slot.value);
    rb_ar_slot_set(ar, &languages_slot, languages);
    if (!datawin_count_fits(ar, languages, 8 + 4 * entries, "languages")) return;
    languages = rb_ar_list_begin_n(ar, "languages", languages, 8);
    RB_AR_RECORDS(ar, i, languages) {
        datawin_strref(ar, st, "name");
        datawin_strref(ar, st, "region");
        string_row(ar, st, "entries", entries);
    }
    datawin_content_ends_here(ar);
}

/* ---------- EXTN (docs/formats/datawin.md "EXTN") ---------- */

enum { EXTN_OLD = 0, EXTN_2022_6 = 202206, EXTN_2023_4 = 202304 };

static void extension_function(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    datawin_strref(ar, st, "name");
    rb_ar_u32(ar, "id");
    rb_ar_u32(ar, "kind");
    rb_ar_u32(ar, "returnType");
    datawin_strref(ar, st, "externalName");
    RB_AR_LIST(ar, i, rb_ar_list_begin(ar, "argumentTypes", RB_U32, 4)) rb_ar_u32(ar, NULL);
}

static void extension_file(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    datawin_strref(ar, st, "filename");
    datawin_strref(ar, st, "cleanupScript");
    datawin_strref(ar, st, "initScript");
    rb_ar_u32(ar, "kind");
    datawin_pointer_list(ar, st, "functions", 1, extension_function, NULL);
}

static void extension_option(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index; (void)ctx;
    datawin_strref(ar, st, "name");
    datawin_strref(ar, st, "value");
    rb_ar_u32(ar, "kind");
}

static void extension(rb_ar *ar, datawin_state *st, uint64_t index, void *ctx)
{
    (void)index;
    unsigned layout = *(const unsigned *)ctx;
    datawin_strref(ar, st, "folderName");
    datawin_strref(ar, st, "name");
    if (layout >= EXTN_2023_4) datawin_strref(ar, st, "version");
    datawin_strref(ar, st, "className");
    if (layout < EXTN_2022_6) {
        datawin_pointer_list(ar, st, "files", 1, extension_file, NULL);
        return;
    }
    /* 2022.6+: pointers to the two lists, then the lists */
    rb_slot files = rb_ar_slot(ar, "filesPointer", RB_U32);
    rb_slot options = rb_ar_slot(ar, "optionsPointer", RB_U32);
    datawin_data_lands_here(ar, st, &files, "files");
    datawin_pointer_list(ar, st, "files", 1, extension_file, NULL);
    datawin_data_lands_here(ar, st, &options, "options");
    datawin_pointer_list(ar, st, "options", 1, extension_option, NULL);
}

/* After the list: 16 bytes of product data per extension (GMS2, GM:S build >= 1773 or 1559;
 * UMT issue #143), kept as stored. */
static void product_data(rb_ar *ar, uint64_t extensions)
{
    int reading = rb_ar_direction(ar) == RB_AR_READ;
    if (!rb_ar_has(ar, "productData", reading && extensions && rb_ar_remaining(ar) >= 16 * extensions)) return;
    uint64_t n = rb_ar_list_begin_n(ar, "productData", extensions, 16);
    if (rb_ar_ok(ar) && n != extensions) {
        rb_ar_fail(ar, RB_E_MODEL, "productData: %llu entries for %llu extensions", (unsigned long long)n,
                   (unsigned long long)extensions);
        return;
    }
    RB_AR_LIST(ar, i, n) rb_ar_bytes(ar, NULL, RB_K_BLOB, 16);
}

static void extn_chunk(rb_ar *ar, datawin_state *st, unsigned variant)
{
    static const unsigned layouts[] = {EXTN_OLD, EXTN_2022_6, EXTN_2023_4};
    unsigned layout = datawin_layout_field(ar, "layoutSince", variant, layouts, 3);
    uint32_t read_count = 0;
    if (rb_ar_direction(ar) == RB_AR_READ) rb_ar_peek_u32(ar, &read_count);
    uint64_t extensions = rb_ar_count_of(ar, "extensions", read_count); /* before the list is taken */
    datawin_pointer_list(ar, st, "extensions", 1, extension, &layout);
    product_data(ar, extensions);
}

void datawin_chunk_extn(rb_ar *ar, datawin_state *st)
{
    /* FEAT: 2022.8+ (the 2022.6 layout at least); PSEM: 2023.2+ */
    unsigned likely = datawin_find_chunk(st, "PSEM") ? EXTN_2023_4 : datawin_find_chunk(st, "FEAT") ? EXTN_2022_6 : EXTN_OLD;
    const unsigned tries[3] = {likely, likely == EXTN_OLD ? EXTN_2022_6 : EXTN_OLD,
                               likely == EXTN_2023_4 ? EXTN_2022_6 : EXTN_2023_4};
    datawin_try_variants(ar, st, extn_chunk, tries, 3);
}
