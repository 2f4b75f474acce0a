/*
 * The GBX class-table walk (gbx_classes.h): the chunk tables every class file defines, listed
 * once in gbx_tables.h, looked up by id. It sits above the class folders it lists; the engine
 * (core/gbx/engine/) asks it through gbx_class_hooks.
 */
#include <pthread.h>
#include "core/gbx/gbx_classes.h"

/* The lookup walks the one list of gbx_tables.h; no id is in two tables of a list. */
#define GBX_TABLE_ADDRESS(table) &table,
static const gbx_chunk_table *const BODY_TABLES[] = {GBX_BODY_TABLES(GBX_TABLE_ADDRESS)};
static const gbx_chunk_table *const HEADER_TABLES[] = {GBX_HEADER_TABLES(GBX_TABLE_ADDRESS)};
#undef GBX_TABLE_ADDRESS
static const size_t HEADER_TABLE_COUNT = sizeof HEADER_TABLES / sizeof HEADER_TABLES[0];

static const gbx_chunk_def *find_in(const gbx_chunk_table *const *tables, size_t count, uint32_t id)
{
    for (size_t t = 0; t < count; t++)
        for (size_t i = 0; tables[t]->defs && i < tables[t]->count; i++)
            if (tables[t]->defs[i].id == id) return &tables[t]->defs[i];
    return NULL;
}

/* Scanning every table for every chunk was a hot spot, so the ids are indexed: open addressing,
 * each id mapped to its first definition in table order (what the scan finds). The index is
 * built once per process under pthread_once and only read afterwards, so documents parsed in
 * other threads share it safely. Past half full it is not used and lookups scan again. */
enum { CHUNK_INDEX_BITS = 12, CHUNK_INDEX_SLOTS = 1 << CHUNK_INDEX_BITS };

typedef struct chunk_index {
    uint32_t ids[CHUNK_INDEX_SLOTS];
    const gbx_chunk_def *defs[CHUNK_INDEX_SLOTS]; /* NULL: empty slot */
    size_t used;
    int usable;
} chunk_index;

static chunk_index BODY_INDEX, HEADER_INDEX;
static pthread_once_t CHUNK_INDEX_ONCE = PTHREAD_ONCE_INIT;

static size_t chunk_slot(uint32_t id) { return (uint32_t)(id * 2654435761u) >> (32 - CHUNK_INDEX_BITS); }

static void index_add(chunk_index *x, const gbx_chunk_def *def)
{
    size_t i = chunk_slot(def->id);
    while (x->defs[i]) {
        if (x->ids[i] == def->id) return; /* an earlier table defines it: that one wins */
        i = (i + 1) & (CHUNK_INDEX_SLOTS - 1);
    }
    if (++x->used > CHUNK_INDEX_SLOTS / 2) {
        x->usable = 0;
        return;
    }
    x->ids[i] = def->id;
    x->defs[i] = def;
}

static void index_tables(chunk_index *x, const gbx_chunk_table *const *tables, size_t count)
{
    x->usable = 1;
    for (size_t t = 0; t < count && x->usable; t++)
        for (size_t i = 0; tables[t]->defs && i < tables[t]->count && x->usable; i++)
            index_add(x, &tables[t]->defs[i]);
}

static void build_chunk_indexes(void)
{
    index_tables(&BODY_INDEX, BODY_TABLES, sizeof BODY_TABLES / sizeof BODY_TABLES[0]);
    index_tables(&HEADER_INDEX, HEADER_TABLES, HEADER_TABLE_COUNT);
}

static const gbx_chunk_def *find_indexed(const chunk_index *x, const gbx_chunk_table *const *tables, size_t count,
                                         uint32_t id)
{
    if (pthread_once(&CHUNK_INDEX_ONCE, build_chunk_indexes) != 0 || !x->usable) return find_in(tables, count, id);
    for (size_t i = chunk_slot(id); x->defs[i]; i = (i + 1) & (CHUNK_INDEX_SLOTS - 1))
        if (x->ids[i] == id) return x->defs[i];
    return NULL;
}

const gbx_chunk_def *gbx_find_chunk(uint32_t raw)
{
    return find_indexed(&BODY_INDEX, BODY_TABLES, sizeof BODY_TABLES / sizeof BODY_TABLES[0], gbx_remap_id(raw));
}

const gbx_chunk_def *gbx_find_header_chunk(uint32_t raw)
{
    return find_indexed(&HEADER_INDEX, HEADER_TABLES, HEADER_TABLE_COUNT, gbx_remap_id(raw));
}
