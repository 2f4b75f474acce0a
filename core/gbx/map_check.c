/*
 * `rebyte check` for maps (the gbx format's check hook): game-level invariants the byte format
 * does not enforce, found before the game finds them ("Couldn't load map!"). The header chunks'
 * copies of the map's name, identity and medal times agree with the body; the TM2020 items
 * chunk's snapping data has one entry per item. Chunk ids are matched as stored: TM 2003-2006
 * maps use the engine-0x24 ids (docs/formats/gbx.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include "../json.h"
#include "gbx.h"

typedef struct check_run {
    const rb_doc *doc;
    rb_check_report report;
    void *context;
    size_t problems;
} check_run;

/* The one element of a chunk list whose stored id is `id`; NULL for none or several. */
static const rb_node *chunk_with_id(const rb_node *chunks, uint32_t id)
{
    const rb_node *found = NULL;
    for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
        const rb_node *c = chunks->v.kids.items[i];
        if ((uint32_t)rb_node_uint(rb_node_get(c, "id")) != id) continue;
        if (found) return NULL;
        found = c;
    }
    return found;
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

static void problem(check_run *r, const char *line)
{
    r->report(r->context, line);
    r->problems++;
}

/* The header's copy `key` of `header` agrees with the body's in `body`. */
static void agree(check_run *r, const rb_node *header, const rb_node *body, const char *key, const char *header_path,
                  const char *body_path)
{
    const rb_node *h = rb_node_get(header, key), *b = rb_node_get(body, key);
    if (!h || !b) return;
    json_t *hj = content(r->doc, h), *bj = content(r->doc, b);
    if (!json_equal(hj, bj)) {
        char *hs = json_dumps(hj, JSON_ENCODE_ANY | JSON_COMPACT), *bs = json_dumps(bj, JSON_ENCODE_ANY | JSON_COMPACT);
        char hp[160], bp[240];
        snprintf(hp, sizeof hp, "%s/%s", header_path, key);
        snprintf(bp, sizeof bp, "%s/%s", body_path, key);
        char line[800];
        snprintf(line, sizeof line, "%s differs: header %s = %.120s, body %s = %.120s", key, hp, hs ? hs : "?", bp,
                 bs ? bs : "?");
        problem(r, line);
        free(hs);
        free(bs);
    }
    json_decref(hj);
    json_decref(bj);
}

/* One id family: 0x0304xxxx (and the medals' 0x0305Bxxx), or the legacy 0x2400xxxx (0x2400Cxxx). */
static void check_copies(check_run *r, uint32_t map, uint32_t params)
{
    const rb_node *root = r->doc->root, *headers = rb_node_get(root, "headerChunks");
    const rb_node *chunks = rb_node_get(rb_node_get(root, "body"), "chunks");
    char h3[64], h2[64], b[64], m[128];
    snprintf(h3, sizeof h3, "/headerChunks/[id=0x%08X]", map | 0x003);
    snprintf(h2, sizeof h2, "/headerChunks/[id=0x%08X]", map | 0x002);
    snprintf(b, sizeof b, "/body/chunks/[id=0x%08X]", map | 0x01F);
    snprintf(m, sizeof m, "/body/chunks/[id=0x%08X]/challengeParameters/chunks/[id=0x%08X]", map | 0x011, params | 0x004);
    /* (the decoration is not compared: real maps store it partly empty in the header) */
    const rb_node *header3 = chunk_with_id(headers, map | 0x003), *blocks = chunk_with_id(chunks, map | 0x01F);
    agree(r, header3, blocks, "mapName", h3, b);
    agree(r, header3, blocks, "mapInfo", h3, b);
    const rb_node *params_chunks = rb_node_get(rb_node_get(chunk_with_id(chunks, map | 0x011), "challengeParameters"),
                                               "chunks");
    const rb_node *header2 = chunk_with_id(headers, map | 0x002), *medals = chunk_with_id(params_chunks, params | 0x004);
    static const char *const MEDALS[] = {"bronzeTime", "silverTime", "goldTime", "authorTime"};
    for (int i = 0; i < 4; i++) agree(r, header2, medals, MEDALS[i], h2, m);
}

static void check_snapping(check_run *r)
{
    const rb_node *items = chunk_with_id(rb_node_get(rb_node_get(r->doc->root, "body"), "chunks"), 0x03043040);
    const rb_node *snapped = rb_node_get(items, "snappedOnIndexes"), *objects = rb_node_get(items, "anchoredObjects");
    if (!snapped || !objects || rb_element_count(snapped) == rb_element_count(objects)) return;
    char line[160];
    snprintf(line, sizeof line, "the items chunk has %zu snapped-on entries for %zu items", rb_element_count(snapped),
             rb_element_count(objects));
    problem(r, line);
}

size_t gbx_check(const rb_doc *doc, rb_check_report report, void *context)
{
    check_run r = {doc, report, context, 0};
    check_copies(&r, 0x03043000, 0x0305B000);
    check_copies(&r, 0x24003000, 0x2400C000);
    check_snapping(&r);
    return r.problems;
}
