/* Pins: how a pinned value is compared with the file's (pins.c); below the selectors and the
 * portable patches, which both compare values this way. */
#ifndef RB_PINS_H
#define RB_PINS_H
#include <jansson.h>

/* The one comparison of JSON values (the model's is rb_model_equal, core/model/model_equal.h):
 * equal as content, as RFC 6902 4.6 compares for "test" (numbers by value, members in any order)
 * with storage annotations ($id flags, $stream) and blob spellings not counting. A pin
 * {"$digest": "..."} (rb_pin_value) equals the values whose content has that digest. */
int rb_values_equal(const json_t *a, const json_t *b);
/* What a pin holds for `value` (taken): the value itself, or {"$digest": "16 hex digits"} of its
 * content when its compact JSON is longer than RB_PIN_SPELLED_MAX (a chunk, a blob). */
enum { RB_PIN_SPELLED_MAX = 400 };
json_t *rb_pin_value(json_t *value);
/* Is `pin` a {"$digest": ...} pin (compared with a rendering of the value, not the model)? */
int rb_pin_is_digest(const json_t *pin);
#endif
