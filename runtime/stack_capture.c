/*
** stack_capture.c -- which call stack is allocating right now: taken by
** JS. On the main thread an id in its JS stack table; on a worker the
** stack's wasm frames as (function, offset) pairs, copied into linear
** memory, because each worker has its own JS stack table and snapshots are
** read on the main thread. Only if a worker's stack cannot be taken is it
** one site for the whole thread.
**
** Runs outside the lock: only this thread's own state is touched.
*/
#include "emheap_internal.h"
#include "lock.h"
#include "thread_state.h"

#if EMHEAP_THREADED
#include <emscripten/threading.h>
#endif

/* jslib/library_emheap.js: a JS stack id >= 1, or 0 if none was taken.
** With root non-NULL (calling contexts), also writes there the JSID of the
** stack outside the current wasm activation (context.h). */
extern uint32_t emheap_js_capture_stack(uint32_t *root);
/* jslib/library_emheap.js, on workers: writes the stack as (function
** index, module offset) pairs, root first, into frames; returns the
** number of words written (even, <= capacity), 0 if none was taken; root
** as above. */
extern uint32_t emheap_js_capture_frames(uint32_t *frames, uint32_t capacity, uint32_t *root);

_Thread_local emheap_thread_state emheap_self;

#define JS_KEY_TAG (1ull << 63)   /* JS stack ids and hashes of frames never collide */
#define WASM_SEED 0xBB67AE8584CAA73Bull

/* Which JS realm's stack table an id belongs to: each pthread worker has
** its own, so ids of different threads must not meet in one site. 0 for
** the main thread, a serial from 1 for workers. */
uint32_t emheap_js_thread_serial(void) {
#if EMHEAP_THREADED
  static uint32_t next_serial = 2;
  uint32_t serial = emheap_self.js_serial;
  if (__builtin_expect(!serial, 0))
    emheap_self.js_serial = serial =
        emscripten_is_main_runtime_thread() ? 1 : __atomic_fetch_add(&next_serial, 1, __ATOMIC_RELAXED);
  return serial - 1;
#else
  return 0;
#endif
}

/* A stack given by its frames (a worker's wasm positions): one site per
** key, whatever thread allocated. */
static inline void stack_of_frames(emheap_stack *out, uint64_t h, uint32_t kind, uint32_t *frames, uint32_t n) {
  out->key = h & ~JS_KEY_TAG;
  out->kind = kind;
  out->ref = 0;
  out->thread = 0;
  out->frames = frames;
  out->depth = n;
}

void emheap_capture_stack(emheap_stack *out, uint32_t *root) {
  uint32_t thread = emheap_js_thread_serial();
  if (thread) {
    /* A worker: its JS stack table is its own, so the frames themselves go
    ** to the site. The key does not depend on the thread: one stack, one
    ** site. */
    uint32_t *frames = emheap_self.worker_frames;
    uint32_t n = emheap_js_capture_frames(frames, EMHEAP_WORKER_FRAMES, root);
    if (n) {
      uint64_t h = WASM_SEED;
      for (uint32_t i = 0; i < n; i++) h = emheap_frame_mix(h, frames[i]);
      stack_of_frames(out, h, EMHEAP_STACK_WASM, frames, n);
      return;
    }
  }
  uint32_t stack_id = thread ? 0 : emheap_js_capture_stack(root);
  out->kind = stack_id || thread ? EMHEAP_STACK_JS : EMHEAP_STACK_NONE;
  out->key = JS_KEY_TAG | (uint64_t)thread << 32 | stack_id;
  out->thread = thread;
  out->ref = stack_id;
  out->frames = 0;
  out->depth = 0;
}
