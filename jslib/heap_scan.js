// heap_scan.js -- the heap graph of the running program: the live blocks
// and the roots read out of linear memory (jslib/layout.js), scanned by
// model/heap_graph.js, as snapshot.heap (model/heap_section.js).
//
// The scan reads the memory as it is now, in one synchronous call: in a
// program without threads nothing changes while it runs. With threads,
// other threads go on writing (LSan stops them; a page cannot): a pointer
// moved during the scan may be missed or seen twice, which the README says.
'use strict';

var layout = require('./layout');
var buildHeapGraph = require('../model/heap_graph').buildHeapGraph;
var toHeapSection = require('../model/heap_section').toHeapSection;

// buffer: the wasm memory's buffer; statePtr: emheap_state; rootsPtr: what
// emheap_roots_now() returned (0: only the static data is known, from the
// caller's `data` fallback); jsRoots: pointer values JS registered
// (emheap.addRoot). -> snapshot.heap, with runtime site ids.
function scanHeap(buffer, statePtr, rootsPtr, jsRoots) {
  var view = new DataView(buffer);
  var blocks = layout.withLock(buffer, statePtr, function () { return layout.copyBlocks(view, statePtr); });
  var r = layout.readRoots(view, rootsPtr);
  var here = {name: '(C stack: this thread)', ranges: [[r.sp, r.stack[1]]]};
  // dlmalloc's state is in the static data, its chunk pointers in the
  // last 4 bytes of the block before each chunk (model/heap_graph.js)
  var allocator = layout.readMode(view, statePtr).allocator;
  var groups = [{name: '(C globals)', ranges: [r.data], ignoreTail: allocator === 'dlmalloc' ? 4 : 0}, here];
  var skip = [r.state, r.own];
  if (r.self) skip.push([r.self, r.self + r.selfSize]);
  r.threads.forEach(function (t, i) {
    skip.push([t.self, t.self + r.selfSize]);
    if (t.self === r.self) {
      here.ranges.push(t.tls); // the calling thread: its stack from its pointer, above
    } else {
      groups.push({name: '(C stack: thread ' + (i + 1) + ')', ranges: [t.stack, t.tls]});
    }
  });
  if (r.regions.length) groups.push({name: '(registered roots)', ranges: r.regions});
  if (jsRoots && jsRoots.length) groups.push({name: '(JS roots)', ranges: [], values: jsRoots});
  var section = toHeapSection(buildHeapGraph(new Uint32Array(buffer), blocks, groups, skip));
  section.notScanned = {threads: r.threadsDropped, regions: r.regionsDropped};
  return section;
}

module.exports = {scanHeap: scanHeap};
