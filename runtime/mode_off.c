/* mode_off.c -- linked by `emheap-config --mode=off`: the profiler stays in
** the build but records nothing unless the page or environment asks. */
#include "emheap_internal.h"
const uint32_t emheap_link_mode = EMHEAP_MODE_OFF;
