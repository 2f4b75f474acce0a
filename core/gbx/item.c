/* Chunk layouts: see the table at the end. (Filled in as classes are typed.) */
#include "gbx_internal.h"

const gbx_chunk_table gbx_item_chunks = {NULL, 0};
const gbx_chunk_table gbx_item_header_chunks = {NULL, 0};
