/*
** cxx_delete.c -- C++'s operator delete, every form, as free().
**
** libc++abi's operator delete is free() in every form (sized, aligned,
** nothrow): nothing to it but the call. Some allocators bring their own:
** -sMALLOC=mimalloc's alloc-override.c defines delete, delete[] and their
** sized forms as weak aliases of mi_free, and in the link they come before
** libc++abi's, so every C++ delete went to mimalloc behind emheap's back
** and every object made with new stayed live in emheap's tables for good
** (measured on Emscripten 4.0.23: 1,358 blocks "leaked" of 10 live). These
** definitions come first (an object on the link line) and are weak: an
** app's own operator delete still wins, as it would without emheap. With
** dlmalloc and emmalloc they do exactly what libc++abi's would.
**
** mimalloc's aligned and nothrow forms are strong functions: they win over
** these, and an over-aligned object's delete (alignas above 16) goes around
** emheap (docs/compatibility.md). Wrapping every form with -Wl,--wrap
** instead was tried: wasm-ld's wrapping shifted the DWARF of the whole
** program under Emscripten 4.0.23 at -O2 (use_new's code filed under the
** next function), a worse loss for every C++ program than this one for
** over-aligned types under mimalloc.
**
** Mangled names for wasm32, where size_t is unsigned long ("m");
** std::align_val_t is passed as its size_t, std::nothrow_t as a pointer.
** operator new is not replaced: its failure path (new_handler, bad_alloc)
** depends on how libc++ was built; allocator.c tells JS when new does not
** reach malloc (emheap_internal.h, EMHEAP_ALLOCATOR_NEW_UNSEEN).
*/
#include <stddef.h>
#include <stdlib.h>

/* Weak, and not `used`: Emscripten exports what is used. */
#define EMHEAP_CXX_DELETE __attribute__((weak))

EMHEAP_CXX_DELETE void _ZdlPv(void *p) { free(p); }
EMHEAP_CXX_DELETE void _ZdaPv(void *p) { free(p); }
EMHEAP_CXX_DELETE void _ZdlPvm(void *p, size_t n) { (void)n; free(p); }
EMHEAP_CXX_DELETE void _ZdaPvm(void *p, size_t n) { (void)n; free(p); }
EMHEAP_CXX_DELETE void _ZdlPvRKSt9nothrow_t(void *p, const void *tag) { (void)tag; free(p); }
EMHEAP_CXX_DELETE void _ZdaPvRKSt9nothrow_t(void *p, const void *tag) { (void)tag; free(p); }
EMHEAP_CXX_DELETE void _ZdlPvSt11align_val_t(void *p, size_t al) { (void)al; free(p); }
EMHEAP_CXX_DELETE void _ZdaPvSt11align_val_t(void *p, size_t al) { (void)al; free(p); }
EMHEAP_CXX_DELETE void _ZdlPvmSt11align_val_t(void *p, size_t n, size_t al) { (void)n; (void)al; free(p); }
EMHEAP_CXX_DELETE void _ZdaPvmSt11align_val_t(void *p, size_t n, size_t al) { (void)n; (void)al; free(p); }
EMHEAP_CXX_DELETE void _ZdlPvSt11align_val_tRKSt9nothrow_t(void *p, size_t al, const void *tag) {
  (void)al; (void)tag; free(p);
}
EMHEAP_CXX_DELETE void _ZdaPvSt11align_val_tRKSt9nothrow_t(void *p, size_t al, const void *tag) {
  (void)al; (void)tag; free(p);
}
