/*
** optional.c -- the stand-ins of the position-independent runtime (the one
** a -sMAIN_MODULE program links) for what only some allocators or
** Emscripten versions define (builtin_alloc.h), and for the mode object a
** link line may leave out (state.c). Compiled only -fPIC: a static link
** takes these weak, and a missing one has the address 0.
**
** Each stand-in is a weak definition that the allocator's strong one
** replaces at link time. Called, it marks itself absent and does nothing.
** emheap_probe_optional calls each function once, with arguments that make
** the real one do nothing either (or hand back a block it frees at once).
*/
#include <stdint.h>

#include "builtin_alloc.h"
#include "emheap_internal.h"

#ifndef __PIC__
#error "optional.c is for the position-independent runtime only"
#endif

unsigned emheap_absent_functions = (1u << EMHEAP_OPTIONAL_COUNT) - 1;

#define ABSENT(name) (emheap_absent_functions |= 1u << EMHEAP_OPTIONAL_INDEX_##name)
#define STAND_IN __attribute__((weak))
#pragma clang diagnostic ignored "-Wunused-parameter" /* stand-ins look at nothing */

STAND_IN void *emscripten_builtin_realloc(void *p, size_t n) { ABSENT(emscripten_builtin_realloc); return 0; }
STAND_IN void *emscripten_builtin_calloc(size_t count, size_t n) { ABSENT(emscripten_builtin_calloc); return 0; }
STAND_IN void *__libc_calloc(size_t count, size_t n) { ABSENT(__libc_calloc); return 0; }
STAND_IN void *__libc_realloc(void *p, size_t n) { ABSENT(__libc_realloc); return 0; }
STAND_IN void *emmalloc_realloc_try(void *p, size_t n) { ABSENT(emmalloc_realloc_try); return 0; }
STAND_IN int emmalloc_posix_memalign(void **out, size_t alignment, size_t n) { ABSENT(emmalloc_posix_memalign); return 0; }
STAND_IN size_t emmalloc_usable_size(void *p) { ABSENT(emmalloc_usable_size); return 0; }
STAND_IN size_t mi_usable_size(const void *p) { ABSENT(mi_usable_size); return 0; }
STAND_IN struct mallinfo mallinfo(void) { ABSENT(mallinfo); struct mallinfo none = {0}; return none; }

/* A block a real calloc or realloc made goes back to the allocator. */
static void give_back(void *p) {
  if (p) emscripten_builtin_free(p);
}

void emheap_probe_optional(void) {
  void *unused = 0;
  emheap_absent_functions = 0;
  give_back(emscripten_builtin_realloc(0, 1));
  give_back(emscripten_builtin_calloc(1, 1));
  give_back(__libc_calloc(1, 1));
  give_back(__libc_realloc(0, 1));
  (void)emmalloc_realloc_try(0, 1);                /* no block: does nothing */
  (void)emmalloc_posix_memalign(&unused, 3, 1);    /* alignment 3: refused at once */
  (void)emmalloc_usable_size(0);
  (void)mi_usable_size(0);
  (void)mallinfo();
}

/* The mode of a link line that names none (state.c): exact. */
__attribute__((weak)) const uint32_t emheap_link_mode = EMHEAP_MODE_EXACT;
