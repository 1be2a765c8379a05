/*
** entry_points.c -- every allocator entry point emheap replaces, its misuse
** cases, and the counters they must leave behind. Built with emcc against
** both dlmalloc and emmalloc and run under node by tests/runtime.test.js.
** Prints TAP lines; exits 1 if any check failed. At the end it prints the
** JS snapshot (one line, "SNAPSHOT {...}") so the test can check that the JS
** side reads the same numbers as C.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <malloc.h>

#include <emscripten.h>
#include "builtin_alloc.h" /* emscripten_builtin_*: declared where every Emscripten has them */

#include "emheap_internal.h"
#include "footer.h"

/* Not declared by musl's headers, but defined by both allocators. */
void *pvalloc(size_t size);

static int checks, failures;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    checks++;                                              \
    if (cond) {                                            \
      printf("ok %d - ", checks);                          \
    } else {                                               \
      failures++;                                          \
      printf("not ok %d - (%s line %d) ", checks, #cond, __LINE__); \
    }                                                      \
    printf(__VA_ARGS__);                                   \
    printf("\n");                                          \
  } while (0)

static emheap_counters now(void) {
  emheap_counters c;
  emheap_get_counters(&c);
  return c;
}

/* Volatile sinks keep clang from deleting malloc/free pairs. */
static void *volatile sink;

__attribute__((noinline)) void *alloc_in_site_a(size_t n) { return malloc(n); }
__attribute__((noinline)) void *alloc_in_site_b(size_t n) { return calloc(1, n); }

/* Sizes are usable sizes: what the allocator reserved (malloc_usable_size,
** which emheap does not replace). */
static uint64_t U(void *p) { return (uint64_t)malloc_usable_size(p); }

static void test_malloc_free(void) {
  emheap_counters before = now();
  char *p = malloc(100);
  CHECK(p != NULL, "malloc(100) returns memory");
  memset(p, 0xab, 100);
  emheap_counters mid = now();
  CHECK(U(p) >= 100 && mid.live_bytes == before.live_bytes + U(p), "malloc adds its usable size (%llu)", U(p));
  CHECK(mid.live_blocks == before.live_blocks + 1, "malloc adds a live block");
  CHECK(mid.malloc_calls == before.malloc_calls + 1, "malloc is counted");
  free(p);
  emheap_counters after = now();
  CHECK(after.live_bytes == before.live_bytes, "free returns the bytes");
  CHECK(after.free_calls == before.free_calls + 1, "free is counted");
  sink = malloc(0);
  CHECK(sink != NULL && now().live_blocks == before.live_blocks + 1, "malloc(0) is a tracked block");
  free(sink);
}

static void test_calloc(void) {
  emheap_counters before = now();
  unsigned char *p = calloc(10, 10);
  int zero = 1;
  for (int i = 0; i < 100; i++) zero &= p[i] == 0;
  CHECK(p && zero, "calloc(10, 10) returns 100 zero bytes");
  CHECK(now().live_bytes == before.live_bytes + U(p), "calloc adds its usable size");
  free(p);
  void *q = calloc(SIZE_MAX / 2, 4);
  CHECK(q == NULL, "calloc overflow gives NULL");
  CHECK(now().failed_allocs == before.failed_allocs + 1, "calloc overflow is a failed allocation");
}

static void test_realloc(void) {
  emheap_counters before = now();
  char *p = realloc(NULL, 50);
  CHECK(p != NULL && now().live_bytes == before.live_bytes + U(p), "realloc(NULL, 50) is malloc(50)");
  memcpy(p, "0123456789", 10);
  p = realloc(p, 100000);
  CHECK(p && memcmp(p, "0123456789", 10) == 0, "realloc grows and keeps the contents");
  CHECK(now().live_bytes == before.live_bytes + U(p), "realloc replaces the old size");
  CHECK(now().live_blocks == before.live_blocks + 1, "realloc keeps one block");
  p = realloc(p, 20);
  CHECK(p && memcmp(p, "0123456789", 10) == 0, "realloc shrinks and keeps the contents");
  CHECK(now().live_bytes == before.live_bytes + U(p), "realloc's shrink is counted");
  void *z = realloc(p, 0);
  /* dlmalloc shrinks to a minimum block, emmalloc frees and returns NULL:
  ** emheap does what the linked allocator does. */
  CHECK(now().live_bytes == before.live_bytes + (z ? U(z) : 0), "realloc(p, 0) counted as the allocator made it");
  free(z);
  CHECK(now().realloc_calls == before.realloc_calls + 4, "realloc calls are counted");
  CHECK(now().live_blocks == before.live_blocks, "all realloc blocks freed");
}

/* Odd arguments get what the allocator itself gives: compare with the
** builtin allocator, which emheap does not replace. */
static int same_as_allocator(size_t alignment, size_t size) {
  void *mine = memalign(alignment, size);
  void *theirs = emscripten_builtin_memalign(alignment, size);
  int same = (mine == NULL) == (theirs == NULL);
  if (mine && alignment) same = same && ((uintptr_t)mine % (alignment & -alignment)) == 0;
  free(mine);
  emscripten_builtin_free(theirs);
  return same;
}

