// pools_pmr.cpp -- C++'s std::pmr, at -O2 with exceptions: containers on an
// arena resource (chunks of 64 KiB from operator new, handed out by a bump
// pointer, given back only with the arena: monotonic_buffer_resource's way,
// which Emscripten 3.1.6's libc++ lacks) through a resource that tells
// emheap of every allocation (docs/pools.md's seen_resource) and counts
// them itself. Prints PLAN (that count, and what make_names took) and
// SNAPSHOT at one moment.
#include <emscripten.h>

#include <cstdio>
#include <stdexcept>
#if __has_include(<memory_resource>)
#include <memory_resource>
#include <string>
#include <vector>
namespace pmr = std::pmr;
#else // (Emscripten's libc++ before LLVM 16 has it as experimental)
#include <experimental/memory_resource>
#include <experimental/string>
#include <experimental/vector>
namespace pmr = std::experimental::pmr;
#endif

#include "emheap_pool.h"

class arena_resource : public pmr::memory_resource {
public:
  ~arena_resource() override {
    while (chunks_) {
      chunk *next = chunks_->next;
      ::operator delete(chunks_);
      chunks_ = next;
    }
  }

private:
  struct chunk {
    chunk *next;
    double align_;
  };
  static const std::size_t CHUNK = 64 * 1024;
  void *do_allocate(std::size_t n, std::size_t align) override {
    std::size_t at = (used_ + align - 1) & ~(align - 1);
    if (!chunks_ || at + n > room_) {
      std::size_t size = n + sizeof(chunk) > CHUNK ? n + sizeof(chunk) : CHUNK;
      chunk *c = static_cast<chunk *>(::operator new(size));
      c->next = chunks_;
      chunks_ = c;
      room_ = size;
      at = (sizeof(chunk) + align - 1) & ~(align - 1);
    }
    used_ = at + n;
    return reinterpret_cast<char *>(chunks_) + at;
  }
  void do_deallocate(void *, std::size_t, std::size_t) override {} // given back with the arena
  bool do_is_equal(const pmr::memory_resource &other) const noexcept override { return this == &other; }

  chunk *chunks_ = nullptr;
  std::size_t used_ = 0, room_ = 0;
};

class seen_resource : public pmr::memory_resource {
public:
  explicit seen_resource(pmr::memory_resource *upstream) : upstream_(upstream) { EMHEAP_POOL_CREATE(this, "pmr"); }
  ~seen_resource() override { EMHEAP_POOL_DESTROY(this); }
  long objects = 0;
  long long bytes = 0;

private:
  void *do_allocate(std::size_t n, std::size_t align) override {
    void *p = upstream_->allocate(n, align);
    EMHEAP_POOL_ALLOC(this, p, n);
    objects++;
    bytes += (long long)n;
    return p;
  }
  void do_deallocate(void *p, std::size_t n, std::size_t align) override {
    EMHEAP_POOL_FREE(this, p);
    objects--;
    bytes -= (long long)n;
    upstream_->deallocate(p, n, align);
  }
  bool do_is_equal(const pmr::memory_resource &other) const noexcept override { return this == &other; }

  pmr::memory_resource *upstream_;
};

static const int NUMBERS = 10000, NAMES = 300, TEMPORARIES = 50, TEMPORARY_INTS = 1000;

__attribute__((noinline)) pmr::vector<int> *make_numbers(pmr::memory_resource *r, int n) {
  auto *v = new pmr::vector<int>(r);
  v->reserve((size_t)n); // one allocation of n ints
  for (int i = 0; i < n; i++) v->push_back(i);
  return v;
}

__attribute__((noinline)) void make_names(pmr::vector<pmr::string> &names, int n) {
  names.reserve((size_t)n);
  for (int i = 0; i < n; i++) {
    char text[48];
    std::snprintf(text, sizeof text, "a name long enough for the heap, number %05d", i);
    names.emplace_back(text); // (longer than the string's inline room: one allocation each)
  }
}

__attribute__((noinline)) long make_temporary(pmr::memory_resource *r, int i) {
  pmr::vector<int> t((size_t)TEMPORARY_INTS, i, r);
  if (t.size() != (size_t)TEMPORARY_INTS) throw std::logic_error("vector size");
  return t[0];
}

int main() {
  arena_resource arena;
  seen_resource seen(&arena);
  long sum = 0;
  try {
    for (int i = 0; i < TEMPORARIES; i++) sum += make_temporary(&seen, i);
  } catch (const std::exception &e) {
    std::printf("failed: %s\n", e.what());
    return 1;
  }
  pmr::vector<int> *numbers = make_numbers(&seen, NUMBERS);
  pmr::vector<pmr::string> names(&seen);
  long long before = seen.bytes;
  long objects_before = seen.objects;
  make_names(names, NAMES);
  std::printf("PLAN {\"objects\": %ld, \"bytes\": %lld, \"names\": {\"objects\": %ld, \"bytes\": %lld},"
              " \"numbers\": %zu, \"sum\": %ld}\n",
              seen.objects, seen.bytes, seen.objects - objects_before, seen.bytes - before,
              numbers->capacity() * sizeof(int), sum);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  return 0;
}
