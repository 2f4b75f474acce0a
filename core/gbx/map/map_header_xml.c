/*
 * The map header's XML (chunk 0x03043005) and the settling of header copies after a read
 * (docs/formats/gbx.md "Header copies").
 *
 * The XML repeats body facts as attributes (<ident uid name author authorzone>, <desc envir mood
 * maptype mapstyle nblaps>, <times bronze silver gold authortime authorscore>) among values
 * only the header has (exever, exebuild, price, deps). On read, every attribute whose value is
 * exactly what the writer derives from the body becomes a derived part of `xmlTemplate`: a list
 * of literal strings and {"derived": attribute} records. The writer renders the XML from it,
 * so every attribute order, space and value the game wrote comes back, and a body edit reaches
 * the XML. An XML with no such attribute stays `xml`, a plain string.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/buf.h"
#include "core/json/json.h"
#include "core/gbx/map/environments.h"
#include "core/gbx/map/map_header.h"
#include "core/gbx/map/map.h"

typedef enum xml_value { XML_TEXT, XML_ID, XML_ENVIRONMENT, XML_MOOD, XML_INT, XML_LAPS } xml_value;

static const struct xml_copy {
    const char *element, *attribute;
    gbx_fact fact;
    const char *key, *subkey; /* the fact's field (and its member, for an id of a meta) */
    xml_value value;
} XML_COPIES[] = {
    {"ident", "uid", GBX_FACT_BLOCK_DATA, "mapInfo", "id", XML_ID},
    {"ident", "name", GBX_FACT_BLOCK_DATA, "mapName", NULL, XML_TEXT},
    {"ident", "author", GBX_FACT_BLOCK_DATA, "mapInfo", "author", XML_ID},
    {"ident", "authorzone", GBX_FACT_AUTHOR, "authorZone", NULL, XML_TEXT},
    {"desc", "envir", GBX_FACT_BLOCK_DATA, "mapInfo", "collection", XML_ENVIRONMENT},
    {"desc", "mood", GBX_FACT_BLOCK_DATA, "decoration", "id", XML_MOOD},
    {"desc", "maptype", GBX_FACT_MAP_TYPE, "mapType", NULL, XML_TEXT},
    {"desc", "mapstyle", GBX_FACT_MAP_TYPE, "mapStyle", NULL, XML_TEXT},
    {"desc", "nblaps", GBX_FACT_LAPS, "nbLaps", NULL, XML_LAPS}, /* 0 unless a lap race */
    {"times", "bronze", GBX_FACT_MEDALS, "bronzeTime", NULL, XML_INT},
    {"times", "silver", GBX_FACT_MEDALS, "silverTime", NULL, XML_INT},
    {"times", "gold", GBX_FACT_MEDALS, "goldTime", NULL, XML_INT},
    {"times", "authortime", GBX_FACT_MEDALS, "authorTime", NULL, XML_INT},
    {"times", "authorscore", GBX_FACT_STUNTS, "authorScore", NULL, XML_INT},
};
enum { XML_COPY_COUNT = sizeof XML_COPIES / sizeof XML_COPIES[0] };

static const struct xml_copy *copy_by_attribute(const char *element, size_t element_len, const char *attribute,
                                                size_t attribute_len)
{
    for (size_t i = 0; i < XML_COPY_COUNT; i++) {
        const struct xml_copy *c = &XML_COPIES[i];
        if (element && (strlen(c->element) != element_len || memcmp(c->element, element, element_len))) continue;
        if (strlen(c->attribute) == attribute_len && !memcmp(c->attribute, attribute, attribute_len)) return c;
    }
    return NULL;
}

/* ---------- a fact as the XML spells it ---------- */

/* How an XML spells facts, learned from real maps (docs/formats/gbx.md "Header copies"). */
enum {
    XML_OLD = 1,  /* the first games (type="challenge", exever 0.x: TM Original, Sunrise, Nations ESWC)
                     spell names URL-style ("Paradise+Island"), not moods; from TMNF 2.x on texts are
                     XML-escaped */
    XML_MP = 2,   /* exever 3.x (ManiaPlanet, TM2020): the mood is the decoration's time of day */
    XML_APOS = 4, /* an apostrophe is written &apos; (TMNF 2.11 does; the derived record says so) */
    XML_LAPS_ALWAYS = 8 /* nblaps is the lap count even when the map is no lap race (exever up to 0.1.4.3:
                     Paradise Island, AirControl; from 0.1.4.4 on a race that is not a lap race says 0) */
};

