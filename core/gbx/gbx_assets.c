/*
 * GBX assets (docs/formats/gbx.md "Assets"): a map's thumbnail (a JPEG stored upside down:
 * gbx_thumbnail.c), its lightmap frames, its embedded
 * items, its custom music and mod (references), the map inside a replay (the .Map.Gbx it was),
 * an item's icon, a ghost's samples as CSV. One walk over the model finds them, for extracting
 * and for putting a file back at a path.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/assets.h"
#include "core/json/json.h"
#include "core/gbx/gbx_assets.h"
#include "core/gbx/engine/gbx_internal.h"

static const double PI = 3.14159265358979323846;

typedef enum asset_type {
    ASSET_THUMBNAIL, ASSET_LIGHTMAP, ASSET_ITEM, ASSET_MAP, ASSET_MUSIC, ASSET_MOD, ASSET_ICON, ASSET_ICON_WEBP,
    ASSET_GHOST
} asset_type;

typedef struct found {
    asset_type type;
    const rb_node *node;  /* the blob, record or list the asset is made from */
    const rb_node *owner; /* the chunk (icon size, zip entry name) */
    const char *path;
    unsigned index;       /* lightmap frame, ... */
    const char *member;   /* lightmap: data, data2, data3 */
    int in_recording;        /* inside a race recording (a replay's map): extracted, never put back */
} found;

typedef struct walk {
    const rb_doc *doc;
    int (*visit)(struct walk *w, const found *f); /* nonzero stops */
    void *context;
    char path[4096];
    int stopped;
    int in_recording; /* depth of race recordings (docs/usage.md "Race recordings") around the walk */
    const char *target; /* when set, only the way down to this path is walked (gbx_asset_patch) */
} walk;

static const uint8_t *bytes_of(const rb_node *n, size_t *size)
{
    *size = 0;
    if (!n || (rb_node_kind_of(n) != RB_NODE_BLOB && rb_node_kind_of(n) != RB_NODE_STRING)) return NULL;
    return rb_node_bytes(n, size);
}

static uint32_t chunk_id(const rb_node *record)
{
    const rb_node *id = rb_node_member(record, "id");
    return id && rb_node_kind_of(id) == RB_NODE_INT ? gbx_remap_id((uint32_t)rb_node_uint(id)) : 0;
}

/* JSON pointer of a child: the parent's, then "/" and the key escaped (RFC 6901) or the index. */
static size_t push_path(walk *w, size_t at, const char *key, size_t index)
{
    char token[64];
    if (!key) snprintf(token, sizeof token, "%zu", index);
    size_t o = at;
    if (o + 2 >= sizeof w->path) return at;
    w->path[o++] = '/';
    for (const char *k = key ? key : token; *k && o + 3 < sizeof w->path; k++) {
        if (*k == '~' || *k == '/') {
            w->path[o++] = '~';
            w->path[o++] = *k == '~' ? '0' : '1';
        } else {
            w->path[o++] = *k;
        }
    }
    w->path[o] = 0;
    return o;
}

static void emit(walk *w, asset_type type, const rb_node *node, const rb_node *owner, size_t at, const char *key,
                 unsigned index, const char *member)
{
    if (w->stopped || !node) return;
    size_t end = push_path(w, at, key, 0);
    found f = {type, node, owner, w->path, index, member, w->in_recording > 0};
    if (w->visit(w, &f)) w->stopped = 1;
    w->path[at] = 0;
    (void)end;
}

static int non_empty_blob(const rb_node *n)
{
    size_t size;
    return bytes_of(n, &size) && size > 0;
}

static void walk_node(walk *w, const rb_node *n, size_t at);

static void lightmap_frames(walk *w, const rb_node *chunk, size_t at)
{
    const rb_node *frames = rb_node_member(chunk, "frames");
    if (!frames) return;
    size_t frames_at = push_path(w, at, "frames", 0);
    static const char *const members[] = {"data", "data2", "data3"};
    for (size_t i = 0; i < rb_node_child_count(frames) && !w->stopped; i++) {
        const rb_node *frame = rb_node_child(frames, i);
        size_t frame_at = push_path(w, frames_at, NULL, i);
        for (int m = 0; m < 3; m++)
            if (non_empty_blob(rb_node_member(frame, members[m])))
                emit(w, ASSET_LIGHTMAP, rb_node_member(frame, members[m]), frame, frame_at, members[m], (unsigned)i,
                     members[m]);
        w->path[frames_at] = 0;
    }
    w->path[at] = 0;
}

