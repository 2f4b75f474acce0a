/*
 * Streamer map assets (docs/formats/streamer.md "Assets"): the objects (`_Obj` chunks) as one CSV
 * table — id, group, model, position, rotation, the group's worlds and interiors, stream and draw
 * distance — and the way back: an edited table becomes replace operations on the fields that
 * changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../assets.h"
#include "../json.h"
#include "streamer_assets.h"

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
    rb_asset a = {"objects/objects.csv", "table", CSV_PATH, csv, size, 1, note};
    int rc = rb_asset_emit(sink, context, &a, why, why_size);
    free(csv);
    return rc;
}

/* ---------- the way back ---------- */

/* One CSV line split into at most `max` fields (quotes as RFC 4180), in place. */
static size_t split_line(char *line, char **fields, size_t max)
{
    size_t n = 0;
    char *p = line;
    while (n < max) {
        char *out = p;
        fields[n++] = p;
        if (*p == '"') {
            for (p++; *p; p++) {
                if (*p == '"' && p[1] == '"') { *out++ = '"'; p++; }
                else if (*p == '"') { p++; break; }
                else *out++ = *p;
            }
        }
        while (*p && *p != ',') *out++ = *p++;
        int more = *p == ',';
        *out = 0;
        if (!more) break;
        p++;
    }
    return n;
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
static int row_ops(const rb_doc *doc, json_t *ops, char **fields, size_t count, size_t row, char *why, size_t why_size)
{
    char *end;
    unsigned long id = strtoul(fields[0], &end, 10);
    if (*end || count != 13) {
        snprintf(why, why_size, "row %zu: %zu fields, or an id that is not a number (the table has 13 columns: %s)", row,
                 count, HEADER);
        return -1;
    }
    const rb_node *groups = rb_node_member(doc->root, "groups");
    size_t seen = 0;
    for (size_t g = 0; g < rb_node_child_count(groups); g++) {
        const rb_node *chunks = rb_node_member(rb_node_child(groups, g), "chunks");
        for (size_t i = 0; i < rb_node_child_count(chunks); i++) {
            const rb_node *c = rb_node_child(chunks, i);
            if (!chunk_is(c, "_Obj") || seen++ != id) continue;
            char path[96];
            snprintf(path, sizeof path, "/groups/%zu/chunks/%zu", g, i);
            static const int COLUMN[EDITABLE_COUNT] = {2, 3, 4, 5, 6, 7, 8, 11, 12};
            for (int k = 0; k < EDITABLE_COUNT; k++)
                if (cell_op(ops, c, path, EDITABLE[k][0], EDITABLE[k][1], fields[COLUMN[k]], row, why, why_size) != 0)
                    return -1;
            return 0;
        }
    }
    snprintf(why, why_size, "row %zu: object %lu does not exist (the table gives back objects, it does not add them)",
             row, id);
    return -1;
}

json_t *streamer_asset_patch(const rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                             size_t why_size)
{
    if (strcmp(path, CSV_PATH) != 0) return NULL;
    char *text = malloc(size + 1);
    json_t *ops = json_array();
    if (!text || !ops) {
        free(text);
        json_decref(ops);
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    memcpy(text, data, size);
    text[size] = 0;
    size_t row = 0;
    int failed = 0;
    for (char *line = text, *next; line && *line && !failed; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        size_t length = strlen(line);
        if (length && line[length - 1] == '\r') line[--length] = 0;
        if (row++ == 0) {
            if (strcmp(line, HEADER) != 0) {
                snprintf(why, why_size, "the first line is not the table's header (%s)", HEADER);
                failed = 1;
            }
            continue;
        }
        if (!length) continue;
        char *fields[14];
        size_t count = split_line(line, fields, 14);
        failed = row_ops(doc, ops, fields, count, row, why, why_size) != 0;
    }
    free(text);
    if (failed) { json_decref(ops); return NULL; }
    return ops;
}
