// heap_memory.js -- the parts of the wasm memory a heap scan reads (roots
// and live blocks), copied at one moment: the scan then runs in slices on
// the copy while the program goes on (a page cannot stop it), and a heap
// dump is this copy written out (formats/heap_dump.js). Free memory and
// code data are not copied: the copy is about the size of the live heap.
//
// A memory is {starts, ends, offsets, words, pointerBytes}: segment i
// covers addresses [starts[i], ends[i]) and its bytes begin at byte
// offsets[i] of `words` (a Uint32Array); pointerBytes is the program's
// pointer size, 4 (wasm32) or 8 (wasm64), the word a scan reads.
// Invariants: segments are in address order, do not touch or overlap, and
// starts, ends and offsets are multiples of pointerBytes (a pointer of the
// wasm memory is an aligned pointer of the copy). Addresses are Numbers:
// a wasm64 memory's go past 4 GiB.
var FOUR_GIB = 4294967296;
'use strict';

var runSteps = require('./steps').runSteps;

// [[lo, hi]...] -> the segments covering them: widened to whole words of
// `unit` bytes (4 unless given), clipped to [0, size), sorted and merged.
function segmentsOf(ranges, size, unit) {
  var u = unit || 4;
  var list = [];
  ranges.forEach(function (r) {
    var lo = Math.max(0, Math.floor(r[0] / u) * u);
    var hi = Math.min(size, Math.ceil(r[1] / u) * u);
    if (hi > lo) list.push([lo, hi]);
  });
  // (copyForScan hands over its block ranges in order: up to a million of
  // them on a sparse heap, where a comparator sort would cost a second)
  var sorted = true;
  for (var i = 1; i < list.length && sorted; i++) sorted = list[i - 1][0] <= list[i][0];
  if (!sorted) list.sort(function (a, b) { return a[0] - b[0]; });
  var out = [];
  list.forEach(function (r) {
    var last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  });
  return out;
}

// Segments [[start, length]...] and their bytes one after another, and the
// pointer size (4 unless given) -> a memory.
function fromSegments(segments, bytes, pointerBytes) {
  var n = segments.length;
  var starts = new Float64Array(n);
  var ends = new Float64Array(n);
  var offsets = new Float64Array(n);
  var at = 0;
  for (var i = 0; i < n; i++) {
    starts[i] = segments[i][0];
    ends[i] = segments[i][0] + segments[i][1];
    offsets[i] = at;
    at += segments[i][1];
  }
  // (a copy when unaligned: new Uint8Array copies; a node Buffer's slice would not)
  var aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
  return {starts: starts, ends: ends, offsets: offsets, pointerBytes: pointerBytes || 4,
    words: new Uint32Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.byteLength / 4))};
}

// The memory's bytes now, where `ranges` lie: one copy, in one step.
// `into` (optional): memory made and touched beforehand (capture/layout.js
// copyArea), used when large enough. pointerBytes: 4 unless given.
function copyRanges(buffer, ranges, into, pointerBytes) {
  var segments = segmentsOf(ranges, buffer.byteLength, pointerBytes);
  var total = 0;
  segments.forEach(function (s) { total += s[1] - s[0]; });
  var bytes = into && into.length >= total ? into.subarray(0, total) : new Uint8Array(total);
  var source = new Uint8Array(buffer);
  var at = 0;
  segments.forEach(function (s) {
    bytes.set(source.subarray(s[0], s[1]), at);
    at += s[1] - s[0];
  });
  return fromSegments(segments.map(function (s) { return [s[0], s[1] - s[0]]; }), bytes, pointerBytes);
}

// Indices 0..n-1 of addr (a Uint32Array, or a Float64Array of wasm64
// addresses) in address order, as steps (a yield after each pass): a radix
// sort, 16 bits a pass (stable, so two passes sort wasm32's, three any
// address below 2^48), tens of ms for a million blocks where a comparison
// sort took 300 ms. (A Float64Array of addr * 2^32 + end, sorted, lost the
// end above 2 MB: doubles hold 53 bits.) Also model/heap_graph.js's order.
function* orderByAddressSteps(addr) {
  var n = addr.length;
  var order = new Uint32Array(n);
  var other = new Uint32Array(n);
  var highest = 0;
  for (var i = 0; i < n; i++) {
    order[i] = i;
    if (addr[i] > highest) highest = addr[i];
  }
  // the digits: (x >>> shift) takes x modulo 2^32 first, exact for any
  // integer a double holds; the third digit lies above 2^32 (its own
  // loops: a test in the first two passes' loops made them 2x slower)
  for (var shift = 0; shift < 32 || (shift < 48 && highest >= FOUR_GIB); shift += 16) {
    var count = new Uint32Array(65537);
    var c, e, o;
    if (shift < 32) {
      for (c = 0; c < n; c++) count[((addr[order[c]] >>> shift) & 0xFFFF) + 1]++;
    } else {
      for (c = 0; c < n; c++) count[(Math.floor(addr[order[c]] / FOUR_GIB) & 0xFFFF) + 1]++;
    }
    for (var d = 1; d <= 65536; d++) count[d] += count[d - 1];
    if (shift < 32) {
      for (e = 0; e < n; e++) {
        o = order[e];
        other[count[(addr[o] >>> shift) & 0xFFFF]++] = o;
      }
    } else {
      for (e = 0; e < n; e++) {
        o = order[e];
        other[count[Math.floor(addr[o] / FOUR_GIB) & 0xFFFF]++] = o;
      }
    }
    var swap = order;
    order = other;
    other = swap;
    yield;
  }
  return order;
}

