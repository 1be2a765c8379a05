/*
** thread_state.h -- what each thread keeps for itself: its shadow call
** stack (kept by shadow_stack.c, linked in shadow builds, and read by
** stack_capture.c), its sampling countdown and random state (sampler.c,
** record.c), its serial for JS stacks, and in threaded builds its counting
** slot (thread_counts.h).
**
** One thread-local struct rather than several thread-local variables:
** with several (some of them function-local), Emscripten 3.1.6's threaded
** programs crashed in dlmalloc about every other run of
** tests/runtime/threads.c, and wasm-ld reported a TLS size (14,393 bytes)
** that did not match the variables' layout; with one, never (16 runs).
**
** The shadow stack:
** fn[i] is the function pointer (table index) entered at depth i, root
** first, for the first EMHEAP_SHADOW_CAPACITY frames; deeper frames go to a
** ring of the last EMHEAP_SHADOW_RING, so that a stack deeper than the
** capacity keeps its leaf end (where the allocation is) and loses its root
** end, which a "(stack truncated)" frame then stands for. hash[d]
** identifies the path fn[0..d) and is valid for d <= hashed: entering a
** function only stores it (the hot path of every instrumented call), and
** the hashes are extended when an allocation needs them. depth keeps
** counting past everything stored so that it never drifts; JS restores the
** main thread's depth after exceptions and longjmp (jslib/library_emheap.js).
**
** Ring slot validity: the slot of frame i (i >= capacity) is overwritten
** by frame i + RING. deep_high is the greatest depth reached since the
** stack last came up from the capacity, so every frame i with
** i >= deep_high - RING still holds its own function.
*/
#ifndef EMHEAP_THREAD_STATE_H
#define EMHEAP_THREAD_STATE_H

#include <stdint.h>

#define EMHEAP_SHADOW_CAPACITY 1024 /* power of two */
#define EMHEAP_SHADOW_RING 256      /* power of two */

typedef struct emheap_shadow_stack {
  uint32_t depth;     /* logical depth */
  uint32_t hashed;    /* hash[0..hashed] are valid, hashed <= capacity */
  uint32_t deep_high; /* see above; 0 while the stack stays within the capacity */
  uint32_t unmatched_exits; /* exits that matched no frame (unwound or foreign) */
  uint32_t fn[EMHEAP_SHADOW_CAPACITY];
  uint32_t ring[EMHEAP_SHADOW_RING];
  uint64_t hash[EMHEAP_SHADOW_CAPACITY + 1];
} emheap_shadow_stack;

typedef struct emheap_thread_state {
  emheap_shadow_stack shadow; /* first: JS finds the main thread's depth through it */
  /* Frames of a stack deeper than the capacity, as stored for a site: the
  ** truncation marker, then the valid leaf end, root first. */
  uint32_t deep_frames[EMHEAP_SHADOW_RING + 1];
  int64_t countdown;          /* bytes until this thread's next sampled byte */
  uint64_t rng;               /* xorshift64* state; 0 until first used */
  uint32_t countdown_started; /* the countdown has been drawn */
  uint32_t js_serial;         /* 0 until known; main thread 1, workers 2, 3... */
  uint32_t roots_added;       /* its stack is in roots.c's table (threaded builds) */
  struct emheap_count_slot *count_slot; /* where it counts without the lock (thread_counts.h) */
  uint32_t count_slot_tried;  /* a slot was looked for: none was free, or the thread exited */
  uint32_t exit_watched;      /* its exit runs thread_exit.c's hook */
  void *tsd;                  /* its TSD array when malloc'd (thread_exit.c), else NULL */
} emheap_thread_state;

extern _Thread_local emheap_thread_state emheap_self;

#endif /* EMHEAP_THREAD_STATE_H */