/* exever "A.B.C.D" as 0xAABBCCDD (each part up to 255), 0 when unreadable. */
static uint32_t exever_number(const uint8_t *v, size_t length)
{
    uint32_t number = 0, part = 0;
    int parts = 0;
    for (size_t i = 0; i <= length && parts < 4; i++) {
        if (i < length && v[i] >= '0' && v[i] <= '9') {
            part = part * 10 + (uint32_t)(v[i] - '0');
            if (part > 255) return 0;
            continue;
        }
        number = number << 8 | part;
        part = 0;
        parts++;
        if (i == length || v[i] != '.') break;
    }
    return parts ? number << (8 * (4 - parts)) : 0;
}

/* The text of `<header ...>`'s attribute `name` (with its '="'), or NULL. */
static const uint8_t *header_attribute(const uint8_t *xml, size_t size, const char *name, size_t *length)
{
    const uint8_t *end = memchr(xml, '>', size);
    size_t head = end ? (size_t)(end - xml) : size, n = strlen(name);
    for (size_t i = 0; i + n <= head; i++)
        if (!memcmp(xml + i, name, n)) {
            *length = head - i - n;
            return xml + i + n;
        }
    return NULL;
}

static unsigned xml_style(const uint8_t *xml, size_t size)
{
    static const char OLD[] = "<header type=\"challenge\"";
    size_t length = 0;
    const uint8_t *exever = header_attribute(xml, size, " exever=\"", &length);
    unsigned style = 0;
    if (exever && length >= 2 && exever[0] == '0' && exever[1] == '.' && size >= sizeof OLD - 1 &&
        !memcmp(xml, OLD, sizeof OLD - 1))
        style |= XML_OLD;
    if (exever && length >= 2 && exever[0] >= '3' && exever[0] <= '9' && exever[1] == '.') style |= XML_MP;
    uint32_t version = exever ? exever_number(exever, length) : 0;
    if (version && version <= 0x00010403) style |= XML_LAPS_ALWAYS;
    return style;
}

static void put_encoded(rb_buf *out, const uint8_t *text, size_t size, unsigned style)
{
    int old = style & XML_OLD;
    /* the game's strings may start with a byte-order mark; its XML never does */
    if (size >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF) {
        text += 3;
        size -= 3;
    }
    for (size_t i = 0; i < size; i++) {
        uint8_t c = text[i];
        const char *entity = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;"
                           : c == '\'' && (style & XML_APOS) ? "&apos;" : NULL;
        if (old && c == ' ') rb_buf_put_u8(out, '+');
        else if (old && (entity || c == '%' || c == '+')) {
            char hex[4];
            snprintf(hex, sizeof hex, "%%%02X", c);
            rb_buf_put(out, hex, 3);
        } else if (entity) rb_buf_put(out, entity, strlen(entity));
        else rb_buf_put_u8(out, c);
    }
}

/* The engine's collection numbers (docs/formats/gbx.md "Collections"), as the XML names them:
 * the one table, core/gbx/map/environments.c. */
static const char *collection_name(uint64_t number)
{
    return number <= UINT32_MAX ? gbx_collection_name((uint32_t)number) : NULL;
}

/* The times of day a decoration's name holds (the moods of every game's decorations). */
static const char *const TIMES_OF_DAY[] = {"Sunrise", "Sunset", "Night", "Day"};

/* Where the first time of day starts in [text, text + size) (its length in *length), or size. */
static size_t time_of_day_at(const uint8_t *text, size_t size, size_t *length)
{
    for (size_t i = 0; i < size; i++)
        for (size_t k = 0; k < sizeof TIMES_OF_DAY / sizeof TIMES_OF_DAY[0]; k++) {
            size_t n = strlen(TIMES_OF_DAY[k]);
            if (i + n <= size && !memcmp(text + i, TIMES_OF_DAY[k], n)) {
                *length = n;
                return i;
            }
        }
    return size;
}

