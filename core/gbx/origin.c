/*
 * Which game made a GBX file, in the words its players use (`rebyte info` "origin",
 * docs/formats/gbx.md "Games and eras"): TrackMania (2003), Original, Sunrise, Nations, United,
 * Forever, the ManiaPlanet titles, Trackmania (2020) by year. The evidence is what the file
 * says of itself: the header XML's exever, exebuild and title, a build string (map chunk 051,
 * a ghost's validation), the title id, the environment, the car, and the class ids' era; each
 * answer names what it was detected from. The rules were read off the corpus, whose files come
 * sorted by game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/gbx/gbx.h"
#include "core/gbx/engine/gbx_internal.h"
#include "core/gbx/map/environments.h"
#include "core/gbx/map/map_header.h"

typedef struct evidence {
    char exever[32], exebuild[32], title[64], environment[64], vehicle[64];
    const char *version_from; /* where exever came from */
    long collection;          /* the environment's stored number, or -1 */
    uint32_t class_id;        /* the root's, current id */
    int legacy;               /* the root's class id is a TM 2003-2006 one */
    int renamed;              /* the root's class had another id in TM 2003-2006 (it is not one now) */
    size_t visited;
} evidence;

/* The value of attribute `name` in XML text `xml` (n bytes), into out. */
static int xml_attribute(const char *xml, size_t n, const char *name, char *out, size_t size)
{
    size_t k = strlen(name);
    for (size_t i = 0; i + k + 2 <= n; i++) {
        if (memcmp(xml + i, name, k) != 0 || xml[i + k] != '=' || xml[i + k + 1] != '"') continue;
        if (i > 0 && xml[i - 1] != ' ') continue;
        size_t start = i + k + 2, end = start;
        while (end < n && xml[end] != '"') end++;
        snprintf(out, size, "%.*s", (int)(end - start), xml + start);
        return 1;
    }
    return 0;
}

static void take_text(const rb_node *n, char *out, size_t size)
{
    size_t length;
    const uint8_t *text = rb_node_bytes(n, &length);
    if (text && !out[0]) snprintf(out, size, "%.*s", (int)length, (const char *)text);
}

/* The run of bytes at text[at..length) up to a space, into out. */
static void word_at(const char *text, size_t at, size_t length, char *out, size_t size)
{
    size_t end = at;
    while (end < length && text[end] != ' ' && text[end] != '\n' && text[end] != '\r') end++;
    snprintf(out, size, "%.*s", (int)(end - at), text + at);
}

/* A build string ("date=2026-02-02_17_51 git=... GameVersion=3.3.0"): its date and version. */
static void build_string(evidence *e, const rb_node *n, const char *from)
{
    size_t length;
    const char *text = (const char *)rb_node_bytes(n, &length);
    if (!text || e->exever[0]) return;
    char date[32] = "", version[32] = "";
    for (size_t i = 0; i + 5 < length; i++) {
        if (!memcmp(text + i, "date=", 5)) word_at(text, i + 5, length, date, sizeof date);
        if (i + 12 < length && !memcmp(text + i, "GameVersion=", 12)) word_at(text, i + 12, length, version, sizeof version);
    }
    if (!version[0]) return;
    snprintf(e->exever, sizeof e->exever, "%s", version);
    snprintf(e->exebuild, sizeof e->exebuild, "%s", date);
    e->version_from = from;
}

/* The header XML (plain, or a map's template whose literal parts hold these attributes). */
static void header_xml(evidence *e, const rb_node *record)
{
    char xml[4096];
    size_t n = 0, length;
    const rb_node *text = rb_node_get(record, "xml"), *parts = rb_node_get(record, "xmlTemplate");
    const uint8_t *bytes = rb_node_bytes(text, &length);
    if (bytes) n = (size_t)snprintf(xml, sizeof xml, "%.*s", (int)(length < sizeof xml ? length : sizeof xml - 1), bytes);
    for (size_t i = 0; parts && parts->kind == RB_K_LIST && i < parts->v.kids.count && n + 1 < sizeof xml; i++) {
        bytes = rb_node_bytes(parts->v.kids.items[i], &length);
        if (!bytes) continue;
        size_t room = sizeof xml - 1 - n;
        memcpy(xml + n, bytes, length < room ? length : room);
        n += length < room ? length : room;
        xml[n] = 0;
    }
    if (!n || e->exever[0]) return;
    if (xml_attribute(xml, n, "exever", e->exever, sizeof e->exever) && e->exever[0]) e->version_from = "the header XML";
    xml_attribute(xml, n, "exebuild", e->exebuild, sizeof e->exebuild);
    xml_attribute(xml, n, "title", e->title, sizeof e->title);
    if (!e->environment[0]) xml_attribute(xml, n, "envir", e->environment, sizeof e->environment);
}

