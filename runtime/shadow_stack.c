/*
** shadow_stack.c -- exact call stacks without JS: the hooks that
** -finstrument-functions makes every instrumented function call, keeping
** this thread's shadow stack (thread_state.h).
**
** Linked only in shadow builds (bin/emheap-config --shadow, which compiles
** the app with -finstrument-functions-after-inlining: only calls that
** survive inlining pay for the hooks, and the stacks match what a debugger
** shows). It defines
** emscripten_return_address, which clang calls for the hooks' second
** argument. Emscripten's own version is a JS import that aborts unless the
** offset converter is linked; this one answers from the shadow stack: the
** function pointer at the top (level 0) or further down, NULL beyond it.
** Clang computes the hooks' return address at function entry, before the
** enter hook pushes the function, and in optimized builds LLVM merges the
** app's own __builtin_return_address(0) with that call (it is a pure
** intrinsic): so the top is the caller, and the app gets its caller's
** function pointer. In -O0 builds the app's call runs after the push and
** names the function itself. Either way code that compares or prints
** return addresses keeps working; an address from here is a table index,
** not a code offset.
**
** Invariant kept across exceptions and longjmp: depth == number of
** instrumented frames really live. An exit that does not match the top
** frame means frames above it were unwound without running their exits:
** it pops down to the matching frame. JS restores the depth after every
** call that unwinds through an invoke_* wrapper (see jslib).
*/
#include "emheap_internal.h"
#include "thread_state.h"

/* Where JS can see, before the module is compiled, that shadow stacks name
** the sites: it then leaves the module as it is (no calling contexts:
** library_emheap.js). */
__asm__(".section .custom_section.emheap.shadow,\"\",@\n.ascii \"1\"\n.text\n");

#define NO_INSTRUMENT __attribute__((no_instrument_function))
#define RING_MASK (EMHEAP_SHADOW_RING - 1)

/* Beyond the capacity: the ring, and the high-water mark that says which
** ring slots still hold their frame. */
NO_INSTRUMENT __attribute__((noinline)) static void enter_deep(emheap_shadow_stack *s, uint32_t d, uint32_t f) {
  if (d == EMHEAP_SHADOW_CAPACITY) s->deep_high = 0; /* fresh descent: older ring contents are gone */
  s->ring[(d - EMHEAP_SHADOW_CAPACITY) & RING_MASK] = f;
  if (d + 1 > s->deep_high) s->deep_high = d + 1;
}

NO_INSTRUMENT void __cyg_profile_func_enter(void *fn, void *call_site) {
  (void)call_site;
  emheap_shadow_stack *s = &emheap_self.shadow;
  uint32_t d = s->depth;
  if (__builtin_expect(d < EMHEAP_SHADOW_CAPACITY, 1)) {
    s->fn[d] = (uint32_t)(uintptr_t)fn;
    if (s->hashed > d) s->hashed = d; /* hash[d + 1] described the old fn[d] */
  } else {
    enter_deep(s, d, (uint32_t)(uintptr_t)fn);
  }
  s->depth = d + 1;
}

NO_INSTRUMENT __attribute__((noinline)) static void exit_unwound(emheap_shadow_stack *s, uint32_t f) {
  for (uint32_t i = s->depth - 1; i-- > 0;) {
    if (s->fn[i] == f) {
      s->depth = i;
      return;
    }
  }
  s->unmatched_exits++;
}

NO_INSTRUMENT void __cyg_profile_func_exit(void *fn, void *call_site) {
  (void)call_site;
  emheap_shadow_stack *s = &emheap_self.shadow;
  uint32_t d = s->depth;
  if (__builtin_expect(d == 0, 0)) {
    s->unmatched_exits++;
    return;
  }
  if (__builtin_expect(d > EMHEAP_SHADOW_CAPACITY || s->fn[d - 1] == (uint32_t)(uintptr_t)fn, 1)) {
    s->depth = d - 1;
    return;
  }
  exit_unwound(s, (uint32_t)(uintptr_t)fn);
}

/* Called twice per instrumented function (clang passes its result to both
** hooks), so the common case is one subtraction and one unsigned compare:
** a negative level or one past the top wraps to a huge index. */
NO_INSTRUMENT void *emscripten_return_address(int level) {
  emheap_shadow_stack *s = &emheap_self.shadow;
  uint32_t i = s->depth - 1u - (uint32_t)level;
  if (__builtin_expect(i < EMHEAP_SHADOW_CAPACITY && i < s->depth, 1)) return (void *)(uintptr_t)s->fn[i];
  if (i < s->depth) return (void *)(uintptr_t)s->ring[(i - EMHEAP_SHADOW_CAPACITY) & RING_MASK];
  return 0;
}