static int all_digits(const uint8_t *text, size_t size)
{
    for (size_t i = 0; i < size; i++)
        if (text[i] < '0' || text[i] > '9') return 0;
    return 1;
}

/* The mood the XML shows for a decoration, as real maps write it (docs/formats/gbx.md
 * "Header copies"): the older games copy the decoration as it is, a space included (TM Sunrise's
 * "Day ", TMNF Coast's "Sunrise "): moods are no names, the first games spell no space of
 * theirs '+'. From exever 3 on it is the time of day: whatever precedes it goes (TM2020's
 * "48x48Day", "NoStadium48x48Day", "48x48Screen155Day" are "Day"), and so does a size after it
 * ("Day48", TM2020's "Day64"), but ManiaPlanet's "NNxNN" size before it follows it ("64x64Day"
 * is "Day64"). */
static void put_mood(rb_buf *out, const uint8_t *id, size_t size, unsigned style)
{
    if (!(style & XML_MP)) {
        put_encoded(out, id, size, style & ~XML_OLD);
        return;
    }
    static const char BASE[] = "48x48";
    size_t from = 0, size_prefix = 0;
    for (size_t i = 0; i + 5 <= size; i++) /* whatever precedes 48x48 is the stadium's variant */
        if (!memcmp(id + i, BASE, 5)) from = i + 5;
    if (!from && size > 5 && id[2] == 'x' && all_digits(id, 2) && !memcmp(id, id + 3, 2)) {
        size_prefix = 2;
        from = 5;
    }
    size_t length = 0, at = from + time_of_day_at(id + from, size - from, &length);
    size_t end = at + length;
    if (at == size) { /* no time of day: the name as it is, without a 48 size after it */
        at = from;
        end = size - from > 2 && !memcmp(id + size - 2, "48", 2) ? size - 2 : size;
    } else if (!all_digits(id + end, size - end)) end = size; /* what follows it is no size: kept */
    put_encoded(out, id + at, end - at, style);
    put_encoded(out, id, size_prefix, style);
}

/* The body node copy `c` repeats in the map whose file record is `file`, or NULL. */
static const rb_node *fact_node(const rb_node *file, const struct xml_copy *c)
{
    const rb_node *n = gbx_map_fact(file, c->fact, c->key);
    return c->subkey ? rb_node_get(n, c->subkey) : n;
}

/* The text of copy `c` derived from the body of `file`; 0 when the body lacks the fact. */
static int put_fact(rb_buf *out, const rb_node *file, const struct xml_copy *c, unsigned style)
{
    const rb_node *n = fact_node(file, c);
    if (!n) return 0;
    char number[24];
    switch (c->value) {
    case XML_LAPS: {
        const rb_node *laps = gbx_map_fact(file, c->fact, "isLapRace");
        if (n->kind != RB_K_INT || !laps) return 0;
        snprintf(number, sizeof number, "%u", rb_node_uint(laps) || (style & XML_LAPS_ALWAYS) ? (unsigned)rb_node_uint(n) : 0u);
        rb_buf_put(out, number, strlen(number));
        return 1;
    }
    case XML_INT:
        if (n->kind != RB_K_INT) return 0;
        snprintf(number, sizeof number, "%d", (int32_t)rb_node_int(n));
        rb_buf_put(out, number, strlen(number));
        return 1;
    case XML_TEXT:
        if (n->kind != RB_K_STRING) return 0;
        put_encoded(out, n->v.bytes.data, n->v.bytes.size, style);
        return 1;
    default: break;
    }
    if (n->kind != RB_K_ID) return 0;
    if (n->wire == RB_ID_NUMBER) {
        const char *name = c->value == XML_ENVIRONMENT ? collection_name(n->v.bits) : NULL;
        if (!name) return 0;
        rb_buf_put(out, name, strlen(name));
        return 1;
    }
    if (n->wire != RB_ID_STRING) return c->value == XML_ID; /* an empty id is an empty value */
    if (c->value == XML_MOOD) put_mood(out, n->v.bytes.data, n->v.bytes.size, style);
    else put_encoded(out, n->v.bytes.data, n->v.bytes.size, style);
    return 1;
}

