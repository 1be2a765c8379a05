// app.cpp -- the small C++ app of tests/npm_package.test.js: built the way a
// user builds theirs (npx emheap-config on the emcc line, or CMake), with
// exceptions, at -O2, with Emscripten's default fixed heap. It leaks 100
// widgets from leak_widgets(), keeps 10 from keep_widgets(), marks "widgets
// made" (emheap.h: found through `emheap-config --cflags`, or CMake's
// emheap::emheap target), throws and catches, then saves a snapshot.
#include <emheap.h>
#include <emscripten.h>
#include <cstdio>
#include <stdexcept>
#include <vector>

struct Widget {
  char data[48];
};

// A volatile sink: clang may drop a `new` whose result is never used.
static Widget *volatile sink;
static std::vector<Widget *> kept;

__attribute__((noinline)) void leak_widgets(int n) {
  for (int i = 0; i < n; i++) sink = new Widget();
}

__attribute__((noinline)) void keep_widgets(int n) {
  for (int i = 0; i < n; i++) kept.push_back(new Widget());
}

__attribute__((noinline)) int may_throw(int i) {
  if (i % 7 == 0) throw std::runtime_error("a multiple of seven");
  return i;
}

// Called through volatile pointers: binaryen inlines small functions at link
// time whatever their noinline, and the test needs these frames to exist.
static void (*volatile leak_fn)(int) = leak_widgets;
static void (*volatile keep_fn)(int) = keep_widgets;

int main() {
  leak_fn(100);
  keep_fn(10);
  emheap_mark("widgets made");
  int caught = 0;
  for (int i = 0; i < 50; i++) {
    try {
      may_throw(i);
    } catch (const std::exception &) {
      caught++;
    }
  }
  printf("caught %d\n", caught);
  EM_ASM({ out('SNAPSHOT_FILE ' + Module.emheap.downloadSnapshot('speedscope')); });
  return 0;
}
