/*
 * What the writer or apply derives, settled (docs/usage.md "Diffs"): the walk's operations
 * (model_diff.c) become the patch apply takes. Apply keeps the data a format holds beside a list
 * in step with every edit of the list (rb_format.in_step: a map's per-item and per-block
 * chunks, its index lists), and the writer completes some lists from the rest of the model
 * (rb_format.written_lists: a string table, a name table); the walk's operations there are
 * dropped, the rest is applied to a fresh read of A exactly as apply does it, and what still
 * differs (a in-step value the user changed) is diffed again from there. Then the pins a
 * shared diff carries.
 */
#include <stdlib.h>
#include <string.h>
#include "patch/in_step.h"
#include "patch/identity.h"
#include "patch/model_diff.h"
#include "patch/model_diff_origins.h"
#include "patch/model_edit.h"
#include "patch/portable.h"
#include "patch/model_select.h"
#include "core/doc/doc.h"
#include "core/json/json.h"
#include "core/model/model_equal.h"

/* The text in `b` (a NUL put after it, not counted). */
static const char *text_of(rb_buf *b)
{
    rb_buf_put_u8(b, 0);
    b->size--;
    return (const char *)b->data;
}

/* ---------- what apply derives, settled ---------- */

/* What of the lists the writer completes (rb_format.written_lists) a diff leaves to it. */
enum { LEAVE_NOTHING, LEAVE_ELEMENTS, LEAVE_ALL };

static int is_list_edit(const char *kind)
{
    return kind && (!strcmp(kind, "remove") || !strcmp(kind, "add") || !strcmp(kind, "move") || !strcmp(kind, "copy"));
}

/* How much of the plain `path` leads to the deepest list on its way in `doc` (the list a
 * in-step operation edits, or the one holding the element it renumbers). */
enum { PATH_DEPTH = 32 };
static size_t list_part(const rb_doc *doc, const char *path)
{
    rb_record_scratch scratch[PATH_DEPTH];
    const rb_node *n = doc->root;
    size_t part = 0;
    const char *p = path;
    for (int depth = 0; n && *p == '/' && depth < PATH_DEPTH; depth++) {
        size_t len = strcspn(p + 1, "/");
        char token[160];
        if (len + 2 > sizeof token) break;
        snprintf(token, sizeof token, "/%.*s", (int)len, p + 1);
        if (n->kind == RB_K_LIST || n->kind == RB_K_TABLE) part = (size_t)(p - path);
        n = rb_identity_walk(n, token, &scratch[depth]);
        p += len + 1;
    }
    return part;
}

/* Does `path` lie in one of `regions` (plain list pointers)? */
static int in_region(const json_t *regions, const char *path)
{
    for (size_t i = 0; path && i < json_array_size(regions); i++) {
        const char *r = json_string_value(json_array_get(regions, i));
        size_t n = strlen(r);
        if (strncmp(path, r, n) == 0 && (path[n] == '/' || path[n] == 0)) return 1;
    }
    return 0;
}

enum { EDITS_ASKED = 1024 }; /* see follower_places */

/* The operations a `replace` at plain `path` brings along in `doc` (rb_format.followers: a
 * data.win string's references follow its text), read before it as apply does
 * (patch/apply.c follower_ops); NULL when there are none, and NULL with `why` set when the
 * format refuses the replace. */
static json_t *followers_of(const rb_doc *doc, const json_t *op, const char *path, char *why, size_t why_size)
{
    why[0] = 0;
    const char *kind = json_string_value(json_object_get(op, "op"));
    if (!doc->format->followers || !path || !kind || strcmp(kind, "replace") != 0) return NULL;
    return doc->format->followers(doc, kind, path, json_object_get(op, "value"), why, why_size);
}

/* The places the followers of the walk's replaces (read on A) reach: what they set there is
 * derived from the replace, so the walk's own operation there is left out (one string edit is
 * one `replace`, not one more per reference). Appended to `places`. */
