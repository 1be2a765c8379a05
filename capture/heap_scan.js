// heap_scan.js -- the heap graph of the running program: the live blocks
// and the roots read out of linear memory (capture/layout.js), scanned by
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
var blockCopy = require('./block_copy');
var lock = require('./lock');
var buildHeapGraphSteps = require('../model/heap_graph').buildHeapGraphSteps;
var heapMemory = require('../model/heap_memory');
var toHeapSectionSteps = require('../model/heap_section').toHeapSectionSteps;
var findDlmallocState = require('./allocator_walk').findDlmallocState;

// dlmalloc's malloc_state (its `_gm_`, in the static data) must not be
// scanned: its bins keep stale pointers. When a small bin empties, dlmalloc
// clears the bin's bit and leaves its fd/bk pointing at the chunk it handed
// out, which may now lie inside a live block (a C++ test program's leaked
// list read as reachable through one). Found by its shape:
// allocator_walk.js findDlmallocState.
// A thread's own data besides its stack: its struct pthread (Emscripten
// keeps the thread's mailbox there, whose queue is malloc'd) and, where the
// struct, the thread-locals and the pthread_setspecific slots make one
// block below the stack (Emscripten's pthread_create since 3.1.2x, one
// block of the builtin allocator that emheap never sees), everything from
// the struct up to the stack. That layout is read, not assumed: the stack
// must begin within the struct, the thread-locals and 4 KiB of slots and
// alignment, and no recorded block may lie in between; otherwise (3.1.x
// mallocs each part on its own) the struct alone. The main thread's struct
// is a global, scanned with the static data.
var SLOTS_AND_ALIGNMENT = 4096;

function threadDataRanges(candidates, blocks) {
  // candidates: [{pthread, structSize, stackLo, limit}]; a block inside a
  // candidate's span shortens it to the struct
  var spans = candidates.filter(function (c) { return c.stackLo > c.pthread + c.structSize && c.stackLo - c.pthread <= c.limit; });
  spans.sort(function (a, b) { return a.pthread - b.pthread; });
  var n = blocks.addr.length;
  for (var k = 0; k < n && spans.length; k++) {
    var a = blocks.addr[k];
    var lo = 0;
    var hi = spans.length - 1;
    while (lo <= hi) { // the last span starting at or below a
      var mid = (lo + hi) >>> 1;
      if (spans[mid].pthread <= a) lo = mid + 1; else hi = mid - 1;
    }
    if (hi >= 0 && a < spans[hi].stackLo) spans[hi].holdsBlock = true;
    if (hi + 1 < spans.length && a + blocks.size[k] > spans[hi + 1].pthread) spans[hi + 1].holdsBlock = true;
  }
  candidates.forEach(function (c) {
    var whole = spans.indexOf(c) >= 0 && !c.holdsBlock;
    c.ranges = [[c.pthread, whole ? c.stackLo : c.pthread + c.structSize]];
    if (c.tls && c.tls[1] > c.tls[0] && c.tls[0] >= c.pthread && c.tls[1] <= c.ranges[0][1]) {
      // the thread-locals are in the thread's group already: the rest around them
      c.ranges = [[c.pthread, c.tls[0]], [c.tls[1], c.ranges[0][1]]].filter(function (x) { return x[1] > x[0]; });
    }
  });
}

// The blocks a scan reads when the program has pools (runtime/pools.c):
// each pool's chunks give way to the objects in them, which become the
// graph's nodes, as malloc's blocks are; an object inside a heap block that
// is no chunk (one sampled mode did not take as one) is left to its block.
// blocks: copyBlocks' with objects (objectsFrom: where they start).
function objectsForChunks(blocks, chunkSites) {
  var n = blocks.addr.length, from = blocks.objectsFrom;
  if (from === n && !chunkSites.length) return blocks;
  var chunk = new Set(chunkSites);
  var heap = [];
  for (var i = 0; i < from; i++) if (!chunk.has(blocks.site[i])) heap.push(i);
  heap.sort(function (x, y) { return blocks.addr[x] - blocks.addr[y]; });
  var inBlock = function (a) { // the last heap block at or below a holds it?
    var lo = 0, hi = heap.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (blocks.addr[heap[mid]] <= a) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && a - blocks.addr[heap[lo - 1]] < blocks.size[heap[lo - 1]];
  };
  var keep = heap.slice();
  for (var j = from; j < n; j++) if (!inBlock(blocks.addr[j])) keep.push(j);
  var out = {addr: new blocks.addr.constructor(keep.length), size: new Uint32Array(keep.length), site: new Uint32Array(keep.length),
    serial: new Uint32Array(keep.length), objectsFrom: heap.length};
  keep.forEach(function (k, at) {
    out.addr[at] = blocks.addr[k];
    out.size[at] = blocks.size[k];
    out.site[at] = blocks.site[k];
    out.serial[at] = blocks.serial[k];
  });
  return out;
}

