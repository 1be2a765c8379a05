/* mode_sampled.c -- linked by `emheap-config --mode=sampled`: sample by
** bytes unless the page or environment asks otherwise. */
#include "emheap_internal.h"
const uint32_t emheap_link_mode = EMHEAP_MODE_SAMPLED;
/* The same, where JS can read it before the module is compiled (a custom
** section: library_emheap.js decides there whether to rewrite the module
** for calling contexts). */
__asm__(".section .custom_section.emheap.link_mode,\"\",@\n.ascii \"sampled\"\n.text\n");
