/*
 * Streamer map assets (docs/formats/streamer.md "Assets"): the objects (`_Obj` chunks) as one CSV
 * table — id, group, model, position, rotation, the group's worlds and interiors, stream and draw
 * distance — and the way back: an edited table becomes replace operations on the fields that
 * changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/doc/assets.h"
#include "core/json/json.h"
#include "core/streamer/streamer_assets.h"

static const char CSV_PATH[] = "/groups";
static const char HEADER[] = "id,group,model,x,y,z,rot_x,rot_y,rot_z,worlds,interiors,stream_distance,draw_distance";
/* The columns a row gives back, with the chunk field each one is. */
static const char *const EDITABLE[][2] = {{"model", "modelId"}, {"x", "x"}, {"y", "y"}, {"z", "z"},
                                          {"rot_x", "rotX"}, {"rot_y", "rotY"}, {"rot_z", "rotZ"},
                                          {"stream_distance", "streamDistance"}, {"draw_distance", "drawDistance"}};
enum { EDITABLE_COUNT = sizeof EDITABLE / sizeof EDITABLE[0] };

static int chunk_is(const rb_node *chunk, const char *id)
{
    size_t size;
    const rb_node *n = rb_node_member(chunk, "id");
    const uint8_t *text = n ? rb_node_bytes(n, &size) : NULL;
    return text && size == 4 && memcmp(text, id, 4) == 0;
}

/* A field as the CSV spells it: floats in their shortest exact form, integers in decimal. */
static void put_field(rb_buf *b, const rb_node *n)
{
    char text[64] = "";
    if (n && rb_node_kind_of(n) == RB_NODE_FLOAT) rb_format_f32((uint32_t)n->v.bits, text, sizeof text);
    else if (n && rb_node_kind_of(n) == RB_NODE_INT) snprintf(text, sizeof text, "%lld", (long long)rb_node_int(n));
    rb_csv_field(b, text, strlen(text));
}

/* "10 11": the numbers of a group's Wrld or _Int list (empty: every world / interior). */
static void put_list(rb_buf *b, const rb_node *group, const char *id, const char *key)
{
    const rb_node *chunks = rb_node_member(group, "chunks");
    rb_buf_put_u8(b, ',');
    for (size_t i = 0; i < rb_node_child_count(chunks); i++) {
        const rb_node *c = rb_node_child(chunks, i);
        if (!chunk_is(c, id)) continue;
        const rb_node *list = rb_node_member(c, key);
        for (size_t k = 0; k < rb_node_child_count(list); k++) {
            char text[24];
            int n = snprintf(text, sizeof text, "%s%lld", k ? " " : "", (long long)rb_node_int(rb_node_child(list, k)));
            rb_buf_put(b, text, (size_t)n);
        }
        return;
    }
}

static int objects_csv(const rb_doc *doc, uint8_t **csv, size_t *size, size_t *objects)
{
    rb_buf b;
    rb_buf_init(&b);
    rb_buf_put(&b, HEADER, sizeof HEADER - 1);
    rb_buf_put_u8(&b, '\n');
    const rb_node *groups = rb_node_member(doc->root, "groups");
    *objects = 0;
    for (size_t g = 0; g < rb_node_child_count(groups); g++) {
        const rb_node *group = rb_node_child(groups, g), *chunks = rb_node_member(group, "chunks");
        for (size_t i = 0; i < rb_node_child_count(chunks); i++) {
            const rb_node *c = rb_node_child(chunks, i);
            if (!chunk_is(c, "_Obj")) continue;
            char text[48];
            int n = snprintf(text, sizeof text, "%zu,%zu", (*objects)++, g);
            rb_buf_put(&b, text, (size_t)n);
            for (int k = 0; k < 7; k++) {
                rb_buf_put_u8(&b, ',');
                put_field(&b, rb_node_member(c, EDITABLE[k][1]));
            }
            put_list(&b, group, "Wrld", "worlds");
            put_list(&b, group, "_Int", "interiors");
            for (int k = 7; k < EDITABLE_COUNT; k++) {
                rb_buf_put_u8(&b, ',');
                put_field(&b, rb_node_member(c, EDITABLE[k][1]));
            }
            rb_buf_put_u8(&b, '\n');
        }
    }
    if (b.failed) { rb_buf_free(&b); return -1; }
    *csv = rb_buf_take(&b, size);
    return *csv ? 0 : -1;
}

