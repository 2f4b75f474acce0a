/*
 * The datawin assets hooks (docs/formats/datawin.md "Assets"): every
 * texture page as a PNG, every TPAG item a sprite frame, background, font or embedded image
 * uses cut from its page, every embedded sound as stored, every code entry's bytecode; and the
 * way back, a PNG or a sound put at the model node it came from as RFC 6902 operations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/doc_state.h"
#include "core/json/json.h"
#include "core/datawin/datawin.h"
#include "core/datawin/datawin_asm.h"
#include "core/datawin/datawin_pictures.h"

/* ---------- the model, read only ---------- */

/* The chunk with this id and its index in `chunks` (-1: none). */
static const rb_node *chunk(const rb_doc *doc, const char *id, long *index) { return datawin_doc_chunk(doc, id, index); }

/* A name for a file: letters, digits, '.', '-' and '_' kept, anything else '_'. */
static void file_name_part(const rb_node *name, char *out, size_t size)
{
    size_t n = 0;
    if (name && name->kind == RB_K_STRING)
        for (size_t i = 0; i < name->v.bytes.size && n + 1 < size; i++) {
            unsigned char c = name->v.bytes.data[i];
            int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '_' || (c == '.' && n > 0);
            out[n++] = keep ? (char)c : '_';
        }
    if (!n && size > 7) n = (size_t)snprintf(out, size, "unnamed");
    out[n] = 0;
}

/* ---------- pages and items ---------- */

typedef struct datawin_pages {
    const rb_doc *doc;
    const rb_node *textures, *items;
    long txtr_chunk, tpag_chunk;
    datawin_picture *decoded;
    char (*why)[160]; /* per page: why it could not be decoded ("" = not tried or fine) */
    unsigned char *tried;
    size_t count;
} datawin_pages;

static int pages_open(datawin_pages *pages, const rb_doc *doc)
{
    memset(pages, 0, sizeof *pages);
    pages->doc = doc;
    pages->textures = rb_record_member(chunk(doc, "TXTR", &pages->txtr_chunk), "textures");
    pages->items = rb_record_member(chunk(doc, "TPAG", &pages->tpag_chunk), "items");
    pages->count = pages->textures ? rb_element_count(pages->textures) : 0;
    if (!pages->count) return 0;
    pages->decoded = calloc(pages->count, sizeof *pages->decoded);
    pages->why = calloc(pages->count, sizeof *pages->why);
    pages->tried = calloc(pages->count, 1);
    return pages->decoded && pages->why && pages->tried ? 0 : -1;
}

static void pages_close(datawin_pages *pages)
{
    for (size_t i = 0; pages->decoded && i < pages->count; i++) datawin_picture_free(&pages->decoded[i]);
    free(pages->decoded);
    free(pages->why);
    free(pages->tried);
}

static const rb_node *page_blob(const datawin_pages *pages, size_t k)
{
    const rb_node *data = rb_record_member(rb_list_element(pages->textures, k), "data");
    return data && data->kind == RB_K_BLOB ? data : NULL;
}

/* Page k decoded (once), or NULL with the reason in pages->why[k]. */
static const datawin_picture *page(datawin_pages *pages, long k)
{
    if (k < 0 || (size_t)k >= pages->count) return NULL;
    if (!pages->tried[k]) {
        pages->tried[k] = 1;
        const rb_node *blob = page_blob(pages, (size_t)k);
        if (!blob) snprintf(pages->why[k], sizeof pages->why[k], "texture %ld is external (no data in the file)", k);
        else if (datawin_page_decode(blob->v.bytes.data, blob->v.bytes.size, pages->doc->limits.max_decompressed_size,
                                &pages->decoded[k], pages->why[k], sizeof pages->why[k]))
            datawin_picture_free(&pages->decoded[k]);
        else if (!pages->decoded[k].width || !pages->decoded[k].height) {
            snprintf(pages->why[k], sizeof pages->why[k], "texture %ld is an empty picture (%ux%u)", k,
                     pages->decoded[k].width, pages->decoded[k].height);
            datawin_picture_free(&pages->decoded[k]);
        }
    }
    return pages->decoded[k].rgba ? &pages->decoded[k] : NULL;
}