/* ---------- the chunk ---------- */

/* A derived record: {"derived": attribute} and, when the file spells an apostrophe &apos; in
 * it, "escape": "apos". */
static int render_part(rb_ar *ar, rb_buf *xml, unsigned *style, size_t index)
{
    if (rb_ar_next_is_string(ar)) {
        const rb_node *literal = rb_ar_string_detached(ar, NULL, NULL, 0);
        if (!literal) return 0;
        if (index == 0) *style = xml_style(literal->v.bytes.data, literal->v.bytes.size);
        rb_buf_put(xml, literal->v.bytes.data, literal->v.bytes.size);
        return 1;
    }
    rb_ar_record_begin(ar, NULL);
    const rb_node *name = rb_ar_string_detached(ar, "derived", NULL, 0);
    const rb_node *escape = rb_ar_has(ar, "escape", 0) ? rb_ar_string_detached(ar, "escape", NULL, 0) : NULL;
    rb_ar_record_end(ar);
    if (!name || rb_ar_direction(ar) != RB_AR_WRITE) return name != NULL;
    unsigned here = *style | (escape && escape->v.bytes.size == 4 && !memcmp(escape->v.bytes.data, "apos", 4) ? XML_APOS : 0);
    const struct xml_copy *c = copy_by_attribute(NULL, 0, (const char *)name->v.bytes.data, name->v.bytes.size);
    if (c && put_fact(xml, gbx_ctx_of(ar)->file, c, here)) return 1;
    rb_ar_fail(ar, RB_E_MODEL, "the header XML derives \"%.*s\" from a body value the map does not have",
               (int)name->v.bytes.size, (const char *)name->v.bytes.data);
    return 0;
}

void gbx_map_header_xml(rb_ar *ar)
{
    if (rb_ar_direction(ar) == RB_AR_READ || rb_ar_has(ar, "xml", 1)) {
        gbx_string(ar, "xml");
        return;
    }
    rb_buf xml;
    rb_buf_init(&xml);
    unsigned style = 0;
    uint64_t n = rb_ar_list_begin_n(ar, "xmlTemplate", 0, 0);
    RB_AR_EACH(ar, i, n) if (!render_part(ar, &xml, &style, i)) break;
    rb_ar_list_end(ar);
    if (rb_ar_direction(ar) == RB_AR_WRITE && rb_ar_ok(ar)) {
        rb_node rendered = {.kind = RB_K_STRING, .key = "xml"};
        rendered.v.bytes.data = xml.data ? xml.data : (const uint8_t *)"";
        rendered.v.bytes.size = xml.size;
        rb_ar_derived(ar, "xml", &rendered);
        gbx_string(ar, "xml");
    }
    rb_buf_free(&xml);
}

/* ---------- the copy attributes of an XML text ---------- */

static int name_char(uint8_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* Calls `visit` for each attribute of XML_COPIES in `s` (its value at [value, value_end)) and
 * returns where the scan stopped (n, or an unterminated value). */
typedef int (*copy_attribute_visit)(void *context, const struct xml_copy *c, size_t value, size_t value_end);

static void each_copy_attribute(const uint8_t *s, size_t n, copy_attribute_visit visit, void *context)
{
    const uint8_t *element = NULL;
    size_t element_len = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '<') {
            element = s + i + 1;
            for (element_len = 0; i + 1 + element_len < n && name_char(element[element_len]); element_len++) {}
            continue;
        }
        if (s[i] != '=' || i + 1 >= n || s[i + 1] != '"') continue;
        size_t a = i, value = i + 2, value_end = value;
        while (a > 0 && name_char(s[a - 1])) a--;
        while (value_end < n && s[value_end] != '"') value_end++;
        if (value_end >= n) return;
        const struct xml_copy *c = copy_by_attribute((const char *)element, element_len, (const char *)s + a, i - a);
        if (c && !visit(context, c, value, value_end)) return;
        i = value_end;
    }
}

