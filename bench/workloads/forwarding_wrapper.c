/*
** forwarding_wrapper.c -- the least any malloc-interposing profiler can do:
** strong malloc/free/calloc/realloc that count the call and forward it to
** the system allocator, keeping no size, no header and no stack. Linked
** into the bench's "forwarding only" build (plain objects, no emheap). Its
** ratio to the baseline is the floor under every emheap row: the price of
** one more call level around the allocator, which no design that sees
** every malloc and free (as exact global totals need) can avoid.
**
** Only the entry points the workloads use are wrapped; memalign & co. stay
** the allocator's own, and their blocks carry nothing extra, so the free
** below handles them too.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../runtime/builtin_alloc.h" /* emscripten_builtin_*, as every Emscripten has them */

/* Both of Emscripten's allocators (dlmalloc, emmalloc) define it. */
extern void *__libc_realloc(void *, size_t);

/* Global and external, so the compiler must keep every update. */
struct {
  uint64_t calls;
  uint32_t live_blocks;
} forwarding_counters;

void *malloc(size_t size) {
  forwarding_counters.calls++;
  void *p = emscripten_builtin_malloc(size);
  if (p) forwarding_counters.live_blocks++;
  return p;
}

void free(void *ptr) {
  forwarding_counters.calls++;
  if (!ptr) return;
  forwarding_counters.live_blocks--;
  emscripten_builtin_free(ptr);
}

void *calloc(size_t count, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) return NULL;
  void *p = malloc(bytes);
  if (p) memset(p, 0, bytes);
  return p;
}

void *realloc(void *ptr, size_t size) {
  forwarding_counters.calls++;
  void *p = __libc_realloc(ptr, size);
  if (p && !ptr) forwarding_counters.live_blocks++;
  return p;
}