static void embedded_items(walk *w, const rb_node *chunk, size_t at)
{
    const rb_node *files = rb_node_member(rb_node_member(chunk, "embeddedZipData"), "files");
    if (!files) return;
    size_t files_at = push_path(w, push_path(w, at, "embeddedZipData", 0), "files", 0);
    for (size_t i = 0; i < rb_node_child_count(files) && !w->stopped; i++) {
        const rb_node *entry = rb_node_child(files, i);
        const rb_node *content = rb_node_member(entry, "content");
        const rb_node *data = rb_node_member(content, "data");
        if (!data) continue;
        size_t entry_at = push_path(w, files_at, NULL, i);
        emit(w, ASSET_ITEM, data, entry, push_path(w, entry_at, "content", 0), "data", (unsigned)i, NULL);
        w->path[files_at] = 0;
    }
    w->path[at] = 0;
}

/* A pack reference (custom music, mod): listed when it names a file. */
static void pack_reference(walk *w, asset_type type, const rb_node *chunk, const char *member, size_t at)
{
    const rb_node *desc = rb_node_member(chunk, member);
    size_t a, b;
    bytes_of(rb_node_member(desc, "filePath"), &a);
    bytes_of(rb_node_member(desc, "locatorUrl"), &b);
    if (desc && (a || b)) emit(w, type, desc, chunk, at, member, 0, NULL);
}

/* What one record holds; 1 when its children need no walk (a ghost's samples). */
static int record_assets(walk *w, const rb_node *n, size_t at)
{
    switch (chunk_id(n)) {
    case 0x03043007:
        if (non_empty_blob(rb_node_member(n, "thumbnail")))
            emit(w, ASSET_THUMBNAIL, rb_node_member(n, "thumbnail"), n, at, "thumbnail", 0, NULL);
        return 1;
    case 0x0304303D:
    case 0x0304305B: lightmap_frames(w, n, at); return 1;
    case 0x03043054: embedded_items(w, n, at); return 0; /* an item may hold more (its icon) */
    case 0x03043024: pack_reference(w, ASSET_MUSIC, n, "customMusicPackDesc", at); return 1;
    case 0x03043019: pack_reference(w, ASSET_MOD, n, "modPackDesc", at); return 1;
    case 0x2E001004:
        if (non_empty_blob(rb_node_member(n, "icon"))) emit(w, ASSET_ICON, rb_node_member(n, "icon"), n, at, "icon", 0, NULL);
        if (non_empty_blob(rb_node_member(n, "iconWebP")))
            emit(w, ASSET_ICON_WEBP, rb_node_member(n, "iconWebP"), n, at, "iconWebP", 0, NULL);
        return 1;
    default: break;
    }
    const rb_node *samples = rb_node_member(n, "samples");
    const rb_node *first = samples && rb_node_child_count(samples) ? rb_node_child(samples, 0) : NULL;
    int car_entity = first && rb_node_member(n, "bufferType") && (rb_node_member(first, "position") || rb_node_member(first, "state"));
    if (samples && rb_node_kind_of(samples) == RB_NODE_LIST && (rb_node_member(n, "samplePeriod") || car_entity)) {
        emit(w, ASSET_GHOST, n, n, at, NULL, 0, NULL);
        return 1;
    }
    const rb_node *map = rb_node_member(n, "map");
    if (map && rb_node_kind_of(map) == RB_NODE_RECORD && rb_node_member(map, "classId") && rb_node_member(map, "body"))
        emit(w, ASSET_MAP, map, n, at, "map", 0, NULL);
    return 0;
}

/* Does `target` lie at or below path[0..length)? */
static int on_the_way(const char *target, const char *path, size_t length)
{
    return strncmp(target, path, length) == 0 && (target[length] == 0 || target[length] == '/');
}

