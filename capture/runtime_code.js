// runtime_code.js -- which functions of the linked module are emheap's own
// runtime: those between runtime/code_first.c's function and
// runtime/code_last.c's, inclusive (the linker keeps emheap.o's functions
// together, in order; see code_first.c). The frames of an allocation's
// stack in that range are the runtime's, whatever inlining left of it and
// whether or not the module has function names.
'use strict';

// The function index of an exported wasm function: its `name` is the index
// as a string (WebAssembly JS API, in V8 and SpiderMonkey alike). Each
// candidate is one form Emscripten may hold the export in (its JS variable,
// which 3.1.x keeps a lazy stub in until the first call, or the raw
// exports object); -1 if none is the export itself.
function exportedIndex(candidates) {
  for (var i = 0; i < candidates.length; i++) {
    var fn = candidates[i];
    if (typeof fn === 'function' && /^\d+$/.test(fn.name)) return Number(fn.name);
  }
  return -1;
}

// exports: {first: [candidates], last: [candidates]} (the library's
// host.runtimeCodeExports) -> {first, last} (function indices), or null
// when the module does not say (not instantiated yet, or no markers).
function runtimeCode(exports) {
  var first = exportedIndex(exports.first);
  var last = exportedIndex(exports.last);
  return first >= 0 && last > first ? {first: first, last: last} : null;
}

function inRuntimeCode(code, frame) {
  return !!code && frame.wasm && !frame.side && frame.funcIndex >= code.first && frame.funcIndex <= code.last;
}

module.exports = {runtimeCode: runtimeCode, inRuntimeCode: inRuntimeCode};
