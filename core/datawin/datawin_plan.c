/*
 * A data.win room seen from above (core/model/plan.h, docs/render.md): the first room that
 * has instances, each instance a mark where it stands, the room's size as the frame (pixels,
 * y down in the game, drawn north up).
 */
#include <stdio.h>
#include "core/model/plan.h"
#include "core/datawin/datawin.h"

/* The ROOM chunk's rooms and that chunk's index. */
static const rb_node *rooms_of(const rb_doc *doc, size_t *chunk)
{
    const rb_node *chunks = rb_node_get(doc->root, "chunks");
    for (size_t i = 0; chunks && chunks->kind == RB_K_LIST && i < chunks->v.kids.count; i++) {
        const rb_node *rooms = rb_node_get(chunks->v.kids.items[i], "rooms");
        if (rooms && rooms->kind == RB_K_LIST) {
            *chunk = i;
            return rooms;
        }
    }
    return NULL;
}

int datawin_plan(const rb_doc *doc, rb_plan *plan, char *why, size_t why_size)
{
    size_t chunk = 0;
    const rb_node *rooms = rooms_of(doc, &chunk);
    for (size_t r = 0; rooms && r < rooms->v.kids.count; r++) {
        const rb_node *room = rooms->v.kids.items[r], *instances = rb_node_get(room, "instances");
        if (!instances || instances->kind != RB_K_LIST || !instances->v.kids.count) continue;
        double height = (double)rb_node_uint(rb_node_get(room, "height"));
        plan->size[0] = (float)rb_node_uint(rb_node_get(room, "width"));
        plan->size[2] = (float)height;
        plan->unit = "px";
        size_t n;
        const uint8_t *name = rb_node_bytes(rb_node_get(room, "name"), &n);
        snprintf(plan->title, sizeof plan->title, "room %zu %.*s", r, name ? (int)n : 0, name ? (const char *)name : "");
        char pointer[96];
        snprintf(pointer, sizeof pointer, "/chunks/%zu/rooms/%zu/instances", chunk, r);
        uint32_t list = rb_plan_list(plan, pointer, instances->v.kids.count);
        for (size_t i = 0; i < instances->v.kids.count; i++) {
            const rb_node *instance = instances->v.kids.items[i];
            rb_plan_element e = {(float)rb_node_int(rb_node_get(instance, "x")), 0,
                                 (float)(height - (double)rb_node_int(rb_node_get(instance, "y"))), RB_PLAN_ITEM, 1, 0,
                                 list, (uint32_t)i};
            rb_plan_add(plan, &e);
        }
        return 0;
    }
    snprintf(why, why_size, "no room of the data.win has instances");
    return -1;
}