// What a scan reads: the live blocks, the root groups and the ranges left
// out. buffer: the wasm memory's buffer; statePtr: emheap_state; rootsPtr: what
// emheap_roots_now() returned; jsRoots: pointer values JS registered
// (emheap.addRoot); pthreads: the running threads Emscripten knows and the
// size of its struct pthread (library_emheap.js pthreads), for the threads'
// own data and for threads roots.c has not registered.
function scanInputs(buffer, statePtr, rootsPtr, jsRoots, pthreads, area, readOnly, moduleData) {
  var view = new DataView(buffer);
  var pointerBytes = layout.pointerBytes(view, statePtr);
  // blocks and roots read under one lock: a thread that exits meanwhile
  // moves the last entry of the thread table into its slot
  var read = lock.withLock(buffer, statePtr, function () {
    return {blocks: blockCopy.copyBlocks(view, statePtr, area && area.blocks, false, 0, true),
      chunkSites: layout.readPools(view, statePtr).pools.map(function (p) { return p.chunkSite; }).filter(Boolean),
      roots: layout.readRoots(view, rootsPtr)};
  });
  var heapBlocks = read.blocks.objectsFrom;
  read.blocks = objectsForChunks(read.blocks, read.chunkSites);
  var r = read.roots;
  var here = {name: '(C stack: this thread)', ranges: [[r.sp, r.stack[1]]]};
  // dlmalloc's state is in the static data, its chunk pointers in the
  // last pointer of the block before each chunk (model/heap_graph.js)
  var allocator = layout.readMode(view, statePtr).allocator;
  var groups = [{name: '(C globals)', ranges: [r.data], ignoreTail: allocator === 'dlmalloc' ? pointerBytes : 0}, here];
  var skip = [r.state, r.own];
  var counters = layout.readCounters(view, statePtr);
  if (allocator === 'dlmalloc') {
    var gm = findDlmallocState(view, r.data, counters.heapBase, counters.breakNow, pointerBytes);
    if (gm) skip.push(gm);
  }
  if (r.self) skip.push([r.self, r.self + r.selfSize]);
  // read-only data holds constants, not roots (LeakSanitizer scans
  // writable data only): a constant that equals a block's address would
  // keep a leaked block "still reachable"
  var readOnlyData = readOnly && readOnly.ranges ? {skippedBytes: 0} : {unknown: readOnly && readOnly.unknown || 'not read'};
  if (readOnly && readOnly.ranges) {
    readOnly.ranges.forEach(function (x) {
      var lo = Math.max(x[0], r.data[0]), hi = Math.min(x[1], r.data[1]);
      if (lo >= hi) return;
      skip.push([lo, hi]);
      readOnlyData.skippedBytes += hi - lo;
    });
  }
  var structSize = pthreads ? pthreads.structSize : 0;
  var running = pthreads ? pthreads.threads : [];
  var tlsSize = 0;
  r.threads.forEach(function (t) { tlsSize = Math.max(tlsSize, t.tls[1] - t.tls[0]); });
  var limit = structSize + tlsSize + SLOTS_AND_ALIGNMENT;
  var candidates = [];
  var seen = {};
  // the thread data of `pthread` (its stack [lo, hi), thread-locals `tls`)
  // goes to `group`; once per thread, none for a struct in the static data
  var addData = function (group, pthread, stack, tls) {
    if (!structSize || !pthread || seen[pthread] || (pthread >= r.data[0] && pthread < r.data[1])) return;
    seen[pthread] = true;
    candidates.push({group: group, pthread: pthread, structSize: structSize, stackLo: stack ? stack[0] : 0, tls: tls, limit: limit});
  };
  var known = [r.stack];
  r.threads.forEach(function (t, i) {
    skip.push([t.self, t.self + r.selfSize]);
    known.push(t.stack);
    if (t.self === r.self) {
      here.ranges.push(t.tls); // the calling thread: its stack from its pointer, above
      addData(here, t.pthread, t.stack, t.tls);
    } else {
      var group = {name: '(C stack: thread ' + (i + 1) + ')', ranges: [t.stack, t.tls]};
      groups.push(group);
      addData(group, t.pthread, t.stack, t.tls);
    }
  });
  addData(here, r.pthread, r.stack, null); // the calling thread, if it recorded nothing
  // threads that never recorded a block: their stacks (thread-locals
  // unknown) and their data
  var unregistered = 0;
  running.forEach(function (t) {
    var s = t.stack;
    var same = s && known.some(function (k) { return k[0] < s[1] && s[0] < k[1]; }); // overlap: the same stack
    if (same) return;
    var group = {name: '(C stack: thread ' + (r.threads.length + ++unregistered) + ', no block recorded)', ranges: s ? [s] : []};
    groups.push(group);
    addData(group, t.pthread, s, null);
  });
  threadDataRanges(candidates, read.blocks);
  candidates.forEach(function (c) { c.ranges.forEach(function (x) { c.group.ranges.push(x); }); });
  if (r.regions.length) groups.push({name: '(registered roots)', ranges: r.regions});
  if (jsRoots && jsRoots.length) groups.push({name: '(JS roots)', ranges: [], values: jsRoots});
  if (moduleData && moduleData.length) groups.push({name: '(side modules\' globals)', ranges: moduleData});
  // live blocks the runtime could not record, or (thinned) recorded only
  // by sampling (model/heap_section.js scanCaveat)
  var lost = Math.max(0, counters.liveBlocks - heapBlocks);
  return {blocks: read.blocks, groups: groups, skip: skip, pointerBytes: pointerBytes,
    notScanned: {threads: r.threadsDropped, regions: r.regionsDropped, blocks: Number(lost)},
    readOnlyData: readOnlyData};
}