static void environment(evidence *e, const rb_node *collection)
{
    if (!collection || e->collection >= 0) return;
    if (collection->kind == RB_K_ID && collection->wire == RB_ID_NUMBER) {
        e->collection = (long)collection->v.bits;
        const char *name = gbx_collection_name((uint32_t)collection->v.bits);
        if (name && !e->environment[0]) snprintf(e->environment, sizeof e->environment, "%s", name);
        return;
    }
    take_text(collection, e->environment, sizeof e->environment);
}

/* What the records near the top say (lists are looked into a few elements deep: a block list
 * holds no evidence). */
static void gather(evidence *e, const rb_node *n, unsigned depth)
{
    if (!n || !rb_node_is_container(n) || depth > 12 || ++e->visited > 4000) return;
    if (n->kind != RB_K_LIST) {
        header_xml(e, n);
        build_string(e, rb_node_get(n, "buildVersion"), "the build version (map chunk 051)");
        build_string(e, rb_node_get(n, "validateExeVersion"), "the ghost's validation build");
        take_text(rb_node_get(n, "titleId"), e->title, sizeof e->title);
        environment(e, rb_node_get(rb_node_get(n, "mapInfo"), "collection"));
        take_text(rb_node_get(rb_node_get(n, "playerModel"), "id"), e->vehicle, sizeof e->vehicle);
        if (depth <= 4) environment(e, rb_node_get(rb_node_get(n, "ident"), "collection")); /* a block's, an item's */
    }
    size_t count = n->v.kids.count;
    int chunks = n->key && !strcmp(n->key, "chunks"); /* a node's chunks: all of them */
    if (n->kind == RB_K_LIST && count > (chunks ? 256u : 8u)) count = chunks ? 256 : 8;
    for (size_t i = 0; i < count; i++) gather(e, n->v.kids.items[i], depth + 1);
}

/* ---------- the answer ---------- */

typedef struct origin {
    const char *game, *era;
    char named[128]; /* a game name made of parts */
    char from[512];
} origin;

static int version_at_least(const char *exever, int major, int minor, int patch, int build)
{
    int v[4] = {0, 0, 0, 0};
    sscanf(exever, "%d.%d.%d.%d", &v[0], &v[1], &v[2], &v[3]);
    int want[4] = {major, minor, patch, build};
    for (int i = 0; i < 4; i++)
        if (v[i] != want[i]) return v[i] > want[i];
    return 1;
}

static int is_one_of(const char *text, const char *const *names)
{
    for (; *names; names++)
        if (!strcmp(text, *names)) return 1;
    return 0;
}

/* ManiaPlanet titles by their ids. */
static const char *title_name(const char *title)
{
    static const struct {
        const char *id, *name;
    } TITLES[] = {
        {"TMCanyon", "TrackMania² Canyon"}, {"TMValley", "TrackMania² Valley"},
        {"TMStadium", "TrackMania² Stadium"}, {"TMLagoon", "TrackMania² Lagoon"},
        {"TMTurbo@nadeolabs", "TrackMania Turbo"}, {"TMCE@nadeolabs", "TrackMania Turbo"},
        {"SMStorm", "ShootMania Storm"}, {"Trackmania", "Trackmania (2020)"},
        {"OrbitalDev@falguiere", "Trackmania (2020)"}};
    for (size_t i = 0; i < sizeof TITLES / sizeof TITLES[0]; i++)
        if (!strcmp(title, TITLES[i].id)) return TITLES[i].name;
    return NULL;
}

/* The TM 2003-2006 engine's games by exever and environment. */
static void early_game(const evidence *e, origin *o)
{
    static const char *const ORIGINAL[] = {"Desert", "Snow", "Rally", "Speed", "Alpine", NULL};
    static const char *const SUNRISE[] = {"Island", "Bay", "Coast", NULL};
    o->era = "TrackMania 2005-2006 (the Sunrise engine)";
    if (version_at_least(e->exever, 0, 1, 9, 0)) o->game = "TrackMania United", o->era = "TrackMania United (2006-2007)";
    else if (version_at_least(e->exever, 0, 1, 7, 0)) o->game = "TrackMania Nations (ESWC)";
    else if (is_one_of(e->environment, ORIGINAL)) o->game = "TrackMania Original";
    else if (is_one_of(e->environment, SUNRISE)) o->game = "TrackMania Sunrise";
    else o->game = "TrackMania Sunrise or Original";
}

