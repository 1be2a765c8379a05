// shadow.cpp -- the shadow call stack (-finstrument-functions) under
// everything that can break it: C++ exceptions, longjmp, recursion deeper
// than its capacity, code that really uses __builtin_return_address, and
// allocations made with an empty shadow stack (from JS). Built with
// -fexceptions and the shadow hooks; run by tests/runtime.test.js.
// Prints TAP lines, then "SNAPSHOT {...}" once JS has allocated too.
#include <emscripten.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include <stdexcept>

#include "emheap_internal.h"
#include "thread_state.h"

static int checks, failures;
#define CHECK(cond, msg)                                           \
  do {                                                             \
    int ok_ = (cond); /* once: cond may call the code under test */ \
    checks++;                                                      \
    if (!ok_) failures++;                                          \
    printf("%s %d - %s\n", ok_ ? "ok" : "not ok", checks, msg);    \
  } while (0)

static void *volatile sink;
static volatile int zero = 0;
static uint32_t depth() { return emheap_self.shadow.depth; }

// Plain chain: the site of the 4096-byte block is inner < middle < outer < main.
__attribute__((noinline)) void inner(size_t n) { sink = malloc(n); }
__attribute__((noinline)) void middle(size_t n) { inner(n); }
__attribute__((noinline)) void outer(size_t n) { middle(n); }

// Exceptions: thrown three frames down, caught here; the allocation after
// the catch must be charged to after_catch < survives_exception < main.
__attribute__((noinline)) void throw3() { throw std::runtime_error("boom"); }
__attribute__((noinline)) void throw2() { throw3(); }
__attribute__((noinline)) void throw1() { throw2(); }
__attribute__((noinline)) void after_catch() { sink = malloc(5000); }
__attribute__((noinline)) int survives_exception() {
  uint32_t before = depth();
  int caught = 0;
  for (int i = 0; i < 1000; i++) {
    try {
      throw1();
    } catch (const std::exception &) {
      caught++;
    }
  }
  CHECK(depth() == before, "shadow depth is back after 1000 exceptions");
  after_catch();
  return caught;
}

// longjmp from three frames down.
static jmp_buf env;
__attribute__((noinline)) void jump3() { longjmp(env, 1); }
__attribute__((noinline)) void jump2() { jump3(); }
__attribute__((noinline)) void jump1() { jump2(); }
__attribute__((noinline)) void after_longjmp() { sink = malloc(6000); }
__attribute__((noinline)) void survives_longjmp() {
  uint32_t before = depth();
  for (volatile int i = 0; i < 100; i++) {
    if (!setjmp(env)) jump1();
  }
  CHECK(depth() == before, "shadow depth is back after 100 longjmps");
  after_longjmp();
}

// Recursion far deeper than the shadow capacity (1024), ending in one of
// two allocating leaves: the stored stacks keep the leaf end, so the two
// are two sites named after their leaves. The volatile local read after
// the call keeps LLVM from turning it into a loop.
__attribute__((noinline)) void deep_leaf_a() { sink = malloc(7000); }
__attribute__((noinline)) void deep_leaf_b() { sink = malloc(7100); }
__attribute__((noinline)) int recurse(int n, int which) {
  volatile int here = n;
  if (n == 0) {
    if (which) deep_leaf_b();
    else deep_leaf_a();
    return 0;
  }
  int below = recurse(n - 1 + zero, which);
  return below + here - n + 1;
}

// Real users of __builtin_return_address: same caller, same answer;
// different callers, different answers; never a crash.
__attribute__((noinline)) void *who_called() { return __builtin_return_address(0); }
__attribute__((noinline)) void *caller_a() { return who_called(); }
__attribute__((noinline)) void *caller_b() { return who_called(); }

extern "C" EMSCRIPTEN_KEEPALIVE void print_snapshot() {
  printf("1..%d\n", checks);
  fflush(stdout);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
}

int main() {
  uint32_t base = depth();
  CHECK(emheap_g.shadow_linked, "the shadow stack hooks are linked");
  CHECK(base >= 1, "main is on the shadow stack");
  outer(4096);
  CHECK(depth() == base, "depth back after a plain call chain");
  CHECK(survives_exception() == 1000, "1000 exceptions caught");
  survives_longjmp();
  uint32_t truncated = emheap_g.counters.truncated_stacks;
  CHECK(recurse(3000, 0) == 3000, "recursion 3000 deep returns");
  CHECK(recurse(2000, 1) == 2000, "recursion 2000 deep returns");
  CHECK(emheap_g.counters.truncated_stacks == truncated + 2, "both deep allocations are counted as truncated stacks");
  CHECK(depth() == base, "depth back after recursion past the capacity");
  void *a1 = caller_a(), *a2 = caller_a(), *b = caller_b();
  CHECK(a1 == (void *)&caller_a && b == (void *)&caller_b,
        "__builtin_return_address(0) names the caller (function pointer) in optimized builds");
  CHECK(a1 && a1 == a2, "__builtin_return_address is stable for one caller");
  CHECK(a1 != b, "__builtin_return_address tells callers apart");
  CHECK(depth() == base, "depth back after __builtin_return_address");
  CHECK(emheap_self.shadow.unmatched_exits == 0, "no exit was left unmatched");
  // With an empty shadow stack (after main), a block JS asks for falls back
  // to the JS stack.
  EM_ASM({
    setTimeout(function () {
      Module['_malloc'](12345);
      Module['_print_snapshot']();
    }, 0);
  });
  if (failures) printf("# %d failed\n", failures);
  return failures ? 1 : 0;
}
