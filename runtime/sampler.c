/*
** sampler.c -- which blocks get a recorded stack in sampled mode, and what
** a recorded block stands for.
**
** heapprofd's rule: a block of at least the sampling interval R is always
** recorded, at its true size. Smaller blocks are sampled by bytes: every
** byte is a sampling point with probability 1/R (the distance to the next
** one is exponential with mean R, counted down per thread), and a block is
** recorded when a sampling point falls inside it, with probability
** p = 1 - exp(-Z/R) for Z bytes. Charging its site Z/p bytes and 1/p blocks
** gives unbiased estimates (the scheme tcmalloc and pprof use).
**
** Estimates are rounded to whole bytes and to 1/65536 of a block so that
** sums stay exact in a double: freeing every recorded block of a site
** brings it back to exactly zero. The weight depends only on the size, so
** free computes the same weight again instead of storing it (a block
** keeps one bit: whether it was sampled at all, EMHEAP_BLOCK_WEIGHTED).
**
** Randomness: xorshift64* per thread, seeded from emheap_g.seed (JS writes
** a random one at startup, or the one the user asked for: runs repeat
** exactly with a fixed seed) and a per-thread counter.
*/
#include <math.h>

#include "emheap_internal.h"
#include "lock.h"
#include "thread_state.h"

static uint32_t threads_seeded;

static uint64_t splitmix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static uint64_t next_random(void) {
  uint64_t x = emheap_self.rng;
  if (__builtin_expect(!x, 0)) {
    uint32_t n = __atomic_fetch_add(&threads_seeded, 1, __ATOMIC_RELAXED);
    x = splitmix(emheap_g.seed + n) | 1;
  }
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  emheap_self.rng = x;
  return x * 0x2545F4914F6CDD1Dull;
}

void emheap_reset_countdown(void) {
  double u = (double)((next_random() >> 11) + 1) * (1.0 / 9007199254740992.0); /* (0, 1] */
  double distance = -log(u) * (double)emheap_g.sampling_interval;
  emheap_self.countdown = distance < 1 ? 1 : distance > 4e18 ? (int64_t)4e18 : (int64_t)distance;
}

double emheap_inverse_chance(uint32_t size) {
  if (size >= emheap_g.sampling_interval || size == 0) return 1;
  return 1 / -expm1(-(double)size / (double)emheap_g.sampling_interval);
}
