/*
** builtin_alloc.h -- the allocator under emheap: the emscripten_builtin_*
** entry points that Emscripten's dlmalloc, emmalloc and mimalloc define
** beside malloc, which emheap's malloc forwards to. Declared here, not
** taken from a system header: Emscripten 3.1.x declares them in
** <emscripten/emmalloc.h>, later versions only in <emscripten/heap.h>
** (moved in 3.1.13); these declarations match both.
*/
#ifndef EMHEAP_BUILTIN_ALLOC_H
#define EMHEAP_BUILTIN_ALLOC_H

#include <stddef.h>

void *emscripten_builtin_malloc(size_t size);
void emscripten_builtin_free(void *ptr);
void *emscripten_builtin_memalign(size_t alignment, size_t size);

#endif
