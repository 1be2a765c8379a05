// memory_breakdown.js -- why the wasm memory is this big, in one place: the
// out-of-memory report on the console, `emheap top`'s header and
// emheap.memory() in the page give the same parts, in the same words.
//
// The parts add up to the memory's size exactly:
//   static data and stacks   [0, heapBase): wasm-ld's data and the main
//                            thread's C stack, below what sbrk hands out
//   live                     the live blocks' usable bytes (summary.liveBytes);
//                            the program's pools' objects lie inside some
//                            of them (their chunks), said beside
//   emheap's tables          summary.tableBytes (from the same allocator)
//   free                     the allocator's free blocks inside its heap
//   free at the top          its free span that ends at the break: the one
//                            part a trim could give back to sbrk (the wasm
//                            memory itself never shrinks)
//   allocator's own          the rest of [heapBase, break): block headers,
//                            alignment, and blocks that never passed
//                            through emheap (Emscripten 3.1.x frees a
//                            thread's stack with its builtin allocator)
//   never handed out         [break, memory size): sbrk has not given it yet
// Free and free at the top come from a walk of the allocator's heap
// (capture/allocator_walk.js, snapshot.allocatorHeap); a snapshot without one
// (threads were running, an older file, an allocator not walked) has one
// part, "free or the allocator's own", instead of the three.
'use strict';

const { formatBytes, plural } = require('./numbers');
const { poolTotals } = require('./pools');

// -> the parts of snapshot's memory now, or null when the file lacks the
// numbers (before layout 4) or is a peak view (its live numbers are the
// peak's, its break is now's).
function memoryBreakdown(snapshot) {
  const s = snapshot.summary || {};
  if (snapshot.view === 'peak' || !(s.heapBase > 0) || !(s.breakNow >= s.heapBase) || !(s.heapSize >= s.breakNow)) return null;
  const arena = s.breakNow - s.heapBase;
  const out = {
    memoryBytes: s.heapSize,
    staticBytes: s.heapBase,
    liveBytes: s.liveBytes,
    liveBlocks: s.liveBlocks,
    emheapBytes: s.tableBytes || 0,
    unusedBytes: s.heapSize - s.breakNow,
    walked: false,
  };
  // the program's pools: objects inside the live blocks (their chunks), or
  // outside any (a static buffer)
  const pools = poolTotals(snapshot);
  if (pools) out.pools = pools;
  const heap = snapshot.allocatorHeap;
  const rest = arena - out.liveBytes - out.emheapBytes;
  if (heap && !heap.error && heap.freeBytes + heap.topFreeBytes <= rest) {
    out.walked = true;
    out.freeBytes = heap.freeBytes;
    out.freeBlocks = heap.freeBlocks;
    out.topFreeBytes = heap.topFreeBytes;
    out.largestFreeBytes = heap.largestFreeBytes;
    out.allocatorOwnBytes = rest - heap.freeBytes - heap.topFreeBytes;
    const free = heap.freeBytes + heap.topFreeBytes;
    // 0: all free memory is one block; near 1: it is in many small ones
    out.fragmentation = free > 0 ? 1 - heap.largestFreeBytes / free : 0;
  } else {
    out.freeOrOwnBytes = Math.max(0, rest);
    if (heap && heap.error) out.notWalked = heap.error;
  }
  return out;
}

// The breakdown as one line of text (no newline), or '' without one.
function breakdownText(b) {
  if (!b) return '';
  const inPools = b.pools ? ` (in pools: ${plural(b.pools.objects, 'object')}, ${formatBytes(b.pools.bytes)}; ` +
    `${formatBytes(b.pools.freeInside)} free inside them)` : '';
  const parts = [
    `${formatBytes(b.staticBytes)} static data and stacks`,
    `${formatBytes(b.liveBytes)} live in ${plural(b.liveBlocks, 'block')}${inPools}`,
    `${formatBytes(b.emheapBytes)} emheap's tables`,
  ];
  if (b.walked) {
    parts.push(`${formatBytes(b.allocatorOwnBytes)} the allocator's own (headers, blocks emheap did not see)`,
      `${formatBytes(b.freeBytes)} free in ${plural(b.freeBlocks, 'block')}`,
      `${formatBytes(b.topFreeBytes)} free at the top`);
  } else {
    // why the allocator's heap was not read, where it was tried
    const why = b.notWalked ? ` (the allocator's heap not read: ${b.notWalked.replace(/^not walked: /, '')})` : '';
    parts.push(`${formatBytes(b.freeOrOwnBytes)} free or the allocator's own${why}`);
  }
  parts.push(`${formatBytes(b.unusedBytes)} never handed to the allocator`);
  let text = `wasm memory ${formatBytes(b.memoryBytes)}: ${parts.join(', ')}`;
  if (b.walked && b.freeBytes + b.topFreeBytes > 0) {
    text += `; largest free block ${formatBytes(b.largestFreeBytes)}, fragmentation ${(100 * b.fragmentation).toFixed(0)}%`;
  }
  return text;
}

module.exports = { memoryBreakdown, breakdownText };