static void follower_places(const rb_doc *a, const json_t *ops, const json_t *plains, json_t *places)
{
    for (size_t i = 0, asked = 0; a->format->followers && i < json_array_size(ops) && asked < EDITS_ASKED; i++) {
        char why[512];
        const json_t *op = json_array_get(ops, i);
        if (strcmp(json_string_value(json_object_get(op, "op")), "replace") != 0) continue;
        asked++;
        json_t *more = followers_of(a, op, json_string_value(json_object_get(json_array_get(plains, i), "path")), why,
                                    sizeof why);
        for (size_t k = 0; k < json_array_size(more); k++) {
            const char *path = json_string_value(json_object_get(json_array_get(more, k), "path"));
            if (path && !in_region(places, path)) json_array_append_new(places, json_string(path));
        }
        json_decref(more);
    }
}

/* The lists apply keeps in step by itself with the walk's list edits (rb_format.in_step),
 * read on A: the walk's operations there are derived data. The format is asked about every list
 * edit, as apply asks about every operation of the patch: which lists follow an edit can depend
 * on the element (GBX: only a free block has a position in 0x0304305F), and a list never asked
 * about would keep the walk's own operations there, which apply then makes twice. */
static json_t *derived_regions(const rb_doc *a, const json_t *ops, const json_t *plains)
{
    json_t *regions = json_array();
    follower_places(a, ops, plains, regions);
    if (!a->format->in_step) return regions;
    rb_model_view view = in_step_model_view(a);
    diff_origins origins = {0};
    for (size_t i = 0; i < json_array_size(ops); i++) {
        const json_t *op = json_array_get(ops, i), *plain = json_array_get(plains, i);
        const char *kind = json_string_value(json_object_get(op, "op"));
        if (!is_list_edit(kind)) continue;
        const char *sequential = json_string_value(json_object_get(plain, "path"));
        const char *sequential_from = json_string_value(json_object_get(plain, "from"));
        /* asked on A as it was: at the places the elements have in A */
        char path_in_a[512], from_in_a[512];
        const char *path = sequential && diff_origins_in_a(&origins, sequential, path_in_a, sizeof path_in_a) ? path_in_a : sequential;
        const char *from = sequential_from && diff_origins_in_a(&origins, sequential_from, from_in_a, sizeof from_in_a) ? from_in_a : sequential_from;
        /* what an add or a copy brings along may depend on the element too (GBX: the nodes it defines) */
        int whole = !strcmp(kind, "add") || !strcmp(kind, "copy");
        json_t *extra = in_step_ops_for(a->format, &view, op, path, from);
        json_t *own = whole && path ? json_pack("[s]", path) : NULL;
        for (size_t k = 0; k < json_array_size(extra); k++) {
            const char *path = json_string_value(json_object_get(json_array_get(extra, k), "path"));
            /* what they set inside the element the add or copy puts there (its node indices) is
             * part of that operation: the walk has nothing there, and the operation stays */
            if (!path || in_region(own, path) || in_region(regions, path)) continue;
            size_t part = list_part(a, path);
            /* a value outside any list (GBX: the node count an added node raises) is derived itself */
            json_t *region = part ? json_stringn(path, part) : json_string(path);
            if (!in_region(regions, json_string_value(region))) json_array_append(regions, region);
            json_decref(region);
        }
        json_decref(extra);
        json_decref(own);
        diff_origins_edit(&origins, &view, kind, sequential, sequential_from);
    }
    diff_origins_free(&origins);
    return regions;
}

/* One operation on the work model as apply does it: the format's in-step operations (of a
 * list edit) or followers (of a replace) are read before it and applied after it
 * (patch/apply.c operation_on_model). */