static int item_of(const datawin_pages *pages, uint64_t index, datawin_item *item)
{
    if (!pages->items || index >= rb_element_count(pages->items)) return -1;
    static const char *const keys[] = {"sourceX", "sourceY", "sourceWidth", "sourceHeight", "targetX",
                                       "targetY", "targetWidth", "targetHeight", "boundingWidth", "boundingHeight"};
    unsigned *fields[] = {&item->source_x, &item->source_y, &item->source_width, &item->source_height,
                          &item->target_x, &item->target_y, &item->target_width, &item->target_height,
                          &item->bounding_width, &item->bounding_height};
    for (size_t f = 0; f < 10; f++) *fields[f] = (unsigned)(rb_element_uint(pages->items, (size_t)index, keys[f]) & 0xFFFF);
    item->page = (long)(int16_t)(uint16_t)rb_element_uint(pages->items, (size_t)index, "texturePage");
    return 0;
}

/* ---------- extract ---------- */

typedef struct datawin_extract {
    const rb_doc *doc;
    datawin_pages pages;
    const char *only;
    rb_asset_sink sink;
    void *context;
    char *why;
    size_t why_size;
    int stopped;
    int pixels; /* pictures as their pixels (the picture_pixels hook), not as PNG */
} datawin_extract;

static int wanted(const datawin_extract *x, const char *kind) { return !x->only || strcmp(x->only, kind) == 0; }

static int emit(datawin_extract *x, const char *name, const char *kind, const char *path, const uint8_t *data, size_t size,
                int replaceable, const char *note)
{
    if (!wanted(x, kind)) return 0;
    rb_asset a = {sizeof(rb_asset), name, kind, path, data, size, replaceable, note};
    if (x->sink(x->context, &a)) {
        snprintf(x->why, x->why_size, "extraction stopped at %s", name);
        x->stopped = 1;
        return -1;
    }
    return 0;
}

/* The picture as the picture_pixels hook hands it out: width, height (u32 LE), RGBA rows. */
static int emit_pixels(datawin_extract *x, const datawin_picture *p, const char *name, const char *path, int replaceable,
                       const char *note)
{
    size_t n = (size_t)p->width * p->height * 4;
    uint8_t *data = malloc(8 + n);
    if (!data) {
        snprintf(x->why, x->why_size, "%s: out of memory for %ux%u pixels", name, p->width, p->height);
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        data[i] = (uint8_t)(p->width >> (8 * i));
        data[4 + i] = (uint8_t)(p->height >> (8 * i));
    }
    memcpy(data + 8, p->rgba, n);
    int r = emit(x, name, "image", path, data, 8 + n, replaceable, note);
    free(data);
    return r;
}

static int emit_picture(datawin_extract *x, const datawin_picture *p, const char *name, const char *path, int replaceable,
                        const char *note)
{
    if (x->pixels) return emit_pixels(x, p, name, path, replaceable, note);
    rb_buf png;
    rb_buf_init(&png);
    char why[200];
    if (datawin_picture_to_png(p, &png, why, sizeof why)) {
        rb_buf_free(&png);
        snprintf(x->why, x->why_size, "%s: %s", name, why);
        return -1;
    }
    int r = emit(x, name, "image", path, png.data, png.size, replaceable, note);
    rb_buf_free(&png);
    return r;
}

