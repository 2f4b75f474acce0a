/*
 * The model as the expansion of "each", "offset" and names sees it (patch/each.c): what is at a
 * plain path, the elements a selector names (through the list's index, patch/model_select.c,
 * values compared by wire type as for one match), and a value plus an offset computed in the
 * field's type (patch/offset.c). A path into a draft held as JSON (patch/model_draft.c) is
 * answered from that JSON.
 */
#include "patch/model_edit.h"
#include <stdio.h>
#include <stdlib.h>
#include "patch/model_select.h"
#include "patch/model_draft.h"
#include "patch/offset.h"
#include "patch/selector.h"

typedef struct found {
    rb_model_place place;
    rb_node *node;   /* a node of the model, or NULL */
    json_t *in_draft; /* else the JSON value in a draft (borrowed), or NULL: nothing there */
} found;

static void locate(rb_doc *doc, const char *path, found *f)
{
    rb_buf plain;
    rb_buf_init(&plain);
    char why[1024];
    f->node = NULL;
    f->in_draft = NULL;
    int rc = rb_model_locate(doc, path, &f->place, &plain, why, sizeof why);
    if (rc == RB_MODEL_IN_DRAFT) f->in_draft = rb_drafts_value(doc, f->place.node, f->place.rest);
    else if (rc == 0 && f->place.node && doc->drafts && rb_drafts_holds(doc, f->place.node))
        f->in_draft = rb_drafts_value(doc, f->place.node, "");
    else if (rc == 0) f->node = f->place.node;
    rb_buf_free(&plain);
}

static int is_list(const rb_node *n) { return n->kind == RB_K_LIST || n->kind == RB_K_TABLE; }

static int list_on_model(void *context, const char *path, size_t *length)
{
    found f;
    locate(context, path, &f);
    int rc = f.node ? is_list(f.node) : f.in_draft ? json_is_array(f.in_draft) : -1;
    if (rc == 1) *length = f.node ? rb_element_count(f.node) : json_array_size(f.in_draft);
    rb_model_place_free(&f.place);
    return rc;
}

static int select_on_model(void *context, const char *path, const char *selector, int each, size_t **indexes,
                           size_t *count, char *why, size_t why_size)
{
    rb_doc *doc = context;
    found f;
    locate(doc, path, &f);
    int rc = -1;
    *indexes = NULL;
    *count = 0;
    if (f.node && rb_table_expand(f.node)) {
        if (each) {
            rc = rb_model_select_all(doc, f.node, path, selector, indexes, count, why, why_size);
        } else if ((*indexes = malloc(sizeof(size_t)))) {
            *count = 1;
            rc = rb_model_select(doc, f.node, path, selector, path, *indexes, why, why_size);
        }
    } else if (f.in_draft && rb_json_select_all(f.in_draft, selector, indexes, count) == 0) {
        rc = each || *count == 1 ? 0 : -1;
        if (rc != 0)
            rb_selector_refuse(why, why_size, selector, path, *count, "");
    } else {
        snprintf(why, why_size, "out of memory");
    }
    if (rc != 0) {
        free(*indexes);
        *indexes = NULL;
        *count = 0;
    }
    rb_model_place_free(&f.place);
    return rc;
}

static json_t *offset_on_model(void *context, const char *path, const json_t *by, char *why, size_t why_size)
{
    rb_doc *doc = context;
    found f;
    locate(doc, path, &f);
    json_t *sum = f.node      ? rb_offset_node(doc, f.node, by, path, why, why_size)
                  : f.in_draft ? rb_offset_json(f.in_draft, by, path, why, why_size)
                              : NULL;
    if (!f.node && !f.in_draft) snprintf(why, why_size, "%s does not exist", path);
    rb_model_place_free(&f.place);
    return sum;
}

rb_each_source rb_each_model_source(rb_doc *doc)
{
    return (rb_each_source){doc, list_on_model, select_on_model, offset_on_model};
}
