/*
** lock.h -- the one lock of -pthread builds, around every change to the
** shared state (counters, sites, recorded blocks).
**
** A lock word, emheap_g.lock (word_lock.h), that JS can take too (Atomics
** on the same word) when it reads the tables: a snapshot taken while
** threads allocate sees a consistent state, never a torn one, and needs no
** cooperation from the app. It is held only for a few loads and stores
** (and, rarely, a table growth); stack capture happens outside it. The
** allocator's own lock is never taken inside it except by table growth,
** and emheap's is never taken inside the allocator's, so the two cannot
** deadlock.
**
** In single-threaded builds (runtime compiled without -pthread) both are
** nothing at all.
*/
#ifndef EMHEAP_LOCK_H
#define EMHEAP_LOCK_H

#include "emheap_internal.h"
#include "word_lock.h"

#ifdef __EMSCRIPTEN_PTHREADS__
static inline void emheap_lock(void) { emheap_word_lock(&emheap_g.lock); }
static inline void emheap_unlock(void) { emheap_word_unlock(&emheap_g.lock); }
#define EMHEAP_THREADED 1
#else
static inline void emheap_lock(void) {}
static inline void emheap_unlock(void) {}
#define EMHEAP_THREADED 0
#endif

#endif /* EMHEAP_LOCK_H */
