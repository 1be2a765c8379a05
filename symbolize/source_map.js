// source_map.js -- maps wasm code offsets to source file and line, from the
// source map that `emcc -gsource-map` writes next to the .wasm.
//
// In a wasm source map every mapping sits on generated line 1 and its
// "column" is the byte offset in the module: the same number V8 prints in a
// stack frame (`wasm-function[12]:0x4d2`). So a lookup is a binary search
// for the last mapping at or before the offset.
'use strict';

var lastAtOrBefore = require('./sorted_search').lastAtOrBefore;

// The VLQ decoder of Vite, Babel and Jest (via @jridgewell/trace-mapping),
// bundled into the page by jslib/bundle.js: twice as fast as the loop it
// replaced (bench/README.md, library choices). Its lookup is not used:
// at an offset with several entries it gives the last, and a frame wants
// the first (below).
var decode = require('@jridgewell/sourcemap-codec').decode;

// "../../src/app.c" -> "src/app.c": paths relative to the build folder are
// noise in a profile; the file's own path is what a reader recognizes.
function cleanPath(p) {
  return String(p).replace(/^(\.\.?\/)+/, '');
}

// json: the parsed source map (version 3). bodyStarts: where the module's
// function bodies start (wasm_sections.js functionBodyStarts), or null.
// Returns {lookup(offset)} where lookup gives {file, line, inferred?} or
// null.
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
//
// Where the call's offset has no row of its own but follows a row without
// a source (a 1-field segment: binaryen's Emscripten 4.x/5.x at -O3 inlines
// emheap's own operator new[] into the caller and leaves its code so), the
// line is the nearest earlier row of the same function that has one, and
// says it was inferred. A row of another function is never used: with
// bodyStarts, a function whose code before the offset has no row gets no
// line (without them, the last row before the offset, as before).
function parseSourceMap(json, bodyStarts) {
  if (!json || json.version !== 3 || typeof json.mappings !== 'string' || !Array.isArray(json.sources)) {
    throw new Error('not a version 3 source map');
  }
  var root = json.sourceRoot ? String(json.sourceRoot).replace(/\/?$/, '/') : '';
  var sources = json.sources.map(function (s) { return cleanPath(root + s); });
  // (the decoder reads any other character as garbage, silently)
  if (!/^[A-Za-z0-9+/,;]*$/.test(json.mappings)) throw new Error('bad VLQ in source map');
  // Segments: [offset] or [offset, source, line, column(, name)], absolute.
  // A 1-field segment marks code with no source (compiler-made code).
  var decoded = decode(json.mappings);
  var total = 0;
  decoded.forEach(function (segments) { total += segments.length; });
  var offsets = new Float64Array(total);
  var files = new Int32Array(total);
  var lines = new Int32Array(total);
  var n = 0;
  decoded.forEach(function (segments) {
    for (var k = 0; k < segments.length; k++) {
      var seg = segments[k];
      offsets[n] = seg[0];
      files[n] = seg.length >= 4 ? seg[1] : -1;
      lines[n] = seg.length >= 4 ? seg[2] + 1 : 0;
      n++;
    }
  });
  return {
    lookup: function (offset) {
      var at = lastAtOrBefore(offsets, offset);
      if (at < 0) return null;
      var start = -Infinity; // the function's first byte, where known
      if (bodyStarts) {
        var body = lastAtOrBefore(bodyStarts, offset);
        if (body >= 0) start = bodyStarts[body];
        if (offsets[at] < start) return null; // the row is another function's
      }
      while (at > 0 && offsets[at - 1] === offsets[at]) at--; // the first entry at that offset
      if (files[at] >= 0) return {file: sources[files[at]], line: lines[at]};
      if (!bodyStarts) return null;
      for (var k = at - 1; k >= 0 && offsets[k] >= start; k--) {
        if (files[k] >= 0) return {file: sources[files[k]], line: lines[k], inferred: true};
      }
      return null;
    },
  };
}

module.exports = {parseSourceMap: parseSourceMap, cleanPath: cleanPath};
