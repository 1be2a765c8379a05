/*
** leak_clean.c -- frees everything it allocates, for the leak report at
** exit (tests/runtime.test.js): the report must say nothing is live.
** Linked with -sEXIT_RUNTIME=1.
*/
#include <stdlib.h>

static void *volatile sink;

__attribute__((noinline)) void *make_block(size_t n) { return malloc(n); }

int main(void) {
  void *blocks[10];
  for (int i = 0; i < 10; i++) blocks[i] = make_block(100 * (i + 1));
  for (int i = 0; i < 10; i++) {
    sink = blocks[i];
    free(blocks[i]);
  }
  return 0;
}
