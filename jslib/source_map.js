// source_map.js -- maps wasm code offsets to source file and line, from the
// source map that `emcc -gsource-map` writes next to the .wasm.
//
// In a wasm source map every mapping sits on generated line 1 and its
// "column" is the byte offset in the module: the same number V8 prints in a
// stack frame (`wasm-function[12]:0x4d2`). So a lookup is a binary search
// for the last mapping at or before the offset.
'use strict';

var lastAtOrBefore = require('./sorted_search').lastAtOrBefore;

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
//
// Which line an offset gets. A frame's offset is its call instruction.
// When wasm-opt inlines a callee (operator new[] into the caller), the
// source map can hold several entries at the call's offset: the caller's
// line first, then the inlined callee's (libcxx's new.cpp). The frame is the
// caller's, so it gets the first. (Measured on em++ 3.1.6 -O2: new[] and a
// std::string constructor then name the app's line; a std::vector growth or
// make_unique whose call sits deeper in inlined libc++ code keeps the libc++
// header line: a source map has no inlining records, and the nearest earlier
// app line was tried and named the previous statement, which misleads more
// than a header line does.)
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
      var at = lastAtOrBefore(offsets, offset);
      if (at < 0) return null;
      while (at > 0 && offsets[at - 1] === offsets[at]) at--; // the first entry at that offset
      return files[at] < 0 ? null : {file: sources[files[at]], line: lines[at]};
    },
  };
}


module.exports = {parseSourceMap: parseSourceMap, cleanPath: cleanPath};
