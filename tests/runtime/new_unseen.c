// new_unseen.c -- the shape of newer mimalloc (Emscripten 6's -sMALLOC=
// mimalloc, mimalloc PR #1257): C++ operator new is an alias of the
// allocator's own mi_new, which never calls malloc, and mi_usable_size
// names the allocator. emheap cannot see what such a new allocates, so it
// must turn itself off and say why, and the program must run as without it.
// Written in C with the C++ names, over the builtin allocator, because
// the Emscripten that runs the tests links libc++abi's operator new.
// Run by tests/runtime.test.js.
#include <emscripten.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include "builtin_alloc.h"

size_t mi_usable_size(const void *p) { return malloc_usable_size((void *)p); }
void *mi_new(size_t n) { return emscripten_builtin_malloc(n ? n : 1); }
void *_Znwm(size_t n) __attribute__((alias("mi_new")));

static volatile size_t sizes[] = {24, 100, 1000};

int main(void) {
  void *kept[3];
  for (int i = 0; i < 3; i++) kept[i] = _Znwm(sizes[i]);
  void *m = malloc(200);
  free(m);
  printf("NEW_UNSEEN {\"allocated\": %d}\n", kept[0] && kept[1] && kept[2]);
  EM_ASM({ console.log('SUMMARY ' + Module['emheap'].getSnapshotJson()); });
  return 0;
}