static int replay(rb_doc *work, const json_t *op, char *why, size_t why_size)
{
    const char *kind = json_string_value(json_object_get(op, "op"));
    if (kind && !strcmp(kind, "test")) return 0;
    json_t *extra = NULL;
    if (work->format->in_step && is_list_edit(kind)) {
        char *plain[2] = {NULL, NULL};
        const char *paths[2] = {json_string_value(json_object_get(op, "path")),
                                json_string_value(json_object_get(op, "from"))};
        for (int k = 0; k < 2; k++) {
            if (!paths[k]) continue;
            rb_model_place place = {0};
            rb_buf resolved;
            rb_buf_init(&resolved);
            if (rb_model_locate(work, paths[k], &place, &resolved, why, why_size) == 0)
                plain[k] = strdup(text_of(&resolved));
            rb_model_place_free(&place);
            rb_buf_free(&resolved);
        }
        rb_model_view view = in_step_model_view(work);
        if (plain[0]) extra = in_step_ops_for(work->format, &view, op, plain[0], plain[1]);
        free(plain[0]);
        free(plain[1]);
    }
    if (!extra && work->format->followers && kind && !strcmp(kind, "replace")) {
        rb_model_place place = {0};
        rb_buf resolved;
        rb_buf_init(&resolved);
        int found = rb_model_locate(work, json_string_value(json_object_get(op, "path")), &place, &resolved, why,
                                    why_size) == 0;
        rb_model_place_free(&place);
        extra = found ? followers_of(work, op, text_of(&resolved), why, why_size) : NULL;
        rb_buf_free(&resolved);
        if (found && !extra && why[0]) return -1; /* refused, as apply refuses it */
    }
    char *resolved = NULL;
    int rc = rb_model_apply_op(work, op, &resolved, why, why_size);
    free(resolved);
    for (size_t k = 0; rc == 0 && k < json_array_size(extra); k++) {
        rc = rb_model_apply_op(work, json_array_get(extra, k), &resolved, why, why_size);
        free(resolved);
    }
    json_decref(extra);
    return rc;
}

/* The pins of a shared diff taken as the settling replays the patch (rb_model_diff_pin's, on the
 * same states, without a replay of their own): `ops` NULL when not asked; `broken` once apply had
 * to run the patch, or the patch was not replayed (the state before each operation is then not
 * known: rb_model_diff_pin replays it). */
typedef struct pin_log {
    json_t *ops;
    int broken;
    int own_changed; /* the settling replayed on the caller's own model of A */
} pin_log;

static void pin_operation(rb_doc *work, const json_t *op, json_t *out);

/* Applies `ops` to `work`, appending to `out` those that apply (with the pin before each), and
 * to `pins` each one with the pins of what it touches before it. Returns how many did not. */
static size_t replay_all(rb_doc *work, const json_t *ops, json_t *out, pin_log *pins)
{
    const json_t *pin = NULL;
    size_t refused = 0;
    for (size_t i = 0; i < json_array_size(ops); i++) {
        const json_t *op = json_array_get(ops, i);
        if (!strcmp(json_string_value(json_object_get(op, "op")), "test")) {
            pin = op;
            continue;
        }
        char why[512];
        int pinning = pins->ops && !pins->broken;
        if (pinning) pin_operation(work, op, pins->ops);
        if (replay(work, op, why, sizeof why) == 0) {
            if (pin) json_array_append(out, (json_t *)pin);
            json_array_append(out, (json_t *)op);
            if (pinning) json_array_append(pins->ops, (json_t *)op);
        } else {
            refused++;
        }
        pin = NULL;
    }
    return refused;
}

/* Is the walk's operation (by its `plain` paths) an element added to, removed from, moved or
 * copied in one of `lists` (plain pointers)? Its elements' values are facts; which elements a
 * list the writer completes has, and where, are not (rb_format.written_lists). */
static int edits_elements_of(const json_t *lists, const json_t *op, const json_t *plain)
{
    if (!is_list_edit(json_string_value(json_object_get(op, "op")))) return 0;
    const char *paths[2] = {json_string_value(json_object_get(plain, "path")), json_string_value(json_object_get(plain, "from"))};
    for (int k = 0; k < 2; k++) {
        const char *slash = paths[k] ? strrchr(paths[k], '/') : NULL;
        for (size_t i = 0; slash && i < json_array_size(lists); i++) {
            const char *list = json_string_value(json_array_get(lists, i));
            if (strlen(list) == (size_t)(slash - paths[k]) && !strncmp(paths[k], list, (size_t)(slash - paths[k])))
                return 1;
        }
    }
    return 0;
}

/* The operations of the walk that apply takes as they are: not in a list it keeps in step
 * itself (`regions`), and not what is left to the writer of the lists it completes (`written`:
 * by `leave`, all they change, or which elements they have and where).
 * With `symbols_only`, only the replaced symbol handles (and their pins): a name given to one
 * object makes or drops entries of the symbol table, so the table is compared again after them. */