// Blocks closer than this are copied as one segment, with the allocator's
// bytes between them (chunk headers: read by no scan): a million blocks
// become a few segments, and the copy a few large memcpys.
var JOIN_GAP = 4096;

// Whether the scan copies the span its blocks lie in whole, in one step:
// when they fill at least about half of it (the usual heap). Also how
// capture/layout.js copyArea sizes the memory it prepares for the copy.
function copiesWholeSpan(span, liveBytes) {
  return span <= 2 * liveBytes + (16 << 20);
}

// The memory a scan of these blocks (typed arrays addr and size, any
// order) and root ranges reads, copied now. When the blocks fill at least
// half of the span they lie in (the usual heap), the span is copied whole
// in one step; else the blocks are sorted and copied with small gaps
// joined. 1M blocks: tens of ms where a range per block took 2.7 s.
// `into`, pointerBytes: as for copyRanges.
function copyForScan(buffer, blocks, rootRanges, into, pointerBytes) {
  var n = blocks.addr.length;
  var lo = Infinity;
  var hi = 0;
  var live = 0;
  for (var k = 0; k < n; k++) {
    var a = blocks.addr[k];
    var e = a + blocks.size[k];
    if (a < lo) lo = a;
    if (e > hi) hi = e;
    live += blocks.size[k];
  }
  var ranges = [];
  if (n && copiesWholeSpan(hi - lo, live)) {
    ranges.push([lo, hi]);
  } else if (n) {
    var order = runSteps(orderByAddressSteps(blocks.addr));
    var from = blocks.addr[order[0]];
    var to = from + blocks.size[order[0]];
    for (var j = 1; j < n; j++) {
      var start = blocks.addr[order[j]];
      var end = start + blocks.size[order[j]];
      if (start - to > JOIN_GAP) {
        ranges.push([from, to]);
        from = start;
      }
      if (end > to) to = end;
    }
    ranges.push([from, to]);
  }
  // the block ranges are in order; the few roots are merged in, so that
  // segmentsOf finds the whole list in order and sorts nothing
  var roots = rootRanges.slice().sort(function (a, b) { return a[0] - b[0]; });
  var merged = [];
  var b = 0;
  roots.forEach(function (r) {
    while (b < ranges.length && ranges[b][0] <= r[0]) merged.push(ranges[b++]);
    merged.push(r);
  });
  while (b < ranges.length) merged.push(ranges[b++]);
  return copyRanges(buffer, merged, into, pointerBytes);
}

// A whole memory as it is (no copy): tests, and callers that scan at once.
function wholeMemory(words, pointerBytes) {
  return {starts: Float64Array.of(0), ends: Float64Array.of(words.length * 4), offsets: Float64Array.of(0), words: words,
    pointerBytes: pointerBytes || 4};
}

// The segment holding address a (a multiple of 4), or -1.
function segmentAt(memory, a) {
  var lo = 0;
  var hi = memory.starts.length - 1;
  while (lo <= hi) {
    var mid = (lo + hi) >>> 1;
    if (memory.ends[mid] <= a) lo = mid + 1;
    else if (memory.starts[mid] > a) hi = mid - 1;
    else return mid;
  }
  return -1;
}

// The copy's bytes, as a dump writes them.
function bytesOf(memory) {
  return new Uint8Array(memory.words.buffer, memory.words.byteOffset, memory.words.byteLength);
}

// [[start, length]...], as a dump lists them.
function segmentList(memory) {
  var out = [];
  for (var i = 0; i < memory.starts.length; i++) out.push([memory.starts[i], memory.ends[i] - memory.starts[i]]);
  return out;
}

module.exports = {orderByAddressSteps: orderByAddressSteps, copiesWholeSpan: copiesWholeSpan, segmentsOf: segmentsOf, fromSegments: fromSegments, copyRanges: copyRanges, copyForScan: copyForScan,
  wholeMemory: wholeMemory,
  segmentAt: segmentAt, bytesOf: bytesOf, segmentList: segmentList};
