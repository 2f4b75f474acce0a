/*
 * What a format is: its hook table (rb_format), which core/registry/registry.c lists. Each format fills
 * one in its folder (docs/formats/adding.md); the engine calls the hooks and knows no format.
 */
#ifndef RB_FORMAT_H
#define RB_FORMAT_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "core/model/model.h"
#include "rebyte.h"

struct rb_ar;
struct rb_rule;
struct rb_plan;

/* A read-only view of a model by JSON pointers (plain indexes), so a hook reads the model
 * without walking its nodes (patch/in_step.c). */
typedef struct rb_model_view {
    const void *context;
    /* elements of the list at `pointer`; *present = 0 when there is none */
    size_t (*count)(const void *context, const char *pointer, int *present);
    /* the integer at `pointer` (a hex string as the model spells flags and ids counts); *present
     * = 0 when there is none */
    int64_t (*integer)(const void *context, const char *pointer, int *present);
    /* the value at `pointer` as the dump shows it (blobs as references; a new reference), NULL
     * when there is none: for a hook that must see all of an element (GBX: the nodes a copied
     * element defines) */
    json_t *(*json)(const void *context, const char *pointer);
} rb_model_view;

/* A natural key of a format's list elements (`diff --by-identity`, patch/portable.c): relative
 * pointers into an element ("" the element itself), NULL-terminated. Key sets are tried by rank,
 * lowest first, among the generic ones: "id" (rank 0), "name" (50), the element itself (100). */
typedef struct rb_key_set {
    int rank;
    const char *keys[5];
} rb_key_set;

/* A description: one structure, every direction (core/archive/archive.h). */
typedef void (*rb_describe_fn)(struct rb_ar *ar);