/* How the value at [value, value + size) derives from the body: 0 when it does not, else 1 + how
 * many of its bytes are derived (a mood may be followed by what the writer keeps as it is:
 * TM2020's "DayScreen16x9" is "Day" and "Screen16x9"); *apos says whether the file wrote an
 * apostrophe &apos; (TMNF 2.11 does, in "Wesselll&apos;s first ever map"). */
static size_t derived_length(const rb_node *file, const struct xml_copy *c, unsigned style, const uint8_t *value,
                             size_t size, int *apos)
{
    for (int variant = 0; variant < 2; variant++) {
        rb_buf text;
        rb_buf_init(&text);
        size_t answer = 0;
        if (put_fact(&text, file, c, style | (variant ? XML_APOS : 0))) {
            int same = text.size == size && (size == 0 || !memcmp(text.data, value, size));
            int head = c->value == XML_MOOD && text.size > 0 && text.size < size && !memcmp(text.data, value, text.size);
            if (same || head) answer = 1 + text.size;
        }
        rb_buf_free(&text);
        if (answer) {
            *apos = variant;
            return answer;
        }
    }
    return 0;
}

/* ---------- from a read XML to its template ---------- */

static int append_string(rb_arena *arena, rb_node *list, const char *key, const uint8_t *data, size_t size)
{
    rb_node *s = rb_node_new(arena, RB_K_STRING, key);
    if (!s) return 0;
    s->v.bytes.data = data;
    s->v.bytes.size = size;
    return rb_node_append(arena, list, s);
}

static int append_derived(rb_arena *arena, rb_node *list, const char *attribute, int apos)
{
    rb_node *r = rb_node_new(arena, RB_K_RECORD, NULL);
    return r && append_string(arena, r, "derived", (const uint8_t *)attribute, strlen(attribute)) &&
           (!apos || append_string(arena, r, "escape", (const uint8_t *)"apos", 4)) && rb_node_append(arena, list, r);
}

static void note_literal(rb_doc *doc, const char *attribute)
{
    char note[160];
    snprintf(note, sizeof note, "the header XML keeps its own %s=, which is not what the body gives (written back as it is)",
             attribute);
    rb_doc_add_note(doc, note);
}

typedef struct template_build {
    rb_arena *arena;
    rb_doc *notes; /* where a kept attribute is noted; NULL: nowhere */
    const rb_node *file;
    const uint8_t *s;
    unsigned style;
    const struct xml_copy *forced; /* derived whatever it holds (its fact is being edited), or NULL */
    rb_node *list;
    size_t literal_from, derived;
    int failed;
} template_build;

static int template_attribute(void *context, const struct xml_copy *c, size_t value, size_t value_end)
{
    template_build *t = context;
    int apos = 0;
    size_t derived = derived_length(t->file, c, t->style, t->s + value, value_end - value, &apos);
    if (!derived && c == t->forced && value_end > value) derived = 1 + (value_end - value);
    if (!derived) {
        if (t->notes) note_literal(t->notes, c->attribute);
        return 1;
    }
    if (!append_string(t->arena, t->list, NULL, t->s + t->literal_from, value - t->literal_from) ||
        !append_derived(t->arena, t->list, c->attribute, apos)) {
        t->failed = 1;
        return 0;
    }
    t->literal_from = value + (derived - 1);
    t->derived++;
    return 1;
}

/* The template of the XML text t->s (n bytes): NULL when no attribute derives. */
static rb_node *build_template(template_build *t, size_t n)
{
    t->style = xml_style(t->s, n);
    t->list = rb_node_new(t->arena, RB_K_LIST, "xmlTemplate");
    if (!t->list) return NULL;
    each_copy_attribute(t->s, n, template_attribute, t);
    if (t->failed || !t->derived || !append_string(t->arena, t->list, NULL, t->s + t->literal_from, n - t->literal_from))
        return NULL;
    return t->list;
}

rb_node *gbx_xml_template(rb_doc *doc, const rb_node *file, const rb_node *xml)
{
    template_build t = {.arena = &doc->arena, .notes = doc, .file = file, .s = xml->v.bytes.data};
    return build_template(&t, xml->v.bytes.size);
}

