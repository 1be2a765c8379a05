// heap_scan.js -- the heap graph of the running program: the live blocks
// and the roots read out of linear memory (jslib/layout.js), scanned by
// model/heap_graph.js, as snapshot.heap (model/heap_section.js).
//
// The scan reads a copy of the memory made in one synchronous step (its
// roots and live blocks): in a program without threads nothing changes
// while it is made, and the graph is then built from the copy in slices.
// With threads, other threads go on writing during the copy (LSan stops
// them; a page cannot): a pointer moved meanwhile may be missed or seen
// twice, which docs/compatibility.md says (known limits).
'use strict';

var layout = require('./layout');
var buildHeapGraphSteps = require('../model/heap_graph').buildHeapGraphSteps;
var heapMemory = require('../model/heap_memory');
var toHeapSectionSteps = require('../model/heap_section').toHeapSectionSteps;

// dlmalloc's malloc_state (its `_gm_`, in the static data), or null: the
// scan must not read it. Its bins keep stale pointers: when a small bin
// empties, dlmalloc clears the bin's bit and leaves its fd/bk pointing at
// the chunk it handed out, which may now lie inside a live block (a C++
// test program's leaked list read as reachable through one). Found by its
// shape (system/lib/dlmalloc.c struct malloc_state): least_addr (word 4)
// is the first address dlmalloc took from sbrk, top (word 6) lies between
// it and the break, and seg.base (word 112, or 113 with a lock) repeats
// least_addr; the struct ends 6 words after seg.base.
function dlmallocState(view, data, heapBase, breakNow) {
  var at = function (w) { return view.getUint32(w * 4, true); };
  for (var w = (data[0] >>> 2) + 4; w < (data[1] >>> 2) - 114; w++) {
    var least = at(w);
    if (least < heapBase || least >= heapBase + 4096) continue;
    var top = at(w + 2);
    if (top < least || top >= breakNow) continue;
    var s = w - 4;
    for (var base = s + 112; base <= s + 113; base++) {
      if (at(base) === least) return [s * 4, (base + 6) * 4];
    }
  }
  return null;
}

// What a scan reads: the live blocks, the root groups and the ranges left
// out. buffer: the wasm memory's buffer; statePtr: emheap_state; rootsPtr: what
// emheap_roots_now() returned; jsRoots: pointer values JS registered
// (emheap.addRoot); threadStacks: [[lo, hi]...] the stacks of the running
// threads Emscripten knows (library_emheap.js pthreadStacks), for threads
// roots.c has not registered.
function scanInputs(buffer, statePtr, rootsPtr, jsRoots, threadStacks, area) {
  var view = new DataView(buffer);
  // blocks and roots read under one lock: a thread that exits meanwhile
  // moves the last entry of the thread table into its slot
  var read = layout.withLock(buffer, statePtr, function () {
    return {blocks: layout.copyBlocks(view, statePtr, area && area.blocks), roots: layout.readRoots(view, rootsPtr)};
  });
  var r = read.roots;
  var here = {name: '(C stack: this thread)', ranges: [[r.sp, r.stack[1]]]};
  // dlmalloc's state is in the static data, its chunk pointers in the
  // last 4 bytes of the block before each chunk (model/heap_graph.js)
  var allocator = layout.readMode(view, statePtr).allocator;
  var groups = [{name: '(C globals)', ranges: [r.data], ignoreTail: allocator === 'dlmalloc' ? 4 : 0}, here];
  var skip = [r.state, r.own];
  var counters = layout.readCounters(view, statePtr);
  if (allocator === 'dlmalloc') {
    var gm = dlmallocState(view, r.data, counters.heapBase, counters.breakNow);
    if (gm) skip.push(gm);
  }
  if (r.self) skip.push([r.self, r.self + r.selfSize]);
  var known = [r.stack];
  r.threads.forEach(function (t, i) {
    skip.push([t.self, t.self + r.selfSize]);
    known.push(t.stack);
    if (t.self === r.self) {
      here.ranges.push(t.tls); // the calling thread: its stack from its pointer, above
    } else {
      groups.push({name: '(C stack: thread ' + (i + 1) + ')', ranges: [t.stack, t.tls]});
    }
  });
  // threads that never recorded a block: their stacks (thread-locals unknown)
  var unregistered = (threadStacks || []).filter(function (s) {
    return !known.some(function (k) { return k[0] < s[1] && s[0] < k[1]; }); // overlap: the same stack
  });
  unregistered.forEach(function (s, i) {
    groups.push({name: '(C stack: thread ' + (r.threads.length + i + 1) + ', no block recorded)', ranges: [s]});
  });
  if (r.regions.length) groups.push({name: '(registered roots)', ranges: r.regions});
  if (jsRoots && jsRoots.length) groups.push({name: '(JS roots)', ranges: [], values: jsRoots});
  // live blocks the runtime could not record, or (thinned) recorded only
  // by sampling (model/heap_section.js scanCaveat)
  var lost = Math.max(0, counters.liveBlocks - read.blocks.addr.length);
  return {blocks: read.blocks, groups: groups, skip: skip,
    notScanned: {threads: r.threadsDropped, regions: r.regionsDropped, blocks: Number(lost)}};
}

// The same, scanned, as steps: the blocks, the roots and the memory they
// cover are read now (a copy of about the live heap's size: the program
// goes on while a page runs the steps); the generator returned makes the
// graph and returns snapshot.heap, with runtime site ids. The section keeps
// what the scan read (`scan`: root groups, skipped ranges, the memory copy;
// not enumerable, so no file carries it) for a heap dump
// (formats/heap_dump.js). `area` (optional): jslib/layout.js copyArea with
// `heap`, memory for the copies made and touched beforehand.
function scanHeapSteps(buffer, statePtr, rootsPtr, jsRoots, threadStacks, area) {
  var inputs = scanInputs(buffer, statePtr, rootsPtr, jsRoots, threadStacks, area);
  var roots = [];
  inputs.groups.forEach(function (g) { g.ranges.forEach(function (r) { roots.push(r); }); });
  var memory = heapMemory.copyForScan(buffer, inputs.blocks, roots, area && area.memory);
  return (function* () {
    var graph = yield* buildHeapGraphSteps(memory, inputs.blocks, inputs.groups, inputs.skip);
    var section = yield* toHeapSectionSteps(graph);
    section.notScanned = inputs.notScanned;
    Object.defineProperty(section, 'scan', {value: {groups: inputs.groups, skip: inputs.skip, memory: memory},
      enumerable: false, configurable: true});
    return section;
  })();
}

module.exports = {scanHeapSteps: scanHeapSteps};
