/*
** alloc_hooks.c -- the allocator entry points that emheap replaces.
**
** libc defines malloc & co. as weak aliases of the real allocator; these
** strong definitions win at link time and forward to the allocator through
** emscripten_builtin_* (which both dlmalloc and emmalloc provide), so no
** entry point here ever calls itself. Every block carries a 16-byte header
** (block_header.h) that makes free O(1).
**
** Fast path: one header write, global counters, and in sampled mode one
** subtraction from the sample countdown. Slow path (noinline): recording a
** site, i.e. taking a stack and updating the site's statistics.
**
** Defined results for misuse, so that profiling never crashes an app:
**   free(p) / realloc(p, n) of a pointer that is not a live block (double
**     free, foreign or interior pointer): counted in invalid_frees and
**     ignored; realloc returns NULL and leaves p alone.
**   calloc overflow, sizes near 4 GiB: NULL, errno = ENOMEM.
**   memalign / aligned_alloc with an alignment that is not a power of two:
**     NULL, errno = EINVAL (musl's rule). posix_memalign: returns EINVAL.
**   realloc(p, 0): frees p and returns a fresh minimum-size block, as the
**     default allocator (dlmalloc) does, whichever allocator is linked.
**
** Each allocating entry point calls emheap_current_site() itself, so that
** in builds without function names the JS side can drop a known number of
** runtime frames (with names, it drops them by name).
*/
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <emscripten/emmalloc.h>

#include "block_header.h"
#include "emheap_internal.h"

/* Present only in some allocators / Emscripten versions; NULL otherwise. */
extern void *emscripten_builtin_realloc(void *, size_t) __attribute__((weak));
extern void *realloc_in_place(void *, size_t) __attribute__((weak));     /* dlmalloc */
extern void *emmalloc_realloc_try(void *, size_t) __attribute__((weak)); /* emmalloc */

#define HDR EMHEAP_HEADER_SIZE
/* Largest request: the header and an alignment must still fit in 32 bits. */
#define MAX_REQUEST (0xFFFFFFFFu - (1u << 20))

/* ---- fast path ---------------------------------------------------------- */

/* Whether this allocation gets a site: always in exact mode; in sampled
** mode when the next sampled byte (Poisson process over all bytes
** allocated) falls inside it. */
static inline int should_record(size_t size) {
  if (emheap_g.mode == EMHEAP_MODE_EXACT) return 1;
  if ((emheap_g.sample_countdown -= (int64_t)size) >= 0) return 0;
  emheap_g.sample_countdown = emheap_next_sample_distance();
  return 1;
}

static void charge_site(uint32_t site, uint32_t size);
static void discharge_site(uint32_t site, uint32_t size);

/* Writes the header and counts the block live; returns the user pointer. */
static inline void *finish(char *real, uint32_t back, size_t size, uint32_t site_word) {
  char *p = real + back;
  emheap_header *h = emheap_header_of(p);
  h->size = (uint32_t)size;
  h->site_word = site_word;
  h->back = back;
  h->magic = EMHEAP_BLOCK_MAGIC ^ (uint32_t)(uintptr_t)p;
  emheap_counters *c = &emheap_g.counters;
  c->live_bytes += size;
  c->total_bytes += size;
  c->live_blocks++;
  if (c->live_bytes > c->peak_live_bytes) c->peak_live_bytes = c->live_bytes;
  if (c->live_blocks > c->peak_live_blocks) c->peak_live_blocks = c->live_blocks;
  if (site_word) charge_site(site_word & ~EMHEAP_CHARGED, (uint32_t)size);
  emheap_note_heap_growth(site_word & ~EMHEAP_CHARGED);
  return p;
}

/* Counts a block (described by a copy of its header) as no longer live. */
static inline void release(const emheap_header *h) {
  emheap_counters *c = &emheap_g.counters;
  c->live_bytes -= h->size;
  c->live_blocks--;
  if (h->site_word) discharge_site(h->site_word & ~EMHEAP_CHARGED, h->size);
}

static void *fail(int err) {
  emheap_g.counters.failed_allocs++;
  errno = err;
  return NULL;
}

/* ---- slow path: sites --------------------------------------------------- */

/* What a recorded block stands for: itself in exact mode (inline: every
** allocation comes here), an estimate in sampled mode (sampler.c). */
static inline void weight_of(uint32_t size, double *bytes, double *blocks) {
  if (emheap_g.mode == EMHEAP_MODE_EXACT) {
    *bytes = size;
    *blocks = 1;
  } else {
    emheap_sample_weight(size, bytes, blocks);
  }
}

__attribute__((noinline)) static void charge_site(uint32_t site, uint32_t size) {
  double bytes, blocks;
  weight_of(size, &bytes, &blocks);
  emheap_site *s = &emheap_g.sites[site];
  s->live_bytes += bytes;
  s->live_blocks += blocks;
  s->total_bytes += bytes;
  s->total_allocs += blocks;
  if (s->live_bytes > s->peak_live_bytes) s->peak_live_bytes = s->live_bytes;
  emheap_g.counters.sampled_allocs++;
}

__attribute__((noinline)) static void discharge_site(uint32_t site, uint32_t size) {
  double bytes, blocks;
  weight_of(size, &bytes, &blocks);
  emheap_site *s = &emheap_g.sites[site];
  s->live_bytes -= bytes;
  s->live_blocks -= blocks;
}

/* ---- entry points -------------------------------------------------------- */

