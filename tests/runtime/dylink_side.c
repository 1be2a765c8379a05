/*
** dylink_side.c -- a side module linked at load time (emcc main.c
** dylink_side.wasm) into tests/runtime/dylink_main.c. It plants a leak from
** a function of its own, keeps blocks in its globals, and hands out and
** frees blocks the main module frees and makes. Built -sSIDE_MODULE=1 with nothing of emheap: its malloc
** and free are the main module's.
*/
#include <stdlib.h>
#include <string.h>

#include "dylink_plan.h"

/* Two callers, so that binaryen keeps its frame. */
__attribute__((noinline)) char *side_leak_block(size_t n) {
  char *p = malloc(n);
  if (p) memset(p, 0x5a, n);
  return p;
}

/* Blocks this module's globals keep: reachable, not leaked. */
char *side_kept[KEPT_BLOCKS];
void side_keep(void) {
  for (int i = 0; i < KEPT_BLOCKS; i++) side_kept[i] = side_leak_block(KEPT_BYTES);
}

void side_plant_leak(void) {
  for (int i = 0; i < SIDE_BLOCKS; i++) side_leak_block(SIDE_BYTES);
}

/* Called by JS through the function table (a pointer the main module hands
** to JS): the table's entries are the main module's and this module's. */
void side_called_from_js(void) {
  side_leak_block(FROM_JS_BYTES);
}
void (*side_pointer(void))(void) {
  return side_called_from_js;
}

/* A block the main module frees. */
char *side_make_block(size_t n) {
  return side_leak_block(n);
}

/* A block the main module made. */
void side_free_block(void *p) {
  free(p);
}
