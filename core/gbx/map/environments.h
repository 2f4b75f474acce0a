/* Environments (environments.c): names of the engine's collection ids, cell sizes. */
#ifndef RB_GBX_ENVIRONMENTS_H
#define RB_GBX_ENVIRONMENTS_H
#include <stdint.h>

/* The name of collection id `id`, NULL when the engine's table has none. */
const char *gbx_collection_name(uint32_t id);
/* One block cell of `environment` (a name; NULL: the usual) in metres: x, height, z. */
void gbx_environment_cell(const char *environment, float metres[3]);
#endif
