// cpp_new.cpp -- C++ allocations reach emheap through operator new, which
// must never be the call site: the site is the code that said `new`.
// Run by tests/runtime.test.js; prints the JS snapshot as "SNAPSHOT {...}".
#include <emscripten.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct Node {
  Node *next;
  char payload[100];
};

static Node *head;
static std::vector<int> *numbers;
static std::vector<std::unique_ptr<std::string>> strings;

// Called from two places so binaryen does not inline it into main.
__attribute__((noinline)) void build_list(int n) {
  for (int i = 0; i < n; i++) {
    Node *node = new Node;
    node->next = head;
    head = node;
  }
}

__attribute__((noinline)) void grow_vector(int n) {
  if (!numbers) numbers = new std::vector<int>();
  for (int i = 0; i < n; i++) numbers->push_back(i);
}

__attribute__((noinline)) void make_strings(int n) {
  for (int i = 0; i < n; i++)
    strings.push_back(std::make_unique<std::string>(200, 'x'));
}

// Over-aligned types go through operator new(size_t, align_val_t), which
// libc++ serves with aligned_alloc: 2 MiB must be granted as the allocator
// grants it (it threw std::bad_alloc under earlier emheap versions).
struct alignas(2097152) Page {
  char bytes[64];
};

__attribute__((noinline)) void aligned_pages() {
  Page *page = new Page;
  bool aligned = (reinterpret_cast<uintptr_t>(page) & (2097152 - 1)) == 0;
  EM_ASM({ console.log('ALIGNED ' + JSON.stringify({ok: !!$0})); }, aligned);
  delete page;
}

static volatile int fifty = 50, ten_thousand = 10000, twenty = 20;

int main() {
  build_list(fifty);
  build_list(fifty);
  grow_vector(ten_thousand);
  grow_vector(ten_thousand);
  make_strings(twenty);
  int *scratch = new int[1000];
  delete[] scratch;
  aligned_pages();
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  return 0;
}
