/*
** marks_rounds.c -- a program that marks "warm" once loaded, then runs
** ROUNDS rounds and marks "round N" after each. Every round grow_list keeps
** 16 blocks of 4 KiB (64 KiB) and frees none: it grows without bound.
** cache_put adds 8 entries of 4 KiB to a cache that keeps the newest 24 and
** frees the older: it levels off at 96 KiB from round 3. load_assets keeps
** 100 KiB before the mark.
**
** -DON_THREAD (with -pthread): each round's allocations run on a pthread;
** the marks are made on the main thread. -DWRAP_SERIALS: the runtime's
** block serial is set near 2^31 after "warm", so that the serials are
** numbered again in round 5 (runtime/marks.c); what came after which mark
** must not change. Prints the snapshot at the end (SNAPSHOT {...}).
** Run by tests/e2e/marks.test.js.
**
** Each allocating function is called in a loop binaryen cannot unroll,
** through a pointer it cannot see through: one site each, its own frame.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <emscripten.h>
#ifdef ON_THREAD
#include <pthread.h>
#endif

#include "emheap.h"
#include "state_layout.h"

#define ROUNDS 12
#define BLOCK 4096
#define LIST_PER_ROUND 16
#define CACHE_PER_ROUND 8
#define CACHE_SIZE 24

static volatile int rounds = ROUNDS;
static volatile int list_per_round = LIST_PER_ROUND;
static volatile int cache_per_round = CACHE_PER_ROUND;
static volatile int asset_count = 25;

static void *list[ROUNDS * LIST_PER_ROUND];
static int list_used;
static void *cache[CACHE_SIZE];
static unsigned cache_next; /* entries ever put: the oldest is cache[cache_next % CACHE_SIZE] */
static void *assets[25];

static void *load_assets(int i) {
  char *p = malloc(BLOCK);
  if (p) memset(p, i, 16);
  return p;
}

static void *grow_list(int i) {
  char *p = malloc(BLOCK);
  if (p) memset(p, i + 1, 32); /* not load_assets' code: binaryen would merge the two */
  return p;
}

static void cache_put(int i) {
  unsigned slot = cache_next++ % CACHE_SIZE;
  free(cache[slot]); /* the oldest goes */
  cache[slot] = malloc(BLOCK);
  if (cache[slot]) memset(cache[slot], i, 16);
}

static void *(*volatile load)(int) = load_assets;
static void *(*volatile grow)(int) = grow_list;
static void (*volatile put)(int) = cache_put;

static void *one_round(void *arg) {
  int r = (int)(intptr_t)arg;
  for (int i = 0; i < list_per_round; i++) list[list_used++] = grow(r);
  for (int i = 0; i < cache_per_round; i++) put(r);
  return NULL;
}

#ifdef WRAP_SERIALS
/* emheap_state_address (runtime/state.c): the state the JS reads. */
extern void *emheap_state_address(void);
static void serials_near_the_end(void) {
  ((volatile emheap_state *)emheap_state_address())->block_serial = 0x7FFFFFFFu - 100u;
}
#endif

int main(void) {
  for (int i = 0; i < asset_count; i++) assets[i] = load(i);
  emheap_mark("warm");
#ifdef WRAP_SERIALS
  serials_near_the_end();
#endif
  for (int r = 1; r <= rounds; r++) {
#ifdef ON_THREAD
    pthread_t thread;
    pthread_create(&thread, NULL, one_round, (void *)(intptr_t)r);
    pthread_join(thread, NULL);
#else
    one_round((void *)(intptr_t)r);
#endif
    char name[16] = "round ";
    int n = 6;
    if (r >= 10) name[n++] = (char)('0' + r / 10);
    name[n++] = (char)('0' + r % 10);
    name[n] = 0;
    emheap_mark(name);
  }
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
#ifdef WRAP_SERIALS
  EM_ASM({ console.log('RENUMBERS {"count": ' + $0 + '}'); }, ((volatile emheap_state *)emheap_state_address())->serial_renumbers);
#endif
  return 0;
}