static void decide(const evidence *e, origin *o)
{
    const char *titled = e->title[0] ? title_name(e->title) : NULL;
    int year = 0;
    if (e->exebuild[0]) sscanf(e->exebuild, "%4d", &year);
    /* its collections (26, and 16 and 28 since 2026), its car, its titles; ManiaPlanet's last
     * builds are of 2019 */
    int tm2020 = e->collection == 26 || e->collection == 16 || e->collection == 28 || !strcmp(e->vehicle, "CarSport") ||
                 (titled && strstr(titled, "2020")) || (year >= 2020 && year < 2050);
    if (tm2020) {
        o->game = "Trackmania (2020)";
        o->era = "Trackmania (2020)";
        return;
    }
    if ((e->exever[0] && version_at_least(e->exever, 3, 0, 0, 0)) || titled) {
        o->era = "ManiaPlanet (2011-2019)";
        if (titled) snprintf(o->named, sizeof o->named, "ManiaPlanet: %s", titled);
        else if (e->title[0]) snprintf(o->named, sizeof o->named, "ManiaPlanet: title %s", e->title);
        else if (e->environment[0]) snprintf(o->named, sizeof o->named, "ManiaPlanet: TrackMania² %s", e->environment);
        else snprintf(o->named, sizeof o->named, "ManiaPlanet");
        o->game = o->named;
        return;
    }
    if (e->exever[0] && version_at_least(e->exever, 2, 0, 0, 0)) {
        o->era = "TrackMania Forever (2008-)";
        o->game = !strcmp(e->environment, "Stadium") ? "TrackMania Forever (Nations or United)" : "TrackMania United Forever";
        return;
    }
    if (e->exever[0]) {
        early_game(e, o);
        return;
    }
    static const char *const FIRST[] = {"Speed", "Alpine", "Rally", "Desert", "Snow", "", NULL};
    o->era = e->legacy    ? "TrackMania 2003-2006 (legacy class ids)"
             : e->renamed ? "TrackMania 2006-2020 (current class ids)"
                          : "any (the class id never changed)";
    if (e->legacy && (e->class_id == 0x03043000 || e->class_id == 0x03093000 || e->environment[0])) {
        /* no exever: the first game's files, or a replay that left it empty */
        o->game = is_one_of(e->environment, FIRST)    ? "TrackMania (2003-2004, with Power Up)"
                  : !strcmp(e->environment, "Stadium") ? "TrackMania Nations or United (2006)"
                                                       : "TrackMania Sunrise (2005)";
        return;
    }
    /* items and macroblocks came with ManiaPlanet */
    if (e->class_id == 0x2E002000 || e->class_id == 0x0310D000) {
        o->game = "ManiaPlanet or Trackmania (2020)";
        o->era = "ManiaPlanet and Trackmania (2020), 2011 on (the class came with ManiaPlanet)";
    } else if (e->legacy) o->game = "a TrackMania 2003-2006 game";
    else if (e->renamed) o->game = "a TrackMania United Forever, ManiaPlanet or Trackmania (2020) game";
    else o->game = "a TrackMania, ManiaPlanet or Trackmania (2020) game";
}

static void explain(const evidence *e, origin *o)
{
    size_t n = 0;
    o->from[0] = 0;
#define SAY(...) n += (size_t)snprintf(o->from + n, n < sizeof o->from ? sizeof o->from - n : 0, __VA_ARGS__)
    if (e->exever[0]) SAY("exever %s (%s)", e->exever, e->version_from ? e->version_from : "?");
    if (e->exebuild[0]) SAY("%sbuilt %s", n ? ", " : "", e->exebuild);
    if (e->title[0]) SAY("%stitle %s", n ? ", " : "", e->title);
    if (e->environment[0]) SAY("%senvironment %s", n ? ", " : "", e->environment);
    if (e->collection >= 0) SAY(" (stored as %ld)", e->collection);
    if (e->vehicle[0]) SAY("%scar %s", n ? ", " : "", e->vehicle);
    SAY("%sclass id of %s", n ? ", " : "",
        e->legacy ? "the TM 2003-2006 engine" : e->renamed ? "TrackMania United and later" : "every era");
#undef SAY
}

json_t *gbx_origin(const rb_doc *doc)
{
    evidence e = {0};
    e.collection = -1;
    uint32_t raw = (uint32_t)rb_node_uint(rb_node_get(doc->root, "classId"));
    e.class_id = gbx_remap_id(raw) & 0xFFFFF000u;
    e.legacy = (raw >> 24) == 0x24;
    uint64_t other;
    e.renamed = !e.legacy && gbx_era_spellings(e.class_id, &other, 1) > 0;
    gather(&e, doc->root, 0);
    environment(&e, rb_node_get(gbx_map_fact(doc->root, GBX_FACT_BLOCK_DATA, "mapInfo"), "collection"));
    origin o = {0};
    decide(&e, &o);
    explain(&e, &o);
    json_t *out = json_pack("{s:s,s:s}", "game", o.game, "era", o.era);
    int year = 0;
    if (e.exebuild[0] && sscanf(e.exebuild, "%4d", &year) == 1 && year >= 2003 && year < 2050)
        json_object_set_new(out, "year", json_integer(year));
    if (e.title[0]) json_object_set_new(out, "title", json_string(e.title));
    json_object_set_new(out, "detected_from", json_string(o.from));
    return out;
}
