/*
** own_functions.c -- the runtime's functions that can stand between an
** allocation's caller and the moment its stack is taken, by table index
** (a function pointer in wasm is one). JS turns them into function indices
** (jslib/stack_table.js): in a module without function names (linked
** without --profiling-funcs, or stripped by a later wasm-opt) a stack's
** leading frames are recognised as emheap's by what they are, not dropped
** by a count that inlining changes from one entry point to the next.
**
** The list is zero-terminated (no function is at table index 0). Taking
** these addresses puts the functions in the table; nothing calls them
** through it.
*/
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>

#include <emscripten.h>

#include "alloc_fast.h"

/* C++'s operator new, as cxx_new_delete.c defines it (or the program). */
void *_Znwm(size_t);
void *_Znam(size_t);
void *_ZnwmSt11align_val_t(size_t, size_t);
void *_ZnamSt11align_val_t(size_t, size_t);
void *pvalloc(size_t);
int posix_memalign(void **, size_t, size_t); /* POSIX: <stdlib.h> declares it only with _POSIX_C_SOURCE */

static const uintptr_t own_functions[] = {
  (uintptr_t)malloc, (uintptr_t)calloc, (uintptr_t)realloc, (uintptr_t)free,
  (uintptr_t)memalign, (uintptr_t)posix_memalign, (uintptr_t)aligned_alloc,
  (uintptr_t)valloc, (uintptr_t)pvalloc,
  (uintptr_t)_Znwm, (uintptr_t)_Znam, (uintptr_t)_ZnwmSt11align_val_t, (uintptr_t)_ZnamSt11align_val_t,
  (uintptr_t)emheap_record_new, (uintptr_t)emheap_capture_stack,
  0,
};

/* For JS, once per realm: the list above. */
EMSCRIPTEN_KEEPALIVE const uintptr_t *emheap_own_functions(void) { return own_functions; }
