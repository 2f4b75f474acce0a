/*
 * rebyte — read game data files into a typed model, edit them, write them back.
 *
 * The public API: opaque handles, explicit error codes, no global state.
 * A document owns everything it hands out; freeing the document frees it all. Text and bytes
 * the library allocates for the caller (out parameters marked "rb_free") are freed with
 * rb_free, never with the caller's free(): the library may use another allocator or C runtime.
 * Every struct starts with its size or is opaque: initialise one with its RB_*_INIT macro (or
 * set `.size`), so fields added later read as their defaults for callers built before them, and
 * the library writes no byte beyond a struct it fills (docs/api.md "Structs that grow").
 * Calls are spelled rb_<noun>_<verb>; a collection is read by count and index, or handed to a
 * callback as a walk makes it (docs/api.md "Names and collections").
 */
#ifndef REBYTE_H
#define REBYTE_H

#include <stddef.h>
#include <stdint.h>

/* What the shared library exports: this header's functions and nothing else (the library is
 * built with hidden visibility). */
#if defined(__GNUC__)
#define RB_API __attribute__((visibility("default")))
#else
#define RB_API
#endif

/* A call kept for programs built before its new name; the compiler names the new one. */
#if defined(__GNUC__)
#define RB_DEPRECATED(why) __attribute__((deprecated(why)))
#else
#define RB_DEPRECATED(why)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version this header is of; rb_version / rb_version_number give the library's own at run
 * time (a program can refuse a library older than its header). The number is
 * MAJOR * 10000 + MINOR * 100 + PATCH. */
#define REBYTE_VERSION_MAJOR 0
#define REBYTE_VERSION_MINOR 2
#define REBYTE_VERSION_PATCH 0
#define REBYTE_VERSION_NUMBER (REBYTE_VERSION_MAJOR * 10000 + REBYTE_VERSION_MINOR * 100 + REBYTE_VERSION_PATCH)
#define REBYTE_VERSION_STRING "0.2.0"
RB_API unsigned rb_version_number(void);
RB_API const char *rb_version(void);

/* Frees what the library allocated for the caller (text, bytes); NULL does nothing. */
RB_API void rb_free(void *p);

/* Result codes. Negative values are failures. */
typedef enum rb_status {
    RB_OK = 0,
    RB_E_IO = -1,        /* file could not be read or written */
    RB_E_FORMAT = -2,    /* input is malformed (error text says where) */
    RB_E_UNSUPPORTED = -3, /* well-formed input the library does not handle */
    RB_E_LIMIT = -4,     /* a configured limit was hit (error text says which) */
    RB_E_MODEL = -5,     /* the model (or JSON) is inconsistent with the format */
    RB_E_NOMEM = -6,
    RB_E_USAGE = -7,
    RB_E_VERIFY = -8,    /* a written file does not read back as the model it was written from */
    RB_E_RULE = -9,      /* an edit breaks a game rule (rb_doc_check; err names the rule and path) */
    RB_E_DEFERRED = -10  /* the call needs nodes a deferred document keeps as bytes: rb_doc_expand it */
} rb_status;

/* A struct with its size set and every other field 0 (its default). Designated in C, so
 * `-Wextra` (missing-field-initializers) stays quiet in the caller. */
#ifdef __cplusplus
#define RB_OPTIONS_INIT_(type) {sizeof(type)}
#else
#define RB_OPTIONS_INIT_(type) {.size = sizeof(type)}
#endif

/* An error names the file, the byte offset, the section the offset is in
 * ("file", "body" for a decompressed GBX body, ...) and the structure path. Start it from
 * RB_ERROR_INIT: the library keeps `size` as it is and writes no field beyond it (docs/api.md
 * "Structs that grow"). A message says why first, then where, and has room for the longest
 * reason the library gives. */
typedef struct rb_error {
    size_t size;
    rb_status status;
    char file[256];
    char section[32];
    uint64_t offset;
    int has_offset;
    char path[512];
    char message[2048];
} rb_error;
#define RB_ERROR_INIT RB_OPTIONS_INIT_(rb_error)
/* Room for any error rb_error_format spells. */
#define RB_ERROR_TEXT_SIZE 3072

/* "map.Gbx: body @0x1a2b3: CGameCtnChallenge > chunk 0x0304301F: message" */
RB_API const char *rb_error_format(const rb_error *err, char *out, size_t out_size);

