/*
 * Trespasser assets (docs/formats/tres.md "Assets"): a .pid's palettes and, with the swap
 * image beside it (its .spz, or the unpacked .swp), its textures as palettised PNG; an .spz's
 * textures, described by its .pid, as PNG that go back quantised to the texture's palette; a
 * .tpa's sounds as WAV.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/assets.h"
#include "core/json/json.h"
#include "core/tres/tres.h"
#include "core/tres/tres_assets.h"

enum { NO_PALETTE = 0xFFFFFFFFu };

static uint64_t member_uint(const rb_node *record, const char *key)
{
    const rb_node *n = rb_node_member(record, key);
    return n ? rb_node_uint(n) : 0;
}

static const uint8_t *blob_of(const rb_node *n, size_t *size)
{
    *size = 0;
    return n && rb_node_kind_of(n) == RB_NODE_BLOB ? rb_node_bytes(n, size) : NULL;
}

/* ---------- textures: a .pid's entries over the swap image ---------- */

typedef struct texture {
    uint64_t offset, width, height, stride, bits, palette;
    uint32_t id;
} texture;

static void texture_of(const rb_node *entry, texture *t)
{
    t->offset = member_uint(entry, "swpOffset");
    t->width = member_uint(entry, "width");
    t->height = member_uint(entry, "height");
    t->stride = member_uint(entry, "stride");
    t->bits = member_uint(entry, "bitsPerPixel");
    t->palette = member_uint(entry, "palette");
    t->id = (uint32_t)member_uint(entry, "textureId");
}

/* The palette as 256 RGBA entries (colours past the palette's own are black, for indexes a
 * texture holds beyond it); its colour count in *count. NULL when there is no such palette. */
static int palette_rgba(const rb_node *pid_root, uint64_t index, uint8_t rgba[256 * 4], size_t *count)
{
    const rb_node *palettes = rb_node_member(pid_root, "palettes");
    if (index >= rb_node_child_count(palettes)) return -1;
    const rb_node *colours = rb_node_member(rb_node_child(palettes, (size_t)index), "colours");
    size_t n = rb_node_child_count(colours);
    memset(rgba, 0, 256 * 4);
    for (size_t i = 0; i < 256; i++) rgba[i * 4 + 3] = 0xFF;
    for (size_t i = 0; i < n && i < 256; i++) {
        uint32_t c = (uint32_t)rb_node_uint(rb_node_child(colours, i)); /* 0x00RRGGBB */
        rgba[i * 4] = (uint8_t)(c >> 16), rgba[i * 4 + 1] = (uint8_t)(c >> 8), rgba[i * 4 + 2] = (uint8_t)c;
    }
    *count = n;
    return 0;
}

/* Where a texture's texels are, or why it is not a picture rebyte converts. */
static const char *texture_check(const texture *t, size_t swap_size)
{
    if (t->palette == NO_PALETTE) return "an unpalettised 16-bit texture (its pixel layout is not described)";
    if (t->bits != 8 && t->bits != 16) return "neither 8 nor 16 bits a pixel";
    if (!t->width || !t->height || t->width > 16384 || t->height > 16384 || t->stride < t->width * t->bits / 8)
        return "a size out of range";
    if (t->offset > swap_size || t->stride * (t->height - 1) + t->width * t->bits / 8 > swap_size - t->offset)
        return "texels outside the swap image";
    return NULL;
}

/* 8 bits: the colour index; 16 bits (a bump map): the colour index is the high byte of each
 * little-endian texel, the low byte the bump angles (docs/formats/tres.md "Assets"). */
static uint8_t *texture_indexes(const texture *t, const uint8_t *swap)
{
    uint8_t *indexes = malloc((size_t)(t->width * t->height));
    if (!indexes) return NULL;
    for (uint64_t y = 0; y < t->height; y++) {
        const uint8_t *row = swap + t->offset + y * t->stride;
        for (uint64_t x = 0; x < t->width; x++) indexes[y * t->width + x] = t->bits == 8 ? row[x] : row[2 * x + 1];
    }
    return indexes;
}

/* By the registry name, not the entry: pid.c and spz.c call this file's hooks, so this file
 * naming their entries would close a loop (tests/structure/symbol_cycles.py). */
