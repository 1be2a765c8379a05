/*
** alloc_token.c -- the allocated type of each C++ `new` (and typed malloc),
** from clang's allocation tokens.
**
** Built with -fsanitize=alloc-token (clang 22: Emscripten 4.0.2x on), each
** allocation call whose type clang knows becomes a call of
** __alloc_token_<function>(arguments..., token): the token is a hash of
** the type's name (SipHash-2-4 of "app::Node", "std::string"...), and the
** top half of its range holds the types that contain pointers. A runtime
** has to define these functions (clang gives none). emheap's versions pass
** the token to the site the allocation is charged to (site_table.c
** emheap_sites_intern: emheap_site.alloc_type) and then make the same call
** without it, so the program allocates exactly as it would otherwise. JS
** names each token by hashing the type names in the module's DWARF
** (symbolize/alloc_types.js).
**
** Why not DWARF's own DW_AT_LLVM_alloc_type: clang 22's WebAssembly
** backend drops the heapallocsite marker that it comes from (measured: 5
** marks in the IR, 0 attributes in the wasm object's DWARF, 5 on x86-64).
**
** The token travels in a thread-local word for the length of the one call:
** the site is interned (its stack taken) inside it. An allocation the
** app's new_handler makes while operator new retries is made inside it
** too, and would carry the token: at worst one more site named by the
** type of the `new` that ran out of memory.
**
** The functions are clang's spelling for wasm32 (size_t is unsigned long,
** "m"); a C program that is never built with the flag refers to none of
** them, and the linker drops them with the C++ calls they make.
*/
#define _POSIX_C_SOURCE 200112L /* posix_memalign */
#include <stddef.h>
#include <stdlib.h>

#include "thread_state.h"

/* libc++abi's, or an app's own, or cxx_new_delete.c's: whichever won. */
extern void *_Znwm(size_t);
extern void *_Znam(size_t);
extern void *_ZnwmSt11align_val_t(size_t, size_t);
extern void *_ZnamSt11align_val_t(size_t, size_t);
extern void *_ZnwmRKSt9nothrow_t(size_t, const void *);
extern void *_ZnamRKSt9nothrow_t(size_t, const void *);
extern void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t, size_t, const void *);
extern void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t, size_t, const void *);
extern void *memalign(size_t, size_t);
extern void *valloc(size_t);
extern void *pvalloc(size_t);

/* Tokens are below 2^32 - 1 (clang bounds them by the 32-bit size_t's
** mask), so token + 1 is never 0 (no token) nor EMHEAP_ALLOC_TYPE_MIXED.
** Token 0 is clang's fallback, for a call whose type it could not tell
** (libc++'s node and buffer allocations, measured: std::map's nodes): no
** type, as the call had none. */
#define WITH_TOKEN(token, call)                                     \
  do {                                                              \
    uint32_t outer = emheap_self.alloc_type;                        \
    emheap_self.alloc_type = (token) ? (uint32_t)(token) + 1 : 0;   \
    __typeof__(call) result = (call);                               \
    emheap_self.alloc_type = outer;                                 \
    return result;                                                  \
  } while (0)

void *__alloc_token__Znwm(size_t n, size_t t) { WITH_TOKEN(t, _Znwm(n)); }
void *__alloc_token__Znam(size_t n, size_t t) { WITH_TOKEN(t, _Znam(n)); }
void *__alloc_token__ZnwmSt11align_val_t(size_t n, size_t al, size_t t) { WITH_TOKEN(t, _ZnwmSt11align_val_t(n, al)); }
void *__alloc_token__ZnamSt11align_val_t(size_t n, size_t al, size_t t) { WITH_TOKEN(t, _ZnamSt11align_val_t(n, al)); }
void *__alloc_token__ZnwmRKSt9nothrow_t(size_t n, const void *tag, size_t t) { WITH_TOKEN(t, _ZnwmRKSt9nothrow_t(n, tag)); }
void *__alloc_token__ZnamRKSt9nothrow_t(size_t n, const void *tag, size_t t) { WITH_TOKEN(t, _ZnamRKSt9nothrow_t(n, tag)); }
void *__alloc_token__ZnwmSt11align_val_tRKSt9nothrow_t(size_t n, size_t al, const void *tag, size_t t) {
  WITH_TOKEN(t, _ZnwmSt11align_val_tRKSt9nothrow_t(n, al, tag));
}
void *__alloc_token__ZnamSt11align_val_tRKSt9nothrow_t(size_t n, size_t al, const void *tag, size_t t) {
  WITH_TOKEN(t, _ZnamSt11align_val_tRKSt9nothrow_t(n, al, tag));
}

void *__alloc_token_malloc(size_t n, size_t t) { WITH_TOKEN(t, malloc(n)); }
void *__alloc_token_calloc(size_t count, size_t n, size_t t) { WITH_TOKEN(t, calloc(count, n)); }
void *__alloc_token_realloc(void *p, size_t n, size_t t) { WITH_TOKEN(t, realloc(p, n)); }
void *__alloc_token_aligned_alloc(size_t al, size_t n, size_t t) { WITH_TOKEN(t, aligned_alloc(al, n)); }
void *__alloc_token_memalign(size_t al, size_t n, size_t t) { WITH_TOKEN(t, memalign(al, n)); }
void *__alloc_token_valloc(size_t n, size_t t) { WITH_TOKEN(t, valloc(n)); }
void *__alloc_token_pvalloc(size_t n, size_t t) { WITH_TOKEN(t, pvalloc(n)); }
int __alloc_token_posix_memalign(void **p, size_t al, size_t n, size_t t) { WITH_TOKEN(t, posix_memalign(p, al, n)); }