/* Limits protect against hostile input; every one can be raised. A field left 0 is its default. */
typedef struct rb_limits {
    size_t size;                    /* sizeof(rb_limits): RB_LIMITS_INIT sets it */
    uint64_t max_decompressed_size; /* default 512 MiB */
    uint64_t max_count;             /* largest element count allocated up front, default 16 Mi */
    uint32_t max_depth;             /* deepest nesting, default 64 */
    uint64_t max_string;            /* longest string, default 64 MiB */
} rb_limits;
#define RB_LIMITS_INIT RB_OPTIONS_INIT_(rb_limits)

/* Fills the defaults into the fields a `limits` of `limits->size` bytes has (0: this release's
 * fields), to read or scale them: `rb_limits l = RB_LIMITS_INIT; rb_limits_default(&l);`. */
RB_API void rb_limits_default(rb_limits *limits);

typedef struct rb_doc rb_doc;
typedef struct rb_node rb_node;

/* Options: start from RB_READ_OPTIONS_INIT / RB_WRITE_OPTIONS_INIT / RB_APPLY_OPTIONS_INIT, or
 * designated initialisers with `.size = sizeof(...)`. A size of 0 reads the fields of this
 * release (as if the struct had no later fields); a size larger than the library knows is
 * accepted when the unknown bytes are 0 and refused (RB_E_USAGE) otherwise. NULL options are
 * the defaults. */
typedef struct rb_read_options {
    size_t size;
    const char *file_name;   /* used in error messages; may be NULL */
    const rb_limits *limits; /* NULL = defaults */
    int record_derived_offsets; /* for tests that damage files: note where the input stores derived
                                   values (sizes, counts); off, a read does not spend memory on it */
    int defer; /* the deferred model: every value is read and checked as always, but units the
                  format can keep as bytes (GBX body chunks, data.win chunks) are not kept as
                  nodes until rb_doc_expand (or rb_doc_root) makes them nodes; writing,
                  coverage, notes, stream reports and dumps never need them, the calls that walk
                  the nodes (info, check, diff, extract, ...) refuse a document with units still
                  deferred (RB_E_DEFERRED). Less memory and a faster write for a document that
                  is only verified or rewritten (docs/api.md "The deferred model") */
    int check_units; /* with defer: a unit is kept as its bytes only when its nodes, written,
                        give exactly those bytes; one that would be written otherwise stays
                        nodes, so writing the document shows the difference where it is (what
                        `rebyte verify` reads with: every byte of the file is compared). Costs a
                        write of each unit while it is read */
} rb_read_options;
#define RB_READ_OPTIONS_INIT RB_OPTIONS_INIT_(rb_read_options)

typedef struct rb_write_options {
    size_t size;
    int reencode; /* re-encode every compressed stream instead of passing the original through */
    int decoded;  /* write each stream's decoded content in place of its encoding (a form for
                     comparing content, not a valid file) */
    const char *reencode_codec; /* with reencode: only streams of this codec ("lzo1x", "zlib");
                                   NULL = all */
} rb_write_options;
#define RB_WRITE_OPTIONS_INIT RB_OPTIONS_INIT_(rb_write_options)

/* Which format a buffer holds, by content (never by file name). NULL if unknown. */
RB_API const char *rb_format_detect(const uint8_t *data, size_t size);
/* Deprecated: rb_format_detect, spelled as the rest of the API (docs/api.md "Names and collections"). */
RB_API RB_DEPRECATED("use rb_format_detect") const char *rb_detect_format(const uint8_t *data, size_t size);

/* Parse `data` (which must stay alive and unchanged while the document lives:
 * blobs are zero-copy slices of it). Returns NULL and fills `err` on failure. */
RB_API rb_doc *rb_doc_parse(const uint8_t *data, size_t size, const rb_read_options *options, rb_error *err);
RB_API void rb_doc_free(rb_doc *doc);

RB_API const char *rb_doc_format(const rb_doc *doc);
/* A deferred document (rb_read_options.defer, rb_doc_build_file_deferred) made the one a full
 * read gives: its units read (or built) again into it. The explicit step a deferred document
 * takes before the calls that walk its nodes; its failure (out of memory, a build's JSON file
 * changed or gone, input bytes changed since the read) comes back here, the document unchanged.
 * RB_OK at once for a document with nothing deferred. It changes the document: no other call
 * may use the document meanwhile (docs/api.md "The deferred model"). */
RB_API rb_status rb_doc_expand(rb_doc *doc, rb_error *err);
/* The root node: the document expanded (rb_doc_expand) and its packed tables turned into nodes,
 * on the first call, which changes the document (no other call may use it meanwhile); later
 * calls change nothing, and navigation never changes the model. NULL when the expansion fails
 * (rb_doc_expand says why). */
RB_API rb_node *rb_doc_root(rb_doc *doc);