/* `n` is seen as it reads (a packed record as a record): the walk reads a const document, whose
 * packed tables and records stay packed, through views (core/model/model.h rb_child_view). */
static void walk_node(walk *w, const rb_node *n, size_t at)
{
    if (w->stopped) return;
    rb_node_kind kind = rb_node_kind_of(n);
    if (kind != RB_NODE_RECORD && kind != RB_NODE_LIST && kind != RB_NODE_STREAM) return;
    if (kind != RB_NODE_LIST && record_assets(w, n, at)) return;
    int record = w->doc->format->is_recording && w->doc->format->is_recording(n);
    w->in_recording += record;
    for (size_t i = 0; i < rb_node_child_count(n) && !w->stopped; i++) {
        rb_record_scratch scratch; /* a table's element or a packed record, built while it is walked */
        const rb_node *child = rb_child_view(n, i, &scratch);
        size_t child_at = push_path(w, at, kind == RB_NODE_LIST ? NULL : rb_node_key(child), i);
        if (!w->target || on_the_way(w->target, w->path, child_at)) walk_node(w, child, child_at);
        w->path[at] = 0;
    }
    w->in_recording -= record;
}

static void walk_from(walk *w, const rb_node *n)
{
    rb_record_scratch scratch;
    w->path[0] = 0;
    walk_node(w, rb_record_view(n, &scratch), 0);
}

static void walk_document(walk *w) { walk_from(w, w->doc->root); }

/* ---------- icons: 32-bit pixels, bottom row first (docs/formats/gbx.md "Assets") ---------- */

static int icon_png(const found *f, uint8_t **png, size_t *size, char *why, size_t why_size)
{
    unsigned width = (unsigned)rb_node_uint(rb_node_member(f->owner, "width"));
    unsigned height = (unsigned)rb_node_uint(rb_node_member(f->owner, "height"));
    size_t stored_size;
    const uint8_t *stored = bytes_of(f->node, &stored_size);
    if (!width || !height || stored_size != (size_t)width * height * 4) {
        snprintf(why, why_size, "%s: an icon of %ux%u pixels needs %zu bytes, it has %zu", f->path, width, height,
                 (size_t)width * height * 4, stored_size);
        return -1;
    }
    uint8_t *rgba = malloc(stored_size);
    if (!rgba) { snprintf(why, why_size, "out of memory"); return -1; }
    for (unsigned y = 0; y < height; y++)
        for (unsigned x = 0; x < width; x++) {
            const uint8_t *s = stored + ((size_t)(height - 1 - y) * width + x) * 4; /* B, G, R, A */
            uint8_t *d = rgba + ((size_t)y * width + x) * 4;
            d[0] = s[2], d[1] = s[1], d[2] = s[0], d[3] = s[3];
        }
    int rc = rb_png_from_rgba(rgba, width, height, png, size, why, why_size);
    free(rgba);
    return rc;
}

static json_t *icon_from_png(const found *f, const uint8_t *png, size_t png_size, uint64_t max_bytes, char *why,
                             size_t why_size)
{
    unsigned width = (unsigned)rb_node_uint(rb_node_member(f->owner, "width"));
    unsigned height = (unsigned)rb_node_uint(rb_node_member(f->owner, "height"));
    uint8_t *rgba;
    uint32_t w, h;
    if (rb_png_to_rgba(png, png_size, max_bytes, &rgba, &w, &h, why, why_size) != 0) return NULL;
    if (w != width || h != height) {
        snprintf(why, why_size, "the icon is %ux%u pixels, the PNG %ux%u", width, height, (unsigned)w, (unsigned)h);
        free(rgba);
        return NULL;
    }
    uint8_t *stored = malloc((size_t)w * h * 4);
    json_t *ops = NULL;
    if (stored) {
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                const uint8_t *s = rgba + ((size_t)y * w + x) * 4;
                uint8_t *d = stored + ((size_t)(h - 1 - y) * w + x) * 4;
                d[0] = s[2], d[1] = s[1], d[2] = s[0], d[3] = s[3];
            }
        ops = rb_asset_replace_ops(f->path, stored, (size_t)w * h * 4);
    }
    free(stored);
    free(rgba);
    if (!ops) snprintf(why, why_size, "out of memory");
    return ops;
}

