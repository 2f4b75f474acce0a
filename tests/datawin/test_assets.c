/*
 * data.win assets (docs/formats/datawin.md "Assets"), through the format's
 * hooks directly:
 *   test_datawin_assets                  the QOI variant and bzip2 on made pictures and hand-made streams
 *   test_datawin_assets [-o DIR] FILE... per file: extract every asset (written under DIR/<file>/ with a
 *                                   manifest.tsv for tests/datawin/assets_check.py), put each picture and
 *                                   sound back unchanged (the file must come back byte for byte), then
 *                                   replace the first page with a larger picture and the first sprite
 *                                   frame with one of its size that has pixels where the item had
 *                                   none (the page grows) and with one drawn into its region: each
 *                                   result verifies, reads back and extracts as the new picture; a
 *                                   frame of another size is refused, naming the sprite's size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/model/doc_state.h"
#include "core/datawin/datawin_pictures.h"
#include "tests/test_util.h"
#include "writers/bzip2.h"
#include "writers/qoi.h"

/* ---------- codecs ---------- */

static void check_pixels(const uint8_t *got, const uint8_t (*want)[4], size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        CHECK(memcmp(got + 4 * i, want[i], 4) == 0, "%s pixel %zu is %u,%u,%u,%u, not %u,%u,%u,%u", what, i,
              got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3], want[i][0], want[i][1], want[i][2],
              want[i][3]);
}

/* A stream written by hand from the operations docs/formats/datawin.md documents. */
static void test_hand_made_stream(void)
{
    static const uint8_t stream[] = {
        'f', 'i', 'o', 'q', 3, 0, 2, 0, 16, 0, 0, 0,
        0xFE, 10, 20, 30,  /* colour: r, g, b given, alpha kept (255) */
        0x9C,              /* 2-bit differences: r +1, g -1, b 0 */
        0x40,              /* run of 1: the previous pixel again */
        0x3F,              /* table entry (10 ^ 20 ^ 30 ^ 255) & 63 = 63: the first pixel */
        0xD0, 0x78,        /* 5/4/4-bit differences: r -16, g +7, b -8 */
        0xE0, 0x00, 0x1B,  /* 5-bit differences with alpha: alpha -5 */
        0, 0, 0, 0};       /* GameMaker's trailing zero bytes */
    static const uint8_t want[6][4] = {{10, 20, 30, 255}, {11, 19, 30, 255}, {11, 19, 30, 255},
                                       {10, 20, 30, 255}, {250, 27, 22, 255}, {250, 27, 22, 250}};
    uint8_t *rgba;
    unsigned w, h;
    char why[200];
    int r = rb_qoi_decode(stream, sizeof stream, 1 << 20, &rgba, &w, &h, why, sizeof why);
    CHECK(r == 0, "hand-made stream: %s", why);
    if (r) return;
    CHECK(w == 3 && h == 2, "size %ux%u", w, h);
    check_pixels(rgba, want, 6, "hand-made stream");
    free(rgba);

    /* a long run: colour, then 39 more of it in the 2-byte form (39 - 33 = 6) */
    static const uint8_t run[] = {'f', 'i', 'o', 'q', 40, 0, 1, 0, 7, 0, 0, 0, 0xFF, 1, 2, 3, 4, 0x60, 6};
    r = rb_qoi_decode(run, sizeof run, 1 << 20, &rgba, &w, &h, why, sizeof why);
    CHECK(r == 0, "run stream: %s", why);
    if (r) return;
    uint8_t want_run[40][4];
    for (int i = 0; i < 40; i++) memcpy(want_run[i], (uint8_t[]){1, 2, 3, 4}, 4);
    check_pixels(rgba, (const uint8_t(*)[4])want_run, 40, "run stream");
    free(rgba);

    /* damaged streams fail with the byte where it went wrong, never crash */
    for (size_t cut = 0; cut < sizeof stream; cut++) {
        uint8_t copy[sizeof stream];
        memcpy(copy, stream, sizeof stream);
        if (cut >= 12) copy[8] = (uint8_t)(cut - 12); /* the header's length shortened to `cut` */
        r = rb_qoi_decode(copy, cut >= 12 ? sizeof stream : cut, 1 << 20, &rgba, &w, &h, why, sizeof why);
        if (cut < 12 + 12) CHECK(r != 0, "a stream cut at %zu bytes decodes", cut);
        if (r == 0) free(rgba);
    }
    r = rb_qoi_decode(stream, sizeof stream, 16, &rgba, &w, &h, why, sizeof why);
    CHECK(r != 0 && strstr(why, "limit"), "a picture above the limit: %s", r ? why : "decoded");
}

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

