/*
** builtin_alloc.h -- the allocator under emheap: the emscripten_builtin_*
** entry points that Emscripten's dlmalloc, emmalloc and mimalloc define
** beside malloc, which emheap's malloc forwards to. Declared here, not
** taken from a system header: Emscripten 3.1.x declares them in
** <emscripten/emmalloc.h>, later versions only in <emscripten/heap.h>
** (moved in 3.1.13); these declarations match both.
*/
#ifndef EMHEAP_BUILTIN_ALLOC_H
#define EMHEAP_BUILTIN_ALLOC_H

#include <malloc.h>
#include <stddef.h>

void *emscripten_builtin_malloc(size_t size);
void emscripten_builtin_free(void *ptr);
void *emscripten_builtin_memalign(size_t alignment, size_t size);

/* Present only in some allocators or Emscripten versions. A static link
** takes them weak, and one that is missing has the address 0. The
** position-independent runtime (the one a -sMAIN_MODULE program links)
** cannot: there a weak undefined function is an import that the dynamic
** linker would have to find, and Emscripten refuses the link. It defines
** each one weakly instead, as a stand-in (optional.c) that the allocator's
** strong definition replaces at link time. Which one won cannot be told by
** address (wasm-ld may give a function a table slot per name), so a call
** tells: emheap_probe_optional calls each once, with arguments that make
** the real one do nothing, and a stand-in marks itself absent. Until then
** all count as absent, so only the generic paths run. */
#define EMHEAP_OPTIONAL_FUNCTIONS(X) \
  X(void *, emscripten_builtin_realloc, (void *, size_t))   /* not 3.1.6's dlmalloc */ \
  X(void *, emscripten_builtin_calloc, (size_t, size_t))    /* not 3.1.6's dlmalloc */ \
  X(void *, __libc_calloc, (size_t, size_t))                /* dlmalloc, emmalloc */ \
  X(void *, __libc_realloc, (void *, size_t))               /* dlmalloc's realloc */ \
  X(void *, emmalloc_realloc_try, (void *, size_t))         /* emmalloc */ \
  X(int, emmalloc_posix_memalign, (void **, size_t, size_t)) /* emmalloc */ \
  X(size_t, emmalloc_usable_size, (void *))                 /* emmalloc (also under mimalloc) */ \
  X(size_t, mi_usable_size, (const void *))                 /* mimalloc */ \
  X(struct mallinfo, mallinfo, (void))                      /* dlmalloc, emmalloc; not mimalloc */

#ifdef __PIC__
#define EMHEAP_DECLARE_OPTIONAL(ret, name, params) ret name params;
#define EMHEAP_OPTIONAL_INDEX(ret, name, params) EMHEAP_OPTIONAL_INDEX_##name,
enum { EMHEAP_OPTIONAL_FUNCTIONS(EMHEAP_OPTIONAL_INDEX) EMHEAP_OPTIONAL_COUNT };
extern unsigned emheap_absent_functions; /* bit i: function i is a stand-in */
#define EMHEAP_PRESENT(fn) (!(emheap_absent_functions & (1u << EMHEAP_OPTIONAL_INDEX_##fn)))
void emheap_probe_optional(void);
#else
#define EMHEAP_DECLARE_OPTIONAL(ret, name, params) ret name params __attribute__((weak));
#define EMHEAP_PRESENT(fn) ((fn) != 0)
#define emheap_probe_optional() ((void)0)
#endif
EMHEAP_OPTIONAL_FUNCTIONS(EMHEAP_DECLARE_OPTIONAL)

#endif
