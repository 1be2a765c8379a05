/*
** code_last.c -- marks where the runtime's code ends in the linked module:
** compiled last into emheap.o (runtime/build.js). See code_first.c.
*/
#include <emscripten.h>
#include <stdint.h>

EMSCRIPTEN_KEEPALIVE uint32_t emheap_code_last(void) { return 0x656d687au; }