/* Pictures that exercise every operation: noise, gradients, flat areas longer than a run holds,
 * alpha changes. */
static void make_picture(datawin_picture *p, unsigned w, unsigned h, unsigned kind)
{
    datawin_picture_new(p, w, h);
    uint32_t s = kind * 7919 + w;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            uint8_t *px = p->rgba + ((size_t)y * w + x) * 4;
            uint32_t v = lcg(&s) >> 8;
            switch (kind % 4) {
            case 0: memcpy(px, &v, 4); break;
            case 1: px[0] = (uint8_t)x, px[1] = (uint8_t)(y * 3), px[2] = (uint8_t)(x + y), px[3] = 255; break;
            case 2: px[0] = px[1] = px[2] = (y > h / 2) ? 200 : 0, px[3] = (x % 97) ? 255 : 0; break;
            default:
                px[0] = (uint8_t)(x / 8 + (v & 3)), px[1] = (uint8_t)(y / 8 - (v >> 2 & 7)), px[2] = (uint8_t)(x ^ y);
                px[3] = (uint8_t)(255 - (v >> 5 & 15));
            }
        }
}

static void test_round_trips(void)
{
    static const unsigned sizes[][2] = {{1, 1}, {3, 5}, {64, 64}, {300, 41}, {8300, 3}, {0, 0}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (unsigned kind = 0; kind < 4; kind++) {
            datawin_picture p, back;
            make_picture(&p, sizes[s][0], sizes[s][1], kind);
            for (datawin_page_form form = DATAWIN_PAGE_PNG; form <= DATAWIN_PAGE_BZ2_QOI_SIZED; form++) {
                if (form == DATAWIN_PAGE_PNG && !p.width) continue; /* PNG has no empty pictures */
                rb_buf out;
                rb_buf_init(&out);
                char why[200];
                int r = datawin_page_encode(&p, form, &out, why, sizeof why);
                CHECK(r == 0, "encode %ux%u kind %u as %d: %s", p.width, p.height, kind, form, why);
                CHECK(datawin_page_form_of(out.data, out.size) == form, "form of %d reads as %d", form,
                      datawin_page_form_of(out.data, out.size));
                r = r ? r : datawin_page_decode(out.data, out.size, 1u << 30, &back, why, sizeof why);
                CHECK(r == 0, "decode %ux%u kind %u as %d: %s", p.width, p.height, kind, form, why);
                if (!r) {
                    CHECK(datawin_picture_equal(&p, &back), "%ux%u kind %u form %d does not come back", p.width,
                          p.height, kind, form);
                    datawin_picture_free(&back);
                }
                rb_buf_free(&out);
            }
            datawin_picture_free(&p);
        }
    /* the bzip2 + QOI header: a size field whose low bytes spell the bzip2 magic is still a size */
    static const uint8_t sized[] = {'2', 'z', 'o', 'q', 1, 0, 1, 0, 'B', 'Z', 'h', 0, 'B', 'Z', 'h', '9'};
    static const uint8_t unsized[] = {'2', 'z', 'o', 'q', 1, 0, 1, 0, 'B', 'Z', 'h', '9', '1', 'A', 'Y', '&'};
    CHECK(datawin_page_form_of(sized, sizeof sized) == DATAWIN_PAGE_BZ2_QOI_SIZED, "a size spelling BZh");
    CHECK(datawin_page_form_of(unsized, sizeof unsized) == DATAWIN_PAGE_BZ2_QOI, "no size field");
    /* a flat picture is a few run operations: 8300 x 3 = 24900 pixels = 4 runs (at most 8224 each) */
    datawin_picture flat;
    datawin_picture_new(&flat, 8300, 3);
    rb_buf out;
    rb_buf_init(&out);
    char why[200];
    rb_qoi_encode(flat.rgba, flat.width, flat.height, &out, why, sizeof why);
    CHECK(out.size == 12 + 1 + 4 * 2 + 4, "flat picture takes %zu bytes", out.size);
    rb_buf_free(&out);
    datawin_picture_free(&flat);
}

/* ---------- files ---------- */

typedef struct asset {
    char *name, *kind, *path, *note;
    uint8_t *data;
    size_t size;
    int replaceable;
} asset;

typedef struct assets {
    asset *items;
    size_t count, cap;
} assets;

static char *dup_text(const char *s) { return s ? strcpy(malloc(strlen(s) + 1), s) : NULL; }

static int collect(void *context, const rb_asset *a)
{
    assets *list = context;
    if (list->count == list->cap) {
        list->cap = list->cap ? list->cap * 2 : 64;
        list->items = realloc(list->items, list->cap * sizeof *list->items);
    }
    asset *x = &list->items[list->count++];
    x->name = dup_text(a->name), x->kind = dup_text(a->kind), x->path = dup_text(a->path), x->note = dup_text(a->note);
    x->data = malloc(a->data_size ? a->data_size : 1);
    memcpy(x->data, a->data, a->data_size);
    x->size = a->data_size;
    x->replaceable = a->replaceable;
    return 0;
}

static void assets_free(assets *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->items[i].name), free(list->items[i].kind), free(list->items[i].path), free(list->items[i].note),
            free(list->items[i].data);
    free(list->items);
    memset(list, 0, sizeof *list);
}

