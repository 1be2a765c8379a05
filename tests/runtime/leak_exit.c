/*
** leak_exit.c -- leaks on purpose, for the leak report at exit
** (tests/runtime.test.js): 3 x 4096 bytes from leak_buffers, 2 x 100 bytes
** from leak_small, and a block that is freed. Linked with -sEXIT_RUNTIME=1
** so that the runtime exits when main returns. Run with the argument
** "keep", every block left is kept in a global: still reachable at exit,
** not leaked (for leakExitOn).
*/
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *volatile sink;
static unsigned long long leaked; /* usable sizes, what the report counts */
static int keep;                  /* "keep": every block stays reachable */
static void *volatile kept[5];
static int kept_count;

static void *hold(void *p) {
  if (keep) kept[kept_count++] = p;
  return p;
}

__attribute__((noinline)) void leak_buffers(void) {
  for (int i = 0; i < 3; i++) {
    char *p = hold(malloc(4096));
    memset(p, i, 4096);
    leaked += 4096; /* what the program asked for: what a leak report counts */
    sink = p;
  }
}

__attribute__((noinline)) void leak_small(void) {
  for (int i = 0; i < 2; i++) {
    sink = hold(malloc(100));
    leaked += 100;
  }
}

__attribute__((noinline)) void freed_properly(void) {
  void *p = malloc(50000);
  sink = p;
  free(p);
}

/* Called through volatile pointers: wasm-opt inlines functions called once,
** whatever the C attributes say, and the report must name these. */
static void (*volatile calls[])(void) = {leak_buffers, leak_small, freed_properly};

int main(int argc, char **argv) {
  keep = argc > 1 && strcmp(argv[1], "keep") == 0;
  for (int i = 0; i < 3; i++) calls[i]();
  printf("LEAKED {\"bytes\":%llu}\n", leaked);
  return 0;
}
