/*
** alloc_hooks.c -- the allocator entry points that emheap replaces.
**
** libc defines malloc & co. as weak aliases of the real allocator; these
** strong definitions win at link time and forward to the allocator through
** emscripten_builtin_* (which every Emscripten allocator provides), so no
** entry point here ever calls itself. The pointer returned is the
** allocator's own: nothing is kept in front of a block, so code that frees
** with the builtin allocator (Emscripten 3.1.6 does for thread stacks)
** keeps working, and alignment and odd arguments behave exactly as the
** allocator makes them behave. In footer mode (footer.h) a block to be
** recorded is asked for 8 bytes larger, and malloc_usable_size (defined
** here) leaves those 8 out.
**
** Fast path (alloc_fast.h): one check that emheap is on, the allocator
** call, the usable size, the global counters, and in sampled mode one
** subtraction from the sampling countdown. Slow paths (record.c):
** recording a stack.
**
** Defined results for misuse, so that profiling never crashes an app:
**   free(p) / realloc(p, n) of a pointer that cannot be a live block (above
**     the heap, misaligned, a dlmalloc chunk already free): counted in
**     invalid_frees and ignored; realloc returns NULL and leaves p alone.
**   Everything else (sizes near 4 GiB, overflowing calloc, odd alignments,
**     realloc(p, 0)) gets what the linked allocator gives.
*/
#include <errno.h>
#include <string.h>

#include <emscripten/heap.h>

#include "builtin_alloc.h"

#include "alloc_fast.h"

#define C (&emheap_g.counters)
/* dlmalloc's page (valloc, pvalloc); sysconf says 64 KiB, the wasm page. */
#define ALLOCATOR_PAGE 4096u

/* The slow side of an entry point's check, when emheap_on was 0: 1 if
** emheap is on after initializing it. Once initialized, 0 there means off
** for good (the mode is decided once), so the off path reads one word more
** and never emheap_on again. */
static int ensure_on(void) {
  if (__builtin_expect(emheap_g.magic != 0, 1)) return 0;
  emheap_init_slow();
  return emheap_on;
}

/* For the calls refused before any allocation: is emheap counting? */
static int counting(void) { return emheap_on || ensure_on(); }

/* Helpers that can be on the stack when the allocator fails carry the
** emheap_ prefix: the out-of-memory report's stack leaves out frames so
** named (capture/v8_stack.js isAllocatorWrapper). */
static void *emheap_failed(uint64_t *calls) {
  emheap_count_call(calls, &C->failed_allocs);
  return NULL;
}

/* capture/out_of_memory_moment.js: the report and snapshot of an out-of-memory; one
** line for a request no memory of this program could meet (count > 0: a
** calloc of count blocks of `size` whose product overflows). */
extern void emheap_js_out_of_memory(size_t size, size_t alignment);
extern void emheap_js_impossible_request(size_t size, size_t alignment, size_t count);

/* The allocator could not meet a request of `size` bytes (it returned
** NULL: builds with ABORTING_MALLOC=0; with ABORTING_MALLOC Emscripten
** aborts inside the allocator, and the JS library reports it there).
** alignment: 0 but for the aligned entry points. A request larger than
** the memory may ever grow to is a bug of the program's, not a full
** memory: one line, no report. Otherwise the first failure is reported,
** while the failed call is still on the stack; later ones are only
** counted. Out of line: it never runs on a call that succeeds. */
static __attribute__((noinline)) void emheap_report_failure(size_t size, size_t alignment) {
  static uint32_t reported;
  size_t limit = emscripten_get_heap_max();
  if (size > limit || alignment > limit - size) emheap_js_impossible_request(size, alignment, 0);
  else if (!__atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED)) emheap_js_out_of_memory(size, alignment);
}

static void *emheap_out_of_memory(size_t size, size_t alignment, uint64_t *calls) {
  emheap_failed(calls);
  emheap_report_failure(size, alignment);
  return NULL;
}

/* Whether a call for `size` bytes takes exact mode's shortest path
** (alloc_fast.h: emheap_fast), and whether free of ptr does. */
#if EMHEAP_THREADED
#define FAST_FOR(size) 0
#define FAST_FREE(ptr) 0
#else
#define FAST_FOR(size) __builtin_expect(emheap_fast && (size) <= SIZE_MAX - EMHEAP_FOOTER_BYTES, 1)
#define FAST_FREE(ptr) __builtin_expect(emheap_fast && (ptr) && emheap_plausible_dl_block(ptr), 1)
#endif

