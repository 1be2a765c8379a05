/*
** alloc_hooks.c -- the allocator entry points that emheap replaces.
**
** libc defines malloc & co. as weak aliases of the real allocator; these
** strong definitions win at link time and forward to the allocator through
** emscripten_builtin_* (which both dlmalloc and emmalloc provide), so no
** entry point here ever calls itself.
**
** Defined results for misuse, so that profiling never crashes an app:
**   free(p) / realloc(p, n) of a pointer that is not live (double free,
**     foreign pointer): counted in invalid_frees and ignored; realloc
**     returns NULL and leaves p alone. Exception: once tracking memory ran
**     out (untracked_blocks > 0) an unknown pointer may be a real block we
**     could not record, so it is forwarded as the allocator would see it.
**   calloc overflow: NULL, errno = ENOMEM.
**   memalign / aligned_alloc with an alignment that is not a power of two:
**     NULL, errno = EINVAL (musl's rule). posix_memalign: returns EINVAL.
**   realloc(p, 0): frees p and returns a fresh minimum-size block, as the
**     default allocator (dlmalloc) does, whichever allocator is linked.
**
** Each allocating entry point calls emheap_current_site() itself (never
** through a helper): the JS side drops exactly that many frames.
*/
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <emscripten/emmalloc.h>

#include "emheap_internal.h"

/* Present only in some allocators / Emscripten versions; NULL otherwise. */
extern void *emscripten_builtin_realloc(void *, size_t) __attribute__((weak));
extern void *realloc_in_place(void *, size_t) __attribute__((weak));        /* dlmalloc */
extern void *emmalloc_realloc_try(void *, size_t) __attribute__((weak));    /* emmalloc */
extern size_t emmalloc_usable_size(void *) __attribute__((weak));           /* emmalloc */

void emheap_record_alloc(void *ptr, size_t size, uint32_t site) {
  emheap_counters *c = &emheap_g.counters;
  if (__builtin_expect(!emheap_blocks_insert((uint32_t)(uintptr_t)ptr, (uint32_t)size, site), 0)) {
    c->untracked_blocks++;
    return;
  }
  c->live_bytes += size;
  c->total_bytes += size;
  c->live_blocks++;
  if (c->live_bytes > c->peak_live_bytes) c->peak_live_bytes = c->live_bytes;
  if (c->live_blocks > c->peak_live_blocks) c->peak_live_blocks = c->live_blocks;
  emheap_site *s = &emheap_g.sites[site];
  s->live_bytes += size;
  s->live_blocks++;
  s->total_bytes += size;
  s->total_allocs++;
  if (s->live_bytes > s->peak_live_bytes) s->peak_live_bytes = s->live_bytes;
  emheap_note_heap_growth(site);
}

static void record_free(const emheap_block *b) {
  emheap_counters *c = &emheap_g.counters;
  c->live_bytes -= b->size;
  c->live_blocks--;
  emheap_site *s = &emheap_g.sites[b->site];
  s->live_bytes -= b->size;
  s->live_blocks--;
}

static inline int is_power_of_two(size_t x) { return x && !(x & (x - 1)); }

void *malloc(size_t size) {
  emheap_ensure_init();
  emheap_g.counters.malloc_calls++;
  void *p = emscripten_builtin_malloc(size);
  if (!p) {
    emheap_g.counters.failed_allocs++;
    return NULL;
  }
  emheap_record_alloc(p, size, emheap_current_site());
  return p;
}

void free(void *ptr) {
  emheap_ensure_init();
  emheap_g.counters.free_calls++;
  if (!ptr) return;
  emheap_block b;
  if (__builtin_expect(emheap_blocks_remove((uint32_t)(uintptr_t)ptr, &b), 1)) {
    record_free(&b);
    emscripten_builtin_free(ptr);
  } else if (emheap_g.counters.untracked_blocks) {
    emscripten_builtin_free(ptr);
  } else {
    emheap_g.counters.invalid_frees++;
  }
}

void *calloc(size_t count, size_t size) {
  emheap_ensure_init();
  emheap_g.counters.calloc_calls++;
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) {
    emheap_g.counters.failed_allocs++;
    errno = ENOMEM;
    return NULL;
  }
  void *p = emscripten_builtin_malloc(bytes);
  if (!p) {
    emheap_g.counters.failed_allocs++;
    return NULL;
  }
  memset(p, 0, bytes);
  emheap_record_alloc(p, bytes, emheap_current_site());
  return p;
}

/* realloc of a pointer that tracking memory ran out for: its old size is
** unknown, so copy as much of the new size as the memory holds (bytes past
** the old block are unspecified in the result anyway). */
static void *realloc_untracked(void *ptr, size_t size) {
  void *q = emscripten_builtin_malloc(size);
  if (!q) return NULL;
  size_t heap = (size_t)__builtin_wasm_memory_size(0) * 65536u;
  size_t room = heap - (size_t)(uintptr_t)ptr;
  memcpy(q, ptr, size < room ? size : room);
  emscripten_builtin_free(ptr);
  return q;
}

