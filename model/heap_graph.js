// heap_graph.js -- what keeps each live block alive: a conservative scan of
// the wasm memory, as LeakSanitizer does it, and the graph it finds.
//
// Input: the live blocks (every one: exact modes), the memory, and the
// roots (runtime/roots.c: static data, C stacks, thread-locals, regions
// the app registered, pointer values JS registered). Every aligned pointer
// (4 bytes, 8 in a wasm64 program: the memory's pointerBytes) of a root or of a reachable block whose value falls inside a live
// block (its first byte up to its last: interior pointers count, as in
// LSan) is an edge to that block. Then, as LSan and Memcheck do:
//   reachable        -- reached from a root;
//   directly leaked  -- not reachable, and no other unreachable block
//                       points to it (the lost pointer was the last one);
//   indirectly leaked-- not reachable, pointed to by another leaked block
//                       (freeing the direct leaks would free it too).
// Every block is scanned, leaked ones included, so the graph has the edges
// among leaked blocks too.
//
// The graph's nodes: 0 the synthetic root, 1..R the root groups, R+1 a
// "(leaked)" group, then the blocks in address order. The root points to
// every group; "(leaked)" points to each direct leak, and, for leaked
// cycles no direct leak reaches, to the lowest block of each, so that every
// node has a dominator and the retained sizes here are those Chrome DevTools
// computes from the same graph (formats/heapsnapshot.js).
'use strict';

var dominators = require('./dominators');
var heapMemory = require('./heap_memory');
var runSteps = require('./steps').runSteps;

// Words scanned (or loop turns) between two yields of buildHeapGraphSteps:
// ~5-10 ms of a page's main thread.
var STEP_WORK = 500000;

var REACHABLE = 0;
var DIRECT = 1;
var INDIRECT = 2;

// Growable Int32Array.
function IntList(capacity) {
  this.a = new Int32Array(capacity || 1024);
  this.length = 0;
}
IntList.prototype.push = function (v) {
  if (this.length === this.a.length) {
    var b = new Int32Array(this.a.length * 2);
    b.set(this.a);
    this.a = b;
  }
  this.a[this.length++] = v;
};

// blocks: {addr, size, site, serial} typed arrays of one length, any
// order (addr a Float64Array where addresses pass 4 GiB). -> the same, in
// address order (new arrays of the same kinds), as steps
// (model/heap_memory.js orderByAddressSteps).
function* byAddressSteps(blocks) {
  var n = blocks.addr.length;
  var order = yield* heapMemory.orderByAddressSteps(blocks.addr);
  var out = {};
  var fields = ['addr', 'size', 'site', 'serial'];
  for (var f = 0; f < fields.length; f++) {
    var from = blocks[fields[f]];
    var to = new from.constructor(n);
    for (var m = 0; m < n; m++) to[m] = from[order[m]];
    out[fields[f]] = to;
    yield;
  }
  return out;
}

// The block (index in address order) whose bytes contain address v, or -1.
function blockAt(addr, size, v) {
  var lo = 0;
  var hi = addr.length - 1;
  if (hi < 0 || v < addr[0]) return -1;
  while (lo < hi) {
    var mid = (lo + hi + 1) >>> 1;
    if (addr[mid] <= v) lo = mid;
    else hi = mid - 1;
  }
  return v < addr[lo] + size[lo] ? lo : -1;
}