static json_t *first_pass(const rb_doc *a, const json_t *ops, const json_t *plains, const json_t *regions,
                          const json_t *written, int leave, int symbols_only)
{
    json_t *kept = json_array();
    diff_origins origins = {0}; /* regions are at A's places (derived_regions) */
    rb_model_view view = in_step_model_view(a);
    for (size_t i = 0; i < json_array_size(ops); i++) {
        const json_t *plain = json_array_get(plains, i);
        const char *path = json_string_value(json_object_get(plain, "path"));
        const char *kind = json_string_value(json_object_get(json_array_get(ops, i), "op"));
        char in_a[512];
        int derived = regions && in_region(regions, path && diff_origins_in_a(&origins, path, in_a, sizeof in_a) ? in_a : path);
        if (regions && is_list_edit(kind))
            diff_origins_edit(&origins, &view, kind, path, json_string_value(json_object_get(plain, "from")));
        if (derived || (leave == LEAVE_ALL && in_region(written, path))) continue;
        if (leave == LEAVE_ELEMENTS && edits_elements_of(written, json_array_get(ops, i), plain)) continue;
        int pin = !strcmp(json_string_value(json_object_get(json_array_get(ops, i), "op")), "test");
        size_t at = pin && i + 1 < json_array_size(ops) ? i + 1 : i; /* a pin goes with its replace */
        if (symbols_only && !json_is_true(json_object_get(json_array_get(plains, at), "symbol"))) continue;
        json_array_append(kept, json_array_get(ops, i));
    }
    diff_origins_free(&origins);
    return kept;
}

/* The lists the writer completes (rb_format.written_lists) in `doc`, as plain pointers. */
static json_t *written_lists(const rb_doc *doc)
{
    json_t *lists = doc->format->written_lists ? doc->format->written_lists(doc) : NULL;
    return lists ? lists : json_array();
}

/* Does an operation of the walk change what `leave` leaves to the writer of `lists`? */
static int any_left(const json_t *ops, const json_t *plains, const json_t *lists, int leave)
{
    for (size_t i = 0; json_array_size(lists) && i < json_array_size(ops); i++) {
        const json_t *plain = json_array_get(plains, i);
        if (leave == LEAVE_ALL ? in_region(lists, json_string_value(json_object_get(plain, "path")))
                               : edits_elements_of(lists, json_array_get(ops, i), plain))
            return 1;
    }
    return 0;
}

static int any_symbol_use(const json_t *plains)
{
    for (size_t i = 0; i < json_array_size(plains); i++)
        if (json_is_true(json_object_get(json_array_get(plains, i), "symbol"))) return 1;
    return 0;
}

/* The model the patch made so far turns A into: a copy of A's model edited by the model engine
 * (or A's model itself, `borrowed`: the caller's, not freed here), or what apply wrote (then
 * `bytes` holds the file it was read from). */
typedef struct work_model {
    rb_doc *doc;
    uint8_t *bytes;
    int borrowed;
    rb_error refusal; /* why apply last refused the patch so far */
} work_model;

/* `ops` replayed on the work model and appended to `done` (the patch so far). Where the model
 * engine refuses one (an element only the format's description can build: a block whose
 * members differ from its neighbours'), apply runs the whole patch on A's file and its result is
 * the work model from then on. -1 when apply refuses it too. */
static int settle_step(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, work_model *work, const json_t *ops,
                       json_t *done, pin_log *pins)
{
    size_t before = json_array_size(done);
    if (replay_all(work->doc, ops, done, pins) == 0) return 0;
    pins->broken = 1;
    while (json_array_size(done) > before) json_array_remove(done, json_array_size(done) - 1);
    json_array_extend(done, (json_t *)ops);
    uint8_t *bytes;
    rb_doc *applied = rb_model_diff_applied(a, a_bytes, a_size, done, &bytes, &work->refusal);
    if (!applied) return -1;
    if (!work->borrowed) rb_doc_free(work->doc);
    free(work->bytes);
    work->doc = applied;
    work->bytes = bytes;
    work->borrowed = 0;
    return 0;
}

enum { SETTLE_ROUNDS = 3 };

/* The walk of the work model against B, without what `leave` leaves to the writer: NULL when
 * out of memory. */
static json_t *walk_again(const work_model *work, const rb_doc *b, int mode, int index_paths, int leave)
{
    json_t *more = json_array(), *plains = json_array(), *kept = NULL;
    if (rb_model_diff_walk(work->doc, work->doc->root, b, b->root, more, plains, "", mode, index_paths) == 0) {
        json_t *written = written_lists(work->doc);
        kept = first_pass(work->doc, more, plains, NULL, written, leave, 0);
        json_decref(written);
    }
    json_decref(more);
    json_decref(plains);
    return kept;
}