/* Moves a tracked block to a new size without emheap's own malloc: the
** allocator's realloc where it has one we can reach, else an in-place
** attempt, else allocate-copy-free. Returns NULL with ptr intact on failure. */
static void *resize_block(void *ptr, const emheap_block *old, size_t size) {
  if (size == 0) {
    void *q = emscripten_builtin_malloc(0);
    if (q) emscripten_builtin_free(ptr);
    return q;
  }
  if (emscripten_builtin_realloc) return emscripten_builtin_realloc(ptr, size);
  if (realloc_in_place && realloc_in_place(ptr, size) == ptr) return ptr;
  if (emmalloc_realloc_try && emmalloc_realloc_try(ptr, size) == ptr) return ptr;
  void *q = emscripten_builtin_malloc(size);
  if (!q) return NULL;
  memcpy(q, ptr, old->size < size ? old->size : size);
  emscripten_builtin_free(ptr);
  return q;
}

void *realloc(void *ptr, size_t size) {
  emheap_ensure_init();
  emheap_g.counters.realloc_calls++;
  if (!ptr) {
    void *p = emscripten_builtin_malloc(size);
    if (!p) {
      emheap_g.counters.failed_allocs++;
      return NULL;
    }
    emheap_record_alloc(p, size, emheap_current_site());
    return p;
  }
  emheap_block *slot = emheap_blocks_find((uint32_t)(uintptr_t)ptr);
  if (!slot) {
    if (emheap_g.counters.untracked_blocks) {
      void *q = realloc_untracked(ptr, size);
      if (q) emheap_record_alloc(q, size, emheap_current_site());
      else emheap_g.counters.failed_allocs++;
      return q;
    }
    emheap_g.counters.invalid_frees++;
    return NULL;
  }
  emheap_block old = *slot;
  void *q = resize_block(ptr, &old, size);
  if (!q) {
    emheap_g.counters.failed_allocs++;
    return NULL;
  }
  emheap_blocks_remove(old.ptr, &old);
  record_free(&old);
  emheap_record_alloc(q, size, emheap_current_site());
  return q;
}

static void *aligned(size_t alignment, size_t size) {
  if (!is_power_of_two(alignment)) {
    emheap_g.counters.failed_allocs++;
    errno = EINVAL;
    return NULL;
  }
  void *p = emscripten_builtin_memalign(alignment, size);
  if (!p) emheap_g.counters.failed_allocs++;
  return p;
}

void *memalign(size_t alignment, size_t size) {
  emheap_ensure_init();
  emheap_g.counters.memalign_calls++;
  void *p = aligned(alignment, size);
  if (p) emheap_record_alloc(p, size, emheap_current_site());
  return p;
}

/* C11's aligned_alloc is memalign here (musl's rule: any power of two). */
void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void **out, size_t alignment, size_t size) {
  emheap_ensure_init();
  emheap_g.counters.memalign_calls++;
  if (!is_power_of_two(alignment) || alignment % sizeof(void *)) {
    emheap_g.counters.failed_allocs++;
    return EINVAL;
  }
  void *p = emscripten_builtin_memalign(alignment, size);
  if (!p) {
    emheap_g.counters.failed_allocs++;
    return ENOMEM;
  }
  emheap_record_alloc(p, size, emheap_current_site());
  *out = p;
  return 0;
}

void *valloc(size_t size) {
  emheap_ensure_init();
  emheap_g.counters.memalign_calls++;
  void *p = aligned((size_t)sysconf(_SC_PAGESIZE), size);
  if (p) emheap_record_alloc(p, size, emheap_current_site());
  return p;
}

void *pvalloc(size_t size) {
  emheap_ensure_init();
  emheap_g.counters.memalign_calls++;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t rounded = (size + page - 1) & ~(page - 1);
  if (rounded < size) {
    emheap_g.counters.failed_allocs++;
    errno = ENOMEM;
    return NULL;
  }
  void *p = aligned(page, rounded);
  if (p) emheap_record_alloc(p, rounded, emheap_current_site());
  return p;
}

/* dlmalloc keeps its usable-size function private, so where the allocator
** offers none we report the requested size: always a correct answer, since
** malloc_usable_size may return anything >= what was asked for. */
size_t malloc_usable_size(void *ptr) {
  emheap_ensure_init();
  if (!ptr) return 0;
  emheap_block *b = emheap_blocks_find((uint32_t)(uintptr_t)ptr);
  if (!b) return 0;
  if (emmalloc_usable_size) return emmalloc_usable_size(ptr);
  return b->size;
}