// memory: what the scan reads (model/heap_memory.js: a copy of the roots
// and blocks, or wholeMemory(words) over the memory itself). blocks: see byAddressSteps. roots:
// [{name, ranges: [[lo, hi]...], values: [pointer...], ignoreTail}]: a
// root with ignoreTail N takes no word that points into the last N bytes of
// a block (dlmalloc's own globals point at chunk headers, which lie in the
// last pointer's bytes of the block before: the allocator's state, which LSan
// leaves out of its scan, would keep the last block before a free chunk
// alive). skip: [[lo, hi]...] ranges never scanned (emheap's own state).
// -> the graph (see the top). As steps: a page runs between them, on a copy
// of the memory (the program goes on meanwhile).
function* buildHeapGraphSteps(memory, blocks, roots, skip) {
  if (memory instanceof Uint32Array) memory = heapMemory.wholeMemory(memory);
  var words = memory.words;
  var unit = memory.pointerBytes || 4; // the bytes of a pointer the scan reads
  var work = 0;
  var b = yield* byAddressSteps(blocks);
  yield;
  var count = b.addr.length;
  var groups = roots.length;
  var LEAKED = groups + 1;
  var first = groups + 2; // node of the block at address index 0
  var n = first + count;
  var start = new Int32Array(n);
  var edgeCount = new Int32Array(n);
  var targets = new IntList(Math.max(1024, count * 2));
  var lastSource = new Int32Array(count).fill(-1);
  var reached = new Uint8Array(count);
  var queue = new Int32Array(count);
  var qHead = 0;
  var qTail = 0;
  var minAddr = count ? b.addr[0] : 0;
  var maxEnd = count ? b.addr[count - 1] + b.size[count - 1] : 0;
  var skipList = (skip || []).slice().sort(function (x, y) { return x[0] - y[0]; });

  var ignoreTail = 0; // see roots' ignoreTail
  // 'roots' while reached blocks are queued for scanning, then 'leaked'
  var scanning = 'roots';
  function edge(source, v) {
    if (v < minAddr || v >= maxEnd) return;
    var k = blockAt(b.addr, b.size, v);
    if (k < 0 || lastSource[k] === source || first + k === source) return;
    // (never the block's start: a block of 4 bytes or less is all tail)
    if (ignoreTail && v > b.addr[k] && v >= b.addr[k] + b.size[k] - ignoreTail) return;
    lastSource[k] = source;
    targets.push(first + k);
    if (!reached[k] && scanning === 'roots') {
      reached[k] = 1;
      queue[qTail++] = k;
    }
  }
  // Scans [lo, hi) pointer by pointer, less the skipped ranges.
  function scanRange(source, lo, hi) {
    lo = Math.max(0, Math.ceil(lo / unit) * unit);
    for (var s = 0; s < skipList.length && lo < hi; s++) {
      var sk = skipList[s];
      if (sk[1] <= lo || sk[0] >= hi) continue;
      if (sk[0] > lo) scanWords(source, lo, sk[0]);
      lo = Math.max(lo, sk[1]);
    }
    if (lo < hi) scanWords(source, lo, hi);
  }
  // [lo, hi) as the copy has it: a range is copied whole (the copy was
  // made of these ranges), so one not copied is not read at all. A wasm64
  // pointer is two words, low first.
  function scanWords(source, lo, hi) {
    while (lo < hi) {
      var s = heapMemory.segmentAt(memory, lo);
      if (s < 0) return;
      var end = Math.min(hi, memory.ends[s]);
      var first = (memory.offsets[s] + lo - memory.starts[s]) / 4;
      var count = Math.floor((end - lo) / unit);
      if (unit === 8) {
        for (var p = first, stop = first + 2 * count; p < stop; p += 2) edge(source, words[p] + words[p + 1] * 4294967296);
      } else { // (a wasm32 copy is below 4 GiB: small integers, the loop's fast kind)
        for (var w = first | 0, last = (first + count) | 0; w < last; w++) edge(source, words[w]);
      }
      work += count;
      lo = end;
    }
  }
  function scanBlock(k) {
    var node = first + k;
    start[node] = targets.length;
    scanRange(node, b.addr[k], b.addr[k] + b.size[k]);
    edgeCount[node] = targets.length - start[node];
  }

  start[0] = targets.length;
  for (var g = 1; g <= groups + 1; g++) targets.push(g);
  edgeCount[0] = groups + 1;
  for (var r = 0; r < groups; r++) {
    var node = r + 1;
    start[node] = targets.length;
    ignoreTail = roots[r].ignoreTail || 0;
    for (var ri = 0; ri < roots[r].ranges.length; ri++) {
      var range = roots[r].ranges[ri];
      // a root that lies in a live block keeps that block (a registered
      // malloc'd region; a thread stack Emscripten took from malloc)
      if (range[1] > range[0]) edge(node, range[0]);
      scanRange(node, range[0], range[1]);
      if (work >= STEP_WORK) { work = 0; yield; }
    }
    // (a JS root may come as a signed 32-bit number)
    (roots[r].values || []).forEach(function (v) { edge(node, v < 0 ? v >>> 0 : Number(v)); });
    ignoreTail = 0;
    edgeCount[node] = targets.length - start[node];
  }
  while (qHead < qTail) {
    scanBlock(queue[qHead++]);
    if (++work >= STEP_WORK) { work = 0; yield; }
  }
  // the rest: leaked blocks, scanned for the edges among them
  scanning = 'leaked';
  var pointedByLeaked = new Uint8Array(count);
  for (var k = 0; k < count; k++) {
    if (++work >= STEP_WORK) { work = 0; yield; }
    if (reached[k]) continue;
    scanBlock(k);
  }
  for (var k2 = 0; k2 < count; k2++) {
    if (++work >= STEP_WORK) { work = 0; yield; }
    if (reached[k2]) continue;
    var nodeK = first + k2;
    for (var e = start[nodeK]; e < start[nodeK] + edgeCount[nodeK]; e++) pointedByLeaked[targets.a[e] - first] = 1;
  }
  var state = new Uint8Array(count);
  var direct = 0;
  var indirect = 0;
  for (var k3 = 0; k3 < count; k3++) {
    if (reached[k3]) continue;
    if (pointedByLeaked[k3]) {
      state[k3] = INDIRECT;
      indirect++;
    } else {
      state[k3] = DIRECT;
      direct++;
    }
  }

  // "(leaked)": each direct leak, then the lowest block of each leaked
  // cycle still unreached (a cycle has no direct leak: all of it indirect).
  start[LEAKED] = targets.length;
  for (var k4 = 0; k4 < count; k4++) if (state[k4] === DIRECT) targets.push(first + k4);
  edgeCount[LEAKED] = targets.length - start[LEAKED];
  var seen = new Uint8Array(n);
  var stack = new Int32Array(n);
  function* mark(from) {
    var sp = 0;
    stack[sp++] = from;
    seen[from] = 1;
    while (sp > 0) {
      if (++work >= STEP_WORK) { work = 0; yield; }
      var v = stack[--sp];
      for (var x = start[v]; x < start[v] + edgeCount[v]; x++) {
        var w = targets.a[x];
        if (!seen[w]) {
          seen[w] = 1;
          stack[sp++] = w;
        }
      }
    }
  }
  yield* mark(0);
  var cycleStarts = [];
  for (var k5 = 0; k5 < count; k5++) {
    if (seen[first + k5]) continue;
    cycleStarts.push(first + k5);
    yield* mark(first + k5);
  }
  if (cycleStarts.length) {
    // "(leaked)"'s edges move to the end, with the cycles' starts after them
    var from = start[LEAKED];
    var own = edgeCount[LEAKED];
    start[LEAKED] = targets.length;
    for (var c = 0; c < own; c++) targets.push(targets.a[from + c]);
    cycleStarts.forEach(function (v) { targets.push(v); });
    edgeCount[LEAKED] = own + cycleStarts.length;
  }

  var selfSize = new Float64Array(n);
  for (var k6 = 0; k6 < count; k6++) selfSize[first + k6] = b.size[k6];
  yield;
  var dom = yield* dominators.immediateDominatorsSteps(n, 0, start, edgeCount, targets.a);
  yield;
  var retained = dominators.retainedSizes(n, selfSize, dom.idom, dom.order);

  return {
    blocks: b, // in address order
    firstBlockNode: first,
    groupNames: roots.map(function (x) { return x.name; }).concat(['(leaked)']),
    nodeCount: n,
    edgeStart: start,
    edgeCount: edgeCount,
    targets: targets.a.subarray(0, targets.length),
    state: state,
    leaked: {direct: direct, indirect: indirect},
    idom: dom.idom,
    retained: retained,
  };
}

// All at once (node, tests).
function buildHeapGraph(memory, blocks, roots, skip) {
  return runSteps(buildHeapGraphSteps(memory, blocks, roots, skip));
}

module.exports = {buildHeapGraph: buildHeapGraph, buildHeapGraphSteps: buildHeapGraphSteps, REACHABLE: REACHABLE, DIRECT: DIRECT,
  INDIRECT: INDIRECT};
