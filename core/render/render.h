/*
 * A document seen from above, drawn (render.c). The public rb_doc_render (patch/render_api.c)
 * takes the options here, works out a diff's other side above the patch engine, and hands it
 * down as data: this layer draws what it is given and calls nothing of patch/ (docs/api.md
 * "Where the code is").
 */
#ifndef RB_RENDER_H
#define RB_RENDER_H
#include <jansson.h>
#include "core/doc/doc.h"

/* What a diff drawn over the document leads to. */
typedef struct rb_render_diff {
    const rb_doc *after; /* the other file (navigable), whose plan places what was added or moved */
    const json_t *ops;   /* the plain operations that turn the document into `after` */
} rb_render_diff;

/* The caller's `options` copied into `o` (across the struct's versions) and checked, and the
 * document expanded: its plan walks nodes. RB_OK, or the refusal in `err`. */
rb_status rb_render_start(rb_doc *doc, const rb_render_options *options, rb_render_options *o, rb_error *err);

/* The PNG of `doc` by `o` (a map under a ghost's path: o->over), with `diff`'s changes on it
 * when `diff` is not NULL; the report as JSON when `report_json` is not NULL. */
rb_status rb_render_draw(const rb_doc *doc, const rb_render_options *o, const rb_render_diff *diff, uint8_t **png,
                         size_t *png_size, char **report_json, rb_error *err);
#endif
