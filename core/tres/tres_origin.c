/*
 * `rebyte info` "origin" of the Trespasser formats: the game and which of its files this is (a
 * level, a scene or saved game, textures, sounds, terrain), told from the content.
 */
#include <string.h>
#include "core/json/json.h"
#include "core/tres/tres.h"

json_t *tres_origin(const char *file_kind, const char *detected_from)
{
    return json_pack("{s:s,s:s,s:s,s:s}", "game", "Trespasser (DreamWorks Interactive, 1998)", "era",
                     "Trespasser 1.0-1.1", "file_kind", file_kind, "detected_from", detected_from);
}

/* Does a section of the GROFF container have the name `name` (its symbol's text)? */
static int has_section(const rb_doc *doc, const rb_node *n, const char *name, unsigned depth)
{
    if (!n || depth > 4) return 0;
    if (n->kind == RB_K_INT && RB_WIRE_IS_SYMBOL(n->wire) && doc->format->symbol_text) {
        size_t length;
        const char *text = doc->format->symbol_text(doc, (uint32_t)n->v.bits, &length);
        return text && length == strlen(name) && !memcmp(text, name, length);
    }
    if (n->kind == RB_K_STRING) return rb_node_text_is(n, name);
    if (n->kind != RB_K_RECORD && n->kind != RB_K_LIST && n->kind != RB_K_STREAM) return 0;
    size_t count = n->v.kids.count < 64 ? n->v.kids.count : 64;
    for (size_t i = 0; i < count; i++)
        if (has_section(doc, n->v.kids.items[i], name, depth + 1)) return 1;
    return 0;
}

json_t *groff_summary(const rb_doc *doc)
{
    json_t *out = json_object();
    const char *kind = "a GROFF container", *from = "the GROFF header";
    if (has_section(doc, doc->root, "Partitions", 0))
        kind = "a scene or saved game (.scn)", from = "its Partitions section";
    else if (has_section(doc, doc->root, ".region", 0))
        kind = "a level (.grf)", from = "its .region section";
    json_object_set_new(out, "origin", tres_origin(kind, from));
    return out;
}

json_t *tres_summary_pid(const rb_doc *doc)
{
    return json_pack("{s:o}", "origin", tres_origin("a texture directory (.pid)", "the .pid header"));
}

json_t *tres_summary_spz(const rb_doc *doc)
{
    return json_pack("{s:o}", "origin", tres_origin("a packed texture swap file (.spz)", "the LZSS-packed content"));
}

json_t *tres_summary_tpa(const rb_doc *doc)
{
    return json_pack("{s:o}", "origin", tres_origin("a packed audio file (.tpa)", "the .tpa header, version 0x150"));
}