/* Footer mode's malloc (footer.h): 8 bytes more for a block that will be
** recorded. fast: FAST_FOR(size) held (every block is recorded, on the
** shortest path). */
static inline __attribute__((always_inline)) void *footer_malloc(size_t size, int fast, uint64_t *calls) {
  int how = fast ? 1 : emheap_footer_decide(size);
  void *p = emscripten_builtin_malloc(EMHEAP_FOOTER_REQUEST(size, how));
  if (__builtin_expect(!p, 0)) return emheap_out_of_memory(size, 0, calls);
  if (fast) return emheap_record_footer_fast(p, (uint32_t)size, calls);
  return emheap_footer_track_new(p, size, how, calls);
}

void *malloc(size_t size) {
  if (FAST_FOR(size)) return footer_malloc(size, 1, &C->malloc_calls);
  if (__builtin_expect(!emheap_on, 0) && !ensure_on()) return emscripten_builtin_malloc(size);
  if (emheap_footers_on()) return footer_malloc(size, 0, &C->malloc_calls);
  void *p = emscripten_builtin_malloc(size);
  if (__builtin_expect(!p, 0)) return emheap_out_of_memory(size, 0, &C->malloc_calls);
  return emheap_track_new(p, size, &C->malloc_calls);
}

/* Before initialization nothing was handed out by emheap, so a pointer
** freed then is the allocator's business. */
void free(void *ptr) {
  if (FAST_FREE(ptr)) {
    emheap_footer_free_as(ptr, &C->free_calls, 1);
    emscripten_builtin_free(ptr);
    return;
  }
  if (__builtin_expect(!emheap_on, 0)) {
    emscripten_builtin_free(ptr);
    return;
  }
  if (!ptr) {
    emheap_count_call(&C->free_calls, NULL);
    return;
  }
  if (__builtin_expect(!emheap_plausible_block(ptr), 0)) {
    emheap_count_call(&C->free_calls, &C->invalid_frees);
    return;
  }
  emheap_track_any_free(ptr, &C->free_calls);
  emscripten_builtin_free(ptr);
}

static void *emheap_allocator_calloc(size_t count, size_t size) {
  if (EMHEAP_PRESENT(emscripten_builtin_calloc)) return emscripten_builtin_calloc(count, size);
  if (EMHEAP_PRESENT(__libc_calloc)) return __libc_calloc(count, size);
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) {
    errno = ENOMEM;
    return NULL;
  }
  void *p = emscripten_builtin_malloc(bytes);
  if (p) memset(p, 0, bytes);
  return p;
}

void *calloc(size_t count, size_t size) {
  if (__builtin_expect(!emheap_on, 0) && !ensure_on()) return emheap_allocator_calloc(count, size);
  size_t all;
  if (emheap_footers_on() && !__builtin_mul_overflow(count, size, &all)) {
    int how = emheap_footer_decide(all);
    void *p = how ? emheap_allocator_calloc(1, all + EMHEAP_FOOTER_BYTES) : emheap_allocator_calloc(count, size);
    if (__builtin_expect(!p, 0)) return emheap_out_of_memory(all, 0, &C->calloc_calls);
    return emheap_footer_track_new(p, all, how, &C->calloc_calls);
  }
  void *p = emheap_allocator_calloc(count, size);
  if (__builtin_expect(!p, 0)) {
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) { /* no such size */
      emheap_failed(&C->calloc_calls);
      emheap_js_impossible_request(size, 0, count);
      return NULL;
    }
    return emheap_out_of_memory(bytes, 0, &C->calloc_calls);
  }
  return emheap_track_new(p, (size_t)count * size, &C->calloc_calls);
}

