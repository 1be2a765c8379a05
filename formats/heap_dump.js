// heap_dump.js: a heap dump: what the heap graph of one moment is made
// of, saved to be analyzed offline (WARPO's workflow: dump at a chosen
// moment, analyze later). emheap.dumpHeap() writes it (exact modes); the
// CLI reads it wherever it reads a snapshot (`emheap analyze`, `top`,
// `convert`, `diff`) and scans it with the same code as the page
// (model/heap_graph.js), so the numbers offline are the page's.
// Pure CommonJS, embedded in the --js-library too: see formats/README.md.
//
// The file, gzip-compressed (*.emheapdump.gz):
//   "EMHEAPDUMP 1\n"            magic and version
//   u32 little-endian n, then n bytes of header JSON (UTF-8):
//     {format: "emheap-dump", version: 1,
//      snapshot: the snapshot (emheap.snapshot({heap: true})), its heap
//                section cut to what a scan does not remake: blocks'
//                address, size, site and id, groups' names, notScanned, readOnlyData,
//      scan: {groups: [{name, ranges, ignoreTail, values}], skip: [[lo, hi]],
//             pointerBytes: 4, or 8 for a wasm64 program (absent: 4)}
//            (capture/heap_scan.js scanInputs: the roots and what is left out),
//      segments: [[start, length]...]: the memory the scan reads (roots'
//                ranges and live blocks), in address order, not overlapping}
//   the segments' bytes, one after another.
// Memory nobody scans (free chunks, the code's data the scan skips) is not
// in the file: a dump is about the size of the live heap.
'use strict';

var buildHeapGraph = require('../model/heap_graph').buildHeapGraph;
var heapSection = require('../model/heap_section');
var heapMemory = require('../model/heap_memory');

var MAGIC = 'EMHEAPDUMP 1\n';
var VERSION = 1;
var CHUNK_BYTES = 1 << 20;

// The snapshot as the dump carries it: the heap section without what a
// scan makes again (states, retained sizes, dominators, edges, totals).
function strippedSnapshot(snapshot) {
  var out = {};
  for (var k in snapshot) if (Object.prototype.hasOwnProperty.call(snapshot, k) && k !== 'heap') out[k] = snapshot[k];
  var h = snapshot.heap;
  out.heap = {
    groups: h.groups.map(function (g) { return {name: g.name}; }),
    notScanned: h.notScanned,
    readOnlyData: h.readOnlyData,
    blocks: {address: Array.from(h.blocks.address), size: Array.from(h.blocks.size), site: Array.from(h.blocks.site),
      id: Array.from(h.blocks.id)},
  };
  return out;
}

// snapshot: taken with {heap: true} (its heap section keeps `scan`: the
// roots and the copy of the memory the scan read, made at that moment).
// -> the dump ({header, bytes}).
function makeDump(snapshot) {
  var heap = snapshot.heap;
  if (!heap || !heap.scan) throw new Error('a heap dump needs a snapshot taken with {heap: true} (exact modes)');
  var memory = heap.scan.memory;
  var header = {
    format: 'emheap-dump', version: VERSION, snapshot: strippedSnapshot(snapshot),
    scan: {groups: heap.scan.groups, skip: heap.scan.skip, pointerBytes: memory.pointerBytes},
    segments: heapMemory.segmentList(memory),
  };
  return {header: header, bytes: heapMemory.bytesOf(memory)};
}

// The file's bytes (before gzip), as Uint8Array chunks.
function* dumpChunks(dump) {
  var json = new TextEncoder().encode(JSON.stringify(dump.header));
  var head = new Uint8Array(MAGIC.length + 4 + json.length);
  for (var i = 0; i < MAGIC.length; i++) head[i] = MAGIC.charCodeAt(i);
  new DataView(head.buffer).setUint32(MAGIC.length, json.length, true);
  head.set(json, MAGIC.length + 4);
  yield head;
  for (var at = 0; at < dump.bytes.length; at += CHUNK_BYTES) yield dump.bytes.subarray(at, at + CHUNK_BYTES);
}

// How the page and node write a dump (output/sinks.js saveSnapshot).
var DUMP_FILE = {chunks: dumpChunks, binary: true, gzip: true, suffix: '.emheapdump.gz', mime: 'application/gzip'};

// Do these (gunzipped) bytes start like a dump?
function isDump(bytes) {
  if (bytes.length < MAGIC.length) return false;
  for (var i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}

// Gunzipped file bytes -> {header, memory} (model/heap_memory.js).
function readDump(bytes) {
  if (!isDump(bytes)) throw new Error('not an emheap heap dump (no "EMHEAPDUMP 1" line)');
  var view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  var n = view.getUint32(MAGIC.length, true);
  var start = MAGIC.length + 4;
  if (start + n > bytes.length) throw new Error('damaged heap dump: its header runs past the end of the file');
  var header = JSON.parse(new TextDecoder().decode(bytes.subarray(start, start + n)));
  if (header.format !== 'emheap-dump' || header.version !== VERSION) {
    throw new Error('a heap dump of version ' + header.version + ': this emheap reads version ' + VERSION);
  }
  var pointerBytes = header.scan.pointerBytes || 4;
  if (pointerBytes !== 4 && pointerBytes !== 8) throw new Error('damaged heap dump: pointers of ' + pointerBytes + ' bytes');
  var length = 0;
  var last = 0;
  header.segments.forEach(function (s) {
    if (!(s[0] >= last && s[0] % pointerBytes === 0 && s[1] % pointerBytes === 0)) {
      throw new Error('damaged heap dump: its segments are out of order');
    }
    last = s[0] + s[1];
    length += s[1];
  });
  if (start + n + length !== bytes.length) {
    throw new Error('damaged heap dump: its segments hold ' + length + ' bytes, the file ' + (bytes.length - start - n));
  }
  return {header: header, memory: heapMemory.fromSegments(header.segments, bytes.subarray(start + n), pointerBytes)};
}

// Gunzipped file bytes -> the snapshot with its heap graph made again from
// the dumped memory, exactly as the page made it.
function analyzeDump(bytes) {
  var dump = readDump(bytes);
  var snapshot = dump.header.snapshot;
  var b = snapshot.heap.blocks;
  var blocks = {addr: (dump.memory.pointerBytes === 8 ? Float64Array : Uint32Array).from(b.address), size: Uint32Array.from(b.size),
    site: Uint32Array.from(b.site),
    serial: Uint32Array.from(b.id, function (id) { return (id - 1) / 2; })};
  var section = heapSection.toHeapSection(buildHeapGraph(dump.memory, blocks, dump.header.scan.groups, dump.header.scan.skip));
  section.notScanned = snapshot.heap.notScanned;
  if (snapshot.heap.readOnlyData) section.readOnlyData = snapshot.heap.readOnlyData;
  snapshot.heap = section;
  heapSection.addSiteTotals(snapshot);
  return snapshot;
}

module.exports = {makeDump: makeDump, DUMP_FILE: DUMP_FILE, isDump: isDump, readDump: readDump,
  analyzeDump: analyzeDump};
