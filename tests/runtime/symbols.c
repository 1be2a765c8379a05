/*
** symbols.c -- a module linked without a name section (no
** --profiling-funcs) and with --emit-symbol-map: the frames of its stacks
** are named from the map. Each function has two callers, so that binaryen
** inlines none of them. Prints "SNAPSHOT {...}".
*/
#include <emscripten.h>
#include <stdlib.h>

static void *volatile sink;

__attribute__((noinline)) void inner(size_t n) { sink = malloc(n); }
__attribute__((noinline)) void middle(size_t n) { inner(n); inner(n + 8); }
__attribute__((noinline)) void outer(size_t n) { middle(n); middle(n + 16); }

int main(void) {
  outer(4096);
  outer(64);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  return 0;
}
