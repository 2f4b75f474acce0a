/*
 * `rebyte info` of a data.win (docs/formats/datawin.md "Info"): the game's name and how many
 * sprites, rooms, objects, sounds, scripts, strings, ... it holds: each chunk's list, named
 * as the dump names it, counted.
 */
#include <stdio.h>
#include <string.h>
#include "core/datawin/datawin.h"
#include "core/doc/doc.h"

static int is_list(const rb_node *n) { return n->kind == RB_K_LIST || n->kind == RB_K_TABLE; }

static int is_chunk(const rb_node *chunk, const char *id)
{
    const rb_node *n = chunk->kind == RB_K_RECORD ? rb_node_get(chunk, "id") : NULL;
    return n && n->kind == RB_K_STRING && n->v.bytes.size == 4 && memcmp(n->v.bytes.data, id, 4) == 0;
}

/* A chunk's first list (its elements), or NULL (GEN8's room order is settings, not content). */
static const rb_node *chunk_list(const rb_node *chunk)
{
    const rb_node *id = rb_node_get(chunk, "id");
    if (!id || id->kind != RB_K_STRING || is_chunk(chunk, "GEN8")) return NULL;
    for (size_t i = 0; i < chunk->v.kids.count; i++)
        if (is_list(chunk->v.kids.items[i])) return chunk->v.kids.items[i];
    return NULL;
}

/* "sprites": 7, ...; a name two chunks use (SOND's and AUDO's "sounds") is "AUDO.sounds" the
 * second time. */
static json_t *counts(const rb_node *chunks)
{
    json_t *out = json_object();
    for (size_t i = 0; chunks && i < chunks->v.kids.count; i++) {
        const rb_node *chunk = chunks->v.kids.items[i], *list = chunk->kind == RB_K_RECORD ? chunk_list(chunk) : NULL;
        if (!list || !list->key) continue;
        char name[96];
        snprintf(name, sizeof name, "%s", list->key);
        if (json_object_get(out, name)) {
            const rb_node *id = rb_node_get(chunk, "id");
            snprintf(name, sizeof name, "%.*s.%s", (int)id->v.bytes.size, (const char *)id->v.bytes.data, list->key);
        }
        json_object_set_new(out, name, json_integer((json_int_t)rb_element_count(list)));
    }
    return out;
}

/* A version as GameMaker names it: "Studio 1.4", "Studio 2.3.0", "2024.6" (calendar releases). */
static void version_name(uint64_t encoded, char *out, size_t size)
{
    unsigned major = (unsigned)(encoded / 1000000), minor = (unsigned)(encoded / 1000 % 1000),
             release = (unsigned)(encoded % 1000);
    if (major >= 2022) snprintf(out, size, "GameMaker %u.%u", major, minor);
    else if (release) snprintf(out, size, "GameMaker Studio %u.%u.%u", major, minor, release);
    else snprintf(out, size, "GameMaker%s %u.%u", major < 2 ? ": Studio" : " Studio", major, minor);
}

/* Which GameMaker wrote the file, in its words, and from what that was told
 * (docs/formats/datawin.md "Version inference (rebyte info)"). */
static json_t *origin(const rb_doc *doc)
{
    uint64_t at_least = rb_node_uint(rb_node_get(doc->root, "versionAtLeast"));
    uint64_t below = rb_node_uint(rb_node_get(doc->root, "versionBelow"));
    uint64_t evidence = rb_node_uint(rb_node_get(doc->root, "versionEvidence"));
    char low[64], high[64], era[160], from[400];
    version_name(at_least, low, sizeof low);
    version_name(below, high, sizeof high);
    if (below) snprintf(era, sizeof era, "%s or later, before %s", low, high);
    else snprintf(era, sizeof era, "%s or later", low);
    static const char *const EVIDENCE[] = {"the GEN8 version and bytecode byte", "which chunks it has",
                                           "the TXTR entry layout", "the SOND entry stride",
                                           "null entries in pointer lists"};
    size_t n = (size_t)snprintf(from, sizeof from, "bytecode %llu",
                                (unsigned long long)rb_node_uint(rb_node_get(doc->root, "bytecodeVersion")));
    for (unsigned bit = 0; bit < 5; bit++)
        if ((evidence >> bit) & 1 && n < sizeof from)
            n += (size_t)snprintf(from + n, sizeof from - n, ", %s", EVIDENCE[bit]);
    return json_pack("{s:s,s:s,s:s}", "game", "GameMaker", "era", era, "detected_from", from);
}

json_t *datawin_summary(const rb_doc *doc)
{
    const rb_node *chunks = rb_node_get(doc->root, "chunks");
    if (!chunks || chunks->kind != RB_K_LIST) return NULL;
    json_t *summary = json_object();
    for (size_t i = 0; i < chunks->v.kids.count; i++) {
        const rb_node *name = is_chunk(chunks->v.kids.items[i], "GEN8") ? rb_node_get(chunks->v.kids.items[i], "name") : NULL;
        if (name && name->kind == RB_K_STRING)
            json_object_set_new(summary, "game", json_stringn((const char *)name->v.bytes.data, name->v.bytes.size));
    }
    json_object_set_new(summary, "origin", origin(doc));
    json_object_set_new(summary, "counts", counts(chunks));
    return summary;
}