void *malloc(size_t size) {
  emheap_ensure_init();
  emheap_g.counters.malloc_calls++;
  if (size > MAX_REQUEST) return fail(ENOMEM);
  char *real = emscripten_builtin_malloc(size + HDR);
  if (!real) return fail(ENOMEM);
  uint32_t site_word = should_record(size) ? EMHEAP_CHARGED | emheap_current_site() : 0;
  return finish(real, HDR, size, site_word);
}

/* No emheap_ensure_init() here: before initialization no pointer can pass
** the header check, so an early free is counted invalid and ignored. */
void free(void *ptr) {
  emheap_g.counters.free_calls++;
  if (!ptr) return;
  emheap_header *h = emheap_live_header(ptr);
  if (__builtin_expect(!h, 0)) {
    emheap_g.counters.invalid_frees++;
    return;
  }
  release(h);
  h->magic = 0;
  emscripten_builtin_free((char *)ptr - h->back);
}

void *calloc(size_t count, size_t size) {
  emheap_ensure_init();
  emheap_g.counters.calloc_calls++;
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes) || bytes > MAX_REQUEST) return fail(ENOMEM);
  char *real = emscripten_builtin_malloc(bytes + HDR);
  if (!real) return fail(ENOMEM);
  memset(real + HDR, 0, bytes);
  uint32_t site_word = should_record(bytes) ? EMHEAP_CHARGED | emheap_current_site() : 0;
  return finish(real, HDR, bytes, site_word);
}

/* Gives the block whose header is `old` (user data at real + old->back) a
** new size, without emheap's own malloc: the allocator's realloc where it
** has one we can reach, else an in-place attempt, else allocate-copy-free.
** The result always has back == HDR. NULL, with the block intact, on
** failure. */
static char *resize_block(char *real, const emheap_header *old, size_t size) {
  if (old->back == HDR) {
    if (emscripten_builtin_realloc) return emscripten_builtin_realloc(real, size + HDR);
    if (realloc_in_place && realloc_in_place(real, size + HDR) == real) return real;
    if (emmalloc_realloc_try && emmalloc_realloc_try(real, size + HDR) == real) return real;
  }
  char *fresh = emscripten_builtin_malloc(size + HDR);
  if (!fresh) return NULL;
  memcpy(fresh + HDR, real + old->back, old->size < size ? old->size : size);
  emscripten_builtin_free(real);
  return fresh;
}

void *realloc(void *ptr, size_t size) {
  emheap_ensure_init();
  emheap_g.counters.realloc_calls++;
  if (size > MAX_REQUEST) return fail(ENOMEM);
  if (!ptr) {
    char *real = emscripten_builtin_malloc(size + HDR);
    if (!real) return fail(ENOMEM);
    uint32_t site_word = should_record(size) ? EMHEAP_CHARGED | emheap_current_site() : 0;
    return finish(real, HDR, size, site_word);
  }
  emheap_header *h = emheap_live_header(ptr);
  if (!h) {
    emheap_g.counters.invalid_frees++;
    return NULL;
  }
  emheap_header old = *h;
  h->magic = 0; /* the old block is gone whatever happens next... */
  char *real = resize_block((char *)ptr - old.back, &old, size);
  if (!real) {
    h->magic = old.magic; /* ...unless the resize failed: then it lives on */
    return fail(ENOMEM);
  }
  release(&old);
  uint32_t site_word = should_record(size) ? EMHEAP_CHARGED | emheap_current_site() : 0;
  return finish(real, HDR, size, site_word);
}

void *memalign(size_t alignment, size_t size) {
  emheap_ensure_init();
  emheap_g.counters.memalign_calls++;
  if (!alignment || (alignment & (alignment - 1))) return fail(EINVAL);
  /* The header must fit before the aligned user pointer. */
  uint32_t back = alignment > HDR ? (uint32_t)alignment : HDR;
  if (alignment > (1u << 20) || size > MAX_REQUEST) return fail(ENOMEM);
  char *real = emscripten_builtin_memalign(alignment < HDR ? HDR : alignment, size + back);
  if (!real) return fail(ENOMEM);
  uint32_t site_word = should_record(size) ? EMHEAP_CHARGED | emheap_current_site() : 0;
  return finish(real, back, size, site_word);
}

/* The other aligned entry points are memalign with their own argument
** rules. memalign counts the call. */
void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

void *valloc(size_t size) { return memalign((size_t)sysconf(_SC_PAGESIZE), size); }

void *pvalloc(size_t size) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t rounded = (size + page - 1) & ~(page - 1);
  if (rounded < size) {
    emheap_g.counters.memalign_calls++;
    return fail(ENOMEM);
  }
  return memalign(page, rounded);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
  if (!alignment || (alignment & (alignment - 1)) || alignment % sizeof(void *)) {
    emheap_ensure_init();
    emheap_g.counters.memalign_calls++;
    emheap_g.counters.failed_allocs++;
    return EINVAL;
  }
  int saved = errno; /* posix_memalign reports through its result, not errno */
  void *p = memalign(alignment, size);
  errno = saved;
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

/* The size the app asked for: a correct answer (malloc_usable_size may
** return anything >= the request) that never invites writes into the
** allocator's slack, which emheap's accounting does not cover. */
size_t malloc_usable_size(void *ptr) {
  emheap_header *h = ptr ? emheap_live_header(ptr) : NULL;
  return h ? h->size : 0;
}

void emheap_pause(void) { emheap_g.paused = 1; }
void emheap_resume(void) { emheap_g.paused = 0; }
