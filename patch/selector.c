/*
 * Identity selectors in patch paths: a pointer token "[key=value]" picks the one element of an
 * array whose member `key` equals `value`, instead of naming it by position, so a patch keeps
 * addressing the same object when entries are added or removed before it.
 *
 *   /body/chunks/[id=0x0304301F]/mapName
 *   /body/chunks/[id=0x03043040]/anchoredObjects/[chunks/0/itemModel/id=Flag8m,chunks/0/flags=0x0000]
 *
 * `key` may be a relative pointer into the element ("chunks/0/itemModel/id"), or empty for the
 * element itself ("[=Hello]" in a list of strings); several conditions
 * are separated by commas and must all hold; `value` matches a string member exactly, or a number
 * or boolean by its JSON spelling. In keys and values, "~0" is '~', "~1" is '/', "~2" is ',' and
 * "~3" is ']'. A selector that matches no element, or more than one, is an error saying so.
 * Selectors resolve to plain RFC 6901 pointers before the RFC 6902 engine runs.
 *
 * Conditions are parsed here for every engine (rb_selector_parse); the model matches them on its
 * nodes (patch/model_select.c). Matching on JSON stays for what is JSON and not a model: an open
 * draft (patch/model_draft.c, patch/each_model.c) and a plain JSON document (`rebyte json-patch`,
 * patch/portable.c).
 */
#include "patch/selector.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "patch/jsonpatch.h"
#include "patch/pins.h"
#include "core/model/pointer.h"

/* "~0".."~3" in a selector's value: '~', '/', ',' and ']'. In place. */
static void selector_unescape(char *s)
{
    char *o = s;
    for (char *p = s; *p; p++) {
        if (*p == '~' && p[1] >= '0' && p[1] <= '3') {
            *o++ = "~/,]"[p[1] - '0'];
            p++;
        } else {
            *o++ = *p;
        }
    }
    *o = 0;
}

void rb_selector_conditions_free(rb_selector_condition *c, size_t count)
{
    for (size_t i = 0; c && i < count; i++) {
        free(c[i].pointer);
        free(c[i].value);
    }
    free(c);
}

/* One "key=value" part: the key as a relative pointer (an RFC 6901 pointer with a leading '/';
 * an empty key means the element itself: lists of strings or numbers), the value unescaped. */
static int parse_condition(char *part, rb_selector_condition *c)
{
    char *eq = strchr(part, '=');
    if (!eq) return -1;
    *eq = 0;
    selector_unescape(eq + 1);
    c->value = strdup(eq + 1);
    c->pointer = malloc(strlen(part) + 2);
    if (c->pointer) snprintf(c->pointer, strlen(part) + 2, "%s%s", *part ? "/" : "", part);
    return c->value && c->pointer ? 0 : -1;
}

void rb_selector_refuse(char *why, size_t why_size, const char *selector, const char *path, size_t matches,
                        const char *hint)
{
    snprintf(why, why_size, "selector [%s] matches %zu elements (it must match exactly one)%s, in %s", selector, matches,
             hint, path);
}

int rb_selector_parse(const char *selector, rb_selector_condition **conditions, size_t *count)
{
    char *copy = strdup(selector);
    size_t cap = 1, n = 0;
    for (const char *p = selector; *p; p++) cap += *p == ',';
    rb_selector_condition *c = copy ? calloc(cap, sizeof *c) : NULL;
    int ok = c != NULL;
    for (char *save = NULL, *part = ok ? strtok_r(copy, ",", &save) : NULL; part && ok; part = strtok_r(NULL, ",", &save))
        ok = parse_condition(part, &c[n++]) == 0;
    free(copy);
    if (!ok || !n) {
        rb_selector_conditions_free(c, n);
        return -1;
    }
    *conditions = c;
    *count = n;
    return 0;
}

/* Does the element satisfy the condition? Strings match exactly, other values by their compact
 * JSON spelling. */
static int condition_holds(json_t *element, const rb_selector_condition *c)
{
    const json_t *found = *c->pointer ? rb_json_pointer_get(element, c->pointer, NULL, 0) : element;
    if (!found) return 0;
    if (json_is_string(found)) return strcmp(json_string_value(found), c->value) == 0;
    char *text = json_dumps(found, JSON_ENCODE_ANY | JSON_COMPACT);
    int same = text && strcmp(text, c->value) == 0;
    free(text);
    return same;
}

static int element_matches(json_t *element, const rb_selector_condition *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!condition_holds(element, &c[i])) return 0;
    return 1;
}

int rb_json_select_all(json_t *array, const char *selector, size_t **indexes, size_t *count)
{
    size_t n = json_array_size(array), conditions;
    rb_selector_condition *c = NULL;
    *count = 0;
    *indexes = malloc((n ? n : 1) * sizeof(size_t));
    if (!*indexes) return -1;
    if (rb_selector_parse(selector, &c, &conditions) != 0) return 0; /* no condition: nothing matches */
    for (size_t i = 0; i < n; i++)
        if (element_matches(json_array_get(array, i), c, conditions)) (*indexes)[(*count)++] = i;
    rb_selector_conditions_free(c, conditions);
    return 0;
}

