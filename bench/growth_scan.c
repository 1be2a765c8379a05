/*
** growth_scan.c -- what a growth of the wasm memory costs emheap: at each
** growth the runtime ranks the sites by live bytes (site_table.c
** emheap_top_sites, a pass over every site, under the lock). This times
** that pass over 1,000, 100,000 and 1,000,000 sites with live bytes in
** random order, the median of 15 passes each, and prints one JSON line per
** size. Built and run by `make growth-scan` (bench/bench.mk), under node.
*/
#include <stdio.h>
#include <stdlib.h>
#include <emscripten.h>

#include "emheap_internal.h"

emheap_state emheap_g; /* only the site table is used here */

/* site_table.c's table memory; the sites here are made by calloc */
void *emheap_table_alloc(size_t bytes) { return calloc(1, bytes); }
void emheap_table_free(void *p, size_t bytes) { (void)bytes; free(p); }

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(void) {
  static const uint32_t sizes[] = {1000, 100000, 1000000};
  emheap_g.sites = calloc(1000000, sizeof(emheap_site));
  if (!emheap_g.sites) return 1;
  uint32_t seed = 12345;
  for (uint32_t s = 0; s < 1000000; s++) {
    seed = seed * 1103515245u + 12345u;
    emheap_g.sites[s].live_bytes = (double)(seed >> 8);
  }
  for (int k = 0; k < 3; k++) {
    emheap_g.counters.site_count = sizes[k];
    double ms[15];
    uint32_t ids[EMHEAP_GROWTH_TOP];
    double bytes[EMHEAP_GROWTH_TOP];
    for (int r = 0; r < 15; r++) {
      double t0 = emscripten_get_now();
      emheap_top_sites(ids, bytes, EMHEAP_GROWTH_TOP);
      ms[r] = emscripten_get_now() - t0;
    }
    qsort(ms, 15, sizeof ms[0], by_value);
    printf("{\"sites\": %u, \"median_ms\": %.3f, \"top\": %u}\n", sizes[k], ms[7], ids[0]);
  }
  return 0;
}