/* ---------- ghosts: samples as CSV (docs/formats/gbx_ghost.md "Samples") ---------- */

static double member_number(const rb_node *record, const char *key)
{
    const rb_node *n = rb_node_member(record, key);
    if (!n) return NAN;
    if (rb_node_kind_of(n) == RB_NODE_FLOAT) return rb_node_float(n);
    return (double)rb_node_int(n);
}

static void put_number(rb_buf *b, double v, const char *format)
{
    char text[48];
    int n = isnan(v) ? 0 : snprintf(text, sizeof text, format, v);
    rb_buf_put_u8(b, ',');
    if (n > 0) rb_buf_put(b, text, (size_t)n);
}

/* Position: a vector, or (network state) three 24-bit values: high byte, then low, then middle. */
static void sample_position(const rb_node *state, double xyz[3])
{
    const rb_node *p = rb_node_member(state, "position");
    if (p) {
        xyz[0] = member_number(p, "x"), xyz[1] = member_number(p, "y"), xyz[2] = member_number(p, "z");
        return;
    }
    size_t size;
    const uint8_t *b = bytes_of(rb_node_member(state, "position9"), &size);
    for (int i = 0; i < 3; i++)
        xyz[i] = b && size == 9 ? ((double)((uint32_t)b[3 * i] << 16 | (uint32_t)b[3 * i + 2] << 8 | b[3 * i + 1]) - 0x800000) * 0.002
                                : NAN;
}

static void sample_rotation(const rb_node *state, double q[4])
{
    const rb_node *r = rb_node_member(state, "rotation");
    if (!r) { q[0] = q[1] = q[2] = q[3] = NAN; return; }
    double angle = member_number(r, "angle") * PI / 65535.0;
    double heading = member_number(r, "axisHeading") * PI / 32767.0;
    double pitch = member_number(r, "axisPitch") * (PI / 2) / 32767.0;
    double s = sin(angle);
    q[0] = cos(heading) * cos(pitch) * s, q[1] = sin(heading) * cos(pitch) * s, q[2] = sin(pitch) * s, q[3] = cos(angle);
}

/* One decoded sample: time (ms; NaN unknown), position (m), rotation (quaternion), speed (km/h). */
typedef struct ghost_sample {
    double time, xyz[3], q[4], speed;
} ghost_sample;

/* A car entity of a TM2020 record (docs/formats/gbx_ghost.md "Entity records"): each sample holds
 * its time and (in itself from version 11, in `state` before) position, rotation and velocity
 * (length exp(magnitude/1000) m/s). */
static void entity_sample(const rb_node *sample, ghost_sample *s)
{
    const rb_node *state = rb_node_member(sample, "state") ? rb_node_member(sample, "state") : sample; /* before version 11 */
    double magnitude = member_number(rb_node_member(state, "velocity"), "magnitude");
    s->time = member_number(sample, "time");
    sample_position(state, s->xyz);
    sample_rotation(state, s->q);
    s->speed = magnitude == -32768 ? 0 : exp(magnitude / 1000.0) * 3.6;
}

/* Each sample of ghost samples `ghost` (an ASSET_GHOST's node) to `fn`, in order; how many. */
static size_t each_sample(const rb_node *ghost, void (*fn)(void *context, const ghost_sample *s), void *context)
{
    const rb_node *samples = rb_node_member(ghost, "samples");
    const rb_node *times = rb_node_member(ghost, "stateTimes");
    const rb_node *fixed = rb_node_member(ghost, "isFixedTimeStep");
    int fixed_step = !fixed || rb_node_int(fixed) != 0 || !times;
    int entity = rb_node_member(ghost, "bufferType") != NULL;
    double period = member_number(ghost, "samplePeriod"), time = 0;
    size_t count = rb_node_child_count(samples);
    for (size_t i = 0; i < count; i++) {
        ghost_sample s;
        if (entity) {
            entity_sample(rb_node_child(samples, i), &s);
        } else {
            const rb_node *state = rb_node_member(rb_node_child(samples, i), "state");
            if (fixed_step) time = (double)i * period;
            else time += i < rb_node_child_count(times) ? (double)rb_node_int(rb_node_child(times, i)) : NAN;
            double speed = member_number(state, "speedForward");
            s.time = time;
            sample_position(state, s.xyz);
            sample_rotation(state, s.q);
            s.speed = isnan(speed) ? NAN : (speed / 65535.0 * 11000.0 - 1000.0) * 3.6;
        }
        fn(context, &s);
    }
    return count;
}

