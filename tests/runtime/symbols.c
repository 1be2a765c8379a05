/*
** symbols.c -- a module linked without a name section (no
** --profiling-funcs) and with --emit-symbol-map: the frames of its stacks
** are named from the map. It allocates through malloc, calloc,
** aligned_alloc, memalign and realloc (a different number of the
** runtime's frames above each, inlined or not). Each function has two
** callers, so that binaryen inlines none of them. Every size is asked for
** by one function only, so a block's size says which function asked.
** Prints "SNAPSHOT {...}".
*/
#include <emscripten.h>
#include <malloc.h>
#include <stdlib.h>

static void *volatile sink;

__attribute__((noinline)) void inner(size_t n) { sink = malloc(n); }
__attribute__((noinline)) void middle(size_t n) { inner(n); inner(n + 8); }
__attribute__((noinline)) void outer(size_t n) { middle(n); middle(n + 16); }

__attribute__((noinline)) void by_calloc(size_t n) { sink = calloc(n, 4); }
__attribute__((noinline)) void by_aligned_alloc(size_t n) { sink = aligned_alloc(64, n * 64); }
__attribute__((noinline)) void by_memalign(size_t n) { sink = memalign(128, n); }
__attribute__((noinline)) void by_realloc(size_t n) { sink = realloc(NULL, n + 3); }

int main(void) {
  outer(4096);
  outer(64);
  for (size_t n = 100; n < 300; n += 100) {
    by_calloc(n);
    by_aligned_alloc(n);
    by_memalign(n);
    by_realloc(n);
  }
  by_calloc(7);
  by_aligned_alloc(7);
  by_memalign(7);
  by_realloc(7);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  return 0;
}