/* Serialise the model. On success *out holds the bytes (rb_free). */
RB_API rb_status rb_doc_write(rb_doc *doc, const rb_write_options *options, uint8_t **out, size_t *out_size,
                       rb_error *err);

/* Serialise the model and compare the bytes with `expected` (normally the file it was read from)
 * as they are made: an identical write stores nothing, so checking a round trip costs no second
 * copy of the file. *identical says which; when the bytes differ, *out holds them (rb_free) so
 * the caller can find the difference, else *out is NULL. `expected` must stay
 * alive and unchanged during the call. */
RB_API rb_status rb_doc_write_against(rb_doc *doc, const rb_write_options *options, const uint8_t *expected,
                               size_t expected_size, int *identical, uint8_t **out, size_t *out_size,
                               rb_error *err);

/* Race recordings (GBX ghosts and replays, docs/usage.md "Race recordings") are never written changed:
 * every write (rb_doc_write, rb_doc_write_against, rb_apply, ...) of a document holding one
 * compares its recordings with the file it came from and fails with RB_E_UNSUPPORTED, writing
 * nothing, when one differs. A document parsed from the game's encoding is compared with its own
 * bytes (so C API setters on a recording are refused at the write). One read from the text encoding
 * or built from JSON proves nothing by itself: name its original here (a parsed binary file; it
 * must outlive `doc`; rb_doc_build's blob_source counts as one). */
RB_API void rb_doc_set_original(rb_doc *doc, const rb_doc *original);
/* Authoring (`rebyte build --new-recording`): a document built from JSON, with no original, whose
 * recordings are new (a test fixture that claims no one's run) is written without one. Nothing
 * changes for a parsed document, or when an original is known (it is still compared). */
RB_API void rb_doc_author_recordings(rb_doc *doc);
/* Deprecated: rb_doc_author_recordings ("record" names a model record; docs/api.md "Names and collections"). */
RB_API RB_DEPRECATED("use rb_doc_author_recordings") void rb_doc_author_records(rb_doc *doc);

/* Structs the library fills for the caller (rb_coverage, rb_coverage_kinds, rb_stream_report,
 * rb_apply_result) start with their size too: start from their RB_*_INIT macro. The library
 * writes the fields both know and no byte beyond `size`; a size smaller than any release's is
 * refused (RB_E_USAGE). */

/* Coverage of the parse: bytes described by typed fields vs kept opaque. */
typedef struct rb_coverage {
    size_t size;
    uint64_t typed_bytes;
    uint64_t opaque_bytes;
    int opaque_tail; /* a parse had to stop early and kept the rest as one opaque tail */
} rb_coverage;
#define RB_COVERAGE_INIT RB_OPTIONS_INIT_(rb_coverage)
RB_API rb_status rb_doc_coverage(const rb_doc *doc, rb_coverage *coverage);

/* Coverage by kind: the bytes the model keeps without interpreting them, by what their content
 * is (its signature: JPEG/PNG/WebP/DDS images, zip archives, Ogg/WAVE audio, zlib/gzip/zstd
 * streams), so a thumbnail or an embedded zip is not counted as unknown. `opaque` splits
 * rb_coverage.opaque_bytes; `blob` splits the payloads kept as blobs (thumbnails, embedded files,
 * a lightmap cache), which rb_coverage counts as typed. Values of rb_payload_kind index both. */
typedef enum rb_payload_kind {
    RB_PAYLOAD_UNKNOWN = 0, RB_PAYLOAD_IMAGE, RB_PAYLOAD_ARCHIVE, RB_PAYLOAD_AUDIO, RB_PAYLOAD_COMPRESSED,
    RB_PAYLOAD_KINDS
} rb_payload_kind;
typedef struct rb_coverage_kinds {
    size_t size;
    uint64_t opaque[RB_PAYLOAD_KINDS];
    uint64_t blob[RB_PAYLOAD_KINDS];
} rb_coverage_kinds;
#define RB_COVERAGE_KINDS_INIT RB_OPTIONS_INIT_(rb_coverage_kinds)
RB_API rb_status rb_doc_coverage_kinds(const rb_doc *doc, rb_coverage_kinds *kinds);
/* Both at once: one walk of the model instead of two (what `rebyte verify` prints). */
RB_API rb_status rb_doc_coverage_both(const rb_doc *doc, rb_coverage *coverage, rb_coverage_kinds *kinds);
RB_API rb_payload_kind rb_payload_kind_of(const uint8_t *data, size_t size);
RB_API const char *rb_payload_kind_name(rb_payload_kind kind); /* "unknown", "image", ... */

