/*
** dylink_opened.c -- a side module that tests/runtime/dylink_main.c opens
** with dlopen at run time, plants a leak from, keeps blocks in the globals
** of, and closes (its memory stays: Emscripten never unloads a module). Built
** -sSIDE_MODULE=1 with nothing of emheap.
*/
#include <stdlib.h>
#include <string.h>

#include "dylink_plan.h"

/* Two callers, so that binaryen keeps its frame. */
__attribute__((noinline)) void *opened_leak_block(size_t n) {
  void *p = malloc(n);
  if (p) memset(p, 0x3c, n);
  return p;
}

/* Blocks this module's globals keep: reachable, not leaked. */
void *opened_kept[KEPT_BLOCKS];
void opened_keep(void) {
  for (int i = 0; i < KEPT_BLOCKS; i++) opened_kept[i] = opened_leak_block(KEPT_BYTES);
}

void opened_plant_leak(void) {
  for (int i = 0; i < OPENED_BLOCKS; i++) opened_leak_block(OPENED_BYTES);
}

/* A block the main module frees. */
void *opened_make_block(size_t n) {
  return opened_leak_block(n);
}