/* ---------- copies the XML keeps that disagree with the body ---------- */

typedef struct stale_scan {
    const rb_node *file;
    const uint8_t *s;
    unsigned style;
    gbx_xml_stale_visit visit;
    void *context;
} stale_scan;

static int stale_attribute(void *context, const struct xml_copy *c, size_t value, size_t value_end)
{
    stale_scan *st = context;
    int apos = 0;
    if (value_end == value) return 1; /* an empty attribute holds no fact (ManiaPlanet's mood="" on base maps) */
    if (derived_length(st->file, c, st->style, st->s + value, value_end - value, &apos)) return 1;
    rb_buf body;
    rb_buf_init(&body);
    if (put_fact(&body, st->file, c, st->style)) /* a fact the body lacks has nothing to disagree with */
        st->visit(st->context, c->attribute, st->s + value, value_end - value, body.data, body.size);
    rb_buf_free(&body);
    return 1;
}

/* The XML text the chunk holds: `xml` as it is, or `xmlTemplate` rendered with the body's facts. */
static int xml_text(const rb_node *file, const rb_node *chunk, rb_buf *out)
{
    const rb_node *xml = rb_node_get(chunk, "xml"), *list = rb_node_get(chunk, "xmlTemplate");
    if (xml && xml->kind == RB_K_STRING) {
        rb_buf_put(out, xml->v.bytes.data, xml->v.bytes.size);
        return 1;
    }
    if (!list || list->kind != RB_K_LIST) return 0;
    unsigned style = 0;
    for (size_t i = 0; i < list->v.kids.count; i++) {
        const rb_node *part = list->v.kids.items[i];
        if (part->kind == RB_K_STRING) {
            if (i == 0) style = xml_style(part->v.bytes.data, part->v.bytes.size);
            rb_buf_put(out, part->v.bytes.data, part->v.bytes.size);
            continue;
        }
        const rb_node *name = rb_node_get(part, "derived"), *escape = rb_node_get(part, "escape");
        const struct xml_copy *c = name && name->kind == RB_K_STRING
                                       ? copy_by_attribute(NULL, 0, (const char *)name->v.bytes.data, name->v.bytes.size)
                                       : NULL;
        if (c) put_fact(out, file, c, style | (escape ? XML_APOS : 0));
    }
    return 1;
}

void gbx_xml_stale_copies(const rb_node *file, const rb_node *chunk, gbx_xml_stale_visit visit, void *context)
{
    rb_buf text;
    rb_buf_init(&text);
    if (xml_text(file, chunk, &text) && text.size) {
        stale_scan st = {file, text.data, xml_style(text.data, text.size), visit, context};
        each_copy_attribute(text.data, text.size, stale_attribute, &st);
    }
    rb_buf_free(&text);
}

/* ---------- an edited fact: its XML copy follows, its apostrophe marker too ---------- */

typedef struct stale_find {
    const char *attribute;
    int found;
} stale_find;

static void note_stale(void *context, const char *attribute, const uint8_t *stored, size_t stored_size,
                       const uint8_t *body, size_t body_size)
{
    (void)stored, (void)stored_size, (void)body, (void)body_size;
    stale_find *f = context;
    if (!strcmp(attribute, f->attribute)) f->found = 1;
}

/* When the XML of header chunk `k` (`chunk`) holds copy `c` in words of its own (a tool wrote
 * "Template" there and another name in the body), the operations that make it derived: the
 * template rebuilt from the XML the chunk holds now, `c` derived. The game writes the XML from
 * the body whenever it saves (every game-written map's copies derive), so an edit of the fact
 * reaches the copy. NULL when `c` derives already, is empty, absent, or its fact has no text
 * (a collection without a name). */