int streamer_assets(const rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
                    size_t why_size)
{
    if (only_kind && strcmp(only_kind, "table") != 0) return 0;
    uint8_t *csv;
    size_t size, objects;
    if (objects_csv(doc, &csv, &size, &objects) != 0) { snprintf(why, why_size, "out of memory"); return -1; }
    char note[160];
    snprintf(note, sizeof note, "%zu objects; model, position, rotation and distances go back with replace", objects);
    rb_asset a = {sizeof(rb_asset), "objects/objects.csv", "table", CSV_PATH, csv, size, 1, note};
    int rc = rb_asset_emit(sink, context, &a, why, why_size);
    free(csv);
    return rc;
}

/* ---------- the way back ---------- */

/* A CSV record reader (RFC 4180): a quoted field may hold commas, doubled quotes and line
 * breaks, so records are not lines. Fields are unescaped in place and NUL-terminated. */
typedef struct csv_reader {
    char *p, *end;
} csv_reader;

/* One field from r->p (which is left at the delimiter after it). */
static char *read_field(csv_reader *r)
{
    char *start = r->p, *out = r->p;
    if (r->p < r->end && *r->p == '"') {
        for (r->p++; r->p < r->end; r->p++) {
            if (*r->p == '"' && r->p + 1 < r->end && r->p[1] == '"') *out++ = *r->p++;
            else if (*r->p == '"') { r->p++; break; }
            else *out++ = *r->p;
        }
    }
    while (r->p < r->end && *r->p != ',' && *r->p != '\n') *out++ = *r->p++;
    if (out > start && out[-1] == '\r' && (r->p == r->end || *r->p == '\n')) out--; /* CR LF ends a record too */
    return out; /* where the NUL goes: at or before the delimiter */
}

/* The next record's fields (at most `max` kept, *count all of them); 0 at the end of the text. */
static int next_record(csv_reader *r, char **fields, size_t max, size_t *count)
{
    *count = 0;
    if (r->p >= r->end) return 0;
    for (;;) {
        char *start = r->p, *field_end = read_field(r);
        char delimiter = r->p < r->end ? *r->p : '\n';
        *field_end = 0; /* may overwrite the delimiter, already read */
        if (*count < max) fields[*count] = start;
        ++*count;
        if (r->p < r->end) r->p++;
        if (delimiter != ',') return 1;
    }
}

/* Every object (`_Obj` chunk) in table order: the row id is the index (a put-back of n rows
 * over m objects costs n + m, not n x m). */
typedef struct object_ref {
    const rb_node *chunk;
    size_t group, index;
} object_ref;

static object_ref *index_objects(const rb_doc *doc, size_t *count)
{
    const rb_node *groups = rb_node_member(doc->root, "groups");
    size_t n = 0, cap = 64;
    object_ref *refs = malloc(cap * sizeof *refs);
    for (size_t g = 0; refs && g < rb_node_child_count(groups); g++) {
        const rb_node *chunks = rb_node_member(rb_node_child(groups, g), "chunks");
        for (size_t i = 0; refs && i < rb_node_child_count(chunks); i++) {
            const rb_node *c = rb_node_child(chunks, i);
            if (!chunk_is(c, "_Obj")) continue;
            if (n == cap) {
                object_ref *more = realloc(refs, (cap *= 2) * sizeof *refs);
                if (!more) free(refs);
                refs = more;
                if (!refs) break;
            }
            refs[n++] = (object_ref){c, g, i};
        }
    }
    *count = n;
    return refs;
}

