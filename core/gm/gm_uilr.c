/* (being written) */
#include "gm_internal.h"