/* The allocator's resize of a live block, without ever calling the free or
** malloc that emheap replaces (emmalloc's realloc calls free()). Returns
** the block (moved or not), or NULL with ptr intact. */
static void *emheap_allocator_resize(void *ptr, size_t size) {
  if (emheap_allocator == EMHEAP_ALLOCATOR_DLMALLOC && EMHEAP_PRESENT(__libc_realloc)) return __libc_realloc(ptr, size);
  if (emheap_allocator == EMHEAP_ALLOCATOR_EMMALLOC) {
    if (EMHEAP_PRESENT(emmalloc_realloc_try) && emmalloc_realloc_try(ptr, size) == ptr) return ptr;
  } else if (EMHEAP_PRESENT(emscripten_builtin_realloc)) {
    return emscripten_builtin_realloc(ptr, size);
  }
  void *fresh = emscripten_builtin_malloc(size);
  if (!fresh) return NULL;
  size_t old_usable = emheap_allocator_usable_size(ptr); /* (all of it: wasm64's blocks may pass 4 GiB) */
  memcpy(fresh, ptr, old_usable < size ? old_usable : size);
  emscripten_builtin_free(ptr);
  return fresh;
}

/* Footer mode's resize of a live block (old_usable bytes, the footer's
** included): its footer is read and the block taken out of the books, the
** allocator asked for the new size (8 more if the new block will be
** recorded), and the old record put back if that failed. fast: as
** footer_malloc's. */
static inline __attribute__((always_inline)) void *emheap_footer_realloc(void *ptr, size_t size, uint32_t old_usable,
                                                                         emheap_taken *taken, int fast) {
  uint32_t u;
  if (emheap_footer_record_at(ptr, &u)) emheap_take_out_footer(ptr, u, taken);
  else emheap_take_out(ptr, old_usable, taken);
  int how = fast ? 1 : emheap_footer_decide(size);
  void *p = emheap_allocator_resize(ptr, EMHEAP_FOOTER_REQUEST(size, how));
  if (!p) {
    emheap_put_back(ptr, taken, &C->realloc_calls);
    emheap_report_failure(size, 0);
    return NULL;
  }
  if (fast) return emheap_record_footer_fast(p, (uint32_t)size, &C->realloc_calls);
  return emheap_footer_track_new(p, size, how, &C->realloc_calls);
}

void *realloc(void *ptr, size_t size) {
  if (FAST_FOR(size)) {
    if (!ptr) return footer_malloc(size, 1, &C->realloc_calls);
    if (__builtin_expect(emheap_plausible_dl_block(ptr), 1)) {
      emheap_taken taken;
      return emheap_footer_realloc(ptr, size, emheap_dl_usable_size(ptr), &taken, 1);
    }
  }
  if (__builtin_expect(!emheap_on, 0) && !ensure_on()) {
    if (!ptr) return emscripten_builtin_malloc(size);
    return emheap_allocator_resize(ptr, size);
  }
  if (!ptr) {
    if (emheap_footers_on()) return footer_malloc(size, 0, &C->realloc_calls);
    void *p = emscripten_builtin_malloc(size);
    if (!p) return emheap_out_of_memory(size, 0, &C->realloc_calls);
    return emheap_track_new(p, size, &C->realloc_calls);
  }
  if (!emheap_plausible_block(ptr)) {
    emheap_count_call(&C->realloc_calls, &C->invalid_frees);
    return NULL;
  }
  /* emmalloc's realloc(p, 0) frees p and returns NULL; dlmalloc's shrinks
  ** p to its minimum. Do as the linked allocator does. */
  if (size == 0 && emheap_allocator == EMHEAP_ALLOCATOR_EMMALLOC) {
    emheap_track_free(ptr, &C->realloc_calls);
    emscripten_builtin_free(ptr);
    return NULL;
  }
  /* Take the old block out of the books first: once the allocator has
  ** resized it, its address may be handed to another thread. A failed
  ** resize leaves the block as it was, and so its record: site, serial
  ** and counts come back. */
  uint32_t old_usable = emheap_usable_size(ptr);
  emheap_taken taken;
  if (emheap_footers_on()) return emheap_footer_realloc(ptr, size, old_usable, &taken, 0);
  emheap_take_out(ptr, old_usable, &taken);
  void *p = emheap_allocator_resize(ptr, size);
  if (!p) {
    emheap_put_back(ptr, &taken, &C->realloc_calls);
    emheap_report_failure(size, 0);
    return NULL;
  }
  return emheap_track_new(p, size, &C->realloc_calls);
}