static void sample_csv(void *context, const ghost_sample *s)
{
    rb_buf *b = context;
    char text[32];
    int n = snprintf(text, sizeof text, "%.0f", s->time);
    if (n > 0 && !isnan(s->time)) rb_buf_put(b, text, (size_t)n);
    for (int k = 0; k < 3; k++) put_number(b, s->xyz[k], "%.6g");
    for (int k = 0; k < 4; k++) put_number(b, s->q[k], "%.6f");
    put_number(b, s->speed, "%.3f");
    rb_buf_put_u8(b, '\n');
}

static int ghost_csv(const found *f, uint8_t **csv, size_t *size)
{
    rb_buf b;
    rb_buf_init(&b);
    static const char HEADER[] = "time_ms,x,y,z,qx,qy,qz,qw,speed_kmh\n";
    rb_buf_put(&b, HEADER, sizeof HEADER - 1);
    each_sample(f->node, sample_csv, &b);
    if (b.failed) { rb_buf_free(&b); return -1; }
    *csv = rb_buf_take(&b, size);
    return *csv ? 0 : -1;
}

/* ---------- a ghost's samples for a plan (gbx_ghost_samples) ---------- */

typedef struct track_context {
    gbx_sample_fn fn;
    void *context;
    size_t count;
    int found;
} track_context;

static void sample_to_track(void *context, const ghost_sample *s)
{
    track_context *t = context;
    t->fn(t->context, s->time, s->xyz, s->speed);
}

static int first_ghost(walk *w, const found *f)
{
    track_context *t = w->context;
    if (f->type != ASSET_GHOST) return 0;
    t->count = each_sample(f->node, sample_to_track, t);
    t->found = 1;
    return 1;
}

size_t gbx_ghost_samples(const rb_doc *doc, const rb_node *node, gbx_sample_fn fn, void *context)
{
    track_context t = {fn, context, 0, 0};
    walk w = {.doc = doc, .visit = first_ghost, .context = &t};
    walk_from(&w, node);
    return t.count;
}

/* ---------- extract ---------- */

typedef struct extract_context {
    const char *only_kind;
    rb_asset_sink sink;
    void *sink_context;
    char *why;
    size_t why_size;
    int failed;
    unsigned ghosts, maps;
} extract_context;

static const char *const KIND_OF[] = {
    [ASSET_THUMBNAIL] = "image", [ASSET_LIGHTMAP] = "image", [ASSET_ITEM] = "gbx",    [ASSET_MAP] = "gbx",
    [ASSET_MUSIC] = "sound",     [ASSET_MOD] = "blob",       [ASSET_ICON] = "image",  [ASSET_ICON_WEBP] = "image",
    [ASSET_GHOST] = "table"};

static const char *extension_of(const uint8_t *d, size_t n)
{
    if (n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF) return "jpg";
    if (n >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0) return "webp";
    if (n >= 4 && memcmp(d, "DDS ", 4) == 0) return "dds";
    if (n >= 4 && memcmp(d, "\x89PNG", 4) == 0) return "png";
    return "bin";
}

/* The file name part of a zip entry's name ("E:/.../Items/A/B.Item.Gbx" -> "A/B.Item.Gbx" would
 * leak folders of the author's machine: the last component only). */
static void entry_file_name(const rb_node *entry, char *out, size_t size)
{
    size_t n;
    const uint8_t *name = bytes_of(rb_node_member(entry, "name"), &n);
    size_t start = 0;
    for (size_t i = 0; name && i < n; i++)
        if (name[i] == '/' || name[i] == '\\') start = i + 1;
    if (!name || start >= n) snprintf(out, size, "item.Item.Gbx");
    else snprintf(out, size, "%.*s", (int)(n - start), (const char *)name + start);
}

