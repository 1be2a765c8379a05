/*
** lock.c -- the slow side of a word lock (word_lock.h): a thread that found
** it held spins a little, then waits on the word where it may block.
** Single-threaded builds have no lock: nothing here.
*/
#include "word_lock.h"

#ifdef __EMSCRIPTEN_PTHREADS__
#include <emscripten/threading.h>

/* Tries before waiting. 8 against 64, four interleaved runs each of the
** threads workload (4 threads, 2 cores), exact against forwarding only:
** Chromium 1.50-1.78x against 1.89-1.96x, Firefox 1.70-2.04x against
** 2.00-2.55x, node 0.91-1.77x against 1.06-1.31x (its runs spread most). */
#define SPINS 8
#define WAIT_MS 1.0

void emheap_word_lock_contended(uint32_t *word) {
  for (int i = 0; i < SPINS; i++) {
    uint32_t free_word = 0;
    if (__atomic_compare_exchange_n(word, &free_word, 1u, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
  }
  /* Held: say that someone waits (2), and wait until it is free. Taken
  ** from here on with 2, since others may still wait. */
  int may_block = !emscripten_is_main_browser_thread();
  while (__atomic_exchange_n(word, 2u, __ATOMIC_ACQUIRE) != 0) {
    if (may_block) emscripten_futex_wait(word, 2u, WAIT_MS);
  }
}

void emheap_word_lock_wake(uint32_t *word) { emscripten_futex_wake(word, 1); }
#endif