/* Does apply refuse what the patch makes (a changed race record, a broken game rule, a limit),
 * which any patch to B makes too, rather than an operation of it (RB_E_MODEL: the diff's own
 * fault)? */
static int refuses_b_itself(const rb_error *refusal)
{
    return refusal->status == RB_E_UNSUPPORTED || refusal->status == RB_E_RULE || refusal->status == RB_E_LIMIT;
}

/* The walk without what apply derives, applied to a fresh read of A; what then still differs (a
 * in-step value the user changed, a symbol table after new names) is walked again from
 * there. By `*leave`, what differs in the lists the writer completes (rb_format.written_lists:
 * a string table, a name table) is left to the writer, and apply proves that it gives B; it is
 * set to LEAVE_NOTHING when the walk does not change what it would leave. NULL when the
 * result is not B; then *final is set when no other way of diffing can do better (apply refuses
 * what B is, not how the patch spells it). */
static json_t *settled(const rb_doc *a, rb_doc *own, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, int mode,
                       int index_paths, int apply_decides, int *leave, int *final, pin_log *pins, char *why,
                       size_t why_size)
{
    json_t *ops = json_array(), *plains = json_array(), *regions = NULL, *out = NULL, *kept = NULL, *written = NULL;
    work_model work = {NULL, NULL, 0};
    if (rb_model_diff_walk(a, a->root, b, b->root, ops, plains, "", mode, index_paths) != 0) {
        snprintf(why, why_size, "out of memory");
        goto done;
    }
    regions = derived_regions(a, ops, plains);
    written = written_lists(a);
    if (!any_left(ops, plains, written, *leave)) *leave = LEAVE_NOTHING; /* diffed as any list is */
    int leave_written = *leave;
    int symbols = any_symbol_use(plains);
    if (!json_array_size(regions) && !symbols && !leave_written && !(mode & RB_MODEL_DIFF_IDENTITY)) { /* nothing derived: the walk is it */
        pins->broken = 1;
        out = json_incref(ops);
        goto done;
    }
    /* A's model (a copy, or the caller's own after the walk), not the file read again */
    work.borrowed = pins->own_changed = own != NULL;
    if (!(work.doc = own ? own : rb_doc_copy_model(a))) {
        snprintf(why, why_size, "out of memory");
        goto done;
    }
    kept = first_pass(a, ops, plains, regions, written, leave_written, symbols);
    out = json_array();
    int refused = settle_step(a, a_bytes, a_size, &work, kept, out, pins) != 0;
    for (int round = 0; round < SETTLE_ROUNDS && !refused && !rb_model_same(work.doc->root, b->root); round++) {
        json_t *more = walk_again(&work, b, mode, index_paths, leave_written);
        int rest = more && json_array_size(more);
        refused = !more || (rest && settle_step(a, a_bytes, a_size, &work, more, out, pins) != 0);
        json_decref(more);
        if (!rest) break;
    }
    if (!refused && rb_model_same(work.doc->root, b->root)) goto done;
    if (!refused && leave_written && rb_model_diff_proven(a, a_bytes, a_size, b, out)) goto done;
    if (refused && refuses_b_itself(&work.refusal)) {
        snprintf(why, why_size, "no patch can turn %s into %s, as apply refuses what it would write: %s", a->file_name,
                 b->file_name, work.refusal.message);
        *final = 1;
        json_decref(out);
        out = NULL;
        goto done;
    }
    /* an operation neither the model engine nor apply could replay: apply as a whole decides
     * (when asked: by identity, addressing by index is tried first, as that replays on the model) */
    json_decref(out);
    json_decref(kept);
    out = NULL;
    pins->broken = 1;
    kept = first_pass(a, ops, plains, regions, written, leave_written, 0);
    if (apply_decides && rb_model_diff_proven(a, a_bytes, a_size, b, kept)) out = json_incref(kept);
    else if (refused && work.refusal.message[0]) /* apply refused the walk's operations: that is the reason */
        snprintf(why, why_size, "no patch found that turns %s into %s: apply refuses the operations the diff finds: %s",
                 a->file_name, b->file_name, work.refusal.message);
    else snprintf(why, why_size, "internal: the diff does not turn %s into %s", a->file_name, b->file_name);
done:
    if (!work.borrowed) rb_doc_free(work.doc);
    free(work.bytes);
    json_decref(kept);
    json_decref(written);
    json_decref(regions);
    json_decref(plains);
    json_decref(ops);
    return out;
}

