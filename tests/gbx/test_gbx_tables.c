/*
 * The one registration point of GBX classes (core/gbx/gbx_tables.h): no chunk or class id is
 * defined twice among the body tables nor among the header tables (so the list's order decides
 * nothing), no entry is a legacy id the lookup never asks for (gbx_remap_id maps those first),
 * every entry has a name and (unless skippable) a description, and the lookup finds each entry itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include "tests/test_util.h"
#include "core/gbx/gbx_classes.h"

typedef struct named_table {
    const char *name;
    const gbx_chunk_table *table;
} named_table;

#define NAMED_TABLE(table) {#table, &table},
static const named_table BODY[] = {GBX_BODY_TABLES(NAMED_TABLE)};
static const named_table HEADER[] = {GBX_HEADER_TABLES(NAMED_TABLE)};
#undef NAMED_TABLE

typedef struct entry {
    uint32_t id;
    const char *table;
    const gbx_chunk_def *def;
} entry;

static int by_id(const void *a, const void *b)
{
    uint32_t x = ((const entry *)a)->id, y = ((const entry *)b)->id;
    return x < y ? -1 : x > y;
}

/* Every entry of a list's tables, checked one by one and then for ids defined twice. */
static size_t check_list(const char *list, const named_table *tables, size_t table_count,
                         const gbx_chunk_def *(*find)(uint32_t))
{
    size_t total = 0;
    for (size_t t = 0; t < table_count; t++) total += tables[t].table->count;
    entry *all = calloc(total ? total : 1, sizeof *all);
    if (!all) exit(2);
    size_t n = 0;
    for (size_t t = 0; t < table_count; t++) {
        const gbx_chunk_table *table = tables[t].table;
        CHECK(table->count > 0 && table->defs, "%s: %s is empty", list, tables[t].name);
        for (size_t i = 0; i < table->count; i++) {
            const gbx_chunk_def *def = &table->defs[i];
            CHECK(def->name && def->name[0], "%s: %s[%zu] (0x%08X) has no name", list, tables[t].name, i, def->id);
            /* a skippable chunk may be named and kept opaque; any other needs its description */
            CHECK(def->describe || def->skippable == 1, "%s: %s[%zu] (0x%08X) has no description", list,
                  tables[t].name, i, def->id);
            CHECK(gbx_remap_id(def->id) == def->id, "%s: %s defines 0x%08X, a legacy id the lookup maps to 0x%08X",
                  list, tables[t].name, def->id, gbx_remap_id(def->id));
            CHECK(find(def->id) == def, "%s: the lookup of 0x%08X (%s) does not find its entry", list, def->id,
                  tables[t].name);
            all[n++] = (entry){def->id, tables[t].name, def};
        }
    }
    qsort(all, n, sizeof *all, by_id);
    for (size_t i = 1; i < n; i++)
        CHECK(all[i].id != all[i - 1].id, "%s: 0x%08X is defined twice (%s \"%s\", %s \"%s\")", list, all[i].id,
              all[i - 1].table, all[i - 1].def->name, all[i].table, all[i].def->name);
    free(all);
    return n;
}

int main(void)
{
    size_t body = check_list("body", BODY, sizeof BODY / sizeof BODY[0], gbx_find_chunk);
    size_t header = check_list("header", HEADER, sizeof HEADER / sizeof HEADER[0], gbx_find_header_chunk);
    CHECK(body > 0 && header > 0, "no entries");
    printf("gbx tables: %zu body and %zu header entries in %zu + %zu tables%s\n", body, header,
           sizeof BODY / sizeof BODY[0], sizeof HEADER / sizeof HEADER[0], test_failures ? "" : ", each id once");
    return test_failures ? 1 : 0;
}