// The same, scanned, as steps: the blocks, the roots and the memory they
// cover are read now (a copy of about the live heap's size: the program
// goes on while a page runs the steps); the generator returned makes the
// graph and returns snapshot.heap, with runtime site ids. The section keeps
// what the scan read (`scan`: root groups, skipped ranges, the memory copy;
// not enumerable, so no file carries it) for a heap dump
// (formats/heap_dump.js). `area` (optional): capture/layout.js copyArea with
// `heap`, memory for the copies made and touched beforehand. readOnly: the
// module's read-only data, {ranges} or {unknown: why}
// (symbolize/read_only_data.js). moduleData: the static data of a
// -sMAIN_MODULE program's side modules, [lo, hi) ranges
// (contexts/side_modules.js).
function scanHeapSteps(buffer, statePtr, rootsPtr, jsRoots, pthreads, area, readOnly, moduleData) {
  var inputs = scanInputs(buffer, statePtr, rootsPtr, jsRoots, pthreads, area, readOnly, moduleData);
  var roots = [];
  inputs.groups.forEach(function (g) { g.ranges.forEach(function (r) { roots.push(r); }); });
  var memory = heapMemory.copyForScan(buffer, inputs.blocks, roots, area && area.memory, inputs.pointerBytes);
  return (function* () {
    var graph = yield* buildHeapGraphSteps(memory, inputs.blocks, inputs.groups, inputs.skip);
    var section = yield* toHeapSectionSteps(graph);
    section.notScanned = inputs.notScanned;
    section.readOnlyData = inputs.readOnlyData;
    Object.defineProperty(section, 'scan', {value: {groups: inputs.groups, skip: inputs.skip, memory: memory},
      enumerable: false, configurable: true});
    return section;
  })();
}

module.exports = {scanHeapSteps: scanHeapSteps, threadDataRanges: threadDataRanges};
