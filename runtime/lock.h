/*
** lock.h -- the one lock of -pthread builds, around every change to the
** shared state (counters, sites, recorded blocks).
**
** A lock word, emheap_g.lock (word_lock.h), that JS can take too (Atomics
** on the same word) when it reads the tables: a snapshot taken while
** threads allocate sees a consistent state, never a torn one, and needs no
** cooperation from the app. It is held only for a few loads and stores
** (and, rarely, a table growth); stack capture happens outside it.
**
** The order of the two locks: emheap's, then the allocator's (dlmalloc's
** mutex). Inside emheap's lock the allocator's is taken by table growth,
** by the walks of dlmalloc's chunks (footer.c, pools.c finding a chunk)
** and by JS reading the heap (capture/lock.js withLock); a footer's flag
** takes it outside emheap's (footer.h). One path goes the other way: a
** wasm memory that cannot grow aborts inside dlmalloc, holding its mutex,
** and the out-of-memory report then takes emheap's lock from JS
** (capture/out_of_memory_moment.js). It spins for it at most 1 s (withLock's
** HELD_SPIN_MS): a thread that holds emheap's lock while it waits for the
** mutex makes the report give up, said, instead of a deadlock.
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
