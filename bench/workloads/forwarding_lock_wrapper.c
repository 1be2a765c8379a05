/*
** forwarding_lock_wrapper.c -- the forwarding wrapper (forwarding_wrapper.c)
** with one lock around every call's count: the live bytes (the allocator's
** usable size) and their peak, kept exact under the runtime's own kind of
** lock (runtime/word_lock.h; the bench links runtime/lock.c with it). Linked
** into the bench's "forwarding + lock" build of the threaded workload only.
**
** What it measures: the price of a global order of allocations, which an
** exact peak needs (the moment of the maximum of live bytes exists only if
** every change is ordered), with next to nothing done under the lock. Its
** ratio to forwarding only says how much of a threaded exact profiler's
** cost a lock per call explains; the rest is the work done under it.
*/
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../runtime/builtin_alloc.h" /* emscripten_builtin_*, as every Emscripten has them */
#include "../../runtime/word_lock.h"

/* Both of Emscripten's allocators (dlmalloc, emmalloc) define it. */
extern void *__libc_realloc(void *, size_t);

static uint32_t lock;

/* Global and external, so the compiler must keep every update. */
struct {
  uint64_t calls;
  uint64_t live_bytes, peak_live_bytes;
  uint32_t live_blocks;
} forwarding_counters;

static void count(int64_t bytes, int32_t blocks) {
  emheap_word_lock(&lock);
  forwarding_counters.calls++;
  forwarding_counters.live_bytes += bytes;
  forwarding_counters.live_blocks += blocks;
  if (forwarding_counters.live_bytes > forwarding_counters.peak_live_bytes)
    forwarding_counters.peak_live_bytes = forwarding_counters.live_bytes;
  emheap_word_unlock(&lock);
}

void *malloc(size_t size) {
  void *p = emscripten_builtin_malloc(size);
  count(p ? (int64_t)malloc_usable_size(p) : 0, p != NULL);
  return p;
}

void free(void *ptr) {
  if (ptr) count(-(int64_t)malloc_usable_size(ptr), -1);
  else count(0, 0);
  emscripten_builtin_free(ptr);
}

void *calloc(size_t n, size_t size) {
  size_t bytes = 0;
  void *p = __builtin_mul_overflow(n, size, &bytes) ? NULL : malloc(bytes);
  return p ? memset(p, 0, bytes) : NULL;
}

/* The threaded workload does not call it; counted as a call only. */
void *realloc(void *ptr, size_t size) {
  count(0, 0);
  return __libc_realloc(ptr, size);
}