static int extract_pages(datawin_extract *x)
{
    char name[64], path[96], note[200];
    for (size_t k = 0; k < x->pages.count; k++) {
        const rb_node *blob = page_blob(&x->pages, k);
        if (!blob) continue; /* an external texture: nothing in the file */
        snprintf(path, sizeof path, "/chunks/%ld/textures/%zu/data", x->pages.txtr_chunk, k);
        datawin_page_form form = datawin_page_form_of(blob->v.bytes.data, blob->v.bytes.size);
        /* decoded in every form: the items need the pixels, and a PNG page that does not decode
         * is not handed out as a picture */
        const datawin_picture *p = page(&x->pages, (long)k);
        if (p && form == DATAWIN_PAGE_PNG) {
            snprintf(name, sizeof name, "textures/page-%04zu.png", k);
            if (emit(x, name, "image", path, blob->v.bytes.data, blob->v.bytes.size, 1, "as stored")) return -1;
            continue;
        }
        if (!p) {
            /* kept as it is: the file's other assets still come out */
            snprintf(name, sizeof name, "textures/page-%04zu.bin", k);
            snprintf(note, sizeof note, "not decoded, so the items on it are not cut: %s", x->pages.why[k]);
            if (emit(x, name, "blob", path, blob->v.bytes.data, blob->v.bytes.size, 0, note)) return -1;
            continue;
        }
        snprintf(name, sizeof name, "textures/page-%04zu.png", k);
        snprintf(note, sizeof note, "decoded from %s", datawin_page_form_name(form));
        if (emit_picture(x, p, name, path, 1, note)) return -1;
    }
    return 0;
}

/* One TPAG item as a picture named `name`, from model node `path`. */
static int extract_item(datawin_extract *x, uint64_t index, const char *name, const char *path)
{
    datawin_item item;
    if (item_of(&x->pages, index, &item)) return 0; /* a null link (-1) or no TPAG: nothing to cut */
    const datawin_picture *p = page(&x->pages, item.page);
    /* no such page, an external one or one not decoded (its blob's note says why): nothing to cut */
    if (!p) return 0;
    datawin_picture cut;
    char why[160];
    if (datawin_item_cut(p, &item, x->doc->limits.max_decompressed_size, &cut, why, sizeof why)) {
        snprintf(x->why, x->why_size, "%s (%s): TPAG item %llu: %s", name, path, (unsigned long long)index, why);
        return -1;
    }
    char note[96];
    snprintf(note, sizeof note, "TPAG item %llu on texture page %ld", (unsigned long long)index, item.page);
    int r = cut.width && cut.height ? emit_picture(x, &cut, name, path, 1, note) : 0;
    datawin_picture_free(&cut);
    return r;
}

/* Every element of `list_key` in chunk `id` whose TPAG link is `link_key` (NULL: the element's
 * `frames` list), as "<folder>/<name>.png" or "<folder>/<name>-<frame>.png". */
static int extract_items_of(datawin_extract *x, const char *id, const char *list_key, const char *link_key,
                            const char *folder)
{
    long c;
    const rb_node *list = rb_record_member(chunk(x->doc, id, &c), list_key);
    char name[200], path[128], base[120];
    for (size_t i = 0; list && i < rb_element_count(list); i++) {
        const rb_node *e = rb_list_element(list, i);
        if (!e) continue;
        file_name_part(rb_record_member(e, "name"), base, sizeof base);
        size_t len = strlen(base);
        if (len > 4 && !strcmp(base + len - 4, ".png")) base[len - 4] = 0; /* EMBI names are file names */
        if (link_key) {
            const rb_node *link = rb_record_member(e, link_key);
            if (!link || link->kind != RB_K_INT) continue;
            snprintf(name, sizeof name, "%s/%s.png", folder, base);
            snprintf(path, sizeof path, "/chunks/%ld/%s/%zu/%s", c, list_key, i, link_key);
            if (extract_item(x, rb_node_uint(link), name, path)) return -1;
            continue;
        }
        const rb_node *frames = rb_record_member(e, "frames");
        for (size_t f = 0; frames && f < rb_element_count(frames); f++) {
            snprintf(name, sizeof name, "%s/%s-%zu.png", folder, base, f);
            snprintf(path, sizeof path, "/chunks/%ld/%s/%zu/frames/%zu", c, list_key, i, f);
            if (extract_item(x, rb_element_uint(frames, f, NULL), name, path)) return -1;
        }
    }
    return 0;
}

