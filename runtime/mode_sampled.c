/* mode_sampled.c -- linked by `emheap-config --mode=sampled`: sample by
** bytes unless the page or environment asks otherwise. */
#include "emheap_internal.h"
const uint32_t emheap_link_mode = EMHEAP_MODE_SAMPLED;
