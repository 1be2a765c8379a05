/*
** peak.c -- what was live at the peak. A cache of large blocks is built
** and dropped (the peak of live bytes), then a small table is kept and
** blocks churn below the peak. The snapshot must say: at the peak the
** cache held its bytes and the table nothing; now the reverse.
** Prints "KNOWN {...}" (the bytes asked for, what sites count)
** and "SNAPSHOT {...}" (the JS snapshot at exit), "PEAKVIEW {...}" (the
** page API's emheap.atPeak()).
*/
#include <emscripten.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#define CACHE_BLOCKS 14
#define CACHE_BLOCK_BYTES 600000 /* above the sampling interval (512 KiB): recorded in every mode */
#define TABLE_BLOCKS 8
#define TABLE_BLOCK_BYTES 560000

static void *cache[CACHE_BLOCKS];
static void *table[TABLE_BLOCKS];

__attribute__((noinline)) static double build_cache(void) {
  double bytes = 0;
#pragma clang loop unroll(disable) /* one call site, one site */
  for (int i = 0; i < CACHE_BLOCKS; i++) {
    cache[i] = malloc(CACHE_BLOCK_BYTES);
    bytes += CACHE_BLOCK_BYTES;
  }
  return bytes;
}

__attribute__((noinline)) static void drop_cache(void) {
  for (int i = 0; i < CACHE_BLOCKS; i++) free(cache[i]);
}

__attribute__((noinline)) static double keep_table(void) {
  double bytes = 0;
#pragma clang loop unroll(disable)
  for (int i = 0; i < TABLE_BLOCKS; i++) {
    table[i] = malloc(TABLE_BLOCK_BYTES);
    bytes += TABLE_BLOCK_BYTES;
  }
  return bytes;
}

/* Below the peak: these never make a new one. */
__attribute__((noinline)) static void churn(void) {
  for (int i = 0; i < 20000; i++) {
    void *volatile p = malloc(64 + i % 200);
    free(p);
  }
}

/* Called through pointers: binaryen inlines even noinline functions into
** main at -O2, and the test finds sites by these functions' frames. */
static double (*volatile build_cache_fn)(void) = build_cache;
static void (*volatile drop_cache_fn)(void) = drop_cache;
static double (*volatile keep_table_fn)(void) = keep_table;
static void (*volatile churn_fn)(void) = churn;

int main(void) {
  double cacheBytes = build_cache_fn();
  drop_cache_fn();
  double tableBytes = keep_table_fn();
  churn_fn();
  printf("KNOWN {\"cacheBytes\": %.0f, \"tableBytes\": %.0f, \"cacheBlocks\": %d, \"tableBlocks\": %d}\n",
         cacheBytes, tableBytes, CACHE_BLOCKS, TABLE_BLOCKS);
  fflush(stdout);
  EM_ASM({
    console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot()));
    console.log('PEAKVIEW ' + JSON.stringify(Module['emheap'].atPeak()));
  });
  return 0;
}
