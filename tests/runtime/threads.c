/*
** threads.c -- emheap in a -pthread program (tests/runtime.test.js, node).
**
** Four threads allocate and free at once (300,000 blocks each, 1,000 of
** them kept), then 16 short threads are started and joined one after the
** other: Emscripten 3.1.6 frees a thread's struct and stack with its
** builtin allocator, which used to crash emheap at every thread exit. With
** the threads quiet again the global counters must equal the sum over
** sites. Prints TAP lines, then "SNAPSHOT {...}".
*/
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>

#include "emheap.h"

enum { THREADS = 4, OPS = 300000, KEEP = 1000, SHORT_THREADS = 16 };

static int checks, failures;
#define CHECK(cond, msg)                                        \
  do {                                                          \
    int ok_ = (cond);                                           \
    checks++;                                                   \
    if (!ok_) failures++;                                       \
    printf("%s %d - %s\n", ok_ ? "ok" : "not ok", checks, msg); \
  } while (0)

static void *kept[THREADS][KEEP];
static unsigned long long kept_bytes[THREADS];

__attribute__((noinline)) static void *worker_alloc(size_t n) { return malloc(n); }

static void *worker(void *arg) {
  int id = (int)(intptr_t)arg;
  unsigned x = 12345u + (unsigned)id;
  void *ring[64] = {0};
  for (int i = 0; i < OPS; i++) {
    x = x * 1103515245u + 12345u;
    int slot = (x >> 8) & 63;
    free(ring[slot]);
    ring[slot] = worker_alloc(8 + ((x >> 16) & 255));
    if (i % (OPS / KEEP) == 0 && i / (OPS / KEEP) < KEEP) {
      void *p = calloc(1, 48);
      kept[id][i / (OPS / KEEP)] = p;
      kept_bytes[id] += malloc_usable_size(p);
    }
  }
  for (int s = 0; s < 64; s++) free(ring[s]);
  return NULL;
}

static void *short_lived(void *arg) {
  (void)arg;
  free(malloc(100));
  return NULL;
}

int main(void) {
  emheap_counters base;
  emheap_get_counters(&base);
  pthread_t t[THREADS];
  int started = 1;
  for (int i = 0; i < THREADS; i++) started &= pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i) == 0;
  CHECK(started, "4 threads started");
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < SHORT_THREADS; i++) {
    pthread_t s;
    if (pthread_create(&s, NULL, short_lived, NULL) == 0) pthread_join(s, NULL);
  }
  CHECK(1, "16 threads started, exited and joined without a crash");
  emheap_counters c;
  emheap_get_counters(&c);
  unsigned long long held = 0;
  for (int i = 0; i < THREADS; i++) held += kept_bytes[i];
  printf("COUNTS {\"baseBlocks\":%u,\"baseBytes\":%llu,\"liveBlocks\":%u,\"liveBytes\":%llu,\"held\":%llu,"
         "\"invalidFrees\":%llu,\"mallocCalls\":%llu,\"freeCalls\":%llu}\n",
         base.live_blocks, (unsigned long long)base.live_bytes, c.live_blocks, (unsigned long long)c.live_bytes, held,
         (unsigned long long)c.invalid_frees, (unsigned long long)c.malloc_calls, (unsigned long long)c.free_calls);
  fflush(stdout);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  printf("1..%d\n", checks);
  return failures ? 1 : 0;
}