/* `rebyte info`: what the document is, as compact JSON text in *info_json (rb_free): file, format,
 * description, size, the header's fields, each compressed stream's sizes, what the format
 * summarises (a map's name, medals, chunk lists, ...) and the coverage. RB_E_DEFERRED for a
 * document with units still deferred (rb_doc_expand first). */
RB_API rb_status rb_doc_info(const rb_doc *doc, const char *file_name, size_t file_size, char **info_json,
                             rb_error *err);

/* `rebyte check`: the game rules each format declares (a map's block directions 0-3, its medals
 * in order, its header copies agreeing with the body, ...): invariants the game relies on that
 * the byte format does not enforce. Each violation goes to `report`: the rule's name, the model
 * path it concerns ("" for the whole document) and a sentence; *problems (may be NULL) says how
 * many were found. RB_E_DEFERRED, nothing reported, for a document with units still deferred
 * (rb_doc_expand first): the rules read the nodes. A warning is something no real file was seen doing that the game may still load (an edit that
 * makes one is written, with the warning); the others are refusals (docs/usage.md "Game rules"). */
typedef struct rb_rule_violation {
    size_t size; /* sizeof(rb_rule_violation) of the library: the fields it filled */
    const char *rule;
    const char *path;
    const char *message;
    int warning; /* 1: a warning, 0: a refusal */
} rb_rule_violation;
typedef void (*rb_check_report)(void *context, const rb_rule_violation *violation);
RB_API rb_status rb_doc_check(const rb_doc *doc, rb_check_report report, void *context, size_t *problems,
                              rb_error *err);

/* A format's named transform (GBX: "downgrade-items", options {"to": 0..4, "itemsVersion": 4..8})
 * as an RFC 6902 patch over the document's model (JSON text, rb_free; "[]" when there is nothing
 * to do), to apply with rb_apply like any patch, and a JSON object saying what it changes
 * (*report_json, rb_free; may be NULL). RB_E_DEFERRED for a document with units still deferred. */
RB_API rb_status rb_doc_transform(const rb_doc *doc, const char *name, const char *options_json, char **patch_json,
                           char **report_json, rb_error *err);

/* Encodings of one model: GBX files are "binary" or "text" (one value per line). The document's
 * encoding (NULL for a format with one), and the one its next write uses: RB_E_UNSUPPORTED
 * when the format has no such encoding. */
RB_API const char *rb_doc_encoding(const rb_doc *doc);
RB_API rb_status rb_doc_set_encoding(rb_doc *doc, const char *encoding);

/* The formats rebyte knows: name and description of format `index` (0 to count - 1). */
RB_API size_t rb_format_count(void);
RB_API const char *rb_format_name(size_t index);
RB_API const char *rb_format_description(size_t index);
/* The game rules of format `index`: how many, and rule `rule`'s name and description (NULL when
 * out of range). */
RB_API size_t rb_format_rule_count(size_t index);
RB_API const char *rb_format_rule(size_t index, size_t rule, const char **description);
/* Rule `rule` of format `index` as compact JSON text (rb_free; NULL when out of range):
 * {"format", "rule", "kind": "refusal"|"warning", "description", "data": the lists it checks
 * against (decorations per environment, reference ranges, ...) or null}. */
RB_API char *rb_format_rule_json(size_t index, size_t rule);

/* How each compressed stream was (or would be) written: rb_doc_stream_report fills report
 * `index` (0 to rb_doc_stream_report_count - 1) into `report` (RB_STREAM_REPORT_INIT);
 * RB_E_USAGE when out of range. */
typedef struct rb_stream_report {
    size_t size;
    char name[64];        /* e.g. "body" */
    char codec[16];       /* "lzo1x", "zlib", ... */
    int reencoded;        /* 0 = original bytes passed through */
    int identical;        /* re-encoded bytes equal the original stream */
    uint64_t original_size, written_size, content_size;
} rb_stream_report;
#define RB_STREAM_REPORT_INIT RB_OPTIONS_INIT_(rb_stream_report)
RB_API size_t rb_doc_stream_report_count(const rb_doc *doc);
RB_API rb_status rb_doc_stream_report(const rb_doc *doc, size_t index, rb_stream_report *report);

/* Deviations the reader found and kept so the file writes back exactly (a stale checksum, ...),
 * one line each ("file @0x1a: path: what"), in the order found. */
RB_API size_t rb_doc_note_count(const rb_doc *doc);
RB_API const char *rb_doc_note(const rb_doc *doc, size_t index);

/* The structure path of the model node that covers byte `offset` of the original file
 * (for locating the first difference). Writes "" when unknown. In a unit still deferred, the
 * path of the unit (rb_doc_expand first for the field). */
