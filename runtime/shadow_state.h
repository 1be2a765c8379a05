/*
** shadow_state.h -- the shadow call stack of one thread, kept by
** shadow_stack.c (linked in shadow builds) and read by stack_capture.c.
**
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
#ifndef EMHEAP_SHADOW_STATE_H
#define EMHEAP_SHADOW_STATE_H

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

extern _Thread_local emheap_shadow_stack emheap_shadow;

#endif /* EMHEAP_SHADOW_STATE_H */
