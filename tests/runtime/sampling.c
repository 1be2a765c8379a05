/*
** sampling.c -- a workload with known bytes per site, run once in exact
** mode and once sampled (EMHEAP_MODE / EMHEAP_SAMPLING_INTERVAL in the
** environment) by tests/runtime.test.js, which compares the two snapshots.
** Block sizes range from below to far above the sampling interval; churn
** (blocks allocated and freed again) checks that frees undo estimates.
*/
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>

static volatile int n_small = 40000, n_mid = 300, n_big = 24, n_churn = 20000;
static void *volatile sink;
/* What the kept blocks really hold (usable sizes), for the test to compare
** every mode's totals with. */
static unsigned long long kept_bytes;

#define KEEP(n, size)                       \
  for (int i = 0; i < (n); i++) {           \
    void *p = malloc(size);                 \
    memset(p, 1, 8);                        \
    kept_bytes += malloc_usable_size(p);    \
    sink = p;                               \
  }

__attribute__((noinline)) void small_blocks(void) { KEEP(n_small, 40); }         /* 1.6 MB */
__attribute__((noinline)) void tiny_blocks(void) { KEEP(n_small * 2, 16); }      /* 1.28 MB */
__attribute__((noinline)) void mid_blocks(void) { KEEP(n_mid, 6000); }           /* 1.8 MB */
__attribute__((noinline)) void big_blocks(void) { KEEP(n_big, 200000); }         /* 4.8 MB */
__attribute__((noinline)) void under_a_mib(void) { KEEP(n_mid, 1000); }          /* 0.3 MB */
/* Larger than the default 512 KiB interval: always recorded, at true size. */
__attribute__((noinline)) void huge_blocks(void) { KEEP(4, 600000); }            /* 2.4 MB */
__attribute__((noinline)) void churn(void) {
  for (int i = 0; i < n_churn; i++) free(malloc(100 + (i & 1023)));
}

int main(void) {
  small_blocks();
  tiny_blocks();
  mid_blocks();
  big_blocks();
  under_a_mib();
  huge_blocks();
  churn();
  printf("KEPT {\"liveBytes\":%llu}\n", kept_bytes);
  fflush(stdout);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  return 0;
}