static void test_aligned(void) {
  emheap_counters before = now();
  void *p = memalign(64, 100);
  CHECK(p && ((uintptr_t)p % 64) == 0, "memalign(64) is 64-aligned");
  free(p);
  size_t big = 2u << 20;
  p = memalign(big, 100);
  CHECK(p && ((uintptr_t)p % big) == 0, "memalign(2 MiB) is 2 MiB-aligned");
  free(p);
  void *q = NULL;
  CHECK(posix_memalign(&q, big, 10) == 0 && q && ((uintptr_t)q % big) == 0, "posix_memalign(2 MiB) works");
  free(q);
  p = aligned_alloc(big, big);
  CHECK(p && ((uintptr_t)p % big) == 0, "aligned_alloc(2 MiB, 2 MiB) works");
  free(p);
  size_t huge = 64u << 20;
  p = memalign(huge, 16);
  CHECK(p && ((uintptr_t)p % huge) == 0, "memalign(64 MiB) is 64 MiB-aligned");
  free(p);
  CHECK(same_as_allocator(48, 100), "memalign(48) gives what the allocator gives");
  CHECK(same_as_allocator(3, 10), "memalign(3) gives what the allocator gives");
  CHECK(same_as_allocator(0, 10), "memalign(0) gives what the allocator gives");
  q = (void *)0x1234;
  /* (EINVAL, or emmalloc's own number for it: the allocator's result is
  ** passed on, tests/runtime/failure_paths.c compares it) */
  CHECK(posix_memalign(&q, 3, 10) != 0 && q == (void *)0x1234, "posix_memalign(3) fails, out untouched");
  CHECK(posix_memalign(&q, 2, 10) != 0, "posix_memalign(2) fails (not a multiple of sizeof(void*))");
  CHECK(posix_memalign(&q, 32, 10) == 0 && ((uintptr_t)q % 32) == 0, "posix_memalign(32) works");
  free(q);
  p = aligned_alloc(16, 64);
  CHECK(p && ((uintptr_t)p % 16) == 0, "aligned_alloc(16, 64) works");
  free(p);
  CHECK(aligned_alloc(16, 10) == NULL, "aligned_alloc with a size not a multiple of the alignment is NULL");
  CHECK(aligned_alloc(0, 10) == NULL, "aligned_alloc(0, ...) is NULL, not a division by zero");
  const uintptr_t page = 4096; /* the allocator's page (sysconf says the wasm page) */
  p = valloc(10);
  CHECK(p && ((uintptr_t)p % page) == 0, "valloc is aligned to the allocator's 4 KiB page");
  free(p);
  emheap_counters mid = now();
  p = pvalloc(10);
  CHECK(p && ((uintptr_t)p % page) == 0 && U(p) >= page && now().live_bytes == mid.live_bytes + U(p),
        "pvalloc rounds the size up to a page");
  free(p);
  /* emmalloc pads an aligned block by growing the live block before it, so
  ** its sizes drift by the padding there (README, known limits). */
  if (emheap_g.allocator != EMHEAP_ALLOCATOR_EMMALLOC)
    CHECK(now().live_bytes == before.live_bytes, "aligned blocks all freed");
  CHECK(now().live_blocks == before.live_blocks, "aligned blocks all freed (count)");
}

static void test_usable_size(void) {
  void *p = malloc(40);
  CHECK(malloc_usable_size(p) >= 40, "malloc_usable_size >= requested");
  CHECK(malloc_usable_size(NULL) == 0, "malloc_usable_size(NULL) is 0");
  free(p);
}

static void test_misuse(void) {
  emheap_counters before = now();
  free(NULL);
  CHECK(now().free_calls == before.free_calls + 1 && now().invalid_frees == before.invalid_frees,
        "free(NULL) is counted and harmless");
  static int not_heap;
  void *volatile foreign = &not_heap; /* hide it from -Wfree-nonheap-object */
  free(foreign);
  CHECK(now().invalid_frees == before.invalid_frees + 1, "free of a static variable is counted and ignored");
  /* Above the allocator's break, inside the memory, and beyond its end (no
  ** read may happen there: it would trap). */
  uintptr_t brk_top = (uintptr_t)sbrk(0);
  uintptr_t mem_end = (uintptr_t)__builtin_wasm_memory_size(0) * 65536u;
  void *volatile above_break = (void *)((brk_top + 64) & ~(uintptr_t)7);
  void *volatile beyond_memory = (void *)(mem_end + 4096);
  void *volatile last_word = (void *)(uintptr_t)0xFFFFFFF8u;
  int tried = 0;
  if ((uintptr_t)above_break + 16 < mem_end) {
    free(above_break);
    tried++;
  }
  free(beyond_memory);
  free(last_word);
  CHECK(realloc(beyond_memory, 8) == NULL, "realloc of a pointer beyond the memory gives NULL");
  CHECK(now().invalid_frees == before.invalid_frees + 4 + (uint64_t)tried,
        "frees of pointers above the break and beyond the memory are counted");
#ifdef DOUBLE_FREE_IS_DETECTED
  char *p = malloc(24);
  free(p);
  free(p); /* a dlmalloc chunk that is free again: its head says so */
  CHECK(now().invalid_frees == before.invalid_frees + 5 + (uint64_t)tried, "double free is counted");
#endif
  /* The allocator must not be corrupted: fresh blocks are distinct and usable. */
  char *a = malloc(24), *b = malloc(24);
  CHECK(a && b && a != b, "the allocator still hands out distinct blocks after misuse");
  memset(a, 1, 24);
  memset(b, 2, 24);
  CHECK(a[23] == 1 && b[0] == 2, "blocks after misuse do not overlap");
  free(a);
  free(b);
  CHECK(now().live_bytes == before.live_bytes, "misuse leaves no live bytes behind");
}

