// source_map.js -- maps wasm code offsets to source file and line, from the
// source map that `emcc -gsource-map` writes next to the .wasm.
//
// In a wasm source map every mapping sits on generated line 1 and its
// "column" is the byte offset in the module: the same number V8 prints in a
// stack frame (`wasm-function[12]:0x4d2`). So a lookup is a binary search
// for the last mapping at or before the offset.
'use strict';

var BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
var DIGIT = {};
for (var d = 0; d < BASE64.length; d++) DIGIT[BASE64.charAt(d)] = d;

// "../../src/app.c" -> "src/app.c": paths relative to the build folder are
// noise in a profile; the file's own path is what a reader recognizes.
function cleanPath(p) {
  return String(p).replace(/^(\.\.?\/)+/, '');
}

// json: the parsed source map (version 3). Returns {lookup(offset)} where
// lookup gives {file, line} or null.
function parseSourceMap(json) {
  if (!json || json.version !== 3 || typeof json.mappings !== 'string' || !Array.isArray(json.sources)) {
    throw new Error('not a version 3 source map');
  }
  var root = json.sourceRoot ? String(json.sourceRoot).replace(/\/?$/, '/') : '';
  var sources = json.sources.map(function (s) { return cleanPath(root + s); });
  var offsets = [];
  var files = [];
  var lines = [];
  var state = [0, 0, 0, 0]; // column (offset), source, line, source column: all deltas
  var text = json.mappings;
  var i = 0;
  while (i < text.length) {
    var c = text.charAt(i);
    if (c === ',' || c === ';') {
      i++;
      if (c === ';') state[0] = 0;
      continue;
    }
    var fields = [];
    while (i < text.length && text.charAt(i) !== ',' && text.charAt(i) !== ';') {
      var value = 0;
      var shift = 0;
      var digit;
      do {
        digit = DIGIT[text.charAt(i++)];
        if (digit === undefined) throw new Error('bad VLQ in source map');
        value += (digit & 31) * Math.pow(2, shift);
        shift += 5;
      } while (digit & 32);
      fields.push(value & 1 ? -Math.floor(value / 2) : Math.floor(value / 2));
    }
    for (var f = 0; f < fields.length && f < 4; f++) state[f] += fields[f];
    // A 1-field segment marks code with no source (compiler-made code).
    offsets.push(state[0]);
    files.push(fields.length >= 4 ? state[1] : -1);
    lines.push(state[2] + 1);
  }
  return {
    lookup: function (offset) {
      var lo = 0;
      var hi = offsets.length - 1;
      if (hi < 0 || offset < offsets[0]) return null;
      while (lo < hi) {
        var mid = (lo + hi + 1) >> 1;
        if (offsets[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
      return files[lo] < 0 ? null : {file: sources[files[lo]], line: lines[lo]};
    },
  };
}

module.exports = {parseSourceMap: parseSourceMap};
