/*
** lock.h -- the one lock of -pthread builds, around every change to the
** shared state (counters, sites, recorded blocks).
**
** A spin lock on emheap_g.lock, so that JS can take it too (Atomics on the
** same word) when it reads the tables: a snapshot taken while threads
** allocate sees a consistent state, never a torn one, and needs no
** cooperation from the app. It is held only for a few loads and stores (and,
** rarely, a table growth); stack capture happens outside it. A spin lock
** rather than a mutex because the browser's main thread may not block
** (Atomics.wait) and because the critical sections are shorter than a
** futex round trip. The allocator's own lock is never taken inside it
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
static inline void emheap_lock(void) {
  while (__atomic_exchange_n(&emheap_g.lock, 1u, __ATOMIC_ACQUIRE)) {
    while (__atomic_load_n(&emheap_g.lock, __ATOMIC_RELAXED)) {
    }
  }
}
static inline void emheap_unlock(void) { __atomic_store_n(&emheap_g.lock, 0u, __ATOMIC_RELEASE); }
#define EMHEAP_THREADED 1
#else
static inline void emheap_lock(void) {}
static inline void emheap_unlock(void) {}
#define EMHEAP_THREADED 0
#endif

#endif /* EMHEAP_LOCK_H */
