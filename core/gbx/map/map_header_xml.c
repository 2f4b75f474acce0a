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
#include "../../buf.h"
#include "map_header.h"

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

/* The first games (type="challenge", exever 0.x: TM Original, Sunrise, Nations ESWC) spell names
 * URL-style ("Paradise+Island"); from TMNF's 2.x on they are plain, XML-escaped. */
static int old_style(const uint8_t *xml, size_t size)
{
    static const char OLD[] = "<header type=\"challenge\"", EXEVER[] = " exever=\"0.";
    if (size < sizeof OLD - 1 || memcmp(xml, OLD, sizeof OLD - 1)) return 0;
    const uint8_t *end = memchr(xml, '>', size);
    size_t head = end ? (size_t)(end - xml) : size;
    for (size_t i = 0; i + sizeof EXEVER - 1 <= head; i++)
        if (!memcmp(xml + i, EXEVER, sizeof EXEVER - 1)) return 1;
    return 0;
}

static void put_encoded(rb_buf *out, const uint8_t *text, size_t size, int old)
{
    /* the game's strings may start with a byte-order mark; its XML never does */
    if (size >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF) {
        text += 3;
        size -= 3;
    }
    for (size_t i = 0; i < size; i++) {
        uint8_t c = text[i];
        const char *entity = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;" : NULL;
        if (old && c == ' ') rb_buf_put_u8(out, '+');
        else if (old && (entity || c == '%' || c == '+')) {
            char hex[4];
            snprintf(hex, sizeof hex, "%%%02X", c);
            rb_buf_put(out, hex, 3);
        } else if (entity) rb_buf_put(out, entity, strlen(entity));
        else rb_buf_put_u8(out, c);
    }
}

/* The engine's collection numbers (docs/formats/gbx.md "Collections"), as the XML names them. */
static const char *collection_name(uint64_t number)
{
    static const char *const NAMES[27] = {[0] = "Desert",  [1] = "Snow",     [2] = "Rally",    [3] = "Island",
                                          [4] = "Bay",     [5] = "Coast",    [6] = "Stadium",  [11] = "Valley",
                                          [12] = "Canyon", [13] = "Lagoon",  [26] = "Stadium"};
    return number < 27 ? NAMES[number] : NULL;
}

/* The mood the XML shows for a decoration: "48x48Day" and "Day48" are "Day". */
static void put_mood(rb_buf *out, const uint8_t *id, size_t size, int old)
{
    static const char BASE[] = "48x48";
    char text[256];
    size_t n = 0;
    for (size_t i = 0; i < size && n < sizeof text - 1; i++) {
        if (i + 5 <= size && !memcmp(id + i, BASE, 5)) {
            i += 4;
            continue;
        }
        text[n++] = (char)id[i];
    }
    if (n > 2 && text[n - 2] == '4' && text[n - 1] == '8') n -= 2;
    put_encoded(out, (const uint8_t *)text, n, old);
}

