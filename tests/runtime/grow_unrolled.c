/*
** grow_unrolled.c -- the rounds of marks_rounds.c as -O2 really compiles
** them: loops unrolled, so one line of source is many call sites. It marks
** "warm", then for ROUNDS rounds grow_list keeps 10 more blocks of 1000 B
** (an unrolled loop of 10 mallocs, and two callers: 20 call sites) while
** level_cache keeps the newest 40 of its blocks and frees the rest. By
** function, grow_list is one row: ROUNDS x 10 x 1000 B since "warm".
** Prints the snapshot at the end (SNAPSHOT {...}) and the page's
** emheap.top() of it (TOP {...}).
*/
#include <stdlib.h>
#include <string.h>
#include <emscripten.h>

#include "emheap.h"

#define ROUNDS 12
#define PER_ROUND 10
#define CACHE 40

static void *list[ROUNDS * PER_ROUND];
static int used;
static void *cache[CACHE];
static unsigned cache_next;

__attribute__((noinline)) static void grow_list(int round) {
#pragma clang loop unroll(full)
  for (int i = 0; i < PER_ROUND / 2; i++) {
    char *p = malloc(1000);
    if (p) memset(p, round + i, 8);
    list[used++] = p;
  }
}

__attribute__((noinline)) static void level_cache(int round) {
#pragma clang loop unroll(full)
  for (int i = 0; i < 8; i++) {
    unsigned slot = cache_next++ % CACHE;
    free(cache[slot]);
    cache[slot] = malloc(700);
    if (cache[slot]) memset(cache[slot], round - i, 8);
  }
}

int main(void) {
  emheap_mark("warm");
  for (int r = 0; r < ROUNDS; r++) {
    grow_list(r); /* two callers of grow_list: 2 x 5 call sites */
    level_cache(r);
    grow_list(r + 100);
    emheap_mark("round");
  }
  /* the snapshot, and the page's own top of it: the CLI must say the same */
  EM_ASM({
    var snapshot = Module['emheap'].snapshot();
    console.log('SNAPSHOT ' + JSON.stringify(snapshot));
    console.log('TOP ' + JSON.stringify(Module['emheap'].top({}, snapshot)));
  });
  return 0;
}
