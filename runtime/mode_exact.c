/* mode_exact.c -- linked by `emheap-config --mode=exact`: record every
** allocation unless the page or environment asks otherwise. */
#include "emheap_internal.h"
const uint32_t emheap_link_mode = EMHEAP_MODE_EXACT;
/* The same, where JS can read it before the module is compiled (a custom
** section: library_emheap.js decides there whether to rewrite the module
** for calling contexts). */
__asm__(".section .custom_section.emheap.link_mode,\"\",@\n.ascii \"exact\"\n.text\n");
