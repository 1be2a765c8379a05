/*
** threads_bench.c -- four threads allocating at once (a -pthread build):
** each keeps a ring of 256 live blocks of varied sizes and replaces one per
** step, so mallocs and frees of all threads contend for the allocator (and
** for emheap's lock). One op = one malloc or free. ns_per_op is wall time
** over all ops of all threads, so it measures throughput. Prints one JSON
** line.
**
** Usage: threads_bench [iterations]   (default 2; 200,000 steps per thread each)
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>
#include <emscripten/heap.h>

enum { THREADS = 4, RING = 256, STEPS = 200000 };

static int iterations;
static long thread_ops[THREADS];

static void *work(void *arg) {
  int id = (int)(intptr_t)arg;
  void *ring[RING] = {0};
  unsigned x = 2463534242u + (unsigned)id;
  long ops = 0;
  for (int it = 0; it < iterations; it++) {
    for (int i = 0; i < STEPS; i++) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      int slot = x & (RING - 1);
      if (ring[slot]) {
        free(ring[slot]);
        ops++;
      }
      ring[slot] = malloc(16 + (x >> 20) % 240);
      ops++;
    }
  }
  for (int i = 0; i < RING; i++) free(ring[i]);
  thread_ops[id] = ops;
  return NULL;
}

int main(int argc, char **argv) {
  iterations = argc > 1 ? atoi(argv[1]) : 2;
  pthread_t t[THREADS];
  /* Warm-up: start the pool's workers once. */
  int saved = iterations;
  iterations = 0;
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, work, (void *)(intptr_t)i);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  iterations = saved;
  double start = emscripten_get_now();
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, work, (void *)(intptr_t)i);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  double ms = emscripten_get_now() - start;
  long ops = 0;
  for (int i = 0; i < THREADS; i++) ops += thread_ops[i];
  printf("{\"workload\":\"threads\",\"ops\":%ld,\"ms\":%.3f,\"ns_per_op\":%.3f,\"heap_bytes\":%zu}\n", ops, ms,
         ms * 1e6 / (double)ops, emscripten_get_heap_size());
  return 0;
}
