/*
** word_lock.h -- a lock in one 32-bit word, for -pthread builds: the
** runtime's lock (lock.h) is one, and the bench's "forwarding + lock"
** build (bench/workloads/forwarding_lock_wrapper.c) takes the same kind,
** so that it measures what this lock costs. Needs nothing else of the
** runtime.
**
** 0 free, 1 held, 2 held with a thread waiting (Drepper's "Futexes are
** tricky", mutex 2): a thread that finds it held tries a few more times
** (lock.c), then, where it may block (a worker), waits on the word until
** the holder wakes it, so that with more threads than cores a thread whose
** holder was preempted sleeps instead of spinning through its time slice.
** The browser's main thread may not block: it only spins. A wait is
** bounded (1 ms), so a wake that went astray costs a millisecond, never a
** hang. JS can take the same word with Atomics.
*/
#ifndef EMHEAP_WORD_LOCK_H
#define EMHEAP_WORD_LOCK_H

#include <stdint.h>

#ifdef __EMSCRIPTEN_PTHREADS__
/* lock.c: the word was held; returns holding it. */
void emheap_word_lock_contended(uint32_t *word);
/* lock.c: wakes a thread waiting for the word. */
void emheap_word_lock_wake(uint32_t *word);

static inline void emheap_word_lock(uint32_t *word) {
  uint32_t free_word = 0;
  if (!__atomic_compare_exchange_n(word, &free_word, 1u, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    emheap_word_lock_contended(word);
}
static inline void emheap_word_unlock(uint32_t *word) {
  if (__builtin_expect(__atomic_exchange_n(word, 0u, __ATOMIC_RELEASE) == 2, 0)) emheap_word_lock_wake(word);
}
#endif

#endif /* EMHEAP_WORD_LOCK_H */