static rb_doc *parse(const uint8_t *data, size_t size, const char *file)
{
    rb_error err;
    rb_doc *doc = rb_doc_parse(data, size, NULL, &err);
    char text[512];
    CHECK(doc != NULL, "%s: %s", file, rb_error_format(&err, text, sizeof text));
    return doc;
}

static int extract(rb_doc *doc, const char *only, assets *out)
{
    char why[300] = "";
    int r = doc->format->assets(doc, only, collect, out, why, sizeof why);
    CHECK(r == 0, "extract: %s", why);
    return r;
}

static void mkdirs(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(buf, 0755);
            *p = '/';
        }
    mkdir(buf, 0755);
}

static void write_out(const char *dir, const char *file, const assets *list)
{
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    char root[512], path[1024];
    snprintf(root, sizeof root, "%s/%s", dir, base);
    mkdirs(root);
    snprintf(path, sizeof path, "%s/manifest.tsv", root);
    FILE *manifest = fopen(path, "w");
    for (size_t i = 0; i < list->count && manifest; i++) {
        const asset *a = &list->items[i];
        snprintf(path, sizeof path, "%s/%s", root, a->name);
        char *slash = strrchr(path, '/');
        *slash = 0;
        mkdirs(path);
        *slash = '/';
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL, "cannot write %s: %s", path, strerror(errno));
        if (f) fwrite(a->data, 1, a->size, f), fclose(f);
        fprintf(manifest, "%s\t%s\t%s\t%d\n", a->name, a->kind, a->path, a->replaceable);
    }
    if (manifest) fclose(manifest);
}

/* Applies asset_patch's operations through rb_apply (written, read back, verified); the new
 * file's bytes, or NULL. */
