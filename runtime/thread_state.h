/*
** thread_state.h -- what each thread keeps for itself: its sampling
** countdown and random state (sampler.c, record.c), its last block's
** serial (record.c: temporary allocations), its serial for JS
** stacks, a worker's stack as it hands it to the runtime
** (stack_capture.c), the allocated type of the allocation being made
** (alloc_token.c), its last calling context's site (record.c), and in
** threaded builds its counting slot (thread_counts.h).
**
** One thread-local struct rather than several thread-local variables:
** with several (some of them function-local), Emscripten 3.1.6's threaded
** programs crashed in dlmalloc about every other run of
** tests/runtime/threads.c, and wasm-ld reported a TLS size (14,393 bytes)
** that did not match the variables' layout; with one, never (16 runs).
*/
#ifndef EMHEAP_THREAD_STATE_H
#define EMHEAP_THREAD_STATE_H

#include <stdint.h>

/* Words of a worker's stack handed to the runtime: (function index, module
** offset) pairs, so 128 frames; a deeper stack keeps its leaf end. */
#define EMHEAP_WORKER_FRAMES 256

typedef struct emheap_thread_state {
  uint32_t worker_frames[EMHEAP_WORKER_FRAMES]; /* a worker's stack being recorded */
  int64_t countdown;          /* bytes until this thread's next sampled byte */
  uint64_t rng;               /* xorshift64* state; 0 until first used */
  uint32_t countdown_started; /* the countdown has been drawn */
  uint32_t js_serial;         /* 0 until known; main thread 1, workers 2, 3... */
  uint32_t roots_added;       /* its stack is in roots.c's table (threaded builds) */
  struct emheap_count_slot *count_slot; /* where it counts without the lock (thread_counts.h) */
  uint32_t count_slot_tried;  /* a slot was looked for: none was free, or the thread exited */
  uint32_t exit_watched;      /* its exit runs thread_exit.c's hook */
  void *tsd;                  /* its TSD array when malloc'd (thread_exit.c), else NULL */
  uint32_t last_serial;       /* the serial of its last recorded block, 0 if its last allocation has
                                 none: freeing that block is a temporary allocation (record.c) */
  uintptr_t last_block;       /* the address of its last recorded heap block: a pool's new chunk,
                                 when its first object comes right after it (pools.c) */
  uint32_t last_renumber;     /* emheap_state.serial_renumbers then: a serial from before a
                                 renumbering names no block any more */
  uint32_t alloc_type;        /* the allocation being made: its clang allocation token + 1, or 0
                                 (alloc_token.c) */
  /* The calling context (context.h: its two words and JSID) of this
  ** thread's last allocation that found its site in the context table, and
  ** that site: a loop's next allocation takes it without the key's hash
  ** and the table's probe (record.c). Valid for the run: contexts and
  ** sites are never removed. site 0: none yet. */
  uint32_t ctx_lo, ctx_hi, ctx_js, ctx_site;
} emheap_thread_state;

extern _Thread_local emheap_thread_state emheap_self;

#endif /* EMHEAP_THREAD_STATE_H */