static int emit_asset(extract_context *x, const found *f, const char *name, const uint8_t *data, size_t size,
                      int replaceable, const char *note)
{
    rb_asset a = {sizeof(rb_asset), name, KIND_OF[f->type], f->path, data, size, replaceable && !f->in_recording, note};
    return rb_asset_emit(x->sink, x->sink_context, &a, x->why, x->why_size);
}

static int extract_reference(extract_context *x, const found *f)
{
    size_t path_size, url_size;
    const uint8_t *path = bytes_of(rb_node_member(f->node, "filePath"), &path_size);
    const uint8_t *url = bytes_of(rb_node_member(f->node, "locatorUrl"), &url_size);
    char name[1024], note[1200];
    snprintf(name, sizeof name, "%.*s", (int)(path_size ? path_size : url_size),
             (const char *)(path_size ? path : url));
    snprintf(note, sizeof note, "%s the map names%s%.*s", f->type == ASSET_MUSIC ? "custom music" : "mod (texture pack)",
             url_size && path_size ? "; download: " : "", (int)(path_size ? url_size : 0), url_size ? (const char *)url : "");
    rb_asset a = {sizeof(rb_asset), name, KIND_OF[f->type], f->path, NULL, 0, 0, note};
    return rb_asset_emit(x->sink, x->sink_context, &a, x->why, x->why_size);
}

static int extract_one(walk *w, const found *f)
{
    extract_context *x = w->context;
    if (x->only_kind && strcmp(x->only_kind, KIND_OF[f->type]) != 0) return 0;
    size_t size = 0;
    const uint8_t *data = bytes_of(f->node, &size);
    uint8_t *made = NULL;
    size_t made_size = 0;
    char name[512];
    int rc = 0;
    switch (f->type) {
    case ASSET_THUMBNAIL:
        if (gbx_thumbnail_for_viewers(data, size, &made, &made_size) == 0)
            rc = emit_asset(x, f, "thumbnails/thumbnail.jpg", made, made_size, 1,
                            "stored upside down: an EXIF segment (Orientation 4) after SOI shows it the right way up");
        else
            rc = emit_asset(x, f, "thumbnails/thumbnail.bin", data, size, 0, "not a JPEG: the bytes as stored");
        break;
    case ASSET_LIGHTMAP:
        snprintf(name, sizeof name, "lightmaps/frame-%u-%s.%s", f->index, f->member, extension_of(data, size));
        rc = emit_asset(x, f, name, data, size, 1, "as stored");
        break;
    case ASSET_ITEM: {
        char file[400];
        entry_file_name(f->owner, file, sizeof file);
        snprintf(name, sizeof name, "items/%s", file);
        rc = emit_asset(x, f, name, data, size, 1, "an embedded item, as the map's zip holds it");
        break;
    }
    case ASSET_MAP: {
        /* the record's range starts after the "GBX" magic (a constant, not a field) */
        const rb_section *s = f->node->section < w->doc->section_count ? &w->doc->sections[f->node->section] : NULL;
        size_t start = f->node->src_offset, end = start + f->node->src_size;
        if (!s || end > s->size || start < 3 || memcmp(s->data + start - 3, "GBX", 3) != 0) {
            snprintf(x->why, x->why_size, "%s: the map's bytes are not in the document", f->path);
            return -1;
        }
        snprintf(name, sizeof name, "maps/map-%u.Map.Gbx", ++x->maps);
        rc = emit_asset(x, f, name, s->data + start - 3, end - start + 3, 0,
                        "the map the replay was driven on, as the replay holds it (a replay is not changed)");
        break;
    }
    case ASSET_MUSIC:
    case ASSET_MOD: rc = extract_reference(x, f); break;
    case ASSET_ICON:
        if (icon_png(f, &made, &made_size, x->why, x->why_size) != 0) return -1;
        rc = emit_asset(x, f, "icons/icon.png", made, made_size, 1, "32-bit pixels stored bottom row first, as PNG");
        break;
    case ASSET_ICON_WEBP: rc = emit_asset(x, f, "icons/icon.webp", data, size, 1, "WebP, as stored"); break;
    case ASSET_GHOST:
        if (ghost_csv(f, &made, &made_size) != 0) { snprintf(x->why, x->why_size, "out of memory"); return -1; }
        snprintf(name, sizeof name, "ghosts/ghost-%u.csv", ++x->ghosts);
        rc = emit_asset(x, f, name, made, made_size, 0,
                        "samples: time (ms), position, rotation (quaternion), forward speed (km/h); a ghost is not changed");
        break;
    }
    free(made);
    if (rc) x->failed = 1;
    return rc;
}