RB_API void rb_doc_path_at(const rb_doc *doc, uint64_t offset, char *out, size_t out_size);

/* ---------- the model ---------- */

typedef enum rb_node_kind {
    RB_NODE_RECORD = 1, RB_NODE_LIST, RB_NODE_INT, RB_NODE_FLOAT, RB_NODE_BOOL, RB_NODE_STRING,
    RB_NODE_BLOB, RB_NODE_OPAQUE, RB_NODE_STREAM, RB_NODE_ID
} rb_node_kind;

RB_API rb_node_kind rb_node_kind_of(const rb_node *node);
RB_API const char *rb_node_key(const rb_node *node);           /* NULL inside lists */
RB_API size_t rb_node_child_count(const rb_node *node);        /* records, lists, streams */
RB_API const rb_node *rb_node_child(const rb_node *node, size_t index);
RB_API const rb_node *rb_node_member(const rb_node *record, const char *key);
/* Walk an RFC 6901 pointer ("/body/chunks/3/mapName"), the paths of `rebyte dump`. */
RB_API const rb_node *rb_node_at(const rb_node *root, const char *pointer);
/* The same from a node you may change (rb_doc_root's): the node found, to set. */
RB_API rb_node *rb_node_child_edit(rb_node *node, size_t index);
RB_API rb_node *rb_node_member_edit(rb_node *record, const char *key);
RB_API rb_node *rb_node_at_edit(rb_node *root, const char *pointer);

/* Scalars keep their wire type. A getter checks the node's kind and fills *value only when the
 * value is of it and fits: RB_E_USAGE for a NULL node or out pointer, RB_E_MODEL for another
 * kind (an int getter on a float, ...) or a value the type cannot hold (a negative number asked
 * as unsigned, an unsigned above INT64_MAX asked as signed). Integers are RB_NODE_INT and
 * RB_NODE_BOOL. A setter refuses, the same way, values the wire type cannot hold. */
RB_API rb_status rb_node_get_int(const rb_node *node, int64_t *value);
RB_API rb_status rb_node_get_uint(const rb_node *node, uint64_t *value);
RB_API rb_status rb_node_get_float(const rb_node *node, double *value);
RB_API rb_status rb_node_set_int(rb_node *node, int64_t value);
RB_API rb_status rb_node_set_uint(rb_node *node, uint64_t value);
RB_API rb_status rb_node_set_float(rb_node *node, double value);
/* Strings, ids kept as strings, blobs and opaque bytes: the bytes (not NUL-terminated; valid while
 * the document lives and the node is not set again). Setting copies into the document. */
RB_API rb_status rb_node_get_bytes(const rb_node *node, const uint8_t **bytes, size_t *size);
RB_API rb_status rb_node_set_bytes(rb_doc *doc, rb_node *node, const void *bytes, size_t size);

/* ---------- assets: files a person can open, and put back (docs/usage.md "Assets") ---------- */

/* One asset, as `rebyte extract` writes it: a picture, a sound, a mesh, an embedded file, a table.
 * Valid only during the sink's call. */
typedef struct rb_asset {
    size_t size;      /* sizeof(rb_asset) of the library: the fields it filled */
    const char *name; /* file name relative to the output folder, with a folder per kind:
                         "textures/page-0003.png", "sounds/0012-jump.wav", "items/Tree.Item.Gbx" */
    const char *kind; /* "image", "sound", "mesh", "gbx", "table", "code", "blob" */
    const char *path; /* JSON pointer of the model node it comes from: what replace takes */
    const uint8_t *data;
    size_t data_size;
    int replaceable;  /* putting an edited file back at `path` is supported */
    const char *note; /* how it was made ("decoded from QOI", "flipped to the right way up"), or NULL */
} rb_asset;
/* Receives each asset; returns 0 to go on, nonzero to stop the extraction (RB_E_IO). An asset
 * whose `data` is NULL is a reference to a file the document names but does not hold (a map's
 * custom music or skin: `name` is the file name or address); the manifest lists it, nothing is
 * written. */
typedef int (*rb_asset_sink)(void *context, const rb_asset *asset);

/* `rebyte extract`: hands every asset of the document (of kind `only_kind`; NULL for all) to
 * `sink`, in model order, with names made safe (relative, no "..") and unique. With
 * `manifest_json`, also the manifest (JSON text, rb_free): {"rebyteAssets": 1, "source":
 * {file, format, size, crc32}, "assets": [{file, kind, path, size, replaceable, note?}],
 * "references": [{name, kind, path, note?}]}. RB_E_UNSUPPORTED when the format has no assets,
 * RB_E_IO when the sink stopped, RB_E_FORMAT when an asset cannot be made (err says which). The
 * format's hooks walk the nodes: the document is expanded first (rb_doc_root; its failure comes
 * back here), or of a deferred document only the units that may hold assets when its format says
 * which and they read alone (docs/performance.md "Extract reads what it extracts"). */