static int extract_sounds(datawin_extract *x)
{
    long c;
    const rb_node *sounds = rb_record_member(chunk(x->doc, "AUDO", &c), "sounds");
    const rb_node *sond = rb_record_member(chunk(x->doc, "SOND", NULL), "sounds");
    char name[200], path[96], base[120];
    for (size_t k = 0; sounds && k < rb_element_count(sounds); k++) {
        const rb_node *data = rb_record_member(rb_list_element(sounds, k), "data");
        if (!data || data->kind != RB_K_BLOB) continue;
        /* the sound that plays this entry names the file (SOND's audioFile is the AUDO index) */
        const rb_node *named = NULL;
        for (size_t s = 0; sond && s < rb_element_count(sond) && !named; s++) {
            const rb_node *n = rb_record_member(rb_list_element(sond, s), "audioFile");
            if (n && n->kind == RB_K_INT && rb_node_int(n) == (int64_t)k) named = rb_record_member(rb_list_element(sond, s), "name");
        }
        file_name_part(named, base, sizeof base);
        const uint8_t *b = data->v.bytes.data;
        size_t n = data->v.bytes.size;
        const char *ext = n >= 4 && !memcmp(b, "RIFF", 4) ? "wav" : n >= 4 && !memcmp(b, "OggS", 4) ? "ogg" : "bin";
        snprintf(name, sizeof name, "sounds/%04zu-%s.%s", k, named ? base : "sound", ext);
        snprintf(path, sizeof path, "/chunks/%ld/sounds/%zu/data", c, k);
        if (emit(x, name, "sound", path, b, n, 1, "as stored")) return -1;
    }
    return 0;
}

static int extract_code(datawin_extract *x)
{
    long c;
    const rb_node *entries = rb_record_member(chunk(x->doc, "CODE", &c), "entries");
    char name[200], path[96], base[160];
    for (size_t i = 0; entries && i < rb_element_count(entries); i++) {
        const rb_node *e = rb_list_element(entries, i);
        const rb_node *bytecode = rb_record_member(e, "bytecode");
        if (!bytecode || bytecode->kind != RB_K_BLOB) continue; /* a child entry runs inside its parent's */
        file_name_part(rb_record_member(e, "name"), base, sizeof base);
        snprintf(name, sizeof name, "code/%s.bin", base);
        snprintf(path, sizeof path, "/chunks/%ld/entries/%zu/bytecode", c, i);
        if (emit(x, name, "code", path, bytecode->v.bytes.data, bytecode->v.bytes.size, 0,
                 "the model's bytecode: string operands and variable and function links are zeroed (the entry's "
                 "stringOperands, variableReferences and functionReferences hold them)"))
            return -1;
        rb_buf listing;
        rb_buf_init(&listing);
        int failed = datawin_code_listing(x->doc, entries, i, &listing);
        snprintf(name, sizeof name, "code/%s.txt", base);
        snprintf(path, sizeof path, "/chunks/%ld/entries/%zu", c, i);
        if (!failed && emit(x, name, "code", path, listing.data, listing.size, 1,
                            "the entry's listing: one instruction a line, labels, the names the operands link to"))
            failed = -1, x->stopped = 1;
        rb_buf_free(&listing);
        if (failed) {
            if (!x->stopped) snprintf(x->why, x->why_size, "out of memory listing %s", name);
            return -1;
        }
    }
    return 0;
}

/* The extraction of `only_kind` (NULL: all); with `pixels`, the pictures cut from the pages
 * alone, as their pixels (the pages themselves are blobs: a diff sees them replaced as such). */