static uint8_t *put_back(rb_doc *doc, const uint8_t *data, size_t size, const char *path, const uint8_t *file,
                         size_t file_size, size_t *out_size, size_t *operations)
{
    char why[300] = "";
    json_t *ops = doc->format->asset_patch(doc, path, file, file_size, why, sizeof why);
    CHECK(ops != NULL, "asset_patch %s: %s", path, why);
    if (!ops) return NULL;
    *operations = json_array_size(ops);
    char *text = json_dumps(ops, JSON_COMPACT);
    json_decref(ops);
    rb_error err;
    rb_patch *patch = rb_patch_parse(text, strlen(text), path, &err);
    free(text);
    char message[512];
    CHECK(patch != NULL, "%s: %s", path, rb_error_format(&err, message, sizeof message));
    if (!patch) return NULL;
    rb_apply_result result = RB_APPLY_RESULT_INIT;
    memset(&result, 0, sizeof result);
    const rb_patch *const patches[] = {patch};
    rb_status st = rb_apply(data, size, "data.win", patches, 1, NULL, &result, &err);
    rb_patch_free(patch);
    CHECK(st == RB_OK, "apply at %s: %s", path, rb_error_format(&err, message, sizeof message));
    if (st != RB_OK) return NULL;
    *out_size = result.bytes_size;
    uint8_t *bytes = result.bytes;
    result.bytes = NULL;
    rb_apply_result_free(&result);
    return bytes;
}

static const asset *find(const assets *list, const char *path)
{
    for (size_t i = 0; i < list->count; i++)
        if (!strcmp(list->items[i].path, path)) return &list->items[i];
    return NULL;
}

/* Replaces the asset at `path` by `bytes` (a picture: `picture` is its pixels; else NULL), then
 * checks the new file extracts it there. */
static void replace_bytes_and_check(const uint8_t *data, size_t size, const char *file, const char *path,
                                    const uint8_t *bytes, size_t bytes_size, const datawin_picture *picture)
{
    char why[200];
    rb_doc *doc = parse(data, size, file);
    size_t out_size = 0, operations = 0;
    uint8_t *out = doc ? put_back(doc, data, size, path, bytes, bytes_size, &out_size, &operations) : NULL;
    rb_doc_free(doc);
    if (!out) return;
    CHECK(operations > 0, "%s: %s: a new file gives no operations", file, path);
    rb_doc *again = parse(out, out_size, file);
    assets list = {0};
    if (again && extract(again, picture ? "image" : "sound", &list) == 0) {
        const asset *a = find(&list, path);
        CHECK(a != NULL, "%s: %s is not extracted from the new file", file, path);
        datawin_picture back;
        if (a && !picture) {
            CHECK(a->size == bytes_size && !memcmp(a->data, bytes, bytes_size), "%s: %s extracts other bytes", file, path);
        } else if (a && datawin_picture_from_png(a->data, a->size, UINT64_MAX, &back, why, sizeof why) == 0) {
            CHECK(datawin_picture_equal(&back, picture), "%s: %s extracts as %ux%u, not the %ux%u put there", file, path,
                  back.width, back.height, picture->width, picture->height);
            datawin_picture_free(&back);
        } else if (a) {
            CHECK(0, "%s: %s: %s", file, path, why);
        }
    }
    printf("%s: replaced %s (%zu bytes): %zu operations, %zu -> %zu bytes\n", file, path, bytes_size, operations, size,
           out_size);
    assets_free(&list);
    rb_doc_free(again);
    free(out);
}

static void replace_and_check(const uint8_t *data, size_t size, const char *file, const char *path,
                              const datawin_picture *picture)
{
    rb_buf png;
    rb_buf_init(&png);
    char why[200];
    CHECK(datawin_picture_to_png(picture, &png, why, sizeof why) == 0, "%s", why);
    replace_bytes_and_check(data, size, file, path, png.data, png.size, picture);
    rb_buf_free(&png);
}

/* The first page's blob damaged in the middle: the file still reads (the blob is kept as it is),
 * extraction writes the page as a blob saying why and cuts nothing from it, and putting a frame
 * of it back says why it cannot. */
static int on_page(const asset *a, unsigned long page)
{
    char tail[64];
    snprintf(tail, sizeof tail, " on texture page %lu", page);
    size_t n = a->note ? strlen(a->note) : 0, t = strlen(tail);
    return n >= t && !strcmp(a->note + n - t, tail);
}

