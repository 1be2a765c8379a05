/*
** lock.h -- the one lock of -pthread builds, around every change to the
** shared state (counters, sites, recorded blocks).
**
** A lock word, emheap_g.lock, that JS can take too (Atomics on the same
** word) when it reads the tables: a snapshot taken while threads allocate
** sees a consistent state, never a torn one, and needs no cooperation from
** the app. It is held only for a few loads and stores (and, rarely, a table
** growth); stack capture happens outside it. 0 free, 1 held, 2 held with a
** thread waiting (Drepper's "Futexes are tricky", mutex 2): a thread that
** finds it held tries a few more times (lock.c), then, where it may block (a worker), waits
** on the word until the holder wakes it, so that with more threads than
** cores a thread whose holder was preempted sleeps instead of spinning
** through its time slice. The browser's main thread may not block: it only
** spins. A wait is bounded (1 ms), so a wake that went astray costs a
** millisecond, never a hang. The allocator's own lock is never taken inside it
** except by table growth, and emheap's is never taken inside the
** allocator's, so the two cannot deadlock.
**
** In single-threaded builds (runtime compiled without -pthread) both are
** nothing at all.
*/
#ifndef EMHEAP_LOCK_H
#define EMHEAP_LOCK_H

#include "emheap_internal.h"

#ifdef __EMSCRIPTEN_PTHREADS__
/* lock.c: the lock was held; returns holding it. */
void emheap_lock_contended(void);
/* lock.c: wakes a thread waiting for the lock. */
void emheap_lock_wake(void);

static inline void emheap_lock(void) {
  uint32_t free_word = 0;
  if (!__atomic_compare_exchange_n(&emheap_g.lock, &free_word, 1u, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    emheap_lock_contended();
}
static inline void emheap_unlock(void) {
  if (__builtin_expect(__atomic_exchange_n(&emheap_g.lock, 0u, __ATOMIC_RELEASE) == 2, 0)) emheap_lock_wake();
}
#define EMHEAP_THREADED 1
#else
static inline void emheap_lock(void) {}
static inline void emheap_unlock(void) {}
#define EMHEAP_THREADED 0
#endif

#endif /* EMHEAP_LOCK_H */
