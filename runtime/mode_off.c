/* mode_off.c -- linked by `emheap-config --mode=off`: the profiler stays in
** the build but records nothing unless the page or environment asks. */
#include "emheap_internal.h"
const uint32_t emheap_link_mode = EMHEAP_MODE_OFF;
/* The same, where JS can read it before the module is compiled (a custom
** section: library_emheap.js decides there whether to rewrite the module
** for calling contexts). */
__asm__(".section .custom_section.emheap.link_mode,\"\",@\n.ascii \"off\"\n.text\n");