static void damaged_page(const uint8_t *data, size_t size, const char *file, const char *page_path,
                         const assets *before)
{
    unsigned long page = strtoul(strstr(page_path, "/textures/") + 10, NULL, 10);
    const char *frame_path = NULL;
    for (size_t i = 0; i < before->count && !frame_path; i++)
        if (on_page(&before->items[i], page)) frame_path = before->items[i].path;
    rb_doc *doc = parse(data, size, file);
    const rb_node *blob = doc ? rb_node_at(rb_doc_root(doc), page_path) : NULL;
    CHECK(blob != NULL, "%s: no %s", file, page_path);
    if (!blob) { rb_doc_free(doc); return; }
    uint8_t *copy = malloc(size);
    memcpy(copy, data, size);
    size_t middle = blob->src_offset + blob->v.bytes.size / 2;
    for (size_t i = middle; i < middle + 16 && i < size; i++) copy[i] ^= 0x5A;
    rb_doc_free(doc);
    doc = parse(copy, size, file);
    assets list = {0};
    if (doc && extract(doc, NULL, &list) == 0) {
        const asset *a = find(&list, page_path);
        CHECK(a && !strcmp(a->kind, "blob"), "%s: a damaged page extracts as %s", file, a ? a->kind : "nothing");
        size_t cut = 0;
        for (size_t i = 0; i < list.count; i++) cut += on_page(&list.items[i], page);
        CHECK(cut == 0, "%s: %zu pictures are cut from a damaged page", file, cut);
        if (frame_path) {
            char why[300] = "";
            static const uint8_t tiny_png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
            json_t *ops = doc->format->asset_patch(doc, frame_path, tiny_png, sizeof tiny_png, why, sizeof why);
            CHECK(ops == NULL && why[0], "%s: a frame put back on a damaged page: %s", file, ops ? "accepted" : "no reason");
            json_decref(ops);
        }
    }
    assets_free(&list);
    rb_doc_free(doc);
    free(copy);
}

