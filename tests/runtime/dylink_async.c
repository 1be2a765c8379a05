/*
** dylink_async.c -- a side module that tests/runtime/dylink_main.c opens
** with emscripten_dlopen (asynchronously: fetched, compiled and
** instantiated off the call's stack) and plants a leak from. Built
** -sSIDE_MODULE=1 with nothing of emheap.
*/
#include <stdlib.h>
#include <string.h>

#include "dylink_plan.h"

/* Two callers, so that binaryen keeps its frame. */
__attribute__((noinline)) void *async_leak_block(size_t n) {
  void *p = malloc(n);
  if (p) memset(p, 0x77, n);
  return p;
}

void async_plant_leak(void) {
  for (int i = 0; i < ASYNC_BLOCKS; i++) async_leak_block(ASYNC_BYTES);
}

void async_plant_one(void) {
  async_leak_block(ASYNC_BYTES);
}
