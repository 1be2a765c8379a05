// read_only_data.js -- which parts of a module's static data are read-only
// constants, from the module itself, so that the heap scan does as
// LeakSanitizer does: writable data (.data, .bss) holds roots, read-only
// data (.rodata) does not. A constant table of numbers can hold a value
// that happens to be a block's address; taken for a root, it makes a leaked
// block read "still reachable".
//
// wasm-ld names its output data segments after their sections (.rodata,
// .data, .tdata; binaryen's memory packing splits them into ".rodata.1"...
// and keeps the names) in the name section's data segment names
// (subsection 9), which a module linked with --profiling-funcs or -g
// keeps. An active segment says where it goes (i32.const); a passive one
// (-pthread) is copied by __wasm_init_memory's memory.init, whose
// destination is an i32.const just before it. Without the names, or with
// a destination that is not a constant, where read-only data lies is not
// known, and the result says why instead of guessing.
'use strict';

var wasmReader = require('./wasm_reader');
var wasmSections = require('./wasm_sections');
var Reader = wasmReader.Reader;

var DATA_SEGMENT_NAMES = 9; // name section subsection
var FUNCTION_NAMES = 1;

// An i32.const's operand as an address.
function address(r) {
  return r.sleb() >>> 0;
}

// The module's sections other than custom ones: {id: {start, end}}.
function standardSections(bytes) {
  var out = {};
  wasmReader.sections(bytes).forEach(function (s) {
    if (s.id) out[s.id] = {start: s.start, end: s.end};
  });
  return out;
}

// Data segments: [{index, size, dest (undefined for passive; null for an
// offset that is not a constant)}].
function dataSegments(bytes, s) {
  var r = new Reader(bytes, s.start);
  var out = [];
  for (var n = r.u32(), i = 0; i < n; i++) {
    var flags = r.u32();
    var dest;
    if (flags !== 1) {
      if (flags === 2) r.u32(); // memory index
      var op = r.u8();
      dest = op === 0x41 ? address(r) : null;
      if (dest === null) return out.concat({index: i, dest: null, size: 0});
      if (r.u8() !== 0x0b) return out.concat({index: i, dest: null, size: 0});
    }
    var size = r.u32();
    r.pos += size;
    out.push({index: i, dest: dest, size: size});
  }
  return out;
}

function importedFunctions(bytes, s) {
  if (!s) return 0;
  var r = new Reader(bytes, s.start);
  var funcs = 0;
  for (var n = r.u32(); n > 0; n--) {
    r.skipVec(); // module
    r.skipVec(); // field
    var kind = r.u8();
    if (kind === 0) {
      funcs++;
      r.u32();
    } else if (kind === 1 || kind === 2) {
      if (kind === 1) r.u8(); // element type
      var limits = r.u8();
      r.u32();
      if (limits & 1) r.u32();
    } else if (kind === 3) {
      r.u8();
      r.u8();
    } else if (kind === 4) {
      r.u8();
      r.u32();
    } else {
      throw new Error('import of unknown kind ' + kind);
    }
  }
  return funcs;
}

// Destinations of the passive segments, from the memory.init calls in the
// body of `funcIndex`: i32.const dest, i32.const src, i32.const size,
// memory.init seg 0. {segment: dest}.
function memoryInitDestinations(bytes, code, bodyIndex) {
  var r = new Reader(bytes, code.start);
  var n = r.u32();
  if (bodyIndex < 0 || bodyIndex >= n) return {};
  for (var i = 0; i < bodyIndex; i++) r.skipVec();
  var end = r.u32() + r.pos;
  var body = bytes.subarray(r.pos, end);
  var out = {};
  for (var at = 0; at < body.length; at++) {
    if (body[at] !== 0x41) continue;
    try {
      var b = new Reader(body, at + 1);
      var dest = address(b);
      if (b.u8() !== 0x41) continue;
      b.skipLeb();
      if (b.u8() !== 0x41) continue;
      b.skipLeb();
      if (b.u8() !== 0xfc || b.u32() !== 8) continue;
      var seg = b.u32();
      if (b.u8() !== 0) continue;
      out[seg] = dest;
    } catch (e) {
      // not such a run: go on
    }
  }
  return out;
}

// bytes: the whole module. -> {ranges: [[lo, hi), ...]} of read-only data,
// sorted, or {unknown: why}.
function readOnlyData(bytes) {
  try {
    var custom = wasmSections.customSections(bytes);
    var std = standardSections(bytes);
    if (!std[11]) return {ranges: []};
    var names = wasmSections.nameMap(custom, DATA_SEGMENT_NAMES);
    if (!Object.keys(names).length) return {unknown: 'the module has no data segment names (it was linked without --profiling-funcs or -g)'};
    var segments = dataSegments(bytes, std[11]);
    var passive = null;
    var ranges = [];
    for (var i = 0; i < segments.length; i++) {
      var seg = segments[i];
      if (!/^\.rodata(\.|$)/.test(names[seg.index] || '')) continue;
      var dest = seg.dest;
      if (dest === undefined) {
        if (!passive) {
          var functions = wasmSections.nameMap(custom, FUNCTION_NAMES);
          var init = Object.keys(functions).filter(function (k) { return functions[k] === '__wasm_init_memory'; })[0];
          if (init === undefined || !std[10]) return {unknown: 'the module copies its data with no __wasm_init_memory named'};
          passive = memoryInitDestinations(bytes, std[10], Number(init) - importedFunctions(bytes, std[2]));
        }
        dest = passive[seg.index];
      }
      if (dest === undefined || dest === null) return {unknown: 'data segment ' + seg.index + ' has no constant address'};
      if (seg.size) ranges.push([dest, dest + seg.size]);
    }
    ranges.sort(function (a, b) { return a[0] - b[0]; });
    return {ranges: ranges};
  } catch (e) {
    return {unknown: 'the module could not be read (' + (e && e.message || e) + ')'};
  }
}

module.exports = {readOnlyData: readOnlyData};
