// cpp_lines.cpp -- the five ways C++ code allocates, one function each, so
// that every site's frame must name the line marked "LINE <what>" at every
// optimization level, whatever libc++ code the compiler inlined around the
// call to operator new. Run by tests/cpp_lines.test.js; prints the snapshot
// as "SNAPSHOT {...}".
#include <emscripten.h>

#include <memory>
#include <string>
#include <vector>

struct Node {
  Node *next;
  char payload[48];
};

static Node *nodes;
static char *buffers[8];
static std::vector<int> numbers;
static std::string text;
static std::vector<std::unique_ptr<Node>> owned;

__attribute__((noinline)) void use_new(int n) {
  for (int i = 0; i < n; i++) {
    Node *node = new Node;  // LINE new
    node->next = nodes;
    nodes = node;
  }
}

__attribute__((noinline)) void use_new_array(int n) {
  for (int i = 0; i < n; i++) buffers[i & 7] = new char[1000 + i];  // LINE new[]
}

__attribute__((noinline)) void use_vector(int n) {
  for (int i = 0; i < n; i++) numbers.push_back(i);  // LINE vector
}

__attribute__((noinline)) void use_string(int n) {
  text.reserve(16);
  for (int i = 0; i < n; i++) text.append(1, 'a' + i % 26);  // LINE string
}

__attribute__((noinline)) void use_make_unique(int n) {
  for (int i = 0; i < n; i++) owned.push_back(std::make_unique<Node>());  // LINE make_unique
}

static volatile int count = 3000;

/* A second caller of each (never called): binaryen inlines a function
** called from one place, noinline or not (Emscripten 4's -O2 does). */
__attribute__((noinline)) void second_caller(void) {
  use_new(1);
  use_new_array(1);
  use_vector(1);
  use_string(1);
  use_make_unique(1);
}

int main() {
  if (count < 0) second_caller();
  use_new(count);
  use_new_array(8);
  use_vector(count);
  use_string(count);
  use_make_unique(count / 10);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  return 0;
}