/* ---------- pins: what each operation touches, as it is when the operation runs ---------- */

/* A "test" of what is at `path` on the work model now (its value, or the digest of a large one),
 * appended to `out`; nothing when the place does not exist (a new member, the end of a list). */
static void pin_place(rb_doc *work, const char *path, json_t *out)
{
    size_t length = path ? strlen(path) : 0;
    if (!path || (length >= 2 && strcmp(path + length - 2, "/-") == 0)) return;
    const json_t *last = json_array_get(out, json_array_size(out) - 1);
    const char *last_kind = json_string_value(json_object_get(last, "op"));
    if (last_kind && !strcmp(last_kind, "test") && !strcmp(json_string_value(json_object_get(last, "path")), path))
        return; /* pinned already (a copy before its own source) */
    rb_model_place place = {0};
    rb_buf plain;
    rb_buf_init(&plain);
    char why[256];
    if (rb_model_locate(work, path, &place, &plain, why, sizeof why) == 0 && place.node) {
        json_t *value = rb_pin_value(rb_content_json(work, place.node));
        if (value) json_array_append_new(out, json_pack("{s:s,s:s,s:o}", "op", "test", "path", path, "value", value));
    }
    rb_model_place_free(&place);
    rb_buf_free(&plain);
}

/* A byte range replaced ({"$splice"}) is pinned by the bytes it replaces, spelled as a range
 * too: a base whose blob holds them there takes it (another build with that texture where it
 * was), any other is refused. */
static void pin_range(rb_doc *work, const json_t *op, json_t *out)
{
    const char *path = json_string_value(json_object_get(op, "path"));
    rb_model_place place = {0};
    rb_buf plain;
    rb_buf_init(&plain);
    char why[256];
    rb_splice range = {0};
    if (rb_model_locate(work, path, &place, &plain, why, sizeof why) == 0 && place.node &&
        rb_splice_of(place.node, json_object_get(op, "value"), &range, why, sizeof why) > 0) {
        char *text = malloc(4 * ((range.size + 2) / 3) + 1);
        size_t n = text ? rb_base64_encode(place.node->v.bytes.data + range.at, range.size, text) : 0;
        if (text)
            json_array_append_new(out, json_pack("{s:s,s:s,s:{s:{s:I,s:I,s:s%}}}", "op", "test", "path", path, "value",
                                                 "$splice", "at", (json_int_t)range.at, "size", (json_int_t)range.size,
                                                 "$base64", text, n));
        free(text);
    }
    free(range.bytes);
    rb_model_place_free(&place);
    rb_buf_free(&plain);
}

/* The pins of one operation: the value it replaces or removes, the element it copies or moves,
 * and the element an addition is inserted before (a move's target counts after its removal: its
 * source is pinned). */
static void pin_operation(rb_doc *work, const json_t *op, json_t *out)
{
    const char *kind = json_string_value(json_object_get(op, "op"));
    const char *path = json_string_value(json_object_get(op, "path"));
    const char *from = json_string_value(json_object_get(op, "from"));
    /* a picture put back is pinned by its place alone: what the model holds there is the link
     * to where its pixels are (a TPAG item), which another build numbers its own way */
    if (!kind || json_object_get(json_object_get(op, "value"), "$png")) return;
    if (json_object_get(json_object_get(op, "value"), "$splice")) {
        pin_range(work, op, out);
        return;
    }
    if (!strcmp(kind, "copy") || !strcmp(kind, "move")) pin_place(work, from, out);
    if (strcmp(kind, "move") != 0) pin_place(work, path, out);
}

