/*
** site_charge.h -- a site's live counts changing, under the lock: what
** recording a block (record.c) and a pool's object (pools.c) do to its
** site, inlined into both (as a call, the pool workload spent 11% of its
** time in it: bench/README.md).
*/
#ifndef EMHEAP_SITE_CHARGE_H
#define EMHEAP_SITE_CHARGE_H

#include "emheap_internal.h"

/* Under the lock, before a site changes: if this is its first change
** since the last peak, what it holds now is what it held then. */
static inline emheap_site *site_to_change(uint32_t site) {
  emheap_site *s = emheap_site_at(site);
  if (s->peak_epoch != emheap_g.peak_epoch) {
    s->live_at_peak = s->live_bytes;
    s->blocks_at_peak = s->live_blocks;
    s->est_at_peak = s->est_bytes;
    s->est_blocks_at_peak = s->est_blocks;
    s->peak_epoch = emheap_g.peak_epoch;
  }
  return s;
}

/* fresh: a new block, which the site's totals count too (0: a block put
** back, which they counted already). */
static inline void add_to_site(emheap_site *s, double bytes, double blocks, int sign, int fresh) {
  s->live_bytes += sign * bytes;
  s->live_blocks += sign * blocks;
  if (sign > 0) {
    if (fresh) {
      s->total_bytes += bytes;
      s->total_allocs += blocks;
    }
    if (s->live_bytes > s->peak_live_bytes) {
      s->peak_live_bytes = s->live_bytes;
      s->peak_blocks = (uint32_t)(s->live_blocks + 0.5);
    }
  }
}

/* A site's live counts change by sign * (bytes, blocks); fresh as
** add_to_site's. */
static inline void emheap_charge_site(uint32_t site, double bytes, double blocks, int sign, int fresh) {
  add_to_site(site_to_change(site), bytes, blocks, sign, fresh);
}

#endif /* EMHEAP_SITE_CHARGE_H */