static int extract(const rb_doc *doc, const char *only_kind, int pixels, rb_asset_sink sink, void *context, char *why,
                   size_t why_size)
{
    datawin_extract x;
    memset(&x, 0, sizeof x);
    x.doc = doc;
    x.only = only_kind;
    x.pixels = pixels;
    x.sink = sink;
    x.context = context;
    x.why = why;
    x.why_size = why_size;
    if (pages_open(&x.pages, doc)) {
        pages_close(&x.pages);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    int r = 0;
    if (!pixels && (wanted(&x, "image") || wanted(&x, "blob"))) r = extract_pages(&x);
    if (!r && wanted(&x, "image"))
        r = extract_items_of(&x, "SPRT", "sprites", NULL, "sprites") ||
            extract_items_of(&x, "BGND", "backgrounds", "texture", "backgrounds") ||
            extract_items_of(&x, "FONT", "fonts", "texture", "fonts") ||
            extract_items_of(&x, "EMBI", "images", "texture", "embedded");
    if (!r && wanted(&x, "sound")) r = extract_sounds(&x);
    if (!r && wanted(&x, "code")) r = extract_code(&x);
    pages_close(&x.pages);
    return r ? -1 : 0;
}

int datawin_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why, size_t why_size)
{
    return extract(doc, only_kind, 0, sink, context, why, why_size);
}

int datawin_picture_pixels(const rb_doc *doc, rb_asset_sink sink, void *context, char *why, size_t why_size)
{
    return extract(doc, "image", 1, sink, context, why, why_size);
}

/* ---------- the way back ---------- */

/* A replace operation; a value that could not be made (NULL) is out of memory. */
static int add_op(json_t *ops, const char *path, json_t *value)
{
    return value ? rb_json_patch_op(ops, "replace", path, NULL, value) : -1;
}

static json_t *base64_value(const uint8_t *data, size_t size)
{
    char *text = malloc(4 * ((size + 2) / 3) + 1);
    if (!text) return NULL;
    size_t n = rb_base64_encode(data, size, text);
    json_t *v = json_pack("{s:s%}", "$base64", text, n);
    free(text);
    return v;
}

/* Operations that store `pixels` as page k, in the form the page has (and its width and height
 * fields, 2022.9+, when they change). */
static int page_ops(datawin_pages *pages, size_t k, const datawin_picture *pixels, json_t *ops, char *why, size_t why_size)
{
    const rb_node *blob = page_blob(pages, k);
    datawin_page_form form = blob ? datawin_page_form_of(blob->v.bytes.data, blob->v.bytes.size) : DATAWIN_PAGE_UNKNOWN;
    if (form == DATAWIN_PAGE_UNKNOWN) {
        snprintf(why, why_size, "texture page %zu is %s: a picture cannot be put there", k,
                 blob ? "in an unknown encoding" : "external (not in the file)");
        return -1;
    }
    rb_buf out;
    rb_buf_init(&out);
    if (datawin_page_encode(pixels, form, &out, why, why_size)) {
        rb_buf_free(&out);
        return -1;
    }
    char path[96];
    snprintf(path, sizeof path, "/chunks/%ld/textures/%zu/data", pages->txtr_chunk, k);
    int r = add_op(ops, path, base64_value(out.data, out.size));
    rb_buf_free(&out);
    const rb_node *texture = rb_list_element(pages->textures, k);
    const char *sizes[2] = {"width", "height"};
    unsigned values[2] = {pixels->width, pixels->height};
    for (int s = 0; s < 2 && !r; s++) {
        const rb_node *field = rb_record_member(texture, sizes[s]);
        if (!field || rb_node_int(field) == (int64_t)values[s]) continue;
        snprintf(path, sizeof path, "/chunks/%ld/textures/%zu/%s", pages->txtr_chunk, k, sizes[s]);
        r = add_op(ops, path, json_integer(values[s]));
    }
    if (r) snprintf(why, why_size, "out of memory");
    return r;
}