static json_t *follow_literal_copy(const rb_doc *doc, const rb_node *chunk, size_t k, const struct xml_copy *c)
{
    stale_find f = {c->attribute, 0}; /* what `check` reports: a non-empty copy the body could give */
    gbx_xml_stale_copies(doc->root, chunk, note_stale, &f);
    rb_buf text;
    rb_buf_init(&text);
    json_t *ops = NULL;
    if (f.found && xml_text(doc->root, chunk, &text) && text.size) {
        rb_arena arena;
        rb_arena_init(&arena);
        template_build t = {.arena = &arena, .file = doc->root, .s = text.data, .forced = c};
        const rb_node *list = build_template(&t, text.size);
        json_t *value = list ? rb_model_to_json(doc, list, RB_BLOBS_BASE64) : NULL;
        if (value) {
            int whole = rb_node_get(chunk, "xml") != NULL; /* no attribute derived yet: the string goes */
            char path[64];
            ops = json_array();
            snprintf(path, sizeof path, "/headerChunks/%zu/xml", k);
            if (whole) rb_json_patch_op(ops, "remove", path, NULL, NULL);
            snprintf(path, sizeof path, "/headerChunks/%zu/xmlTemplate", k);
            rb_json_patch_op(ops, whole ? "add" : "replace", path, NULL, value);
        }
        rb_arena_free(&arena);
    }
    rb_buf_free(&text);
    return ops;
}

/* A derived record's "escape": "apos" says the file spells an apostrophe of that fact &apos;,
 * which a read can only see while the fact holds one: a `replace` that leaves the fact without
 * an apostrophe takes the marker away, so the patched model is what a read of the written file
 * gives (the written XML is the same either way). Appended to *ops. */
static void marker_followers(const rb_doc *doc, const rb_node *list, size_t k, const rb_node *edited, json_t **ops)
{
    for (size_t i = 0; list && list->kind == RB_K_LIST && i < list->v.kids.count; i++) {
        const rb_node *part = list->v.kids.items[i], *name = rb_node_get(part, "derived");
        if (!rb_node_get(part, "escape") || !name || name->kind != RB_K_STRING) continue;
        const struct xml_copy *c = copy_by_attribute(NULL, 0, (const char *)name->v.bytes.data, name->v.bytes.size);
        if (!c || fact_node(doc->root, c) != edited) continue;
        char marker[96];
        snprintf(marker, sizeof marker, "/headerChunks/%zu/xmlTemplate/%zu/escape", k, i);
        if (!*ops) *ops = json_array();
        rb_json_patch_op(*ops, "remove", marker, NULL, NULL);
    }
}

/* rb_format.followers of GBX (docs/formats/gbx.md "Header copies"): a `replace` of a fact the
 * header XML repeats brings the XML's copy along when the XML holds it in words of its own
 * (follow_literal_copy), else the apostrophe marker (marker_followers). A diff leaves both out,
 * apply makes them. */
json_t *gbx_xml_followers(const rb_doc *doc, const char *kind, const char *path,
                          const json_t *value, char *why, size_t why_size)
{
    (void)why_size;
    why[0] = 0;
    if (!doc || !doc->root || !kind || strcmp(kind, "replace") != 0) return NULL;
    const rb_node *edited = rb_node_at(doc->root, path);
    const rb_node *chunks = rb_node_get(doc->root, "headerChunks");
    if (!edited || !chunks || chunks->kind != RB_K_LIST) return NULL;
    int apostrophe_gone = json_is_string(value) && !memchr(json_string_value(value), '\'', json_string_length(value));
    json_t *ops = NULL;
    for (size_t k = 0; k < chunks->v.kids.count; k++) {
        const rb_node *chunk = chunks->v.kids.items[k], *list = rb_node_get(chunk, "xmlTemplate");
        if (!list && !rb_node_get(chunk, "xml")) continue;
        json_t *rebuilt = NULL;
        for (size_t i = 0; i < XML_COPY_COUNT && !rebuilt; i++)
            if (fact_node(doc->root, &XML_COPIES[i]) == edited) rebuilt = follow_literal_copy(doc, chunk, k, &XML_COPIES[i]);
        if (rebuilt) {
            if (!ops) ops = json_array();
            json_array_extend(ops, rebuilt);
            json_decref(rebuilt);
        } else if (apostrophe_gone) marker_followers(doc, list, k, edited, &ops);
    }
    return ops;
}