void *memalign(size_t alignment, size_t size) {
  if (__builtin_expect(!emheap_on, 0) && !ensure_on()) return emscripten_builtin_memalign(alignment, size);
  if (emheap_footers_on()) {
    int how = emheap_footer_decide(size);
    void *p = emscripten_builtin_memalign(alignment, EMHEAP_FOOTER_REQUEST(size, how));
    if (!p) return emheap_out_of_memory(size, alignment, &C->memalign_calls);
    return emheap_footer_track_new(p, size, how, &C->memalign_calls);
  }
  void *p = emscripten_builtin_memalign(alignment, size);
  if (!p) return emheap_out_of_memory(size, alignment, &C->memalign_calls);
  return emheap_track_new(p, size, &C->memalign_calls);
}

/* posix_memalign's argument rule of the linked allocator: dlmalloc wants a
** power of two multiple of sizeof(void *), emmalloc only the multiple. */
static int bad_posix_alignment(size_t alignment) {
  if (!alignment || alignment % sizeof(void *)) return 1;
  return emheap_allocator != EMHEAP_ALLOCATOR_EMMALLOC && (alignment & (alignment - 1));
}

/* emmalloc's posix_memalign returns numbers of its own (22 and 12 in
** Emscripten 3.1.x, not EINVAL and ENOMEM): there the program gets its
** result as it is. */
static int emheap_emmalloc_posix_memalign(void **out, size_t alignment, size_t size) {
  void *p = NULL;
  int r = emmalloc_posix_memalign(&p, alignment, size);
  if (!counting()) {
    if (!r) *out = p;
    return r;
  }
  if (!r) {
    *out = emheap_track_new(p, size, &C->memalign_calls);
    return 0;
  }
  emheap_failed(&C->memalign_calls);
  if (!bad_posix_alignment(alignment)) emheap_report_failure(size, alignment);
  return r;
}

/* (Under mimalloc, emmalloc is linked for mimalloc's own pages: a block
** from it is no mimalloc block, and mimalloc's free of it trapped.) */
int posix_memalign(void **out, size_t alignment, size_t size) {
  if (EMHEAP_PRESENT(emmalloc_posix_memalign) && emheap_app_uses_emmalloc()) return emheap_emmalloc_posix_memalign(out, alignment, size);
  if (bad_posix_alignment(alignment)) {
    if (counting()) emheap_failed(&C->memalign_calls);
    return EINVAL;
  }
  /* errno as the allocator's own leaves it: dlmalloc's sets ENOMEM too */
  void *p = memalign(alignment, size);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

/* Both allocators' aligned_alloc (emmalloc's, and the libc one Emscripten
** pairs with dlmalloc) refuse an alignment that is not a multiple of
** sizeof(void *) or a size that is not a multiple of the alignment. An
** alignment of 0, which makes theirs divide by zero, is refused too. */
void *aligned_alloc(size_t alignment, size_t size) {
  if (!alignment || alignment % sizeof(void *) || size % alignment) {
    if (counting()) emheap_failed(&C->memalign_calls);
    return NULL;
  }
  return memalign(alignment, size); /* errno as the allocator sets it, ENOMEM */
}

void *valloc(size_t size) { return memalign(ALLOCATOR_PAGE, size); }

/* Weak: mimalloc (newer Emscripten) defines a strong pvalloc; there it wins
** and its blocks go untracked rather than failing the link. */
__attribute__((weak)) void *pvalloc(size_t size) {
  size_t rounded = (size + ALLOCATOR_PAGE - 1) & ~(size_t)(ALLOCATOR_PAGE - 1);
  if (rounded < size) {
    if (counting()) emheap_failed(&C->memalign_calls);
    errno = ENOMEM;
    return NULL;
  }
  return memalign(ALLOCATOR_PAGE, rounded);
}

/* Every allocator defines it weakly, and so does emheap: the first
** definition on the link line wins, and emheap's objects come before the
** system libraries. In footer mode (footer.h) a block with a footer has 8
** bytes less for the program than its chunk; otherwise it is the
** allocator's own answer (allocator.c). */
__attribute__((weak)) size_t malloc_usable_size(void *ptr) {
  if (!ptr) return 0;
  (void)ensure_on(); /* the allocator is known from the first call on */
  size_t u = emheap_allocator_usable_size(ptr);
  if (emheap_footers_on() && u && emheap_flag_is_set(ptr)) u -= EMHEAP_FOOTER_BYTES;
  return u;
}
