/*
** code_first.c -- marks where the runtime's code begins in the linked
** module. Compiled first into emheap.o (runtime/build.js), so that its one
** function has the lowest index of the runtime's functions; code_last.c's
** has the highest. The linker keeps each object's functions together and
** in order, and neither it nor binaryen's passes in Emscripten's pipeline
** reorder functions, so every function of the runtime left after inlining
** lies between the two. The JS library reads both indices from the
** exports (capture/runtime_code.js) and drops the frames in that range from
** an allocation's stack: the runtime's own frames, known by what they are
** rather than by name (a module may have none) or by a count (inlining
** makes it vary).
**
** The body is a constant no program function would return, so that
** binaryen never merges it with a function of the program's (a merged
** export would point into the program's code).
*/
#include <emscripten.h>
#include <stdint.h>

EMSCRIPTEN_KEEPALIVE uint32_t emheap_code_first(void) { return 0x656d6831u; }