/* Footer mode: free leaves a block's flag to dlfree (runtime/footer.h).
** dlfree merges a block into the free chunk before it without writing the
** block's own head, flag included: that footer, serial 0, must read as no
** record, or a second free or a realloc of the pointer would take a site's
** bytes off twice. Blocks larger than any free chunk come from the top,
** side by side. */
static void test_merged_head_holds_no_record(void) {
  enum { BIG = 200000 };
  /* (the same calls in every mode: tests/e2e/footers.test.js compares
  ** the counts with footers and without) */
  char *a = malloc(BIG), *b = malloc(BIG), *guard = malloc(BIG);
  int footers = emheap_g.footers != 0; /* (else emmalloc, or footers off: records in the block table) */
  uint32_t u = 0;
  if (footers) {
    CHECK(a && b && guard && a + (*emheap_head_word(a) & DL_SIZE_MASK) == b, "three large blocks lie side by side");
    CHECK(emheap_footer_record_at(b, &u) && u == malloc_usable_size(b), "a live block holds its record in its footer");
  }
  free(a);
  free(b); /* merged into a's free chunk */
  if (footers) {
    CHECK((*emheap_head_word(b) & DL_FLAG4) != 0, "dlfree left the merged block's head as it was, flag included");
    CHECK(!emheap_footer_record_at(b, &u), "and its footer (serial 0) holds no record");
  }
  free(guard);
}

static void test_million_blocks(void) {
  enum { N = 1000000 };
  emheap_counters before = now();
  void **blocks = malloc(N * sizeof(void *));
  int ok = blocks != NULL;
  for (int i = 0; ok && i < N; i++) ok = (blocks[i] = malloc(16 + (i & 7))) != NULL;
  CHECK(ok, "1,000,000 blocks allocated");
  emheap_counters mid = now();
  CHECK(mid.live_blocks == before.live_blocks + N + 1, "1,000,000 blocks are all live (%u)", mid.live_blocks);
  CHECK(mid.lost_allocs == before.lost_allocs, "every block recorded (tables grew)");
  CHECK(mid.sampled_allocs >= before.sampled_allocs + N + 1, "exact mode records every block's stack");
  for (int i = 0; i < N; i += 2) free(blocks[i]);
  CHECK(now().live_blocks == before.live_blocks + N / 2 + 1, "every second block freed");
  for (int i = 1; i < N; i += 2) free(blocks[i]);
  free(blocks);
  emheap_counters after = now();
  CHECK(after.live_blocks == before.live_blocks && after.live_bytes == before.live_bytes,
        "all 1,000,000 blocks freed, counters back where they were");
  CHECK(after.live_bytes < ((uint64_t)1 << 40), "live bytes never wrap below zero");
  CHECK(after.invalid_frees == before.invalid_frees, "no free was mistaken for invalid");
  CHECK(after.heap_growths >= 1, "heap growth was recorded");
}

/* Left live on purpose so the snapshot has known sites: 10 x 1000 bytes
** from one call site, 3 x 500 from another. The volatile counts keep clang
** from unrolling the loops into several call sites. */
static volatile int ten = 10, three = 3;
static void leave_known_sites(void) {
  uint64_t a = 0, b = 0;
  for (int i = 0; i < ten; i++) a += U(sink = alloc_in_site_a(1000));
  for (int i = 0; i < three; i++) b += U(sink = alloc_in_site_b(500));
  printf("KNOWN {\"a\":%llu,\"b\":%llu}\n", (unsigned long long)a, (unsigned long long)b);
}

int main(void) {
  test_malloc_free();
  test_calloc();
  test_realloc();
  test_aligned();
  test_usable_size();
  test_misuse();
  test_merged_head_holds_no_record();
  test_million_blocks();
  leave_known_sites();
  emheap_counters c = now();
  printf("COUNTERS {\"liveBytes\":%llu,\"liveBlocks\":%u,\"mallocCalls\":%llu,\"freeCalls\":%llu,"
         "\"invalidFrees\":%llu,\"siteCount\":%u}\n",
         (unsigned long long)c.live_bytes, c.live_blocks, (unsigned long long)c.malloc_calls,
         (unsigned long long)c.free_calls, (unsigned long long)c.invalid_frees, c.site_count);
  EM_ASM({
    console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot()));
    console.log('SUMMARY ' + Module['emheap'].getSnapshotJson());
  });
  printf("1..%d\n", checks);
  return failures ? 1 : 0;
}