static int is_pow2(unsigned v) { return v && !(v & (v - 1)); }
static unsigned pow2_at_least(unsigned v)
{
    unsigned p = 1;
    while (p < v && p < 0x80000000u) p <<= 1;
    return p;
}

/* A frame that does not fit its item's region: the page grows downwards and the frame goes
 * below what it held (docs/formats/datawin.md "Assets" says why). */
static int grow_page(datawin_pages *pages, uint64_t index, const datawin_item *item, const datawin_picture *frame, json_t *ops,
                     char *why, size_t why_size)
{
    const datawin_picture *p = page(pages, item->page);
    unsigned gap = p->height ? 2 : 0, top = p->height + gap;
    uint64_t width = p->width > frame->width ? p->width : frame->width, height = (uint64_t)top + frame->height;
    if (is_pow2(p->width) && is_pow2(p->height)) width = pow2_at_least((unsigned)width), height = pow2_at_least((unsigned)(height > 0xFFFFFFFFu ? 0xFFFFFFFFu : height));
    if (width > 0xFFFF || height > 0xFFFF || (uint64_t)top + frame->height > 0xFFFF ||
        width * height * 4 > pages->doc->limits.max_decompressed_size) {
        snprintf(why, why_size, "texture page %ld would grow to %llux%llu to hold a %ux%u frame: too large", item->page,
                 (unsigned long long)width, (unsigned long long)height, frame->width, frame->height);
        return -1;
    }
    datawin_picture grown;
    if (datawin_picture_new(&grown, (unsigned)width, (unsigned)height)) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    datawin_picture_blit(&grown, 0, 0, p);
    datawin_picture_blit(&grown, 0, top, frame);
    int r = page_ops(pages, (size_t)item->page, &grown, ops, why, why_size);
    datawin_picture_free(&grown);
    static const char *const keys[] = {"sourceX", "sourceY", "sourceWidth", "sourceHeight", "targetX",
                                       "targetY", "targetWidth", "targetHeight", "boundingWidth", "boundingHeight"};
    const unsigned now[] = {item->source_x, item->source_y, item->source_width, item->source_height,
                            item->target_x, item->target_y, item->target_width, item->target_height,
                            item->bounding_width, item->bounding_height};
    const unsigned next[] = {0, top, frame->width, frame->height, 0, 0, frame->width, frame->height,
                             frame->width, frame->height};
    char path[128];
    for (size_t f = 0; f < 10 && !r; f++) {
        if (now[f] == next[f]) continue;
        snprintf(path, sizeof path, "/chunks/%ld/items/%llu/%s", pages->tpag_chunk, (unsigned long long)index, keys[f]);
        if (add_op(ops, path, json_integer(next[f]))) {
            snprintf(why, why_size, "out of memory");
            r = -1;
        }
    }
    return r;
}

static int item_ops(datawin_pages *pages, uint64_t index, const datawin_picture *frame, json_t *ops, char *why, size_t why_size)
{
    datawin_item item;
    if (item_of(pages, index, &item)) {
        snprintf(why, why_size, "it names no TPAG item (%lld)", (long long)(int64_t)index);
        return -1;
    }
    const datawin_picture *p = page(pages, item.page);
    if (!p) {
        if (item.page < 0 || (size_t)item.page >= pages->count)
            snprintf(why, why_size, "TPAG item %llu names texture page %ld, which TXTR lacks", (unsigned long long)index,
                     item.page);
        else snprintf(why, why_size, "texture page %ld: %s", item.page, pages->why[item.page]);
        return -1;
    }
    if (!frame->width || !frame->height) {
        snprintf(why, why_size, "an empty picture (%ux%u)", frame->width, frame->height);
        return -1;
    }
    datawin_picture current;
    if (datawin_item_cut(p, &item, pages->doc->limits.max_decompressed_size, &current, why, why_size)) return -1;
    int same = datawin_picture_equal(&current, frame);
    datawin_picture_free(&current);
    if (same) return 0; /* the file keeps its bytes */
    if (!datawin_item_fits(&item, frame)) return grow_page(pages, index, &item, frame, ops, why, why_size);
    datawin_picture drawn;
    if (datawin_picture_new(&drawn, p->width, p->height)) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    memcpy(drawn.rgba, p->rgba, (size_t)p->width * p->height * 4);
    datawin_item_draw(&drawn, &item, frame);
    int r = page_ops(pages, (size_t)item.page, &drawn, ops, why, why_size);
    datawin_picture_free(&drawn);
    return r;
}