static int is_format(const rb_doc *doc, const char *name) { return strcmp(doc->format->name, name) == 0; }

/* The swap image of a pair: the .spz's texels, or a .swp's bytes. */
static const uint8_t *swap_image(const rb_doc *doc, size_t *size)
{
    if (is_format(doc, "spz")) {
        rb_node *root = doc->root;
        return blob_of(rb_node_member(rb_node_member(root, "swap"), "texels"), size);
    }
    *size = doc->companion_size;
    return doc->companion_data;
}

typedef struct texture_run {
    const rb_doc *doc;
    const rb_node *pid_root;
    const uint8_t *swap;
    size_t swap_size;
    int replaceable; /* through the .spz */
    rb_asset_sink sink;
    void *context;
    char *why;
    size_t why_size;
    size_t skipped;
} texture_run;

static int emit_texture(texture_run *r, size_t index, const rb_node *entry)
{
    texture t;
    texture_of(entry, &t);
    if (texture_check(&t, r->swap_size)) { r->skipped++; return 0; }
    uint8_t palette[256 * 4];
    size_t colours;
    if (palette_rgba(r->pid_root, t.palette, palette, &colours) != 0) { r->skipped++; return 0; }
    uint8_t *indexes = texture_indexes(&t, r->swap), *png = NULL;
    size_t png_size = 0, entries = colours < 256 ? colours : 256;
    for (uint64_t i = 0; indexes && i < t.width * t.height; i++) /* indexes past the palette show black */
        if (indexes[i] >= entries) entries = (size_t)indexes[i] + 1;
    int rc = indexes ? rb_png_from_indexed(indexes, (uint32_t)t.width, (uint32_t)t.height, palette, entries, &png,
                                           &png_size, r->why, r->why_size)
                     : -1;
    free(indexes);
    if (rc != 0) return -1;
    char name[96], path[64], note[200];
    snprintf(name, sizeof name, "textures/%04zu-%08X-%llux%llu.png", index, t.id, (unsigned long long)t.width,
             (unsigned long long)t.height);
    if (r->replaceable) snprintf(path, sizeof path, "/swap/texels/%zu", index);
    else snprintf(path, sizeof path, "/entries/%zu", index);
    snprintf(note, sizeof note, "%s, palette %llu (%zu colours)%s", t.bits == 8 ? "8-bit" : "the colour plane of a 16-bit bump map",
             (unsigned long long)t.palette, colours,
             r->replaceable ? "" : "; it goes back through the .spz (replace X.spz /swap/texels/N --with X.pid)");
    rb_asset a = {sizeof(rb_asset), name, "image", path, png, png_size, r->replaceable, note};
    rc = rb_asset_emit(r->sink, r->context, &a, r->why, r->why_size);
    free(png);
    return rc;
}

static int emit_textures(texture_run *r)
{
    const rb_node *entries = rb_node_member(r->pid_root, "entries");
    for (size_t i = 0; i < rb_node_child_count(entries); i++)
        if (emit_texture(r, i, rb_node_child(entries, i)) != 0) return -1;
    return 0;
}

static int emit_palettes(const rb_doc *doc, rb_asset_sink sink, void *context, char *why, size_t why_size)
{
    const rb_node *palettes = rb_node_member(doc->root, "palettes");
    for (size_t p = 0; p < rb_node_child_count(palettes); p++) {
        uint8_t palette[256 * 4], indexes[256];
        size_t colours;
        if (palette_rgba(doc->root, p, palette, &colours) != 0 || colours == 0 || colours > 256) continue;
        for (size_t i = 0; i < 256; i++) indexes[i] = (uint8_t)(i < colours ? i : 0);
        uint8_t *png;
        size_t png_size;
        uint32_t rows = (uint32_t)((colours + 15) / 16);
        if (rb_png_from_indexed(indexes, 16, rows, palette, colours, &png, &png_size, why, why_size) != 0) return -1;
        char name[64], path[64], note[96];
        snprintf(name, sizeof name, "palettes/palette-%02zu.png", p);
        snprintf(path, sizeof path, "/palettes/%zu", p);
        snprintf(note, sizeof note, "the palette's %zu colours, 16 a row", colours);
        rb_asset a = {sizeof(rb_asset), name, "image", path, png, png_size, 0, note};
        int rc = rb_asset_emit(sink, context, &a, why, why_size);
        free(png);
        if (rc) return -1;
    }
    return 0;
}

