/*
** allocator.c -- decides which block header layout emheap may read
** (allocator.h), by trying it on real blocks before the first allocation
** of the app.
**
** The layouts are those of Emscripten's dlmalloc and emmalloc (both read
** in their sources, 3.1.6 and current). A check that fails (another
** allocator, a changed layout) leaves the generic variant, which is slower
** but right for any allocator with a malloc_usable_size. mimalloc gets the
** generic variant without a check (mimalloc's header is not read; run on
** Emscripten 4.0.23; 3.1.6 has no mimalloc).
*/
#include "builtin_alloc.h"

#include "allocator.h"

uint32_t emheap_allocator = EMHEAP_ALLOCATOR_GENERIC;

/* The allocators' own functions (builtin_alloc.h): emmalloc_usable_size
** is defined by emmalloc, which mimalloc (-sMALLOC=mimalloc, Emscripten
** 3.1.50 and later) also links for its own pages, so it is then present but
** does not describe the app's blocks; mi_usable_size only by mimalloc.
** mallinfo is the allocator's own word on a block's usable size. emheap
** defines malloc_usable_size itself (alloc_hooks.c), from the header it
** reads under dlmalloc: so dlmalloc's truth is the bytes its block took
** from the heap, as mallinfo counts them (uordblks: the chunks in use),
** less the chunk's 4-byte head. in_use_before: uordblks before the block
** came.
**
** The ones that may be missing are called through pointers, set by
** emheap_allocator_detect: wasm-ld gives a missing one the address 0, where
** a direct call would make it a stub function of its own in every program
** (a function with no debug info, in front of the program's first one). */
static size_t (*volatile emmalloc_usable)(void *);
static size_t (*volatile mimalloc_usable)(const void *);
static struct mallinfo (*volatile allocator_mallinfo)(void);

size_t emheap_allocator_usable_size(void *p) {
  size_t (*mi)(const void *) = mimalloc_usable;
  if (mi) return mi(p);
  size_t (*em)(void *) = emmalloc_usable;
  if (em) return em(p);
  size_t head = *emheap_head_word(p); /* dlmalloc's dlmalloc_usable_size, which is static */
  return head & DL_CINUSE ? (head & DL_SIZE_MASK) - EMHEAP_HEAD_BYTES : 0;
}

static size_t allocator_usable_size(uint32_t kind, void *p, int in_use_before) {
  if (kind == EMHEAP_ALLOCATOR_EMMALLOC) return emheap_allocator_usable_size(p);
  return allocator_mallinfo ? (size_t)(allocator_mallinfo().uordblks - in_use_before) - EMHEAP_HEAD_BYTES : 0;
}

static int layout_matches(uint32_t kind) {
  static const uint32_t sizes[] = {1, 13, 24, 100, 1000, 5000};
  int ok = 1;
  for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0] && ok; i++) {
    int in_use = kind == EMHEAP_ALLOCATOR_DLMALLOC && allocator_mallinfo ? allocator_mallinfo().uordblks : 0;
    void *p = emscripten_builtin_malloc(sizes[i]);
    if (!p) return 0;
    size_t truth = allocator_usable_size(kind, p, in_use);
    emheap_allocator = kind;
    ok = emheap_plausible_block(p) && emheap_usable_size(p) == truth && truth >= sizes[i];
    if (ok && kind == EMHEAP_ALLOCATOR_DLMALLOC && EMHEAP_USE_FLAG) {
      /* the spare bit must be clear on a fresh chunk and invisible to dlmalloc */
      ok = !emheap_flag_is_set(p);
      emheap_flag_set(p);
      ok = ok && emheap_usable_size(p) == truth && allocator_usable_size(kind, p, in_use) == truth;
      emheap_flag_clear(p);
    }
    emheap_allocator = EMHEAP_ALLOCATOR_GENERIC;
    emscripten_builtin_free(p);
  }
  return ok;
}

/* emmalloc serves the app's blocks: linked, and not only as mimalloc's
** backing store. */
int emheap_app_uses_emmalloc(void) {
  return EMHEAP_PRESENT(emmalloc_usable_size) && !EMHEAP_PRESENT(mi_usable_size);
}

void emheap_allocator_detect(void) {
  emheap_probe_optional();
  emmalloc_usable = EMHEAP_PRESENT(emmalloc_usable_size) ? emmalloc_usable_size : 0;
  mimalloc_usable = EMHEAP_PRESENT(mi_usable_size) ? mi_usable_size : 0;
  allocator_mallinfo = EMHEAP_PRESENT(mallinfo) ? mallinfo : 0;
  if (mimalloc_usable) {
    /* generic path; JS names the allocator. mimalloc's own C++ operator
    ** new (Emscripten 5.0.7 and later) loses to emheap's: cxx_new_delete.c */
    emheap_allocator = EMHEAP_ALLOCATOR_GENERIC;
    emheap_g.allocator = EMHEAP_ALLOCATOR_MIMALLOC;
    return;
  }
  uint32_t kind = emheap_app_uses_emmalloc() ? EMHEAP_ALLOCATOR_EMMALLOC : EMHEAP_ALLOCATOR_DLMALLOC;
  emheap_allocator = layout_matches(kind) ? kind : EMHEAP_ALLOCATOR_GENERIC;
  emheap_g.allocator = emheap_allocator;
}
