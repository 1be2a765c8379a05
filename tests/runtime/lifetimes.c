/*
** lifetimes.c -- a program whose blocks live for known spans, counted in
** allocations: fill_cache keeps 1,000 blocks before the mark "start";
** make_temporaries makes 100,000 blocks, each freed before the next is
** made (temporary allocations); after "start", keep_blocks keeps 200
** blocks, churn makes 5,000 in batches of 50, each batch freed in the
** order it was made, and drop_from_cache frees 300 of the cache; then the
** mark "end", after which 100 more of the cache go and keep_blocks keeps
** 50 more. Prints the snapshot (SNAPSHOT {...}). Run by
** tests/e2e/lifetimes.test.js, which knows every count above.
**
** -DON_THREAD (with -pthread): make_temporaries and churn run on a
** pthread, the marks are made on the main thread; a temporary is a block
** freed before its own thread allocated again, so the counts stay.
**
** -DWRAP_SERIALS: the block serial is set near 2^31 just before
** make_temporaries, so that the serials are numbered again among the
** temporaries (runtime/marks.c): the lifetimes must not change, but for
** the cache's, whose blocks are then 2^31 serials old.
**
** Each allocating function is called in a loop through a pointer binaryen
** cannot see through: one site each, its own frame.
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

#define CACHE 1000
#define CACHE_DROPPED 300
#define TEMPORARIES 100000
#define KEPT 200
#define CHURN 5000
#define BATCH 50
#define DROPPED_AFTER 100
#define KEPT_AFTER 50

static void *cache[CACHE];
static void *kept[KEPT + KEPT_AFTER];
static volatile unsigned sink;

static void *fill_cache(int i) {
  char *p = malloc(256);
  if (p) memset(p, i, 16);
  return p;
}

static void make_temporaries(int i) {
  char *p = malloc(32);
  if (p) {
    memset(p, i, 32);
    sink += (unsigned char)p[i % 32];
  }
  free(p);
}

static void *keep_blocks(int i) {
  char *p = malloc(128);
  if (p) memset(p, i + 1, 24); /* not fill_cache's code: binaryen would merge the two */
  return p;
}

static void churn(int batch) {
  void *b[BATCH];
  for (int i = 0; i < BATCH; i++) {
    b[i] = malloc(64 + (batch & 7));
    if (b[i]) memset(b[i], i, 8);
  }
  for (int i = 0; i < BATCH; i++) free(b[i]);
}

static void drop_from_cache(int i) {
  free(cache[i]);
  cache[i] = NULL;
}

static void *(*volatile fill)(int) = fill_cache;
static void (*volatile temporary)(int) = make_temporaries;
static void *(*volatile keep)(int) = keep_blocks;
static void (*volatile batch)(int) = churn;
static void (*volatile drop)(int) = drop_from_cache;

#ifdef WRAP_SERIALS
/* emheap_state_address (runtime/state.c): the state the JS reads. */
extern void *emheap_state_address(void);
#endif

static void *temporaries(void *arg) {
  (void)arg;
  for (int i = 0; i < TEMPORARIES; i++) temporary(i);
  return NULL;
}

static void *batches(void *arg) {
  (void)arg;
  for (int i = 0; i < CHURN / BATCH; i++) batch(i);
  return NULL;
}

/* fn on a pthread of its own (-DON_THREAD), or here */
static void run(void *(*fn)(void *)) {
#ifdef ON_THREAD
  pthread_t t;
  if (pthread_create(&t, NULL, fn, NULL) == 0) pthread_join(t, NULL);
#else
  fn(NULL);
#endif
}

int main(void) {
  for (int i = 0; i < CACHE; i++) cache[i] = fill(i);
#ifdef WRAP_SERIALS
  ((volatile emheap_state *)emheap_state_address())->block_serial = 0x7FFFFFFFu - 100u;
#endif
  run(temporaries);
  emheap_mark("start");
  for (int i = 0; i < KEPT; i++) kept[i] = keep(i);
  run(batches);
  for (int i = 0; i < CACHE_DROPPED; i++) drop(i);
  emheap_mark("end");
  for (int i = CACHE_DROPPED; i < CACHE_DROPPED + DROPPED_AFTER; i++) drop(i);
  for (int i = KEPT; i < KEPT + KEPT_AFTER; i++) kept[i] = keep(i);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
#ifdef WRAP_SERIALS
  EM_ASM({ console.log('RENUMBERS {"count": ' + $0 + '}'); }, ((volatile emheap_state *)emheap_state_address())->serial_renumbers);
#endif
  return (int)(sink & 0);
}
