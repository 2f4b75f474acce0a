/* Natural keys of list elements on the model: the selectors `diff --by-identity` writes and the
 * keys `diff` matches two lists by (see identity.c). */
#ifndef RB_IDENTITY_H
#define RB_IDENTITY_H
#include <jansson.h>
#include "core/doc/doc.h"

/* Key set `index` of the natural keys tried in order (relative pointers into an element, "" the
 * element itself; NULL-terminated), or NULL past the last one. */
const char *const *rb_identity_key_set(size_t index);

/* The node a relative pointer ("/chunks/0/itemModel/id") leads to below `n`, viewing packed
 * records and table elements through `scratch` (RB_IDENTITY_DEPTH of them); NULL when none. */
enum { RB_IDENTITY_DEPTH = 8 };
const rb_node *rb_identity_walk(const rb_node *n, const char *pointer, rb_record_scratch *scratch);

/* A value as the dump shows it, with storage annotations left out (blobs spelled out): what a
 * diff's `test` pins and what keys compare. */
json_t *rb_content_json(const rb_doc *doc, const rb_node *n);
/* A value as the dump shows it (blobs spelled out), an id stored the file's own way with its
 * flags ({"$id": "Nadeo", "refIndex": 4}: the dump shows them only when they are not what the
 * writer derives, and the writer keeps them), without what the writer derives of a stream:
 * what a diff writes as an `add` or `replace` value, so that it gives B's bytes back. */
json_t *rb_value_json(const rb_doc *doc, const rb_node *n);

/* The keys of one list's elements, computed when first asked for. */
typedef struct rb_list_keys rb_list_keys;
rb_list_keys *rb_list_keys_new(const rb_doc *doc, const rb_node *list);
void rb_list_keys_free(rb_list_keys *keys);
/* The selector token ("[name=Road,coord/0=3,...]") of element `index`: under the first key set
 * whose keys it has and whose values no other element of the list shares; NULL when there is
 * none (address it by index). Owned by `keys`. */
const char *rb_list_keys_selector(rb_list_keys *keys, size_t index);
/* 1 when element `index` has keys under key set `set`, with their hash in *hash (read from the
 * nodes, not spelled: equal tokens give equal hashes), 0 when it lacks one. What two lists are
 * matched by, at the cost of reading the keys. */
int rb_list_keys_hash(rb_list_keys *keys, size_t set, size_t index, uint64_t *hash);
/* 1 when element `index` has a token under key set `set` that no other element shares. */
int rb_list_keys_unique(rb_list_keys *keys, size_t set, size_t index);
/* 1 when elements `x` and `y` agree on one of the key members of key set `set` (a block's name,
 * when its coordinates changed): the same element with its keys edited, more likely than not. */
int rb_identity_share_key_member(const rb_node *x, const rb_node *y, size_t set);
#endif
