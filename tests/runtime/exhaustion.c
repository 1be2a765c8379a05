/*
** exhaustion.c -- the app runs out of memory with emheap's headers and
** site table in the same heap: the failing malloc must return NULL (never
** crash), every block stays counted, no legitimate free is reported
** invalid, and every block comes back. Fixed 32 MiB memory, no growth.
** Prints TAP lines and "COUNTERS {...}"; exits 1 if a check failed.
*/
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

#include "emheap.h"

static int checks, failures;
#define CHECK(cond, msg)                                              \
  do {                                                                \
    checks++;                                                         \
    if (!(cond)) failures++;                                          \
    printf("%s %d - %s\n", (cond) ? "ok" : "not ok", checks, msg);    \
  } while (0)

typedef struct chunk {
  struct chunk *next;
} chunk;

int main(void) {
  emheap_counters before, full, after;
  emheap_get_counters(&before);
  chunk *list = NULL;
  long blocks = 0;
  for (;;) {
    chunk *c = malloc(16);
    if (!c) break;
    c->next = list;
    list = c;
    blocks++;
  }
  emheap_get_counters(&full);
  CHECK(blocks > 100000, "allocated until malloc returned NULL");
  CHECK(full.failed_allocs >= 1, "the failing malloc is counted");
  CHECK(full.live_blocks == before.live_blocks + (uint64_t)blocks, "every block is counted live");
  EM_ASM({ console.log('SNAPSHOT_OK ' + JSON.stringify({sites: Module['emheap'].snapshot().sites.length})); });
  while (list) {
    chunk *next = list->next;
    free(list);
    list = next;
  }
  emheap_get_counters(&after);
  CHECK(after.invalid_frees == before.invalid_frees, "no legitimate free was called invalid");
  CHECK(after.live_blocks == before.live_blocks, "tracked blocks all released");
  /* The memory really came back: the same amount fits again. */
  long again = 0;
  for (long i = 0; i < blocks / 2; i++) {
    chunk *c = malloc(16);
    if (!c) break;
    c->next = list;
    list = c;
    again++;
  }
  CHECK(again == blocks / 2, "freed memory is usable again");
  printf("COUNTERS {\"blocks\":%ld,\"tracked\":%u}\n", blocks, full.live_blocks - before.live_blocks);
  printf("1..%d\n", checks);
  return failures ? 1 : 0;
}
