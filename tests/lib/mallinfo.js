// mallinfo.js -- whether emheap's reading of the allocator's heap
// (snapshot.allocatorHeap, capture/allocator_walk.js) says what the
// allocator's own mallinfo() says of it at the same moment.
'use strict';

const assert = require('node:assert/strict');

// What mallinfo() says of the heap a reading describes: dlmalloc counts top
// (with its foot, TOP_FOOT_SIZE: 40 bytes in wasm32, 72 in wasm64) among
// the free chunks, and in use the segment less all that is free (the first
// chunk may start up to 7 bytes into the segment, which is neither);
// emmalloc's fordblks are the free regions' payloads, two size fields of
// header each (8 bytes, 16 in wasm64). Variants 'dlmalloc64' and
// 'emmalloc64': a wasm64 program's.
function assertAgrees(variant, heap, info) {
  const top = heap.topFreeBytes;
  assert.equal(info.keepcost, top, 'the free span at the top');
  if (variant.startsWith('emmalloc')) {
    const header = variant === 'emmalloc64' ? 16 : 8;
    assert.equal(info.fordblks, heap.freeBytes + top - header * (heap.freeBlocks + (top > 0 ? 1 : 0)), 'free bytes');
    return;
  }
  assert.equal(info.fordblks, heap.freeBytes + top + (variant === 'dlmalloc64' ? 72 : 40), 'free bytes');
  assert.equal(info.ordblks, heap.freeBlocks + 1, 'free chunks');
  const gap = info.uordblks - heap.inUseBytes;
  assert.ok(gap >= 0 && gap < 8, `uordblks ${info.uordblks}, in use ${heap.inUseBytes}`);
}

module.exports = {assertAgrees};
