// allocator_heap.test.js -- emheap's reading of the allocator's heap
// (jslib/allocator_walk.js) on a heap of many free chunks between blocks
// in use (tests/runtime/free_bins.c: small ones, a large size repeated,
// many large sizes), against what the allocator's own mallinfo() says at
// the same moment: dlmalloc's read through its free bins, emmalloc's
// region by region. mallinfo() walks every chunk itself, in C.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {validateSnapshot} = require('../lib/schemas');
const {BUILD} = require('../lib/paths');

for (const variant of ['dlmalloc', 'emmalloc']) {
  test(`${variant}: a heap of many free chunks reads as its mallinfo() says`, () => {
    const run = runWasmProgram(path.join(BUILD, `free_bins.${variant}.js`), {});
    assert.equal(run.status, 0, run.stderr.slice(-2000));
    const {SNAPSHOT: snapshot, MALLINFO: info} = run.tagged;
    assert.ok(snapshot && info, 'the program printed its snapshot and mallinfo()');
    assert.deepEqual(validateSnapshot(snapshot), []);
    const heap = snapshot.allocatorHeap;
    assert.ok(heap && heap.error === undefined, JSON.stringify(heap));
    // 3,000 blocks of which 2,400 freed between kept ones: at least that many free chunks
    assert.ok(heap.freeBlocks >= 2000, `${heap.freeBlocks} free blocks`);
    const top = heap.topFreeBytes;
    assert.equal(info.keepcost, top, 'the free span at the top');
    if (variant === 'dlmalloc') {
      // mallinfo counts top (with its 40-byte foot) among the free chunks
      assert.equal(info.fordblks, heap.freeBytes + top + 40);
      assert.equal(info.ordblks, heap.freeBlocks + 1);
      // uordblks: the segment less all that is free; the segment's first
      // chunk may start up to 7 bytes into it (alignment), which is neither
      const gap = info.uordblks - heap.inUseBytes;
      assert.ok(gap >= 0 && gap < 8, `uordblks ${info.uordblks}, in use ${heap.inUseBytes}`);
      assert.equal(heap.inUseBlocks, undefined, 'the bins do not count the blocks in use');
    } else {
      // fordblks: the free regions' payloads, 8 bytes of header each. Its
      // counts (ordblks + smblks, from its buckets' lists) read 34 here for
      // 2,401 free regions: not compared.
      const spans = heap.freeBlocks + (top > 0 ? 1 : 0);
      assert.equal(info.fordblks, heap.freeBytes + top - 8 * spans);
      assert.ok(heap.inUseBlocks >= snapshot.summary.liveBlocks);
    }
    assert.ok(heap.inUseBytes >= snapshot.summary.liveBytes + snapshot.summary.tableBytes);
    assert.ok(heap.largestFreeBytes >= top && heap.largestFreeBytes <= heap.freeBytes + top);
  });
}
