/*
** shadow_hooks_state.c -- the one piece of emheap state that
** runtime/shadow_stack.c writes (each thread's shadow stack), without the
** rest of the runtime. Linked with emheap_shadow.o into the bench's
** "shadow hooks only" build: the workload compiled with
** -finstrument-functions-after-inlining, the real hooks, and the system
** allocator untouched. Its ratio to the baseline is what the
** instrumentation costs by itself, the floor under exact/shadow and
** sampled/shadow.
*/
#include "thread_state.h"

_Thread_local emheap_thread_state emheap_self;