static int wants(const char *only_kind, const char *kind) { return !only_kind || strcmp(only_kind, kind) == 0; }

int pid_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
                    size_t why_size)
{
    if (!wants(only_kind, "image")) return 0;
    if (emit_palettes(doc, sink, context, why, why_size) != 0) return -1;
    if (!doc->companion_data) return 0;
    const rb_doc *c = doc->companion;
    if (c && !is_format(c, "spz")) {
        snprintf(why, why_size, "a .pid's textures are in its .spz or .swp, not in a %s file", c->format->name);
        return -1;
    }
    texture_run r = {doc, doc->root, NULL, 0, 0, sink, context, why, why_size, 0};
    r.swap = c ? swap_image(c, &r.swap_size) : swap_image(doc, &r.swap_size);
    return r.swap ? emit_textures(&r) : 0;
}

static const rb_doc *directory_of(const rb_doc *spz, char *why, size_t why_size)
{
    if (spz->companion && is_format(spz->companion, "pid")) return spz->companion;
    snprintf(why, why_size, "an .spz holds texels without their layout: give its .pid (rebyte ... --with LEVEL-130.pid)");
    return NULL;
}

int spz_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
                    size_t why_size)
{
    if (!wants(only_kind, "image")) return 0;
    const rb_doc *pid = directory_of(doc, why, why_size);
    if (!pid) return -1;
    texture_run r = {doc, pid->root, NULL, 0, 1, sink, context, why, why_size, 0};
    r.swap = swap_image(doc, &r.swap_size);
    return r.swap ? emit_textures(&r) : 0;
}

/* A pixel's palette index: the texture's own index when its colour is the pixel's (so an
 * unchanged picture keeps indexes a palette holds twice), else the first index of that colour. */
static int quantise(const uint8_t *pixel, uint8_t original, const uint8_t palette[256 * 4], size_t colours)
{
    if (original < colours && memcmp(palette + original * 4, pixel, 3) == 0) return original;
    for (size_t i = 0; i < colours && i < 256; i++)
        if (memcmp(palette + i * 4, pixel, 3) == 0) return (int)i;
    return -1;
}

json_t *spz_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                             size_t why_size)
{
    static const char PREFIX[] = "/swap/texels/";
    char *end;
    if (strncmp(path, PREFIX, sizeof PREFIX - 1) != 0) return NULL;
    unsigned long index = strtoul(path + sizeof PREFIX - 1, &end, 10);
    if (*end || end == path + sizeof PREFIX - 1) return NULL;
    const rb_doc *pid = directory_of(doc, why, why_size);
    if (!pid) return NULL;
    const rb_node *entries = rb_node_member(pid->root, "entries");
    if (index >= rb_node_child_count(entries)) {
        snprintf(why, why_size, "the .pid has %zu entries, not %lu", rb_node_child_count(entries), index + 1);
        return NULL;
    }
    texture t;
    texture_of(rb_node_child(entries, index), &t);
    size_t swap_size;
    const uint8_t *swap = swap_image(doc, &swap_size);
    const char *bad = texture_check(&t, swap ? swap_size : 0);
    uint8_t palette[256 * 4];
    size_t colours = 0;
    if (bad || palette_rgba(pid->root, t.palette, palette, &colours) != 0) {
        snprintf(why, why_size, "entry %lu is %s", index, bad ? bad : "without a palette of the .pid");
        return NULL;
    }
    uint8_t *rgba;
    uint32_t width, height;
    if (rb_png_to_rgba(data, size, doc->limits.max_decompressed_size, &rgba, &width, &height, why, why_size) != 0)
        return NULL;
    uint8_t *texels = NULL;
    json_t *ops = NULL;
    if (width != t.width || height != t.height) {
        snprintf(why, why_size, "texture %lu is %llux%llu pixels, the PNG %ux%u", index, (unsigned long long)t.width,
                 (unsigned long long)t.height, (unsigned)width, (unsigned)height);
    } else if (!(texels = malloc(swap_size))) {
        snprintf(why, why_size, "out of memory");
    } else {
        memcpy(texels, swap, swap_size);
        int ok = 1;
        for (uint64_t y = 0; y < t.height && ok; y++)
            for (uint64_t x = 0; x < t.width && ok; x++) {
                const uint8_t *pixel = rgba + (y * t.width + x) * 4;
                uint8_t *at = texels + t.offset + y * t.stride + (t.bits == 8 ? x : 2 * x + 1);
                int i = pixel[3] == 0xFF ? quantise(pixel, *at, palette, colours) : -1;
                if (i < 0) {
                    snprintf(why, why_size,
                             "pixel (%llu, %llu) is #%02X%02X%02X%s, not a colour of palette %llu (%zu colours): "
                             "a texture takes its palette's exact colours",
                             (unsigned long long)x, (unsigned long long)y, pixel[0], pixel[1], pixel[2],
                             pixel[3] == 0xFF ? "" : " and not opaque", (unsigned long long)t.palette, colours);
                    ok = 0;
                } else {
                    *at = (uint8_t)i;
                }
            }
        if (ok && !(ops = rb_asset_replace_ops("/swap/texels", texels, swap_size))) snprintf(why, why_size, "out of memory");
    }
    free(texels);
    free(rgba);
    return ops;
}

