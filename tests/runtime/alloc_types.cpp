/*
** alloc_types.cpp -- `new` of known types, for `--by type`
** (tests/e2e/alloc_types.test.js).
**
** Built with -fsanitize=alloc-token where emcc's clang has it (clang 22:
** Emscripten 4.0.2x and later): clang passes each `new` its type's token.
** With an older clang (HAND_TOKENS), the same calls are made by hand, with
** the tokens tests/lib/alloc_token_flags.js computes as clang does.
**
** Live at the snapshot, by type: shapes::Circle 300 blocks of 16 bytes;
** Particle 200 arrays of 4 (64 bytes) and one malloc of 10 (160 bytes);
** std::string 50 objects (12 bytes; their buffers are libc++'s, untyped);
** std::map<int, std::string> one (12 bytes; its nodes untyped); OnlyNewed
** 7 blocks of 20 bytes (a type only a `new` names, which the DWARF may
** leave out). By function: the strings' buffers, the map's 20 nodes
** (libc++'s, of no type clang can tell) and make_untyped's 3 blocks of
** 24 bytes (clang's fallback token, 0: no type).
*/
#include <emscripten.h>
#include <stdlib.h>

#include <map>
#include <new>
#include <string>
#ifdef ON_THREAD
#include <pthread.h>
#endif

namespace shapes {
struct Circle {
  double radius;
  Circle *next;
};
}  // namespace shapes

struct Particle {
  float x, y, z, w;
};

struct OnlyNewed {
  int words[5];
};

/* clang names a typedef's type by what it stands for. */
typedef std::map<int, std::string> IntToString;

#ifdef HAND_TOKENS
extern "C" void *__alloc_token__Znwm(size_t, size_t);
extern "C" void *__alloc_token__Znam(size_t, size_t);
extern "C" void *__alloc_token_malloc(size_t, size_t);
#define NEW(T, token) new (__alloc_token__Znwm(sizeof(T), token)) T
#define NEW_ARRAY(T, n, token) new (__alloc_token__Znam(sizeof(T) * (n), token)) T[n]
#define MALLOC(T, n, token) (T *)__alloc_token_malloc(sizeof(T) * (n), token)
/* clang's fallback token, where it cannot tell a type */
#define MALLOC_BYTES(n) __alloc_token_malloc(n, 0)
#else
#define NEW(T, token) new T
#define NEW_ARRAY(T, n, token) new T[n]
#define MALLOC(T, n, token) (T *)malloc(sizeof(T) * (n))
#define MALLOC_BYTES(n) malloc(n)
#endif

static void *keep[1024];
static int kept;

/* Each called from two places (main and never_called): binaryen inlines a
** function called from one place, noinline or not. */
__attribute__((noinline)) shapes::Circle *make_circles(int n) {
  shapes::Circle *list = nullptr;
  for (int i = 0; i < n; i++) {
    shapes::Circle *c = NEW(shapes::Circle, TOKEN_CIRCLE);
    c->radius = i;
    c->next = list;
    list = c;
  }
  return list;
}

__attribute__((noinline)) Particle *make_particles(int n) {
  Particle *last = nullptr;
  for (int i = 0; i < n; i++) keep[kept++] = last = NEW_ARRAY(Particle, 4, TOKEN_PARTICLE);
  Particle *more = MALLOC(Particle, 10, TOKEN_PARTICLE);
  keep[kept++] = more;
  return last;
}

__attribute__((noinline)) std::string *make_strings(int n) {
  std::string *last = nullptr;
  for (int i = 0; i < n; i++) {
    last = NEW(std::string, TOKEN_STRING)("a string long enough to live on the heap, number " + std::to_string(i));
    keep[kept++] = last;
  }
  return last;
}

__attribute__((noinline)) IntToString *make_map(int n) {
  IntToString *m = NEW(IntToString, TOKEN_MAP);
  for (int i = 0; i < n; i++) (*m)[i] = "value";
  return m;
}

__attribute__((noinline)) OnlyNewed *make_only_newed(int n) {
  OnlyNewed *last = nullptr;
  for (int i = 0; i < n; i++) keep[kept++] = last = NEW(OnlyNewed, TOKEN_ONLY_NEWED);
  return last;
}

/* Bytes of no type: clang passes its fallback token, 0. */
__attribute__((noinline)) void make_untyped(int n, size_t bytes) {
  for (int i = 0; i < n; i++) keep[kept++] = MALLOC_BYTES(bytes);
}

static volatile int scale = 1;

__attribute__((noinline)) void never_called(void) {
  make_circles(1);
  make_particles(1);
  make_strings(1);
  make_map(1);
  make_only_newed(1);
  make_untyped(1, 1);
}

static void *allocate_all(void *unused) {
  (void)unused;
  if (scale < 0) never_called();
  shapes::Circle *circles = make_circles(300 * scale);
  make_particles(200 * scale);
  make_strings(50 * scale);
  IntToString *map = make_map(20 * scale);
  make_only_newed(7 * scale);
  make_untyped(3 * scale, 24 * scale);
  return circles && map ? circles : nullptr;
}

int main() {
#ifdef ON_THREAD
  /* -pthread: the type travels in a thread's own word, on a worker */
  pthread_t thread;
  void *made = nullptr;
  if (pthread_create(&thread, nullptr, allocate_all, nullptr) || pthread_join(thread, &made)) return 2;
#else
  void *made = allocate_all(nullptr);
#endif
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  return made ? 0 : 1;
}