RB_API rb_status rb_doc_extract(rb_doc *doc, const char *only_kind, rb_asset_sink sink, void *context,
                                char **manifest_json, rb_error *err);
/* Assets split over two files (a Trespasser .spz or .swp holds the texels its .pid describes):
 * the other file, parsed when its format is known, for the format's asset hooks to read. `data`
 * must stay alive and unchanged while `doc` lives; call it before sharing `doc` between threads.
 * Which companion a format takes, and what it gives, is in the format's page ("Assets"). */
RB_API rb_status rb_doc_set_companion(rb_doc *doc, const uint8_t *data, size_t size, const char *name, rb_error *err);
/* `rebyte replace`: the RFC 6902 patch (JSON text, rb_free) that puts `data`, a file of the kind
 * extracted from model path `path` (edited or not), back into the document; apply it with
 * rb_apply. RB_E_USAGE when `path` is not an asset's, RB_E_MODEL when the
 * file does not fit (a colour not in the texture's palette, a JPEG the wrong way up: err says
 * which), RB_E_UNSUPPORTED when the format puts no assets back. A patch operation whose value is
 * {"$file": FILE} at an asset's path is turned into this patch by rb_apply. The document is
 * expanded first, as for rb_doc_extract. */
RB_API rb_status rb_doc_asset_patch(rb_doc *doc, const char *path, const uint8_t *data, size_t size,
                                    char **patch_json, rb_error *err);

/* ---------- JSON ---------- */

/* How a dump spells blobs: as references into the file ({"$blob": {section, offset, size,
 * crc32}}), inline ({"$base64": ...}: the dump stands alone), or by size only (not buildable). */
typedef enum rb_blob_mode { RB_BLOBS_REF = 0, RB_BLOBS_BASE64, RB_BLOBS_OMIT } rb_blob_mode;
/* `rebyte dump`: the model as JSON text in *json_text (rb_free) with "$format", and, when
 * `source_name` is given and blobs are references, "$source" {file, size, crc32} naming the file
 * they refer to. A deferred document is printed reading each unit again alone, the document
 * unchanged; RB_E_DEFERRED when its format cannot read a unit alone (rb_doc_expand first). */
RB_API rb_status rb_doc_dump(const rb_doc *doc, rb_blob_mode blobs, const char *source_name, char **json_text,
                             rb_error *err);
/* Where streamed text goes: called with consecutive pieces of it (not NUL-terminated); returns
 * 0 to go on, nonzero to stop (the call then fails with RB_E_IO). */
typedef int (*rb_text_sink)(void *context, const char *text, size_t size);
/* rb_doc_dump's text handed to `sink` in pieces (about 64 KiB each) while the model is walked:
 * memory stays that of the model, whatever the size of the JSON. The same text as rb_doc_dump. */
RB_API rb_status rb_doc_dump_to(const rb_doc *doc, rb_blob_mode blobs, const char *source_name, rb_text_sink sink,
                                void *context, rb_error *err);
/* `rebyte dump --blobs=files`: the model as JSON text (rb_free) in which every blob (thumbnails,
 * zips, sounds, opaque bytes, streams' original bytes) is {"$file": "<prefix>/NNNNN-<key>.<ext>"},
 * and those files (an rb_dump_files, names relative to the JSON's folder) for the caller to write.
 * rb_doc_build reads such files back from beside the JSON. The data of a file may point into the
 * document: write them before freeing it. Free the files with rb_dump_files_free. */
typedef struct rb_dump_files rb_dump_files;
RB_API rb_status rb_doc_dump_files(const rb_doc *doc, const char *prefix, char **json_text, rb_dump_files **files,
                                   rb_error *err);
/* The same text handed to `sink` in pieces while the model is walked (rb_doc_dump_to). */
RB_API rb_status rb_doc_dump_files_to(const rb_doc *doc, const char *prefix, rb_text_sink sink, void *context,
                                      rb_dump_files **files, rb_error *err);
/* The files by index (0 to count - 1): a file's name, and its bytes (*size of them); NULL when
 * out of range. */
RB_API size_t rb_dump_files_count(const rb_dump_files *files);
RB_API const char *rb_dump_files_name(const rb_dump_files *files, size_t index);
RB_API const uint8_t *rb_dump_files_data(const rb_dump_files *files, size_t index, size_t *size);
RB_API void rb_dump_files_free(rb_dump_files *files);
/* `rebyte build`: a model from JSON text (a dump, edited or not), validated through the format's
 * description. The format is the JSON's "$format", else blob_source's. Blob references resolve
 * against blob_source (the parsed original; may be NULL), which must outlive the result. */
