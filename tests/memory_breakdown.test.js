// memory_breakdown.test.js -- model/memory_breakdown.js: the parts of the
// wasm memory add up to its size, with the allocator's free blocks apart
// when its heap was walked, and one part for both when it was not.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {memoryBreakdown, breakdownText} = require('../model/memory_breakdown');
const {makeSnapshot} = require('./lib/fixtures');

const MiB = 1024 * 1024;

function snapshotWith(heap) {
  const snap = makeSnapshot();
  Object.assign(snap.summary, {heapSize: 16 * MiB, heapBase: MiB, breakNow: 15 * MiB, liveBytes: 10 * MiB, liveBlocks: 100,
    tableBytes: 65536});
  if (heap) snap.allocatorHeap = heap;
  return snap;
}

const parts = (b) => b.staticBytes + b.liveBytes + b.emheapBytes + b.unusedBytes +
  (b.walked ? b.allocatorOwnBytes + b.freeBytes + b.topFreeBytes : b.freeOrOwnBytes);

test('walked: free blocks, the free span at the top and the allocator\'s own, adding up to the memory', () => {
  const b = memoryBreakdown(snapshotWith({freeBytes: MiB, freeBlocks: 3, largestFreeBytes: MiB / 2, topFreeBytes: MiB / 4,
    inUseBytes: 0, inUseBlocks: 0}));
  assert.equal(b.walked, true);
  assert.equal(parts(b), 16 * MiB);
  assert.equal(b.allocatorOwnBytes, 14 * MiB - 10 * MiB - 65536 - MiB - MiB / 4);
  assert.equal(b.fragmentation, 1 - (MiB / 2) / (MiB + MiB / 4));
  assert.equal(breakdownText(b), "wasm memory 16.00 MiB: 1.00 MiB static data and stacks, 10.00 MiB live in 100 blocks, " +
    "64.00 KiB emheap's tables, 2.69 MiB the allocator's own (headers, blocks emheap did not see), 1.00 MiB free in 3 blocks, " +
    '256.00 KiB free at the top, 1.00 MiB never handed to the allocator; largest free block 512.00 KiB, fragmentation 60%');
});

test('not walked, or a walk that does not fit the counters: one part for free and the allocator\'s own', () => {
  for (const heap of [null, {error: 'not walked: other threads may be allocating'},
    {freeBytes: 20 * MiB, freeBlocks: 1, largestFreeBytes: 20 * MiB, topFreeBytes: 0, inUseBytes: 0, inUseBlocks: 0}]) {
    const b = memoryBreakdown(snapshotWith(heap));
    assert.equal(b.walked, false);
    assert.equal(parts(b), 16 * MiB);
    // where the heap was tried and not read, the text says why
    const why = heap && heap.error ? ' \\(the allocator\'s heap not read: other threads may be allocating\\)' : '';
    assert.match(breakdownText(b), new RegExp(`, 3\\.94 MiB free or the allocator's own${why}, 1\\.00 MiB never handed to the allocator$`));
    if (heap && heap.error) assert.equal(b.notWalked, heap.error);
  }
});

test('no breakdown for a peak view or a file without the numbers', () => {
  const peak = snapshotWith(null);
  peak.view = 'peak';
  assert.equal(memoryBreakdown(peak), null);
  const old = snapshotWith(null);
  old.summary.heapBase = 0;
  assert.equal(memoryBreakdown(old), null);
  assert.equal(breakdownText(null), '');
});
