// allocator_heap.test.js -- emheap's reading of the allocator's heap
// (capture/allocator_walk.js) on a heap of many free chunks between blocks
// in use (tests/runtime/free_bins.c: small ones, a large size repeated,
// many large sizes) and on heaps churned as real programs churn them
// (tests/runtime/heap_churn.c: random mallocs, callocs, reallocs and
// frees, several seeds), against what the allocator's own mallinfo() says
// at the same moment: dlmalloc's read through its free bins, emmalloc's
// region by region. mallinfo() walks every chunk itself, in C.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {validateSnapshot} = require('../lib/schemas');
const {BUILD} = require('../lib/paths');
const {assertAgrees} = require('../lib/mallinfo');

for (const variant of ['dlmalloc', 'emmalloc']) {
  test(`${variant}: a heap of many free chunks reads as its mallinfo() says`, () => {
    const run = runWasmProgram(path.join(BUILD, `free_bins.${variant}.js`), {});
    assert.equal(run.status, 0, run.stderr.slice(-2000));
    const {SNAPSHOT: snapshot, MALLINFO: info} = run.tagged;
    assert.ok(snapshot && info, 'the program printed its snapshot and mallinfo()');
    assert.deepEqual(validateSnapshot(snapshot), []);
    const heap = snapshot.allocatorHeap;
    assert.ok(heap && heap.error === undefined, JSON.stringify(heap));
    // 3,000 blocks of which 2,400 freed between kept ones (4 in 5), each a
    // free chunk of its own; the program's last malloc(200) then takes one
    // whole in dlmalloc, whose small bins serve an exact size first (a
    // freed block of 200 bytes: sizes 8 + (i % 31) * 8), and splits one in
    // emmalloc
    assert.equal(heap.freeBlocks, variant === 'dlmalloc' ? 2399 : 2400);
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

// (dlmalloc leaves a small bin's header pointing at the chunk malloc took
// last from it, in use now, and says so only in its smallmap: a reading
// that followed the header read the program's bytes as links)
for (const variant of ['dlmalloc', 'emmalloc', 'threads']) {
  test(`${variant}: a churned heap reads as its mallinfo() says, and the snapshot leaves it as it was (seeds 1-3)`, () => {
    for (const seed of [1, 2, 3]) {
      const run = runWasmProgram(path.join(BUILD, `heap_churn.${variant}.js`), {args: [String(seed)]});
      assert.equal(run.status, 0, run.stderr.slice(-2000));
      const {MALLINFO: info, HEAP: read, MALLINFO_AFTER: after} = run.tagged;
      assert.ok(info && read && after, `seed ${seed}: the program printed mallinfo(), the heap, mallinfo() again`);
      assert.deepEqual(after, info, `seed ${seed}: the snapshot changed the allocator's heap`);
      const heap = read.heap;
      assert.ok(heap && heap.error === undefined, `seed ${seed}: ${JSON.stringify(heap)}`);
      // 20,000 slots churned: thousands of free chunks between the live blocks
      assert.ok(heap.freeBlocks >= 1000, `seed ${seed}: ${heap.freeBlocks} free blocks`);
      assertAgrees(variant === 'threads' ? 'dlmalloc' : variant, heap, info);
      assert.ok(heap.inUseBytes >= read.summary.liveBytes + read.summary.tableBytes, `seed ${seed}`);
    }
  });
}