/* The text of copy `c` derived from the body of `file`; 0 when the body lacks the fact. */
static int put_fact(rb_buf *out, const rb_node *file, const struct xml_copy *c, int old)
{
    const rb_node *n = gbx_map_fact(file, c->fact, c->key);
    if (c->subkey) n = rb_node_get(n, c->subkey);
    if (!n) return 0;
    char number[24];
    switch (c->value) {
    case XML_LAPS: {
        const rb_node *laps = gbx_map_fact(file, c->fact, "isLapRace");
        if (n->kind != RB_K_INT || !laps) return 0;
        snprintf(number, sizeof number, "%u", rb_node_uint(laps) ? (unsigned)rb_node_uint(n) : 0u);
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
        put_encoded(out, n->v.bytes.data, n->v.bytes.size, old);
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
    if (c->value == XML_MOOD) put_mood(out, n->v.bytes.data, n->v.bytes.size, old);
    else put_encoded(out, n->v.bytes.data, n->v.bytes.size, old);
    return 1;
}

/* ---------- the chunk ---------- */

static int render_part(rb_ar *ar, rb_buf *xml, int *old, size_t index)
{
    if (rb_ar_next_is_string(ar)) {
        const rb_node *literal = rb_ar_string_detached(ar, NULL, NULL, 0);
        if (!literal) return 0;
        if (index == 0) *old = old_style(literal->v.bytes.data, literal->v.bytes.size);
        rb_buf_put(xml, literal->v.bytes.data, literal->v.bytes.size);
        return 1;
    }
    rb_ar_record_begin(ar, NULL);
    const rb_node *name = rb_ar_string_detached(ar, "derived", NULL, 0);
    rb_ar_record_end(ar);
    if (!name || rb_ar_direction(ar) != RB_AR_WRITE) return name != NULL;
    const struct xml_copy *c = copy_by_attribute(NULL, 0, (const char *)name->v.bytes.data, name->v.bytes.size);
    if (c && put_fact(xml, gbx_ctx_of(ar)->file, c, *old)) return 1;
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
    int old = 0;
    uint64_t n = rb_ar_list_begin_n(ar, "xmlTemplate", 0, 0);
    for (uint64_t i = 0; i < n && rb_ar_ok(ar); i++)
        if (!render_part(ar, &xml, &old, i)) break;
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

/* ---------- from a read XML to its template ---------- */

static int name_char(uint8_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

static int append_string(rb_doc *doc, rb_node *list, const char *key, const uint8_t *data, size_t size)
{
    rb_node *s = rb_node_new(&doc->arena, RB_K_STRING, key);
    if (!s) return 0;
    s->v.bytes.data = data;
    s->v.bytes.size = size;
    return rb_node_append(&doc->arena, list, s);
}

static int append_derived(rb_doc *doc, rb_node *list, const char *attribute)
{
    rb_node *r = rb_node_new(&doc->arena, RB_K_RECORD, NULL);
    return r && append_string(doc, r, "derived", (const uint8_t *)attribute, strlen(attribute)) &&
           rb_node_append(&doc->arena, list, r);
}

/* Is the value at [value, value_end) what the writer derives for `c`? */
static int derives_to(const rb_node *file, const struct xml_copy *c, int old, const uint8_t *value, size_t size)
{
    rb_buf text;
    rb_buf_init(&text);
    int same = put_fact(&text, file, c, old) && text.size == size && (size == 0 || !memcmp(text.data, value, size));
    rb_buf_free(&text);
    return same;
}

static void note_literal(rb_doc *doc, const char *attribute)
{
    char note[160];
    snprintf(note, sizeof note, "the header XML keeps its own %s=, which is not what the body gives (written back as it is)",
             attribute);
    rb_doc_add_note(doc, note);
}

rb_node *gbx_xml_template(rb_doc *doc, const rb_node *file, const rb_node *xml)
{
    const uint8_t *s = xml->v.bytes.data;
    size_t n = xml->v.bytes.size, literal_from = 0, element_len = 0, derived = 0;
    const uint8_t *element = NULL;
    int old = old_style(s, n);
    rb_node *list = rb_node_new(&doc->arena, RB_K_LIST, "xmlTemplate");
    if (!list) return NULL;
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
        if (value_end >= n) break;
        const struct xml_copy *c = copy_by_attribute((const char *)element, element_len, (const char *)s + a, i - a);
        int derived_here = c && derives_to(file, c, old, s + value, value_end - value);
        if (c && !derived_here) note_literal(doc, c->attribute);
        if (derived_here) {
            if (!append_string(doc, list, NULL, s + literal_from, value - literal_from) ||
                !append_derived(doc, list, c->attribute))
                return NULL;
            literal_from = value_end;
            derived++;
        }
        i = value_end;
    }
    if (!derived || !append_string(doc, list, NULL, s + literal_from, n - literal_from)) return NULL;
    return list;
}