int rb_model_diff_pin(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const json_t *ops, json_t **pinned,
                      char *why, size_t why_size)
{
    work_model work = {rb_doc_copy_model(a), NULL, 0};
    *pinned = NULL;
    if (!work.doc) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    json_t *out = json_array(), *done = json_array();
    pin_log none = {NULL, 0, 0};
    int replayed = 1;
    for (size_t i = 0; i < json_array_size(ops); i++) {
        json_t *op = json_array_get(ops, i);
        if (!strcmp(json_string_value(json_object_get(op, "op")), "test")) continue; /* pinned again below */
        if (replayed) pin_operation(work.doc, op, out);
        json_array_append(out, op);
        json_t *one = json_pack("[O]", op);
        /* an operation that neither engine takes alone (a record rewritten member by member,
         * valid only once the whole patch ran: settled() had apply prove it whole): what comes
         * after it is not pinned, as its state is not known */
        if (replayed) replayed = settle_step(a, a_bytes, a_size, &work, one, done, &none) == 0;
        json_decref(one);
    }
    *pinned = out;
    json_decref(done);
    rb_doc_free(work.doc);
    free(work.bytes);
    return 0;
}

/* The one try on A's own model (`own`, changed by it): what needs A as it was afterwards (the
 * pins' own replay, pictures spelled on A) makes it fail. */
static int diff_docs_once(rb_doc *own, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, int mode, json_t **ops,
                          json_t **pinned, char *why, size_t why_size)
{
    int left = own->format->written_lists ? LEAVE_ALL : LEAVE_NOTHING;
    pin_log pins = {pinned ? json_array() : NULL, 0, 0};
    size_t met = in_step_deferred_met();
    int final = 0;
    *ops = settled(own, own, a_bytes, a_size, b, mode, 0, 0, &left, &final, &pins, why, why_size);
    if (in_step_deferred_met() != met) { /* what apply derives was read where A keeps bytes */
        json_decref(*ops);
        *ops = NULL;
        pins.own_changed = 1; /* not retried on it: the whole models are diffed */
    }
    int pictures = own->format->assets && own->format->asset_patch && rb_model_diff_replaces_blob(*ops);
    /* A as it was is needed by the pins' own replay and by pictures; unchanged, it is there */
    int whole = *ops && (!pins.own_changed || (!(pinned && pins.broken) && !pictures));
    if (whole && pictures) *ops = rb_model_diff_pictures(own, a_bytes, a_size, b, mode, *ops);
    else if (whole && pinned && !pins.broken) *pinned = json_incref(pins.ops);
    json_decref(pins.ops);
    if (whole) return 0;
    json_decref(*ops);
    *ops = NULL;
    if (final) return -1; /* apply refuses what B is: `why` says so */
    snprintf(why, why_size, "the diff needs A's model as it was after the settling");
    return -1;
}

int rb_model_diff_docs(const rb_doc *a, rb_doc *own, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, int mode,
                       json_t **ops, json_t **pinned, char *why, size_t why_size)
{
    if (pinned) *pinned = NULL;
    if (own) return diff_docs_once(own, a_bytes, a_size, b, mode, ops, pinned, why, why_size);
    /* by identity, elements are named; when a name does not resolve where the patch uses it
     * (two elements that swap their keys), the lists are addressed by index instead */
    /* what the writer completes is left to it first (a rename is one operation), then only which
     * elements it has (a name table whose entry itself was renamed), then nothing */
    for (int whole = 0; whole <= RB_MODEL_DIFF_WHOLE_BLOBS; whole += RB_MODEL_DIFF_WHOLE_BLOBS) /* ranges first */
        for (int apply_decides = 0; apply_decides <= 1; apply_decides++)
            for (int index_paths = 0; index_paths <= (mode == RB_MODEL_DIFF_IDENTITY); index_paths++)
                for (int leave = a->format->written_lists ? LEAVE_ALL : LEAVE_NOTHING; leave >= LEAVE_NOTHING; leave--) {
                    int left = leave, final = 0;
                    pin_log pins = {pinned ? json_array() : NULL, 0, 0};
                    if ((*ops = settled(a, NULL, a_bytes, a_size, b, mode | whole, index_paths, apply_decides, &left,
                                        &final, &pins, why, why_size))) {
                        json_t *settled_ops = *ops;
                        *ops = rb_model_diff_pictures(a, a_bytes, a_size, b, mode, *ops);
                        /* pictures spelled anew are pinned by rb_model_diff_pin */
                        if (pinned && !pins.broken && *ops == settled_ops) *pinned = json_incref(pins.ops);
                        json_decref(pins.ops);
                        return 0;
                    }
                    json_decref(pins.ops);
                    if (final) return -1;
                    if (left == LEAVE_NOTHING) break; /* the walk changes nothing they would leave */
                }
    return -1;
}