RB_API rb_doc *rb_doc_build(const char *json_text, size_t size, const char *name, const rb_doc *blob_source, rb_error *err);
/* The same from a JSON file, read piecewise where it is (a large list's elements decoded as the
 * description reaches them, then freed): memory stays that of the model, whatever the size of the
 * text. Relative {"$file": ...} resolve beside it. */
RB_API rb_doc *rb_doc_build_file(const char *json_path, const rb_doc *blob_source, rb_error *err);
/* The same as a deferred model (rb_read_options.defer's, for a build): every value is built and
 * checked as always, but each unit the format can keep as bytes (GBX body chunks and long lists)
 * is written as soon as it is built and kept as those bytes, so the model holds a few units of
 * nodes at a time. Writing copies the bytes; rb_doc_expand (or rb_doc_root) builds the file again
 * in full, once (the JSON must still be there, unchanged: else the expansion fails and says why).
 * What `rebyte build` does (docs/api.md "The deferred model"). */
RB_API rb_doc *rb_doc_build_file_deferred(const char *json_path, const rb_doc *blob_source, rb_error *err);
/* The original a dump names ("$source" {"file": ...}; malloc'd, rb_free), NULL when it names none
 * (or `err` when the file cannot be read). Reads the top of the file alone. */
RB_API char *rb_dump_source_file(const char *json_path, rb_error *err);

/* ---------- patches: apply, diff, resolve ---------- */

/* A patch file: an RFC 6902 array of operations, or a fingerprinted one,
 * {"rebytePatch": 1, "base": {"format", "size", "crc32", "addressing"}, "operations": [...]}
 * ("addressing": "index" applies to its base only, "identity" wherever its pins hold).
 * Paths are RFC 6901 pointers into `rebyte dump`'s model, whose list tokens may be identity
 * selectors ("[id=0x0304301F]", docs/usage.md). An operation may carry "each": true (its
 * selectors, and "[*]", match any number of elements; it is carried out for each), be an
 * "offset" (its value added to a number or a list of numbers in the field's type), state a
 * "count" of matches, or name what an add, copy or move puts in place ("as": "NAME") for later
 * paths "@NAME/..." (docs/usage.md "One patch, every element"). */
typedef struct rb_patch rb_patch;
/* Parses patch text; `name` is used in messages (may be NULL). NULL and `err` on failure. */
RB_API rb_patch *rb_patch_parse(const char *text, size_t size, const char *name, rb_error *err);
RB_API void rb_patch_free(rb_patch *patch);
RB_API const char *rb_patch_name(const rb_patch *patch);

/* Two patches of a stack that change the same place: refuse (default), or keep one. */
typedef enum rb_conflicts { RB_CONFLICTS_STOP = 0, RB_CONFLICTS_FIRST_WINS, RB_CONFLICTS_LAST_WINS } rb_conflicts;

typedef struct rb_apply_options {
    size_t size;       /* RB_APPLY_OPTIONS_INIT sets it (see the read options) */
    rb_conflicts conflicts;
    /* Lines worth showing, each without its newline; may be NULL. `warning` is 1 for what a
     * user must see (a base that is not the patch's, a pinned value that differs), 0 for
     * progress (each stacked patch's count of changes, pins that hold). */
    void (*report)(void *context, int warning, const char *line);
    void *report_context;
    int want_changes;  /* fill rb_apply_result.changes (for a dry run) */
    int force;         /* write even when the result breaks a game rule the original kept, and
                          apply a patch made by diff to a file that is not its base (each broken
                          rule and each failing pin is reported as a warning) */
} rb_apply_options;
#define RB_APPLY_OPTIONS_INIT RB_OPTIONS_INIT_(rb_apply_options)

typedef struct rb_apply_result {
    size_t size;         /* RB_APPLY_RESULT_INIT sets it (see rb_coverage) */
    uint8_t *bytes;      /* the patched, verified file (rb_apply_result_free frees it) */
    size_t bytes_size;
    size_t operations;   /* operations that changed the model (tests, skipped conflicts and those that
                            left a value as it was, such as a replace by the same value, excluded) */
    int drafts;          /* drafts the format's description built: parts of the model no node had the
                            shape of, edited as JSON and built back (docs/usage.md "How apply works") */
    char first_draft[256]; /* the first of them: its path and the operation that opened it */
    char *changes;       /* want_changes: JSON array of {"op", "path", "was"?, "value"?} */
} rb_apply_result;
#define RB_APPLY_RESULT_INIT RB_OPTIONS_INIT_(rb_apply_result)

