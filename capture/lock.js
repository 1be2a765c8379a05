// lock.js -- the runtime's lock, taken from JS: every read of the tables
// in a threaded program (runtime built with -pthread) happens under it, so
// a snapshot never sees a half-made change.
//
// The lock is the word emheap_state.lock (runtime/lock.h, word_lock.h: 0
// free, 1 held, 2 held with a waiter), taken here with Atomics on the same
// word. The order of the two locks, in C and JS alike (runtime/lock.h):
// emheap's, then the allocator's (dlmalloc's mutex, taken inside withLock
// when footers need the heap to hold still). The one path that goes the
// other way, an out-of-memory abort inside dlmalloc, runs whileAllocatorHeld:
// it takes no mutex and spins for emheap's lock at most HELD_SPIN_MS, then
// gives up, said, instead of a deadlock.
'use strict';

var STATE = require('./layout_generated').emheap_state;

// In a threaded program with footers (runtime/footer.h), the allocator's
// heap must hold still while a walk reads its chunks: hold(1) takes
// dlmalloc's mutex, hold(0) lets it go (the runtime's export
// emheap_hold_allocator, a no-op without footers). Set once per realm by
// the page code (jslib/page.js), which has the library's host.
var allocatorHold = null;
function holdAllocatorWith(hold) { allocatorHold = hold; }

// Runs fn() from inside the allocator, which this thread holds (an
// out-of-memory abort inside dlmalloc, capture/out_of_memory_moment.js): withLock
// then does not take its mutex (it would wait for itself), and waits for
// the runtime's lock a bounded time only: a thread that holds that lock
// while it waits for the allocator (growing a table of emheap's) would
// wait for this one forever.
var allocatorHeldHere = false;
function whileAllocatorHeld(fn) {
  var before = allocatorHeldHere;
  allocatorHeldHere = true;
  try {
    return fn();
  } finally {
    allocatorHeldHere = before;
  }
}
var HELD_SPIN_MS = 1000;

// Runs fn() holding the runtime's lock when the memory is shared (a
// threaded program), else just runs it. The lock is only ever held for a
// few stores by an allocating thread, so spinning is short. With it, the
// allocator's mutex (allocatorHold), taken inside it as the runtime does.
function withLock(buffer, statePtr, fn) {
  if (typeof SharedArrayBuffer === 'undefined' || !(buffer instanceof SharedArrayBuffer) || !statePtr) return fn();
  var word = new Int32Array(buffer, statePtr + STATE.lock, 1);
  var until = allocatorHeldHere ? Date.now() + HELD_SPIN_MS : Infinity;
  while (Atomics.compareExchange(word, 0, 0, 1) !== 0) {
    // another thread is inside an allocation's bookkeeping
    if (until !== Infinity && Date.now() > until) {
      throw new Error('emheap: the runtime\'s lock stayed held for ' + HELD_SPIN_MS / 1000 +
        ' s by a thread that waits for the allocator, which this one holds: not read');
    }
  }
  var held = false;
  try {
    if (allocatorHold && !allocatorHeldHere) {
      allocatorHold(1);
      held = true;
    }
    return fn();
  } finally {
    if (held) allocatorHold(0);
    // 2: a thread waits for the word (runtime/lock.h): wake it
    if (Atomics.exchange(word, 0, 0) === 2) Atomics.notify(word, 0, 1);
  }
}

module.exports = {withLock: withLock, holdAllocatorWith: holdAllocatorWith, whileAllocatorHeld: whileAllocatorHeld};