/* A frame is the sprite's whole box, and every frame, the bounding box (margins) and the
 * collision masks have the sprite's width and height: a picture of another size is refused,
 * naming what would stay at the old size (docs/formats/datawin.md "Assets"). A picture of the
 * size the frame's item has now changes nothing of that (a file whose item box is not its
 * sprite's keeps it). 0 when it fits. */
static int sprite_size_refused(const rb_node *sprite, const datawin_item *now, const datawin_picture *picture,
                               char *why, size_t why_size)
{
    const rb_node *width = rb_record_member(sprite, "width"), *height = rb_record_member(sprite, "height");
    if (!width || !height) return 0; /* a sprite without a size of its own (none in any version read) */
    int64_t w = rb_node_int(width), h = rb_node_int(height);
    if (w == (int64_t)picture->width && h == (int64_t)picture->height) return 0;
    if (now && now->bounding_width == picture->width && now->bounding_height == picture->height) return 0;
    const rb_node *name = rb_record_member(sprite, "name");
    size_t frames = rb_element_count(rb_record_member(sprite, "frames"));
    size_t masks = rb_element_count(rb_record_member(sprite, "masks"));
    snprintf(why, why_size,
             "a %ux%u picture for a frame of sprite \"%.*s\" (%lldx%lld): its width, height, bounding box (%lld..%lld x "
             "%lld..%lld), %zu collision mask%s and %zu other frame%s are %lldx%lld; rebyte does not resize a sprite: "
             "give a %lldx%lld picture",
             picture->width, picture->height, name && name->kind == RB_K_STRING ? (int)name->v.bytes.size : 1,
             name && name->kind == RB_K_STRING ? (const char *)name->v.bytes.data : "?", (long long)w, (long long)h,
             (long long)rb_node_int(rb_record_member(sprite, "marginLeft")),
             (long long)rb_node_int(rb_record_member(sprite, "marginRight")),
             (long long)rb_node_int(rb_record_member(sprite, "marginTop")),
             (long long)rb_node_int(rb_record_member(sprite, "marginBottom")), masks, masks == 1 ? "" : "s",
             frames ? frames - 1 : 0, frames == 2 ? "" : "s", (long long)w, (long long)h, (long long)w, (long long)h);
    return 1;
}

/* Splits "/chunks/<c>/<list>/<i>/<rest>" (plain indices, as extract names them). */
static int parse_path(const char *path, unsigned long *c, char *list, size_t list_size, unsigned long *i,
                      const char **rest)
{
    if (strncmp(path, "/chunks/", 8) != 0) return -1;
    char *end;
    *c = strtoul(path + 8, &end, 10);
    if (end == path + 8 || *end != '/') return -1;
    const char *l = end + 1, *slash = strchr(l, '/');
    if (!slash || (size_t)(slash - l) >= list_size) return -1;
    memcpy(list, l, (size_t)(slash - l));
    list[slash - l] = 0;
    *i = strtoul(slash + 1, &end, 10);
    if (end == slash + 1 || (*end != '/' && *end)) return -1;
    *rest = *end ? end + 1 : end;
    return 0;
}

