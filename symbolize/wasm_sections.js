// wasm_sections.js -- reads the custom sections of a wasm binary (the
// "name" section, "sourceMappingURL") without compiling it, so debug info
// can be found from the bytes alone in any JS engine.
'use strict';

function readLEB(bytes, at) {
  var result = 0;
  var shift = 0;
  for (;;) {
    if (at.pos >= bytes.length) throw new Error('truncated wasm (LEB128)');
    var b = bytes[at.pos++];
    result += (b & 0x7f) * Math.pow(2, shift);
    if (!(b & 0x80)) return result;
    shift += 7;
  }
}

function readName(bytes, at) {
  var len = readLEB(bytes, at);
  var s = '';
  var end = at.pos + len;
  // Section and function names are UTF-8; decode without TextDecoder so this
  // runs wherever the glue runs.
  var raw = '';
  for (var i = at.pos; i < end; i++) raw += String.fromCharCode(bytes[i]);
  try {
    s = decodeURIComponent(escape(raw));
  } catch (e) {
    s = raw;
  }
  at.pos = end;
  return s;
}

// bytes: Uint8Array of a whole module. Returns {sectionName: Uint8Array}
// for every custom section (id 0); throws on a file that is not wasm.
function customSections(bytes) {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new Error('not a wasm module');
  }
  var out = {};
  var at = {pos: 8};
  while (at.pos < bytes.length) {
    var id = bytes[at.pos++];
    var size = readLEB(bytes, at);
    var end = at.pos + size;
    if (id === 0) {
      var name = readName(bytes, at);
      out[name] = bytes.subarray(at.pos, end);
    }
    at.pos = end;
  }
  return out;
}

// Module offset where the code section's contents start (its function
// count): DWARF addresses in wasm count from there. -1 without code.
function codeSectionStart(bytes) {
  var at = {pos: 8};
  while (at.pos < bytes.length) {
    var id = bytes[at.pos++];
    var size = readLEB(bytes, at);
    if (id === 10) return at.pos;
    at.pos += size;
  }
  return -1;
}

// Module offsets where the code section's function bodies start (each
// body's size field), ascending: which function an offset is in, for a
// source map, which knows only offsets (source_map.js). null without code.
function functionBodyStarts(bytes) {
  var start = codeSectionStart(bytes);
  if (start < 0) return null;
  var at = {pos: start};
  var count = readLEB(bytes, at);
  var starts = new Float64Array(count);
  for (var i = 0; i < count && at.pos < bytes.length; i++) {
    starts[i] = at.pos;
    var bodySize = readLEB(bytes, at);
    at.pos += bodySize;
  }
  return starts;
}

// The "sourceMappingURL" section holds one name-encoded string, and so does
// "external_debug_info" (emcc -gseparate-dwarf: where the DWARF file is).
function externalDebugInfoURL(sections) {
  var s = sections.external_debug_info;
  return s ? readName(s, {pos: 0}) : '';
}

function sourceMappingURL(sections) {
  var s = sections.sourceMappingURL;
  return s ? readName(s, {pos: 0}) : '';
}

// The "name" section's function names: {functionIndex: name}.
function functionNames(sections) {
  var s = sections.name;
  var names = {};
  if (!s) return names;
  var at = {pos: 0};
  while (at.pos < s.length) {
    var kind = s[at.pos++];
    var size = readLEB(s, at);
    var end = at.pos + size;
    if (kind === 1) {
      var count = readLEB(s, at);
      for (var i = 0; i < count; i++) {
        var index = readLEB(s, at);
        names[index] = readName(s, at);
      }
    }
    at.pos = end;
  }
  return names;
}

module.exports = {
  customSections: customSections, codeSectionStart: codeSectionStart, functionBodyStarts: functionBodyStarts,
  sourceMappingURL: sourceMappingURL,
  externalDebugInfoURL: externalDebugInfoURL, functionNames: functionNames, readName: readName, readLEB: readLEB,
};
