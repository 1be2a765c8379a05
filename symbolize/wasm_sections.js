// wasm_sections.js -- reads the custom sections of a wasm binary (the
// "name" section, "sourceMappingURL") without compiling it, so debug info
// can be found from the bytes alone in any JS engine. The bytes are read
// through wasm_reader.js.
'use strict';

var wasmReader = require('./wasm_reader');
var Reader = wasmReader.Reader;

var CODE = 10;

// bytes: Uint8Array of a whole module. Returns {sectionName: Uint8Array}
// for every custom section (id 0); throws on a file that is not wasm.
function customSections(bytes) {
  var out = {};
  wasmReader.sections(bytes).forEach(function (s) {
    if (s.id === 0) out[s.name] = bytes.subarray(s.payload, s.end);
  });
  return out;
}

// Module offset where the code section's contents start (its function
// count): DWARF addresses in wasm count from there. -1 without code.
function codeSectionStart(bytes) {
  var list = wasmReader.sections(bytes);
  for (var i = 0; i < list.length; i++) {
    if (list[i].id === CODE) return list[i].start;
  }
  return -1;
}

// Module offsets where the code section's function bodies start (each
// body's size field), ascending: which function an offset is in, for a
// source map, which knows only offsets (source_map.js). null without code.
function functionBodyStarts(bytes) {
  var start = codeSectionStart(bytes);
  if (start < 0) return null;
  var r = new Reader(bytes, start);
  var count = r.u32();
  var starts = new Float64Array(count);
  for (var i = 0; i < count && r.pos < bytes.length; i++) {
    starts[i] = r.pos;
    r.skipVec();
  }
  return starts;
}

// The "sourceMappingURL" section holds one name-encoded string, and so does
// "external_debug_info" (emcc -gseparate-dwarf: where the DWARF file is).
function externalDebugInfoURL(sections) {
  var s = sections.external_debug_info;
  return s ? new Reader(s).name() : '';
}

function sourceMappingURL(sections) {
  var s = sections.sourceMappingURL;
  return s ? new Reader(s).name() : '';
}

// One map of the name section ({index: name}): subsection `kind` (1:
// functions, 9: data segments).
function nameMap(sections, kind) {
  var s = sections.name;
  var names = {};
  if (!s) return names;
  var r = new Reader(s);
  while (r.pos < s.length) {
    var k = r.u8();
    var size = r.u32();
    var end = r.pos + size;
    if (k === kind) {
      for (var n = r.u32(); n > 0; n--) {
        var index = r.u32();
        names[index] = r.name();
      }
    }
    r.pos = end;
  }
  return names;
}

// The name section's function names: {functionIndex: name}.
function functionNames(sections) {
  return nameMap(sections, 1);
}

module.exports = {
  customSections: customSections, codeSectionStart: codeSectionStart, functionBodyStarts: functionBodyStarts,
  sourceMappingURL: sourceMappingURL, externalDebugInfoURL: externalDebugInfoURL,
  functionNames: functionNames, nameMap: nameMap,
};
