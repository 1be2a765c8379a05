/*
** footer_usable.c -- every byte malloc_usable_size promises belongs to the
** program. In footer mode (runtime/footer.h) each recorded block carries
** its record in 8 bytes past what the program may use; a program that
** fills its blocks up to malloc_usable_size, through every entry point and
** realloc in place, must leave every record intact: the sites and the
** counters come back to exactly what was asked. Run by
** tests/e2e/footers.test.js with and without footers; prints TAP checks,
** "SNAPSHOT {...}" with the blocks live and "SUMMARY {...}" after.
*/
#define _POSIX_C_SOURCE 200112L
#include <emscripten.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks;
#define CHECK(cond, what)                                                   \
  do {                                                                      \
    checks++;                                                               \
    printf("%s %d - %s\n", (cond) ? "ok" : "not ok", checks, what);        \
  } while (0)

enum { N = 64 };
static void *blocks[N];
static size_t asked[N];

/* Fills p up to its usable size: a program may. */
static void fill(void *p, int byte) { memset(p, byte, malloc_usable_size(p)); }

__attribute__((noinline)) static void *by_malloc(size_t n) { return malloc(n); }
__attribute__((noinline)) static void *by_calloc(size_t n) { return calloc(n, 1); }
__attribute__((noinline)) static void *by_memalign(size_t al, size_t n) {
  void *p = NULL;
  return posix_memalign(&p, al, n) == 0 ? p : NULL;
}

int main(void) {
  static const size_t sizes[] = {0, 1, 4, 5, 12, 13, 16, 24, 100, 1000, 4096, 70000};
  int k = 0;
  for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    size_t n = sizes[i];
    void *a = by_malloc(n), *b = by_calloc(n), *c = by_memalign(64, n), *d = aligned_alloc(256, (n + 255) & ~(size_t)255);
    CHECK(a && b && c && d, "every entry point gave a block");
    CHECK(((uintptr_t)c & 63) == 0 && ((uintptr_t)d & 255) == 0, "aligned as asked");
    CHECK(malloc_usable_size(a) >= n && malloc_usable_size(b) >= n && malloc_usable_size(c) >= n, "usable >= asked");
    int zero = 1;
    for (size_t j = 0; j < n; j++) zero &= ((unsigned char *)b)[j] == 0;
    CHECK(zero, "calloc's bytes are zero");
    fill(a, 0xA5), fill(b, 0x5A), fill(c, 0xFF), fill(d, 0x11);
    blocks[k] = a, asked[k++] = n;
    blocks[k] = b, asked[k++] = n;
    blocks[k] = c, asked[k++] = n;
    blocks[k] = d, asked[k++] = (n + 255) & ~(size_t)255;
  }
  /* realloc: in place and moved, grown and shrunk, each filled again */
  for (int i = 0; i < k; i += 3) {
    size_t n = asked[i] * 2 + 3;
    void *p = realloc(blocks[i], n);
    CHECK(p != NULL, "realloc grew the block");
    fill(p, 0x77);
    blocks[i] = p, asked[i] = n;
  }
  for (int i = 1; i < k; i += 3) {
    size_t n = asked[i] / 2;
    void *p = realloc(blocks[i], n);
    CHECK(p != NULL || n == 0, "realloc shrank the block");
    if (!p) p = malloc(n);
    fill(p, 0x33);
    blocks[i] = p, asked[i] = n;
  }
  size_t want = 0;
  for (int i = 0; i < k; i++) want += asked[i];
  printf("ASKED {\"bytes\": %zu, \"blocks\": %d}\n", want, k);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  for (int i = 0; i < k; i++) free(blocks[i]);
  EM_ASM({ console.log('SUMMARY ' + Module['emheap'].getSnapshotJson()); });
  return 0;
}
