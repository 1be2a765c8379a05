// cxx_own_new.cpp -- an app that replaces operator new and delete (not
// new[]) with its own, as games and engines do: its definitions must still
// win over emheap's weak ones (runtime/cxx_new_delete.c), new[] and
// delete[] must reach them as libc++'s do, and emheap must see the blocks
// through the malloc they call. Prints "OWN {...}" and "SNAPSHOT {...}".
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>

#include <new>

static int news, deletes;

void *operator new(size_t n) {
  news++;
  void *p = malloc(n ? n : 1);
  if (!p) abort();
  return p;
}
void operator delete(void *p) noexcept {
  if (p) deletes++;
  free(p);
}

struct Item {
  int id;
  char name[60];
};

static Item *kept[10];

// Two callers each, so that binaryen keeps their frames.
__attribute__((noinline)) Item *make_item(int id) {
  Item *item = new Item;
  item->id = id;
  return item;
}
__attribute__((noinline)) int *make_array(int n) { return new int[n]; }

int main() {
  for (int i = 0; i < 10; i++) kept[i] = make_item(i);
  delete make_item(99);
  int *array = make_array(100);
  delete[] array;
  int *kept_array = make_array(50);
  printf("OWN {\"news\": %d, \"deletes\": %d, \"kept\": %d}\n", news, deletes, kept[9]->id + kept_array[0] * 0);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  return 0;
}