typedef struct rb_format {
    const char *name;
    const char *description;
    /* Confidence 0..100 that the bytes are this format (by content, never by name). */
    int (*detect)(const uint8_t *data, size_t size);
    /* The root description: drives every archive direction. */
    void (*describe)(struct rb_ar *ar);
    /* Optional: what `rebyte info` reports beyond the header (a JSON object), or NULL. */
    json_t *(*summary)(const struct rb_doc *doc);
    /* Optional, with summary: does the summary read this deferred unit? Info on a deferred
     * document reads those alone and no others (core/doc/info.c); NULL: it reads every one. */
    int (*summary_reads)(const struct rb_doc *doc, const rb_node *unit);
    /* Optional: after a read, before anyone sees the model (GBX: header copies equal to what the
     * writer derives from the body leave the model). */
    void (*after_read)(struct rb_doc *doc);
    /* Optional: is `node` a race recording (GBX: a ghost, a replay)? Records are never written
     * changed by a patch (patch/apply_recordings.c, docs/usage.md "Race recordings"). */
    int (*is_recording)(const rb_node *node);
    /* With is_recording: the encoding a recording is evidence in (GBX: "binary"). A model read from
     * another (GBX text, a view a person edits) proves nothing and is written in this one only
     * beside its original (core/doc/recording_guard.c). NULL: the format has one encoding. */
    const char *record_encoding;
    /* Optional: the operations (an RFC 6902 array, or NULL for none) that keep the data the format
     * holds beside a list in step when operation `kind` (remove, add, move, copy) changes element
     * `path` (from `from`; the new value `value`) of that list, read through `view` before the
     * operation (GBX: the per-block and per-item chunks of a map, core/gbx/map/map_parallel.c). */
    json_t *(*in_step)(const struct rb_model_view *view, const char *kind, const char *path, const char *from,
                       const json_t *value);
    /* Optional, with in_step: is `member` of `record` a value those operations give anew to
     * an element a copy puts in a list (GBX: a node definition's index)? A diff finds the
     * original of a copy without them (patch/model_diff.c copy_source). */
    int (*given_to_copies)(const rb_node *record, const rb_node *member);
    /* Optional: the operations (an RFC 6902 array, or NULL for none) that make every reference to
     * a value follow operation `kind` at plain `path` (new value `value`), for formats whose
     * references name a shared value by its content, read from `doc` before the operation
     * (data.win: what names a STRG string by its text follows a `replace` of that string's text,
     * datawin_follow.c; GBX: the header XML's apostrophe marker of an edited fact,
     * map_header_xml.c). NULL with `why` set refuses the operation, naming the references that
     * cannot follow. */
    json_t *(*followers)(const struct rb_doc *doc, const char *kind, const char *path,
                         const json_t *value, char *why, size_t why_size);
    /* Optional: the lists the writer completes from the rest of the model, as plain pointers
     * into `doc` (a JSON array, NULL for none): data.win's STRG strings gain each text a
     * reference names (datawin_strg.c), GROFF's name table is sorted and drops the names nothing
     * uses (groff.c). A diff leaves what changed there to the writer whenever apply then gives B
     * (patch/model_diff.c): a rename is one operation. */
    json_t *(*written_lists)(const struct rb_doc *doc);
    /* Optional, for formats whose fields hold symbol handles (RB_W_SYMBOL: Trespasser names):
     * the text a handle stands for (NULL when it has none, or when the text would not lead back
     * to this handle alone), and the handle of a text — found, or with `create` a new symbol the
     * model gets (0; -1 when there is none and `create` is 0, or it cannot be made). */
    const char *(*symbol_text)(const struct rb_doc *doc, uint32_t handle, size_t *length);
    int (*symbol_handle)(struct rb_doc *doc, const char *text, size_t length, int create, uint32_t *handle);
    /* Optional: after an edit of the model (each patch operation), and freeing what the format
     * keeps in rb_doc.format_index (a lookup built after a read and after each edit, never while
     * the model is only read). */
    void (*after_edit)(struct rb_doc *doc);
    void (*free_index)(void *index);
    /* Game rules (`rebyte check`, and apply refuses an edit that breaks one): core/doc/rules.h. */
    const struct rb_rule *(*rules)(size_t *count);
    /* Optional: the natural keys of the format's list elements (blocks by name and coordinates...). */
    const rb_key_set *identity_keys;
    size_t identity_key_count;
    /* Optional: named transforms (GBX: "downgrade-items") as an RFC 6902 patch over the model plus
     * a report of what it changes; 0, or -1 with `why`. */
    int (*transform)(const struct rb_doc *doc, const char *name, const json_t *options, json_t **patch,
                     json_t **report, char *why, size_t why_size);
    /* Optional, for formats with more than one encoding of the same model (GBX: binary, text):
     * the document's, and setting the one the next write uses (0, or -1 when unknown). */
    const char *(*encoding)(const struct rb_doc *doc);
    int (*set_encoding)(struct rb_doc *doc, const char *encoding);
    /* Optional, assets (`rebyte extract`, docs/usage.md "Assets"): hands every asset of the
     * document to `sink` (in model order; `only_kind` NULL for all); 0, or -1 with `why`. */
    int (*assets)(const struct rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context, char *why,
                  size_t why_size);
    /* Optional, the way back (`rebyte replace`, a patch value {"$file": ...}): the RFC 6902
     * operations that put `data`, a file of the kind extracted from `path`, into the model (a
     * PNG re-encoded to the page's stored form, a re-packed sprite item, ...); NULL with `why`
     * when it cannot (a picture of another palette, ...). `why` is left empty when `path` is no
     * asset's: a patch's {"$file"} value there stays the plain bytes of a blob. */
    json_t *(*asset_patch)(const struct rb_doc *doc, const char *path, const uint8_t *data, size_t size, char *why,
                           size_t why_size);
    /* Optional, with `assets` and the deferred model: may deferred unit `unit`, a child of
     * `parent`, hold something `assets` hands out? 0 lets rb_doc_extract leave it as its bytes, so an extraction reads
     * only the units that hold assets (docs/performance.md "Extract reads what it extracts");
     * NULL: every unit is expanded first. */
    int (*asset_unit)(const rb_node *unit, const rb_node *parent);
    /* Optional, for diffs (patch/model_diff_pictures.c): the pictures `assets` hands out as
     * "image" that are cut from a blob rather than being one (a sprite frame from its texture
     * page), to `sink` as their pixels instead of a PNG: `data` is the width and the height (u32
     * little-endian each), then RGBA rows, 4 bytes a pixel, and the PNG `assets` gives for the same
     * path is rb_png_from_rgba of them (core/doc/assets.h). Comparing two files' pictures then
     * needs no PNG of every picture of both. 0, or -1 with `why`. */
    int (*picture_pixels)(const struct rb_doc *doc, rb_asset_sink sink, void *context, char *why, size_t why_size);
    /* Optional: ids the format's eras store differently (GBX: a TM 2003-2006 chunk or class id)
     * are one id to a selector (docs/usage.md "Paths and selectors"): 1 when integer `member`
     * holds such an id, with its current form in *current (the value itself when it has no other);
     * and the other spellings of a current id (up to `max`), for messages: their count. */
    int (*era_id)(const rb_node *member, uint64_t value, uint64_t *current);
    size_t (*era_spellings)(uint64_t current, uint64_t *others, size_t max);
    /* Optional: the drafts the description builds on their own, for edits the model cannot take
     * the shape of (a new member, a version change: patch/model_draft.c). For a list of the
     * model, the description of one of its elements (it begins and ends the element's record
     * itself, and sets up any state of its own), or NULL when its elements are no drafts. Without
     * one around an edit, the document is the draft (GBX: the chunks of a node). */
    rb_describe_fn (*draft_description)(const rb_node *list);
    /* Optional: reads deferred unit `unit` (RB_K_DEFERRED, its start record set) again alone, the
     * archive's cursor on its bytes and its root standing in for the unit's container
     * (core/archive/archive_unit.c rb_doc_expand_unit): sets up the reader state the unit began with and
     * describes it. 0 when it cannot (no start record). */
    int (*read_unit)(struct rb_ar *ar, const rb_node *unit);
    /* Optional, for an edit that reaches no unit (patch/apply_kept.c;
     * docs/performance.md "An edit that reaches no unit"): the values outside the deferred units
     * that the units' reads take (JSON pointers, a list element by a selector `[key=value]`,
     * NULL-terminated; a value below one counts). NULL: not stated, every apply expands. */
    const char *const *unit_reads;
    /* Optional: member `key` of deferred unit `unit`, an element of `list`, as the node its read
     * would make, filled in `member` (caller memory; a string's bytes point into the unit's),
     * without reading the unit: 1 when the unit's bytes say it (a GBX body chunk's id, its first
     * four bytes; a data.win chunk's id, its first four letters), 0 when they do not. A selector
     * `[key=value]` over the list then compares it as it compares a node's member (a GBX id in
     * any era's spelling, era_id) and passes a unit that does not match without reading it: both
     * ways of an apply that leaves units deferred take it (patch/apply_units.c, apply_kept.c). */
    int (*unit_member)(const rb_node *list, const rb_node *unit, const char *key, rb_node *member);
    /* Optional: the document seen from above (`rebyte render`, core/model/plan.h): fills `plan`
     * with what it holds where (GBX: a map's blocks and items, a ghost's path; data.win: a
     * room's instances); 0, or -1 with `why` when it holds nothing to draw. */
    int (*plan)(const struct rb_doc *doc, struct rb_plan *plan, char *why, size_t why_size);
} rb_format;
#endif
