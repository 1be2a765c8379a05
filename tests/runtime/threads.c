/*
** threads.c -- emheap in a -pthread program (tests/runtime.test.js, node).
**
** Four threads allocate and free at once (300,000 blocks each, 1,000 of
** them kept), then 16 short threads are started and joined one after the
** other: Emscripten 3.1.6 frees a thread's struct and stack with its
** builtin allocator, which used to crash emheap at every thread exit. With
** the threads quiet again the global counters must equal the sum over
** sites. One more thread allocates at the bottom of a 200-call recursion,
** deeper than the 128 frames a worker hands the runtime: the site keeps the
** leaf end and says where it was cut. Blocks allocated on one thread and
** freed on another leave the totals as they were, and the recorded ones
** (600 KiB, above the sampling interval) leave their site. Prints TAP lines, then
** "SNAPSHOT {...}".
*/
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>

#include "emheap.h"

enum { THREADS = 4, OPS = 300000, KEEP = 1000, SHORT_THREADS = 16, DEEP_CALLS = 200 };

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

static void *deep_block;

__attribute__((noinline)) static void *deep_alloc(void) { return malloc(64); }

/* Called through a volatile pointer: an indirect call is never turned into
** a loop or inlined, so every level stays a wasm frame. Two functions take
** turns: a function calling itself directly is one frame in JS stacks
** (capture/stack_table.js), and this stack must stay deep. */
static int deep_recurse(int n);
static int deep_recurse2(int n);
static int (*volatile deep_next)(int) = deep_recurse2;
static int (*volatile deep_next2)(int) = deep_recurse;

__attribute__((noinline)) static int deep_recurse(int n) {
  if (n == 0) {
    deep_block = deep_alloc();
    return deep_block != NULL;
  }
  return deep_next(n - 1) + (n & 1);
}

__attribute__((noinline)) static int deep_recurse2(int n) {
  if (n == 0) {
    deep_block = deep_alloc();
    return deep_block != NULL;
  }
  return deep_next2(n - 1) + (n & 3);
}

static void *deep_thread(void *arg) {
  (void)arg;
  deep_recurse(DEEP_CALLS);
  return NULL;
}

/* Hand-off: one thread allocates, another frees; both stay alive while
** main reads the counters, so whatever each has counted on its own and not
** yet added to the totals must be read too (runtime/thread_counts.h). */
enum { HANDOFF = 20000, BIG = 4, BIG_SIZE = 600 << 10 };
static void *handoff[HANDOFF];
static void *handoff_big[BIG]; /* above the sampling interval: always recorded */
static pthread_barrier_t handoff_steps;

/* Steps, all three threads: started (main reads "before"), go, filled,
** drained (main reads "during"), done. */
/* A site of its own (shadow stacks would merge it with fill's). */
__attribute__((noinline)) static void *big_alloc(void) { return malloc(BIG_SIZE); }

static void handoff_steps_wait(int n) {
  for (int i = 0; i < n; i++) pthread_barrier_wait(&handoff_steps);
}

static void *fill(void *arg) {
  (void)arg;
  handoff_steps_wait(2);
  for (int i = 0; i < HANDOFF; i++) handoff[i] = malloc(24 + (i * 7) % 200);
  for (int i = 0; i < BIG; i++) handoff_big[i] = big_alloc();
  handoff_steps_wait(3);
  return NULL;
}

static void *drain(void *arg) {
  (void)arg;
  handoff_steps_wait(3);
  for (int i = 0; i < HANDOFF; i++) free(handoff[i]);
  for (int i = 0; i < BIG; i++) free(handoff_big[i]);
  handoff_steps_wait(2);
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
  /* Thread creation allocates (3.1.x: struct and stack), and their freeing
  ** after a join comes later, from JS: so this runs first, "before" is read
  ** once both threads run, and "during" before they end. */
  emheap_counters before, during;
  pthread_t filler, drainer;
  pthread_barrier_init(&handoff_steps, NULL, 3);
  int handed = pthread_create(&filler, NULL, fill, NULL) == 0 && pthread_create(&drainer, NULL, drain, NULL) == 0;
  if (handed) {
    handoff_steps_wait(1); /* both started */
    emheap_get_counters(&before);
    handoff_steps_wait(3); /* go, filled, drained */
    emheap_get_counters(&during);
    handoff_steps_wait(1);
    pthread_join(filler, NULL);
    pthread_join(drainer, NULL);
  }
  CHECK(handed && during.live_blocks == before.live_blocks && during.live_bytes == before.live_bytes &&
            during.total_bytes > before.total_bytes + HANDOFF * 24 &&
            during.malloc_calls - before.malloc_calls == HANDOFF + BIG &&
            during.free_calls - before.free_calls == HANDOFF + BIG,
        "blocks made on one thread and freed on another, both threads alive: totals as before");
  if (handed && (during.live_blocks != before.live_blocks || during.live_bytes != before.live_bytes))
    printf("# before %u blocks %llu bytes, during %u %llu\n", before.live_blocks,
           (unsigned long long)before.live_bytes, during.live_blocks, (unsigned long long)during.live_bytes);
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
  pthread_t d;
  CHECK(pthread_create(&d, NULL, deep_thread, NULL) == 0 && pthread_join(d, NULL) == 0 && deep_block,
        "a thread allocated 200 calls deep");
  emheap_counters c;
  emheap_get_counters(&c);
  unsigned long long held = 0;
  for (int i = 0; i < THREADS; i++) held += kept_bytes[i];
  printf("COUNTS {\"baseBlocks\":%u,\"baseBytes\":%llu,\"liveBlocks\":%u,\"liveBytes\":%llu,\"held\":%llu,\"deep\":%zu,"
         "\"invalidFrees\":%llu,\"mallocCalls\":%llu,\"freeCalls\":%llu}\n",
         base.live_blocks, (unsigned long long)base.live_bytes, c.live_blocks, (unsigned long long)c.live_bytes, held,
         malloc_usable_size(deep_block),
         (unsigned long long)c.invalid_frees, (unsigned long long)c.malloc_calls, (unsigned long long)c.free_calls);
  fflush(stdout);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  printf("1..%d\n", checks);
  return failures ? 1 : 0;
}