json_t *datawin_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                       size_t why_size)
{
    unsigned long c, i;
    char list[32];
    const char *rest;
    const rb_node *chunks = rb_record_member(doc->root, "chunks");
    /* not an asset's path: `why` stays empty (a {"$file"} value there is a blob's plain bytes) */
    if (why_size) why[0] = 0;
    if (parse_path(path, &c, list, sizeof list, &i, &rest) || c >= rb_element_count(chunks)) return NULL;
    const rb_node *ch = rb_list_element(chunks, c), *id = rb_record_member(ch, "id");
    const rb_node *e = rb_list_element(rb_record_member(ch, list), i);
    json_t *ops = json_array();
    if (!ops || !e) {
        if (!ops) snprintf(why, why_size, "out of memory");
        json_decref(ops);
        return NULL;
    }
    if (rb_node_text_is(id, "AUDO") && !strcmp(list, "sounds") && !strcmp(rest, "data")) {
        const rb_node *now = rb_record_member(e, "data");
        if (now && now->kind == RB_K_BLOB && now->v.bytes.size == size && !memcmp(now->v.bytes.data, data, size))
            return ops;
        if (add_op(ops, path, base64_value(data, size)) == 0) return ops;
        snprintf(why, why_size, "out of memory");
        json_decref(ops);
        return NULL;
    }
    if (rb_node_text_is(id, "CODE") && !strcmp(list, "entries") && !*rest) { /* a code listing */
        char reason[480];
        if (datawin_code_assemble(doc, (long)c, i, data, size, ops, reason, sizeof reason) == 0) return ops;
        snprintf(why, why_size, "%s: %s", path, reason);
        json_decref(ops);
        return NULL;
    }
    int is_page = rb_node_text_is(id, "TXTR") && !strcmp(list, "textures") && !strcmp(rest, "data");
    uint64_t item = 0;
    int is_item = 0;
    const rb_node *sprite = NULL;
    if (rb_node_text_is(id, "SPRT") && !strcmp(list, "sprites") && !strncmp(rest, "frames/", 7)) {
        char *end;
        unsigned long f = strtoul(rest + 7, &end, 10);
        const rb_node *frames = rb_record_member(e, "frames");
        is_item = end != rest + 7 && !*end && frames && f < rb_element_count(frames);
        if (is_item) item = rb_element_uint(frames, f, NULL), sprite = e;
    } else if (((rb_node_text_is(id, "BGND") && !strcmp(list, "backgrounds")) || (rb_node_text_is(id, "FONT") && !strcmp(list, "fonts")) ||
                (rb_node_text_is(id, "EMBI") && !strcmp(list, "images"))) &&
               !strcmp(rest, "texture")) {
        const rb_node *link = rb_record_member(e, "texture");
        is_item = link && link->kind == RB_K_INT;
        if (is_item) item = rb_node_uint(link);
    }
    if (!is_page && !is_item) { /* bytecode included: its file is the blob's bytes */
        json_decref(ops);
        return NULL;
    }
    datawin_picture picture;
    char reason[640];
    if (datawin_picture_from_png(data, size, doc->limits.max_decompressed_size, &picture, reason, sizeof reason)) {
        snprintf(why, why_size, "%s: %s", path, reason);
        json_decref(ops);
        return NULL;
    }
    datawin_pages pages;
    datawin_item frame_item;
    int r = pages_open(&pages, doc);
    if (r) snprintf(reason, sizeof reason, "out of memory");
    else if (sprite && sprite_size_refused(sprite, item_of(&pages, item, &frame_item) == 0 ? &frame_item : NULL, &picture, reason,
                                           sizeof reason))
        r = -1;
    else if (is_item) r = item_ops(&pages, item, &picture, ops, reason, sizeof reason);
    else {
        const datawin_picture *now = page(&pages, (long)i);
        /* equal pixels: the page keeps its bytes, so an unchanged picture gives back the same file */
        if (!now || !datawin_picture_equal(now, &picture)) r = page_ops(&pages, i, &picture, ops, reason, sizeof reason);
    }
    pages_close(&pages);
    datawin_picture_free(&picture);
    if (r) {
        snprintf(why, why_size, "%s: %s", path, reason);
        json_decref(ops);
        return NULL;
    }
    return ops;
}
