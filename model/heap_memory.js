// heap_memory.js -- the parts of the wasm memory a heap scan reads (roots
// and live blocks), copied at one moment: the scan then runs in slices on
// the copy while the program goes on (a page cannot stop it), and a heap
// dump is this copy written out (formats/heap_dump.js). Free memory and
// code data are not copied: the copy is about the size of the live heap.
//
// A memory is {starts, ends, offsets, words}: segment i covers addresses
// [starts[i], ends[i]) and its bytes begin at byte offsets[i] of `words`.
// Invariants: segments are in address order, do not touch or overlap, and
// starts, ends and offsets are multiples of 4 (a word of the wasm memory is
// a word of the copy).
'use strict';

// [[lo, hi]...] -> the segments covering them: widened to whole words,
// clipped to [0, size), sorted and merged.
function segmentsOf(ranges, size) {
  var list = [];
  ranges.forEach(function (r) {
    var lo = Math.max(0, Math.floor(r[0] / 4) * 4);
    var hi = Math.min(size, Math.ceil(r[1] / 4) * 4);
    if (hi > lo) list.push([lo, hi]);
  });
  list.sort(function (a, b) { return a[0] - b[0]; });
  var out = [];
  list.forEach(function (r) {
    var last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  });
  return out;
}

// Segments [[start, length]...] and their bytes one after another -> a memory.
function fromSegments(segments, bytes) {
  var n = segments.length;
  var starts = new Uint32Array(n);
  var ends = new Uint32Array(n);
  var offsets = new Uint32Array(n);
  var at = 0;
  for (var i = 0; i < n; i++) {
    starts[i] = segments[i][0];
    ends[i] = segments[i][0] + segments[i][1];
    offsets[i] = at;
    at += segments[i][1];
  }
  // (a copy when unaligned: new Uint8Array copies; a node Buffer's slice would not)
  var aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
  return {starts: starts, ends: ends, offsets: offsets,
    words: new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength >>> 2)};
}

// The memory's bytes now, where `ranges` lie: one copy, in one step.
function copyRanges(buffer, ranges) {
  var segments = segmentsOf(ranges, buffer.byteLength);
  var total = 0;
  segments.forEach(function (s) { total += s[1] - s[0]; });
  var bytes = new Uint8Array(total);
  var source = new Uint8Array(buffer);
  var at = 0;
  segments.forEach(function (s) {
    bytes.set(source.subarray(s[0], s[1]), at);
    at += s[1] - s[0];
  });
  return fromSegments(segments.map(function (s) { return [s[0], s[1] - s[0]]; }), bytes);
}

// A whole memory as it is (no copy): tests, and callers that scan at once.
function wholeMemory(words) {
  return {starts: Uint32Array.of(0), ends: Uint32Array.of(words.length * 4), offsets: Uint32Array.of(0), words: words};
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

module.exports = {segmentsOf: segmentsOf, fromSegments: fromSegments, copyRanges: copyRanges, wholeMemory: wholeMemory,
  segmentAt: segmentAt, bytesOf: bytesOf, segmentList: segmentList};
