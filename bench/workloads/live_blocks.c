/*
** live_blocks.c -- what tracking costs in memory: allocates N blocks of 32
** bytes (default 1,000,000), keeps them all live, and prints the allocator's
** and the wasm memory's size. The bench runs it with and without emheap:
** (difference) / N is emheap's memory per live block.
**
** mallinfo() describes the whole dlmalloc heap, which also serves
** emscripten_builtin_malloc, i.e. emheap's own tables; sbrk(0) and the wasm
** memory size catch memory taken any other way.
**
** Usage: live_blocks [blocks]
*/
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <emscripten.h>
#include <emscripten/heap.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  void **blocks = malloc((size_t)n * sizeof *blocks);
  if (!blocks) return 1;
  double start = emscripten_get_now();
  for (long i = 0; i < n; i++) {
    blocks[i] = malloc(32);
    if (!blocks[i]) {
      fprintf(stderr, "live_blocks: out of memory after %ld blocks\n", i);
      return 1;
    }
    *(long *)blocks[i] = i;
  }
  double ms = emscripten_get_now() - start;
  struct mallinfo mi = mallinfo();
  printf("{\"workload\":\"live_blocks\",\"blocks\":%ld,\"block_size\":32,\"ms\":%.3f,"
         "\"malloc_in_use\":%lu,\"malloc_arena\":%lu,\"sbrk\":%lu,\"heap_size\":%lu}\n",
         n, ms, (unsigned long)mi.uordblks, (unsigned long)mi.arena,
         (unsigned long)(uintptr_t)sbrk(0), (unsigned long)emscripten_get_heap_size());
  return blocks[n / 2] == NULL;
}
