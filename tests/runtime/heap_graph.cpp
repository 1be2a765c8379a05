/*
** heap_graph.cpp -- the C++ counterpart of heap_graph.c: a heap whose shape
** is known, made with new, std::unique_ptr and std::vector at -O2 with
** exceptions. A tree held by a global (unique_ptr children), a list leaked
** whole (its head directly, the rest indirectly: each node is held only by
** a leaked node), a leaked cycle, an interior pointer into a new[] array, a
** block held only from the C stack, one held only by JS (emheap.addRoot).
** Prints "SNAPSHOT {...}" (emheap.snapshot({heap: true})) from inside main.
*/
#include <emscripten.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

struct Node {
  Node *next = nullptr;
  char payload[40] = {};
};

struct Tree {
  std::unique_ptr<Tree> left, right;
  std::vector<int> values;
};

std::unique_ptr<Tree> kept_tree; /* a root, two children, three vectors' buffers */
char *kept_middle;               /* 100 bytes into a new char[1000] */

__attribute__((noinline)) Node *make_nodes(int n) {
  Node *head = nullptr;
#pragma clang loop unroll(disable)
  for (int i = 0; i < n; i++) {
    Node *x = new Node;
    x->next = head;
    head = x;
  }
  return head;
}

__attribute__((noinline)) void grow_tree() {
  kept_tree.reset(new Tree);
  kept_tree->left.reset(new Tree);
  kept_tree->right.reset(new Tree);
  for (int i = 0; i < 20; i++) {
    kept_tree->values.push_back(i);
    kept_tree->left->values.push_back(i);
    kept_tree->right->values.push_back(i);
  }
}

static Node *(*volatile make_nodes_fn)(int) = make_nodes;

__attribute__((noinline)) void lose_list() {
  Node *lost = make_nodes_fn(3);
  (void)lost; /* the last pointer to the list is dropped here */
}

__attribute__((noinline)) void lose_cycle() {
  Node *a = new Node;
  Node *b = new Node;
  a->next = b;
  b->next = a;
}

__attribute__((noinline)) void keep_middle() {
  char *block = new char[1000];
  std::memset(block, 0, 1000);
  kept_middle = block + 100;
}

__attribute__((noinline)) void keep_in_js() {
  Node *p = new Node;
  EM_ASM({ Module['emheap'].addRoot($0); }, p);
}

__attribute__((noinline)) Node *on_stack_node() {
  return new Node;
}

/* Through pointers: binaryen inlines even noinline functions at -O2, and
** the test finds sites by these functions' frames. */
static void (*volatile grow_tree_fn)() = grow_tree;
static void (*volatile lose_list_fn)() = lose_list;
static void (*volatile lose_cycle_fn)() = lose_cycle;
static void (*volatile keep_middle_fn)() = keep_middle;
static void (*volatile keep_in_js_fn)() = keep_in_js;
static Node *(*volatile on_stack_node_fn)() = on_stack_node;

int main() {
  grow_tree_fn();
  lose_list_fn();
  lose_cycle_fn();
  keep_middle_fn();
  keep_in_js_fn();
  Node *volatile local[1]; /* in the C stack, not only in a wasm local */
  local[0] = on_stack_node_fn();
  try {
    throw 1; /* exceptions unwind through here before the snapshot */
  } catch (int) {
  }
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot({heap: true}))); });
  std::printf("done %p\n", static_cast<void *>(local[0]));
  return 0;
}