/* The replace operation for one cell that differs from the model, or none. 0, or -1 with why. */
static int cell_op(json_t *ops, const rb_node *chunk, const char *chunk_path, const char *column, const char *field,
                   const char *cell, size_t row, char *why, size_t why_size)
{
    const rb_node *n = rb_node_member(chunk, field);
    char now[64] = "";
    if (n && rb_node_kind_of(n) == RB_NODE_FLOAT) rb_format_f32((uint32_t)n->v.bits, now, sizeof now);
    else if (n) snprintf(now, sizeof now, "%lld", (long long)rb_node_int(n));
    if (strcmp(now, cell) == 0) return 0;
    char path[256];
    snprintf(path, sizeof path, "%s/%s", chunk_path, field);
    if (!n || !*cell) {
        snprintf(why, why_size, "row %zu, %s: an object %s a %s; the table changes values, not which fields an object has",
                 row, column, n ? "has" : "has no", column);
        return -1;
    }
    char *end;
    json_t *value;
    if (rb_node_kind_of(n) == RB_NODE_FLOAT) {
        double v = strtod(cell, &end);
        value = *end ? NULL : json_real(v);
    } else {
        long long v = strtoll(cell, &end, 10);
        value = *end ? NULL : json_integer(v);
    }
    if (!value) {
        snprintf(why, why_size, "row %zu, %s: \"%s\" is not a number", row, column, cell);
        return -1;
    }
    return rb_json_patch_op(ops, "replace", path, NULL, value);
}

/* Row `id` of the table against the `id`-th object; worlds and interiors belong to the group. */
static int row_ops(const object_ref *objects, size_t object_count, json_t *ops, char **fields, size_t count,
                   size_t row, char *why, size_t why_size)
{
    char *end;
    unsigned long id = strtoul(fields[0], &end, 10);
    if (*end || !*fields[0] || count != 13) {
        snprintf(why, why_size, "row %zu: %zu fields, or an id that is not a number (the table has 13 columns: %s)", row,
                 count, HEADER);
        return -1;
    }
    if (id >= object_count) {
        snprintf(why, why_size, "row %zu: object %lu does not exist (the table gives back objects, it does not add them)",
                 row, id);
        return -1;
    }
    const object_ref *o = &objects[id];
    char path[96];
    snprintf(path, sizeof path, "/groups/%zu/chunks/%zu", o->group, o->index);
    static const int COLUMN[EDITABLE_COUNT] = {2, 3, 4, 5, 6, 7, 8, 11, 12};
    for (int k = 0; k < EDITABLE_COUNT; k++)
        if (cell_op(ops, o->chunk, path, EDITABLE[k][0], EDITABLE[k][1], fields[COLUMN[k]], row, why, why_size) != 0)
            return -1;
    return 0;
}

/* The table's records after its header; a record of one empty field is a blank line. */
static int table_ops(const object_ref *objects, size_t object_count, char *text, size_t size, json_t *ops, char *why,
                     size_t why_size)
{
    csv_reader r = {text, text + size};
    char *fields[14];
    size_t count, row = 1;
    char header[sizeof HEADER + 16] = "";
    if (next_record(&r, fields, 14, &count))
        for (size_t i = 0; i < count && i < 14; i++)
            snprintf(header + strlen(header), sizeof header - strlen(header), "%s%s", i ? "," : "", fields[i]);
    if (strcmp(header, HEADER) != 0) {
        snprintf(why, why_size, "the first line is not the table's header (%s)", HEADER);
        return -1;
    }
    while (next_record(&r, fields, 14, &count)) {
        row++;
        if (count == 1 && !*fields[0]) continue;
        if (row_ops(objects, object_count, ops, fields, count, row, why, why_size) != 0) return -1;
    }
    return 0;
}

json_t *streamer_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                             size_t why_size)
{
    if (strcmp(path, CSV_PATH) != 0) return NULL;
    size_t object_count = 0;
    char *text = malloc(size + 1);
    json_t *ops = json_array();
    object_ref *objects = index_objects(doc, &object_count);
    int failed = !text || !ops || !objects;
    if (failed) {
        snprintf(why, why_size, "out of memory");
    } else {
        memcpy(text, data, size);
        text[size] = 0;
        failed = table_ops(objects, object_count, text, size, ops, why, why_size) != 0;
    }
    free(text);
    free(objects);
    if (failed) { json_decref(ops); return NULL; }
    return ops;
}
