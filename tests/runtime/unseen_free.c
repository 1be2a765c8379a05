// unseen_free.c -- a block allocated around malloc (the allocator's own
// entry point, as mimalloc's nothrow operator new does) and freed with
// free(): in exact mode emheap must not take its bytes off the blocks it
// saw, and must count it as an unseen free. Run by tests/runtime.test.js;
// prints "UNSEEN {...}" and "SUMMARY {...}".
#include <emscripten.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include "builtin_alloc.h"

static void *kept[4];

int main(void) {
  size_t seen = 0;
  for (int i = 0; i < 4; i++) {
    kept[i] = malloc(100 + i);
    seen += malloc_usable_size(kept[i]);
  }
  void *around = emscripten_builtin_malloc(5000);
  size_t around_usable = malloc_usable_size(around);
  free(around);
  printf("UNSEEN {\"seenBytes\": %zu, \"aroundBytes\": %zu}\n", seen, around_usable);
  EM_ASM({ console.log('SUMMARY ' + Module['emheap'].getSnapshotJson()); });
  return 0;
}
