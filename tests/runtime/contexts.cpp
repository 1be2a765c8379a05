/*
** contexts.cpp -- one allocating function reached by many paths, for exact
** sites from calling contexts (jslib/wasm_instrument.js): two direct paths,
** a function pointer, two recursion depths, frames left by longjmp and by a
** caught C++ exception, and JS calling _malloc from two places. Built at
** -O2 with exceptions; every function under test has a loop or two callers
** so that binaryen keeps its frame. Each path leaves a different number of
** blocks live, which names it in tests/contexts.test.js. A direct
** recursion is one context whatever its depth (its frames fold into one):
** depths from one call site are one site.
*/
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include <emscripten.h>
#include <malloc.h>

static void *volatile kept[1024];
static int nkept;
static volatile int one = 1, two = 2, three = 3;
static volatile int tag; /* keeps binaryen from merging functions whose bodies would be equal */
static size_t usable_total, requested_total;

extern "C" __attribute__((noinline)) void grab(int count) {
  for (int i = 0; i < count; i++) {
    size_t n = 24 + i % 3 * 8;
    void *p = malloc(n);
    requested_total += n;
    usable_total += malloc_usable_size(p);
    kept[nkept++] = p;
  }
}

extern "C" __attribute__((noinline)) void path_a(int count) {
  for (int i = 0; i < one; i++) grab(count);
  tag = 1;
}
extern "C" __attribute__((noinline)) void path_b(int count) {
  for (int i = 0; i < one; i++) grab(count);
  tag = 2;
}
extern "C" __attribute__((noinline)) void via_pointer(int count) {
  for (int i = 0; i < one; i++) grab(count);
  tag = 3;
}
void (*volatile pointer)(int) = via_pointer;

extern "C" __attribute__((noinline)) void recurse(int depth, int count) {
  if (depth == 0) {
    grab(count);
    return;
  }
  recurse(depth - 1, count);
  kept[1023] = nullptr; /* not a tail call */
}

static jmp_buf jump;
extern "C" __attribute__((noinline)) void jumps(int count) {
  grab(count);
  if (one) longjmp(jump, 1);
}
extern "C" __attribute__((noinline)) void after_longjmp(int before, int after) {
  if (!setjmp(jump)) jumps(before);
  grab(after); /* this function's own context again, after the longjmp */
}

extern "C" __attribute__((noinline)) void throws(int count) {
  grab(count);
  if (one) throw std::runtime_error("thrown");
}
extern "C" __attribute__((noinline)) void after_catch(int before, int after) {
  try {
    throws(before);
  } catch (const std::exception &) {
    grab(after); /* inside the handler */
  }
  grab(after + 1); /* after it */
}

extern "C" __attribute__((noinline)) void print_result(void) {
  printf("USABLE {\"bytes\": %zu, \"requested\": %zu}\n", usable_total, requested_total);
  EM_ASM({
    var s = Module['emheap'].snapshot();
    console.log('SNAPSHOT ' + JSON.stringify(s));
    console.log('CONTEXTS ' + JSON.stringify(Module['emheap'].contexts()));
  });
}

/* A second caller of each path (never called), so that binaryen inlines
** none of them into main. */
extern "C" __attribute__((noinline)) void second_caller(void) {
  path_a(1);
  path_b(1);
  via_pointer(1);
  recurse(1, 1);
  after_longjmp(1, 1);
  after_catch(1, 1);
  jumps(0); /* one == 0 here: no longjmp (and with wasm setjmp, jumps is otherwise called once) */
  throws(0);
}

int main() {
  if (!one) second_caller();
  for (int r = 0; r < two; r++) { /* each path twice: the second time from the table */
    path_a(2);
    path_b(3);
    pointer(5);
    recurse(2, 7);
    recurse(4, 9);
    for (int d = 1; d <= three; d++) recurse(2 * d, 8); /* depths 2, 4, 6 from one call */
    after_longjmp(11, 13);
    after_catch(15, 17);
    /* The second round takes no JS stack: every context is known. */
    if (r == 0) EM_ASM({ console.log('ROUND_FIRST ' + JSON.stringify(Module['emheap'].contexts())); });
    else EM_ASM({ console.log('ROUND_SECOND ' + JSON.stringify(Module['emheap'].contexts())); });
  }
  /* JS asks for blocks itself, from two places (EM_ASM is glue; the page
  ** script's call below is page code). */
  EM_ASM({ for (var i = 0; i < 19; i++) Module['_malloc'](40); });
  EM_ASM({ for (var i = 0; i < 21; i++) Module['_malloc'](40); });
  print_result();
  return 0;
}