int gbx_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
               size_t why_size)
{
    extract_context x = {only_kind, sink, context, why, why_size, 0, 0, 0};
    walk w = {.doc = doc, .visit = extract_one, .context = &x};
    walk_document(&w);
    return x.failed || w.stopped ? -1 : 0;
}

/* The units of a map body that hold none of record_assets' chunks, no ghost and no race
 * recording's map: blocks (0x1F) and baked blocks (0x48), whose nodes are block skins and
 * waypoints; items (0x40), anchored objects and their waypoints; zone genealogies (0x43); an
 * opaque payload (0x61); bytes per block or item: colours (0x62), animation phases (0x63),
 * lightmap qualities (0x68) (core/gbx/map/map_extra.c). They are most of a body: an extraction
 * leaves them as bytes. Every other unit may hold an asset. */
int gbx_asset_unit(const rb_node *unit, const rb_node *parent)
{
    /* a chunk kept as bytes names itself; a list kept as bytes is named by its chunk */
    const rb_node *first = unit->kind == RB_K_DEFERRED ? unit->deferred->first : NULL;
    uint32_t id = first && rb_node_kind_of(first) == RB_NODE_INT ? gbx_remap_id((uint32_t)rb_node_uint(first))
                                                                 : chunk_id(parent);
    switch (id) {
    case 0x0304301F:
    case 0x03043040:
    case 0x03043043:
    case 0x03043048:
    case 0x03043061:
    case 0x03043062:
    case 0x03043063:
    case 0x03043068: return 0;
    default: return 1;
    }
}

/* ---------- the way back ---------- */

typedef struct patch_context {
    const char *path;
    const uint8_t *data;
    size_t size;
    json_t *ops;
    char *why;
    size_t why_size;
    int matched;
} patch_context;

static int patch_one(walk *w, const found *f)
{
    patch_context *p = w->context;
    if (strcmp(f->path, p->path) != 0) return 0;
    p->matched = 1;
    if (f->in_recording) {
        snprintf(p->why, p->why_size, "%s is inside a race recording (a replay): it is extracted, not put back", f->path);
        return 1;
    }
    uint8_t *stored = NULL;
    size_t stored_size = 0;
    switch (f->type) {
    case ASSET_THUMBNAIL: {
        size_t current_size;
        const uint8_t *current = bytes_of(f->node, &current_size);
        if (gbx_thumbnail_as_stored(current, current_size, p->data, p->size, &stored, &stored_size, p->why,
                                    p->why_size) == 0)
            p->ops = rb_asset_replace_ops(f->path, stored, stored_size);
        break;
    }
    case ASSET_LIGHTMAP:
    case ASSET_ITEM:
    case ASSET_ICON_WEBP: p->ops = rb_asset_replace_ops(f->path, p->data, p->size); break;
    case ASSET_ICON:
        p->ops = icon_from_png(f, p->data, p->size, w->doc->limits.max_decompressed_size, p->why, p->why_size);
        break;
    default:
        snprintf(p->why, p->why_size, "%s is %s: it is extracted, not put back", f->path,
                 f->type == ASSET_GHOST ? "a ghost's samples (a race recording)"
                 : f->type == ASSET_MAP ? "a replay's map (a race recording)"
                                        : "a reference to a file outside the map");
    }
    free(stored);
    if (!p->ops && !p->why[0]) snprintf(p->why, p->why_size, "out of memory");
    return 1;
}

json_t *gbx_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                        size_t why_size)
{
    why[0] = 0;
    patch_context p = {path, data, size, NULL, why, why_size, 0};
    walk w = {.doc = doc, .visit = patch_one, .context = &p, .target = path}; /* one path: not the whole model */
    walk_document(&w);
    return p.ops;
}
