/*
** cxx_new_delete.c -- C++'s operator new and delete as malloc and free.
**
** libc++abi's operator new is malloc (or posix_memalign for over-aligned
** types) in a loop that calls the new_handler, then throws bad_alloc; its
** delete is free in every form. Some allocators bring their own, which
** never pass through emheap's malloc and free:
**   - -sMALLOC=mimalloc's alloc-override.c defines delete, delete[] and
**     their sized forms as weak aliases of mi_free (Emscripten 4.0.23
**     measured: 1,358 blocks "leaked" of 10 live);
**   - from Emscripten 5.0.7 (mimalloc PR #1257) it also defines operator
**     new, new[] and their aligned forms as weak aliases of mi_new and
**     mi_new_aligned, which never call malloc: every C++ object unseen.
** These definitions come first (an object on the link line, before the
** system libraries) and are weak: they win over both, and an app's own
** operator new or delete still wins over them, as it would without
** emheap. With dlmalloc and emmalloc they do exactly what libc++abi's do.
**
** The failure path is libc++'s own: std::get_new_handler() and
** std::__throw_bad_alloc(), which throws or aborts as the libc++ variant
** that emcc picked for the app's exception mode does (JS exceptions, wasm
** exceptions, none). emcc links libc++ into C programs too, so the
** references always resolve; a C program never calls these and the
** linker drops them.
**
** mimalloc's nothrow new and its aligned and nothrow delete are strong
** functions: they win over these. An object from `new (std::nothrow)`, or
** an over-aligned object's delete (alignas above 16), goes around emheap
** (docs/compatibility.md). Wrapping every form with -Wl,--wrap instead was
** tried: wasm-ld's wrapping shifted the DWARF of the whole program under
** Emscripten 4.0.23 at -O2 (use_new's code filed under the next function),
** a worse loss for every C++ program than this one.
**
** Mangled names for wasm32, where size_t is unsigned long ("m");
** std::align_val_t is passed as its size_t, std::nothrow_t as a pointer.
** Nothing else in the runtime refers to these, so that a C program, which
** never calls them, links none of them nor libc++'s failure path (a check
** in allocator.c that took operator new's address grew a small C program's
** wasm from 16.8 to 29.9 KB).
*/
#define _POSIX_C_SOURCE 200112L /* posix_memalign */
#include <stddef.h>
#include <stdlib.h>

/* Weak, and not `used`: Emscripten exports what is used. */
#define EMHEAP_CXX_NEW __attribute__((weak))
#define EMHEAP_CXX_DELETE __attribute__((weak))

/* libc++abi's std::get_new_handler() and libc++'s std::__throw_bad_alloc(). */
typedef void (*new_handler)(void);
extern new_handler _ZSt15get_new_handlerv(void);
extern void _ZSt17__throw_bad_allocv(void) __attribute__((noreturn));

/* libc++abi's operator_new_impl and operator_new_aligned_impl: a block, or
** the new_handler's turn until there is none. Inlined, so that no frame of
** its own sits between operator new and malloc in a stack. */
static inline __attribute__((always_inline)) void *new_block(size_t size, size_t alignment) {
  if (size == 0) size = 1;
  if (alignment < sizeof(void *)) alignment = sizeof(void *);
  for (;;) {
    void *p = NULL;
    if (alignment <= sizeof(void *)) p = malloc(size);
    else if (posix_memalign(&p, alignment, size) != 0) p = NULL;
    if (p) return p;
    new_handler handler = _ZSt15get_new_handlerv();
    if (!handler) _ZSt17__throw_bad_allocv();
    handler();
  }
}

EMHEAP_CXX_NEW void *_Znwm(size_t n) { return new_block(n, 0); }
EMHEAP_CXX_NEW void *_ZnwmSt11align_val_t(size_t n, size_t al) { return new_block(n, al); }
/* new[] is new, whichever won the link (an app may replace only new). */
EMHEAP_CXX_NEW void *_Znam(size_t n) { return _Znwm(n); }
EMHEAP_CXX_NEW void *_ZnamSt11align_val_t(size_t n, size_t al) { return _ZnwmSt11align_val_t(n, al); }

/* Each form of delete calls the next one down as libc++abi's does, down to
** delete(void *) or, aligned, delete(void *, align_val_t): whichever won
** the link, so that an app that replaces only some forms sees every delete
** it would see without emheap. */
EMHEAP_CXX_DELETE void _ZdlPv(void *p) { free(p); }
EMHEAP_CXX_DELETE void _ZdlPvRKSt9nothrow_t(void *p, const void *tag) { (void)tag; _ZdlPv(p); }
EMHEAP_CXX_DELETE void _ZdlPvm(void *p, size_t n) { (void)n; _ZdlPv(p); }
EMHEAP_CXX_DELETE void _ZdaPv(void *p) { _ZdlPv(p); }
EMHEAP_CXX_DELETE void _ZdaPvRKSt9nothrow_t(void *p, const void *tag) { (void)tag; _ZdaPv(p); }
EMHEAP_CXX_DELETE void _ZdaPvm(void *p, size_t n) { (void)n; _ZdaPv(p); }
EMHEAP_CXX_DELETE void _ZdlPvSt11align_val_t(void *p, size_t al) { (void)al; free(p); }
EMHEAP_CXX_DELETE void _ZdlPvSt11align_val_tRKSt9nothrow_t(void *p, size_t al, const void *tag) {
  (void)tag; _ZdlPvSt11align_val_t(p, al);
}
EMHEAP_CXX_DELETE void _ZdlPvmSt11align_val_t(void *p, size_t n, size_t al) { (void)n; _ZdlPvSt11align_val_t(p, al); }
EMHEAP_CXX_DELETE void _ZdaPvSt11align_val_t(void *p, size_t al) { _ZdlPvSt11align_val_t(p, al); }
EMHEAP_CXX_DELETE void _ZdaPvSt11align_val_tRKSt9nothrow_t(void *p, size_t al, const void *tag) {
  (void)tag; _ZdaPvSt11align_val_t(p, al);
}
EMHEAP_CXX_DELETE void _ZdaPvmSt11align_val_t(void *p, size_t n, size_t al) { (void)n; _ZdaPvSt11align_val_t(p, al); }