static void test_file(const char *file, const char *out_dir)
{
    size_t size;
    uint8_t *data = test_read_file(file, &size);
    CHECK(data != NULL, "cannot read %s", file);
    if (!data) return;
    rb_doc *doc = parse(data, size, file);
    if (!doc) { free(data); return; }
    assets list = {0};
    if (extract(doc, NULL, &list)) { rb_doc_free(doc); free(data); return; }
    if (out_dir) write_out(out_dir, file, &list);
    size_t counts[4] = {0}, checked = 0, items = 0;
    for (size_t i = 0; i < list.count; i++) {
        const char *k = list.items[i].kind;
        counts[!strcmp(k, "image") ? 0 : !strcmp(k, "sound") ? 1 : !strcmp(k, "code") ? 2 : 3]++;
    }
    /* unchanged assets put back: no operations, so the file stays byte for byte (every page and
     * sound; TPAG items evenly spread, 24 at most, as each decodes its page again) */
    for (size_t i = 0; i < list.count; i++) {
        const asset *a = &list.items[i];
        if (!a->replaceable) continue;
        int is_item = !strstr(a->path, "/textures/") && !strstr(a->path, "/sounds/");
        if (is_item && items++ % (list.count / 24 + 1)) continue;
        char why[300] = "";
        json_t *ops = doc->format->asset_patch(doc, a->path, a->data, a->size, why, sizeof why);
        CHECK(ops != NULL, "%s: %s: %s", file, a->path, why);
        CHECK(!ops || json_array_size(ops) == 0, "%s: %s put back unchanged gives %zu operations", file, a->path,
              json_array_size(ops));
        json_decref(ops);
        checked++;
    }
    printf("%s: %zu images, %zu sounds, %zu code, %zu other; %zu put back unchanged\n", file, counts[0], counts[1],
           counts[2], counts[3], checked);
    /* the same through rb_apply: an empty patch writes the file as it was */
    const asset *first = list.count ? &list.items[0] : NULL;
    if (first && first->replaceable) {
        size_t out_size = 0, operations = 0;
        uint8_t *out = put_back(doc, data, size, first->path, first->data, first->size, &out_size, &operations);
        CHECK(out && out_size == size && !memcmp(out, data, size), "%s: %s put back does not give the same file", file,
              first->path);
        free(out);
    }
    /* a larger first page; the first sprite frame anew */
    const asset *page0 = NULL, *frame0 = NULL;
    for (size_t i = 0; i < list.count; i++) {
        const asset *a = &list.items[i];
        if (!page0 && strstr(a->path, "/textures/") && !strcmp(a->kind, "image")) page0 = a;
        if (!frame0 && strstr(a->path, "/frames/")) frame0 = a;
    }
    if (page0) {
        datawin_picture now, bigger;
        char why[200];
        if (datawin_picture_from_png(page0->data, page0->size, UINT64_MAX, &now, why, sizeof why) == 0) {
            make_picture(&bigger, now.width + 16, now.height + 8, 3);
            datawin_picture_blit(&bigger, 0, 0, &now);
            replace_and_check(data, size, file, page0->path, &bigger);
            datawin_picture_free(&bigger);
            datawin_picture_free(&now);
        }
    }
    const asset *sound0 = NULL;
    for (size_t i = 0; i < list.count && !sound0; i++)
        if (!strcmp(list.items[i].kind, "sound")) sound0 = &list.items[i];
    if (sound0) {
        /* a longer sound: the same bytes and 100 more, the RIFF length following */
        uint8_t *longer = calloc(sound0->size + 100, 1);
        memcpy(longer, sound0->data, sound0->size);
        if (sound0->size >= 8 && !memcmp(longer, "RIFF", 4)) {
            uint32_t riff = (uint32_t)(sound0->size + 100 - 8);
            memcpy(longer + 4, &riff, 4);
        }
        replace_bytes_and_check(data, size, file, sound0->path, longer, sound0->size + 100, NULL);
        free(longer);
    }
    if (page0) damaged_page(data, size, file, page0->path, &list);
    if (frame0) {
        datawin_picture now, other;
        char why[200];
        if (datawin_picture_from_png(frame0->data, frame0->size, UINT64_MAX, &now, why, sizeof why) == 0) {
            /* another size: the sprite's size, bounding box and masks would not follow */
            make_picture(&other, now.width + 5, now.height + 3, 1);
            rb_buf png;
            rb_buf_init(&png);
            char refusal[600] = "";
            json_t *ops = datawin_picture_to_png(&other, &png, why, sizeof why) == 0
                              ? doc->format->asset_patch(doc, frame0->path, png.data, png.size, refusal, sizeof refusal)
                              : NULL;
            CHECK(!ops && strstr(refusal, "does not resize a sprite") && strstr(refusal, "collision mask"),
                  "%s: %s: a frame of another size: %s", file, frame0->path, ops ? "accepted" : refusal);
            json_decref(ops);
            rb_buf_free(&png);
            datawin_picture_free(&other);
            /* its size, pixels everywhere: the page grows to hold it */
            make_picture(&other, now.width, now.height, 1);
            replace_and_check(data, size, file, frame0->path, &other);
            datawin_picture_free(&other);
            /* the same size, drawn into its region (pixels only where the item has them) */
            datawin_picture same;
            datawin_picture_new(&same, now.width, now.height);
            memcpy(same.rgba, now.rgba, (size_t)now.width * now.height * 4);
            for (size_t p = 0; p < (size_t)now.width * now.height; p++)
                if (same.rgba[4 * p + 3]) same.rgba[4 * p] ^= 0x55;
            replace_and_check(data, size, file, frame0->path, &same);
            datawin_picture_free(&same);
            datawin_picture_free(&now);
        }
    }
    assets_free(&list);
    rb_doc_free(doc);
    free(data);
}

int main(int argc, char **argv)
{
    const char *out_dir = NULL;
    int files = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) { out_dir = argv[++i]; continue; }
        test_file(argv[i], out_dir);
        files++;
    }
    if (!files) {
        test_hand_made_stream();
        test_round_trips();
    }
    if (test_failures) fprintf(stderr, "%d check(s) failed\n", test_failures);
    return test_failures ? 1 : 0;
}