/* ---------- sounds ---------- */

static int body_wav(const rb_node *body, uint8_t **wav, size_t *wav_size)
{
    size_t size;
    const uint8_t *samples = blob_of(rb_node_member(body, "samples"), &size);
    rb_wav_format f = {0};
    int adpcm = member_uint(body, "compression") == 1;
    f.tag = adpcm ? 0x11 : 1;
    f.channels = (uint16_t)member_uint(body, "channels");
    f.sample_rate = (uint32_t)member_uint(body, "sampleRate");
    f.bits = adpcm ? 4 : (uint16_t)member_uint(body, "bits");
    f.block_align = adpcm ? (uint16_t)member_uint(body, "adpcmBlockSize") : 0;
    return rb_wav_wrap(&f, samples ? samples : (const uint8_t *)"", size, wav, wav_size);
}

/* The names of a .tpa's sounds: a sound is stored by the id of its name (tres.md "Hashes and
 * ids"), and the names are in the files that play them, a level's .grf (its triggers' samples).
 * Every string of the companion whose id is in the id table names that entry; `missing`, the
 * sound every .tpa starts with, is named without one. */
typedef struct sound_names {
    const rb_node *ids;        /* the .tpa's id table */
    const uint8_t **name;      /* per id entry: its name, or NULL */
    size_t *size;
} sound_names;

static void name_ids(sound_names *names, const uint8_t *text, size_t size)
{
    uint32_t id = rb_tres_sound_id(text, size);
    for (size_t k = 0; k < rb_node_child_count(names->ids); k++)
        if (!names->name[k] && member_uint(rb_node_child(names->ids, k), "id") == id) {
            names->name[k] = text;
            names->size[k] = size;
        }
}

/* Strings are matched once each: a sound's name is a short word, so longer strings are skipped */
static void name_from_strings(sound_names *names, const rb_node *n)
{
    enum { LONGEST_SOUND_NAME = 128 };
    const uint8_t *text;
    size_t size;
    rb_node_kind kind = rb_node_kind_of(n);
    if ((kind == RB_NODE_STRING || kind == RB_NODE_ID) && rb_node_get_bytes(n, &text, &size) == RB_OK &&
        size > 0 && size <= LONGEST_SOUND_NAME) {
        while (size && text[size - 1] == 0) size--; /* a stored terminator is not part of the name */
        name_ids(names, text, size);
        return;
    }
    for (size_t i = 0; i < rb_node_child_count(n); i++) name_from_strings(names, rb_node_child(n, i));
}

/* The file name of body i: body-NNNN, and the name of its first named id when there is one (kept
 * to letters, digits, '-', '_' and '.') */
static void sound_file_name(const sound_names *names, size_t body, char *out, size_t out_size)
{
    int n = snprintf(out, out_size, "sounds/body-%04zu", body);
    for (size_t k = 0; names->name && k < rb_node_child_count(names->ids); k++) {
        if (!names->name[k] || member_uint(rb_node_child(names->ids, k), "body") != body) continue;
        if ((size_t)n + 1 < out_size) out[n++] = '-';
        for (size_t c = 0; c < names->size[k] && (size_t)n + 5 < out_size; c++) {
            uint8_t ch = names->name[k][c];
            int keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
                       ch == '_' || ch == '.';
            out[n++] = keep ? (char)ch : '_';
        }
        out[n] = 0;
        break;
    }
    snprintf(out + n, out_size - (size_t)n, ".wav");
}

