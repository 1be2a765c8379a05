/*
** sampler.c -- Poisson sampling by bytes, and what a sample stands for.
**
** Every allocated byte is a sampling point with probability 1/R (R = the
** sampling interval): the distance to the next sampled byte is drawn from
** an exponential distribution with mean R, and a block is sampled when that
** byte falls inside it. A block of Z bytes is sampled with probability
** p = 1 - exp(-Z/R), so charging its site Z/p bytes and 1/p blocks gives
** unbiased estimates (the scheme tcmalloc and pprof use).
**
** Estimates are rounded to whole bytes and to 1/65536 of a block so that
** sums stay exact in a double: freeing every sampled block of a site brings
** it back to exactly zero.
*/
#include <math.h>

#include "emheap_internal.h"

/* xorshift64*: fast, and plenty for choosing sampling points. */
static uint64_t next_random(void) {
  uint64_t x = emheap_g.rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  emheap_g.rng = x;
  return x * 0x2545F4914F6CDD1Dull;
}

int64_t emheap_next_sample_distance(void) {
  double u = (double)((next_random() >> 11) + 1) * (1.0 / 9007199254740992.0); /* (0, 1] */
  double distance = -log(u) * (double)emheap_g.sampling_interval;
  if (distance < 1) return 1;
  if (distance > 4e18) return (int64_t)4e18;
  return (int64_t)distance;
}

/* Sampled mode only: exact mode weighs every block 1 (alloc_hooks.c). */
void emheap_sample_weight(uint32_t size, double *bytes, double *blocks) {
  double p = -expm1(-(double)size / (double)emheap_g.sampling_interval);
  if (!(p > 0)) { /* zero-size blocks are never sampled; keep them finite */
    *bytes = size;
    *blocks = 1;
    return;
  }
  *bytes = round((double)size / p);
  *blocks = round(65536.0 / p) / 65536.0;
}
