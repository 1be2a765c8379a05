/*
** out_of_memory.c -- a program that leaks at one site until the memory
** runs out, on Emscripten's defaults: a fixed 16 MB heap, and malloc that
** aborts the program when it cannot be met (ABORTING_MALLOC); built also
** with ABORTING_MALLOC=0, where malloc returns NULL and the program says so
** and exits with status 3. Run by tests/e2e/out_of_memory.test.js, which
** expects emheap to name leak_entry as the site that filled the memory.
**
** make_table keeps 1 MB from a site of its own; leak_entry is called in a
** loop (so binaryen keeps its frame) and leaks 64 KiB a call.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *volatile sink;
static volatile int tag; /* sizes binaryen cannot fold */

__attribute__((noinline)) static void *make_table(int count) {
  void *p = 0;
  for (int i = 0; i < count; i++) p = malloc((1 << 20) + (tag & 1));
  return p;
}

__attribute__((noinline)) static void *leak_entry(int i) {
  char *p = malloc(65536 + (tag & 1));
  if (p) memset(p, i, 64);
  return p;
}

int main(void) {
  sink = make_table(1);
  for (int i = 0;; i++) {
    void *p = leak_entry(i);
    if (!p) {
      printf("malloc returned NULL after %d blocks\n", i);
      return 3;
    }
    sink = p;
  }
}