int tpa_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
                    size_t why_size)
{
    if (!wants(only_kind, "sound")) return 0;
    const rb_node *bodies = rb_node_member(doc->root, "bodies");
    sound_names names = {rb_node_member(doc->root, "ids"), NULL, NULL};
    size_t id_count = rb_node_child_count(names.ids);
    if (id_count) {
        names.name = calloc(id_count, sizeof *names.name);
        names.size = calloc(id_count, sizeof *names.size);
        if (!names.name || !names.size) {
            free(names.name), free(names.size);
            snprintf(why, why_size, "out of memory");
            return -1;
        }
        name_ids(&names, (const uint8_t *)"missing", 7);
        if (doc->companion) name_from_strings(&names, doc->companion->root);
    }
    int rc = 0;
    for (size_t i = 0; i < rb_node_child_count(bodies) && rc == 0; i++) {
        const rb_node *body = rb_node_child(bodies, i);
        uint8_t *wav;
        size_t wav_size;
        if (body_wav(body, &wav, &wav_size) != 0) {
            snprintf(why, why_size, "out of memory");
            rc = -1;
            break;
        }
        int adpcm = member_uint(body, "compression") == 1;
        char name[192], path[64];
        sound_file_name(&names, i, name, sizeof name);
        snprintf(path, sizeof path, "/bodies/%zu/samples", i);
        rb_asset a = {sizeof(rb_asset), name, "sound", path, wav, wav_size, 1,
                      adpcm ? "IMA ADPCM as stored (WAV format 0x11)" : "PCM as stored"};
        rc = rb_asset_emit(sink, context, &a, why, why_size) ? -1 : 0;
        free(wav);
    }
    free(names.name);
    free(names.size);
    return rc;
}

json_t *tpa_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                             size_t why_size)
{
    unsigned long index;
    char tail[16];
    if (sscanf(path, "/bodies/%lu/%15s", &index, tail) != 2 || strcmp(tail, "samples") != 0) return NULL;
    const rb_node *body = rb_node_child(rb_node_member(doc->root, "bodies"), index);
    if (!body) return NULL;
    uint8_t *wav;
    size_t wav_size;
    if (body_wav(body, &wav, &wav_size) != 0) { snprintf(why, why_size, "out of memory"); return NULL; }
    rb_wav_format stored, given;
    const uint8_t *ignored, *samples;
    size_t ignored_size, samples_size;
    rb_wav_unwrap(wav, wav_size, &stored, &ignored, &ignored_size, why, why_size);
    free(wav);
    if (rb_wav_unwrap(data, size, &given, &samples, &samples_size, why, why_size) != 0) return NULL;
    if (given.tag != stored.tag || given.channels != stored.channels || given.sample_rate != stored.sample_rate ||
        given.bits != stored.bits || (stored.tag == 0x11 && given.block_align != stored.block_align)) {
        snprintf(why, why_size, "the WAV is format %u, %u channel(s), %u Hz, %u bits; body %lu takes format %u, %u "
                 "channel(s), %u Hz, %u bits%s (rebyte does not convert sounds)", given.tag, given.channels,
                 given.sample_rate, given.bits, index, stored.tag, stored.channels, stored.sample_rate, stored.bits,
                 stored.tag == 0x11 ? ", the same ADPCM block size" : "");
        return NULL;
    }
    json_t *ops = rb_asset_replace_ops(path, samples, samples_size);
    size_t old_size;
    blob_of(rb_node_member(body, "samples"), &old_size);
    if (ops && samples_size != old_size && member_uint(body, "compression") == 0) {
        /* PCM: the decompressed size is the data's (ADPCM's is the packer's figure, kept) */
        char size_path[64];
        snprintf(size_path, sizeof size_path, "/bodies/%lu/decompressedSize", index);
        rb_json_patch_op(ops, "replace", size_path, NULL, json_integer((json_int_t)samples_size));
    }
    if (!ops) snprintf(why, why_size, "out of memory");
    return ops;
}
