/* mode_exact.c -- linked by `emheap-config --mode=exact`: record every
** allocation unless the page or environment asks otherwise. */
#include "emheap_internal.h"
const uint32_t emheap_link_mode = EMHEAP_MODE_EXACT;