/* The one way to apply patches: to a file's bytes (a document in memory: rb_doc_write it, apply,
 * rb_doc_parse the result's bytes, which must outlive that document).
 * Parses `data`, checks each fingerprinted patch's base (a file that is not the base is patched
 * only when the patch addresses elements by identity and every value it pins holds, or when
 * forced), applies the patches in order (all or nothing,
 * conflicts by the policy), writes the result, reads it back and checks it is the patched model.
 * Fails with RB_E_MODEL when a patch does not apply (err says which operation and why),
 * RB_E_RULE when the result breaks a game rule the original kept (unless options->force),
 * RB_E_VERIFY when the written file does not read back as the patched model. */
RB_API rb_status rb_apply(const uint8_t *data, size_t size, const char *file_name, const rb_patch *const *patches,
                   size_t count, const rb_apply_options *options, rb_apply_result *result, rb_error *err);
RB_API void rb_apply_result_free(rb_apply_result *result);

enum {
    RB_DIFF_BY_IDENTITY = 1, /* address list elements by their natural keys (applies wherever its
                                pins hold) instead of by position (applies to its base only) */
    RB_DIFF_PLAIN = 2        /* a bare RFC 6902 array instead of the fingerprinted envelope, without
                                the pins of what each operation touches */
};
/* The patch that turns document `a` (whose file is a_bytes) into `b`, as JSON text (rb_free);
 * *operation_count tells whether they differ. Both documents must be of one format and hold one
 * class of object (GBX: a map and a replay are refused, RB_E_USAGE). Either may be read with the
 * deferred model, and is not changed: the units equal in both are compared by their bytes and
 * reader state, the others read alone (docs/usage.md "Diffs"); a format that cannot read its
 * units alone has the file read again in full (RB_E_DEFERRED for a deferred build, which has no
 * file). RB_E_MODEL (and why) when no patch gives B's bytes: apply refuses what it would write
 * (B's race record), or a compressed stream of B is not what rebyte's encoder writes for its
 * content and A does not hold it as it is (docs/usage.md "Diffs"). */
RB_API rb_status rb_doc_diff(const rb_doc *a, const uint8_t *a_bytes, size_t a_size, const rb_doc *b, unsigned flags,
                      char **patch_json, size_t *operation_count, rb_error *err);
/* What `patch` does to `doc`'s file as plain RFC 6902 (JSON text, rb_free): rb_apply's engine runs
 * it on a fresh read of the file and gives each operation it carried out, selectors and names as
 * plain pointers, "each" as one operation per match, "offset" as "replace" with the computed value.
 * RB_E_MODEL (and why) when the patch does not apply; RB_E_USAGE for a document not read from a
 * file. */
RB_API rb_status rb_patch_resolve(const rb_doc *doc, const rb_patch *patch, char **plain_json, rb_error *err);

/* ---------- pictures: a document seen from above (docs/render.md) ---------- */

typedef struct rb_render_options {
    size_t size;                /* RB_RENDER_OPTIONS_INIT sets it (see the read options) */
    const rb_doc *over;         /* draw the document's paths (a ghost's) over this map instead of
                                   over the document's own (a replay's), or none */
    const rb_doc *diff_to;      /* mark what changes from the document to this one (one format) */
    const rb_patch *diff_patch; /* or what this patch changes in the document's file */
    unsigned max_side;          /* the picture's longest side in pixels: 0 = 1024, at most 2048 */
} rb_render_options;
#define RB_RENDER_OPTIONS_INIT RB_OPTIONS_INIT_(rb_render_options)

/* `rebyte render`: the document seen from above as a PNG (*png, rb_free): a map's block grid by
 * kind (road, start, finish, multilap, checkpoint, decoration) shaded by height, its free blocks
 * and items as marks, its size as the frame, a scale bar and a north mark (x east, z north); a
 * ghost's path coloured by speed with its checkpoint times; a diff's added elements green,
 * removed red, moved as arrows, changed facts in the legend; a data.win room's instances. With
 * `report_json` (may be NULL), what was drawn as JSON text (rb_free): the picture's and a cell's
 * pixel size, blocks and items by kind, paths, the diff's changes. RB_E_UNSUPPORTED when the
 * document holds nothing to draw (err says why). */
RB_API rb_status rb_doc_render(rb_doc *doc, const rb_render_options *options, uint8_t **png, size_t *png_size,
                               char **report_json, rb_error *err);

#ifdef __cplusplus
}
#endif
#endif