static int append(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t c = (*cap ? *cap * 2 : 64) + n;
        char *p = realloc(*out, c);
        if (!p) return 0;
        *out = p;
        *cap = c;
    }
    memcpy(*out + *len, s, n);
    *len += n;
    (*out)[*len] = 0;
    return 1;
}

int rb_pointer_resolve(json_t *doc, const char *path, char **resolved, char *err, size_t err_size)
{
    char *out = NULL;
    size_t len = 0, cap = 0;
    json_t *cur = doc;
    *resolved = NULL;
    if (!append(&out, &len, &cap, "", 0)) return -1;
    rb_pointer_walk w;
    const char *raw;
    size_t n;
    int next = rb_pointer_walk_begin(&w, path, strlen(path), 1);
    while (next == 0 && (next = rb_pointer_next(&w, &raw, &n)) == 1) {
        next = 0;
        char *token = strndup(raw, n);
        if (!token) { free(out); return -1; }
        if (n >= 2 && token[0] == '[' && token[n - 1] == ']' && json_is_array(cur)) {
            token[n - 1] = 0;
            size_t found = 0, index = 0, *all = NULL;
            if (rb_json_select_all(cur, token + 1, &all, &found) != 0) {
                snprintf(err, err_size, "out of memory");
                free(token);
                free(out);
                return -1;
            }
            if (found) index = all[0];
            free(all);
            if (found != 1) {
                rb_selector_refuse(err, err_size, token + 1, path, found, "");
                free(token);
                free(out);
                return -1;
            }
            char num[32];
            snprintf(num, sizeof num, "/%zu", index);
            append(&out, &len, &cap, num, strlen(num));
            cur = json_array_get(cur, index);
            free(token);
            continue;
        }
        append(&out, &len, &cap, "/", 1);
        if (!append(&out, &len, &cap, raw, n)) { free(token); free(out); return -1; }
        /* plain tokens pass through; follow them while the document has them */
        if (cur) cur = rb_json_pointer_get(cur, out + len - n - 1, NULL, 0);
        free(token);
    }
    if (next < 0) { snprintf(err, err_size, "path %s must start with '/'", path); free(out); return -1; }
    *resolved = out;
    return 0;
}

json_t *rb_json_op_resolve(json_t *doc, const json_t *op, char *err, size_t err_size)
{
    json_t *plain_op = json_deep_copy(op);
    if (!plain_op) { snprintf(err, err_size, "out of memory"); return NULL; }
    static const char *const members[] = {"path", "from"};
    /* "from" belongs to move and copy; other operations ignore it (RFC 6902 section 4) */
    const char *kind = json_string_value(json_object_get(op, "op"));
    int members_used = kind && (strcmp(kind, "move") == 0 || strcmp(kind, "copy") == 0) ? 2 : 1;
    for (int m = 0; m < members_used && json_is_object(plain_op); m++) {
        const char *path = json_string_value(json_object_get(plain_op, members[m]));
        char *plain;
        if (!path) continue;
        if (rb_pointer_resolve(doc, path, &plain, err, err_size) != 0) {
            json_decref(plain_op);
            return NULL;
        }
        json_object_set_new(plain_op, members[m], json_string(plain));
        free(plain);
    }
    return plain_op;
}

int rb_json_patch_apply_selectors_in_place(json_t **doc, const json_t *patch, char *err, size_t err_size)
{
    if (!json_is_array(patch)) { snprintf(err, err_size, "a patch is a JSON array of operations"); return -1; }
    /* each operation is resolved against the document as the ones before it left it */
    for (size_t i = 0; i < json_array_size(patch); i++) {
        char why[900];
        json_t *op = rb_json_op_resolve(*doc, json_array_get(patch, i), why, sizeof why);
        if (!op) {
            snprintf(err, err_size, "patch[%zu]: %s", i, why);
            return -1;
        }
        const char *kind = json_string_value(json_object_get(op, "op"));
        int rc = 0;
        if (kind && strcmp(kind, "test") == 0) { /* compared as content, a digest pin included (pins.c) */
            json_t *actual = rb_json_pointer_get(*doc, json_string_value(json_object_get(op, "path")), NULL, 0);
            if (!actual || !rb_values_equal(actual, json_object_get(op, "value"))) {
                snprintf(err, err_size, "patch[%zu]: test failed: %s", i, actual ? "value differs" : "no value there");
                rc = -1;
            }
        } else {
            json_t *single = json_pack("[O]", op);
            rc = rb_json_patch_apply_in_place(doc, single, why, sizeof why);
            json_decref(single);
            const char *tail = strstr(why, "patch[0]");
            if (rc != 0) snprintf(err, err_size, "patch[%zu]%s", i, tail ? tail + 8 : why);
        }
        json_decref(op);
        if (rc != 0) return -1;
    }
    return 0;
}
